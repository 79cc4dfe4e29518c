/**
 * Buzzard's closed-form results about the proposed communication coprocessor
 * (seed 002: G. D. Buzzard, "High Performance Communications for Hypercube
 * Multiprocessors", PhD dissertation, University of Michigan, 1988; hardware
 * digest in docs/sources.md, buzzard, formulas in docs/sources.md, cost-models §4).
 * The Chapter 3 execution-time model is in buzzard-ch3.ts.
 *
 * Units are named per function: cycles (= link bit times, docs/sources.md, buzzard §9 and
 * A1), ticks (Chapter 5 simulator: 2 ticks per byte, 4 ticks arbitration),
 * gate delays Δ, bytes, µs. Every term is labelled [seed], [derived] or
 * [interp] in its comment; ambiguity numbers A1–A20 are those of docs/readings.md
 */
import { bool, integerIn, nonNegative, positive } from './validate.ts';

// ---------------------------------------------------------------- §5.2 collisions

function cubeDegree(scope: string, n: unknown, min: number): number {
  return integerIn(scope, 'n', n, min, 1000, 'cube dimension');
}

/**
 * Probability that two messages generated at once on one node of a quiescent
 * n-cube collide on their first link with fixed (e-cube) routing, seed 002
 * Eq 5.1:
 *   P_f = (2^n/(2^n − 1))² · Σ_{k=1..n} 1/2^(2k)
 * n ≥ 1 (at n = 1 both messages must use the only link: P_f = 1).
 */
export function collisionProbabilityFixed(p: { readonly n: number }): number {
  const n = cubeDegree('buzzard.eq5_1', p.n, 1);
  const N = 2 ** n;
  let sum = 0;
  for (let k = 1; k <= n; k++) sum += 1 / 2 ** (2 * k);
  return (N / (N - 1)) ** 2 * sum; // seed 002 Eq 5.1
}

/**
 * The same with the adaptive (shortest-queue) first step, seed 002 Eq 5.2:
 *   P_a = (2^n/(2^n − 1))² · Σ_{k=1..n} (1/2^k)·(1/(2^n − 1))
 * n ≥ 2: at n = 1 the printed expression is 2, not a probability
 * (docs/sources.md, cost-models §4.3), so n = 1 is rejected.
 */
export function collisionProbabilityAdaptive(p: { readonly n: number }): number {
  const n = cubeDegree('buzzard.eq5_2', p.n, 2);
  const N = 2 ** n;
  let sum = 0;
  for (let k = 1; k <= n; k++) sum += (1 / 2 ** k) * (1 / (N - 1));
  return (N / (N - 1)) ** 2 * sum; // seed 002 Eq 5.2
}

/** lim_{n→∞} P_f = 1/3 (seed 002 §5.2). */
export const P_FIXED_LIMIT = 1 / 3;
/** lim_{n→∞} P_a = 0 (seed 002 §5.2). */
export const P_ADAPTIVE_LIMIT = 0;

// ---------------------------------------------------------------- distances, §5.7 utilisation

/** Chapter 5 simulation parameters (seed 002 §5.6–5.7; "paper mode", A1). */
export const BUZZARD_CH5_DEFAULTS = Object.freeze({
  n: 6, // seed 002 §5.7: "hypercubes of degree 6"
  ticksPerByte: 2, // seed 002 §5.7: "link transfer rate is 2 ticks per byte"
  arbitrationTicks: 4, // seed 002 §5.7: "arbitration for shared resources … 4 ticks"
  packetBytes: 32, // seed 002 §5.6
  packetBuffersPerPbu: 13, // seed 002 §5.6
  meanLengths: Object.freeze([512, 2048]), // seed 002 §5.7, exponential
  // seed 002 §5.7: 1024 … 9216 ticks, "two increases of 256 ticks, followed by three increases of 512
  // ticks and, finally, three increases of 2048 ticks" → [derived] list.
  generationTimes512: Object.freeze([1024, 1280, 1536, 2048, 2560, 3072, 5120, 7168, 9216]),
  // seed 002 §5.7: 4096 … "36846" [sic] with increases 1024, 2048, 8192 → [derived] ×4 pattern (A17: 36864).
  generationTimes2048: Object.freeze([4096, 5120, 6144, 8192, 10240, 12288, 20480, 28672, 36864]),
});


