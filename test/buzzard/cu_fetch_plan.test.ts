/**
 * The control unit's fetch plan (rtl/buzzard/cu_transmit.ts, issue 8): firstMiss,
 * which finds the first memory word of a slot's next data load that is not in
 * the fetch window without building arrays, equals the plan it replaced (the
 * load plan's M indices → their distinct memory words, in order → the first
 * not in the window) for every slot of every node at every cycle of random
 * Buzzard workloads (unicasts and broadcasts, both framings). Fast mode =
 * reference mode cannot show this (both run the same firstMiss).
 *
 * Negative control: a firstMiss that forgets a first chunk starts with the
 * source word (it reads one M word too many) differs from the plan on the
 * same runs, so the workloads reach both kinds of chunk.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ControlUnit } from '../../rtl/buzzard/control_unit.ts';
import { cuRandomRun, cuRunParams, type CuRunParams } from './cu_random_run.ts';

type Plan = ControlUnit['txPlan'];
type MissFn = (t: Plan, j: number) => number;

/** The plan before issue 8's change, verbatim in effect: needed words (distinct, in order), the first not in the window. */
const reference: MissFn = (t, j) => {
  const v = t.view(j);
  const need: number[] = [];
  for (const h of t.loadPlan(j).hs) if (h >= t.P0) {
    const a = t.wordOfM(v, h);
    if (!need.includes(a)) need.push(a);
  }
  return need.find((a) => !t.inWin(v, a)) ?? -1;
};
const current: MissFn = (t, j) => t.firstMiss(j, t.view(j));
/** Broken on purpose: a first chunk's source word counted as an M word (the next word read one chunk early). */
const noSourceWord: MissFn = (t, j) => {
  const p = t.loadPlan(j);
  const v = t.view(j);
  const hs = p.first ? Array.from({ length: p.k }, (_, x) => (p.hs[0] ?? t.P0) + x) : p.hs;
  for (const h of hs) if (h >= t.P0 && !t.inWin(v, t.wordOfM(v, h))) return t.wordOfM(v, h);
  return -1;
};

/** Cycles × slots at which `f` differs from the reference, and how many slot-cycles had a miss at all. */
function differences(p: CuRunParams, f: MissFn): { diffs: number; misses: number } {
  const { sim, cus } = cuRandomRun(p, 'plain');
  let diffs = 0;
  let misses = 0;
  for (let c = 0; c < p.cycles; c++) {
    sim.step(1);
    for (const cu of cus) {
      for (let j = 0; j < cu.slots.length; j++) {
        const want = reference(cu.txPlan, j);
        if (want !== -1) misses++;
        if (f(cu.txPlan, j) !== want) diffs++;
      }
    }
  }
  return { diffs, misses };
}

// the fetch plan does not depend on the routing: e-cube only, as before
const params = cuRunParams.map((p) => ({ ...p, routing: undefined }));

describe('control unit fetch plan (issue 8)', () => {
  it('firstMiss equals the array plan it replaced for every slot at every cycle; a plan without the source word differs', () => {
    fc.assert(
      fc.property(params, (p) => {
        const r = differences(p, current);
        expect(r.diffs).toBe(0);
        expect(r.misses).toBeGreaterThan(0);
      }),
      { numRuns: 6 },
    );
    const control = differences({ n: 3, strict: false, meanBytes: 32, gapTicks: 20, seed: 7, broadcast: 40, cycles: 1500 }, noSourceWord);
    expect(control.diffs).toBeGreaterThan(0);
  }, 240_000);
});
