/**
 * Buzzard's Chapter 3 near-neighbour execution-time model and its data
 * (seed 002: G. D. Buzzard, "High Performance Communications for Hypercube
 * Multiprocessors", PhD dissertation, University of Michigan, 1988, §3.4–§3.6;
 * digest in docs/sources.md, cost-models §4.1 and docs/sources.md, buzzard §11).
 *
 * Units: µs throughout (the NCUBE/ten at 7 MHz), bytes for message sizes.
 *
 * Contents:
 *  - Eq 3.2 (T = Σt_c + Σt_s + Σt_w) and Eq 3.3 (t_w) as functions;
 *  - Table 3.1 (t = a·x + b);
 *  - the Sobel step tables 3.4, 3.5, 3.7 as data, with the totals the seed
 *    prints and what the steps actually sum to;
 *  - the Linpack step tables 3.6, 3.8 as parametric steps, an iteration model
 *    that sums them ([interp] bookkeeping, stated), and Tables 3.9, 3.10.
 */
import { checkNumber, integerIn, nonNegative, oneOf, positive } from './validate.ts';

/** Step class (seed 002 §3.4): calculation, setup for communication, waiting. */
export type StepKind = 'c' | 's' | 'w';

/** One row of an execution profile (seed 002 §3.4 notation). */
export interface ProfileStep {
  /** Parameter as printed, e.g. "t_s3", "t_{s3,19:1,1}", "t_c18". */
  readonly param: string;
  readonly kind: StepKind;
  /** Step time, µs. */
  readonly timeUs: number;
  readonly comment: string;
}

/** Totals of Eq 3.2. */
export interface ExecutionTotals {
  /** T = T_c + T_s + T_w, µs (seed 002 Eq 3.2). */
  readonly T: number;
  /** T_c = Σ t_ci, µs. */
  readonly Tc: number;
  /** T_s = Σ t_si (synchronous and asynchronous setup steps), µs. */
  readonly Ts: number;
  /** T_w = Σ t_wi, µs. */
  readonly Tw: number;
}

/**
 * Program execution time, seed 002 Eq 3.2:
 *   T = Σ_i t_ci + Σ_i t_si + Σ_i t_wi   [µs]
 * (the t_si include the asynchronous protocol events t_{si,j:k,l}).
 */
export function executionTime(steps: readonly ProfileStep[]): ExecutionTotals {
  let Tc = 0;
  let Ts = 0;
  let Tw = 0;
  steps.forEach((st, i) => {
    const t = nonNegative('buzzard.eq3_2', `steps[${i}].timeUs`, st.timeUs, 'µs');
    const kind = oneOf('buzzard.eq3_2', `steps[${i}].kind`, st.kind, ['c', 's', 'w'] as const);
    if (kind === 'c') Tc += t;
    else if (kind === 's') Ts += t;
    else Tw += t;
  });
  return { T: Tc + Ts + Tw, Tc, Ts, Tw }; // seed 002 Eq 3.2
}

/**
 * Waiting time at step i for a communication initiated at step j, seed 002
 * Eq 3.3:
 *   t^j_wi = max(0, t_di + m·r − Σ_{k=j..i} t_xk)   [µs]
 * `overlappedUs` is Σ t_xk excluding the protocol-interrupt time of the awaited
 * communication; m in bytes, r in µs per byte, t_di the unavoidable contention
 * delay in µs.
 */
export function waitTimeUs(p: { readonly tdUs?: number; readonly mBytes: number; readonly rUsPerByte: number; readonly overlappedUs: number }): number {
  const s = 'buzzard.eq3_3';
  const td = nonNegative(s, 'tdUs', p.tdUs ?? 0, 'µs');
  const m = nonNegative(s, 'mBytes', p.mBytes, 'bytes');
  const r = nonNegative(s, 'rUsPerByte', p.rUsPerByte, 'µs per byte');
  const x = nonNegative(s, 'overlappedUs', p.overlappedUs, 'µs');
  return Math.max(0, td + m * r - x); // seed 002 Eq 3.3
}

