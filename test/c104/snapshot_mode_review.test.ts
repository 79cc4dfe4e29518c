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
import { meshNetwork } from '../../rtl/c104/labelling.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import { firstStepDiff, pairChannels, pairMessages, postPairMessages } from './system_check.ts';

/** Twelve messages over the 2x2 mesh's four endpoints, 8 to 47 bytes, started within 200 cycles. */
export function review2x2(mode: 'plain' | 'activity'): C104System {
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
