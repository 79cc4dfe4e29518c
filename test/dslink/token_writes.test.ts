/**
 * Timed register writes in the DS-link token layer (docs/kernel.md "Stop 22:
 * token layer"): in a token train the serialiser's `more` falls at the edge
 * before each load by a timed write (token_train.ts post), not by a run of
 * the serialiser; the decoder's one-cycle output pulses (gotChar, gotFct,
 * gotNull, errParity, ...) fall by timed writes at the next edge, not by a
 * run of the decoder (rx_decoder.ts clearPulses); the serialiser reads
 * `take` on its rise (a poked take 1 before a load edge: holdWake).
 *
 * Lock-step (fast copy against the reference mode, every wire and register
 * at every cycle: test/lib/lockstep_sim.ts) on a pair with a loaded token
 * train a → b of data, EOP and EOM tokens, b's sink stalling in bursts
 * (credit exhausted and refilled, FCTs owed and sent) and characters b → a,
 * in both receive handovers ('checked': pulses at hdrV; 'on-arrival': at
 * tokV too), with, at each of 10 phases of a token: pokes of `more`,
 * `take`, `left`, each decoder pulse (1 and 0), `hdrP` (a parity error),
 * the link enable dropping (ErrorReset), a switch of the fast copy to the
 * reference mode and back; a snapshot saved mid-train with writes pending,
 * restored in both copies (and across modes).
 * Negative controls: `more` falling one edge late (DsTokenTrain.moreLate),
 * the decoder's pulses falling one edge late (DsRxDecoder.clearLate), the
 * serialiser not woken by take's rise (DsTxSerialiser.noTakeRead): each
 * fails the lock-step.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Signal } from '../../rtl/kernel/index.ts';
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { S_ERROR_RESET } from '../../rtl/dslink/link_fsm.ts';
import { DsRxDecoder, type RxHandover } from '../../rtl/dslink/rx_decoder.ts';
import { DsTokenTrain } from '../../rtl/dslink/token_train.ts';
import { DsTxSerialiser } from '../../rtl/dslink/tx_serialiser.ts';
import { Lockstep, runLockstep, runsSeen } from '../lib/lockstep_sim.ts';
import { WriteBench } from './loaded_stream.ts';

const T0 = 3150; // inside the loaded stream, b's sink stalling on and off
const PHASES = 10;
const LEN = 160;

type Act = (ls: Lockstep<WriteBench>, c: number) => void;

/** Lock-step from 0 to T0 + LEN with `act` before each step; a model error must be alike in both copies. */
function run(rxHandover: RxHandover, act: Act): Lockstep<WriteBench> {
  return runLockstep(() => new WriteBench(rxHandover), T0 + LEN, act);
}

const A = (u: WriteBench): DsLinkEnd => u.pair.a;
const B = (u: WriteBench): DsLinkEnd => u.pair.b;
const pokes: [string, (u: WriteBench) => Signal, number][] = [
  ['a more 0', (u) => A(u).ser.more, 0],
  ['a more 1', (u) => A(u).ser.more, 1],
  ['a take 1', (u) => A(u).ser.take, 1],
  ['a left 3', (u) => A(u).ser.left, 3],
  ['b gotChar 1', (u) => B(u).dec.gotChar, 1],
  ['b gotChar 0', (u) => B(u).dec.gotChar, 0],
  ['b gotNull 1', (u) => B(u).dec.gotNull, 1],
  ['a gotFct 1', (u) => A(u).dec.gotFct, 1],
  ['a gotFct 0', (u) => A(u).dec.gotFct, 0],
  ['b errParity 1', (u) => B(u).dec.errParity, 1],
  ['b hdrP flipped (a parity error)', (u) => B(u).deser.out.hdrP, 1],
  ['a state ErrorReset (enable drops)', (u) => A(u).fsm.state, S_ERROR_RESET],
  ['b state ErrorReset (enable drops)', (u) => B(u).fsm.state, S_ERROR_RESET],
];

/** Of the PHASES starts, how many the lock-step sees (the copies differ): for the negative controls. */
function phasesSeen(rxHandover: RxHandover, act: (k: number) => Act): number {
  return runsSeen(PHASES, (k) => run(rxHandover, act(k)));
}

