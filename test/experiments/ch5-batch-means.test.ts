/**
 * The chapter-5 error bars: 95% intervals of the mean by batch means
 * (harness/experiments/buzzard-ch5-common.ts batchMeansHalfWidth), against
 * values computed by hand, with the limits that make it refuse.
 */
import { describe, expect, it } from 'vitest';
import { BATCHES, batchMeansHalfWidth, ci95Of } from '../../harness/experiments/buzzard-ch5-common.ts';

describe('batch-means error bars', () => {
  it('0..19 in 10 batches of 2: batch means 0.5, 2.5, …, 18.5; half-width 2.262 · sd / √10', () => {
    expect(BATCHES).toBe(10);
    const xs = Array.from({ length: 20 }, (_, k) => k);
    const means = Array.from({ length: 10 }, (_, b) => 2 * b + 0.5);
    const m = means.reduce((a, x) => a + x, 0) / 10;
    const sd = Math.sqrt(means.reduce((a, x) => a + (x - m) ** 2, 0) / 9);
    expect(sd).toBeCloseTo(6.0553, 4);
    expect(batchMeansHalfWidth(xs)).toBeCloseTo((2.262 * sd) / Math.sqrt(10), 12);
    expect(batchMeansHalfWidth(xs)).toBeCloseTo(4.3314, 4);
  });

  it('batches follow the order (a trend widens the bar; the same values shuffled into equal batches give 0)', () => {
    const trend = Array.from({ length: 40 }, (_, k) => (k < 20 ? 0 : 10));
    const mixed = Array.from({ length: 40 }, (_, k) => (k % 2 ? 10 : 0));
    expect(batchMeansHalfWidth(trend)!).toBeGreaterThan(3);
    expect(batchMeansHalfWidth(mixed)).toBe(0);
    expect(batchMeansHalfWidth(Array(30).fill(7))).toBe(0);
  });

  it('undelivered messages (NaN) are left out; fewer than 20 delivered: no bar; ci95Of scales to ticks', () => {
    const xs = Array.from({ length: 20 }, (_, k) => k);
    expect(batchMeansHalfWidth([...xs.slice(0, 7), NaN, ...xs.slice(7), NaN])).toBe(batchMeansHalfWidth(xs));
    expect(batchMeansHalfWidth(xs.slice(1))).toBeNull();
    const per = xs.map((k) => ({ first: 9 * k, last: NaN }));
    const ci = ci95Of(per, 4.5);
    expect(ci.first).toBeCloseTo(2 * batchMeansHalfWidth(xs)!, 12);
    expect(ci.last).toBeNull();
  });
});
