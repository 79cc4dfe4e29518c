/**
 * A poke while a NULL train records its period (rtl/dslink/null_train.ts:
 * the train records the registers of both ends over a few NULL periods,
 * then replays them): the poked value sat in a recorded row, the train
 * replayed it a period later, and the fast copy differed from the reference
 * (docs/kernel.md "Stop 21: review"; found by the review's chaos lock-step,
 * test/review/dslink_chaos.test.ts; older than stop 21). The kernel thaws a
 * poked slot's owner first; the train's thaw now also drops a recording in
 * progress. A pair with a stream a -> b and sparse characters b -> a (b's
 * direction idles on NULLs between them, where its train records); the
 * poke, flipping bit 0 of a register of b's serialiser or a's receiver, at
 * each cycle 6 to 40 cycles after the fast copy spent 5 cycles in the
 * reference mode (back in the fast mode, b's train records afresh: the
 * failing case, a busy flip 13 cycles after, differed at the next period);
 * fast = reference at every cycle for 60 cycles after.
 * Negative control: the same pokes done only in the fast copy are seen.
 */
import { describe, expect, it } from 'vitest';
import { Module, Simulator } from '../../rtl/kernel/index.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import { CharSink, CharSource } from './bench.ts';
import { firstSlotDiff } from '../lib/lockstep_sim.ts';

const START = 2700;
const T0 = 3000;

class IdleBench extends Module {
  constructor() {
    super(null, 'top');
    const pair = new DsLinkPair(this, 'link', {});
    new CharSource(this, 'srcA', pair.a, Array.from({ length: 400 }, (_, k) => (k * 37) & 255), [true], Array.from({ length: 400 }, () => START));
    new CharSource(this, 'srcB', pair.b, Array.from({ length: 60 }, (_, k) => k), [true], Array.from({ length: 60 }, (_, k) => START + 40 * k));
    new CharSink(this, 'sinkA', pair.a);
    new CharSink(this, 'sinkB', pair.b, [...Array<boolean>(30).fill(false), ...Array<boolean>(50).fill(true)]);
  }
}

const ref = new Simulator(new IdleBench(), { mode: 'plain' });
const fast = new Simulator(new IdleBench(), { mode: 'activity' });
ref.step(T0);
fast.step(T0);
const saved = { p: ref.save(), a: fast.save() };

/**
 * Restored to T0; the fast copy in the reference mode over cycles sw..sw+5
 * (back in the fast mode, b's NULL train records afresh); at t, `path`
 * flipped (bit 0) in the fast copy and, unless `fastOnly`, the reference
 * copy; the first difference within 60 cycles.
 */
function flipAt(path: string, sw: number, t: number, fastOnly = false): string | undefined {
  ref.restore(saved.p);
  fast.restore(saved.a);
  ref.step(sw - T0);
  fast.step(sw - T0);
  fast.setMode('plain');
  ref.step(5);
  fast.step(5);
  fast.setMode('activity');
  ref.step(t - sw - 5);
  fast.step(t - sw - 5);
  const v = ref.peek(path) ^ 1;
  if (!fastOnly) ref.poke(path, v);
  fast.poke(path, v);
  for (let c = 0; c < 60; c++) {
    ref.step();
    fast.step();
    const d = firstSlotDiff(ref, fast);
    if (d) return `poke at ${t}: cycle ${ref.cycle}: ${d.path} reference ${d.a} fast ${d.b}`;
  }
  return undefined;
}

const registers = ['link.b.ser.busy', 'link.a.dec.pendKind', 'link.a.dec.gotNull', 'link.a.dec.unchecked', 'link.a.deser.discCnt'];

describe('a poke while a NULL train records', () => {
  for (const path of registers) {
    it(`${path} flipped 6 to 40 cycles after a stretch in the reference mode (4 places): fast = reference`, () => {
      for (const sw of [T0, T0 + 31, T0 + 62, T0 + 82]) for (let t = sw + 6; t <= sw + 40; t++) expect(flipAt(path, sw, t)).toBeUndefined();
    }, 300_000);
  }

  it('negative control: the flip in the fast copy only is seen', () => {
    expect(flipAt('link.a.dec.pendKind', T0, T0 + 20, true)).toBeDefined();
  });
});

/**
 * A forced tokBits wider than a NULL at a load edge of an idle direction
 * (a token train posting the NULLs it waits on, token_train.ts idleNull):
 * the train posted the 8-bit NULL with the word's high bits and the line
 * refused it (`b.line.send: word 409 does not fit 8 bits`) where the
 * reference mode shifts the 8 low bits; such a word is no idle NULL now (as
 * mayPost already ruled for tokens), so the units go bit by bit. Poked at
 * each of 120 cycles: both copies alike at every cycle, a model error alike
 * in both (docs/kernel.md "Stop 21: review").
 */
describe('a forced tokBits wider than a NULL', () => {
  it('poked to 409 at each of 120 cycles: fast = reference (errors alike)', () => {
    for (let t = T0; t < T0 + 120; t++) {
      ref.restore(saved.p);
      fast.restore(saved.a);
      ref.step(t - T0);
      fast.step(t - T0);
      ref.poke('link.b.tokens.tokBits', 409);
      fast.poke('link.b.tokens.tokBits', 409);
      for (let c = 0; c < 40; c++) {
        const err = (sim: Simulator): string => {
          try {
            sim.step();
            return '';
          } catch (e) {
            return String(e);
          }
        };
        const eP = err(ref);
        const eA = err(fast);
        expect(eA, `poke at ${t}`).toBe(eP);
        if (eP) break;
        expect(firstSlotDiff(ref, fast), `poke at ${t}`).toBeNull();
      }
    }
  }, 300_000);
});

