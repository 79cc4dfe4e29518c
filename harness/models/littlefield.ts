/**
 * Littlefield's node-bandwidth-limited (NBL) model and the Tree / Snake /
 * Fence vector-combining models (seed 001: R. J. Littlefield, "Modeling Node
 * Bandwidth Limits and Their Effect on Vector Combining Algorithms", PNL,
 * January 1992; digest in docs/sources.md, cost-models §3).
 *
 * Units: µs for times, doubles for block sizes S and vector lengths N
 * (elements = doubles), µs per double for β, µs per element for c2, c3.
 * Symbols as in seed 001 §2 and Appendix 7.1 (namespaced; α, β mean something
 * else in Oliver's model, docs/sources.md, cost-models §0).
 *
 * Readings (seed 001 is inconsistent with itself in two places; both
 * alternatives are selectable, the default is stated at each option):
 *  - Step cost. §2 defines T(L) = Lα + f(L)βS; the Appendix 7.1 totals print
 *    each step as "L * (α + f(L)βS)". The Appendix's own optimum block sizes
 *    (Fence Eq 1, and the Snake f(2)/f(3)/f(4) pattern) follow from the §2
 *    form, so the default is `stepCost: 'nbl'` (Lα + f(L)βS);
 *    `'literal'` gives L·(α + f(L)βS) (docs/sources.md, cost-models §3.4 [derived]).
 *  - Snake sixth term. The Snake timeline row "P−2 steps, L = 2" is printed
 *    with f(3) in the total. Default `snakeSixthTermF: 'table'` uses f(2) (the
 *    timeline row, docs/sources.md, cost-models §3.4 [interp]); `'printed'` uses f(3).
 */
import { checkNumber, integerIn, nonNegative, oneOf, positive } from './validate.ts';

/** f(L): overlap of data transfer with L nominally active links (seed 001 §2; f(1) = 1). */
export type OverlapFunction = (links: number) => number;

/** Standard model: f(L) = 1 (seed 001 §4.1). */
export const F_STANDARD: OverlapFunction = () => 1;

/** Nominal NBL model: f(L) = L (seed 001 §4.1). */
export const F_NOMINAL_NBL: OverlapFunction = (links) => links;

/** Fitted NBL values, seed 001 §4.2: f(2) = 1.1, f(3) = 1.3, f(4) = 3.9, f(6) = 5.1 (f(1) = 1 by definition). */
export const F_FITTED_VALUES: Readonly<Record<1 | 2 | 3 | 4 | 6, number>> = Object.freeze({
  1: 1, // seed 001 §2: f(1) = 1 by definition
  2: 1.1, // seed 001 §4.2 fitted NBL model
  3: 1.3, // seed 001 §4.2
  4: 3.9, // seed 001 §4.2
  6: 5.1, // seed 001 §4.2
});

/** Fitted NBL model, seed 001 §4.2 (defined for L ∈ {1, 2, 3, 4, 6} only). */
export const F_FITTED_NBL: OverlapFunction = (links) => {
  const v = (F_FITTED_VALUES as Record<number, number>)[links];
  if (v === undefined) throw new RangeError(`littlefield.fOfL: fitted f(L) is defined for L ∈ {1, 2, 3, 4, 6} only (got ${links})`);
  return v;
};

/** Machine and algorithm constants (seed 001 §7.2, DELTA). */
export interface LittlefieldParams {
  /** Per-message startup α, µs (seed 001 §7.2: 54 µs). */
  readonly alphaUs: number;
  /** Transfer time β, µs per double (seed 001 §7.2: 1.54 µs/double, 5.2 Mbytes/s). */
  readonly betaUsPerDouble: number;
  /** Cost per element of combining two vectors c2, µs (seed 001 §7.2: .25 µs). */
  readonly c2UsPerElement: number;
  /** Cost per element of combining three vectors c3, µs (seed 001 §7.2: .27 µs). */
  readonly c3UsPerElement: number;
  /** Overlap function f(L) (seed 001 §2). Default: nominal NBL f(L) = L (seed 001 §4.2 recommends it for unimplemented algorithms). */
  readonly fOfL: OverlapFunction;
}