/**
 * [derived] Mean e-cube distance between a node and a uniformly chosen other
 * node of an n-cube (destinations exclude the source, as in seed 002 §5.2 and
 * §5.7 "uniform"): n·2^(n−1)/(2^n − 1). n = 6: 3.0476.
 */
export function meanHypercubeDistance(p: { readonly n: number }): number {
  const n = cubeDegree('buzzard.meanDistance', p.n, 1);
  return (n * 2 ** (n - 1)) / (2 ** n - 1); // [derived] docs/sources.md, cost-models §4.4
}

/** One generated message for the §5.7 utilisation sum. */
export interface GeneratedMessage {
  /** Message length M, bytes. */
  readonly lengthBytes: number;
  /** Hops L travelled. */
  readonly hops: number;
}

/**
 * "Ideal link utilization" of seed 002 §5.7: a message of length M that
 * travels L hops contributes 2M·L link ticks; the total is divided by the
 * number of links times the time from the start until the last message is
 * generated. The seed's 2 is the link rate of 2 ticks per byte (§5.7), exposed
 * as `ticksPerByte`. "Links" is undefined in the seed: [interp] A19 directed
 * links, n·2^n, is the default (`links` overrides it).
 */
export function idealLinkUtilisation(p: {
  readonly messages: readonly GeneratedMessage[];
  /** Cube dimension n (for the default link count n·2^n). */
  readonly n: number;
  /** Time of the last message generation, ticks (> 0). */
  readonly lastGenerationTicks: number;
  /** Link transfer rate, ticks per byte (seed 002 §5.7: 2). */
  readonly ticksPerByte?: number;
  /** Number of links; default n·2^n directed links ([interp] A19). */
  readonly links?: number;
}): number {
  const s = 'buzzard.idealLinkUtilisation';
  const n = cubeDegree(s, p.n, 1);
  const tpb = positive(s, 'ticksPerByte', p.ticksPerByte ?? BUZZARD_CH5_DEFAULTS.ticksPerByte, 'ticks per byte');
  const links = integerIn(s, 'links', p.links ?? n * 2 ** n, 1, Infinity, 'links');
  const T = positive(s, 'lastGenerationTicks', p.lastGenerationTicks, 'ticks');
  let linkTicks = 0;
  p.messages.forEach((m, i) => {
    const M = nonNegative(s, `messages[${i}].lengthBytes`, m.lengthBytes, 'bytes');
    const L = integerIn(s, `messages[${i}].hops`, m.hops, 0, n, 'hops');
    linkTicks += tpb * M * L; // seed 002 §5.7: 2M·L link ticks
  });
  return linkTicks / (links * T); // seed 002 §5.7
}

/**
 * [derived] Expected value of the §5.7 utilisation for uniform traffic: every
 * node generates a message every T̄_gen ticks on average, mean length M̄, mean
 * distance h̄ (meanHypercubeDistance), n·2^n directed links ([interp] A19):
 *   U ≈ ticksPerByte·M̄·h̄ / (n·T̄_gen)
 * docs/sources.md, cost-models §4.4 / docs/sources.md, buzzard §10.3 (U ≈ 520.1/T̄_gen for M̄ = 512, n = 6).
 */
export function expectedLinkUtilisation(p: { readonly n: number; readonly meanLengthBytes: number; readonly meanGenerationTicks: number; readonly ticksPerByte?: number }): number {
  const s = 'buzzard.expectedLinkUtilisation';
  const n = cubeDegree(s, p.n, 1);
  const M = nonNegative(s, 'meanLengthBytes', p.meanLengthBytes, 'bytes');
  const T = positive(s, 'meanGenerationTicks', p.meanGenerationTicks, 'ticks');
  const tpb = positive(s, 'ticksPerByte', p.ticksPerByte ?? BUZZARD_CH5_DEFAULTS.ticksPerByte, 'ticks per byte');
  return (tpb * M * meanHypercubeDistance({ n })) / (n * T);
}

