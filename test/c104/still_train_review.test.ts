/**
 * Still NULL trains (rtl/dslink/null_train.ts, docs/dslink.md#still-trains)
 * on C104 meshes, unobserved: test/c104/fast_reference.test.ts compares
 * every value at every cycle, and its compare writes every on-demand value
 * (the serialiser's `more` and `take` of a still train among them) into the
 * state vector each cycle, so there the token choice would read a right
 * `take` even if the train never handed it back. Here the fast run is looked
 * at only every 97 to 389 cycles (as a bench run is): sparse messages with
 * long idle gaps on a 2x2 and a 3x3 mesh (node addressing, held sends), so
 * links go still between messages and are woken by the headers, acks and
 * FCTs; equal to the reference at each look (every wire, register and
 * control-block word), the same event trace and deliveries at the end.
 * Negative control: the hand-back one cycle late (`lateHandBack`) is seen.
 * (test/dslink/still_train_review.test.ts has the pair's review.)
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { meshNetwork } from '../../rtl/c104/labelling.ts';
import { DsLinkEnd } from '../../rtl/dslink/index.ts';
import { DsNullTrain } from '../../rtl/dslink/null_train.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import { firstSlotDiff } from '../lib/lockstep_sim.ts';
import { blockMemories, firstBlockDiff, pairChannels, pairMessages, postPairMessages, type PairMessage } from './system_check.ts';

interface Case {
  side: 2 | 3;
  msgs: PairMessage[];
  gaps: number[];
}

function build(c: Case, mode: 'plain' | 'activity'): C104System {
  const T = c.side * c.side;
  const { msgs, pairs } = pairMessages(c.msgs, T);
  const spec = meshNetwork({ w: c.side, h: c.side, routing: 'x-first', labelsPerNode: 1 });
  const channels = pairChannels(spec, pairs, T, true);
  const sys = makeC104System(spec, channels, { mode, t9000: { addressing: 'node' } });
  sys.driver.holdWhenFull = true;
  postPairMessages(sys, channels, msgs);
  return sys;
}

/** Sum of a still-train statistic over every link direction of a run. */
function stillStats(s: C104System): { stilled: number; handedBack: number; atBoundary: number } {
  const r = { stilled: 0, handedBack: 0, atBoundary: 0 };
  for (const m of s.sim.net.modules) {
    const t = m instanceof DsLinkEnd ? m.ser.txTrain : null;
    if (t) for (const k of ['stilled', 'handedBack', 'atBoundary'] as const) r[k] += t.stats[k];
  }
  return r;
}

/** The first difference at a look (or in the traces at the end), or undefined; the fast run's still-train counts. */
function unobserved(c: Case, cycles: number): { diff: string | undefined; stats: ReturnType<typeof stillStats>; delivered: number } {
  const ref = build(c, 'plain');
  const fast = build(c, 'activity');
  const rb = blockMemories(ref.sim);
  const fb = blockMemories(fast.sim);
  const out = (diff: string | undefined) => ({ diff, stats: stillStats(fast), delivered: fast.rec.deliveries.length });
  for (let k = 0; ref.sim.cycle < cycles; k++) {
    const n = c.gaps[k % c.gaps.length]!;
    ref.sim.step(n);
    fast.sim.step(n);
    const d = firstSlotDiff(ref.sim, fast.sim);
    if (d) return out(`cycle ${ref.sim.cycle}: ${d.path} reference ${d.a} fast ${d.b}`);
    const m = firstBlockDiff(rb, fb);
    if (m) return out(`cycle ${ref.sim.cycle}: ${m}`);
  }
  if (JSON.stringify(ref.rec.events) !== JSON.stringify(fast.rec.events)) return out('event traces differ');
  if (JSON.stringify(ref.rec.deliveries) !== JSON.stringify(fast.rec.deliveries)) return out('deliveries differ');
  return out(undefined);
}

/** Sparse messages: each starts 150 to 900 cycles after the previous one (links go still in between). */
const msgsArb = fc
  .array(fc.record({ src: fc.nat(8), dst: fc.nat(8), len: fc.integer({ min: 4, max: 24 }), gap: fc.integer({ min: 150, max: 900 }) }), { minLength: 2, maxLength: 6 })
  .map((xs) => {
    let at = 0;
    return xs.map(({ gap, ...m }) => ({ ...m, at: (at += gap) }));
  });
const gapsArb = fc.array(fc.integer({ min: 97, max: 389 }), { minLength: 1, maxLength: 5 });

afterEach(() => {
  DsNullTrain.lateHandBack = 0;
});

describe('C104 meshes, still NULL trains unobserved: fast mode = reference mode at each look', () => {
  it('2x2 mesh, random sparse messages', () => {
    let handedBack = 0;
    fc.assert(
      fc.property(msgsArb, gapsArb, (msgs, gaps) => {
        const r = unobserved({ side: 2, msgs, gaps }, 2500 + msgs.at(-1)!.at + 900);
        expect(r.diff).toBeUndefined();
        expect(r.delivered).toBeGreaterThan(0);
        expect(r.stats.stilled).toBeGreaterThan(20);
        handedBack += r.stats.handedBack;
      }),
      { numRuns: 4 },
    );
    expect(handedBack).toBeGreaterThan(20);
  }, 600_000);

  it('3x3 mesh, random sparse messages', () => {
    let handedBack = 0;
    fc.assert(
      fc.property(msgsArb, gapsArb, (msgs, gaps) => {
        const r = unobserved({ side: 3, msgs, gaps }, 2500 + msgs.at(-1)!.at + 900);
        expect(r.diff).toBeUndefined();
        expect(r.delivered).toBeGreaterThan(0);
        handedBack += r.stats.handedBack;
      }),
      { numRuns: 2 },
    );
    expect(handedBack).toBeGreaterThan(10);
  }, 600_000);

  const fixed: Case = {
    side: 2,
    msgs: [
      { src: 0, dst: 2, len: 12, at: 0 },
      { src: 3, dst: 1, len: 8, at: 400 },
      { src: 1, dst: 0, len: 16, at: 900 },
    ],
    gaps: [211, 97],
  };

  it('negative control: the hand-back one cycle late is seen', () => {
    DsNullTrain.lateHandBack = 1;
    expect(unobserved(fixed, 4200).diff).toMatch(/^cycle \d+|differ/);
  }, 120_000);
});