/**
 * Intel Touchstone DELTA parameters, seed 001 §7.2 (software revision X020,
 * csend/crecv, link speed deliberately halved during the test period).
 */
export const LITTLEFIELD_DELTA_DEFAULTS: Readonly<LittlefieldParams> = Object.freeze({
  alphaUs: 54, // seed 001 §7.2
  betaUsPerDouble: 1.54, // seed 001 §7.2 (5.2 Mbytes/sec)
  c2UsPerElement: 0.25, // seed 001 §7.2 (4.0 MFLOPS)
  c3UsPerElement: 0.27, // seed 001 §7.2 (printed "5.3 MFLOPS"; see docs/sources.md, cost-models §3.5)
  fOfL: F_NOMINAL_NBL, // seed 001 §4.2: "prudent to use the nominal NBL model"
});

function params(scope: string, p: Partial<LittlefieldParams>): LittlefieldParams {
  const v = { ...LITTLEFIELD_DELTA_DEFAULTS };
  for (const [k, val] of Object.entries(p)) if (val !== undefined) (v as Record<string, unknown>)[k] = val;
  if (typeof v.fOfL !== 'function') throw new RangeError(`${scope}.fOfL: not a function L → f(L)`);
  return {
    alphaUs: nonNegative(scope, 'alphaUs', v.alphaUs, 'µs'),
    betaUsPerDouble: nonNegative(scope, 'betaUsPerDouble', v.betaUsPerDouble, 'µs per double'),
    c2UsPerElement: nonNegative(scope, 'c2UsPerElement', v.c2UsPerElement, 'µs per element'),
    c3UsPerElement: nonNegative(scope, 'c3UsPerElement', v.c3UsPerElement, 'µs per element'),
    fOfL: v.fOfL,
  };
}

function f(scope: string, fOfL: OverlapFunction, links: number): number {
  const v = fOfL(links);
  return checkNumber(scope, `fOfL(${links})`, v, { min: 0, what: 'overlap factor' });
}

/**
 * Standard message cost, seed 001 §2: T = α + βS   [µs].
 */
export function standardMessageTimeUs(p: Partial<LittlefieldParams> & { readonly S: number }): number {
  const scope = 'littlefield.standard';
  const { alphaUs, betaUsPerDouble } = params(scope, p);
  const S = nonNegative(scope, 'S', p.S, 'doubles');
  return alphaUs + betaUsPerDouble * S; // seed 001 §2
}

/**
 * NBL model, seed 001 §2: time to send L messages of S doubles with L links
 * nominally active at once:
 *   T(L) = Lα + f(L)βS   [µs]
 * Checks f(1) = 1 (seed 001 §2: "By definition, f(1) = 1").
 */
export function nblTimeUs(p: Partial<LittlefieldParams> & { readonly L: number; readonly S: number }): number {
  const scope = 'littlefield.nbl';
  const { alphaUs, betaUsPerDouble, fOfL } = params(scope, p);
  const L = integerIn(scope, 'L', p.L, 1, Infinity, 'active links');
  const S = nonNegative(scope, 'S', p.S, 'doubles');
  checkF1(scope, fOfL);
  return L * alphaUs + f(scope, fOfL, L) * betaUsPerDouble * S; // seed 001 §2
}

function checkF1(scope: string, fOfL: OverlapFunction): void {
  const f1 = fOfL(1);
  if (f1 !== 1) throw new RangeError(`${scope}.fOfL: f(1) = ${f1}; seed 001 §2 requires f(1) = 1`);
}

/** Step-cost reading (see the file header). */
export type StepCostReading = 'nbl' | 'literal';
/** Snake sixth-term reading (see the file header). */
export type SnakeSixthTerm = 'table' | 'printed';

export interface CombiningOptions {
  /** Default 'nbl': each step costs Lα + f(L)βS (seed 001 §2). */
  readonly stepCost?: StepCostReading;
}

export interface MeshShape {
  /** Mesh width W, nodes per row (seed 001 §7.1). */
  readonly W: number;
  /** Mesh height H, nodes per column (seed 001 §7.1). */
  readonly H: number;
}

