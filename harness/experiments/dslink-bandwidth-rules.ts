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

/**
 * Table 4.1 lock-step bidirectional row: every deviation in [−bound, resolution]
 * (below Eq 4.2 by at most bound, never above by more than the measurement
 * resolves; 0 unless given: fctResolution).
 */
export function lockstepBelowBy(devs: readonly number[], bound: number, resolution = 0): boolean {
  return devs.length > 0 && devs.every((d) => d <= resolution && d >= -bound);
}

/**
 * What a measured window of `windowCycles` bit times resolves, in percent:
 * one FCT (4 bit times). Eq 4.2 counts FCTs in eighths per message; a window
 * of whole messages carries a whole number of them, so a link exactly at
 * Eq 4.2 reads up to one FCT fast or slow (docs/t9000.md#bandwidth-experiment).
 */
export function fctResolution(windowCycles: number): number {
  return (100 * 4) / windowCycles;
}

/** Fig. 4.2: at each boundary 32k → 32k+1 present in `sizes`, the bandwidth drops. */
export function boundaryDrops(sizes: readonly number[], mbps: (m: number) => number): { at: number; drops: boolean }[] {
  const set = new Set(sizes);
  return sizes.filter((m) => m % 32 === 0 && set.has(m + 1)).map((m) => ({ at: m, drops: mbps(m + 1) < mbps(m) }));
}
