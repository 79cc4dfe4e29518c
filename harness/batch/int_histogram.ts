/**
 * Counts of whole-number values (latencies in cycles), so a long run's
 * latency statistics need no list of its values (docs/c104.md#lazy-workload):
 * `stats` gives what batch/stats.ts `latencyStats` gives for the same values
 * (nearest-rank percentiles, mean, max, the same bins), exactly: a sum of
 * whole numbers below 2^53 does not depend on its order.
 */
import type { LatencyStats } from './stats.ts';

export class IntHistogram {
  private counts = new Float64Array(256);
  count = 0;
  sum = 0;
  max = -1;

  add(v: number): void {
    if (!(Number.isSafeInteger(v) && v >= 0)) throw new RangeError(`IntHistogram: ${v} is not a whole number 0 or more`);
    if (v >= this.counts.length) {
      const c = new Float64Array(Math.max(v + 1, 2 * this.counts.length));
      c.set(this.counts);
      this.counts = c;
    }
    this.counts[v]!++;
    this.count++;
    this.sum += v;
    if (v > this.max) this.max = v;
  }

  /** Nearest-rank percentile (batch/stats.ts `percentile` of the sorted values). */
  percentile(p: number): number | null {
    if (!this.count) return null;
    const k = Math.min(this.count - 1, Math.max(0, Math.ceil((p / 100) * this.count) - 1));
    for (let v = 0, below = 0; v <= this.max; v++) {
      below += this.counts[v]!;
      if (below > k) return v;
    }
    return this.max;
  }

  /** batch/stats.ts `latencyStats` of the values added. */
  stats(bins = 12): LatencyStats {
    const max = this.count ? this.max : null;
    const binWidth = max === null ? 1 : Math.max(1, Math.ceil((max + 1) / bins));
    const counts = new Array<number>(max === null ? 0 : Math.ceil((max + 1) / binWidth)).fill(0);
    for (let v = 0; v <= this.max; v++) counts[Math.floor(v / binWidth)]! += this.counts[v]!;
    return {
      count: this.count,
      mean: this.count ? this.sum / this.count : null,
      p50: this.percentile(50),
      p95: this.percentile(95),
      p99: this.percentile(99),
      max,
      histogram: { binWidth, counts },
    };
  }
}
