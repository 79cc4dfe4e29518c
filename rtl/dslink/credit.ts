/**
 * Credit (FCT) flow control of a DS-link end (docs/dslink.md#credit; spec
 * §16 V5; SpaceWire Light keeps the same counters in spwlink).
 *
 * Transmit side: `txCredit`, the normal characters this end may still send.
 * A received FCT adds 8; more than `creditCap` is a credit error. Each
 * normal token taken by the serialiser uses one.
 * Receive side: `rxOut`, the credit this end has granted and not yet seen
 * used. An FCT is owed when the receive buffer has 8 places beyond what is
 * already promised, and granting it keeps the promise within the cap:
 *     fctOwed = rxDepth − rxCount − rxOut ≥ 8  and  rxOut + 8 ≤ creditCap
 * so the FCTs sent since the link started equal
 *     min(⌊(rxDepth + freed)/8⌋, ⌊(creditCap + received)/8⌋) (at rest),
 * where freed counts places the core popped and received the normal
 * characters the far end sent (docs/dslink.md#credit).
 * A character received with no credit granted (rxOut = 0) is a credit error
 * too (the sender overran its credit) and is not put into the buffer.
 * Both counters are cleared whenever the link is not Connecting or Run.
 *
 * Ports:
 *  inputs   clear; gotFct, gotChar (decoder); sendFct, sendNormal (tx tokens);
 *           rxCount (receive buffer fill)
 *  outputs  fctOwed (comb)
 *           creditOk (txCredit > 0), rxAccept (rxOut > 0): registers written
 *           with the counters at the same edge, so equal to those comparisons
 *           at every cycle (one cycle behind only after a poke of a counter,
 *           until the next edge: docs/dslink.md#credit-flags)
 *           errCredit, errOverrun (registers, one-cycle pulses; errOverrun:
 *           the credit error was a character without credit, which was dropped)
 *  registers txCredit, rxOut; rxOutHigh (rxOut > rxDepth − 8: no FCT can be
 *           owed, whatever the buffer holds), written with rxOut, the guard
 *           of `status` (docs/dslink.md#owed-guard)
 */
import { bitsToHold } from '../lib/check.ts';
import { Module, type ProcessDecl, type Signal } from '../kernel/module.ts';

export class DsCredit extends Module {
  readonly clear: Signal;
  readonly gotFct: Signal;
  readonly gotChar: Signal;
  readonly sendFct: Signal;
  readonly sendNormal: Signal;
  readonly rxCount: Signal;
  readonly fctOwed: Signal;
  readonly creditOk: Signal;
  readonly rxAccept: Signal;
  readonly errCredit: Signal;
  readonly errOverrun: Signal;
  readonly txCredit: Signal;
  readonly rxOut: Signal;
  /** rxOut > rxDepth − 8, a register the count writes with rxOut (null with `statusPlain` or `flagsComb`). */
  readonly rxOutHigh: Signal | null;
  private readonly bindSlots: () => void;
  /** The count process (woken on its pulses' rises; the serialiser wakes it while `take` stays 1). */
  readonly countProc: ProcessDecl;
  /** The counters' update at an edge (the count process less its pulse bookkeeping). */
  private readonly count: (s: Float64Array) => void;
  /** Negative controls only (tests): the count woken by the pulses' falls too (as before stop 21); no wake-up to clear its error pulses. */
  static countOnFall = false;
  static noClearWake = false;
  /** creditOk and rxAccept computed by the comb `status` process, as before stop 23 (tests count both; docs/kernel.md "Stop 23: token layer"). */
  static flagsComb = false;
  /** Negative control only (tests): the count writes creditOk and rxAccept from the counters before this edge's update. */
  static flagsStale = false;
  /**
   * `status` woken by every change of rxOut and rxCount, as before stop 25
   * (the reference; docs/kernel.md "Stop 25: token layer"). Default false:
   * it reads them only while `rxOutHigh` is 0 (docs/dslink.md#owed-guard).
   * Read when a unit is built.
   */
  static statusPlain = false;
  /** Negative controls only (tests): rxOutHigh as rxOut >= rxDepth − 8 (one too low); `status` blind to rxCount under the guard. */
  static highOffByOne = false;
  static owedBlind = false;

