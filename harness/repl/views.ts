/**
 * Read-only views of a running Buzzard cube for the debugger REPL: one CAM,
 * one node's queues, the links, the deadlock check, the message list and
 * run statistics. Each returns text lines; none changes the model.
 */
import type { ChalkInstance } from 'chalk';
import type { Simulator } from '../../rtl/kernel/index.ts';
import type { BuzzardCube } from '../../rtl/buzzard/network.ts';
import type { BuzzardNode } from '../../rtl/buzzard/node.ts';
import { geometry } from '../../rtl/buzzard/config.ts';
import { ramAddress } from '../../rtl/buzzard/buffer_ram.ts';
import { PBU_IN_STATES, PBU_OUT_STATES, PBU_TX_PHASES, type PacketBufferUnit } from '../../rtl/buzzard/packet_buffer_unit.ts';
import { SLOT_STATES } from '../../rtl/buzzard/node_output_port.ts';
import { INPUT_STATES } from '../../rtl/buzzard/node_input_port.ts';
import { ENGINE_STATES, RX_STATES } from '../../rtl/buzzard/control_unit.ts';
import { ANY, FLAG } from '../../rtl/buzzard/header_blocks.ts';
import { EVENT_KINDS, type TraceEvent } from '../../traces/events/vocabulary.ts';
import { describeDeadlock, findDeadlock, fullWaitingPbus } from '../rtl/deadlock.ts';
import type { EventRecorder } from '../rtl/events.ts';
import type { ReplDriver } from './driver.ts';
import { bin, fieldValue, table } from './format.ts';

export interface ViewContext {
  readonly sim: Simulator;
  readonly cube: BuzzardCube;
  readonly driver: ReplDriver;
  readonly rec: EventRecorder;
  readonly c: ChalkInstance;
}

const IN_FILLING = new Set(['dest', 'camLoad', 'sync', 'word', 'postSync'].map((s) => PBU_IN_STATES.indexOf(s as (typeof PBU_IN_STATES)[number])));

/** The unit behind next port p of node x: the node input port (0) or PBU p of the neighbour across dimension p. */
export function targetUnit(n: number, x: number, p: number): string {
  if (p === 0) return `node${x}.nip`;
  if (p >= 1 && p <= n) return `node${x ^ (1 << (p - 1))}.pbu${p}`;
  return p === 15 ? '(free)' : `?port ${p}`;
}

export function checkNode(cube: BuzzardCube, text: string | undefined, what: string): number {
  if (text === undefined) throw new Error(`${what}: which node? (0..${cube.nodes.length - 1}, e.g. 3 or node3)`);
  const m = /^(?:node)?(\d+)$/.exec(text);
  const x = m ? Number(m[1]) : NaN;
  if (!(Number.isInteger(x) && x >= 0 && x < cube.nodes.length)) throw new Error(`${what}: node '${text}' is outside 0..${cube.nodes.length - 1}`);
  return x;
}

export function checkUnit(cube: BuzzardCube, text: string | undefined, what: string): number {
  const n = cube.cfg.n;
  if (text === undefined) throw new Error(`${what}: which packet buffer unit? (1..${n}, e.g. 1 or pbu1)`);
  const m = /^(?:pbu)?(\d+)$/.exec(text);
  const i = m ? Number(m[1]) : NaN;
  if (!(Number.isInteger(i) && i >= 1 && i <= n)) throw new Error(`${what}: unit '${text}' is not a packet buffer unit 1..${n} (pbu1..pbu${n})`);
  return i;
}

/**
 * Source node of the packet in RAM slot `slot` of PBU `pbu` (word 0 of the
 * slot is the source word, DESIGN.md "Framing"), or '?' while that word has
 * not been written yet (the input controller is still filling the slot).
 */
function packetSource(v: ViewContext, node: BuzzardNode, pbu: PacketBufferUnit, slot: number): string {
  const sim = v.sim;
  const geo = geometry(v.cube.cfg);
  const addr = ramAddress(pbu.index, slot, 0, { camHeight: v.cube.cfg.camHeight, slotWords: geo.slotWords });
  if (IN_FILLING.has(sim.peek(pbu.inState)) && sim.peek(pbu.inSlot) === slot && sim.peek(pbu.inAddr) <= addr) return '?';
  const w = sim.peekMem(node.ram.mem, addr);
  return String(w & (v.cube.nodes.length - 1));
}