/** Effective processor utilisation U = T_c/T (seed 002 §3.6.1). */
export function processorUtilisation(p: { readonly TcUs: number; readonly TUs: number }): number {
  const s = 'buzzard.utilisation';
  const Tc = nonNegative(s, 'TcUs', p.TcUs, 'µs');
  const T = positive(s, 'TUs', p.TUs, 'µs');
  if (Tc > T) throw new RangeError(`${s}.TcUs: ${Tc} is outside 0..${T} (cannot exceed T)`);
  return Tc / T; // seed 002 §3.6.1: U = T_c / T
}

// ---------------------------------------------------------------- Table 3.1

/** One row of seed 002 Table 3.1: t = a·x + b. */
export interface BasicCommRow {
  readonly system: string;
  /** b: latency, µs (zero-length message, one hop). */
  readonly latencyUs: number;
  /** a: inverse bandwidth, µs per byte. */
  readonly inverseBandwidthUsPerByte: number;
  /** Large-message fit printed in the prose where it differs from the table (§3.5.1). */
  readonly largeMessageFit?: { readonly aUsPerByte: number; readonly bUs: number };
}

/** Seed 002 Table 3.1 "Basic Communication Performance" (§3.5.1). */
export const BUZZARD_TABLE_3_1: readonly BasicCommRow[] = Object.freeze([
  { system: 'NCUBE Ext. Vtx.', latencyUs: 83, inverseBandwidthUsPerByte: 1.29 },
  { system: 'NCUBE Std. Vtx.', latencyUs: 466, inverseBandwidthUsPerByte: 3.14 },
  { system: 'Ametek 14/n', latencyUs: 550, inverseBandwidthUsPerByte: 9.53 },
  { system: 'iPSC/1 IHOS', latencyUs: 1700, inverseBandwidthUsPerByte: 2.83 },
  // seed 002 §3.5.1: "t = 19.7x + 12 for the iPSC/1" for messages > 32 bytes
  { system: 'iPSC/1 CrOS', latencyUs: 304, inverseBandwidthUsPerByte: 19.7, largeMessageFit: { aUsPerByte: 19.7, bUs: 12 } },
  // seed 002 §3.5.1: "t = 10.15x + 65 for the Mark II"
  { system: 'Mark II CrOS', latencyUs: 90, inverseBandwidthUsPerByte: 10.15, largeMessageFit: { aUsPerByte: 10.15, bUs: 65 } },
]);

/** Basic message time t = a·x + b, seed 002 §3.5.1 (x bytes, a µs/byte, b µs)   [µs]. */
export function basicMessageTimeUs(p: { readonly aUsPerByte: number; readonly bUs: number; readonly xBytes: number }): number {
  const s = 'buzzard.basicMessage';
  return nonNegative(s, 'aUsPerByte', p.aUsPerByte, 'µs per byte') * nonNegative(s, 'xBytes', p.xBytes, 'bytes') + nonNegative(s, 'bUs', p.bUs, 'µs'); // seed 002 §3.5.1
}

// ---------------------------------------------------------------- Sobel tables

const S = (param: string, timeUs: number, comment: string): ProfileStep => ({ param, kind: 's', timeUs, comment });
const C = (param: string, timeUs: number, comment: string): ProfileStep => ({ param, kind: 'c', timeUs, comment });