/** Build the §5.7 generation-time list from its prose description (start + steps). */
export function generationTimeSchedule(p: { readonly startTicks: number; readonly increments: readonly { readonly count: number; readonly ticks: number }[] }): number[] {
  const s = 'buzzard.generationTimes';
  let t = positive(s, 'startTicks', p.startTicks, 'ticks');
  const out = [t];
  p.increments.forEach((inc, i) => {
    const c = integerIn(s, `increments[${i}].count`, inc.count, 0, 1000);
    const d = positive(s, `increments[${i}].ticks`, inc.ticks, 'ticks');
    for (let k = 0; k < c; k++) out.push((t += d));
  });
  return out;
}

// ---------------------------------------------------------------- §5.4 hardware timing

/** Breakdown of the packet-head critical path through a PBU (seed 002 §5.4.2). */
export interface HeadCriticalPath {
  /** Bits shifted into the incoming packet shift register: 25 + 2 start bits (+ 2 with the post-preheader sync). */
  readonly shiftInCycles: number;
  /** Loading the CAM: 1 cycle. */
  readonly camLoadCycles: number;
  /** Arbitrating for the output link: 2 cycles (§5.4.3). */
  readonly arbitrationCycles: number;
  /** Unloading the CAM: 1 cycle. */
  readonly camUnloadCycles: number;
  /** Total head latency per PBU, cycles (31 as printed). */
  readonly totalCycles: number;
  /** Cycle on which output shifting can commence (32nd as printed). */
  readonly outputShiftStartsOnCycle: number;
}

/**
 * Head critical path, seed 002 §5.4.2 (L1763): "31 cycles for the head of a
 * packet": 25 bits + 2 discarded start bits shifted in (27), 1 cycle to load
 * the CAM, 2 to arbitrate for the output link, 1 to unload the CAM; "shifting
 * of the output register can commence on the 32nd cycle".
 * `countPostPreheaderSync` ([interp] A2): the §5.4.8 framing puts a "10" after
 * the 9-bit preheader, inside the first 25 bits; the seed's count ignores it.
 * With it counted the head takes 33 cycles. Default false (the seed's 31).
 */
export function headCriticalPath(p: { readonly countPostPreheaderSync?: boolean; readonly arbitrationCycles?: number } = {}): HeadCriticalPath {
  const s = 'buzzard.headCriticalPath';
  const strict = bool(s, 'countPostPreheaderSync', p.countPostPreheaderSync ?? false);
  const arbitrationCycles = integerIn(s, 'arbitrationCycles', p.arbitrationCycles ?? 2, 1, 64, 'cycles'); // seed 002 §5.4.2/§5.4.3: 2 cycles
  const shiftInCycles = 25 + 2 + (strict ? 2 : 0); // seed 002 §5.4.2: 25 bits + 2 start bits; A2: + "10" sync
  const camLoadCycles = 1; // seed 002 §5.4.2
  const camUnloadCycles = 1; // seed 002 §5.4.2
  const totalCycles = shiftInCycles + camLoadCycles + arbitrationCycles + camUnloadCycles;
  return { shiftInCycles, camLoadCycles, arbitrationCycles, camUnloadCycles, totalCycles, outputShiftStartsOnCycle: totalCycles + 1 };
}

/** Arbiter timing (seed 002 §5.4.3). */
export interface ArbiterTiming {
  /** Arbiter inputs M (1-of-M). */
  readonly inputs: number;
  /** 1-of-2 modules in the tree, M − 1 (seed 002 Fig. 5.6: a 1-of-8 from seven). */
  readonly modules: number;
  /** Levels of 1-of-2 modules in the tree, ⌈log2 M⌉. */
  readonly levels: number;
  /** 3Δ·log2 M with log2 M read as the tree depth, gate delays. */
  readonly gateDelays: number;
  /** Gate delays per cycle needed to fit the arbitration cycle budget. */
  readonly minClockPeriodGateDelays: number;
}

