/**
 * The two sides of the C104 cross-checks on one list of timed messages
 * (harness/workloads/timed-messages.ts): the RTL C104 mesh with T9000
 * endpoints and real DS-links (harness/rtl/c104_system.ts), and the
 * T9000/C104 TLM (harness/tlm/t9000-c104). Each returns, per message, the
 * times of the recorder's stamps (docs/t9000.md#events) counted from the
 * send, in ns (RTL cycles × 10 ns: one bit time at 100 Mbit/s).
 *
 * Node numbering: the TLM's node y·D + x; the RTL mesh labels endpoint
 * x·D + y (rtl/c104/labelling.ts), converted here.
 * Virtual links: the RTL (node addressing, docs/t9000.md#addressing) opens
 * one channel (a virtual link each way) per unordered pair of nodes that
 * talk, ends numbered per node in first-use order (channelSlots, which the
 * TLM's 'per-channel' link choice follows), so messages from one node to another
 * go one after another; the TLM gives every message its own virtual link.
 * Workloads for the loaded presets keep messages of one ordered pair apart
 * in time (harness/compare/c104.ts), so the two agree on that.
 */
import type { TraceEvent } from '../../traces/events/vocabulary.ts';
import { meshLabel, meshNetwork } from '../../rtl/c104/labelling.ts';
import { makeC104System } from '../rtl/c104_system.ts';
import type { ChannelEnd } from '../rtl/t9000_driver.ts';
import { runC104, type C104Config } from '../tlm/t9000-c104/index.ts';
import { channelSlots, timedMessagesProgram, type TimedMessage } from '../workloads/timed-messages.ts';

/** Stamps of one message, ns from its send; NaN where a side has none. */
export interface MessageTimes {
  /** First packet's first header character taken by the source link (TLM: its first bit leaves). */
  readonly injected: number;
  /** First packet's header, and the character after it, at the destination T9000. */
  readonly head: number;
  readonly firstDelivered: number;
  readonly complete: number;
}

export interface SideRun {
  readonly times: MessageTimes[];
  /** The side's trace in the shared vocabulary, message ids = workload indices, times in RTL cycles (TLM: ns / 10 + RTL_START_CYCLES). */
  readonly events: TraceEvent[];
  /** Send cycle per message (same convention). */
  readonly generation: Map<number, number>;
  /** Busy time of the switch-to-switch links, cycles (normal characters on the wire; TLM: data and terminator tokens). */
  readonly internalBusyCycles?: number;
  readonly wallSeconds: number;
  readonly complete: boolean;
}

/** Cycles before traffic starts on the RTL: DS-link start-up (as icemu c104). */
export const RTL_START_CYCLES = 2500;
const NS_PER_CYCLE = 10;

function sideTimes(n: number, events: readonly { t: number; kind: string; msg: number; packet?: number }[], sent: (i: number) => number, scale: number): MessageTimes[] {
  const out = Array.from({ length: n }, () => ({ injected: NaN, head: NaN, firstDelivered: NaN, complete: NaN }));
  for (const e of events) {
    const r = out[e.msg];
    if (!r) continue;
    const t = (e.t - sent(e.msg)) * scale;
    if (e.kind === 'packet-injected' && (e.packet ?? 0) === 0 && Number.isNaN(r.injected)) r.injected = t;
    else if (e.kind === 'first-packet-delivered') r.firstDelivered = t;
    else if (e.kind === 'message-complete') r.complete = t;
    else if (e.kind === 'head-arrives' && (e.packet ?? 0) === 0 && (e as { unit?: string }).unit === 'rx') r.head = t;
  }
  return out;
}