afterEach(() => {
  DsTokenTrain.moreLate = false;
  DsRxDecoder.clearLate = false;
  DsTxSerialiser.noTakeRead = false;
});

describe('DS-link timed register writes: lock-step at every phase of a token', () => {
  for (const h of ['checked', 'on-arrival'] as const) {
    it(`${h}: the stream is a token train, credit runs out and comes back, the timed writes fire`, () => {
      // Over the poked phases: a's train active, tokens posted, b's credit for a exhausted somewhere in the window.
      let active = 0;
      let tokensAtT0 = 0;
      let noCredit = 0;
      const ls = run(h, (l, c) => {
        const a = l.active.pair.a;
        if (c === T0) tokensAtT0 = a.ser.tokTrain!.stats.tokens;
        if (c >= T0 && c < T0 + PHASES && a.ser.tokTrain!.active) active++;
        if (c >= T0 && l.simA.peek(a.credit.txCredit) === 0) noCredit++;
      });
      const a = ls.active.pair.a;
      expect(active).toBe(PHASES);
      expect(a.ser.tokTrain!.stats.tokens - tokensAtT0).toBeGreaterThan(8);
      expect(noCredit).toBeGreaterThan(0);
      const inner = ls.simA as unknown as { timedWrites: { appliedAt: number } };
      expect(inner.timedWrites.appliedAt).toBeGreaterThan(T0); // writes applied inside the window
    });

    for (const [title, sel, v] of pokes) {
      it(`${h}: ${title}, at ${PHASES} phases: equal at every cycle`, () => {
        for (let k = 0; k < PHASES; k++) run(h, (l, c) => c === T0 + k && l.poke(sel, v));
      });
    }

    it(`${h}: the fast copy switched to the reference mode and back, at ${PHASES} phases: equal at every cycle`, () => {
      for (let k = 0; k < PHASES; k++) {
        run(h, (l, c) => {
          if (c === T0 + k) l.simA.setMode('plain');
          if (c === T0 + k + 3 + (k % 4)) l.simA.setMode('activity');
        });
      }
    });

    it(`${h}: a snapshot saved mid-train (writes pending) at ${PHASES} phases, restored in both copies and across modes: equal at every cycle`, () => {
      for (let k = 0; k < PHASES; k++) {
        const ls = new Lockstep(() => new WriteBench(h));
        for (let c = 0; c < T0 + k; c++) ls.step();
        const sP = ls.simP.save();
        const sA = ls.simA.save();
        for (let c = 0; c < 40; c++) ls.step();
        // The fast snapshot into the reference copy and back: restored across modes.
        ls.simP.restore(sA);
        ls.simA.restore(sP);
        ls.simA.setMode('activity');
        for (let c = 0; c < 30; c++) ls.step();
        ls.simP.restore(sP);
        ls.simA.restore(sA);
        for (let c = 0; c < LEN; c++) ls.step();
      }
    });
  }

  it('some snapshot phases hold a pending write (the snapshot case covers them)', () => {
    let withPending = 0;
    const ls = new Lockstep(() => new WriteBench('checked'));
    for (let c = 0; c < T0; c++) ls.step();
    const inner = ls.simA as unknown as { timedWrites: { size: number } };
    for (let k = 0; k < PHASES; k++) {
      ls.step();
      if (inner.timedWrites.size > 0) withPending++;
    }
    expect(withPending).toBeGreaterThan(3);
  });

  it('negative control: `more` falling one edge late, the copies differ', () => {
    DsTokenTrain.moreLate = true;
    expect(phasesSeen('checked', () => () => {})).toBe(PHASES);
  });

  for (const h of ['checked', 'on-arrival'] as const) {
    it(`negative control (${h}): the decoder's pulses falling one edge late, the copies differ`, () => {
      DsRxDecoder.clearLate = true;
      expect(phasesSeen(h, () => () => {})).toBe(PHASES);
    });
  }

  it('negative control: the serialiser not woken by take rising, a poked take 1 is seen', () => {
    DsTxSerialiser.noTakeRead = true;
    expect(phasesSeen('checked', (k) => (l, c) => c === T0 + k && l.poke((u) => A(u).ser.take, 1))).toBeGreaterThan(0);
  });
});