/** Seed 002 Table 3.4 "Sobel Execution Profile, Standard Vertex" (§3.5.2), as printed. */
export const SOBEL_STANDARD_VERTEX: readonly ProfileStep[] = Object.freeze([
  S('t_s1', 275, 'data gather'),
  S('t_s2', 160, 'call to send 1st edge'),
  S('t_s3', 20, 'start transmit'),
  S('t_{s3,19:1,1}', 117, 'send protocol overhead'),
  S('t_s4', 160, 'call to send 2nd edge'),
  S('t_s5', 20, 'start transmit'),
  S('t_{s5,20:1,1}', 117, 'send protocol overhead'),
  S('t_s6', 160, 'call to send 3rd edge'),
  S('t_s7', 20, 'start transmit'),
  S('t_{s7,21:1,1}', 117, 'send protocol overhead'),
  S('t_s8', 160, 'call to send 4th edge'),
  S('t_s9', 20, 'start transmit'),
  S('t_{s9,22:1,1}', 117, 'send protocol overhead'),
  S('t_s10', 153, 'call to send 1st corner'),
  S('t_s11', 20, 'start transmit'),
  S('t_{s11,24:1,1}', 117, 'send protocol overhead'),
  S('t_s12', 153, 'call to send 2nd corner'),
  S('t_s13', 20, 'start transmit'),
  S('t_{s13,25:1,1}', 117, 'send protocol overhead'),
  S('t_s14', 153, 'call to send 3rd corner'),
  S('t_s15', 20, 'start transmit'),
  S('t_{s15,26:1,1}', 117, 'send protocol overhead'),
  S('t_s16', 153, 'call to send 4th corner'),
  S('t_s17', 20, 'start transmit'),
  S('t_{s17,27:1,1}', 117, 'send protocol overhead'),
  C('t_c18', 10036, 'process interior'),
  S('t_s19', 170, 'call to receive 1st edge'),
  S('t_{s3,19:1,2}', 186, 'receive protocol overhead'),
  S('t_s20', 170, 'call to receive 2nd edge'),
  S('t_{s5,20:1,2}', 186, 'receive protocol overhead'),
  S('t_s21', 170, 'call to receive 3rd edge'),
  S('t_{s7,21:1,2}', 186, 'receive protocol overhead'),
  S('t_s22', 170, 'call to receive 4th edge'),
  S('t_{s9,22:1,2}', 186, 'receive protocol overhead'),
  C('t_c23', 6681, 'process edges'),
  S('t_s24', 163, 'call to receive 1st corner'),
  S('t_{s11,24:1,2}', 186, 'receive protocol overhead'),
  S('t_s25', 163, 'call to receive 2nd corner'),
  S('t_{s13,25:1,2}', 186, 'receive protocol overhead'),
  S('t_s26', 163, 'call to receive 3rd corner'),
  S('t_{s15,26:1,2}', 186, 'receive protocol overhead'),
  S('t_s27', 163, 'call to receive 4th corner'),
  S('t_{s17,27:1,2}', 186, 'receive protocol overhead'),
  C('t_c28', 998, 'process corners'),
]);

/** Seed 002 Table 3.5 "Sobel Execution Profile, Extended Vertex" (both parts), as printed. */
export const SOBEL_EXTENDED_VERTEX: readonly ProfileStep[] = Object.freeze([
  S('t_s1', 64, 'queue 1st edge receive request'),
  S('t_s2', 64, 'queue 2nd edge receive request'),
  S('t_s3', 64, 'queue 3rd edge receive request'),
  S('t_s4', 64, 'queue 4th edge receive request'),
  S('t_s5', 64, 'queue 1st corner receive request'),
  S('t_s6', 64, 'queue 2nd corner receive request'),
  S('t_s7', 64, 'queue 3rd corner receive request'),
  S('t_s8', 64, 'queue 4th corner receive request'),
  S('t_s9', 275, 'data gather'),
  S('t_s10', 64, 'start 1st edge send'),
  S('t_{s10,23}', 25, 'send interrupt overhead'),
  S('t_s11', 64, 'start 2nd edge send'),
  S('t_{s11,25}', 25, 'send interrupt overhead'),
  S('t_s12', 64, 'start 3rd edge send'),
  S('t_{s12,27}', 25, 'send interrupt overhead'),
  S('t_s13', 64, 'start 4th edge send'),
  S('t_{s13,29}', 25, 'send interrupt overhead'),
  S('t_s14', 5, 'poll for edge'),
  S('t_s15', 64, 'send corner'),
  S('t_{s15,31}', 25, 'send interrupt overhead'),
  S('t_s16', 5, 'poll for edge'),
  S('t_s17', 64, 'send corner'),
  S('t_{s17,33}', 25, 'send interrupt overhead'),
  S('t_s18', 5, 'poll for edge'),
  S('t_s19', 64, 'send corner'),
  S('t_{s19,35}', 25, 'send interrupt overhead'),
  S('t_s20', 5, 'poll for edge'),
  S('t_s21', 64, 'send corner'),
  S('t_{s21,37}', 25, 'send interrupt overhead'),
  C('t_c22', 10036, 'process interior'),
  S('t_s23', 10, 'poll for 1st edge (twice)'),
  S('t_{s10,23}', 25, 'receive interrupt overhead'),
  C('t_c24', 1743, 'process edge'),
  S('t_s25', 10, 'poll for 2nd edge (twice)'),
  S('t_{s11,25}', 25, 'receive interrupt overhead'),
  C('t_c26', 1743, 'process edge'),
  S('t_s27', 10, 'poll for 3rd edge (twice)'),
  S('t_{s12,27}', 25, 'receive interrupt overhead'),
  C('t_c28', 1743, 'process edge'),
  // part 2 of 2
  S('t_s29', 10, 'poll for 4th edge (twice)'),
  S('t_{s13,29}', 25, 'receive interrupt overhead'),
  C('t_c30', 1743, 'process edge'),
  S('t_s31', 5, 'poll for 1st corner'),
  S('t_{s15,31}', 25, 'receive interrupt overhead'),
  C('t_c32', 235, 'process corner'),
  S('t_s33', 5, 'poll for 2nd corner'),
  S('t_{s17,33}', 25, 'receive interrupt overhead'),
  C('t_c34', 235, 'process corner'),
  S('t_s35', 5, 'poll for 3rd corner'),
  S('t_{s19,35}', 25, 'receive interrupt overhead'),
  C('t_c36', 235, 'process corner'),
  S('t_s37', 5, 'poll for 4th corner'),
  S('t_{s21,37}', 25, 'receive interrupt overhead'),
  C('t_c38', 235, 'process corner'),
]);

