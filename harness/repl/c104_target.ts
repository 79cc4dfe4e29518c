/**
 * REPL sessions on C104 networks (harness/rtl/c104_system.ts: C104 switches
 * and T9000-style endpoints joined by DS-links), presets
 *
 *   pair-c104  two T9000s through one C104 (seed 004 §4.1.5)
 *   pair-c104-node  the same with addressing 'node' (docs/t9000.md#addressing):
 *              one label per endpoint, two channels, side-band tags
 *   chain      two T9000s through a chain of two C104s
 *   mesh       a 2×2 mesh of T9000 + C104 nodes, x-first routing, hunt groups of 4
 *   ring-deadlock  4 C104s in a ring, cyclic labelling, 4-token buffers:
 *              messages sent clockwise deadlock (negative control)
 *
 * with their own commands: `links` (every direction of every DS-link: state,
 * credit, buffer fill, token), `cam [switch]` (a switch's interval table,
 * hunt groups, its input routers' states and the crossbar's connections)
 * and `deadlock` (harness/rtl/c104_deadlock.ts: the ring of waiting links).
 * Events: link-up, link-error of every link end. `send` (t9000_send.ts)
 * sends messages between the channel ends: endpoint 2i's labels with
 * endpoint 2i+1's.
 */
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { chainNetwork, meshNetwork, ringNetwork } from '../../rtl/c104/labelling.ts';
import type { NetworkSpec } from '../../rtl/c104/topology.ts';
import { ROUTER_STATES } from '../../rtl/c104/input_router.ts';
import { makeC104System, nodeChannels, type C104System, type C104SystemOptions } from '../rtl/c104_system.ts';
import { describeC104Deadlock, findC104Deadlock } from '../rtl/c104_deadlock.ts';
import { attachC104Events, c104Topology, switchTraceEvents } from '../rtl/c104_events.ts';
import { T9000PacketSource } from '../rtl/c104_packet_source.ts';
import { T9000Recorder } from '../rtl/t9000_events.ts';
import type { Simulator } from '../../rtl/kernel/index.ts';
import type { TraceHeader } from '../../traces/events/vocabulary.ts';
import type { RecordedEvents } from './events_file.ts';
import { attachLinkEvents, type LinkEndRef } from '../rtl/dslink_events.ts';
import type { ChannelEnd } from '../rtl/t9000_driver.ts';
import { ReplError, type CommandDef } from './common.ts';
import type { ReplEngine } from './engine.ts';
import { nearestNames } from '../../rtl/kernel/names.ts';
import { driverState, t9000SendCommand } from './t9000_send.ts';
import { linksCommand, type Direction, type Target } from './targets.ts';

interface C104Preset {
  description: string;
  spec: () => NetworkSpec;
  /** Channels (default channelsOf: endpoint 2i with 2i+1). */
  channels?: (spec: NetworkSpec) => [ChannelEnd, ChannelEnd][];
  options?: C104SystemOptions;
}

const PRESETS: Record<string, C104Preset> = {
  'pair-c104': { description: 'two T9000s through one C104', spec: () => chainNetwork(1, 2) },
  'pair-c104-node': {
    description: "two T9000s through one C104, addressing 'node' (headers name the endpoint; VLs as side-band tags)",
    spec: () => chainNetwork(1, 1),
    channels: () => nodeChannels([[0, 1], [0, 1]], 2).channels,
    options: { t9000: { addressing: 'node' } },
  },
  chain: { description: 'two T9000s through a chain of two C104s', spec: () => chainNetwork(2, 2) },
  mesh: { description: '2x2 mesh of T9000 + C104 nodes, x-first routing, hunt groups of 4', spec: () => meshNetwork({ w: 2, h: 2, routing: 'x-first', labelsPerNode: 2 }) },
  'ring-deadlock': {
    description: '4 C104s in a ring with cyclic labelling and 4-token buffers: can deadlock (negative control)',
    spec: () => ringNetwork(4, true),
    // each endpoint talks to the one two switches on: all traffic goes clockwise
    channels: () => [
      [{ node: 0, vl: 0 }, { node: 2, vl: 2 }],
      [{ node: 1, vl: 1 }, { node: 3, vl: 3 }],
    ],
    options: { requireDeadlockFree: false, c104: { inputBufferTokens: 4, outputBufferTokens: 4 } },
  },
};

