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
import { Module, type ProcessDecl, type Signal } from '../kernel/module.ts';
import type { RunIdle } from './config.ts';
import type { DsNullTrain } from './null_train.ts';
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
  /** The register update at each take (woken on take's rise). */
  readonly advanceProc: ProcessDecl;
  private readonly bindSlots: () => void;
  /** Negative control only (tests): `advance` woken by take's fall too, as before stop 21 (evaluations only). */
  static advanceOnFall = false;
  /**
   * The NULL train of this direction (null_train.ts), set when the link is
   * joined to a DsLinkEnd. While it is still (`take` and the serialiser's
   * `more` on demand, docs/dslink.md#null-trains) the choice hands it the
   * token it offers before reading `take`.
   */
  nullTrain: DsNullTrain | null = null;

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

    // Slot indices, read from this closure rather than through the Signal
    // objects: fewer objects touched per evaluation, and at 32×32 little of
    // what one touches is still in cache (docs/kernel.md "Stop 19: C104 at
    // scale"). Set by onElaborated.
    let en = 0, fa = 0, ru = 0, tk = 0, fo = 0, co = 0, te = 0, tc = 0, tb = 0, tl = 0, sf = 0, sn = 0;
    let pp = 0, ppN = 0, nsI = 0, nsN = 0, tkI = 0, tkN = 0, nw = 0;
    this.bindSlots = () => {
      [en, fa, ru, tk, fo, co, te, tc, tb, tl, sf, sn] = [enable, fctAllowed, run, take, fctOwed, creditOk, txEmpty, txChar, tokBits, tokLen, sendFct, sendNormal].map((x) => x.i) as [number, number, number, number, number, number, number, number, number, number, number, number];
      [pp, ppN, nsI, nsN, tkI, tkN, nw] = [prevPar.i, prevPar.n, nullSent.i, nullSent.n, tok.i, tok.n, normalOnWire.n];
    };

    // 0 = NULL, 1 = FCT, 2 = normal, 3 = none (docs/dslink.md#run-idle)
    const choose = (): number => {
      const s = this.s;
      if (s[fa] === 1 && s[nsI] === 1 && s[fo] === 1) return 1;
      if (s[ru] === 1 && s[te] === 0 && (ignoreCredit || s[co] === 1)) return 2;
      if (quiet && s[ru] === 1) {
        const last = s[tkI]!;
        if (silent || last === TOK_NULL || last === TOK_NONE) return 3;
      }
      return 0;
    };

    this.comb(
      () => {
        const s = this.s;
        const k = choose();
        const p = s[pp]!;
        if (k === 1) {
          s[tb] = tokenBits(1, CTL_FCT, p);
          s[tl] = LEN_CTL;
        } else if (k === 2) {
          const ch = s[tc]!;
          const c = charCtl(ch);
          s[tb] = c < 0 ? tokenBits(0, ch, p) : tokenBits(1, c, p);
          s[tl] = c < 0 ? LEN_DATA : LEN_CTL;
        } else if (k === 3) {
          s[tb] = 0;
          s[tl] = 0;
        } else {
          s[tb] = nullBits(p);
          s[tl] = LEN_NULL;
        }
        // A still NULL train keeps `take` on demand: if the token offered is
        // no longer its NULL, it hands the true `take` back here, before it
        // is read (docs/dslink.md#still-trains).
        const nt = this.nullTrain;
        if (nt !== null && nt.still) nt.offered(s[tb]!, s[tl]!);
        const t = s[tk] === 1;
        s[sf] = t && k === 1 ? 1 : 0;
        s[sn] = t && k === 2 ? 1 : 0;
      },
      { writes: [tokBits, tokLen, sendFct, sendNormal], reads: [fctAllowed, nullSent, fctOwed, run, txEmpty, creditOk, prevPar, txChar, take, ...(quiet ? [tok] : [])], name: 'choose' },
    );

    this.advanceProc = this.seq(
      () => {
        const s = this.s;
        if (s[en] !== 1) {
          s[ppN] = 0;
          s[nsN] = 0;
          s[tkN] = TOK_NONE;
          s[nw] = 0;
          return;
        }
        if (s[tk] !== 1) return;
        const k = choose();
        if (k === 1) {
          s[ppN] = 0;
          s[tkN] = TOK_FCT;
          s[nw] = 0;
        } else if (k === 2) {
          const ch = s[tc]!;
          const c = charCtl(ch);
          s[ppN] = parity(c < 0 ? ch : c);
          s[tkN] = ch;
          s[nw] = 1;
        } else if (k === 3) {
          s[tkN] = TOK_NONE;
          s[nw] = 0;
        } else {
          s[ppN] = 0;
          s[nsN] = 1;
          s[tkN] = TOK_NULL;
          s[nw] = 0;
        }
      },
      // Enabled, it acts only at an edge where `take` is 1: woken by take's
      // rise, not its fall (wake on rise, docs/kernel.md "Stop 21: token
      // layer"). `take` 1 at two edges in a row is no rise: the serialiser
      // wakes this process at the second (DsTxSerialiser.holdWake); with the
      // quiet run-idle modes `take` stays 1 while there is nothing to send,
      // so there the choice's inputs are read while it is 1. A still NULL
      // train writes `take` without a change to mark: it wakes this process
      // itself when it hands take back as 1 (null_train.ts handBack).
      {
        reads: [enable],
        readsWhen: [{ when: take, bits: 1, reads: quiet || DsTxTokens.advanceOnFall ? [fctAllowed, nullSent, fctOwed, run, txEmpty, creditOk, prevPar, txChar, ...(quiet ? [tok] : [])] : [], rise: !DsTxTokens.advanceOnFall }],
        name: 'advance',
      },
    );
  }

  override onElaborated(): void {
    this.bindSlots();
  }
}