/** Seed 002 Table 3.7 "Sobel Execution Profile, Proposed Scheme" (§3.6.1), as printed (no t_s14/16/18/20). */
export const SOBEL_PROPOSED: readonly ProfileStep[] = Object.freeze([
  S('t_s1', 4, 'queue 1st edge receive request'),
  S('t_s2', 4, 'queue 2nd edge receive request'),
  S('t_s3', 4, 'queue 3rd edge receive request'),
  S('t_s4', 4, 'queue 4th edge receive request'),
  S('t_s5', 4, 'queue 1st corner receive request'),
  S('t_s6', 4, 'queue 2nd corner receive request'),
  S('t_s7', 4, 'queue 3rd corner receive request'),
  S('t_s8', 4, 'queue 4th corner receive request'),
  S('t_s9', 275, 'data gather'),
  S('t_s10', 4, 'send 1st edge'),
  S('t_s11', 4, 'send 2nd edge'),
  S('t_s12', 4, 'send 3rd edge'),
  S('t_s13', 4, 'send 4th edge'),
  S('t_s15', 4, 'send corner'),
  S('t_s17', 4, 'send corner'),
  S('t_s19', 4, 'send corner'),
  S('t_s21', 4, 'send corner'),
  C('t_c22', 10036, 'process interior'),
  S('t_s23', 5, 'poll for 1st edge'),
  C('t_c24', 1743, 'process edge'),
  S('t_s25', 5, 'poll for 2nd edge'),
  C('t_c26', 1743, 'process edge'),
  S('t_s27', 5, 'poll for 3rd edge'),
  C('t_c28', 1743, 'process edge'),
  S('t_s29', 5, 'poll for 4th edge'),
  C('t_c30', 1743, 'process edge'),
  S('t_s31', 5, 'poll for 1st corner'),
  C('t_c32', 235, 'process corner'),
  S('t_s33', 5, 'poll for 2nd corner'),
  C('t_c34', 235, 'process corner'),
  S('t_s35', 5, 'poll for 3rd corner'),
  C('t_c36', 235, 'process corner'),
  S('t_s37', 5, 'poll for 4th corner'),
  C('t_c38', 235, 'process corner'),
]);

/**
 * The Sobel totals as printed in seed 002 §3.5.2 and §3.6.1 (µs). "measured"
 * values are NCUBE measurements, not sums of the tables; the proposed-scheme
 * values are model predictions.
 */