/**
 * 1-of-M tree arbiter delay, seed 002 §5.4.3: "The total delay for a 1-of-M
 * arbiter is 3Δ·log2 M" (2 gate delays per module for the request, 1 for the
 * grant). For a degree-10 cube the seed prints "12 gate delays": the arbiters
 * are 1-of-(n+1) = 1-of-11, whose tree has ⌈log2 11⌉ = 4 levels, 3·4 = 12.
 * [interp] log2 M is therefore read as the tree depth ⌈log2 M⌉ (exact for
 * M = 2^k, e.g. the 1-of-8 of Fig. 5.6: 9). Pass either `inputs` (M) or
 * `cubeDegree` (M = n + 1). Cycle budget: 2 cycles (§5.4.2), so clock periods
 * over gateDelays/2 (= 6 at n = 10) suffice.
 */
export function arbiterTiming(p: { readonly inputs?: number; readonly cubeDegree?: number; readonly arbitrationCycles?: number }): ArbiterTiming {
  const s = 'buzzard.arbiter';
  if ((p.inputs === undefined) === (p.cubeDegree === undefined)) throw new RangeError(`${s}: give exactly one of inputs (M) or cubeDegree (n, M = n + 1)`);
  const M = p.inputs !== undefined ? integerIn(s, 'inputs', p.inputs, 2, 2 ** 20, 'arbiter inputs') : integerIn(s, 'cubeDegree', p.cubeDegree, 1, 2 ** 20, 'cube dimension') + 1;
  const cycles = integerIn(s, 'arbitrationCycles', p.arbitrationCycles ?? 2, 1, 64, 'cycles');
  const levels = Math.ceil(Math.log2(M) - 1e-12);
  const gateDelays = 3 * levels; // seed 002 §5.4.3: 3Δ·log2 M
  return { inputs: M, modules: M - 1, levels, gateDelays, minClockPeriodGateDelays: gateDelays / cycles };
}

/**
 * Highest link bit rate at which the shared buffer RAM stays off the critical
 * path, seed 002 §5.4.1: with `pbus` PBUs sharing a port each gets an access
 * every pbus × accessNs (10 × 35 ns = 350 ns) and must move 16 bits per access.
 * Returns Mbit/s ([derived] 45.7; the seed says "below 45 MHz").
 */
export function bufferRamMaxLinkRateMbps(p: { readonly pbus?: number; readonly accessNs?: number; readonly wordBits?: number } = {}): number {
  const s = 'buzzard.bufferRam';
  const pbus = integerIn(s, 'pbus', p.pbus ?? 10, 1, 1024, 'PBUs sharing the port'); // seed 002 §5.4.1: order-10 cube
  const ns = positive(s, 'accessNs', p.accessNs ?? 35, 'ns'); // seed 002 §5.4.1: 35 ns
  const bits = integerIn(s, 'wordBits', p.wordBits ?? 16, 1, 64, 'bits per access'); // seed 002 §5.4.1: 16-bit words
  return (bits / (pbus * ns)) * 1000;
}

/**
 * Bits on the wire for one packet of W 16-bit words (header words included),
 * from the §5.4.8 framing (seed 002: start bits "10", the 9-bit preheader, a
 * "10" sync "after the 9-bit preheader and after every 16 bits"):
 *   2 + 9 + W·(2 + 16) = 11 + 18W   [derived, docs/sources.md, buzzard §5]
 * [interp] one sync precedes each 16-bit word (the first is the one after the
 * preheader); none follows the last word. Full hardware packet W = 16: 299.
 */
export function packetWireBits(p: { readonly words: number }): number {
  const W = integerIn('buzzard.packetWireBits', 'words', p.words, 1, 4096, '16-bit words incl. header');
  return 2 + 9 + W * (2 + 16);
}

/** 16-bit words of a packet carrying `payloadBytes` after a `headerBytes` header (rounded up to whole words). */
export function packetWords(p: { readonly payloadBytes: number; readonly headerBytes?: number }): number {
  const s = 'buzzard.packetWords';
  const payload = integerIn(s, 'payloadBytes', p.payloadBytes, 0, 1 << 20, 'bytes');
  const header = integerIn(s, 'headerBytes', p.headerBytes ?? 4, 0, 1 << 20, 'bytes'); // seed 002 §5.4: 4-byte header
  return Math.max(1, Math.ceil((header + payload) / 2));
}

