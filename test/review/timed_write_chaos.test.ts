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
import { DsTokenTrain } from '../../rtl/dslink/token_train.ts';
import { DsRxDecoder } from '../../rtl/dslink/rx_decoder.ts';
import type { RunIdle } from '../../rtl/dslink/config.ts';
import { burstSeedsDiffering } from '../dslink/loaded_stream.ts';

const POKED = /ser\.(more|take)$|dec\.(got|err|null)/;

/** Seeds whose run differs, of `n` (the bench: loaded_stream.ts BurstBench). */
const differing = (runIdle: RunIdle, n: number, poked: RegExp): number => burstSeedsDiffering(runIdle, n, poked);

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
