/**
 * REPL stimulus: send, receive, load, poke. Each is applied all or nothing
 * and logged with its cycle, so back and restore can replay it.
 */
import { readFileSync } from 'node:fs';
import { Memory } from '../../rtl/kernel/index.ts';
import { DEFAULT_CYCLES_PER_TICK, messagePattern } from '../rtl/run_workload.ts';
import { parseWorkloadFile } from '../workloads/trace-file.ts';
import { idRange, plural } from '../cli/text.ts';
import { ReplError, type CommandDef } from './common.ts';
import type { ReplEngine } from './engine.ts';
import { formatValue, hex } from './format.ts';
import { checkNode } from './views.ts';

export function stimulusCommands(e: ReplEngine): CommandDef[] {
  return [
    {
      name: 'send',
      aliases: [],
      usage: 'send <src> <dst> <bytes> [type]',
      summary: "issue a send instruction on node src's CPU now (type 1..32767, default 1)",
      help: ['The data are a deterministic pattern of the message id. The message id is printed; events name it.', 'Post a matching receive on dst (receive) or the message waits in a system buffer.'],
      arg: 'node',
      run: (a) => cmdSend(e, a),
    },
    {
      name: 'receive',
      aliases: ['recv'],
      usage: 'receive <node> <src | any> [bytes] [type | any]',
      summary: 'post a receive on node (buffer bytes default 4096, type default 1)',
      help: [],
      arg: 'node',
      run: (a) => cmdReceive(e, a),
    },
    {
      name: 'load',
      aliases: [],
      usage: 'load <trace file>',
      summary: 'schedule a workload trace file (time source destination length per line) from now',
      help: [
        'harness/workloads/trace-file.ts format; times are relative to the current cycle, in the',
        `file's unit (# unit: cycles, or ticks = ${DEFAULT_CYCLES_PER_TICK} cycles). Each message gets a matching receive posted now.`,
      ],
      arg: 'file',
      run: (a) => cmdLoad(e, a),
    },
    {
      name: 'poke',
      aliases: ['force', 'set-signal'],
      usage: 'poke <name | memory[addr]> <value>',
      summary: 'set a register (holds until its logic writes it), force a wire for one cycle, or write a memory word',
      help: ['Values: decimal, 0x hex, 0b binary, or a state name of an FSM register.'],
      arg: 'signal',
      run: (a) => cmdPoke(e, a),
    },
  ];
}

export function stimulus(e: ReplEngine, text: string, apply: () => void): void {
  const pre = e.sim.save();
  try {
    apply();
  } catch (err) {
    e.sim.restore(pre);
    throw err;
  }
  e.log.push({ cycle: e.sim.cycle, text, apply });
}

export function programRoom(e: ReplEngine, node: number, want: number): void {
  const d = e.driver;
  const used = d.sent.filter((m) => m.src === node).length + d.receives.filter((r) => r.node === node).length;
  const cap = e.cube.nodes[node]!.cpu!.progDepth;
  if (used + want > cap) throw new ReplError(`node ${node}: the CPU stand-in holds ${cap} instructions and ${used} are issued already`);
}

export function cmdSend(e: ReplEngine, a: string[]): void {
  if (a.length < 3 || a.length > 4) throw new ReplError('usage: send <src> <dst> <bytes> [type]');
  const src = checkNode(e.cube, a[0], 'send src');
  const dst = checkNode(e.cube, a[1], 'send dst');
  if (src === dst) throw new ReplError(`send: source and destination are both node ${src}`);
  const bytes = e.intArg(a[2], 'bytes', 1, 1 << 20);
  const type = e.intArg(a[3], 'type', 1, 0x7fff, 1);
  programRoom(e, src, 1);
  if (bytes + 64 > e.driver.free(src)) throw new ReplError(`send: node ${src} has ${e.driver.free(src)} bytes of user memory left`);
  const id = e.driver.sent.length;
  const at = e.sim.cycle;
  stimulus(e, `send ${src} ${dst} ${bytes} ${type}`, () => {
    e.driver.send(src, dst, messagePattern(id, bytes), at, type);
  });
  e.emit(`message ${id}: node ${src} -> node ${dst}, ${bytes} bytes, type ${type}, issued at cycle ${at}`);
}

export function cmdReceive(e: ReplEngine, a: string[]): void {
  if (a.length < 2 || a.length > 4) throw new ReplError('usage: receive <node> <src | any> [bytes] [type | any]');
  const node = checkNode(e.cube, a[0], 'receive node');
  const src = a[1] === 'any' ? ('any' as const) : checkNode(e.cube, a[1], 'receive src');
  const size = e.intArg(a[2], 'bytes', 1, 1 << 20, 4096);
  const type = a[3] === 'any' ? ('any' as const) : e.intArg(a[3], 'type', 1, 0x7fff, 1);
  programRoom(e, node, 1);
  if (size + 64 > e.driver.free(node)) throw new ReplError(`receive: node ${node} has ${e.driver.free(node)} bytes of user memory left`);
  const id = e.driver.receives.length;
  const at = e.sim.cycle;
  stimulus(e, `receive ${node} ${src} ${size} ${type}`, () => {
    e.driver.receive(node, src, size, at, type);
  });
  e.emit(`receive r${id}: node ${node} from ${src}, ${size}-byte buffer, type ${type}, posted at cycle ${at}`);
}

