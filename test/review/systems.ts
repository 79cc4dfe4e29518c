/**
 * The review's small loaded systems (docs/kernel.md "Stop 21: review"): a
 * C104 2x2 mesh and a Buzzard 2-cube with traffic, built alike in either
 * mode for the lock-step tests.
 */
import { meshNetwork } from '../../rtl/c104/labelling.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { scheduleWorkload } from '../../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../../harness/workloads/index.ts';
import { pairChannels, pairMessages, postPairMessages } from '../c104/system_check.ts';

/** C104 2x2 mesh: twelve messages over its four endpoints, 8 to 47 bytes, started within 200 cycles after link start-up (node addressing, held sends). */
export function review2x2(mode: SimMode): C104System {
  const T = 4;
  const drawn = Array.from({ length: 12 }, (_, k) => ({ src: k, dst: (k * 5 + 1) % 7, len: 8 + ((k * 13) % 40), at: (k * 37) % 200 }));
  const { msgs, pairs } = pairMessages(drawn, T);
  const spec = meshNetwork({ w: 2, h: 2, routing: 'x-first', labelsPerNode: 1 });
  const channels = pairChannels(spec, pairs, T, true);
  const sys = makeC104System(spec, channels, { mode, t9000: { addressing: 'node' } });
  sys.driver.holdWhenFull = true;
  postPairMessages(sys, channels, msgs);
  return sys;
}

/** Buzzard 2-cube with the chapter-5 workload (40-byte mean, small CAMs and FIFOs: refusals and full FIFOs). */
export function reviewCube2(mode: SimMode): Simulator {
  const cube = new BuzzardCube({ n: 2, strictFraming: false, routing: 'quasi-adaptive', camHeight: 2, fifoDepth: 2 });
  const sim = new Simulator(cube, { mode });
  const driver = new CubeDriver(sim, cube);
  scheduleWorkload(driver, buzzardCh5Workload({ cubeDegree: 2, meanBytes: 40, meanGapTicks: 60, durationTicks: (3000 * 0.6) / 4.5, seed: 7 }));
  return sim;
}