// ---------------------------------------------------------------- §4.5 wormhole vs packet

/**
 * Circuit / cut-through (wormhole) message time, seed 002 §4.5: ∝ M + h·β
 * (M message length, h hops, β link acquisition time per hop). Units of the
 * caller (the seed's are abstract).
 */
export function wormholeMessageTime(p: { readonly M: number; readonly h: number; readonly beta: number }): number {
  const s = 'buzzard.wormhole';
  return nonNegative(s, 'M', p.M) + integerIn(s, 'h', p.h, 0) * nonNegative(s, 'beta', p.beta); // seed 002 §4.5
}

/**
 * Packetised, interleaved message time, seed 002 §4.5:
 *   (M/p)(p + hα) = M + (M/p)·h·α        (not pipelined)
 *   M + h·α                              (pipelined: the M/p multiplier on hα drops to one)
 * p packet size, α apparent bandwidth reduction per hop.
 */
export function packetMessageTime(p: { readonly M: number; readonly p: number; readonly h: number; readonly alpha: number; readonly pipelined?: boolean }): number {
  const s = 'buzzard.packet';
  const M = nonNegative(s, 'M', p.M);
  const P = positive(s, 'p', p.p);
  const h = integerIn(s, 'h', p.h, 0);
  const a = nonNegative(s, 'alpha', p.alpha);
  return bool(s, 'pipelined', p.pipelined ?? true) ? M + h * a : (M / P) * (P + h * a); // seed 002 §4.5
}

/**
 * Fig. 4.28 example (seed 002 §4.5): a long message l is established first on a
 * path of h hops, a short message s follows on the same path.
 *  wormhole: t_l = M_l + h,       t_s = M_s + h·t_l
 *  packet:   t_l = M_l + h·α_l,   t_s = M_s + h·α_s   (α_l ≈ 1, α_s ≈ 2)
 * Returned as printed (abstract units).
 */
export function fig428Example(p: { readonly Ml: number; readonly Ms: number; readonly h: number; readonly alphaLong?: number; readonly alphaShort?: number }): {
  readonly wormhole: { readonly tl: number; readonly ts: number };
  readonly packet: { readonly tl: number; readonly ts: number };
} {
  const s = 'buzzard.fig4_28';
  const Ml = nonNegative(s, 'Ml', p.Ml);
  const Ms = nonNegative(s, 'Ms', p.Ms);
  const h = integerIn(s, 'h', p.h, 0);
  const al = nonNegative(s, 'alphaLong', p.alphaLong ?? 1); // seed 002 §4.5: α_l ≈ 1
  const as = nonNegative(s, 'alphaShort', p.alphaShort ?? 2); // seed 002 §4.5: α_s ≈ 2
  const tlW = Ml + h; // seed 002 §4.5
  return { wormhole: { tl: tlW, ts: Ms + h * tlW }, packet: { tl: Ml + h * al, ts: Ms + h * as } };
}

// ---------------------------------------------------------------- zero-load latency

/**
 * Parameters of the zero-load latency model. Terms marked [seed] come from the
 * dissertation, [derived] from arithmetic on it, [interp] from docs/readings.md;
 * "placeholder" terms are costs the seed does not give, to be measured on the
 * RTL and passed in (defaults 0 unless stated).
 */
