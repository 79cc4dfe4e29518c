/** Seed 004 workloads: Definition 5.1 (destination window, plans) and the Chapter 4 boundary exchange. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SyntheticProgram, standardSetup, meanWindowHops, checkSyntheticSpec } from '../../harness/workloads/thesis-synthetic.ts';
import { BoundaryExchangeProgram } from '../../harness/workloads/boundary-exchange.ts';
import { Rng } from '../../harness/workloads/rng.ts';

describe('Definition 5.1 destination window (spec §14 item 1)', () => {
  it('±d gives the thesis mean paths: 9.48 hops for (16, 8) and 16.57 for the 32×32 Table 3.1 run; ±d/2 gives 6.22', () => {
    expect(meanWindowHops(16, 8)).toBeCloseTo(9.483, 3);
    expect(Math.abs(meanWindowHops(16, 8) - 9.5)).toBeLessThan(0.05);
    expect(meanWindowHops(32, 16)).toBeCloseTo(16.570, 3);
    expect(meanWindowHops(16, 4)).toBeCloseTo(6.221, 3);
  });

  it('every destination is inside the truncated window, never the sender, on a processor within ±d', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 1e6 }), (D, d, n, seed) => {
        const prog = new SyntheticProgram({ ...standardSetup(10, 'async', seed), D, d, n });
        const rng = new Rng(seed);
        for (let k = 0; k < 50; k++) {
          const p = rng.nextInt(prog.processes);
          const q = prog.destination(rng, p);
          expect(q).not.toBe(p);
          expect(q).toBeGreaterThanOrEqual(0);
          expect(q).toBeLessThan(prog.processes);
          const a = prog.nodeOf(p);
          const b = prog.nodeOf(q);
          expect(Math.abs((a % D) - (b % D))).toBeLessThanOrEqual(d);
          expect(Math.abs(((a / D) | 0) - ((b / D) | 0))).toBeLessThanOrEqual(d);
        }
      }),
      { numRuns: 40 },
    );
  });

  it('destinations are uniform over the window (chi-square, corner sender on 4×4, d = 1: 3 choices)', () => {
    const prog = new SyntheticProgram({ ...standardSetup(10, 'async', 7), D: 4, d: 1 });
    const rng = new Rng(5);
    const counts = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const q = prog.destination(rng, 0);
      counts.set(q, (counts.get(q) ?? 0) + 1);
    }
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual([1, 4, 5]);
    const chi = [...counts.values()].reduce((a, c) => a + (c - 1000) ** 2 / 1000, 0);
    expect(chi).toBeLessThan(13.8); // χ²(2) at 0.999
  });

  it('plans are pure functions of (seed, p, k); incoming counts match the plans; the start phase is within [0, c)', () => {
    const a = new SyntheticProgram(standardSetup(10, 'loosely', 3));
    const b = new SyntheticProgram(standardSetup(10, 'loosely', 3));
    expect(a.plan(17, 5)).toEqual(b.plan(17, 5));
    expect(a.plan(17, 5)).not.toEqual(a.plan(17, 6));
    let total = 0;
    for (let p = 0; p < a.processes; p++) total += a.incoming(p, 2);
    expect(total).toBe(a.processes); // m = 1
    for (let p = 0; p < 20; p++) {
      expect(a.startNs(p)).toBeGreaterThanOrEqual(0);
      expect(a.startNs(p)).toBeLessThan(10_000);
    }
  });

  it('bad specs name the field', () => {
    expect(() => checkSyntheticSpec({ ...standardSetup(10, 'async'), D: 1 })).toThrow(/synthetic.D: 1 is outside 2\.\.64/);
    expect(() => checkSyntheticSpec({ ...standardSetup(10, 'async'), window: 'x' as never })).toThrow(/synthetic.window/);
    expect(() => checkSyntheticSpec({ ...standardSetup(10, 'exchange' as never) })).toThrow(/synthetic.mode/);
  });
});

describe('Chapter 4 boundary exchange (§4.2.1)', () => {
  it('each process sends to its four torus neighbours; four processes per processor', () => {
    const x = new BoundaryExchangeProgram({ N: 16, bytes: 32, periodNs: 1000 });
    expect(x.side).toBe(8);
    const p = x.proc(0, 0);
    expect(x.plan(p).sends.map((s) => s.dest)).toEqual([x.proc(1, 0), x.proc(0, 15), x.proc(15, 0), x.proc(0, 1)]);
    const perNode = new Map<number, number>();
    for (let q = 0; q < x.processes; q++) perNode.set(x.nodeOf(q), (perNode.get(x.nodeOf(q)) ?? 0) + 1);
    expect([...perNode.values()].every((c) => c === 4)).toBe(true);
    expect(() => new BoundaryExchangeProgram({ N: 15, bytes: 32, periodNs: 0 })).toThrow(/exchange.N/);
  });
});
