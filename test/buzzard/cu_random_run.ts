/**
 * Random Buzzard workloads for the control unit's per-cycle properties
 * (cu_fetch_plan.test.ts, cu_may_act.test.ts): chapter-5 unicasts on a 2- or
 * 3-cube, optionally a broadcast from node 0 with every other node's receive
 * posted, both framings and routings.
 */
import fc from 'fast-check';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import type { ControlUnit } from '../../rtl/buzzard/control_unit.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { messagePattern, scheduleWorkload } from '../../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../../harness/workloads/index.ts';

export interface CuRunParams { n: number; strict: boolean; routing?: 'e-cube' | 'quasi-adaptive'; meanBytes: number; gapTicks: number; seed: number; broadcast: number; cycles: number }

export const cuRunParams = fc.record({
  n: fc.integer({ min: 2, max: 3 }),
  strict: fc.boolean(),
  routing: fc.constantFrom('e-cube' as const, 'quasi-adaptive' as const),
  meanBytes: fc.constantFrom(8, 32, 100),
  gapTicks: fc.constantFrom(20, 60),
  seed: fc.integer({ min: 1, max: 1000 }),
  broadcast: fc.constantFrom(0, 7, 40),
  cycles: fc.constant(1500),
});

/** The cube with its workload scheduled, and its control units. */
export function cuRandomRun(p: CuRunParams, mode?: SimMode): { sim: Simulator; cus: ControlUnit[] } {
  const cube = new BuzzardCube({ n: p.n, strictFraming: p.strict, ...(p.routing ? { routing: p.routing } : {}) });
  const sim = new Simulator(cube, mode ? { mode } : {});
  const driver = new CubeDriver(sim, cube);
  scheduleWorkload(driver, buzzardCh5Workload({ cubeDegree: p.n, meanBytes: p.meanBytes, meanGapTicks: p.gapTicks, durationTicks: (p.cycles * 0.6) / 4.5, seed: p.seed }));
  const N = 1 << p.n;
  if (p.broadcast > 0) {
    for (let a = 1; a < N; a++) driver.receive(a, 0, p.broadcast, 0, 0x7000);
    driver.broadcast(0, messagePattern(5000, p.broadcast), 50, 0x7000);
  }
  return { sim, cus: cube.nodes.map((x) => x.cu!) };
}