export interface CamRowInfo {
  contrary: number;
  port: number;
  /** The unit behind the next port. */
  next: string;
  /** L: 16-bit words after the destination word. */
  len: number;
  /** Destination, with ' bcast' for a broadcast-tagged one. */
  dest: string;
  slot: number;
  /** Source node from the RAM, '?' until written. */
  src: string;
}

/** Row `r` of the CAM of PBU i of node x, decoded, with the packet's source from the buffer RAM. */
export function camRow(v: ViewContext, x: number, i: number, r: number): CamRowInfo {
  const cfg = v.cube.cfg;
  const node = v.cube.nodes[x]!;
  const pbu = node.pbus[i - 1]!;
  const geo = geometry(cfg);
  const F = Object.fromEntries(geo.camFields.map((f) => [f[0], f])) as Record<string, readonly [string, number, number]>;
  const val = v.sim.peek(pbu.cam.rows[r]!);
  const f = (name: string): number => fieldValue(val, F[name]![1], F[name]![2]);
  const port = f('port');
  const dest = f('dest');
  const slot = f('slot');
  return {
    contrary: f('contrary'),
    port,
    next: targetUnit(cfg.n, x, port),
    len: f('len'),
    dest: dest & 0x8000 ? `${dest & 0x7fff} bcast` : String(dest),
    slot,
    src: packetSource(v, node, pbu, slot),
  };
}

export function camView(v: ViewContext, x: number, i: number): string[] {
  const { sim, cube, c } = v;
  const cfg = cube.cfg;
  const node = cube.nodes[x]!;
  const pbu = node.pbus[i - 1]!;
  const geo = geometry(cfg);
  const slotF = geo.camFields.find((f) => f[0] === 'slot')!;
  const H = cfg.camHeight;
  const used = sim.peek(pbu.cam.used);
  const lines: string[] = [];
  const rx = v.rec.pbuRx(x, i);
  const tx = v.rec.pbuTx(x, i);
  lines.push(
    c.bold(`${pbu.path} CAM: ${used}/${H} rows used`) +
      `, free row register ${sim.peek(pbu.freeRows)}, input ${PBU_IN_STATES[sim.peek(pbu.inState)]}, output ${PBU_OUT_STATES[sim.peek(pbu.outState)]} (${PBU_TX_PHASES[sim.peek(pbu.txPhase)]}), request register ${bin(sim.peek(pbu.reqReg), pbu.reqReg.width)}, block ${sim.peek(pbu.block)}`,
  );
  if (rx !== undefined || tx !== undefined) lines.push(`  receiving ${rx === undefined ? '-' : v.rec.label(rx)}, forwarding ${tx === undefined ? '-' : v.rec.label(tx)}`);
  const rows: string[][] = [];
  for (let r = 0; r < used; r++) {
    const w = camRow(v, x, i, r);
    rows.push([String(r), String(w.contrary), String(w.port), w.next, `${w.len} (${2 * w.len + 2} B)`, w.dest, String(w.slot), w.src]);
  }
  if (rows.length) {
    for (const l of table(['row', 'C', 'P', 'next unit', 'L words', 'dest', 'slot', 'src'], rows, c)) lines.push(`  ${l}`);
  } else lines.push('  no packets buffered');
  if (used < H) {
    const slots: number[] = [];
    for (let r = used; r < H; r++) slots.push(fieldValue(sim.peek(pbu.cam.rows[r]!), slotF[1], slotF[2]));
    lines.push(`  free rows ${used}..${H - 1} (RAM slots ${slots.join(' ')})`);
  }
  return lines;
}