export const C104_PRESETS: Record<string, { description: string; open: () => Target }> = Object.fromEntries(
  Object.entries(PRESETS).map(([name, p]) => [name, { description: p.description, open: () => openC104(name, p) }]),
);

/** Channels: endpoint i's j-th label with endpoint i+1's j-th (i even), so every endpoint has a partner. */
function channelsOf(spec: NetworkSpec): [ChannelEnd, ChannelEnd][] {
  const out: [ChannelEnd, ChannelEnd][] = [];
  const T = spec.terminals;
  for (let i = 0; i + 1 < T.length; i += 2) {
    const k = Math.min(T[i]!.labelCount ?? 1, T[i + 1]!.labelCount ?? 1);
    for (let j = 0; j < k; j++) out.push([{ node: i, vl: T[i]!.label + j }, { node: i + 1, vl: T[i + 1]!.label + j }]);
  }
  return out;
}

function openC104(name: string, p: C104Preset): Target {
  const spec = p.spec();
  const sys = makeC104System(spec, (p.channels ?? channelsOf)(spec), p.options);
  sys.rec.detach(); // the REPL keeps its own recorder (it is rebuilt on back / restore)
  driverState(sys.sim, sys.driver);
  const dirs = directions(sys);
  const ends = [...new Set(dirs.map((d) => d.tx))];
  const refs: LinkEndRef[] = ends.map((end) => ({ end }));
  return {
    name,
    title: `${p.description} (${spec.switches.length} switch${spec.switches.length === 1 ? '' : 'es'}, ${spec.terminals.length} endpoints)`,
    config: { system: name, spec },
    top: sys.top,
    sim: sys.sim,
    nodes: 1,
    ports: 0,
    attachEvents: (sim) => attachLinkEvents(sim, refs),
    recordEvents: (sim) => recordC104Events(sim, sys, name),
    commands: (e) => [t9000SendCommand(e, sys.driver, spec.terminals.map((t) => t.name)), linksCommand(e, dirs), camCommand(e, sys), deadlockCommand(e, sys)],
  };
}

/** Every direction of every wired link: switch ends to their peers, endpoint ends to their switch ends. */
function directions(sys: C104System): Direction[] {
  const out: Direction[] = [];
  const { net, network, endpoints } = sys;
  const label = (end: DsLinkEnd): string => end.path.replace(/^top\./, '');
  const add = (tx: DsLinkEnd, rx: DsLinkEnd): void => void out.push({ from: label(tx), to: label(rx), tx, rx });
  net.peer.forEach((row, s) =>
    row.forEach((peer, k) => {
      const end = network.ends[s]![k] as DsLinkEnd | null;
      if (!end || !peer) return;
      if (peer.kind === 'switch') add(end, network.ends[peer.sw]![peer.link] as DsLinkEnd);
      else {
        const t = net.spec.terminals[peer.terminal]!;
        const far = endpoints[peer.terminal]!.links[t.links.indexOf(k)] as DsLinkEnd;
        add(end, far);
        add(far, end);
      }
    }),
  );
  return out;
}

function pickSwitch(e: ReplEngine, sys: C104System, arg: string | undefined): number {
  const names = sys.net.spec.switches.map((s) => s.name);
  const fromScope = /^net\.([^.]+)/.exec(e.scope)?.[1];
  const want = arg ?? fromScope ?? names[0]!;
  const k = /^\d+$/.test(want) ? Number(want) : names.indexOf(want);
  if (k < 0 || k >= names.length) {
    const near = nearestNames(want, names);
    throw new ReplError(`cam: no switch '${want}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; switches: ${names.join(', ')} or 0..${names.length - 1}`);
  }
  return k;
}

