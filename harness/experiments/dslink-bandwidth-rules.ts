/**
 * Verdict rules of `icemu experiment dslink-bandwidth` (seed 004 Table 4.1,
 * Fig. 4.2), as pure functions so tests can hold them against controls just
 * inside and just outside each bound (test/experiments/dslink-bandwidth.test.ts).
 * Deviations are signed percentages: + = measured above the model.
 */

export interface DeviationStats {
  readonly maxAbs: number;
  readonly avgAbs: number;
  readonly min: number;
  readonly max: number;
  /** Index of the largest |deviation|. */
  readonly argMax: number;
}

export function deviationStats(devs: readonly number[]): DeviationStats {
  if (devs.length === 0) return { maxAbs: NaN, avgAbs: NaN, min: NaN, max: NaN, argMax: -1 };
  let argMax = 0;
  devs.forEach((d, i) => {
    if (Math.abs(d) > Math.abs(devs[argMax]!)) argMax = i;
  });
  return {
    maxAbs: Math.abs(devs[argMax]!),
    avgAbs: devs.reduce((a, d) => a + Math.abs(d), 0) / devs.length,
    min: Math.min(...devs),
    max: Math.max(...devs),
    argMax,
  };
}

/** Table 4.1 staggered rows: every |deviation| ≤ bound (percent). */
export function withinMaxDeviation(devs: readonly number[], bound: number): boolean {
  return devs.length > 0 && devs.every((d) => Math.abs(d) <= bound);
}

/** Table 4.1 lock-step bidirectional row: every deviation in [−bound, 0] (below Eq 4.2 by at most bound, never above). */
export function lockstepBelowBy(devs: readonly number[], bound: number): boolean {
  return devs.length > 0 && devs.every((d) => d <= 0 && d >= -bound);
}

/** Fig. 4.2: at each boundary 32k → 32k+1 present in `sizes`, the bandwidth drops. */
export function boundaryDrops(sizes: readonly number[], mbps: (m: number) => number): { at: number; drops: boolean }[] {
  const set = new Set(sizes);
  return sizes.filter((m) => m % 32 === 0 && set.has(m + 1)).map((m) => ({ at: m, drops: mbps(m + 1) < mbps(m) }));
}
