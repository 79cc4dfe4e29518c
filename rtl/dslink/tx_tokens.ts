/**
 * Transmit token stream of a DS-link end (the token half of SpaceWire Light's
 * spwxmit): chooses the next token whenever the serialiser takes one, and
 * computes its parity (docs/dslink.md#transmit-priority, #parity).
 *
 * Choice at each take, highest first (spec §16 V5):
 *   FCT     allowed to send FCTs (Connecting or Run), a NULL has already been
 *           sent since the link started, and the credit unit owes one (fctOwed)
 *   normal  Run, the transmit buffer holds a character and there is credit
 *           (or `ignoreCredit`, a negative-control fault)
 *   NULL    otherwise, except in Run with config runIdle 'silent' (never)
 *           or 'one-null' (only straight after an FCT or a normal token)
 *   none    tokLen 0: nothing to send, the serialiser holds the wires still
 *           (runIdle 'one-null'/'silent' only, docs/dslink.md#run-idle)
 * The token is presented combinationally (tokBits, tokLen) to the serialiser;
 * sendFct / sendNormal (comb) say which one is taken at this edge, for the
 * credit unit and the transmit buffer's pop.
 *
 * Ports:
 *  inputs   enable       transmitter enabled (Started, Connecting, Run)
 *           fctAllowed   Connecting or Run
 *           run          Run
 *           take         from the serialiser
 *           fctOwed      from the credit unit
 *           creditOk     from the credit unit: credit > 0
 *           txEmpty, txChar[9]   the transmit buffer's state and head
 *  outputs  tokBits[10], tokLen[4]   the chosen token (tokLen 0: none)
 *           sendFct, sendNormal      (comb) an FCT / a normal token is taken now
 *  registers prevPar     parity of the last token's data/control bits
 *           nullSent     a NULL has been taken since the transmitter was enabled
 *           tok[9]       code of the token on the wire (enum: TOKEN_NAMES), for
 *                        VCD string twins and the REPL; '-' while none
 *           normalOnWire the token on the wire is a normal character
 */
import { Module, type Signal } from '../kernel/module.ts';
import type { RunIdle } from './config.ts';
import { CTL_FCT, LEN_CTL, LEN_DATA, LEN_NULL, TOKEN_NAMES, TOK_BITS, TOK_FCT, TOK_NONE, TOK_NULL, charCtl, nullBits, parity, tokenBits } from './tokens.ts';

export class DsTxTokens extends Module {
  readonly enable: Signal;
  readonly fctAllowed: Signal;
  readonly run: Signal;
  readonly take: Signal;
  readonly fctOwed: Signal;
  readonly creditOk: Signal;
  readonly txEmpty: Signal;
  readonly txChar: Signal;
  readonly tokBits: Signal;
  readonly tokLen: Signal;
  readonly sendFct: Signal;
  readonly sendNormal: Signal;
  readonly prevPar: Signal;
  readonly nullSent: Signal;
  readonly tok: Signal;
  readonly normalOnWire: Signal;

  constructor(parent: Module | null, name: string, opts: { ignoreCredit: boolean; runIdle?: RunIdle }) {
    super(parent, name);
    const enable = (this.enable = this.input('enable'));
    const fctAllowed = (this.fctAllowed = this.input('fctAllowed'));
    const run = (this.run = this.input('run'));
    const take = (this.take = this.input('take'));
    const fctOwed = (this.fctOwed = this.input('fctOwed'));
    const creditOk = (this.creditOk = this.input('creditOk'));
    const txEmpty = (this.txEmpty = this.input('txEmpty'));
    const txChar = (this.txChar = this.input('txChar', 9));
    const tokBits = (this.tokBits = this.output('tokBits', 10));
    const tokLen = (this.tokLen = this.output('tokLen', 4));
    const sendFct = (this.sendFct = this.output('sendFct'));
    const sendNormal = (this.sendNormal = this.output('sendNormal'));
    const prevPar = (this.prevPar = this.reg('prevPar'));
    const nullSent = (this.nullSent = this.reg('nullSent'));
    const tok = (this.tok = this.reg('tok', TOK_BITS, TOK_NONE, { enum: TOKEN_NAMES }));
    const normalOnWire = (this.normalOnWire = this.reg('normalOnWire'));
    const ignoreCredit = opts.ignoreCredit;
    const runIdle = opts.runIdle ?? 'nulls';
    const quiet = runIdle !== 'nulls';
    const silent = runIdle === 'silent';

    // 0 = NULL, 1 = FCT, 2 = normal, 3 = none (docs/dslink.md#run-idle)
    const choose = (): number => {
      const s = this.s;
      if (s[fctAllowed.i] === 1 && s[nullSent.i] === 1 && s[fctOwed.i] === 1) return 1;
      if (s[run.i] === 1 && s[txEmpty.i] === 0 && (ignoreCredit || s[creditOk.i] === 1)) return 2;
      if (quiet && s[run.i] === 1) {
        const last = s[tok.i]!;
        if (silent || last === TOK_NULL || last === TOK_NONE) return 3;
      }
      return 0;
    };

    this.comb(
      () => {
        const s = this.s;
        const k = choose();
        const pp = s[prevPar.i]!;
        if (k === 1) {
          s[tokBits.i] = tokenBits(1, CTL_FCT, pp);
          s[tokLen.i] = LEN_CTL;
        } else if (k === 2) {
          const ch = s[txChar.i]!;
          const c = charCtl(ch);
          s[tokBits.i] = c < 0 ? tokenBits(0, ch, pp) : tokenBits(1, c, pp);
          s[tokLen.i] = c < 0 ? LEN_DATA : LEN_CTL;
        } else if (k === 3) {
          s[tokBits.i] = 0;
          s[tokLen.i] = 0;
        } else {
          s[tokBits.i] = nullBits(pp);
          s[tokLen.i] = LEN_NULL;
        }
        const t = s[take.i] === 1;
        s[sendFct.i] = t && k === 1 ? 1 : 0;
        s[sendNormal.i] = t && k === 2 ? 1 : 0;
      },
      { writes: [tokBits, tokLen, sendFct, sendNormal], reads: [fctAllowed, nullSent, fctOwed, run, txEmpty, creditOk, prevPar, txChar, take, ...(quiet ? [tok] : [])], name: 'choose' },
    );

    this.seq(
      () => {
        const s = this.s;
        if (s[enable.i] !== 1) {
          s[prevPar.n] = 0;
          s[nullSent.n] = 0;
          s[tok.n] = TOK_NONE;
          s[normalOnWire.n] = 0;
          return;
        }
        if (s[take.i] !== 1) return;
        const k = choose();
        if (k === 1) {
          s[prevPar.n] = 0;
          s[tok.n] = TOK_FCT;
          s[normalOnWire.n] = 0;
        } else if (k === 2) {
          const ch = s[txChar.i]!;
          const c = charCtl(ch);
          s[prevPar.n] = parity(c < 0 ? ch : c);
          s[tok.n] = ch;
          s[normalOnWire.n] = 1;
        } else if (k === 3) {
          s[tok.n] = TOK_NONE;
          s[normalOnWire.n] = 0;
        } else {
          s[prevPar.n] = 0;
          s[nullSent.n] = 1;
          s[tok.n] = TOK_NULL;
          s[normalOnWire.n] = 0;
        }
      },
      { reads: [enable, take, fctAllowed, nullSent, fctOwed, run, txEmpty, creditOk, prevPar, txChar, ...(quiet ? [tok] : [])], name: 'advance' },
    );
  }
}
