/**
 * The analytic side of a comparison: zero-load closed forms per message,
 * written as event traces in the shared vocabulary, so that harness/compare
 * joins them with the RTL (or the TLM) like any other trace.
 *
 * ------------------------------------------------------------------ RTL, cycles
 * Built on harness/models/buzzard.ts `zeroLoadLatency` (seed 002 §5.4.2 head
 * critical path, §5.4.8 framing) with the RTL's configuration; the model's
 * placeholder terms (A14: control-unit latencies, which the seed does not
 * give) are calibrated by named constants measured once on the RTL
 * (RTL_MEASURED below). For a message of M data bytes generated (send
 * instruction issued) at cycle g, travelling d hops:
 *
 *   term                                   value                          kind
 *   bits_k  wire bits of packet k          11 + 18·W_k                    [derived] §5.4.8 framing
 *           W_k = ⌈(4 + payload_k)/2⌉, payload 28 B per packet, the
 *           first packet's payload starts with a 6-byte prefix         [seed] §5.6 32-B packets, [interp] A6, A7
 *   start_1 packet 0's S1 on the first link  g + injection + arbitration    injection [measured] 21, arbitration [seed] 2
 *   start_k                                start_{k−1} + bits_{k−1} + 2 + gap   gap [measured] 0 (the model's A12 reading holds)
 *   head at PBU j (1..d) of packet k       start_k + 31·(j − 1)           [seed] 31 cycles per hop (§5.4.2; 33 with A2 strict framing)
 *   head at the node input port            start_k + 31·d                 [seed] — the "fabric part", exact
 *   first-packet-delivered                 head_nip(0) + bits_0 + δ(0)    δ [measured], below
 *   message-complete                       head_nip(P−1) + bits_{P−1} + δ(P−1)
 *   message-queued                         g + queued                     queued [measured] 11 (not in the seed model)
 *
 * δ, the control unit's store of the packet's last data word into node
 * memory after its last bit entered the node input port (A14), measured on
 * the default control-unit latencies (cu.memoryAccess 1):
 *   1 cycle  when the packet's last data byte ends a 32-bit word of the
 *            (word-aligned) receive buffer: one plain write;
 *   2 cycles otherwise: a read-modify-write (R_RMW) of a partial word;
 *   +2      when the first packet carries a single data word after the
 *            prefix (messages of 1–2 bytes): the receive match of the prefix
 *            (R_M_*, one posted receive) is still running when that word
 *            arrives.
 * Link busy (flow control unit busyCycles) is bits − 2 per packet per hop at
 * light load (measured; linkBusyPerPacketCycles).
 * The fabric part (head at the node input port − packet-injected = 31·d) has
 * no measured term; everything else is exact at zero load for these
 * constants (test/compare checks it; the 'zero-load' preset reports it).
 *
 * ------------------------------------------------------------------ TLM, ticks
 * The TLM's own closed form (harness/tlm/buzzard-tlm.ts header; independent
 * of the TLM code): τ ticks per byte, a ticks arbitration, H header bytes,
 * P data bytes per packet, K = max(1, ⌈M/P⌉), w_k = H + min(P, M − (k−1)·P):
 *   s_1 = a,  s_{k+1} = s_k + w_k·τ + a,
 *   first = s_1 + d·(H·τ + a) + w_1·τ,  last = s_K + d·(H·τ + a) + w_K·τ;
 *   wormhole: first = a + d·(H·τ + a) + (H + min(P, M))·τ, last = a + d·(H·τ + a) + (H + M)·τ.
 */
import type { TraceEvent, TraceHeader } from '../../traces/events/vocabulary.ts';
import { zeroLoadLatency, type BuzzardZeroLoadLatency } from '../models/buzzard.ts';
import { TLM_CH5_DEFAULTS, type TlmConfig } from '../tlm/config.ts';
import { describeWorkload, hops, type Workload } from '../workloads/types.ts';
import { DEFAULT_CYCLES_PER_TICK } from '../rtl/run_workload.ts';

/** Control-unit constants measured on the RTL (default cu latencies), cycles. See the header. */
export interface RtlMeasured {
  readonly injectionCycles: number;
  readonly interPacketGapCycles: number;
  readonly queuedCycles: number;
  readonly deliveryFullWordCycles: number;
  readonly deliveryPartialWordCycles: number;
  readonly shortFirstPacketExtraCycles: number;
  readonly linkBusyPerPacketCycles: number;
}

export const RTL_MEASURED: RtlMeasured = Object.freeze({
  /** Send instruction issued → slot arbitration starts (instruction start, queue insert, header prefetch). */
  injectionCycles: 21,
  /** Extra idle cycles between packets of one message at the source slot, beyond the re-arbitration. */
  interPacketGapCycles: 0,
  /** Send instruction issued → message-queued (cu.instrAck). */
  queuedCycles: 11,
  /** Last bit in the node input port → last word in memory, full-word store. */
  deliveryFullWordCycles: 1,
  /** Same, partial word (read-modify-write). */
  deliveryPartialWordCycles: 2,
  /** Extra delivery cycles when the first packet carries one data word (message of 1–2 bytes): the receive match is still running. */
  shortFirstPacketExtraCycles: 2,
  /** Link busy cycles counted by a flow control unit per packet, relative to its wire bits (the counter follows crossbar valid). */
  linkBusyPerPacketCycles: -2,
});