export const SOBEL_PRINTED = Object.freeze({
  standard: Object.freeze({ T: 25017, Tc: 17715, Ts: 5168, source: 'measured, §3.5.2 (L762)' }),
  extended: Object.freeze({ T: 19783, Tc: 17948, Ts: 1779, modelWithinUs: 100, source: 'measured, §3.5.2' }),
  // §3.6.1 prints "T_c is reduced to 379 µs" and "could be reduced further to 104 µs": T_s is meant (docs/readings.md A17).
  proposed: Object.freeze({ T: 18327, Ts: 379, TsWithStridedDma: 104, source: 'predicted, §3.6.1' }),
  /** §3.5.2: extended is "about 1.26 times faster … and 3.06 times faster in communications time". */
  extendedSpeedupTotal: 1.26,
  extendedSpeedupCommunication: 3.06,
  /** §3.5.2: parameterless OS call from C, µs. */
  osCallUs: 26,
  /** §3.5.2: coalescing the repeated OS calls gives "a 17% improvement", speedup "1.29". */
  coalescingImprovement: 0.17,
  coalescingSpeedup: 1.29,
  /** §3.6.1: proposed T is "about 80%" of standard and "about 93%" of extended (as predicted). */
  proposedVsStandard: 0.8,
  proposedVsExtended: 0.93,
  /** §3.6.1: communication share of T: 2% proposed, 29% standard, 9% extended. */
  communicationShare: Object.freeze({ proposed: 0.02, standard: 0.29, extended: 0.09 }),
  /** §3.6.1: edge < 22 µs, corner < 37 µs on the proposed chip at the NCUBE clock rate. */
  edgeTransmitBoundUs: 22,
  cornerTransmitBoundUs: 37,
  /** §3.5.2: Sobel edge message m = 8 bytes at r = 1.29 µs/byte (all t_w = 0). */
  edgeBytes: 8,
  rUsPerByte: 1.29,
});

/**
 * Saving from coalescing repeated OS calls (seed 002 §3.5.2): each removed
 * parameterless call saves `osCallUs` (26 µs). Returns the saving in µs.
 */
export function osCallSavingUs(p: { readonly callsRemoved: number; readonly osCallUs?: number }): number {
  const s = 'buzzard.osCallSaving';
  return integerIn(s, 'callsRemoved', p.callsRemoved, 0, Infinity, 'calls') * nonNegative(s, 'osCallUs', p.osCallUs ?? SOBEL_PRINTED.osCallUs, 'µs');
}

// ---------------------------------------------------------------- Linpack tables

/** Variables of the Linpack step expressions (seed 002 §3.5.2, Table 3.6 legend). */
export interface LinpackVars {
  /** Cube dimension d. */
  readonly d: number;
  /** Sons of this node in the broadcast spanning tree, x. */
  readonly x: number;
  /** Active matrix columns on this node, y. */
  readonly y: number;
  /** Active column length, z. */
  readonly z: number;
  /** t_c of the pivot step the wait refers to (t_{c,i−7} in Table 3.6, t_{c,i−6} in Table 3.8), µs. */
  readonly tcPivotUs: number;
  /** t_s of the broadcast step the wait refers to (t_{s,i−5} in Table 3.6), µs. */
  readonly tsBroadcastUs: number;
}

/** One parametric Linpack step. */
export interface LinpackStep {
  readonly param: string;
  readonly kind: StepKind;
  /** When the step runs: once at start, in an iteration holding the pivot, or in one without it. */
  readonly phase: 'setup' | 'pivot' | 'nonpivot';
  /** Step time, µs, as printed. */
  readonly timeUs: (v: LinpackVars) => number;
  /** The expression as printed. */
  readonly printed: string;
  readonly comment: string;
}