function stepComm(reading: StepCostReading, L: number, fL: number, alpha: number, beta: number, S: number): number {
  return reading === 'nbl' ? L * alpha + fL * beta * S : L * (alpha + fL * beta * S);
}

/**
 * Tree algorithm, seed 001 §7.1:
 *   T = (log2 W + log2 H)·(2(α + f(1)βN) + c2·N)   [µs]
 * One link per step; not pipelined. W, H need not be powers of two (log2 as printed).
 */
export function treeTimeUs(p: Partial<LittlefieldParams> & MeshShape & { readonly N: number }): number {
  const scope = 'littlefield.tree';
  const { alphaUs, betaUsPerDouble, c2UsPerElement, fOfL } = params(scope, p);
  const W = integerIn(scope, 'W', p.W, 1, Infinity, 'nodes per row');
  const H = integerIn(scope, 'H', p.H, 1, Infinity, 'nodes per column');
  const N = nonNegative(scope, 'N', p.N, 'elements per vector');
  checkF1(scope, fOfL);
  return (Math.log2(W) + Math.log2(H)) * (2 * (alphaUs + fOfL(1) * betaUsPerDouble * N) + c2UsPerElement * N); // seed 001 §7.1 Tree
}

/** Number of blocks B = ⌈N/S⌉ (seed 001 §7.1). */
export function blockCount(p: { readonly N: number; readonly S: number }): number {
  const scope = 'littlefield.blocks';
  const N = positive(scope, 'N', p.N, 'elements per vector');
  const S = positive(scope, 'S', p.S, 'doubles per block');
  return Math.ceil(N / S); // seed 001 §7.1: B = ⌈N/S⌉
}

function pipelineBlocks(scope: string, N: unknown, S: unknown): { N: number; S: number; B: number } {
  const n = positive(scope, 'N', N, 'elements per vector');
  const s = integerIn(scope, 'S', S, 1, Infinity, 'doubles per block');
  const B = Math.ceil(n / s);
  if (B < 3) throw new RangeError(`${scope}.S: ${s} gives B = ⌈N/S⌉ = ${B} blocks; the seed's timeline assumes B ≥ 3 (S ≤ ${Math.floor(n / 3) || 1})`);
  return { N: n, S: s, B };
}

/** One row of a pipeline timeline (seed 001 §7.1 tables). */
export interface TimelineRow {
  /** Number of steps. */
  readonly steps: number;
  /** Active links L of the busiest node. */
  readonly links: number;
  /** f(L) actually used for the row's transfer term (see the Snake sixth-term option). */
  readonly fLinks: number;
  /** Combining cost per element for the row (c2, c3 or 0). */
  readonly combineUsPerElement: number;
  readonly comment: string;
}

export interface SnakeInput extends Partial<LittlefieldParams>, CombiningOptions {
  /** Nodes P ≥ 3 along the snake (seed 001 §7.1; P = HW). */
  readonly P: number;
  /** Elements per vector N (seed 001 §7.1). */
  readonly N: number;
  /** Block size S, integer doubles; B = ⌈N/S⌉ ≥ 3 (seed 001 §7.1). */
  readonly S: number;
  /** Default 'table' (f(2) in the sixth term; see the file header). */
  readonly snakeSixthTermF?: SnakeSixthTerm;
}

