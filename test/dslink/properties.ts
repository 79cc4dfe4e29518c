/**
 * Properties shared by the DS-link option tests (run_idle.test.ts,
 * flow_through.test.ts): exact delivery under random gaps and stalls in both
 * kernel modes, and plain/activity agreement at every cycle through a fault
 * and a restart, each for a list of link configurations drawn at random.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { DsLinkConfig } from '../../rtl/dslink/config.ts';
import { Lockstep } from '../lib/lockstep_sim.ts';
import { Bench, makeBench } from './bench.ts';

export const charArb = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x100, 0x101));
const somewhere = (xs: boolean[]): boolean[] => (xs.some((x) => x) ? xs : [true, ...xs]);

/** Random characters both ways, gaps in what each core offers, stalls in what each takes: all arrive exactly, no link error. */
export function assertExactDelivery(cfgs: readonly Partial<DsLinkConfig>[], numRuns: number): void {
  fc.assert(
    fc.property(
      fc.array(charArb, { maxLength: 80 }),
      fc.array(charArb, { maxLength: 40 }),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }),
      fc.array(fc.boolean(), { minLength: 1, maxLength: 11 }),
      fc.constantFrom(...cfgs),
      fc.constantFrom('plain' as const, 'activity' as const),
      (aToB, bToA, push, pop, cfg, mode) => {
        const pushA = somewhere(push);
        const popB = somewhere(pop);
        const { bench, sim } = makeBench({ a: cfg, b: cfg, aToB, bToA, pushA, pushB: pushA.slice().reverse(), popB, popA: popB.slice().reverse() }, mode);
        sim.runUntil(() => bench.sinkB.got.length === aToB.length && bench.sinkA.got.length === bToA.length, 4000 + 2000 * (aToB.length + bToA.length));
        expect(bench.sinkB.got.map((g) => g.ch)).toEqual(aToB);
        expect(bench.sinkA.got.map((g) => g.ch)).toEqual(bToA);
        expect(sim.peek(bench.pair.a.errCount) + sim.peek(bench.pair.b.errCount)).toBe(0);
      },
    ),
    { numRuns },
  );
}

/** Plain and activity kernel modes in lock-step (test/lib/lockstep_sim.ts): every register and wire equal at every cycle, with gaps, a flipped bit and the restart after it. */
export function assertModesAgree(cfgs: readonly Partial<DsLinkConfig>[], numRuns: number): void {
  fc.assert(
    fc.property(fc.array(charArb, { maxLength: 40 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 30 }), fc.constantFrom(...cfgs), fc.integer({ min: 700, max: 1400 }), (aToB, push, cfg, flipAt) => {
      const c = { ...cfg, resetNs: 500, waitNs: 1000 };
      const ls = new Lockstep(() => new Bench({ faults: true, aToB, bToA: aToB.slice(0, 10), pushA: somewhere(push), a: c, b: c }));
      for (let k = 0; k < 3000; k++) {
        if (k === flipAt) ls.poke((u) => u.pair.ab!.flipD, 1);
        ls.step();
      }
    }),
    { numRuns },
  );
}