/** Seed 002 Table 3.6 "Linpack Execution Profile, Extended Vertex" (§3.5.2), as printed. */
export const LINPACK_EXTENDED_VERTEX: readonly LinpackStep[] = Object.freeze([
  { param: 't_s1', kind: 's', phase: 'setup', printed: '2(12d + 11 + 63.5) + 529', timeUs: (v) => 2 * (12 * v.d + 11 + 63.5) + 529, comment: 'setup initial receive requests' },
  { param: 't_s2', kind: 's', phase: 'pivot', printed: '17.4d + 19 + 92.8', timeUs: (v) => 17.4 * v.d + 19 + 92.8, comment: 'determine sons and active buffer' },
  { param: 't_c3', kind: 'c', phase: 'pivot', printed: '21.26z + 280', timeUs: (v) => 21.26 * v.z + 280, comment: 'determine pivot, calculate multiplier' },
  { param: 't_w4', kind: 'w', phase: 'pivot', printed: '0', timeUs: () => 0, comment: "no wait when we start broadcast" },
  { param: 't_s5', kind: 's', phase: 'pivot', printed: '14.5x + 66', timeUs: (v) => 14.5 * v.x + 66, comment: 'broadcast' },
  { param: 't_s6', kind: 's', phase: 'pivot', printed: '0', timeUs: () => 0, comment: 'no setup of receive this time' },
  { param: 't_c7', kind: 'c', phase: 'pivot', printed: 'y(16.5z + 92) + 3', timeUs: (v) => v.y * (16.5 * v.z + 92) + 3, comment: 'row elimination' },
  { param: 't_s8', kind: 's', phase: 'nonpivot', printed: '17.4d + 19 + 92.8', timeUs: (v) => 17.4 * v.d + 19 + 92.8, comment: 'same as t_s2' },
  { param: 't_c9', kind: 'c', phase: 'nonpivot', printed: '0', timeUs: () => 0, comment: "skip, don't have pivot column" },
  // seed 002 Table 3.6: "(d+1)/2" printed although the prose says one-half of the diameter.
  { param: 't_w10', kind: 'w', phase: 'nonpivot', printed: 't_{ci-7} + ((d+1)/2)(t_{si-5} + 25 + 5.2z)', timeUs: (v) => v.tcPivotUs + ((v.d + 1) / 2) * (v.tsBroadcastUs + 25 + 5.2 * v.z), comment: 'wait to receive broadcast' },
  { param: 't_s11', kind: 's', phase: 'nonpivot', printed: '14.5x + 81 or 15', timeUs: (v) => (v.x > 0 ? 14.5 * v.x + 81 : 15), comment: 'forward broadcast to sons (if any)' },
  { param: 't_s12', kind: 's', phase: 'nonpivot', printed: '12d + 278.5', timeUs: (v) => 12 * v.d + 278.5, comment: 'setup receive (one after next)' },
  { param: 't_c13', kind: 'c', phase: 'nonpivot', printed: 'y(16.5z + 92) + 3', timeUs: (v) => v.y * (16.5 * v.z + 92) + 3, comment: 'same as t_c7' },
]);

/** Seed 002 Table 3.8 "Linpack Execution Profile, (Proposed Scheme)" (§3.6.1), as printed. */
export const LINPACK_PROPOSED: readonly LinpackStep[] = Object.freeze([
  { param: 't_s1', kind: 's', phase: 'setup', printed: '2(4) + 529', timeUs: () => 2 * 4 + 529, comment: 'setup initial receive requests' },
  { param: 't_s2', kind: 's', phase: 'pivot', printed: '92.8', timeUs: () => 92.8, comment: 'determine active buffer' },
  { param: 't_c3', kind: 'c', phase: 'pivot', printed: '21.26z + 280', timeUs: (v) => 21.26 * v.z + 280, comment: 'determine pivot, calculate multiplier' },
  { param: 't_w4', kind: 'w', phase: 'pivot', printed: '0', timeUs: () => 0, comment: 'no wait when we start broadcast' },
  { param: 't_s5', kind: 's', phase: 'pivot', printed: '2x + 2', timeUs: (v) => 2 * v.x + 2, comment: 'broadcast' },
  { param: 't_c6', kind: 'c', phase: 'pivot', printed: 'y(16.5z + 92) + 3', timeUs: (v) => v.y * (16.5 * v.z + 92) + 3, comment: 'row elimination' },
  { param: 't_s7', kind: 's', phase: 'nonpivot', printed: '92.8', timeUs: () => 92.8, comment: 'same as t_s2' },
  { param: 't_c8', kind: 'c', phase: 'nonpivot', printed: '0', timeUs: () => 0, comment: "skip, don't have pivot column" },
  // seed 002 Table 3.8 / §3.6.1: ¾ of the diameter per hop; 7 elements (the first packet) at 5.2 µs each.
  { param: 't_w9', kind: 'w', phase: 'nonpivot', printed: 't_{ci-6} + (3(d+1)/4)·7·(5.2)', timeUs: (v) => v.tcPivotUs + ((3 * (v.d + 1)) / 4) * 7 * 5.2, comment: 'wait to receive broadcast' },
  { param: 't_s10', kind: 's', phase: 'nonpivot', printed: '4 + 100', timeUs: () => 4 + 100, comment: 'setup receive (one after next)' },
  { param: 't_c11', kind: 'c', phase: 'nonpivot', printed: 'y(16.5z + 92) + 3', timeUs: (v) => v.y * (16.5 * v.z + 92) + 3, comment: 'same as t_c6' },
]);

