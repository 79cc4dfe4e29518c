/**
 * Event recorder for C104 switches (RTL, rtl/c104/): an observer that turns
 * the routers' and crossbars' committed state into the shared event
 * vocabulary (traces/events/vocabulary.ts) with cycle stamps.
 *
 * Events, per switch s (node = s, the switch's index in the list), input k:
 *  head-arrives      the first cycle router k holds the packet's complete
 *                    (routing) header, i.e. the cycle after its last header
 *                    byte was taken from the input buffer; unit `name.inK`,
 *                    port k.
 *  grant             the cycle the crossbar grants input k an output j
 *                    (combinational grant, seen with the settled wires);
 *                    unit `name.inK`, port j.
 *  packet-forwarded  the first cycle input k is connected to output j: the
 *                    packet's first character crosses the crossbar; port j.
 *
 * Identification (the hardware carries no message ids): packets are kept
 * apart as the links keep them, in order. Every output link with a switch
 * at its far end has a shadow FIFO: a grant on it appends the packet; a head
 * arriving at the far input takes the oldest. A head arriving on a link
 * whose far end is not a switch (an endpoint, a bench) gets its identity
 * from the caller's `source(switchIndex, link)`, which returns the next
 * packet that entered there, or null (then msg = -1 is not recorded and the
 * packet is counted in `unidentified`).
 *
 * With options (`icemu c104 --events`, the REPL's `events start`), flow
 * control and deadlock states too (kinds appended for icemu view; msg 0;
 * readings: docs/c104.md#view-events):
 *  link-held / link-released  the first cycle a link end has a character in
 *                    its transmit buffer and no credit (txCredit = 0: the far
 *                    receiver has not sent the FCT it needs), i.e. DS-link
 *                    flow control holds the sender / the first cycle it is
 *                    not so. Switch output j: node s, unit `name.linkJ`,
 *                    port j; endpoint e's link m: node e, unit 'tx', port m.
 *  buffer-full / buffer-free  switch s input k: the first cycle its input
 *                    buffer (the link end's receive FIFO) has fewer free
 *                    places than one flow-control token's grant (8), so the
 *                    receiver can send no FCT and the sender will be held;
 *                    unit `name.inK`, port k / the first cycle it has room.
 *  deadlock          the structural detector (c104_deadlock.ts) found a
 *                    ring at a check (every `deadlockEvery` cycles after that
 *                    many cycles without an input router changing state or
 *                    popping a character; or `checkDeadlock()` by a caller,
 *                    which may ask for a quiet stretch first);
 *                    `ring` = the waiting links `name.linkJ`, node = the first
 *                    link's switch. Recorded once per distinct ring.
 */
import type { Observer, Signal, Simulator } from '../../rtl/kernel/index.ts';
import type { C104 } from '../../rtl/c104/c104.ts';
import type { CheckedNetwork, NetworkSpec } from '../../rtl/c104/topology.ts';
import type { EventKind, TraceEvent, TraceHeader } from '../../traces/events/vocabulary.ts';
import { findC104Deadlock } from './c104_deadlock.ts';

/**
 * The header's `topology` record for a C104 network (traces/events/vocabulary.ts):
 * switch names, endpoints with their switch and hunt-group links, and the
 * switch-to-switch cables as [switchA, linkA, switchB, linkB]. A mesh built by
 * meshNetwork (switches named c104_X_Y, every grid place filled) also gets
 * `grid: {w, h}` and each switch's place, so `icemu view` draws it as a grid.
 */
export function c104Topology(spec: NetworkSpec): NonNullable<TraceHeader['topology']> {
  const at = spec.switches.map((t) => /^c104_(\d+)_(\d+)$/.exec(t.name));
  const w = Math.max(0, ...at.map((m) => (m ? Number(m[1]) + 1 : 0)));
  const h = Math.max(0, ...at.map((m) => (m ? Number(m[2]) + 1 : 0)));
  const grid = at.every((m) => m) && w * h === spec.switches.length && new Set(at.map((m) => m![0])).size === w * h;
  return {
    kind: 'c104',
    switches: spec.switches.map((t) => t.name),
    endpoints: spec.terminals.map((t) => ({ name: t.name, sw: t.sw, links: [...t.links] })),
    cables: spec.cables.map(([a, b]) => [a.sw, a.link, b.sw, b.link]),
    ...(grid ? { grid: { w, h }, places: at.map((m) => [Number(m![1]), Number(m![2])]) } : {}),
  };
}

export interface PacketId {
  msg: number;
  packet: number;
}

