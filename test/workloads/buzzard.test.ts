/**
 * Buzzard workloads (seed 002; shared/spec/buzzard.md §10.1, §10.3, A16):
 * reproducibility from a seed, the statistics of the Chapter 5 generator over
 * large samples, the Chapter 4 laws (flooded, uni, dpf, sl).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generationTimeSchedule } from '../../harness/models/buzzard.ts';
import {
  CH4_FIGURES,
  CH5_RATES,
  Rng,
  buzzardCh4Workload,
  buzzardCh5Workload,
  distanceClassProbabilities,
  hops,
  validateWorkload,
  workloadHash,
  type Workload,
} from '../../harness/workloads/index.ts';

/** Per-source inter-generation gaps (differences of consecutive generation times). */
function gaps(w: Workload): number[] {
  const N = 2 ** w.cubeDegree;
  const last = new Array<number>(N).fill(NaN);
  const out: number[] = [];
  for (const m of w.messages) {
    if (!Number.isNaN(last[m.src]!)) out.push(m.t - last[m.src]!);
    last[m.src] = m.t;
  }
  return out;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: readonly number[]): number => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};
/** Pearson chi-square of observed counts against expected counts. */
const chiSquare = (obs: readonly number[], exp: readonly number[]): number => obs.reduce((a, o, i) => a + (o - exp[i]!) ** 2 / exp[i]!, 0);

