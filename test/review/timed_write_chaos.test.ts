/**
 * Review of stop 22 (docs/kernel.md "Stop 22: review"): the registers that
 * timed register writes change (rtl/kernel/timed_write.ts) — the DS-link
 * serialiser's `more` (token_train.ts post) and the decoder's output pulses
 * (rx_decoder.ts clearPulses) — and `take`, which wakes the serialiser on
 * its rise only, poked at random while writes are pending, between
 * snapshots restored in the same and the other mode and mode switches
 * (test/lib/chaos_lockstep.ts), on a DS-link pair with token trains both
 * ways (bursts a -> b, a trickle b -> a, b's sink stalling), both run-idle
 * modes: every slot equal at every cycle. Negative controls: `more` or the
 * decoder's pulses falling one edge late (DsTokenTrain.moreLate,
 * DsRxDecoder.clearLate) are caught. (Without take's rise wake-up,
 * DsTxSerialiser.noTakeRead, these random pokes were not caught in 100
 * seeds: test/dslink/take_hold.test.ts places that case.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Module, Simulator } from '../../rtl/kernel/index.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import { DsTokenTrain } from '../../rtl/dslink/token_train.ts';
import { DsRxDecoder } from '../../rtl/dslink/rx_decoder.ts';
import type { RunIdle } from '../../rtl/dslink/config.ts';
import { CharSink, CharSource } from '../dslink/bench.ts';
import { chaosLockstep, warmCopies } from '../lib/chaos_lockstep.ts';

const START = 2700; // the link is in Run from about 2,600
const POKED = /ser\.(more|take)$|dec\.(got|err|null)/;

class Bench extends Module {
  constructor(runIdle: RunIdle) {
    super(null, 'top');
    const pair = new DsLinkPair(this, 'link', { a: { runIdle }, b: { runIdle } });
    // Bursts of 25 characters with gaps: token trains start, hand over to NULLs and start again.
    new CharSource(this, 'srcA', pair.a, Array.from({ length: 400 }, (_, k) => (k * 37) & 255), [true], Array.from({ length: 400 }, (_, k) => START + (k % 50 < 25 ? 0 : 30 * k)));
    new CharSource(this, 'srcB', pair.b, Array.from({ length: 60 }, (_, k) => k), [true], Array.from({ length: 60 }, (_, k) => START + 40 * k));
    new CharSink(this, 'sinkA', pair.a);
    new CharSink(this, 'sinkB', pair.b, [...Array<boolean>(30).fill(false), ...Array<boolean>(50).fill(true)]);
  }
}

const warm = new Map<RunIdle, () => { ref: Simulator; fast: Simulator }>();
function copies(runIdle: RunIdle): { ref: Simulator; fast: Simulator } {
  if (!warm.has(runIdle)) warm.set(runIdle, warmCopies((mode) => new Simulator(new Bench(runIdle), { mode }), 3000));
  return warm.get(runIdle)!();
}

/** Seeds whose run differs, of `n`. */
function differing(runIdle: RunIdle, n: number, poked: RegExp): number {
  let bad = 0;
  for (let seed = 1; seed <= n; seed++) {
    const { ref, fast } = copies(runIdle);
    if (chaosLockstep(ref, fast, seed, { cycles: 600, rate: 0.08, pokeable: (s) => poked.test(s.path) }).diff) bad++;
  }
  return bad;
}

afterEach(() => {
  DsTokenTrain.moreLate = false;
  DsRxDecoder.clearLate = false;
});

describe('review: registers with timed writes pending, poked', () => {
  for (const runIdle of ['nulls', 'one-null'] as const) {
    it(`runIdle ${runIdle}: fast = reference at every cycle`, { timeout: 120_000 }, () => {
      expect(differing(runIdle, Number(process.env.ICEMU_FULL) ? 1000 : 100, POKED)).toBe(0);
    });
  }

  it('negative controls: `more` or the pulses falling one edge late are caught', { timeout: 120_000 }, () => {
    DsTokenTrain.moreLate = true;
    expect(differing('nulls', 5, POKED)).toBe(5);
    DsTokenTrain.moreLate = false;
    DsRxDecoder.clearLate = true;
    expect(differing('nulls', 5, POKED)).toBe(5);
  });
});
