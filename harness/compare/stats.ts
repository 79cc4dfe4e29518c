/**
 * Summary statistics for deviations: mean, nearest-rank percentiles, extremes.
 *
 * Percentiles use the nearest-rank definition (the value at rank ⌈p·n⌉ of the
 * sorted sample, p in (0, 1]): always a sample value, exact on integer
 * cycles, so an exact zero-load comparison reports exact zeros.
 */

export interface Summary {
  readonly count: number;
  readonly mean: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly min: number;
  readonly max: number;
  /** Mean of |x|. */
  readonly absMean: number;
  /** Largest |x|. */
  readonly absMax: number;
}

export const SUMMARY_STATS = ['mean', 'p50', 'p90', 'p99', 'min', 'max', 'absMean', 'absMax'] as const;
export type SummaryStat = (typeof SUMMARY_STATS)[number];

/** Nearest-rank percentile of an ascending-sorted array (NaN when empty). */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  if (!(p > 0 && p <= 1)) throw new RangeError(`percentile: p = ${p} is outside (0, 1]`);
  const n = sorted.length;
  if (n === 0) return NaN;
  return sorted[Math.min(n, Math.max(1, Math.ceil(p * n - 1e-9))) - 1]!;
}

/** Summary of a sample (non-finite values are rejected: a NaN here is a bug upstream). */
export function summarize(xs: readonly number[]): Summary {
  const n = xs.length;
  if (n === 0) return { count: 0, mean: NaN, p50: NaN, p90: NaN, p99: NaN, min: NaN, max: NaN, absMean: NaN, absMax: NaN };
  let sum = 0;
  let abs = 0;
  let absMax = 0;
  for (const x of xs) {
    if (!Number.isFinite(x)) throw new RangeError(`summarize: non-finite sample ${x}`);
    sum += x;
    abs += Math.abs(x);
    if (Math.abs(x) > absMax) absMax = Math.abs(x);
  }
  const s = Float64Array.from(xs).sort();
  return {
    count: n,
    mean: sum / n,
    p50: percentileSorted(s, 0.5),
    p90: percentileSorted(s, 0.9),
    p99: percentileSorted(s, 0.99),
    min: s[0]!,
    max: s[n - 1]!,
    absMean: abs / n,
    absMax,
  };
}

export function mean(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}