/** Snake timeline, seed 001 §7.1 (B ≥ 3). */
export function snakeTimeline(p: SnakeInput): TimelineRow[] {
  const scope = 'littlefield.snake';
  const { c2UsPerElement: c2 } = params(scope, p);
  const P = integerIn(scope, 'P', p.P, 3, Infinity, 'nodes');
  const { B } = pipelineBlocks(scope, p.N, p.S);
  const sixth = oneOf(scope, 'snakeSixthTermF', p.snakeSixthTermF ?? 'table', ['table', 'printed'] as const);
  return [
    { steps: 1, links: 1, fLinks: 1, combineUsPerElement: c2, comment: 'Node P-1 sends, P-2 receives' },
    { steps: P - 2, links: 2, fLinks: 2, combineUsPerElement: c2, comment: 'Some node sends and receives partially combined data (PCD)' },
    { steps: 1, links: 3, fLinks: 3, combineUsPerElement: c2, comment: 'Node 1 also receives final result' },
    { steps: B - 3, links: 4, fLinks: 4, combineUsPerElement: c2, comment: 'Node 1 sends and receives data and final results' },
    { steps: 1, links: 3, fLinks: 3, combineUsPerElement: c2, comment: 'Node 1 sends PCD, sends and receives final results' },
    // seed 001 §7.1: the timeline says L = 2; the printed total uses f(3) here.
    { steps: P - 2, links: 2, fLinks: sixth === 'table' ? 2 : 3, combineUsPerElement: 0, comment: 'Some node sends and receives final results' },
    { steps: 1, links: 1, fLinks: 1, combineUsPerElement: 0, comment: 'Node P-2 sends P-1 final results' },
  ];
}

export interface FenceInput extends Partial<LittlefieldParams>, CombiningOptions, MeshShape {
  /** Elements per vector N (seed 001 §7.1). */
  readonly N: number;
  /** Block size S, integer doubles; B = ⌈N/S⌉ ≥ 3. */
  readonly S: number;
}

/** Fence timeline, seed 001 §7.1 (B ≥ 3; W ≥ 2, H ≥ 1). */
export function fenceTimeline(p: FenceInput): TimelineRow[] {
  const scope = 'littlefield.fence';
  const { c2UsPerElement: c2, c3UsPerElement: c3 } = params(scope, p);
  const W = integerIn(scope, 'W', p.W, 2, Infinity, 'nodes per row');
  const H = integerIn(scope, 'H', p.H, 1, Infinity, 'nodes per column');
  const { B } = pipelineBlocks(scope, p.N, p.S);
  return [
    { steps: 1, links: 1, fLinks: 1, combineUsPerElement: c2, comment: 'First block starts down from top' },
    { steps: H - 1, links: 2, fLinks: 2, combineUsPerElement: c2, comment: 'First block continues down, turns corner' },
    { steps: W - 2, links: 3, fLinks: 3, combineUsPerElement: c3, comment: '3-way combining along bottom row' },
    { steps: 1, links: 4, fLinks: 4, combineUsPerElement: c3, comment: 'Result turns around at node 0,0' },
    { steps: B - 3, links: 6, fLinks: 6, combineUsPerElement: c3, comment: '3-way combining and 2-way fanout along bottom row' },
    { steps: 1, links: 4, fLinks: 4, combineUsPerElement: c3, comment: 'Final block goes to node 0,0' },
    { steps: W - 2, links: 3, fLinks: 3, combineUsPerElement: 0, comment: 'Results return along bottom row' },
    { steps: H - 1, links: 2, fLinks: 2, combineUsPerElement: 0, comment: 'Last result block turns corner and goes up' },
    { steps: 1, links: 1, fLinks: 1, combineUsPerElement: 0, comment: 'Last block enters upper right node' },
  ];
}

function timelineTime(scope: string, rows: readonly TimelineRow[], p: Partial<LittlefieldParams> & CombiningOptions & { S: number }): number {
  const { alphaUs, betaUsPerDouble, fOfL } = params(scope, p);
  const reading = oneOf(scope, 'stepCost', p.stepCost ?? 'nbl', ['nbl', 'literal'] as const);
  checkF1(scope, fOfL);
  let t = 0;
  for (const r of rows) {
    const fl = f(scope, fOfL, r.fLinks);
    t += r.steps * (stepComm(reading, r.links, fl, alphaUs, betaUsPerDouble, p.S) + r.combineUsPerElement * p.S);
  }
  return t;
}

/** Snake total time, seed 001 §7.1 (readings per the file header)   [µs]. */
export function snakeTimeUs(p: SnakeInput): number {
  return timelineTime('littlefield.snake', snakeTimeline(p), p); // seed 001 §7.1 Snake
}

/** Fence total time, seed 001 §7.1   [µs]. */
export function fenceTimeUs(p: FenceInput): number {
  return timelineTime('littlefield.fence', fenceTimeline(p), p); // seed 001 §7.1 Fence
}

