/**
 * Wake on rise in the DS-link token layer (docs/kernel.md "Stop 21: token
 * layer"): the token choice's `advance` and the credit count are woken by
 * their pulses' rises only (take; sendFct, sendNormal, gotFct, gotChar),
 * the serialiser wakes both when `take` stays 1 over an edge (holdWake), the
 * count clears its own error pulses by a wake-up, a still NULL train wakes
 * `advance` when it hands `take` back as 1, and the link state machine's
 * outputs read `txCount` only while flushing.
 *
 * Lock-step (fast copy against the reference mode, every wire and register
 * at every cycle: test/lib/lockstep_sim.ts) on a pair with a loaded token
 * train a → b, b's sink stalling (credit exhausted and refilled, FCTs owed)
 * and characters b → a, with a poke at each of 12 phases of a data token:
 * a 1-bit or no token offered (tokLen 1 / 0: `take` stays 1), `more` 0
 * mid-token, `take` 1, the credit pulses, the credit counters (a credit
 * error: an FCT beyond the cap; a character without credit), the link
 * enable dropping (ErrorReset); and a snapshot saved mid-train restored in
 * both copies. Negative controls: without the serialiser's hold wake-up
 * (DsTxSerialiser.noHoldWake) or the count's error-clearing wake-up
 * (DsCredit.noClearWake) the copies differ.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Module, SimError, type Signal } from '../../rtl/kernel/index.ts';
import { DsCredit } from '../../rtl/dslink/credit.ts';
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { S_ERROR_RESET } from '../../rtl/dslink/link_fsm.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import { DsTxSerialiser } from '../../rtl/dslink/tx_serialiser.ts';
import { Lockstep, runLockstep, runsSeen } from '../lib/lockstep_sim.ts';
import { CharSink, CharSource } from './bench.ts';

const START = 2700; // the link is in Run from ≈ 2,600
const T0 = 3100; // inside the loaded stream
const PHASES = 12;

class HoldBench extends Module {
  readonly pair: DsLinkPair;
  constructor() {
    super(null, 'top');
    const pair = (this.pair = new DsLinkPair(this, 'link', {}));
    new CharSource(this, 'srcA', pair.a, Array.from({ length: 120 }, (_, k) => (k * 37) & 255), [true], Array.from({ length: 120 }, () => START));
    new CharSource(this, 'srcB', pair.b, Array.from({ length: 20 }, (_, k) => k), [true], Array.from({ length: 20 }, (_, k) => START + 40 * k));
    new CharSink(this, 'sinkA', pair.a);
    // b pops in bursts: its buffer fills, a's credit runs out and comes back with FCTs
    new CharSink(this, 'sinkB', pair.b, [...Array<boolean>(30).fill(false), ...Array<boolean>(50).fill(true)]);
  }
}

type Poke = [string, (e: DsLinkEnd) => Signal, number];
const A = (u: HoldBench): DsLinkEnd => u.pair.a;
const B = (u: HoldBench): DsLinkEnd => u.pair.b;

const pokes: [string, (u: HoldBench) => DsLinkEnd, Poke][] = [
  ['a', A, ['tokLen 1 (a 1-bit token: take stays 1)', (e) => e.tokens.tokLen, 1]],
  ['a', A, ['tokLen 0 (no token: take stays 1)', (e) => e.tokens.tokLen, 0]],
  ['a', A, ['more 0 mid-token', (e) => e.ser.more, 0]],
  ['a', A, ['take 1', (e) => e.ser.take, 1]],
  ['a', A, ['sendNormal 1', (e) => e.credit.sendNormal, 1]],
  ['a', A, ['sendFct 1', (e) => e.credit.sendFct, 1]],
  ['b', B, ['gotChar 1', (e) => e.dec.gotChar, 1]],
  ['a', A, ['gotFct 1', (e) => e.dec.gotFct, 1]],
  ['a', A, ['txCredit at the cap (the next FCT: a credit error)', (e) => e.credit.txCredit, 56]],
  ['b', B, ['rxOut 0 (the next character: no credit, dropped)', (e) => e.credit.rxOut, 0]],
  ['a', A, ['state ErrorReset (enable drops)', (e) => e.fsm.state, S_ERROR_RESET]],
];

/** Lock-step from 0 to T0 + 150 with `act` before each step; a model error must be alike in both copies (Lockstep.step). */
function run(act: (ls: Lockstep<HoldBench>, c: number) => void): Lockstep<HoldBench> {
  return runLockstep(() => new HoldBench(), T0 + 150, act);
}

/** A reference copy run to T0 once, snapshot kept: each case restores it (both copies) rather than re-running the start-up. */
function fromSnapshot(act: (ls: Lockstep<HoldBench>, c: number) => void): Lockstep<HoldBench> {
  const ls = new Lockstep(() => new HoldBench());
  for (let c = 0; c < T0; c++) ls.step();
  const sP = ls.simP.save();
  const sA = ls.simA.save();
  const out = (): void => {
    for (let c = T0; c < T0 + 150; c++) {
      act(ls, c);
      try {
        ls.step();
      } catch (e) {
        if (e instanceof SimError) return;
        throw e;
      }
    }
  };
  // Restored once more: a snapshot saved mid-train, taken up in both copies.
  ls.simP.restore(sP);
  ls.simA.restore(sA);
  out();
  return ls;
}

/** Of the PHASES pokes of `sel` to v (one a run), how many the lock-step sees (the copies differ): for the negative controls. */
function phasesSeen(sel: (u: HoldBench) => Signal, v: number): number {
  return runsSeen(PHASES, (k) => run((l, c) => c === T0 + k && l.poke(sel, v)));
}

afterEach(() => {
  DsTxSerialiser.noHoldWake = false;
  DsCredit.noClearWake = false;
});

describe('DS-link wake on rise: lock-step with pokes at every phase of a token', () => {
  it('the stream is a token train at T0 and carries characters both ways', () => {
    const ls = run(() => {});
    expect(ls.active.pair.a.ser.tokTrain!.stats.tokens).toBeGreaterThan(50);
    expect(ls.active.pair.b.credit.txCredit).toBeDefined();
  });

  for (const [, end, [title, sel, v]] of pokes) {
    it(`${title}, at ${PHASES} phases: equal at every cycle`, () => {
      for (let k = 0; k < PHASES; k++) run((l, c) => c === T0 + k && l.poke((u) => sel(end(u)), v));
    });
  }

  it('a snapshot saved mid-train and restored in both copies, then a 1-bit token offered: equal at every cycle', () => {
    fromSnapshot((l, c) => c === T0 + 3 && l.poke((u) => u.pair.a.tokens.tokLen, 1));
  });

  it('negative control: without the serialiser waking advance and the count while take stays 1, the copies differ', () => {
    DsTxSerialiser.noHoldWake = true;
    expect(phasesSeen((u) => u.pair.a.tokens.tokLen, 1)).toBeGreaterThan(0);
  });

  it('negative control: without the count clearing its own error pulse, the copies differ', () => {
    DsCredit.noClearWake = true;
    expect(phasesSeen((u) => u.pair.b.credit.rxOut, 0)).toBeGreaterThan(0);
  });
});