export interface C104EventRecorder {
  readonly events: TraceEvent[];
  /** Heads whose identity nobody knew. */
  unidentified: number;
  /** Run the structural detector now (null without running it unless no router has moved for `minQuiet` cycles); records (once per ring) and returns the ring, or null. */
  checkDeadlock(minQuiet?: number): string[] | null;
  detach(): void;
}

/**
 * The recorder's events as a trace writes them (traces/events/vocabulary.ts
 * TraceHeader): a packet event's unit names the switch-level packet number P
 * (the recorder's msg) as `name.inK (packet P)`, plus `: data` or `: ack`
 * when `ids` knows its T9000 packet, whose message and packet index then go
 * into msg and packet (else msg 0). State and deadlock events pass as they are.
 */
export function switchTraceEvents(events: readonly TraceEvent[], ids?: ReadonlyMap<number, { msg: number; packet: number; ack: boolean } | null>): TraceEvent[] {
  return events.map((e) => {
    if (e.packet === undefined) return e;
    const id = ids?.get(e.msg) ?? null;
    return { ...e, msg: id ? id.msg : 0, packet: id ? id.packet : e.packet, unit: `${e.unit} (packet ${e.msg}${id ? `: ${id.ack ? 'ack' : 'data'}` : ''})` };
  });
}

/** What the flow-control states read of a link end (rtl/dslink DsLinkEnd: txCredit, txBuf, rxBuf). */
interface EndProbe {
  txCredit: Signal;
  txBuf: { empty: Signal };
  rxBuf: { count: Signal; config: { depth: number } };
}

const isProbe = (x: unknown): x is EndProbe => {
  const o = x as Partial<EndProbe> | null;
  return !!o && !!o.txCredit && !!o.txBuf?.empty && !!o.rxBuf?.count;
};

/** Places one FCT grants (DS-link flow control: docs/dslink.md). */
const FCT_TOKENS = 8;

export interface C104EventOptions {
  /** Record held links and full buffers of these link ends: `switchEnds[s][k]` (C104Network.ends), `endpointEnds[e][m]` (each T9000's links). Ends without credit state are skipped. */
  switchEnds?: readonly (readonly unknown[])[];
  endpointEnds?: readonly (readonly unknown[])[];
  /** Look for a structural deadlock after this many cycles without router progress, and every as many after (0: never). Needs `net`. */
  deadlockEvery?: number;
  /** Hand every event to this instead of keeping it in `events` (a long run's summary: harness/rtl/c104_run_summary.ts). */
  sink?: (e: TraceEvent) => void;
}

const HEAD = 0;
const CONN = 3;