/** `cam [switch]`: the interval table, hunt groups, busy input routers and crossbar connections. */
function camCommand(e: ReplEngine, sys: C104System): CommandDef {
  return {
    name: 'cam',
    aliases: ['switch'],
    usage: 'cam [switch name | index]',
    summary: "a C104's interval table (header label ranges -> hunt groups of links) and its connections now",
    help: ['Without an argument: the switch of the scope (cd net.c104_0), else the first. Routers in head state and idle outputs are left out.'],
    maxArgs: 1,
    arg: 'none',
    words: sys.net.spec.switches.map((s) => s.name),
    run: (a) => {
      const s = pickSwitch(e, sys, a[0]);
      const sim = e.sim;
      const sw = sys.network.switches[s]!;
      const tb = sw.table;
      const peerName = (k: number): string => {
        const p = sys.net.peer[s]![k];
        if (!p) return '-';
        return p.kind === 'switch' ? `${sys.net.spec.switches[p.sw]!.name}.link${p.link}` : sys.net.spec.terminals[p.terminal]!.name;
      };
      e.emit(e.c.bold(`${sw.path.replace(/^top\./, '')}: ${tb.labels} labels, ${tb.headerBytes}-byte headers, ${tb.his.length} intervals`));
      let lo = 0;
      for (let i = 0; i < tb.his.length; i++) {
        const hi = tb.his[i]!;
        const links = tb.groups[tb.groupOf[i]!]!;
        e.emit(`  labels ${lo}..${hi} -> group ${tb.groupOf[i]} links ${links.join(',')} (${[...new Set(links.map(peerName))].join(', ')})`);
        lo = hi + 1;
      }
      const busy: string[] = [];
      for (let k = 0; k < sw.routers.length; k++) {
        const r = sw.routers[k];
        if (!r) continue; // slices 'connected': not elaborated (docs/c104.md#compact-slices)
        const st = sim.peek(r.st);
        if (st !== 0) busy.push(`in${k} ${ROUTER_STATES[st]} header ${sim.peek(r.hdr)}`);
      }
      const conns: string[] = [];
      sw.xbar.valid.forEach((v, x) => {
        const j = sw.linkOf[x]!;
        if (sim.peek(v) === 1) conns.push(`in${sw.linkOf[sim.peek(sw.xbar.src[x]!)]} -> link${j} (${peerName(j)})${sim.peek(sw.blocked[j]!) ? ' blocked' : ''}`);
      });
      e.emit(`  inputs: ${busy.length ? busy.join('; ') : 'all waiting for a header'}`);
      e.emit(`  connections: ${conns.length ? conns.join('; ') : 'none'}`);
    },
  };
}

function deadlockCommand(e: ReplEngine, sys: C104System): CommandDef {
  return {
    name: 'deadlock',
    aliases: ['dl'],
    usage: 'deadlock',
    summary: 'if the switches are stuck, name the ring of waiting links',
    help: ['harness/rtl/c104_deadlock.ts: the largest set of input routers all waiting on each other (meaningful once the links are quiet).'],
    maxArgs: 0,
    arg: 'none',
    run: () => {
      const d = findC104Deadlock(e.sim, sys.network.switches, sys.net);
      e.emit(d ? describeC104Deadlock(d) : `no deadlock at cycle ${e.sim.cycle}: no set of input routers waits only on itself`);
      if (d && e.eventFile?.noteDeadlock()) e.emit(`events: the ring is recorded in ${e.eventFile.path}`);
    },
  };
}

/**
 * `events start` on a C104 network (events_file.ts): switch-level packets,
 * held links, full buffers and deadlocks (c104_events.ts); started before
 * the first send, also the T9000 message events, with every switch packet
 * linked to its T9000 packet (c104_packet_source.ts). Started later, the
 * T9000 recorder could not tell which packet of which message comes next,
 * so messages are left out and the note says so.
 */
function recordC104Events(sim: Simulator, sys: C104System, preset: string): RecordedEvents {
  const fresh = sys.driver.messages.length === 0;
  const t9 = fresh ? new T9000Recorder(sim, sys.driver, { system: 'c104', preset, source: 'harness/repl' }) : undefined;
  const numbering = t9 ? new T9000PacketSource(sim, sys.net, sys.driver, t9).numbering() : undefined;
  let n = 0;
  const sw = attachC104Events(sim, sys.network.switches, sys.net, numbering?.source ?? (() => ({ msg: n++, packet: 0 })), {
    switchEnds: sys.network.ends,
    endpointEnds: sys.endpoints.map((ep) => ep.links),
    deadlockEvery: 1000,
  });
  const header: TraceHeader = t9?.header ?? { format: 'icemu-events', version: 1, model: 'rtl', unit: 'cycles', workload: { system: 'c104', preset, source: 'harness/repl' } };
  header.topology = c104Topology(sys.net.spec);
  return {
    header,
    events: () => [...(t9?.events ?? []), ...switchTraceEvents(sw.events, numbering?.ids)],
    checkDeadlock: () => sw.checkDeadlock(),
    note: fresh ? undefined : 'messages were sent before the recording started: switch-level packets only, not linked to T9000 messages',
  };
}