/** One row of seed 002 Table 3.9 (µs) with its Table 3.10 utilisation. */
export interface LinpackRow {
  readonly version: 'standard' | 'extended' | 'proposed';
  readonly d: number;
  readonly m: number;
  readonly Ts: number;
  readonly Tw: number;
  readonly Tc: number;
  readonly T: number;
  readonly speedup: number;
  /** Table 3.10 U = T_c/T as printed. */
  readonly U: number;
}

const LP = (version: LinpackRow['version'], d: number, m: number, Ts: number, Tw: number, Tc: number, T: number, speedup: number, U: number): LinpackRow =>
  Object.freeze({ version, d, m, Ts, Tw, Tc, T, speedup, U });

/** Seed 002 Table 3.9 (T_s, T_w, T_c, T, Speedup) and Table 3.10 (U), as printed. */
export const LINPACK_TABLE_3_9: readonly LinpackRow[] = Object.freeze([
  LP('standard', 4, 50, 28.1e3, 146e3, 88.4e3, 263e3, 1.0, 0.34),
  LP('extended', 4, 50, 28.0e3, 68.4e3, 88.4e3, 185e3, 1.42, 0.48),
  LP('proposed', 4, 50, 10.7e3, 42.8e3, 88.4e3, 142e3, 1.85, 0.62),
  LP('standard', 4, 100, 65.3e3, 435e3, 498e3, 999e3, 1.0, 0.5),
  LP('extended', 4, 100, 55.6e3, 136e3, 498e3, 772e3, 1.29, 0.65),
  LP('proposed', 4, 100, 20.9e3, 8.12e3, 498e3, 655e3, 1.53, 0.76),
  LP('standard', 7, 500, 837e3, 13.9e6, 6.66e6, 21.4e6, 1.0, 0.31),
  LP('extended', 7, 500, 329e3, 5.63e6, 6.66e6, 12.6e6, 1.7, 0.53),
  LP('proposed', 7, 500, 106e3, 2.88e6, 6.66e6, 9.65e6, 2.22, 0.69),
  LP('standard', 7, 1000, 2.67e6, 52.4e6, 49.0e6, 104e6, 1.0, 0.47),
  LP('extended', 7, 1000, 657e3, 21.7e6, 49.0e6, 71.4e6, 1.46, 0.69),
  LP('proposed', 7, 1000, 212e3, 11.0e6, 49.0e6, 60.3e6, 1.72, 0.81),
  LP('standard', 10, 5000, 59.7e6, 1.5e9, 793e6, 2.36e9, 1.0, 0.34),
  LP('extended', 10, 5000, 3.74e6, 628e6, 793e6, 1.42e9, 1.66, 0.56),
  LP('proposed', 10, 5000, 1.06e6, 268e6, 793e6, 1.06e9, 2.23, 0.75),
  LP('standard', 10, 10000, 219e6, 5.97e9, 5.97e9, 12.2e9, 1.0, 0.49),
  LP('extended', 10, 10000, 7.48e6, 2.5e9, 5.97e9, 8.48e9, 1.44, 0.7),
  LP('proposed', 10, 10000, 2.12e6, 1.07e9, 5.97e9, 7.04e9, 1.73, 0.85),
]);