export function cmdLoad(e: ReplEngine, a: string[]): void {
  e.buzzard(); // the trace file's nodes are a cube's
  if (a.length !== 1) throw new ReplError('usage: load <trace file>');
  const file = a[0]!;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ReplError(`load: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  const w = parseWorkloadFile(text, { file, cubeDegree: e.cfg.n });
  if (w.unit === 'us') throw new ReplError(`load ${file}: unit 'us' has no fixed cycle length for the RTL; use '# unit: cycles' or ticks`);
  const cpt = w.unit === 'cycles' ? 1 : DEFAULT_CYCLES_PER_TICK;
  const N = e.cube.nodes.length;
  const now = e.sim.cycle;
  // Check everything first: all or nothing.
  const instr = new Array<number>(N).fill(0);
  const mem = new Array<number>(N).fill(0);
  for (const m of w.messages) {
    if (m.bytes < 1) throw new ReplError(`load ${file}: message ${m.id} has ${m.bytes} bytes (the control unit needs at least 1)`);
    instr[m.src]!++;
    mem[m.src]! += m.bytes + 64;
    const dsts = m.kind === 'broadcast' ? [...Array(N).keys()].filter((x) => x !== m.src) : [m.dst];
    for (const d of dsts) {
      instr[d]!++;
      mem[d]! += m.bytes + 64;
    }
  }
  for (let x = 0; x < N; x++) {
    if (instr[x]) programRoom(e, x, instr[x]!);
    if (mem[x]! > e.driver.free(x)) throw new ReplError(`load ${file}: node ${x} needs ${mem[x]} bytes of user memory, ${e.driver.free(x)} left`);
  }
  const first = e.driver.sent.length;
  stimulus(e, `load ${file}`, () => {
    let id = first;
    for (const m of w.messages) {
      const type = e.driver.takeType();
      const cycle = now + Math.round(m.t * cpt);
      const data = messagePattern(id++, m.bytes);
      if (m.kind === 'broadcast') {
        for (let x = 0; x < N; x++) if (x !== m.src) e.driver.receive(x, m.src, m.bytes, now, type);
        e.driver.broadcast(m.src, data, cycle, type);
      } else {
        e.driver.receive(m.dst, m.src, m.bytes, now, type);
        e.driver.send(m.src, m.dst, data, cycle, type);
      }
    }
  });
  const last = w.messages.length ? now + Math.round(w.messages[w.messages.length - 1]!.t * cpt) : now;
  e.emit(
    `loaded ${file}: ${plural(w.messages.length, 'message')} (${idRange(first, w.messages.length)}), unit ${w.unit}${w.unit === 'ticks' ? ` (1 tick = ${cpt} cycles)` : ''}, sends at cycles ${now}..${last}, receives posted now`,
  );
}

export function cmdPoke(e: ReplEngine, a: string[]): void {
  if (a.length !== 2) throw new ReplError('usage: poke <name | memory[addr]> <value>');
  const [name, valText] = a as [string, string];
  const mm = /^(.*)\[(\S+)\]$/.exec(name);
  if (mm) {
    const hits = e.lookup(mm[1]!);
    if (hits.length !== 1 || !(hits[0] instanceof Memory)) throw new ReplError(`poke: ${mm[1]} is not one memory`);
    const mem = hits[0];
    const addr = e.intArg(mm[2], 'address', 0, mem.depth - 1);
    const v = e.parseValue(valText);
    if (v > mem.mask) throw new ReplError(`poke ${mem.path}[${addr}]: value ${v} does not fit ${mem.width} bits (allowed 0..${mem.mask})`);
    stimulus(e, `poke ${mem.path}[${addr}] ${v}`, () => e.sim.pokeMem(mem, addr, v));
    e.emit(`${e.rel(mem.path)}[${addr}] := ${v} (${hex(v, mem.width)})`);
    return;
  }
  const hits = e.lookup(name);
  if (hits.length !== 1) throw new ReplError(`poke: '${name}' matches ${hits.length} signals; poke one at a time`);
  const sig = hits[0]!;
  if (sig instanceof Memory) throw new ReplError(`poke: ${sig.path} is a memory: poke ${name}[addr] value`);
  const v = e.parseValue(valText, sig);
  if (v > sig.mask) throw new ReplError(`poke ${sig.path}: value ${v} does not fit ${sig.width} bits (allowed 0..${sig.mask})`);
  const kind = e.sim.net.slotDriver[sig.i];
  if (kind === 'tie') throw new ReplError(`poke ${sig.path}: the net is tied to a constant`);
  stimulus(e, `poke ${sig.path} ${v}`, () => e.sim.poke(sig, v));
  const how = kind === 'reg' ? 'register: holds until its logic next writes it' : kind === 'comb' ? 'wire: forced until the next clock edge' : 'input: holds until poked again';
  e.emit(`${e.rel(sig.path)} := ${formatValue(e.sim, sig, v)} (${how})`);
}
