/**
 * The control unit's IDLE dispatch look (rtl/buzzard/cu_transmit.ts mayAct,
 * issue 8): mayAct, a superset of the transmit task's four steps'
 * conditions read straight from the state vector, is never false in a state
 * where the steps themselves would act (a completion write, a slot load,
 * the broadcast queue, a new message). Checked for every node at every
 * cycle of random Buzzard workloads (unicasts and broadcasts, both framings,
 * both routings). Fast mode = reference mode cannot show this (both run the
 * same mayAct); the RTL timing fingerprint (timing_version.test.ts) checks
 * the cycles too.
 *
 * The check also counts the node-cycles where mayAct says yes (the
 * workloads reach them), and a mayAct blind to the slots' idle flag (a head
 * load of an idle slot) is caught on the same runs: the negative control.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import type { ControlUnit } from '../../rtl/buzzard/control_unit.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { messagePattern, scheduleWorkload } from '../../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../../harness/workloads/index.ts';

type Look = (cu: ControlUnit) => boolean;
const current: Look = (cu) => cu.txIdle.mayAct();
/** Broken on purpose: mayAct with every slot's idle input seen as 0. */
const blindToIdle: Look = (cu) => {
  const s = cu.s;
  const saved = cu.slots.map((sl) => s[sl.idle.i]!);
  cu.slots.forEach((sl) => (s[sl.idle.i] = 0));
  const r = cu.txIdle.mayAct();
  cu.slots.forEach((sl, j) => (s[sl.idle.i] = saved[j]!));
  return r;
};

interface Params { n: number; strict: boolean; routing: 'e-cube' | 'quasi-adaptive'; meanBytes: number; gapTicks: number; seed: number; broadcast: number; cycles: number }

/**
 * Whether `look` said no at a node-cycle where the steps acted (the run stops
 * at the first: the steps' writes then change it), and the node-cycles where
 * the look said yes (the steps are not asked there: they would act).
 */
function missed(p: Params, look: Look): { missed: number; yes: number } {
  const cube = new BuzzardCube({ n: p.n, strictFraming: p.strict, routing: p.routing });
  const sim = new Simulator(cube);
  const driver = new CubeDriver(sim, cube);
  scheduleWorkload(driver, buzzardCh5Workload({ cubeDegree: p.n, meanBytes: p.meanBytes, meanGapTicks: p.gapTicks, durationTicks: (p.cycles * 0.6) / 4.5, seed: p.seed }));
  const N = 1 << p.n;
  if (p.broadcast > 0) {
    for (let a = 1; a < N; a++) driver.receive(a, 0, p.broadcast, 0, 0x7000);
    driver.broadcast(0, messagePattern(5000, p.broadcast), 50, 0x7000);
  }
  const cus = cube.nodes.map((x) => x.cu!);
  let yes = 0;
  for (let c = 0; c < p.cycles; c++) {
    sim.step(1);
    for (const cu of cus) {
      if (look(cu)) {
        yes++;
        continue;
      }
      // the look says nothing can act: the steps must agree (they write nothing when they return false)
      if (cu.txIdle.txSteps()) return { missed: 1, yes };
    }
  }
  return { missed: 0, yes };
}

const params = fc.record({
  n: fc.integer({ min: 2, max: 3 }),
  strict: fc.boolean(),
  routing: fc.constantFrom('e-cube' as const, 'quasi-adaptive' as const),
  meanBytes: fc.constantFrom(8, 32, 100),
  gapTicks: fc.constantFrom(20, 60),
  seed: fc.integer({ min: 1, max: 1000 }),
  broadcast: fc.constantFrom(0, 7, 40),
  cycles: fc.constant(1500),
});

describe('control unit IDLE dispatch look (issue 8)', () => {
  it('mayAct is never false where the transmit steps would act; a look blind to the idle flag is caught', () => {
    fc.assert(
      fc.property(params, (p) => {
        const r = missed(p, current);
        expect(r.missed).toBe(0);
        expect(r.yes).toBeGreaterThan(0);
      }),
      { numRuns: 6 },
    );
    const control = missed({ n: 3, strict: false, routing: 'quasi-adaptive', meanBytes: 32, gapTicks: 20, seed: 7, broadcast: 40, cycles: 1500 }, blindToIdle);
    expect(control.missed).toBe(1);
  }, 240_000);
});
