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
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import type { ControlUnit } from '../../rtl/buzzard/control_unit.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { messagePattern, scheduleWorkload } from '../../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../../harness/workloads/index.ts';

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

interface Params { n: number; strict: boolean; meanBytes: number; gapTicks: number; seed: number; broadcast: number; cycles: number }

/** Cycles × slots at which `f` differs from the reference, and how many slot-cycles had a miss at all. */
function differences(p: Params, f: MissFn): { diffs: number; misses: number } {
  const cube = new BuzzardCube({ n: p.n, strictFraming: p.strict });
  const sim = new Simulator(cube, { mode: 'plain' });
  const driver = new CubeDriver(sim, cube);
  scheduleWorkload(driver, buzzardCh5Workload({ cubeDegree: p.n, meanBytes: p.meanBytes, meanGapTicks: p.gapTicks, durationTicks: (p.cycles * 0.6) / 4.5, seed: p.seed }));
  const N = 1 << p.n;
  if (p.broadcast > 0) {
    for (let a = 1; a < N; a++) driver.receive(a, 0, p.broadcast, 0, 0x7000);
    driver.broadcast(0, messagePattern(5000, p.broadcast), 50, 0x7000);
  }
  const cus = cube.nodes.map((x) => x.cu!);
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

const params = fc.record({
  n: fc.integer({ min: 2, max: 3 }),
  strict: fc.boolean(),
  meanBytes: fc.constantFrom(8, 32, 100),
  gapTicks: fc.constantFrom(20, 60),
  seed: fc.integer({ min: 1, max: 1000 }),
  broadcast: fc.constantFrom(0, 7, 40),
  cycles: fc.constant(1500),
});

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