/**
 * Snake step count: sum of the seed 001 §7.1 timeline = 2P + B − 3.
 * (docs/sources.md, cost-models §3.4 prints "2P + B − 1"; the seed's rows sum to 2P + B − 3.)
 */
export function snakeStepCount(p: { readonly P: number; readonly N: number; readonly S: number }): number {
  return snakeTimeline(p).reduce((a, r) => a + r.steps, 0);
}

/** Fence step count: sum of the seed 001 §7.1 timeline = 2H + 2W + B − 5. */
export function fenceStepCount(p: MeshShape & { readonly N: number; readonly S: number }): number {
  return fenceTimeline(p).reduce((a, r) => a + r.steps, 0);
}

function optimumInputs(scope: string, p: Partial<LittlefieldParams> & { N: number }) {
  const v = params(scope, p);
  checkF1(scope, v.fOfL);
  const N = positive(scope, 'N', p.N, 'elements per vector');
  const F = (L: number) => f(scope, v.fOfL, L);
  return { ...v, N, F };
}

function sqrtOrThrow(scope: string, num: number, den: number): number {
  if (!(den > 0)) throw new RangeError(`${scope}: the dT/dS = 0 denominator is ${den} (≤ 0); no interior optimum for these parameters`);
  return Math.sqrt(num / den);
}

/**
 * Snake optimum block size as printed, seed 001 §7.1:
 *   S_opt = (Nα / ((P−2)(c2 + 2βf(2)) + 2βf(3) − 3βf(4)))^{1/2}   [doubles]
 * Does not follow from the printed total (see snakeOptimalBlockSizeCorrected).
 */
export function snakeOptimalBlockSizePrinted(p: Partial<LittlefieldParams> & { readonly P: number; readonly N: number }): number {
  const scope = 'littlefield.snakeOptPrinted';
  const { alphaUs: a, betaUsPerDouble: b, c2UsPerElement: c2, N, F } = optimumInputs(scope, p);
  const P = integerIn(scope, 'P', p.P, 3, Infinity, 'nodes');
  return sqrtOrThrow(scope, N * a, (P - 2) * (c2 + 2 * b * F(2)) + 2 * b * F(3) - 3 * b * F(4)); // seed 001 §7.1 Snake S_opt
}

/**
 * [derived] Snake optimum from dT/dS = 0 of the total with step cost
 * Lα + f(L)βS and f(2) in the sixth term (docs/sources.md, cost-models §3.4), B = N/S
 * continuous:
 *   S_opt = (4Nα / ((P−2)(c2 + 2βf(2)) + 2βf(1) + 2βf(3) − 3βf(4)))^{1/2}
 */
export function snakeOptimalBlockSizeCorrected(p: Partial<LittlefieldParams> & { readonly P: number; readonly N: number }): number {
  const scope = 'littlefield.snakeOptCorrected';
  const { alphaUs: a, betaUsPerDouble: b, c2UsPerElement: c2, N, F } = optimumInputs(scope, p);
  const P = integerIn(scope, 'P', p.P, 3, Infinity, 'nodes');
  return sqrtOrThrow(scope, 4 * N * a, (P - 2) * (c2 + 2 * b * F(2)) + 2 * b * F(1) + 2 * b * F(3) - 3 * b * F(4));
}

/**
 * Fence optimum block size, seed 001 §7.1 Eq 1:
 *   S_opt = (6Nα / [H(c2 + 2βf(2)) + W(c3 + 2βf(3)) − 3c3 + β(2f(1) − 2f(2) − 4f(3) + 2f(4) − 3f(6))])^{1/2}
 * [derived] This is exactly dT/dS = 0 of the Fence total with step cost
 * Lα + f(L)βS and B = N/S continuous (docs/sources.md, cost-models §3.4).
 */