export function attachC104Events(
  sim: Simulator,
  switches: readonly C104[],
  net: CheckedNetwork | null,
  source: (sw: number, link: number) => PacketId | null,
  opts: C104EventOptions = {},
): C104EventRecorder {
  const N = 32;
  const names = switches.map((sw) => sw.name);
  const prevSt = new Int8Array(switches.length * N);
  /** The router's current packet has had its head-arrives (a cut-through head arrives while the router is still in HEAD). */
  const announced = new Uint8Array(switches.length * N);
  /** Packet held by each router (from head arrival to the end of its connection). */
  const held: (PacketId | null)[] = new Array<PacketId | null>(switches.length * N).fill(null);
  /** Shadow FIFO per output link with a switch behind it. */
  const shadow = new Map<number, PacketId[]>();
  const rec: C104EventRecorder = { events: [], unidentified: 0, checkDeadlock: () => null, detach: () => {} };
  const push = opts.sink ?? ((e: TraceEvent): void => void rec.events.push(e));
  const emit = (t: number, kind: TraceEvent['kind'], id: PacketId | null, s: number, k: number, port: number): void => {
    if (!id) return;
    push({ t, kind, msg: id.msg, node: s, packet: id.packet, unit: `${names[s]}.in${k}`, port });
  };
  const feeder = (s: number, k: number): number => {
    const p = net?.peer[s]![k];
    return p && p.kind === 'switch' ? p.sw * N + p.link : -1;
  };
  const states = flowStates(switches, opts, push);
  const cut = switches.map((sw) => sw.config.pipeline === 'cut-through');
  const every = net ? (opts.deadlockEvery ?? 0) : 0;
  let lastMove = sim.cycle;
  let lastCheck = sim.cycle;
  const rings = new Set<string>();
  rec.checkDeadlock = (minQuiet = 0): string[] | null => {
    if (minQuiet > 0 && (every <= 0 || sim.cycle - lastMove < minQuiet)) return null;
    const d = net ? findC104Deadlock(sim, switches, net) : null;
    if (!d) return null;
    const key = d.ring.join(' ');
    if (!rings.has(key)) {
      rings.add(key);
      const first = d.ring[0]!.replace(/\.link\d+$/, '');
      push({ t: sim.cycle, kind: 'deadlock', msg: 0, node: Math.max(0, names.indexOf(first)), ring: d.ring });
    }
    return d.ring;
  };
  const observer: Observer = {
    // Reads switch and link-end buffer state, never a DS-link NULL train's registers.
    skipsOwnedOnDemand: true,
    onCycle(sm: Simulator): void {
      const t = sm.cycle;
      switches.forEach((sw, s) => {
        for (let k = 0; k < N; k++) {
          const v = s * N + k;
          // Slices 'connected': a link not elaborated has no router (docs/c104.md#compact-slices).
          const x = sw.xOf[k]!;
          if (x < 0) continue;
          const st = sm.peek(sw.routers[k]!.st);
          const before = prevSt[v]!;
          if (every > 0 && (st !== before || sm.peek(sw.rxPop[k]!) === 1)) lastMove = t;
          if (st === HEAD && before !== HEAD) announced[v] = 0;
          // A cut-through header is complete (and requested) in the cycle it is at the buffer head (docs/c104.md#pipeline).
          const arrives = st === HEAD ? cut[s]! && sm.peek(sw.routers[k]!.req) !== 0 : before === HEAD;
          if (arrives && announced[v] === 0) {
            announced[v] = 1;
            const f = feeder(s, k);
            const id = f >= 0 ? (shadow.get(f)?.shift() ?? null) : source(s, k);
            if (!id) rec.unidentified++;
            held[v] = id;
            emit(t, 'head-arrives', id, s, k, k);
          }
          if (sm.peek(sw.xbar.gnt[x]!) === 1) {
            const j = sw.linkOf[sm.peek(sw.xbar.gidx[x]!)]!;
            emit(t, 'grant', held[v]!, s, k, j);
            const behind = net?.peer[s]![j];
            if (behind && behind.kind === 'switch' && held[v]) {
              const key = s * N + j;
              if (!shadow.has(key)) shadow.set(key, []);
              shadow.get(key)!.push(held[v]!);
            }
          }
          if (st === CONN && before !== CONN) emit(t, 'packet-forwarded', held[v]!, s, k, sw.linkOf[sm.peek(sw.xbar.gidx[x]!)]!);
          prevSt[v] = st;
        }
      });
      states?.(sm);
      if (every > 0 && t - lastMove >= every && t - lastCheck >= every) {
        lastCheck = t;
        rec.checkDeadlock();
      }
    },
  };
  rec.detach = sim.observe(observer);
  return rec;
}

/** The per-cycle step recording held links and full buffers (null when no link end has credit state). */
function flowStates(switches: readonly C104[], opts: C104EventOptions, push: (e: TraceEvent) => void): ((sim: Simulator) => void) | null {
  /** [end, node, unit of its held state, port, unit of its input buffer (switch ends only)] */
  const probes: [EndProbe, number, string, number, string | null][] = [];
  opts.switchEnds?.forEach((row, s) =>
    row.forEach((end, k) => {
      if (isProbe(end)) probes.push([end, s, `${switches[s]!.name}.link${k}`, k, `${switches[s]!.name}.in${k}`]);
    }),
  );
  opts.endpointEnds?.forEach((row, e) =>
    row.forEach((end, m) => {
      if (isProbe(end)) probes.push([end, e, 'tx', m, null]);
    }),
  );
  if (!probes.length) return null;
  const held = new Uint8Array(probes.length);
  const full = new Uint8Array(probes.length);
  const emit = (t: number, kind: EventKind, node: number, unit: string, port: number): void => push({ t, kind, msg: 0, node, unit, port });
  return (sim) => {
    const t = sim.cycle;
    const s = sim.s;
    probes.forEach(([end, node, unit, port, input], k) => {
      const h = s[end.txCredit.i] === 0 && s[end.txBuf.empty.i] === 0 ? 1 : 0;
      if (h !== held[k]) {
        held[k] = h;
        emit(t, h ? 'link-held' : 'link-released', node, unit, port);
      }
      if (input === null) return;
      const f = end.rxBuf.config.depth - s[end.rxBuf.count.i]! < FCT_TOKENS ? 1 : 0;
      if (f !== full[k]) {
        full[k] = f;
        emit(t, f ? 'buffer-full' : 'buffer-free', node, input, port);
      }
    });
  };
}
