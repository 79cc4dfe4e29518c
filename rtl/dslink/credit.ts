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
 *  outputs  fctOwed, creditOk (txCredit > 0), rxAccept (rxOut > 0)  (comb)
 *           errCredit, errOverrun (registers, one-cycle pulses; errOverrun:
 *           the credit error was a character without credit, which was dropped)
 *  registers txCredit, rxOut
 */
import { bitsToHold } from '../lib/check.ts';
import { Module, type Signal } from '../kernel/module.ts';

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
    const creditOk = (this.creditOk = this.output('creditOk'));
    const rxAccept = (this.rxAccept = this.output('rxAccept'));
    const errCredit = (this.errCredit = this.reg('errCredit'));
    const errOverrun = (this.errOverrun = this.reg('errOverrun'));
    const txCredit = (this.txCredit = this.reg('txCredit', bitsToHold(creditCap)));
    const rxOut = (this.rxOut = this.reg('rxOut', bitsToHold(creditCap)));

    this.comb(
      () => {
        const s = this.s;
        const ro = s[rxOut.i]!;
        s[fctOwed.i] = rxDepth - s[rxCount.i]! - ro >= 8 && ro + 8 <= creditCap ? 1 : 0;
        s[creditOk.i] = s[txCredit.i]! > 0 ? 1 : 0;
        s[rxAccept.i] = ro > 0 ? 1 : 0;
      },
      { writes: [fctOwed, creditOk, rxAccept], reads: [rxOut, rxCount, txCredit], name: 'status' },
    );

    this.seq(
      () => {
        const s = this.s;
        s[errCredit.n] = 0;
        s[errOverrun.n] = 0;
        if (s[clear.i] === 1) {
          s[txCredit.n] = 0;
          s[rxOut.n] = 0;
          return;
        }
        let tc = s[txCredit.i]!;
        if (s[gotFct.i] === 1) {
          if (tc + 8 > creditCap) s[errCredit.n] = 1;
          else tc += 8;
        }
        // With ignoreCredit (a negative-control fault) the sender may send at 0: hold at 0.
        if (s[sendNormal.i] === 1 && tc > 0) tc -= 1;
        s[txCredit.n] = tc;
        // A character is checked against the credit granted before this edge
        // (an FCT taken now cannot have reached the far end yet).
        let ro = s[rxOut.i]!;
        if (s[gotChar.i] === 1) {
          if (ro === 0) {
            s[errCredit.n] = 1;
            s[errOverrun.n] = 1;
          } else ro -= 1;
        }
        if (s[sendFct.i] === 1) ro += 8;
        s[rxOut.n] = ro;
      },
      { reads: [clear, gotFct, gotChar, sendFct, sendNormal, txCredit, rxOut], name: 'count' },
    );
  }
}