  constructor(parent: Module | null, name: string, opts: { rxDepth: number; creditCap: number }) {
    super(parent, name);
    const { rxDepth, creditCap } = opts;
    const clear = (this.clear = this.input('clear'));
    const gotFct = (this.gotFct = this.input('gotFct'));
    const gotChar = (this.gotChar = this.input('gotChar'));
    const sendFct = (this.sendFct = this.input('sendFct'));
    const sendNormal = (this.sendNormal = this.input('sendNormal'));
    const rxCount = (this.rxCount = this.input('rxCount', bitsToHold(rxDepth)));
    const fctOwed = (this.fctOwed = this.output('fctOwed'));
    // Registered with the counters (the count process writes them): the comb
    // `status` then runs only when fctOwed's inputs change, not at every
    // character sent (docs/kernel.md "Stop 23: token layer").
    const flagsComb = DsCredit.flagsComb;
    const flagsStale = DsCredit.flagsStale;
    const creditOk = (this.creditOk = flagsComb ? this.output('creditOk') : this.reg('creditOk'));
    const rxAccept = (this.rxAccept = flagsComb ? this.output('rxAccept') : this.reg('rxAccept'));
    const errCredit = (this.errCredit = this.reg('errCredit'));
    const errOverrun = (this.errOverrun = this.reg('errOverrun'));
    const txCredit = (this.txCredit = this.reg('txCredit', bitsToHold(creditCap)));
    const rxOut = (this.rxOut = this.reg('rxOut', bitsToHold(creditCap)));
    // The guard of `status` (docs/dslink.md#owed-guard): with rxOut > rxDepth − 8
    // fewer than 8 places can be free, so fctOwed is 0 whatever rxCount is.
    const guarded = !flagsComb && !DsCredit.statusPlain;
    const rxOutHigh = (this.rxOutHigh = guarded ? this.reg('rxOutHigh') : null);
    const highAbove = DsCredit.highOffByOne ? rxDepth - 9 : rxDepth - 8;

    // Slot indices, read from this closure rather than through the Signal
    // objects (docs/kernel.md "Stop 19: C104 at scale"). Set by onElaborated.
    let cl = 0, gf = 0, gc = 0, sf = 0, sn = 0, rc = 0, fo = 0, ok = 0, ra = 0;
    let ecN = 0, eoN = 0, tcI = 0, tcN = 0, roI = 0, roN = 0, hiI = 0, hiN = 0;
    this.bindSlots = () => {
      // ok, ra: the flags' current slots (comb) or next-value slots (registers).
      [cl, gf, gc, sf, sn, rc, fo, ok, ra] = [clear.i, gotFct.i, gotChar.i, sendFct.i, sendNormal.i, rxCount.i, fctOwed.i, flagsComb ? creditOk.i : creditOk.n, flagsComb ? rxAccept.i : rxAccept.n];
      [ecN, eoN, tcI, tcN, roI, roN] = [errCredit.n, errOverrun.n, txCredit.i, txCredit.n, rxOut.i, rxOut.n];
      [hiI, hiN] = [rxOutHigh?.i ?? 0, rxOutHigh?.n ?? 0];
    };

    // fctOwed. Guarded (docs/dslink.md#owed-guard): 0 while rxOutHigh is 1,
    // and rxOut and rxCount read only while it is 0, so a character received
    // or popped with enough credit outstanding no longer runs it.
    this.comb(
      () => {
        const s = this.s;
        const ro = s[roI]!;
        s[fo] = (!guarded || s[hiI] === 0) && rxDepth - s[rc]! - ro >= 8 && ro + 8 <= creditCap ? 1 : 0;
        if (flagsComb) {
          s[ok] = s[tcI]! > 0 ? 1 : 0;
          s[ra] = ro > 0 ? 1 : 0;
        }
      },
      flagsComb
        ? { writes: [fctOwed, creditOk, rxAccept], reads: [rxOut, rxCount, txCredit], name: 'status' }
        : guarded
          ? { writes: [fctOwed], reads: [rxOutHigh!], readsWhen: [{ when: rxOutHigh!, is: [0], reads: DsCredit.owedBlind ? [rxOut] : [rxOut, rxCount] }], name: 'status' }
          : { writes: [fctOwed], reads: [rxOut, rxCount], name: 'status' },
    );

    // The count acts only at an edge where a pulse (gotFct, gotChar,
    // sendFct, sendNormal) or `clear` stands: each pulse wakes it on its rise
    // (not its fall) and its own error pulses are cleared by a wake-up of its
    // own at the next edge (wake on rise, docs/kernel.md "Stop 21: token
    // layer"). A pulse at two edges in a row: sendFct/sendNormal only while
    // the serialiser's `take` stays 1, which wakes this process itself
    // (DsTxSerialiser.holdWake); the decoder's pulses last one cycle, but the
    // counters are read while one stands all the same (register guards: no
    // extra run).
    const rise = !DsCredit.countOnFall;
    const countProc = (this.countProc = this.seq(
      () => {
        const s = this.s;
        s[ecN] = 0;
        s[eoN] = 0;
        this.count(s);
        if (s[ecN] === 1 && rise && this.wakeSink!.mode === 'activity' && !DsCredit.noClearWake) this.wakeAt(countProc, this.cycleRef.cycle + 1);
      },
      {
        reads: [clear],
        readsWhen: [
          { when: gotFct, bits: 1, reads: [txCredit], rise },
          { when: sendNormal, bits: 1, reads: rise ? [] : [txCredit], rise },
          { when: gotChar, bits: 1, reads: [rxOut], rise },
          { when: sendFct, bits: 1, reads: rise ? [] : [rxOut], rise },
        ],
        name: 'count',
      },
    ));
    this.count = (s: Float64Array): void => {
      if (s[cl] === 1) {
        if (!flagsComb) {
          s[ok] = flagsStale && s[tcI]! > 0 ? 1 : 0;
          s[ra] = flagsStale && s[roI]! > 0 ? 1 : 0;
        }
        s[tcN] = 0;
        s[roN] = 0;
        if (guarded) s[hiN] = 0 > highAbove ? 1 : 0;
        return;
      }
      let tc = s[tcI]!;
      if (s[gf] === 1) {
        if (tc + 8 > creditCap) s[ecN] = 1;
        else tc += 8;
      }
      // With ignoreCredit (a negative-control fault) the sender may send at 0: hold at 0.
      if (s[sn] === 1 && tc > 0) tc -= 1;
      s[tcN] = tc;
      // A character is checked against the credit granted before this edge
      // (an FCT taken now cannot have reached the far end yet).
      let ro = s[roI]!;
      if (s[gc] === 1) {
        if (ro === 0) {
          s[ecN] = 1;
          s[eoN] = 1;
        } else ro -= 1;
      }
      if (s[sf] === 1) ro += 8;
      s[roN] = ro;
      if (guarded) s[hiN] = ro > highAbove ? 1 : 0;
      if (!flagsComb) {
        s[ok] = (flagsStale ? s[tcI]! : tc) > 0 ? 1 : 0;
        s[ra] = (flagsStale ? s[roI]! : ro) > 0 ? 1 : 0;
      }
    };
  }

  override onElaborated(): void {
    this.bindSlots();
  }
}
