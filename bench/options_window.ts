/**
 * One steady window of the loaded Buzzard cube with BuzzardNodeOptions given
 * as JSON (docs/kernel.md "Stop 25: Buzzard"): the same tree with a lever
 * off and on, each window its own process (alternate them by hand, as
 * bench/alternate.ts does for trees). Prints cycles per CPU second and
 * evaluations per cycle.
 *
 *   taskset -c 0 npx tsx bench/options_window.ts N GAP WARMUP WINDOW '{"slotEvents":false}'
 */
import { Simulator } from '../rtl/kernel/index.ts';
import { BuzzardCube } from '../rtl/buzzard/network.ts';
import type { BuzzardNodeOptions } from '../rtl/buzzard/node.ts';
import { CubeDriver } from '../harness/rtl/cube_driver.ts';
import { DEFAULT_CYCLES_PER_TICK, scheduleWorkload } from '../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../harness/workloads/index.ts';
import { timeWindow } from './steady.ts';

const [n = '6', gap = '1024', warm = '30000', win = '5000', json = '{}'] = process.argv.slice(2);
let options: BuzzardNodeOptions;
try {
  options = JSON.parse(json) as BuzzardNodeOptions;
} catch {
  console.error(`options_window: '${json}' is not JSON`);
  process.exit(2);
}
const cube = new BuzzardCube({ n: +n }, 'cube', options);
const sim = new Simulator(cube);
const horizon = +warm + +win + 10_000;
scheduleWorkload(new CubeDriver(sim, cube), buzzardCh5Workload({ cubeDegree: +n, meanBytes: 512, meanGapTicks: +gap, durationTicks: horizon / DEFAULT_CYCLES_PER_TICK, seed: 1 }));
sim.step(+warm);
const w = timeWindow(sim, +win);
console.log(`${json} ${Math.round(w.cyclesPerCpuSecond)} cycles/CPU s ${w.evaluationsPerCycle.toFixed(1)} evals/cycle`);
