/**
 * The folded-glue FIFO's push on a late guard with a conjunction
 * (rtl/lib/fifo.ts, docs/kernel.md "Stop 25: token layer"): the edge is
 * queued by the push's rise and by a change of pushEn, and wakes only if
 * push and pushEn both stand there (or a pop does), so a push rising while
 * pushEn is 0 (the transmit buffer full) runs nothing.
 *  - against the reference option (`FIFO_OPTIONS.pushAtRise`, the push's
 *    rise waking the edge at once): every slot equal at every cycle under
 *    random held stimuli, depths 1..5, registered outputs or not;
 *  - fast = reference mode at every cycle (test/lib/lockstep_sim.ts; the
 *    same stimuli, with pokes of head and count; fifo_late.test.ts runs its
 *    properties on this form too);
 *  - runs: pushes rising while pushEn is 0 run nothing (the reference
 *    option: one run each);
 *  - negative control: the conjunction on `pop` instead of pushEn
 *    (FIFO_FAULT.andPop) misses a push, seen by the lock-step.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Simulator } from '../../rtl/kernel/index.ts';
import { FIFO_FAULT, FIFO_OPTIONS } from '../../rtl/lib/fifo.ts';
import { firstSlotDiff } from './lockstep_sim.ts';
import { driven, fifoRuns, GlueFifo, lockstep, type Op, stimOf } from './fifo_drive.ts';

afterEach(() => {
  FIFO_OPTIONS.pushAtRise = false;
  FIFO_FAULT.andPop = false;
});

/** This form and the reference option (pushAtRise), both fast, side by side: the first slot that differs, or null. */
function againstRise(ops: readonly Op[], depth: number, regOut: boolean): string | null {
  const a = new GlueFifo(depth, regOut);
  const simA = new Simulator(a, { mode: 'activity' });
  FIFO_OPTIONS.pushAtRise = true;
  const r = new GlueFifo(depth, regOut);
  const simR = new Simulator(r, { mode: 'activity' });
  FIFO_OPTIONS.pushAtRise = false;
  let c = 0;
  for (const o of ops) {
    const v = o.key === 'din' ? o.v : o.v & 1;
    simA.poke(a.d[o.key as 'din'], v);
    simR.poke(r.d[o.key as 'din'], v);
    for (let k = 0; k < o.hold; k++, c++) {
      simA.step();
      simR.step();
      const d = firstSlotDiff(simR, simA);
      if (d) return `cycle ${c}: ${d.path} is ${d.a} with pushAtRise but ${d.b}`;
    }
  }
  return null;
}

const runs = (ops: readonly Op[]): number => fifoRuns(ops, 4);

describe('Fifo push on a late guard with its enable', () => {
  it('equal to the reference option (push woken at its rise) at every cycle, every slot', () => {
    fc.assert(fc.property(stimOf(driven), fc.integer({ min: 1, max: 5 }), fc.boolean(), (ops, depth, regOut) => {
        expect(againstRise(ops, depth, regOut)).toBe(null);
      }),
      { numRuns: 200 },
    );
  });

  it('fast = reference mode at every cycle, head and count poked on the way', () => {
    fc.assert(fc.property(stimOf([...driven, 'head', 'count']), fc.integer({ min: 1, max: 5 }), fc.boolean(), (ops, depth, regOut) => lockstep(ops, depth, regOut)), { numRuns: 150 });
  });

  it('a push rising while pushEn is 0 runs nothing; with pushAtRise one run each', () => {
    const ops: Op[] = [{ hold: 1, key: 'din', v: 5 }];
    // Five one-cycle pushes while pushEn is 0, then pushEn rises under a held push (one push), then all down.
    for (let k = 0; k < 5; k++) ops.push({ hold: 1, key: 'push', v: 1 }, { hold: 2, key: 'push', v: 0 });
    ops.push({ hold: 2, key: 'push', v: 1 }, { hold: 1, key: 'pushEn', v: 1 }, { hold: 2, key: 'push', v: 0 });
    // The start-up run, then the one edge where push and pushEn stand.
    expect(runs(ops)).toBe(1 + 1);
    FIFO_OPTIONS.pushAtRise = true;
    // The five rises and the held push's rise wake it at once.
    expect(runs(ops)).toBe(1 + 1 + 6);
  });

  it('negative control: the conjunction on pop instead of pushEn (FIFO_FAULT.andPop) misses a push', () => {
    FIFO_FAULT.andPop = true;
    const ops: Op[] = [{ hold: 1, key: 'pushEn', v: 1 }, { hold: 1, key: 'din', v: 7 }, { hold: 2, key: 'push', v: 1 }, { hold: 2, key: 'push', v: 0 }];
    expect(() => lockstep(ops, 4, true)).toThrow(/in plain mode but .* in activity mode/);
  });
});
