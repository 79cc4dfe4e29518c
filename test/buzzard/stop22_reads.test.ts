/**
 * The read lists cut in stop 22 (docs/kernel.md "Stop 22: Buzzard"), each
 * against a wrong version on a whole Buzzard cube: the node memory woken on
 * its requests' rises (and a write's address while it is up), the
 * round-robin commit woken on the rise of its grant, the 1-of-2 modules'
 * commit on their grants' rises and their grants reading the requests only
 * while en is 1. A wrong list (a static switch read at construction) must
 * make the fast mode differ from the reference mode at some cycle (every
 * wire and register compared, test/lib/lockstep_sim.ts); the control, the
 * same run with the right lists, must not. The random workloads of
 * fast_reference.test.ts cover the right lists further.
 */
import { describe, expect, it } from 'vitest';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { NodeMemory } from '../../rtl/buzzard/node_memory.ts';
import { Arbiter2, RoundRobinArbiter } from '../../rtl/lib/arbiter.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { scheduleWorkload } from '../../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../../harness/workloads/index.ts';
import { fastReferenceDiff } from '../lib/lockstep_sim.ts';

const CYCLES = 2500;

function build(mode: SimMode, wordFolds: boolean): Simulator {
  // wordFolds false: stop 22's process structure, where the buffer RAM's ports are round-robin arbiter children (stop 23 folds them into the RAM)
  const cube = new BuzzardCube({ n: 3 }, 'cube', { wordFolds });
  const sim = new Simulator(cube, { mode });
  const driver = new CubeDriver(sim, cube);
  scheduleWorkload(driver, buzzardCh5Workload({ cubeDegree: 3, meanBytes: 60, meanGapTicks: 60, durationTicks: (CYCLES * 0.6) / 4.5, seed: 7 }));
  return sim;
}

/** The first cycle at which the two modes differ, as text, or null. */
function firstDiff(wordFolds = true): string | null {
  const fast = build('activity', wordFolds);
  const ref = build('plain', wordFolds);
  for (let c = 0; c <= CYCLES; c++) {
    if (c > 0) {
      fast.step(1);
      ref.step(1);
    }
    const d = fastReferenceDiff(fast, ref, c);
    if (d) return d;
  }
  return null;
}

function withSwitch(set: (on: boolean) => void, wordFolds = true): string | null {
  set(true);
  try {
    return firstDiff(wordFolds);
  } finally {
    set(false);
  }
}

describe('stop 22 read lists on a loaded 3-cube (negative controls)', () => {
  it('control: the right lists, fast = reference at every cycle', () => {
    expect(firstDiff()).toBeNull();
  }, 120_000);
  const wrong: [string, (on: boolean) => void, boolean][] = [
    ['node memory not woken by the control unit address while its write is up', (on) => (NodeMemory.wrongNoWriteAddr = on), true],
    ['1-of-2 commit not woken by gnt1', (on) => (Arbiter2.wrongNoGnt1 = on), true],
    ['1-of-2 grants reading the requests while en is 0 instead of 1', (on) => (Arbiter2.wrongDownGuard = on), true],
    ['round-robin commit without idx under its rise guard (stop 22 structure)', (on) => (RoundRobinArbiter.wrongNoIdx = on), false],
  ];
  it.each(wrong)('%s: caught', (_name, set, wordFolds) => {
    expect(withSwitch(set, wordFolds)).toMatch(/^cycle \d+: /);
  }, 120_000);
});