describe('Chapter 5 generator (§10.3)', () => {
  it('reproduces bit for bit from a seed, from an explicit Rng, and differs across seeds', () => {
    const a = buzzardCh5Workload({ meanBytes: 512, meanGapTicks: 2048, messagesPerNode: 50, seed: 11 });
    const b = buzzardCh5Workload({ meanBytes: 512, meanGapTicks: 2048, messagesPerNode: 50, seed: 11 });
    const c = buzzardCh5Workload({ meanBytes: 512, meanGapTicks: 2048, messagesPerNode: 50 }, new Rng(11));
    const d = buzzardCh5Workload({ meanBytes: 512, meanGapTicks: 2048, messagesPerNode: 50, seed: 12 });
    expect(b).toEqual(a);
    expect(c.messages).toEqual(a.messages);
    expect(workloadHash(b)).toBe(workloadHash(a));
    expect(workloadHash(d)).not.toBe(workloadHash(a));
    expect(d.messages.map((m) => m.dst)).not.toEqual(a.messages.map((m) => m.dst));
    // The recorded start state replays the run from a generator that was already used.
    const r = new Rng(99);
    r.nextUint32();
    const e = buzzardCh5Workload({ messagesPerNode: 5 }, r);
    const replay = new Rng(0);
    replay.restore(e.rngStart);
    expect(buzzardCh5Workload({ messagesPerNode: 5 }, replay).messages).toEqual(e.messages);
  });

  it('is a valid workload: ids are indices, sorted by time, unicast, integer ticks', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.nat(1000), fc.constantFrom(512, 2048), (n, seed, meanBytes) => {
        const w = buzzardCh5Workload({ cubeDegree: n, meanBytes, meanGapTicks: 3 * meanBytes, messagesPerNode: 10, seed });
        validateWorkload(w);
        expect(w.messages.length).toBe(10 * 2 ** n);
        for (const m of w.messages) {
          expect(Number.isInteger(m.t)).toBe(true);
          expect(m.bytes).toBeGreaterThanOrEqual(1);
        }
      }),
      { numRuns: 30 },
    );
  });

  // One large sample shared by the statistical checks: 64 nodes × 500 messages.
  const big = buzzardCh5Workload({ meanBytes: 512, meanGapTicks: 1024, messagesPerNode: 500, seed: 2024 });

  it('mean length within 3% of 512 (32000 draws; sd of the mean ≈ 0.56%)', () => {
    expect(big.messages.length).toBe(32000);
    expect(Math.abs(mean(big.messages.map((m) => m.bytes)) / 512 - 1)).toBeLessThan(0.03);
    const long = buzzardCh5Workload({ meanBytes: 2048, meanGapTicks: 4096, messagesPerNode: 200, seed: 5 });
    expect(Math.abs(mean(long.messages.map((m) => m.bytes)) / 2048 - 1)).toBeLessThan(0.03);
  });

  it('lengths are exponential: P(length > mean) ≈ e^−1 within 0.02', () => {
    const frac = big.messages.filter((m) => m.bytes > 512).length / big.messages.length;
    expect(Math.abs(frac - Math.exp(-1))).toBeLessThan(0.02);
  });

  it('mean inter-generation time within 2% of the rate, σ within 5% of mean/2 (A16, clamped at 0)', () => {
    const g = gaps(big);
    // Clamping a normal with σ = μ/2 at 0 raises the mean by 0.42% and lowers σ to 0.490μ: both well inside.
    expect(Math.abs(mean(g) / 1024 - 1)).toBeLessThan(0.02);
    expect(Math.abs(sd(g) / 512 - 1)).toBeLessThan(0.05);
    expect(Math.min(...g)).toBeGreaterThanOrEqual(0);
  });

  it('the literal A16 reading has variance = mean/2', () => {
    const w = buzzardCh5Workload({ meanBytes: 512, meanGapTicks: 1024, messagesPerNode: 200, gapVariance: 'variance-half-mean', seed: 8 });
    const g = gaps(w);
    expect(Math.abs(mean(g) / 1024 - 1)).toBeLessThan(0.01);
    expect(Math.abs(sd(g) / Math.sqrt(512) - 1)).toBeLessThan(0.1);
  });

  it('destinations are uniform over the other nodes (chi-square, 62 and 63 degrees of freedom, p ≈ 0.001 bounds)', () => {
    const N = 64;
    const rel = new Array<number>(N).fill(0);
    const dst = new Array<number>(N).fill(0);
    for (const m of big.messages) {
      expect(m.dst).not.toBe(m.src);
      rel[m.src ^ m.dst]!++;
      dst[m.dst]!++;
    }
    expect(rel[0]).toBe(0);
    const K = big.messages.length;
    expect(chiSquare(rel.slice(1), new Array(N - 1).fill(K / (N - 1)))).toBeLessThan(100.9); // χ²_62, 0.999 quantile ≈ 100.9
    expect(chiSquare(dst, new Array(N).fill(K / N))).toBeLessThan(103.4); // χ²_63, 0.999 quantile ≈ 103.4
    // Mean distance agrees with n·2^(n−1)/(2^n − 1) = 3.0476.
    expect(Math.abs(mean(big.messages.map((m) => hops(m.src, m.dst))) - 3.0476)).toBeLessThan(0.03);
  });

  it('the nine rates of each set are the §10.3 schedules (A17: 36864)', () => {
    expect(CH5_RATES[512]).toEqual(generationTimeSchedule({ startTicks: 1024, increments: [{ count: 2, ticks: 256 }, { count: 3, ticks: 512 }, { count: 3, ticks: 2048 }] }));
    expect(CH5_RATES[2048]).toEqual(generationTimeSchedule({ startTicks: 4096, increments: [{ count: 2, ticks: 1024 }, { count: 3, ticks: 2048 }, { count: 3, ticks: 8192 }] }));
    expect(CH5_RATES[2048].at(-1)).toBe(36864);
  });

  it('a duration bounds generation; messages per node bounds it too', () => {
    const w = buzzardCh5Workload({ meanGapTicks: 1000, durationTicks: 10_000, seed: 3 });
    expect(w.messages.every((m) => m.t < 10_000)).toBe(true);
    expect(w.messages.length).toBeGreaterThan(64 * 7);
    expect(w.messages.length).toBeLessThan(64 * 13);
  });

  it('rejects bad parameters naming the field', () => {
    expect(() => buzzardCh5Workload({ meanBytes: 0 })).toThrow(/buzzardCh5\.meanBytes: 0 is outside/);
    expect(() => buzzardCh5Workload({ cubeDegree: 17 })).toThrow('buzzardCh5.cubeDegree: 17 is outside 1..16 (integer)');
    expect(() => buzzardCh5Workload({ gapVariance: 'x' as never })).toThrow("buzzardCh5.gapVariance: 'x' is not one of 'sd-half-mean', 'variance-half-mean'");
    expect(() => buzzardCh5Workload({ seed: -3 })).toThrow(/buzzardCh5.seed/);
  });
});

