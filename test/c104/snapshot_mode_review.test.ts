/**
 * A snapshot saved in the fast mode and restored after a switch to the
 * reference mode, on a 2x2 C104 mesh carrying messages (node addressing,
 * held sends): the reference mode holds nothing on demand, so token and
 * NULL trains restored as active must hand their values back, as a switch
 * to the reference mode makes them (rtl/kernel/snapshots.ts restore;
 * docs/kernel.md "Stop 21: review"). Found by the review's chaos
 * lock-step (test/review/c104_chaos.test.ts): before the fix, the snapshot
 * of cycle 2971 restored in the reference mode left
 * net.c104_1_0_link4's token train running there, and its deserialiser's
 * tokV differed from the reference run at cycle 2972. a6cc2f1 fixed the
 * mirror case (a reference-mode snapshot restored in the fast mode).
 * Control: the same comparison with the snapshot of the cycle before
 * restored (a cycle behind) differs.
 */
import { describe, expect, it } from 'vitest';
import { firstStepDiff } from './system_check.ts';
import { review2x2 } from '../review/systems.ts';

/** A reference run and a fast run to `t`; the fast one saves (`early` cycles before t, for the control: restored, it is that many cycles behind), switches to the reference mode and restores; the first difference over 100 cycles. */
function restoredInReference(t: number, early = 0): string | undefined {
  const ref = review2x2('plain');
  const fast = review2x2('activity');
  ref.sim.step(t);
  fast.sim.step(t - early);
  const snap = fast.sim.save();
  fast.sim.step(early);
  fast.sim.setMode('plain');
  fast.sim.restore(snap);
  return firstStepDiff(ref, fast, 100);
}

describe('C104 2x2 mesh: a fast-mode snapshot restored in the reference mode', () => {
  for (const t of [2971, 2600, 3100]) {
    it(`saved at ${t}: equal to the reference run at every cycle`, () => {
      expect(restoredInReference(t)).toBeUndefined();
    }, 120_000);
  }

  it('control: the snapshot of the cycle before restored at 2971 (a cycle behind) differs', () => {
    expect(restoredInReference(2971, 1)).toBeDefined();
  }, 120_000);
});