export interface RtlMeshOptions {
  readonly side: number;
  readonly cpuLinks?: number;
  /** The C104 presets (rtl/c104/config.ts); default stc104 buffers and thesis timing, as TOKEN_CREDIT_PRESET. */
  readonly buffers?: 'stc104' | 'thesis';
  readonly maxCycles?: number;
  /**
   * Tie every channel end to its node's link 0 (control blocks ≡ 0 mod links; the RTL's T9000
   * sends block v on link `v mod links`): the link the TLM's 'hunt-group' choice takes when all
   * are idle (docs/thesis-model.md#t9000-links). Default: block = the end's number, as the TLM's
   * 'per-channel' choice.
   */
  readonly link0?: boolean;
  /** Routing (default x-first); two-phase as docs/c104.md#two-phase. */
  readonly routing?: 'x-first' | 'two-phase';
  /** Two-phase: each source node's random header range narrowed to one intermediate node (TLM numbering), as the TLM's fixedIntermediates. */
  readonly intermediates?: readonly number[];
}

/** Run the messages (sorted by time) on the RTL mesh; time in ns from the end of link start-up. */
export function runRtlMesh(messages: readonly TimedMessage[], o: RtlMeshOptions): SideRun {
  const t0 = performance.now();
  const D = o.side;
  // TLM node y·D + x is the mesh's node (x, y); both routings here label it x·H + y, a transpose, its own inverse.
  const toRtl = (n: number): number => meshLabel({ w: D, h: D, routing: o.routing ?? 'x-first' }, n % D, (n / D) | 0);
  const fromRtl = toRtl;
  // Channel ends numbered per node in the order of first use (channelSlots, as the TLM's 'per-channel' links).
  const slots = channelSlots(messages);
  const pairs = new Map<string, { a: number; b: number; la: number; lb: number }>();
  messages.forEach((m, i) => {
    const key = `${Math.min(m.src, m.dst)},${Math.max(m.src, m.dst)}`;
    if (!pairs.has(key)) pairs.set(key, m.src <= m.dst ? { a: m.src, b: m.dst, la: slots[i]!.src, lb: slots[i]!.dst } : { a: m.dst, b: m.src, la: slots[i]!.dst, lb: slots[i]!.src });
  });
  const cpuLinks = o.cpuLinks ?? 4;
  const stride = o.link0 ? cpuLinks : 1;
  // Addressing 'node' (docs/t9000.md#addressing): control block = end number · stride, on link block mod links.
  const base = meshNetwork({ w: D, h: D, routing: o.routing ?? 'x-first', cpuLinks, labelsPerNode: 1 });
  // Phase-1 labels are N + the intermediate's label (rtl/c104/labelling.ts); switch i is endpoint i's.
  const inter = o.intermediates;
  const spec = inter
    ? {
        ...base,
        switches: base.switches.map((t, i) => {
          const phase1 = D * D + toRtl(inter[fromRtl(i)]!);
          return { ...t, randomHeader: t.randomHeader.map((r, l) => (l < cpuLinks ? { lo: phase1, hi: phase1 } : r)) };
        }),
      }
    : base;
  const end = (node: number, slot: number): ChannelEnd => ({ node: toRtl(node), vl: slot * stride });
  const chans: [ChannelEnd, ChannelEnd][] = [...pairs.values()].map((p) => [end(p.a, p.la), end(p.b, p.lb)]);
  const sys = makeC104System(spec, chans, { c104: { timing: 'thesis', buffers: o.buffers ?? 'stc104' }, t9000: { addressing: 'node' } });
  const order = messages.map((_, i) => i).sort((x, y) => messages[x]!.t - messages[y]!.t);
  const cycleOf = (i: number): number => RTL_START_CYCLES + Math.round(messages[i]!.t / NS_PER_CYCLE);
  const rtlIdToMsg: number[] = [];
  for (const i of order) {
    const m = messages[i]!;
    const p = pairs.get(`${Math.min(m.src, m.dst)},${Math.max(m.src, m.dst)}`)!;
    const [s, d] = m.src === p.a ? [end(p.a, p.la), end(p.b, p.lb)] : [end(p.b, p.lb), end(p.a, p.la)];
    sys.driver.receive(d.node, d.vl, cycleOf(i));
    const rm = sys.driver.send(s.node, s.vl, Array.from({ length: m.bytes }, (_, j) => (i * 7 + j) & 0xff), cycleOf(i));
    rtlIdToMsg[rm.id] = i;
  }
  const last = messages.length ? cycleOf(order[order.length - 1]!) : RTL_START_CYCLES;
  const r = sys.sim.runUntil(() => sys.rec.deliveries.length >= messages.length, o.maxCycles ?? last + 200_000);
  const events = sys.rec.events.map((e) => ({ ...e, msg: rtlIdToMsg[e.msg] ?? -1 }));
  const generation = new Map(messages.map((_, i) => [i, cycleOf(i)] as const));
  return { times: sideTimes(messages.length, events, cycleOf, NS_PER_CYCLE), events, generation, wallSeconds: (performance.now() - t0) / 1000, complete: r.reached };
}