describe('Chapter 4 generator (§10.1)', () => {
  it('flooded: every node generates every 50 ticks, constant lengths as given', () => {
    const w = buzzardCh4Workload({ cubeDegree: 3, interGeneration: 'flooded', length: { law: 'constant', value: 16 }, messagesPerNode: 4, seed: 1 });
    expect(w.messages.length).toBe(32);
    expect(w.messages.map((m) => m.t)).toEqual([50, 100, 150, 200].flatMap((t) => new Array(8).fill(t)));
    expect(w.messages.every((m) => m.bytes === 16)).toBe(true);
    // At equal times ids follow source order.
    expect(w.messages.slice(0, 8).map((m) => m.src)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('distance-class laws: uni, dpf(0.2), sl(2, 0.8) for n = 6 by hand', () => {
    const close = (a: number[], b: number[]) => a.forEach((x, i) => expect(x).toBeCloseTo(b[i]!, 6));
    close(distanceClassProbabilities(6, { law: 'uni' }), [6, 15, 20, 15, 6, 1].map((c) => c / 63));
    const w = [0.2, 0.04, 0.008, 0.0016, 0.00032, 0.000064];
    const sum = w.reduce((a, b) => a + b, 0);
    close(distanceClassProbabilities(6, { law: 'dpf', d: 0.2 }), w.map((x) => x / sum));
    // sl(2, 0.8): R = 6 + 15 = 21, outer shell N − R − 1 = 42.
    close(distanceClassProbabilities(6, { law: 'sl', r: 2, phi: 0.8 }), [(0.8 * 6) / 21, (0.8 * 15) / 21, (0.2 * 20) / 42, (0.2 * 15) / 42, (0.2 * 6) / 42, (0.2 * 1) / 42]);
    // r = n: no outer shell, normalised to uni().
    close(distanceClassProbabilities(6, { law: 'sl', r: 6, phi: 0.3 }), [6, 15, 20, 15, 6, 1].map((c) => c / 63));
  });

  it('sampled distance classes follow the law, and nodes within a class are uniform', () => {
    for (const destination of [{ law: 'dpf', d: 0.5 } as const, { law: 'sl', r: 2, phi: 0.8 } as const]) {
      const w = buzzardCh4Workload({ cubeDegree: 6, interGeneration: { law: 'exp', mean: 100 }, length: { law: 'constant', value: 8 }, destination, messagesPerNode: 400, seed: 77 });
      const K = w.messages.length;
      const cls = new Array<number>(6).fill(0);
      const at2 = new Map<number, number>();
      for (const m of w.messages) {
        const h = hops(m.src, m.dst);
        expect(h).toBeGreaterThan(0);
        cls[h - 1]!++;
        if (h === 2) at2.set(m.src ^ m.dst, (at2.get(m.src ^ m.dst) ?? 0) + 1);
      }
      const p = distanceClassProbabilities(6, destination);
      // Chi-square over classes with expected count ≥ 5 (5 df at most; 0.999 quantile of χ²_5 = 20.5).
      const keep = p.map((x, i) => [cls[i]!, x * K] as const).filter(([, e]) => e >= 5);
      expect(chiSquare(keep.map(([o]) => o), keep.map(([, e]) => e))).toBeLessThan(20.5);
      // The 15 nodes at distance 2 are equally likely (χ²_14, 0.999 quantile ≈ 36.1).
      expect(at2.size).toBe(15);
      const n2 = cls[1]!;
      expect(chiSquare([...at2.values()], new Array(15).fill(n2 / 15))).toBeLessThan(36.1);
    }
  });

  it('every figure preset generates a valid workload; the same seed gives the same one', () => {
    for (const [fig, preset] of Object.entries(CH4_FIGURES)) {
      const w = buzzardCh4Workload({ ...preset, messagesPerNode: 3, seed: 5 });
      validateWorkload(w);
      expect(w.messages.length, fig).toBe(192);
      expect(workloadHash(buzzardCh4Workload({ ...preset, messagesPerNode: 3, seed: 5 }))).toBe(workloadHash(w));
    }
    // Fig 4.24: constant 1536-tick gaps, lengths nor(512, 256) rounded and at least 1.
    const w = buzzardCh4Workload({ ...CH4_FIGURES['4.24']!, messagesPerNode: 100, seed: 1 });
    expect(new Set(w.messages.map((m) => m.t % 1536))).toEqual(new Set([0]));
    expect(Math.abs(mean(w.messages.map((m) => m.bytes)) / 512 - 1)).toBeLessThan(0.03);
  });

  it('rejects bad laws naming the field', () => {
    expect(() => buzzardCh4Workload({ destination: { law: 'dpf', d: 1.5 } })).toThrow(/buzzardCh4.destination.d: 1.5 is outside/);
    expect(() => buzzardCh4Workload({ destination: { law: 'sl', r: 7, phi: 0.5 } })).toThrow(/buzzardCh4.destination.r: 7 is outside 1..6/);
    expect(() => buzzardCh4Workload({ length: { law: 'weibull' } as never })).toThrow("buzzardCh4.length.law: 'weibull' is not one of 'constant', 'exp', 'normal'");
  });
});