/** The RTL configuration fields the closed form uses (seed / interp values of rtl/buzzard/config.ts). */
export interface RtlTimingConfig {
  /** Packet bytes incl. the 4-byte header (§5.6: 32). */
  readonly packetBytes: number;
  /** A7: bytes of type + length in front of the first packet's data (6). */
  readonly firstPacketPrefixBytes: number;
  /** A2: post-preheader sync (33-cycle hops). */
  readonly strictFraming: boolean;
  /** §5.4.3: arbiter latency, cycles (2). */
  readonly arbiterLatency: number;
}

export const RTL_TIMING_DEFAULTS: RtlTimingConfig = Object.freeze({ packetBytes: 32, firstPacketPrefixBytes: 6, strictFraming: false, arbiterLatency: 2 });

/** Per-message RTL zero-load prediction, cycles from the generation cycle. */
export interface RtlZeroLoad {
  readonly hops: number;
  readonly packets: number;
  readonly bits: readonly number[];
  readonly queued: number;
  /** Packet k's S1 on the first link. */
  readonly inject: readonly number[];
  /** Packet k's head at the destination's node input port. */
  readonly nip: readonly number[];
  readonly first: number;
  readonly last: number;
  readonly deliveryFirst: number;
  readonly deliveryLast: number;
  /** The harness/models/buzzard.ts result it is built on. */
  readonly model: BuzzardZeroLoadLatency;
}

/** Data bytes carried by packet k of an M-byte message (RTL packetisation). */
function packetDataBytes(cfg: RtlTimingConfig, M: number, k: number): { from: number; to: number } {
  const payload = cfg.packetBytes - 4;
  const firstData = payload - cfg.firstPacketPrefixBytes;
  const from = k === 0 ? 0 : firstData + (k - 1) * payload;
  const to = Math.min(M, k === 0 ? firstData : from + payload); // exclusive
  return { from, to };
}

function delivery(cfg: RtlTimingConfig, c: RtlMeasured, M: number, k: number): number {
  const { from, to } = packetDataBytes(cfg, M, k);
  let d = to % 4 === 0 ? c.deliveryFullWordCycles : c.deliveryPartialWordCycles;
  if (k === 0 && to - from <= 2) d += c.shortFirstPacketExtraCycles;
  return d;
}

/** RTL zero-load closed form for one message (cycles from generation). */
export function rtlZeroLoad(p: { readonly bytes: number; readonly hops: number; readonly config?: Partial<RtlTimingConfig>; readonly measured?: Partial<RtlMeasured> }): RtlZeroLoad {
  const cfg = { ...RTL_TIMING_DEFAULTS, ...p.config };
  const c = { ...RTL_MEASURED, ...p.measured };
  if (!Number.isInteger(p.bytes) || p.bytes < 1) throw new RangeError(`rtlZeroLoad.bytes: ${p.bytes} is outside 1..2^31 (the control unit sends at least 1 byte)`);
  const base = {
    hops: p.hops,
    messageBytes: p.bytes,
    countPostPreheaderSync: cfg.strictFraming,
    arbitrationCycles: cfg.arbiterLatency,
    headerBytes: 4,
    packetBytes: cfg.packetBytes,
    firstPacketPrefixBytes: cfg.firstPacketPrefixBytes,
    injectionCycles: c.injectionCycles,
    interPacketGapCycles: c.interPacketGapCycles,
  };
  // The model's single deliveryCycles term is the last packet's δ; the first packet's δ is added to firstPacketCompleteCycles.
  const probe = zeroLoadLatency({ ...base, deliveryCycles: 0 });
  const P = probe.packets;
  const dFirst = delivery(cfg, c, p.bytes, 0);
  const dLast = delivery(cfg, c, p.bytes, P - 1);
  const model = zeroLoadLatency({ ...base, deliveryCycles: dLast });
  const inject: number[] = [];
  let s = model.firstPacketStartCycles;
  for (let k = 0; k < P; k++) {
    inject.push(s);
    s += model.packetWireBits[k]! + cfg.arbiterLatency + c.interPacketGapCycles;
  }
  const nip = inject.map((t) => t + p.hops * model.headLatencyPerHopCycles);
  return {
    hops: p.hops,
    packets: P,
    bits: model.packetWireBits,
    queued: c.queuedCycles,
    inject,
    nip,
    first: model.firstPacketCompleteCycles + dFirst,
    last: model.messageCompleteCycles,
    deliveryFirst: dFirst,
    deliveryLast: dLast,
    model,
  };
}

/** e-cube path: the node reached and the dimension used, hop by hop. */
function ecubePath(src: number, dst: number): { node: number; dim: number }[] {
  const out: { node: number; dim: number }[] = [];
  let at = src;
  while (at !== dst) {
    const diff = at ^ dst;
    const b = 31 - Math.clz32(diff & -diff);
    at ^= 1 << b;
    out.push({ node: at, dim: b + 1 });
  }
  return out;
}