/** Run the messages on the TLM (events recorded); TLM message ids are creation order, i.e. send-time order. */
export function runTlmMesh(messages: readonly TimedMessage[], config: Partial<C104Config> & { side: number }): SideRun {
  const t0 = performance.now();
  const order = messages.map((_, i) => i).sort((x, y) => messages[x]!.t - messages[y]!.t || x - y);
  const prog = timedMessagesProgram(config.side, order.map((i) => messages[i]!));
  const lastT = messages.reduce((m, x) => Math.max(m, x.t), 0);
  const res = runC104(prog, { ...config, recordEvents: true }, { fixedNs: lastT + 2_000_000, truncate: false, checkpointNs: 100_000 });
  const events = res.events!.map((e) => ({ ...e, msg: order[e.msg] ?? -1 }));
  const times = sideTimes(messages.length, events, (i) => messages[i]!.t, 1);
  const toCycles = (t: number): number => RTL_START_CYCLES + t / NS_PER_CYCLE;
  const generation = new Map(messages.map((m, i) => [i, toCycles(m.t)] as const));
  const cyc = events.map((e) => ({ ...e, t: toCycles(e.t) }));
  return { times, events: cyc, generation, wallSeconds: (performance.now() - t0) / 1000, complete: times.every((x) => !Number.isNaN(x.complete)) };
}

export type Stamp = keyof MessageTimes;
export const STAMPS: readonly Stamp[] = ['injected', 'head', 'firstDelivered', 'complete'];

/**
 * Declared zero-load bounds of TLM (token-credit) − RTL per message, in
 * cycles (docs/thesis-model.md#token-credit): the token-credit mode follows
 * each link's NULL train, credit and FCTs token by token, and ties a
 * channel to the RTL's link (t9000Links 'per-channel'), so at zero load
 * every stamp is equal (measured 0…0 on 7 paths × 10 sizes, 0–100 bytes).
 */
export const ZERO_LOAD_BOUNDS: Readonly<Record<Stamp, readonly [number, number]>> = Object.freeze({
  injected: [0, 0],
  head: [0, 0],
  firstDelivered: [0, 0],
  complete: [0, 0],
});

export interface StampDeviation {
  readonly stamp: Stamp;
  readonly min: number;
  readonly max: number;
  readonly bound: readonly [number, number];
  readonly pass: boolean;
}

/** Per stamp, the least and greatest TLM − RTL over the messages (cycles) and whether they are within `bounds`. */
export function zeroLoadDeviations(rtl: readonly MessageTimes[], tlm: readonly MessageTimes[], bounds = ZERO_LOAD_BOUNDS, shiftCycles = 0): StampDeviation[] {
  return STAMPS.map((stamp) => {
    let min = Infinity;
    let max = -Infinity;
    rtl.forEach((r, i) => {
      const d = (tlm[i]![stamp] - r[stamp]) / NS_PER_CYCLE + shiftCycles;
      min = Math.min(min, Number.isNaN(d) ? -Infinity : d);
      max = Math.max(max, Number.isNaN(d) ? Infinity : d);
    });
    const bound = bounds[stamp];
    return { stamp, min, max, bound, pass: min >= bound[0] && max <= bound[1] };
  });
}
