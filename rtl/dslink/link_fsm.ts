/**
 * Link state machine of a DS-link end (SpaceWire Light's spwlink without the
 * credit counters, which are in credit.ts). Reading: docs/dslink.md#link-state-machine
 * and #errors (spec §16 V6).
 *
 *   ErrorReset  (resetCycles) transmitter and receiver off; after an error in
 *               Run the transmit buffer is flushed here, one character a cycle
 *   ErrorWait   (waitCycles) receiver on
 *   Ready       waits for linkStart (or, with autoStart, a received NULL)
 *   Started     transmits NULLs; a received NULL → Connecting; timeout → ErrorReset
 *   Connecting  may send FCTs; a received FCT → Run; timeout → ErrorReset
 *   Run         normal characters flow
 * Errors (disconnect, parity, escape, credit), in any state with the receiver
 * on, go to a named one-cycle error state (ErrDisconnect, ErrParity,
 * ErrEscape, ErrCredit) that counts what was lost and then to ErrorReset.
 * An unexpected FCT or character before Run goes straight to ErrorReset, as
 * in SpaceWire (a start-up failure, not a link error).
 *
 * Run idle (config runIdle 'one-null'/'silent', docs/dslink.md#run-idle): a
 * still link in Run is normal, so in Run the deserialiser's disconnect is
 * ignored and a NULL pair from the decoder (`nullPair`: the far end is in
 * start-up again) is the disconnect instead. Start-up states keep the
 * disconnect timeout: NULLs still flow there.
 *
 * Lost (counted in the error state, docs/dslink.md#errors): if the error came
 * in Run, lostTx = characters in the transmit buffer + a normal token of which
 * not every bit was sent; always, lostRx = a received character held for its
 * parity check + a character dropped for lack of credit. The far end counts
 * its own side, so the two ends' counts add up to what the link lost.
 *
 * Ports:
 *  inputs   linkStart; gotNull, gotFct, gotChar, disc, errParity, errEscape,
 *           errCredit, errOverrun; nullPair (quiet run idle only); txCount (transmit buffer fill),
 *           normalOnWire, serLeft[4] (tx units), pendKind[2] (decoder)
 *  outputs (comb) txEnable, rxEnable, fctAllowed, run, creditClear,
 *           flushPop (pop the transmit buffer to flush it), txBlock (the
 *           core may not push: error state or flushing), running
 *  registers state (enum LINK_STATES), timer, errCount[16], lastError (enum
 *           LINK_ERRORS), lastLostTx, lastLostRx, lostTotal[32], fromRun,
 *           overrun, flushing
 */
import { bitsToHold } from '../lib/check.ts';
import { Module, type Signal } from '../kernel/module.ts';
import type { DsLinkTiming } from './config.ts';
import { PEND_CHAR } from './rx_decoder.ts';

export const LINK_STATES = ['ErrorReset', 'ErrorWait', 'Ready', 'Started', 'Connecting', 'Run', 'ErrDisconnect', 'ErrParity', 'ErrEscape', 'ErrCredit'] as const;
export type LinkStateName = (typeof LINK_STATES)[number];
export const S_ERROR_RESET = 0;
export const S_ERROR_WAIT = 1;
export const S_READY = 2;
export const S_STARTED = 3;
export const S_CONNECTING = 4;
export const S_RUN = 5;
/** First named error state; error kind k (1..4) is state S_ERR_BASE + k - 1. */
export const S_ERR_BASE = 6;

export const LINK_ERRORS = ['none', 'disconnect', 'parity', 'escape', 'credit'] as const;
export type LinkErrorKind = Exclude<(typeof LINK_ERRORS)[number], 'none'>;

const TWO32 = 4294967296;

export class DsLinkFsm extends Module {
  readonly linkStart: Signal;
  readonly gotNull: Signal;
  readonly gotFct: Signal;
  readonly gotChar: Signal;
  readonly disc: Signal;
  readonly errParity: Signal;
  readonly errEscape: Signal;
  readonly errCredit: Signal;
  readonly errOverrun: Signal;
  readonly nullPair: Signal | null;
  readonly txCount: Signal;
  readonly normalOnWire: Signal;
  readonly serLeft: Signal;
  readonly pendKind: Signal;
  readonly txEnable: Signal;
  readonly rxEnable: Signal;
  readonly fctAllowed: Signal;
  readonly run: Signal;
  readonly creditClear: Signal;
  readonly flushPop: Signal;
  readonly txBlock: Signal;
  readonly running: Signal;
  readonly state: Signal;
  readonly timer: Signal;
  readonly errCount: Signal;
  readonly lastError: Signal;
  readonly lastLostTx: Signal;
  readonly lastLostRx: Signal;
  readonly lostTotal: Signal;
  readonly fromRun: Signal;
  readonly overrun: Signal;
  readonly flushing: Signal;