export function queuesView(v: ViewContext, x: number): string[] {
  const { sim, cube, driver, rec, c } = v;
  const n = cube.cfg.n;
  const node = cube.nodes[x]!;
  const cu = node.cu!;
  const lines: string[] = [c.bold(`node ${x} queues at cycle ${sim.cycle}`)];
  const msgAt = (blk: number): string => {
    const m = driver.sent.find((s) => s.src === x && s.block === blk);
    return m ? `msg ${m.id} (→${m.broadcast ? '*' : m.dest}, ${m.data.length} B)` : `block 0x${blk.toString(16)}`;
  };
  lines.push('send side (control unit queues → node output port slots):');
  const rows: string[][] = [];
  for (let j = 1; j <= n; j++) {
    const r = cu.slots[j - 1]!;
    const sl = node.nop.slots[j - 1]!;
    const act = sim.peek(r.act);
    const p = rec.slotPacket(x, j);
    rows.push([
      `slot${j}`,
      String(sim.peek(r.qLen)),
      act ? msgAt(sim.peek(r.blk)) : '-',
      SLOT_STATES[sim.peek(sl.state)] ?? '?',
      p === undefined ? '-' : rec.label(p),
      String(sim.peek(sl.pfAvail)),
      String(sim.peek(r.refusals)),
      String(sim.peek(r.packets)),
    ]);
  }
  for (const l of table(['slot', 'queued', 'active message', 'state', 'packet', 'pfAvail', 'refusals', 'heads loaded'], rows, c)) lines.push(`  ${l}`);
  const mBusy = sim.peek(cu.mBusy);
  const mq = sim.peek(cu.mqHead);
  lines.push(`  broadcast queue: ${mq ? `head ${msgAt(mq)}` : 'empty'}${mBusy ? ', a broadcast in flight' : ''}`);
  lines.push('receive side:');
  const nip = node.nip;
  const np = rec.nipPacket(x);
  lines.push(
    `  node input port ${INPUT_STATES[sim.peek(nip.state)]}, FIFO ${sim.peek(nip.count)}/${nip.depth} words${np !== undefined ? `, receiving ${rec.label(np)}` : ''}, block ${sim.peek(nip.block)}`,
  );
  const st = sim.peek(cu.st);
  lines.push(
    `  control unit engine ${ENGINE_STATES[st]}, receive task ${RX_STATES[sim.peek(cu.rxSt)]}; ANY-receive queue ${sim.peek(cu.anyCount)}, unclaimed messages ${sim.peek(cu.ucCount)}, arriving-unexpected list ${sim.peek(cu.auHead) ? 'not empty' : 'empty'}`,
  );
  lines.push(`  arrival tracking unit: ${sim.peek(node.atu.freeCount)} free entries; control unit errors ${sim.peek(cu.errCount)}`);
  const posted = driver.receives.filter((r) => r.node === x);
  const pending = posted.filter((r) => driver.received(r).progress !== FLAG.complete);
  lines.push(`  posted receives: ${posted.length} (${pending.length} not complete)`);
  lines.push('packet buffer units (buffered packets / CAM rows):');
  const prow = node.pbus.map((p, k) => {
    const tx = rec.pbuTx(x, k + 1);
    const rx = rec.pbuRx(x, k + 1);
    return [
      p.name,
      `${sim.peek(p.cam.used)}/${cube.cfg.camHeight}`,
      String(sim.peek(p.freeRows)),
      PBU_IN_STATES[sim.peek(p.inState)]!,
      PBU_OUT_STATES[sim.peek(p.outState)]!,
      rx === undefined ? '-' : rec.label(rx),
      tx === undefined ? '-' : rec.label(tx),
    ];
  });
  for (const l of table(['unit', 'used', 'free reg', 'input', 'output', 'receiving', 'forwarding'], prow, c)) lines.push(`  ${l}`);
  return lines;
}

export function linksView(v: ViewContext, all: boolean): string[] {
  const { sim, cube, rec, c } = v;
  const n = cube.cfg.n;
  const rows: string[][] = [];
  let carrying = 0;
  let held = 0;
  let blockedIdle = 0;
  let idle = 0;
  for (let x = 0; x < cube.nodes.length; x++) {
    const node = cube.nodes[x]!;
    for (let j = 1; j <= n; j++) {
      const fcu = node.fcus[j - 1]!;
      const y = x ^ (1 << (j - 1));
      const busy = sim.peek(fcu.xbusy) === 1;
      const blocked = sim.peek(fcu.txBlock) === 1;
      let state: string;
      if (busy && blocked) {
        state = c.yellow('held (receiver blocks)');
        held++;
      } else if (busy) {
        state = c.green('carrying bits');
        carrying++;
      } else if (blocked) {
        state = c.red('blocked (receiver full)');
        blockedIdle++;
      } else {
        state = 'idle';
        idle++;
      }
      if (!all && !busy && !blocked) continue;
      const p = busy ? rec.pbuRx(y, j) : undefined;
      rows.push([`node${x} -${j}-> node${y}`, busy ? String(sim.peek(fcu.txBit)) : '-', state, p === undefined ? '' : rec.label(p), String(sim.peek(fcu.busyCycles)), String(sim.peek(fcu.packets))]);
    }
  }
  const total = cube.nodes.length * n;
  const lines = [`${total} links at cycle ${sim.cycle}: ${carrying} carrying bits, ${held} held by their receiver, ${blockedIdle} blocked while idle, ${idle} idle`];
  if (rows.length) for (const l of table(['link (dimension)', 'bit', 'state', 'packet', 'busy cycles', 'packets'], rows, c)) lines.push(`  ${l}`);
  return lines;
}

