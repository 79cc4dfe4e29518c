/**
 * Review finding (docs/kernel.md "Stop 22: review"): the Buzzard crossbar's
 * data path (dataGuard 'source') was guarded only on the inputs allowed to
 * reach each output, so a poked srcr{j} naming an input that may not reach j
 * (input 0 at output 1 of a 2-cube node, say) while busy{j} was 1 made the
 * reference mode read that input and the fast mode not: node0.xbar.dout1
 * differed (seeds 7 and 9 below, before the fix). A 2-cube on bit-by-bit
 * links (serialLinks false: a poke under a word already posted on a serial
 * line is the documented limit of docs/kernel.md "Buzzard links on serial
 * lines", not this), pokes of the crossbars' srcr only; every slot equal at
 * every cycle, or the same model error in both copies.
 */
import { describe, expect, it } from 'vitest';
import { chaosLockstep, warmCopies } from '../lib/chaos_lockstep.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { scheduleWorkload } from '../../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../../harness/workloads/index.ts';

function bitCube(mode: SimMode): Simulator {
  const cube = new BuzzardCube({ n: 2, strictFraming: false, routing: 'quasi-adaptive', camHeight: 2, fifoDepth: 2 }, 'cube', { serialLinks: false });
  const sim = new Simulator(cube, { mode });
  const driver = new CubeDriver(sim, cube);
  scheduleWorkload(driver, buzzardCh5Workload({ cubeDegree: 2, meanBytes: 40, meanGapTicks: 60, durationTicks: (3000 * 0.6) / 4.5, seed: 7 }));
  return sim;
}

const SRCR = /xbar[0-9]*\.srcr/;
const copies = warmCopies(bitCube, 300);

describe('review: Buzzard crossbar srcr poked to any input', () => {
  it.each([7, 9, 1, 2, 3, 4, 5, 6])('seed %i: fast = reference at every cycle', (seed) => {
    const { ref, fast } = copies();
    const r = chaosLockstep(ref, fast, seed, { cycles: 500, rate: 0.04, pokeable: (s) => SRCR.test(s.path), kinds: ['poke'] });
    expect(r.diff).toBeUndefined();
  }, 120_000);
});
