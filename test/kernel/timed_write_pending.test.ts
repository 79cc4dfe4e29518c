/**
 * The timed writes' pending count per slot (rtl/kernel/timed_write.ts,
 * docs/kernel.md "Stop 23: token layer"): `cancel` of a slot with no write
 * pending returns after one load instead of scanning the queue. Property:
 * random pushes, cancels, due edges, saves and restores against a plain list
 * of (cycle, slot, value): the same writes applied at every edge, in any
 * order within an edge (between writes of one slot due at one cycle: either), and a cancel at an edge where the slot's write was
 * applied takes its next value back. Negative control: a restore that does
 * not recount (`TimedWrites.noRecount`) keeps a cancelled write.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { TimedWrites } from '../../rtl/kernel/timed_write.ts';

type Op = { k: 'push'; dc: number; slot: number; v: number } | { k: 'cancel'; slot: number } | { k: 'edge' } | { k: 'save' } | { k: 'restore' };

const SLOTS = [1, 3, 5, 201]; // next-value slots (odd: current = slot - 1); 201 past the initial table
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant('push' as const), dc: fc.integer({ min: 0, max: 4 }), slot: fc.constantFrom(...SLOTS), v: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ k: fc.constant('cancel' as const), slot: fc.constantFrom(...SLOTS) }),
  fc.record({ k: fc.constant('edge' as const) }),
  fc.record({ k: fc.constant('save' as const) }),
  fc.record({ k: fc.constant('restore' as const) }),
);

/** Run the ops on a TimedWrites and on a list; the first difference (slot values after an edge) or null. */
function check(ops: Op[]): string | null {
  const tw = new TimedWrites();
  const s = new Float64Array(256);
  const m = new Float64Array(256);
  let list: { c: number; slot: number; v: number }[] = [];
  let now = 0;
  let saved: { st: ReturnType<TimedWrites['save']>; list: typeof list } | null = null;
  const appliedM: number[] = [];
  for (const op of ops) {
    if (op.k === 'push') {
      tw.push(now + op.dc, op.slot, op.v);
      list.push({ c: now + op.dc, slot: op.slot, v: op.v });
    } else if (op.k === 'cancel') {
      tw.cancel(op.slot, now, s);
      if (appliedM.includes(op.slot)) m[op.slot] = m[op.slot - 1]!;
      list = list.filter((w) => w.slot !== op.slot);
    } else if (op.k === 'save') saved = { st: tw.save(), list: list.slice() };
    else if (op.k === 'restore' && saved) {
      tw.restore(saved.st);
      list = saved.list.slice();
      appliedM.length = 0;
    } else if (op.k === 'edge') {
      now++;
      // the commit: current = next for every slot, then the due writes into next
      for (const x of SLOTS) {
        s[x - 1] = s[x]!;
        m[x - 1] = m[x]!;
      }
      appliedM.length = 0;
      tw.applyDue(now, s);
      const due = list.filter((w) => w.c <= now).sort((a, b) => a.c - b.c);
      // Two writes of one slot due at one edge: the queue's order among equal cycles is not the list's; only distinct slots/cycles are compared.
      for (const w of due) {
        m[w.slot] = w.v;
        appliedM.push(w.slot);
      }
      list = list.filter((w) => w.c > now);
      for (const x of SLOTS) {
        // Two writes of one slot due at one edge: the later cycle's wins; between equal cycles the queue's order is not the list's, so either of those.
        const mine = due.filter((w) => w.slot === x);
        const last = mine.length ? Math.max(...mine.map((w) => w.c)) : 0;
        const ok = mine.filter((w) => w.c === last).map((w) => w.v);
        if (ok.length > 1) {
          if (!ok.includes(s[x]!)) return `edge ${now} slot ${x}: ${s[x]} not one of ${ok.join(', ')}`;
          m[x] = s[x]!;
        }
        if (s[x] !== m[x]) return `edge ${now} slot ${x}: ${s[x]} vs ${m[x]}`;
      }
      if (tw.size !== list.length) return `edge ${now}: ${tw.size} pending vs ${list.length}`;
    }
  }
  return null;
}

afterEach(() => {
  TimedWrites.noRecount = false;
});

describe('timed writes: pending count per slot', () => {
  it('property: the same writes applied at every edge as a plain list, with cancels, saves and restores', () => {
    fc.assert(fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => check(ops) === null), { numRuns: 400 });
  });

  it('a cancel of a slot with nothing pending leaves the others; after a restore the counts are rebuilt', () => {
    const tw = new TimedWrites();
    const s = new Float64Array(8);
    tw.push(3, 1, 1);
    tw.push(4, 3, 1);
    const st = tw.save();
    tw.cancel(5, 0, s);
    expect(tw.size).toBe(2);
    tw.cancel(1, 0, s);
    expect(tw.size).toBe(1);
    tw.restore(st);
    expect(tw.pendingOf(1)).toBe(1);
    tw.cancel(1, 0, s);
    expect(tw.size).toBe(1);
  });

  it('negative control: a restore that does not recount keeps a cancelled write (the property fails)', () => {
    TimedWrites.noRecount = true;
    const r = check([{ k: 'push', dc: 2, slot: 3, v: 5 }, { k: 'save' }, { k: 'restore' }, { k: 'cancel', slot: 3 }, { k: 'edge' }, { k: 'edge' }]);
    expect(r).not.toBeNull();
    expect(fc.check(fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => check(ops) === null), { numRuns: 3000, seed: 1 }).failed).toBe(true);
  });
});
