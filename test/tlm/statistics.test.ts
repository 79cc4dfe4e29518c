/**
 * The thesis's statistical method in the T9000/C104 TLM (seed 004 §3.6,
 * §5.4; docs/thesis-model.md#statistics): MSER-5 cuts the start-up
 * transient (at most half the run), 20 batch means with Student's t give
 * the primary response's 95% interval, the run stops when it is within
 * ±precision (1%) and is reported as not converged at the cap. Each rule
 * is checked by hand on constructed series, with a control just outside.
 */
import { describe, expect, it } from 'vitest';
import { batchMeans, C, Metrics, mser5, runC104, t975 } from '../../harness/tlm/t9000-c104/index.ts';
import { SyntheticProgram } from '../../harness/workloads/thesis-synthetic.ts';

/** A Metrics of one CPU whose checkpoint intervals (1 ms each) deliver the given data packets: rate per ms = the value. */
function metricsOf(perInterval: readonly number[], precision = 0.01): Metrics {
  const m = new Metrics(1, 1, () => ({ busyNs: 0, activeLinks: 0, links: 1 }), 20, precision);
  perInterval.forEach((x, i) => {
    m.c[C.dataDelivered]! += x;
    m.checkpoint((i + 1) * 1e6);
  });
  return m;
}

/** 10 intervals of start-up (nothing delivered), then 40 in pairs 100 + d, 100 + d, 100 − d, 100 − d, … */
function transientThenPairs(d: number): number[] {
  const steady = Array.from({ length: 40 }, (_, i) => (Math.floor(i / 2) % 2 === 0 ? 100 + d : 100 - d));
  return [...Array(10).fill(0), ...steady];
}

describe("Student's t and batch means", () => {
  it('t quantiles: 12.706 at 1 degree of freedom, 2.093 at 19 (20 batches), 1.96 past 30; none below 1', () => {
    expect([t975(1), t975(19), t975(30), t975(31), t975(0)]).toEqual([12.706, 2.093, 2.042, 1.96, Infinity]);
  });
  it('0..39 in 20 batches of 2: means 0.5, 2.5, …, 38.5; half-width 2.093 · √(140 / 20); the oldest remainder is dropped', () => {
    const xs = Array.from({ length: 40 }, (_, i) => i);
    const bm = batchMeans(xs, 20);
    expect(bm.mean).toBeCloseTo(19.5, 12);
    expect(bm.half).toBeCloseTo(2.093 * Math.sqrt(140 / 20), 12);
    expect(batchMeans([1000, ...xs], 20)).toEqual(bm); // 41 values: the first (oldest) is not in any batch
    expect(batchMeans([5], 20).half).toBe(Infinity); // one batch: no interval
  });
});

describe('MSER-5 truncation', () => {
  it('cuts a start-up transient at its end (a multiple of 5)', () => {
    expect(mser5(transientThenPairs(2))).toBe(10);
    expect(mser5([...Array(20).fill(0), ...Array.from({ length: 80 }, (_, i) => (i % 2 ? 9 : 11))])).toBe(20);
  });
  it('cuts nothing from a stationary series, never more than half, nothing under 20 samples', () => {
    expect(mser5(Array(100).fill(7))).toBe(0);
    expect(mser5(Array.from({ length: 100 }, (_, i) => 100 - i))).toBe(50); // a trend that never settles: capped at half the run
    expect(mser5([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 9, 9, 9])).toBe(0);
  });
});

describe('stopping rule (±1% of the primary response)', () => {
  // Batch means alternate 100 ± d: half-width 2.093 · d / √19, within 1% of 100 for d ≤ √19 / 2.093 = 2.0826.
  const limit = Math.sqrt(19) / 2.093;
  it(`batch means 100 ± d after a cut transient: converged at d = 2.08, not at 2.085 (the bound is d = ${limit.toFixed(4)})`, () => {
    const inside = metricsOf(transientThenPairs(2.08));
    expect(inside.converged()).toBe(true);
    const s = inside.summary();
    expect(s.window.truncated).toBe(10);
    expect(s.throughput).toBeCloseTo(100, 9);
    expect(s.ciHalfWidth).toBeCloseTo((2.093 * 2.08) / Math.sqrt(19), 9);
    expect(s.converged).toBe(true);
    const outside = metricsOf(transientThenPairs(2.085));
    expect(outside.converged()).toBe(false);
    expect(outside.summary().converged).toBe(false);
  });
  it('the transient is left out of the rate; without the cut (truncate false) it is not', () => {
    const cut = metricsOf(transientThenPairs(1)).summary();
    const whole = new Metrics(1, 1, () => ({ busyNs: 0, activeLinks: 0, links: 1 }), 20, 0.01, false);
    transientThenPairs(1).forEach((x, i) => {
      whole.c[C.dataDelivered]! += x;
      whole.checkpoint((i + 1) * 1e6);
    });
    expect(cut.throughput).toBeCloseTo(100, 9);
    expect(whole.summary().throughput).toBeCloseTo(80, 9);
  });
  it('fewer than 2 × 20 intervals are never converged, however flat', () => {
    expect(metricsOf(Array(39).fill(100)).converged()).toBe(false);
    expect(metricsOf(Array(41).fill(100)).converged()).toBe(true);
  });
});

describe('runC104: stop at the interval or report not converged at the cap', () => {
  const prog = () => new SyntheticProgram({ D: 4, d: 2, n: 1, c: { law: 'constant', value: 10 }, m: { law: 'constant', value: 1 }, M: { law: 'constant', value: 32 }, mode: 'async-blocking', window: 'pm-d', startPhase: 'random', seed: 2 });
  it('an unreachable precision runs to the cap (3 ms) and is reported not converged', () => {
    const r = runC104(prog(), { side: 4 }, { maxNs: 3_000_000, precision: 1e-9 });
    expect(r.simulatedNs).toBe(3_000_000);
    expect(r.summary.converged).toBe(false);
  });
  it('a reachable one stops between the minimum (2 ms) and the cap, converged, with its interval inside the precision', () => {
    const r = runC104(prog(), { side: 4 }, { maxNs: 50_000_000, precision: 0.05 });
    expect(r.summary.converged).toBe(true);
    expect(r.simulatedNs).toBeGreaterThanOrEqual(2_000_000);
    expect(r.simulatedNs).toBeLessThan(50_000_000);
    expect(r.summary.ciHalfWidth).toBeLessThanOrEqual(0.05 * r.summary.throughput * 1.02);
  });
});
