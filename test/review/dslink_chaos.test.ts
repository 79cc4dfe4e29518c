/**
 * Review of stop 21's DS-link fast paths (docs/kernel.md "Stop 21: review"):
 * wake on rise in the token layer (advance, the credit count, holdWake),
 * the link state machine's guarded txCount, the FIFOs' folded glue, token
 * and NULL trains. A pair with a loaded token train a -> b, b's sink
 * stalling (credit exhausted and refilled) and characters b -> a, in Run;
 * from there seeded random disturbances hit the reference and the fast copy
 * alike (test/lib/chaos_lockstep.ts: pokes of any register or wire, forces
 * released, snapshots restored in the same and the other mode, setMode both
 * ways) and every slot must be equal at every cycle; both run-idle modes
 * with trains ('nulls', 'one-null'). ICEMU_FULL=1: 200 seeds each. Negative control: the
 * same runs with the serialiser's hold wake-up off (DsTxSerialiser.noHoldWake)
 * are caught.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Module, Simulator } from '../../rtl/kernel/index.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import { DsTxSerialiser } from '../../rtl/dslink/tx_serialiser.ts';
import type { RunIdle } from '../../rtl/dslink/config.ts';
import { CharSink, CharSource } from '../dslink/bench.ts';
import { chaosLockstep, warmCopies } from '../lib/chaos_lockstep.ts';

const START = 2700; // the link is in Run from about 2,600
const T0 = 3000;

class ChaosBench extends Module {
  readonly pair: DsLinkPair;
  constructor(runIdle: RunIdle) {
    super(null, 'top');
    const pair = (this.pair = new DsLinkPair(this, 'link', { a: { runIdle }, b: { runIdle } }));
    new CharSource(this, 'srcA', pair.a, Array.from({ length: 400 }, (_, k) => (k * 37) & 255), [true], Array.from({ length: 400 }, () => START));
    new CharSource(this, 'srcB', pair.b, Array.from({ length: 60 }, (_, k) => k), [true], Array.from({ length: 60 }, (_, k) => START + 40 * k));
    new CharSink(this, 'sinkA', pair.a);
    new CharSink(this, 'sinkB', pair.b, [...Array<boolean>(30).fill(false), ...Array<boolean>(50).fill(true)]);
  }
}

/** Both copies warmed to T0 once per run-idle mode; each case restores them. */
const warm = new Map<RunIdle, () => { ref: Simulator; fast: Simulator }>();
function copies(runIdle: RunIdle): { ref: Simulator; fast: Simulator } {
  if (!warm.has(runIdle)) warm.set(runIdle, warmCopies((mode) => new Simulator(new ChaosBench(runIdle), { mode }), T0));
  return warm.get(runIdle)!();
}

afterEach(() => {
  DsTxSerialiser.noHoldWake = false;
});

describe('review: DS-link pair under random pokes, snapshots and mode switches', () => {
  for (const runIdle of ['nulls', 'one-null'] as const) {
    it(`runIdle ${runIdle}: fast = reference at every cycle`, { timeout: 600_000 }, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
          const { ref, fast } = copies(runIdle);
          expect(chaosLockstep(ref, fast, seed, { cycles: 400, rate: 0.05 }).diff).toBeUndefined();
        }),
        { numRuns: Number(process.env.ICEMU_FULL) ? 200 : 25 },
      );
    });
  }

  it('negative control: without the hold wake-up, pokes of tokLen are caught', { timeout: 600_000 }, () => {
    DsTxSerialiser.noHoldWake = true;
    let seen = 0;
    for (let seed = 1; seed <= 10 && seen === 0; seed++) {
      const { ref, fast } = copies('nulls');
      if (chaosLockstep(ref, fast, seed, { cycles: 300, rate: 0.2, kinds: ['poke'], pokeable: (s) => s.path === 'link.a.tokens.tokLen' }).diff) seen++;
    }
    expect(seen).toBeGreaterThan(0);
  });
});