export function fenceOptimalBlockSize(p: Partial<LittlefieldParams> & MeshShape & { readonly N: number }): number {
  const scope = 'littlefield.fenceOpt';
  const { alphaUs: a, betaUsPerDouble: b, c2UsPerElement: c2, c3UsPerElement: c3, N, F } = optimumInputs(scope, p);
  const W = integerIn(scope, 'W', p.W, 2, Infinity, 'nodes per row');
  const H = integerIn(scope, 'H', p.H, 1, Infinity, 'nodes per column');
  const den = H * (c2 + 2 * b * F(2)) + W * (c3 + 2 * b * F(3)) - 3 * c3 + b * (2 * F(1) - 2 * F(2) - 4 * F(3) + 2 * F(4) - 3 * F(6));
  return sqrtOrThrow(scope, 6 * N * a, den); // seed 001 §7.1 Eq 1
}

/** Result of a numerical block-size search. */
export interface BlockSizeOptimum {
  /** Optimal integer block size, doubles. */
  readonly S: number;
  /** Total time at that block size, µs. */
  readonly timeUs: number;
}

/**
 * Minimise a pipelined algorithm's total over integer S in [minS, maxS]
 * subject to B = ⌈N/S⌉ ≥ 3 (docs/sources.md, cost-models §3.5 [derived]: "S optimised over
 * integers 1..20000 subject to B ≥ 3"). Ties go to the smaller S.
 */
export function optimiseBlockSize(
  algorithm: 'snake' | 'fence',
  p: (Omit<SnakeInput, 'S'> | Omit<FenceInput, 'S'>) & { readonly minS?: number; readonly maxS?: number },
): BlockSizeOptimum {
  const scope = `littlefield.optimise.${algorithm}`;
  const N = positive(scope, 'N', p.N, 'elements per vector');
  const lo = integerIn(scope, 'minS', p.minS ?? 1, 1, Infinity, 'doubles');
  const hi = Math.min(integerIn(scope, 'maxS', p.maxS ?? 20000, lo, Infinity, 'doubles'), Math.floor(N / 2) + 1);
  let best: BlockSizeOptimum | undefined;
  for (let S = lo; S <= hi; S++) {
    if (Math.ceil(N / S) < 3) break; // B decreases with S
    const t = algorithm === 'snake' ? snakeTimeUs({ ...(p as Omit<SnakeInput, 'S'>), S }) : fenceTimeUs({ ...(p as Omit<FenceInput, 'S'>), S });
    if (best === undefined || t < best.timeUs) best = { S, timeUs: t };
  }
  if (best === undefined) throw new RangeError(`${scope}: no block size in ${lo}..${hi} gives B = ⌈N/S⌉ ≥ 3 for N = ${N}`);
  return best;
}

/**
 * Table 1 of seed 001 §4.2 (testjig on a 3×3 mesh, central node): S doubles
 * per block; T in µs for L = 1 (receive from one neighbour) and L = 2, 4, 6
 * (exchange with 1, 2, 3 neighbours). As printed.
 */
export const LITTLEFIELD_TABLE1 = Object.freeze({
  S: Object.freeze([60, 120, 300, 600]), // seed 001 Table 1
  T: Object.freeze({
    1: Object.freeze([74, 139, 293, 525]), // seed 001 Table 1, L = 1
    2: Object.freeze([129, 235, 502, 942]), // seed 001 Table 1, L = 2
    4: Object.freeze([259, 398, 833, 1733]), // seed 001 Table 1, L = 4
    6: Object.freeze([345, 575, 1222, 2578]), // seed 001 Table 1, L = 6
  }),
});

/**
 * The dT and f(L) columns exactly as printed in seed 001 Table 1 (between the
 * S rows they difference: 60→120, 120→300, 300→600). The last f(6) is printed
 * ".8" in the seed text (OCR damage; the times give 5.84); it is kept as 0.8
 * here, the printed text, and flagged.
 */