export interface BuzzardLatencyParams {
  /** [seed] §5.4.2 / [interp] A2: count the post-preheader "10" in the head path (33 instead of 31 cycles). Default false. */
  readonly countPostPreheaderSync: boolean;
  /** [seed] §5.4.2, §5.4.3: cycles to arbitrate for an output (crossbar), 2. Used in the head path and at the source slot. */
  readonly arbitrationCycles: number;
  /** [seed] §5.4: header bytes per packet (16-bit destination + 16-bit source), 4. */
  readonly headerBytes: number;
  /** [seed] §5.6 / [interp] A6: packet size including the header, 32 bytes (16 words, fits the 4-bit length). */
  readonly packetBytes: number;
  /** [interp] A7: bytes prepended to the first packet's payload (16-bit type + 32-bit length), default 6; 0 allowed. */
  readonly firstPacketPrefixBytes: number;
  /** Placeholder (A14): control-unit work from the send instruction to the first bit on the wire (fetch destination, build preheader, prefetch), cycles. Default 0. */
  readonly injectionCycles: number;
  /** Placeholder (A9, A12, A14): extra idle cycles between consecutive packets of one message at the source slot, beyond the per-packet re-arbitration. Default 0. */
  readonly interPacketGapCycles: number;
  /** Placeholder (A5, A14): cycles from the last bit entering the node input port to the message-complete flag in memory. Default 0. */
  readonly deliveryCycles: number;
  /** Placeholder: cycles the source slot is still busy with earlier packets when this message arrives (queueing behind them), default 0. */
  readonly sourceBusyCycles: number;
  /** [interp] A1: clock for the µs conversion, MHz; 7 MHz = NCUBE (Chapter 3 comparisons). */
  readonly clockMHz: number;
}

/** Defaults of the hardware model (seed 002 Chapter 5 hardware; docs/sources.md, buzzard §16). */
export const BUZZARD_HW_DEFAULTS: Readonly<BuzzardLatencyParams> = Object.freeze({
  countPostPreheaderSync: false, // seed 002 §5.4.2: 31 cycles (A2: true → 33)
  arbitrationCycles: 2, // seed 002 §5.4.2/§5.4.3
  headerBytes: 4, // seed 002 §5.4
  packetBytes: 32, // seed 002 §5.6; A6: 28 data bytes per hardware packet
  firstPacketPrefixBytes: 6, // [interp] A7 (docs/sources.md, buzzard §16)
  injectionCycles: 0, // placeholder, A14
  interPacketGapCycles: 0, // placeholder, A9/A12/A14
  deliveryCycles: 0, // placeholder, A5/A14
  sourceBusyCycles: 0, // placeholder (no earlier traffic)
  clockMHz: 7, // [interp] A1: NCUBE clock for Chapter 3 comparisons
});

/** Result of the zero-load latency model (all times in cycles from the send, plus µs at clockMHz). */
export interface BuzzardZeroLoadLatency {
  /** Packets of the message. */
  readonly packets: number;
  /** Wire bits of each packet (11 + 18W). */
  readonly packetWireBits: readonly number[];
  /** Head latency per hop (PBU), cycles: 31 or 33. */
  readonly headLatencyPerHopCycles: number;
  /** Cycle the first packet starts shifting out of the source node output port. */
  readonly firstPacketStartCycles: number;
  /** Cycle the first packet's head starts shifting into the destination node input port. */
  readonly firstHeadAtDestinationCycles: number;
  /** Cycle the first packet's last bit has entered the node input port (Chapter 5 "first"). */
  readonly firstPacketCompleteCycles: number;
  /** Cycle the last packet's last bit has entered the node input port. */
  readonly lastBitCycles: number;
  /** lastBitCycles + deliveryCycles ("message complete"). */
  readonly messageCompleteCycles: number;
  /** messageCompleteCycles in µs at clockMHz. */
  readonly messageCompleteUs: number;
}

/**
 * Zero-load latency of one message on the Buzzard hardware, as far as
 * the framing (docs/readings.md A2, A5) determines it, in link bit times (cycles):
 *
 *   start_1  = sourceBusy + injection + arbitration                      (node output port slot arbitrates, [seed] 2 cycles; A12: once per packet)
 *   start_k  = start_{k−1} + bits_{k−1} + arbitration + interPacketGap   (k ≥ 2; packets of one message back to back behind each other)
 *   head at destination node input port = start_1 + hops·headLatency   ([seed] 31 cycles per PBU, 33 with A2)
 *   first packet complete = head + bits_1
 *   last bit = start_P + hops·headLatency + bits_P                      (cut-through, equal link rates: no stage is slower than the source)
 *   message complete = last bit + delivery
 *
 * bits_k = 11 + 18·W_k ([derived] §5.4.8 framing), W_k = ⌈(header + payload_k)/2⌉;
 * payload per packet = packetBytes − headerBytes (A6: 28), the first packet
 * also carries firstPacketPrefixBytes (A7). `hops` counts links; each hop ends
 * in a PBU at the receiving node, the last of which forwards to crossbar output
 * 0 (the node input port), so a 1-hop message passes one PBU.
 * [interp] Inconsistency kept visible: the seed's 31-cycle head count ignores
 * the post-preheader sync that the wire-bit count includes (A2); set
 * countPostPreheaderSync for the bit-exact 33.
 * Zero-byte messages send one header-only packet (W = 2 + prefix words).
 */
