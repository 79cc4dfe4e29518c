/**
 * The VLC's round robin alone (rtl/t9000/vlc_pick.ts): on random work lists,
 * wants and pointers, both rules ('pass', the default, and 'scan', the
 * reference) give per link the VL nearest at or after the link's pointer
 * among the wanting VLs of that link, as a plain model computes it. The
 * pointers are registers whose slots are known only once a design is
 * elaborated, so the test gives them their slots after building the picker
 * (stop 24's split first read them at construction, where every slot is
 * still −1: the pointers were lost, which the mesh lock-step rarely sees,
 * since two VLs of one link seldom want in the same cycle; the exact Table
 * 4.3 rates of test/experiments/c104-table43 caught it). Control: a picker
 * that reads its pointers as 0 fails the same check.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NO_CANDIDATE, VlcPick } from '../../rtl/t9000/vlc_pick.ts';

interface Case {
  V: number;
  L: number;
  vlLink: number[];
  work: number[];
  ackWant: number[];
  cand: number[];
  rrAck: number[];
  rrData: number[];
}

const caseArb = fc
  .record({ V: fc.integer({ min: 1, max: 24 }), L: fc.integer({ min: 1, max: 4 }) })
  .chain(({ V, L }) =>
    fc.record({
      V: fc.constant(V),
      L: fc.constant(L),
      vlLink: fc.array(fc.integer({ min: 0, max: L - 1 }), { minLength: V, maxLength: V }),
      work: fc.shuffledSubarray([...Array(V).keys()]),
      ackWant: fc.array(fc.integer({ min: 0, max: 1 }), { minLength: V, maxLength: V }),
      cand: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: V, maxLength: V }),
      rrAck: fc.array(fc.integer({ min: 0, max: V - 1 }), { minLength: L, maxLength: L }),
      rrData: fc.array(fc.integer({ min: 0, max: V - 1 }), { minLength: L, maxLength: L }),
    }),
  );

/** The plain model: per link, the wanting VL of that link nearest at or after `from`, cyclically. */
function model(c: Case, want: (v: number) => boolean, k: number, from: number): number {
  for (let d = 0; d < c.V; d++) {
    const v = (from + d) % c.V;
    if (c.work.includes(v) && c.vlLink[v] === k && want(v)) return v;
  }
  return -1;
}

function check(c: Case, rule: 'pass' | 'scan', pointersAsZero = false): void {
  // Registers built before elaboration: slot −1 until the design is elaborated.
  const regs = Array.from({ length: 2 * c.L }, () => ({ i: -1 }));
  const rrAck = regs.slice(0, c.L);
  const rrData = regs.slice(c.L);
  const pick = new VlcPick(c.V, c.L, c.vlLink, false);
  const s = new Float64Array(3 + 2 * c.L);
  regs.forEach((r, j) => {
    r.i = 3 + j; // elaborated: the slots are known now
    s[r.i] = pointersAsZero ? 0 : j < c.L ? c.rrAck[j]! : c.rrData[j - c.L]!;
  });
  const work = Int32Array.from(c.work);
  pick.pick(rule, s, rrAck, rrData, work, c.work.length, Uint8Array.from(c.ackWant), Uint8Array.from(c.cand));
  for (let k = 0; k < c.L; k++) {
    expect(pick.bestAck[k], `ack pick of link ${k}`).toBe(model(c, (v) => c.ackWant[v] !== 0, k, c.rrAck[k]!));
    expect(pick.bestData[k], `data pick of link ${k}`).toBe(model(c, (v) => c.cand[v] !== NO_CANDIDATE, k, c.rrData[k]!));
  }
}

describe('VlcPick (the VLC round robin alone)', () => {
  it("both rules pick per link the wanting VL nearest at or after the link's pointer", () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        check(c, 'pass');
        check(c, 'scan');
      }),
      { numRuns: 500 },
    );
  });

  it('control: a picker that reads its pointers as 0 fails the same check', () => {
    for (const rule of ['pass', 'scan'] as const) {
      const r = fc.check(fc.property(caseArb, (c) => check(c, rule, true)), { numRuns: 500 });
      expect(r.failed, rule).toBe(true);
    }
  });
});