  constructor(parent: Module | null, name: string, opts: { timing: DsLinkTiming; txDepth: number; autoStart: boolean; quietRun?: boolean }) {
    super(parent, name);
    const { resetCycles, waitCycles, connectCycles } = opts.timing;
    const txDepth = opts.txDepth;
    const autoStart = opts.autoStart;
    const linkStart = (this.linkStart = this.input('linkStart'));
    const gotNull = (this.gotNull = this.input('gotNull'));
    const gotFct = (this.gotFct = this.input('gotFct'));
    const gotChar = (this.gotChar = this.input('gotChar'));
    const disc = (this.disc = this.input('disc'));
    const errParity = (this.errParity = this.input('errParity'));
    const errEscape = (this.errEscape = this.input('errEscape'));
    const errCredit = (this.errCredit = this.input('errCredit'));
    const errOverrun = (this.errOverrun = this.input('errOverrun'));
    const nullPair = (this.nullPair = opts.quietRun ? this.input('nullPair') : null);
    const txCount = (this.txCount = this.input('txCount', bitsToHold(txDepth)));
    const normalOnWire = (this.normalOnWire = this.input('normalOnWire'));
    const serLeft = (this.serLeft = this.input('serLeft', 4));
    const pendKind = (this.pendKind = this.input('pendKind', 2));
    const txEnable = (this.txEnable = this.output('txEnable'));
    const rxEnable = (this.rxEnable = this.output('rxEnable'));
    const fctAllowed = (this.fctAllowed = this.output('fctAllowed'));
    const run = (this.run = this.output('run'));
    const creditClear = (this.creditClear = this.output('creditClear'));
    const flushPop = (this.flushPop = this.output('flushPop'));
    const txBlock = (this.txBlock = this.output('txBlock'));
    const running = (this.running = this.output('running'));
    const state = (this.state = this.reg('state', 4, S_ERROR_RESET, { enum: LINK_STATES }));
    const tmax = Math.max(resetCycles, waitCycles, connectCycles);
    const timer = (this.timer = this.reg('timer', bitsToHold(tmax), resetCycles - 1));
    const errCount = (this.errCount = this.reg('errCount', 16));
    const lastError = (this.lastError = this.reg('lastError', 3, 0, { enum: LINK_ERRORS }));
    const lastLostTx = (this.lastLostTx = this.reg('lastLostTx', bitsToHold(txDepth + 1)));
    const lastLostRx = (this.lastLostRx = this.reg('lastLostRx', 2));
    const lostTotal = (this.lostTotal = this.reg('lostTotal', 32));
    const fromRun = (this.fromRun = this.reg('fromRun'));
    const overrun = (this.overrun = this.reg('overrun'));
    const flushing = (this.flushing = this.reg('flushing'));

    this.comb(
      () => {
        const s = this.s;
        const st = s[state.i]!;
        const fl = s[flushing.i] === 1;
        s[txEnable.i] = st === S_STARTED || st === S_CONNECTING || st === S_RUN ? 1 : 0;
        s[rxEnable.i] = st >= S_ERROR_WAIT && st <= S_RUN ? 1 : 0;
        s[fctAllowed.i] = st === S_CONNECTING || st === S_RUN ? 1 : 0;
        s[run.i] = st === S_RUN ? 1 : 0;
        s[running.i] = st === S_RUN ? 1 : 0;
        s[creditClear.i] = st === S_CONNECTING || st === S_RUN ? 0 : 1;
        // txCount matters only while flushing (a guarded read: not re-run per character queued, docs/kernel.md "Stop 21: token layer").
        s[flushPop.i] = fl && s[txCount.i]! > 0 ? 1 : 0;
        s[txBlock.i] = fl || st >= S_ERR_BASE ? 1 : 0;
      },
      { writes: [txEnable, rxEnable, fctAllowed, run, running, creditClear, flushPop, txBlock], reads: [state, flushing], readsWhen: [{ when: flushing, is: [1], reads: [txCount] }], name: 'outputs' },
    );

    this.seq(
      () => {
        const s = this.s;
        const st = s[state.i]!;
        const t = s[timer.i]!;
        const go = (next: number, time: number): void => {
          s[state.n] = next;
          s[timer.n] = time;
        };
        if (st === S_ERROR_RESET) {
          const n = s[txCount.i]!;
          const fl = s[flushing.i] === 1;
          if (fl) s[flushing.n] = n > 1 ? 1 : 0;
          if (t > 0) s[timer.n] = t - 1;
          else if (!fl || n <= 1) go(S_ERROR_WAIT, waitCycles - 1);
          return;
        }
        if (st >= S_ERR_BASE) {
          const kind = st - S_ERR_BASE + 1;
          const fr = s[fromRun.i] === 1;
          const partial = s[normalOnWire.i] === 1 && s[serLeft.i]! > 0 ? 1 : 0;
          const n = s[txCount.i]!;
          const lostTx = fr ? n + partial : 0;
          const lostRx = (s[pendKind.i] === PEND_CHAR ? 1 : 0) + s[overrun.i]!;
          s[lastError.n] = kind;
          s[errCount.n] = (s[errCount.i]! + 1) % 65536;
          s[lastLostTx.n] = lostTx;
          s[lastLostRx.n] = lostRx;
          s[lostTotal.n] = (s[lostTotal.i]! + lostTx + lostRx) % TWO32;
          s[flushing.n] = fr && n > 0 ? 1 : 0;
          go(S_ERROR_RESET, resetCycles - 1);
          return;
        }
        // Receiver on: ErrorWait .. Run.
        // quiet run idle: in Run a still link is no disconnect, a NULL pair is
        const lost = nullPair && st === S_RUN ? s[nullPair.i] === 1 : s[disc.i] === 1;
        const kind = lost ? 1 : s[errParity.i] === 1 ? 2 : s[errEscape.i] === 1 ? 3 : s[errCredit.i] === 1 ? 4 : 0;
        if (kind) {
          s[fromRun.n] = st === S_RUN ? 1 : 0;
          s[overrun.n] = s[errOverrun.i]!;
          go(S_ERR_BASE + kind - 1, 0);
          return;
        }
        const fct = s[gotFct.i] === 1;
        const ch = s[gotChar.i] === 1;
        const nul = s[gotNull.i] === 1;
        switch (st) {
          case S_ERROR_WAIT:
            if (fct || ch) go(S_ERROR_RESET, resetCycles - 1);
            else if (t > 0) s[timer.n] = t - 1;
            else go(S_READY, 0);
            return;
          case S_READY:
            if (fct || ch) go(S_ERROR_RESET, resetCycles - 1);
            else if (s[linkStart.i] === 1 || (autoStart && nul)) go(S_STARTED, connectCycles - 1);
            return;
          case S_STARTED:
            if (fct || ch) go(S_ERROR_RESET, resetCycles - 1);
            else if (nul) go(S_CONNECTING, connectCycles - 1);
            else if (t > 0) s[timer.n] = t - 1;
            else go(S_ERROR_RESET, resetCycles - 1);
            return;
          case S_CONNECTING:
            if (ch) go(S_ERROR_RESET, resetCycles - 1);
            else if (fct) go(S_RUN, 0);
            else if (t > 0) s[timer.n] = t - 1;
            else go(S_ERROR_RESET, resetCycles - 1);
            return;
          default:
            return; // Run: only errors leave it
        }
      },
      {
        name: 'fsm',
        // Exact sensitivity (docs/kernel.md "Exact sensitivity"): in Run the
        // state machine waits only for an error, so the received-token pulses
        // (every NULL, FCT, character) and the transmitter's bit count (every
        // cycle) wake it only in the states that read them.
        reads: [state, timer, flushing, fromRun, overrun, errCount, lostTotal, linkStart, disc, errParity, errEscape, errCredit, errOverrun, ...(nullPair ? [nullPair] : [])],
        readsWhen: [
          { when: state, is: [S_ERROR_WAIT, S_READY, S_STARTED, S_CONNECTING], reads: [gotNull, gotFct, gotChar] },
          { when: state, is: [S_ERROR_RESET, ...LINK_STATES.slice(S_ERR_BASE).map((_, k) => S_ERR_BASE + k)], reads: [txCount, normalOnWire, serLeft, pendKind] },
        ],
      },
    );
  }
}