export function zeroLoadLatency(p: Partial<BuzzardLatencyParams> & { readonly hops: number; readonly messageBytes: number }): BuzzardZeroLoadLatency {
  const s = 'buzzard.zeroLoadLatency';
  const v = { ...BUZZARD_HW_DEFAULTS };
  for (const [k, val] of Object.entries(p)) if (val !== undefined) (v as Record<string, unknown>)[k] = val;
  const hops = integerIn(s, 'hops', p.hops, 1, 64, 'links traversed');
  const bytes = integerIn(s, 'messageBytes', p.messageBytes, 0, 2 ** 31, 'bytes');
  const header = integerIn(s, 'headerBytes', v.headerBytes, 0, 64, 'bytes');
  const packetBytes = integerIn(s, 'packetBytes', v.packetBytes, header + 1, 4096, 'bytes incl. header');
  const prefix = integerIn(s, 'firstPacketPrefixBytes', v.firstPacketPrefixBytes, 0, packetBytes - header, 'bytes');
  const arb = integerIn(s, 'arbitrationCycles', v.arbitrationCycles, 1, 64, 'cycles');
  const inj = nonNegative(s, 'injectionCycles', v.injectionCycles, 'cycles');
  const gap = nonNegative(s, 'interPacketGapCycles', v.interPacketGapCycles, 'cycles');
  const delivery = nonNegative(s, 'deliveryCycles', v.deliveryCycles, 'cycles');
  const busy = nonNegative(s, 'sourceBusyCycles', v.sourceBusyCycles, 'cycles');
  const mhz = positive(s, 'clockMHz', v.clockMHz, 'MHz');
  const head = headCriticalPath({ countPostPreheaderSync: bool(s, 'countPostPreheaderSync', v.countPostPreheaderSync), arbitrationCycles: arb }).totalCycles;

  const payloadPerPacket = packetBytes - header;
  // Split prefix + data into packets of payloadPerPacket bytes (the prefix rides in the first).
  const carried = prefix + bytes;
  const packets = Math.max(1, Math.ceil(carried / payloadPerPacket));
  const bits: number[] = [];
  for (let k = 0; k < packets; k++) {
    const payload = Math.min(payloadPerPacket, carried - k * payloadPerPacket);
    bits.push(packetWireBits({ words: packetWords({ payloadBytes: Math.max(0, payload), headerBytes: header }) }));
  }
  const firstStart = busy + inj + arb;
  let start = firstStart;
  for (let k = 1; k < packets; k++) start += bits[k - 1]! + arb + gap;
  const firstHead = firstStart + hops * head;
  const firstComplete = firstHead + bits[0]!;
  const lastBit = start + hops * head + bits[packets - 1]!;
  const complete = lastBit + delivery;
  return {
    packets,
    packetWireBits: bits,
    headLatencyPerHopCycles: head,
    firstPacketStartCycles: firstStart,
    firstHeadAtDestinationCycles: firstHead,
    firstPacketCompleteCycles: firstComplete,
    lastBitCycles: lastBit,
    messageCompleteCycles: complete,
    messageCompleteUs: complete / mhz,
  };
}

/** Convert cycles to µs at a clock in MHz ([interp] A1; default 7 MHz, the NCUBE clock). */
export function cyclesToMicroseconds(p: { readonly cycles: number; readonly clockMHz?: number }): number {
  const s = 'buzzard.cyclesToUs';
  return nonNegative(s, 'cycles', p.cycles, 'cycles') / positive(s, 'clockMHz', p.clockMHz ?? 7, 'MHz');
}