export const LITTLEFIELD_TABLE1_PRINTED = Object.freeze({
  dT: Object.freeze({
    1: Object.freeze([65, 154, 232]),
    2: Object.freeze([106, 267, 440]),
    4: Object.freeze([139, 435, 900]),
    6: Object.freeze([230, 647, 1356]),
  }),
  f: Object.freeze({
    2: Object.freeze([1.6, 1.7, 1.9]),
    4: Object.freeze([2.1, 2.8, 3.9]),
    6: Object.freeze([3.8, 4.2, 0.8]), // ".8" as printed (OCR; [derived] 5.8)
  }),
  /** Printed values that do not follow from the T columns (docs/sources.md, cost-models §3.2). */
  inconsistent: Object.freeze([
    Object.freeze({ L: 6, interval: '60→120', printed: 3.8, fromTimes: 230 / 65, note: '230/65 = 3.54; printed 3.8' }),
    Object.freeze({ L: 6, interval: '300→600', printed: 0.8, fromTimes: 1356 / 232, note: 'printed ".8" (OCR damage); 1356/232 = 5.84' }),
  ]),
});

/** Table 1 recomputed from its T columns. */
export interface Table1Recomputed {
  /** dT(L) for the intervals 60→120, 120→300, 300→600, µs. */
  readonly dT: Readonly<Record<1 | 2 | 4 | 6, readonly number[]>>;
  /** f(L) = dT(L)/dT(1), unrounded. */
  readonly f: Readonly<Record<2 | 4 | 6, readonly number[]>>;
}

/**
 * Recompute seed 001 Table 1's dT and f(L) = dT(L)/dT(1) from its times
 * (the table caption's definition). Defaults to the printed table; another
 * testjig run (e.g. the emulator's) can be passed in the same shape.
 */
export function recomputeTable1(t: { readonly T: Readonly<Record<1 | 2 | 4 | 6, readonly number[]>> } = LITTLEFIELD_TABLE1): Table1Recomputed {
  const scope = 'littlefield.table1';
  const Ls = [1, 2, 4, 6] as const;
  const len = t.T[1].length;
  if (len < 2) throw new RangeError(`${scope}.T[1]: ${len} rows; need at least 2 to difference`);
  const dT = {} as Record<1 | 2 | 4 | 6, number[]>;
  for (const L of Ls) {
    const col = t.T[L];
    if (col.length !== len) throw new RangeError(`${scope}.T[${L}]: ${col.length} rows; expected ${len} (same as L = 1)`);
    col.forEach((v, i) => nonNegative(scope, `T[${L}][${i}]`, v, 'µs'));
    dT[L] = col.slice(1).map((v, i) => v - col[i]!);
  }
  dT[1].forEach((v, i) => positive(scope, `dT[1][${i}]`, v, 'µs; f(L) divides by it'));
  const fL = {} as Record<2 | 4 | 6, number[]>;
  for (const L of [2, 4, 6] as const) fL[L] = dT[L].map((v, i) => v / dT[1][i]!); // seed 001 Table 1 caption: f(L) = dT(L)/dT(1)
  return { dT, f: fL };
}

/** One f(L) cell of Table 1: printed beside recomputed. */
export interface Table1FCell {
  readonly L: 2 | 4 | 6;
  /** Interval of S the cell differences, e.g. "60→120". */
  readonly interval: string;
  /** As printed (1 decimal; the last f(6) is the OCR text ".8"). */
  readonly printed: number;
  /** dT(L)/dT(1) from the printed times, unrounded. */
  readonly recomputed: number;
  /** The printed value equals the recomputed one rounded to 1 decimal. */
  readonly consistent: boolean;
}

/**
 * Seed 001 Table 1's f(L) cells, printed value beside the value recomputed from
 * the T columns. Two cells are inconsistent (f(6) 60→120: 3.8 vs 3.54;
 * f(6) 300→600: ".8" vs 5.84), docs/sources.md, cost-models §3.2.
 */
export function compareTable1(): Table1FCell[] {
  const re = recomputeTable1();
  const S = LITTLEFIELD_TABLE1.S;
  const out: Table1FCell[] = [];
  for (const L of [2, 4, 6] as const) {
    LITTLEFIELD_TABLE1_PRINTED.f[L].forEach((printed, i) => {
      const recomputed = re.f[L][i]!;
      out.push({ L, interval: `${S[i]}→${S[i + 1]}`, printed, recomputed, consistent: Math.round(recomputed * 10) / 10 === printed });
    });
  }
  return out;
}