export function deadlockView(v: ViewContext): string[] {
  const d = findDeadlock(v.sim, v.cube);
  if (d) return describeDeadlock(d).split('\n').map((l, k) => (k === 0 ? v.c.red(l) : l));
  const fw = fullWaitingPbus(v.sim, v.cube);
  const lines = [`no deadlock at cycle ${v.sim.cycle}: no closed cycle of full, waiting packet buffer units`];
  if (fw.length) lines.push(`  full and waiting (not a closed cycle, may still drain): ${fw.join(', ')}`);
  return lines;
}

const FLAG_NAMES: Record<number, string> = { [FLAG.idle]: 'queued', [FLAG.inProgress]: 'in progress', [FLAG.complete]: 'complete' };

export function messagesView(v: ViewContext): string[] {
  const { driver, c } = v;
  const lines: string[] = [];
  if (driver.sent.length === 0 && driver.receives.length === 0) return ['no messages sent or receives posted (use send, receive or load)'];
  if (driver.sent.length) {
    const rows = driver.sent.map((m) => {
      const f = driver.sendFlag(m);
      return [String(m.id), `${m.src}→${m.broadcast ? '*' : m.dest}`, String(m.data.length), String(m.type), String(m.cycle), `${FLAG_NAMES[f.progress] ?? `flag ${f.progress}`}${f.error ? ` error ${f.error}` : ''}`];
    });
    lines.push(...table(['msg', 'route', 'bytes', 'type', 'cycle', 'send flag'], rows, c));
  }
  if (driver.receives.length) {
    if (lines.length) lines.push('');
    const rows = driver.receives.map((r) => {
      const g = driver.received(r);
      return [
        `r${r.id}`,
        String(r.node),
        r.source === ANY ? 'any' : String(r.source),
        r.type === ANY ? 'any' : String(r.type),
        String(r.size),
        String(r.cycle),
        `${FLAG_NAMES[g.progress] ?? `flag ${g.progress}`}${g.error ? ` error ${g.error}` : ''}`,
        g.progress === FLAG.complete ? `${g.length} B from ${g.source}` : '',
      ];
    });
    lines.push(...table(['recv', 'node', 'from', 'type', 'buffer', 'cycle', 'flag', 'got'], rows, c));
  }
  return lines;
}

export function formatEvent(e: TraceEvent): string {
  return `t=${e.t} ${e.kind} msg ${e.msg}${e.packet !== undefined ? `#${e.packet}` : ''} node ${e.node}${e.unit ? ` ${e.unit}` : ''}${e.port !== undefined ? ` port ${e.port}` : ''}`;
}

export function statsView(v: ViewContext, extra: string[]): string[] {
  const { sim, cube, driver, rec } = v;
  const lines: string[] = [];
  const n = cube.cfg.n;
  lines.push(`cycle ${sim.cycle}; ${sim.net.signals.length} signals, ${sim.net.memories.length} memories; ${sim.evaluations.toLocaleString('en-US')} process evaluations, ${sim.skipped.toLocaleString('en-US')} cycles fast-forwarded`);
  const done = driver.sent.filter((m) => driver.sendFlag(m).progress === FLAG.complete).length;
  const rdone = driver.receives.filter((r) => driver.received(r).progress === FLAG.complete).length;
  lines.push(`messages: ${driver.sent.length} sent (${done} complete); receives: ${driver.receives.length} posted (${rdone} complete)`);
  const byKind = EVENT_KINDS.map((k) => [k, rec.events.filter((e) => e.kind === k).length] as const).filter(([, k]) => k > 0);
  lines.push(`events: ${rec.events.length}${byKind.length ? ` (${byKind.map(([k, m]) => `${k} ${m}`).join(', ')})` : ''}${rec.anomalies.length ? `; ${rec.anomalies.length} recorder notes (first: ${rec.anomalies[0]})` : ''}`);
  let busy = 0;
  let held = 0;
  let packets = 0;
  for (const node of cube.nodes) {
    for (const f of node.fcus) {
      busy += sim.peek(f.busyCycles);
      held += sim.peek(f.holdCycles);
      packets += sim.peek(f.packets);
    }
  }
  const links = cube.nodes.length * n;
  const util = sim.cycle > 0 ? (100 * busy) / (links * sim.cycle) : 0;
  lines.push(`links: ${links}; ${packets} packets sent on links, ${busy} busy cycles (${util.toFixed(2)}% utilisation), ${held} of them held by the receiver`);
  lines.push(...extra);
  return lines;
}
