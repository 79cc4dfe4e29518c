/**
 * Stop 22's guards of the C104 output stage (rtl/c104/c104.ts,
 * registeredStage; docs/kernel.md "Stop 22: FIFOs and C104"): `blocked`
 * reads ov only while txReady is 0, the stage's edge reads txReady only
 * while ov is 1. The fast mode ('activity') equals the reference mode
 * ('plain') at every cycle, every slot, on one switch with stand-in link
 * ends (test/c104/switch_bench.ts) under hot-spot traffic, stalled far ends
 * and one-token output buffers (the thesis buffers: a full output buffer
 * with an empty output register, then a character arriving, is common).
 * Negative controls: each guard the wrong way round (C104_FAULT.blkBlind,
 * outBlind) is seen.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { C104_FAULT } from '../../rtl/c104/c104.ts';
import { makeC104Config } from '../../rtl/c104/config.ts';
import { compileTable, emptyTable } from '../../rtl/c104/interval_table.ts';
import { firstSlotDiff } from '../lib/lockstep_sim.ts';
import { SwitchBench } from './switch_bench.ts';

interface Traffic {
  packets: { src: number; dst: number; len: number }[];
  stalls: { link: number; until: number }[];
  charCycles: number;
}

const traffic: fc.Arbitrary<Traffic> = fc.record({
  packets: fc.array(fc.record({ src: fc.integer({ min: 0, max: 31 }), dst: fc.integer({ min: 0, max: 1 }), len: fc.integer({ min: 1, max: 20 }) }), { minLength: 4, maxLength: 24 }),
  stalls: fc.array(fc.record({ link: fc.integer({ min: 0, max: 7 }), until: fc.integer({ min: 0, max: 300 }) }), { maxLength: 4 }),
  charCycles: fc.integer({ min: 1, max: 3 }),
});

/** Labels 0..7 to groups of four links each. */
function table(): ReturnType<typeof compileTable> {
  const t = emptyTable('sw', 8);
  const groups = Array.from({ length: 8 }, (_, g) => [4 * g, 4 * g + 1, 4 * g + 2, 4 * g + 3]);
  return compileTable({ ...t, connected: new Array<boolean>(32).fill(true), groups, intervals: Array.from({ length: 8 }, (_, g) => ({ lo: g, hi: g, group: g })) });
}

/** Both modes side by side; the first differing slot as text, or undefined. */
function lockstep(tr: Traffic, cycles = 700): string | undefined {
  const [ref, fast] = (['plain', 'activity'] as const).map((mode) => {
    const b = new SwitchBench(table(), makeC104Config({ routingDelay: 0, buffers: 'thesis' }), tr.charCycles, false, mode);
    tr.packets.forEach((p, id) => b.send(p.src, [p.dst, id & 0xff, ...Array.from({ length: p.len }, (_, k) => (id + k) & 0xff), CHAR_EOP]));
    for (const s of tr.stalls) b.sinkHoldUntil[s.link] = s.until;
    return b;
  }) as [SwitchBench, SwitchBench];
  for (let c = 0; c < cycles; c++) {
    ref.step();
    fast.step();
    const d = firstSlotDiff(ref.sim, fast.sim);
    if (d) return `cycle ${c}: ${d.path} is ${d.a} in the reference mode, ${d.b} in the fast mode`;
  }
  expect(fast.out.some((o) => o.length > 0)).toBe(true);
  return undefined;
}

/**
 * A fixed case for the controls: eight inputs into one group, its far ends
 * stalled for a while, characters every third cycle (so an output register
 * drains into a one-token buffer that stays full while the next character
 * arrives: ov rises while txReady is 0).
 */
const hot: Traffic = {
  packets: Array.from({ length: 8 }, (_, k) => ({ src: 8 + k, dst: 0, len: 12 })),
  stalls: [{ link: 0, until: 120 }, { link: 1, until: 200 }],
  charCycles: 3,
};

describe('stop 22: the C104 output stage guards, fast = reference at every cycle', () => {
  it('random hot-spot traffic, stalls, one-token output buffers', () => {
    fc.assert(
      fc.property(traffic, (tr) => {
        expect(lockstep(tr)).toBeUndefined();
      }),
      { numRuns: 8 },
    );
  }, 120_000);

  it('the controls\' case without their fault', () => {
    expect(lockstep(hot)).toBeUndefined();
  });

  for (const key of ['blkBlind', 'outBlind'] as const) {
    it(`negative control: ${key} (the guard the wrong way round) is seen`, () => {
      C104_FAULT[key] = true;
      try {
        expect(lockstep(hot)).toMatch(/^cycle \d+: /);
      } finally {
        C104_FAULT[key] = false;
      }
    });
  }
});