/** §3.5.2 measurement of the 477×477 LU on 64 nodes (seconds). */
export const LINPACK_MEASURED_477 = Object.freeze({
  standard: Object.freeze({ Ts_plus_Tw: 10.951, Tc: 11.524, T: 22.475, communicationShare: 0.49 }),
  extended: Object.freeze({ Ts_plus_Tw: 5.262, Tc: 11.524, T: 16.786, communicationShare: 0.31 }),
  speedup: 1.34,
  modelAccuracy: 0.05, // "accurate to within 5%" for 100×100 … 477×477
});

/** Options of the Linpack iteration model ([interp], stated per field). */
export interface LinpackModelInput {
  readonly version: 'extended' | 'proposed';
  /** Cube dimension d ≥ 1. */
  readonly d: number;
  /** Matrix order m ≥ 1. */
  readonly m: number;
  /** [interp] Sons of the modelled node when it holds the pivot (root of a binomial spanning tree: d). */
  readonly sonsAsRoot?: number;
  /** [interp] Sons of the modelled node otherwise (Table 3.6 t_s11 "or 15" case: 0 → leaf). Default 0. */
  readonly sonsAsNonRoot?: number;
}

/**
 * Sum Tables 3.6 / 3.8 over a whole factorisation (seed 002 §3.5.2: steps 8–13
 * "iterated 2^d − 1 times, followed by an iteration of steps similar to 2–7,
 * and so on until a number of iterations equal to the matrix order").
 * [interp] bookkeeping (the seed does not fully specify it; docs/sources.md, cost-models
 * §4.1 [derived]): iteration i = 1..m has z = m − i + 1 and
 * y = ⌈(m − i + 1)/2^d⌉; the modelled node holds the pivot on iterations
 * i ≡ 1 (mod 2^d); the waits use the pivot node's t_c3 and t_s5 of the same
 * iteration; t_s1 once. The result does NOT reproduce Table 3.9 (T_c 2–3% low
 * for d = 7, 10 and 13–24% low for d = 4); see the tests.
 */
export function linpackModel(p: LinpackModelInput): ExecutionTotals {
  const s = 'buzzard.linpackModel';
  const version = oneOf(s, 'version', p.version, ['extended', 'proposed'] as const);
  const d = integerIn(s, 'd', p.d, 1, 20, 'cube dimension');
  const m = integerIn(s, 'm', p.m, 1, 1e6, 'matrix order');
  const sonsRoot = integerIn(s, 'sonsAsRoot', p.sonsAsRoot ?? d, 0, d, 'sons');
  const sonsOther = integerIn(s, 'sonsAsNonRoot', p.sonsAsNonRoot ?? 0, 0, d, 'sons');
  const table = version === 'extended' ? LINPACK_EXTENDED_VERTEX : LINPACK_PROPOSED;
  const nodes = 2 ** d;
  let Tc = 0;
  let Ts = 0;
  let Tw = 0;
  const add = (st: LinpackStep, v: LinpackVars) => {
    const t = checkNumber(s, st.param, st.timeUs(v), { min: 0, what: 'µs' });
    if (st.kind === 'c') Tc += t;
    else if (st.kind === 's') Ts += t;
    else Tw += t;
  };
  const base: LinpackVars = { d, x: sonsRoot, y: 0, z: m, tcPivotUs: 0, tsBroadcastUs: 0 };
  for (const st of table) if (st.phase === 'setup') add(st, base);
  const pivotStep = table.find((st) => st.param === 't_c3')!;
  const bcastStep = table.find((st) => st.param === 't_s5')!;
  for (let i = 1; i <= m; i++) {
    const z = m - i + 1;
    const y = Math.ceil(z / nodes);
    const pivotVars: LinpackVars = { d, x: sonsRoot, y, z, tcPivotUs: 0, tsBroadcastUs: 0 };
    const holdsPivot = (i - 1) % nodes === 0;
    if (holdsPivot) {
      for (const st of table) if (st.phase === 'pivot') add(st, pivotVars);
    } else {
      const v: LinpackVars = { d, x: sonsOther, y, z, tcPivotUs: pivotStep.timeUs(pivotVars), tsBroadcastUs: bcastStep.timeUs(pivotVars) };
      for (const st of table) if (st.phase === 'nonpivot') add(st, v);
    }
  }
  return { T: Tc + Ts + Tw, Tc, Ts, Tw };
}
