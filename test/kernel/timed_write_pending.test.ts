/**
 * The timed writes' queue (rtl/kernel/timed_write.ts, docs/kernel.md
 * "Stop 23: token layer", "Stop 25: cancels"): `cancel` of a slot with no
 * write pending returns after one load; a cancel with writes pending bumps
 * the slot's generation and its entries are skipped when they reach the
 * heap's top. Property: random pushes, cancels, due edges, saves and
 * restores against a plain list of (cycle, slot, value): the same writes
 * applied at every edge in the list's order (cycle, then push order: of two
 * writes of one slot due at one edge the later pushed wins), `next` is the
 * earliest live write, `size` the live count, and a cancel at an edge where
 * the slot's write was applied takes its next value back. Negative
 * controls: a restore that does not recount (`TimedWrites.noRecount`) and
 * a cancel that leaves the generation (`TimedWrites.keepCancelled`) each
 * keep a cancelled write.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { TimedWrites } from '../../rtl/kernel/timed_write.ts';

type Op = { k: 'push'; dc: number; slot: number; v: number } | { k: 'cancel'; slot: number } | { k: 'edge' } | { k: 'save' } | { k: 'restore' };

const SLOTS = [1, 3, 5, 201]; // next-value slots (odd: current = slot - 1); 201 past the initial table
const pushArb = (maxDc: number): fc.Arbitrary<Op> => fc.record({ k: fc.constant('push' as const), dc: fc.integer({ min: 0, max: maxDc }), slot: fc.constantFrom(...SLOTS), v: fc.integer({ min: 0, max: 7 }) });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  pushArb(4),
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
      const due = list.filter((w) => w.c <= now).sort((a, b) => a.c - b.c); // stable: push order within a cycle
      for (const w of due) {
        m[w.slot] = w.v;
        appliedM.push(w.slot);
      }
      list = list.filter((w) => w.c > now);
      for (const x of SLOTS) if (s[x] !== m[x]) return `edge ${now} slot ${x}: ${s[x]} vs ${m[x]}`;
      if (tw.applied.slice(0, tw.nApplied).join() !== appliedM.join()) return `edge ${now}: applied ${tw.applied.slice(0, tw.nApplied).join()} vs ${appliedM.join()}`;
    }
    if (tw.size !== list.length) return `after ${op.k} at ${now}: ${tw.size} pending vs ${list.length}`;
    const next = list.length ? Math.min(...list.map((w) => w.c)) : Infinity;
    if (tw.next !== next) return `after ${op.k} at ${now}: next ${tw.next} vs ${next}`;
  }
  return null;
}

/** Deep queues: mostly pushes far ahead, so the heap grows past its first 64 entries and cancelled entries sit deep in it. */
const deepArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: pushArb(40) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('cancel' as const), slot: fc.constantFrom(...SLOTS) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('edge' as const) }) },
  { weight: 1, arbitrary: fc.oneof(fc.record({ k: fc.constant('save' as const) }), fc.record({ k: fc.constant('restore' as const) })) },
);

afterEach(() => {
  TimedWrites.noRecount = false;
  TimedWrites.keepCancelled = false;
});

describe('timed writes: pending count per slot', () => {
  it('property: the same writes applied at every edge as a plain list, with cancels, saves and restores', () => {
    fc.assert(fc.property(fc.array(opArb, { minLength: 1, maxLength: 60 }), (ops) => check(ops) === null), { numRuns: 400 });
  });

  it('property: deep queues (hundreds of entries, cancelled ones deep in the heap)', () => {
    fc.assert(fc.property(fc.array(deepArb, { minLength: 100, maxLength: 400 }), (ops) => check(ops) === null), { numRuns: 150 });
  });

  it('two writes of one slot due at one edge: the later pushed wins, whatever the heap did in between', () => {
    const tw = new TimedWrites();
    const s = new Float64Array(512);
    for (let k = 0; k < 100; k++) tw.push(5 + (k % 7), 3 + 2 * (k % 50), k); // fill the heap around them
    tw.push(4, 201, 1);
    tw.push(4, 201, 2);
    tw.push(4, 201, 3);
    tw.applyDue(4, s);
    expect(s[201]).toBe(3);
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

  it('negative control: a cancel that leaves the generation keeps its writes (the property fails)', () => {
    TimedWrites.keepCancelled = true;
    const r = check([{ k: 'push', dc: 2, slot: 3, v: 5 }, { k: 'cancel', slot: 3 }, { k: 'edge' }, { k: 'edge' }]);
    expect(r).not.toBeNull();
    expect(fc.check(fc.property(fc.array(deepArb, { minLength: 100, maxLength: 400 }), (ops) => check(ops) === null), { numRuns: 150, seed: 1 }).failed).toBe(true);
  });
});