export interface ClosedFormTrace {
  readonly header: TraceHeader;
  readonly events: TraceEvent[];
  /** Generation cycle per message (the RTL's: round(t · cyclesPerTick)). */
  readonly generation: Map<number, number>;
  /** Zero-load first / last per message, cycles from generation. */
  readonly zeroLoad: Map<number, { first: number; last: number }>;
  readonly perMessage: Map<number, RtlZeroLoad>;
}

/**
 * The RTL zero-load closed form of a whole workload as an event trace in
 * cycles (each message as if alone in the network, e-cube path: at zero load
 * the quasi-adaptive first hop ties to the e-cube slot, §6.3 / A13).
 */
export function rtlClosedFormTrace(w: Workload, opts: { readonly cyclesPerTick?: number; readonly config?: Partial<RtlTimingConfig>; readonly measured?: Partial<RtlMeasured> } = {}): ClosedFormTrace {
  const cpt = opts.cyclesPerTick ?? DEFAULT_CYCLES_PER_TICK;
  const events: TraceEvent[] = [];
  const generation = new Map<number, number>();
  const zeroLoad = new Map<number, { first: number; last: number }>();
  const perMessage = new Map<number, RtlZeroLoad>();
  for (const m of w.messages) {
    if (m.kind !== 'unicast') throw new RangeError(`closed form: message ${m.id} is a ${m.kind} (unicast only)`);
    const g = Math.round(m.t * cpt); // as harness/rtl/run_workload.ts schedules it
    const path = ecubePath(m.src, m.dst);
    const z = rtlZeroLoad({ bytes: m.bytes, hops: path.length, config: opts.config, measured: opts.measured });
    generation.set(m.id, g);
    zeroLoad.set(m.id, { first: z.first, last: z.last });
    perMessage.set(m.id, z);
    const head = z.model.headLatencyPerHopCycles;
    events.push({ t: g + z.queued, kind: 'message-queued', msg: m.id, node: m.src, unit: 'nop', port: path[0]!.dim });
    for (let k = 0; k < z.packets; k++) {
      const s = g + z.inject[k]!;
      events.push({ t: s, kind: 'packet-injected', msg: m.id, node: m.src, packet: k, unit: 'nop', port: path[0]!.dim });
      path.forEach((h, j) => events.push({ t: s + j * head, kind: 'head-arrives', msg: m.id, node: h.node, packet: k, unit: `pbu${h.dim}`, port: h.dim }));
      events.push({ t: g + z.nip[k]!, kind: 'head-arrives', msg: m.id, node: m.dst, packet: k, unit: 'nip', port: 0 });
    }
    events.push({ t: g + z.first, kind: 'first-packet-delivered', msg: m.id, node: m.dst, packet: 0, unit: 'nip', port: 0 });
    events.push({ t: g + z.last, kind: 'message-complete', msg: m.id, node: m.dst, packet: z.packets - 1, unit: 'nip', port: 0 });
  }
  events.sort((x, y) => x.t - y.t);
  const header: TraceHeader = { format: 'icemu-events', version: 1, model: 'analytic', unit: 'cycles', workload: { ...describeWorkload(w), closedForm: 'harness/compare/analytic.ts rtlClosedFormTrace', measured: { ...RTL_MEASURED, ...opts.measured } } };
  return { header, events, generation, zeroLoad, perMessage };
}

/** TLM zero-load closed form for one message, ticks from generation. */
export function tlmZeroLoad(p: { readonly bytes: number; readonly hops: number; readonly config?: Partial<TlmConfig> & { readonly transport: TlmConfig['transport'] } }): { first: number; last: number; packets: number } {
  const c = { ...TLM_CH5_DEFAULTS, transport: 'quasi-adaptive' as const, ...p.config };
  const { ticksPerByte: tau, arbitrationTicks: a, headerBytes: H, packetBytes: P } = c;
  const M = p.bytes;
  const d = p.hops;
  const hop = H * tau + a;
  if (c.transport === 'wormhole') {
    const g = a + d * hop;
    return { first: g + (H + Math.min(P, M)) * tau, last: g + (H + M) * tau, packets: 1 };
  }
  const K = Math.max(1, Math.ceil(M / P));
  const wire = (k: number): number => H + Math.min(P, M - k * P);
  let s = a;
  for (let k = 0; k < K - 1; k++) s += wire(k) * tau + a;
  return { first: a + d * hop + wire(0) * tau, last: s + d * hop + wire(K - 1) * tau, packets: K };
}

/** TLM zero-load first / last for every message of a workload (ticks from generation). */
export function tlmZeroLoadMap(w: Workload, config?: Partial<TlmConfig> & { readonly transport: TlmConfig['transport'] }): Map<number, { first: number; last: number }> {
  const out = new Map<number, { first: number; last: number }>();
  for (const m of w.messages) {
    const z = tlmZeroLoad({ bytes: m.bytes, hops: hops(m.src, m.dst), config });
    out.set(m.id, { first: z.first, last: z.last });
  }
  return out;
}
