/**
 * Receive token decoder of a DS-link end (the token half of SpaceWire Light's
 * spwrecv): checks parity, pairs ESC with FCT into NULL, detects escape
 * errors, and releases each token only once its parity is checked
 * (docs/dslink.md#parity, #checked-delivery, #errors).
 *
 * Parity (spec §16 V3): when a token's P and F arrive (hdrV), P xor F xor the
 * parity of the previous token's data/control bits must be 1. That check
 * covers the previous token's bits, so the previous token is held (`pend`)
 * until then and released only if it passes: no character reaches the
 * receive buffer unchecked, at a cost of 2 bit times of latency.
 * Escape (docs/dslink.md#errors): ESC must be followed by FCT (= NULL); ESC
 * followed by ESC, EOP, EOM or a data token is an escape error.
 * After an error the decoder releases nothing more until it is disabled; the
 * held token stays visible in `pendKind` so the link can count it as lost.
 *
 * Handover (config `rxHandover`, docs/dslink.md#handover): 'checked' (the
 * default, above) or 'on-arrival': every token is released in the cycle
 * after its last bit, as SpaceWire receivers do and as seed 004's simulator
 * assumes (no receive latency), and its parity is still checked when the
 * next token's P and F arrive. A released character whose check then fails
 * was handed on unchecked: the decoder counts it in `suspectTotal` (never
 * cleared, so a recorder reads it after the link has restarted) beside the
 * parity error, so the corruption is reported, never silent.
 *
 *
 * Flow-through (`flow`, the link's config flowThrough, 'on-arrival' only,
 * docs/dslink.md#flow-through): gotNull, gotFct, gotChar and char are
 * combinational outputs, computed in the cycle the deserialiser reports the
 * token's end (its tokV/syncV outputs, themselves comb with flow-through:
 * the cycle the token's last bit is on the wires) from those and this decoder's
 * escape state, instead of registers one cycle later. The checks stay
 * registered: a parity or escape error is flagged as before.
 *
 * NULL pairs (only with `nullPairs`, the link's runIdle 'one-null'/'silent',
 * docs/dslink.md#run-idle): a pulse `nullPair` when a NULL is released
 * straight after a NULL. A quiet transmitter in Run never sends two NULLs in
 * a row, so in Run a pair means the far end has restarted.
 *
 * Ports:
 *  inputs   enable; in: hdrV, hdrP, hdrF, tokV, tokCtl, tokPay[8], syncV
 *           (the deserialiser's token-level interface, rx_token_link.ts)
 *  outputs (registers, one-cycle pulses)
 *           gotNull, gotFct, gotChar, char[9] (the released character)
 *           errParity, errEscape; nullPair (with `nullPairs` only)
 *  registers prevPar, esc, dead, pendKind (enum none/NULL/FCT/char), pendVal[9],
 *           tok[9] (enum TOKEN_NAMES: the last token released, for VCD/REPL),
 *           unchecked ('on-arrival': the last token released is a character
 *           whose parity check is still to come), suspectTotal[32] (characters
 *           released whose check failed, since the simulation began),
 *           lastNull (with `nullPairs` only: the last token released was a NULL)
 */
import { Module, type ProcessDecl, type Signal } from '../kernel/module.ts';
import type { DsNullTrain } from './null_train.ts';
import type { DsTokenTrain } from './token_train.ts';
import { declareRxTokenLink, type RxTokenLink } from './rx_token_link.ts';
import { CTL_ESC, CTL_FCT, TOKEN_NAMES, TOK_BITS, TOK_FCT, TOK_NONE, TOK_NULL, ctlToken, parity } from './tokens.ts';

export const PEND_NAMES = ['none', 'NULL', 'FCT', 'char'] as const;
export const PEND_NONE = 0;
export const PEND_NULL = 1;
export const PEND_FCT = 2;
export const PEND_CHAR = 3;

/** Outcomes of a complete token besides PEND_NULL/FCT/CHAR (tokenOutcome). */
const OUT_ESC = 4;
const OUT_ERR_ESCAPE = 5;

/**
 * What a complete token (tokCtl, tokPay) does after an ESC or not: a token to
 * arrive (PEND_NULL: ESC then FCT; PEND_FCT; PEND_CHAR with its 9-bit code),
 * an ESC to remember (OUT_ESC) or an escape error (OUT_ERR_ESCAPE: ESC
 * followed by anything but FCT, docs/dslink.md#errors). Returns the outcome
 * in the low 3 bits and the character's code above them. One function for the
 * registered decode and the flow-through release, so both classify alike.
 */
function tokenOutcome(ctl: boolean, pay: number, isEsc: boolean): number {
  if (ctl) {
    const c = pay & 3;
    if (isEsc) return c === CTL_FCT ? PEND_NULL : OUT_ERR_ESCAPE;
    if (c === CTL_ESC) return OUT_ESC;
    if (c === CTL_FCT) return PEND_FCT;
    return PEND_CHAR | (ctlToken(c) << 3);
  }
  return isEsc ? OUT_ERR_ESCAPE : PEND_CHAR | (pay << 3);
}

/** When a received token is handed on (docs/dslink.md#handover). */
export type RxHandover = 'checked' | 'on-arrival';
export const RX_HANDOVERS: readonly RxHandover[] = ['checked', 'on-arrival'];

export class DsRxDecoder extends Module {
  readonly enable: Signal;
  /** Inputs from the deserialiser: rx_token_link.ts. */
  readonly in: RxTokenLink;
  readonly gotNull: Signal;
  readonly gotFct: Signal;
  readonly gotChar: Signal;
  readonly char: Signal;
  readonly errParity: Signal;
  readonly errEscape: Signal;
  readonly prevPar: Signal;
  readonly esc: Signal;
  readonly dead: Signal;
  readonly pendKind: Signal;
  readonly pendVal: Signal;
  readonly tok: Signal;
  readonly unchecked: Signal;
  readonly suspectTotal: Signal;
  readonly nullPair: Signal | null;
  readonly lastNull: Signal | null;
  readonly decodeProc: ProcessDecl;
  private readonly bindSlots: () => void;
  /** The NULL train of the incoming direction (null_train.ts): while it is on demand, nothing to do here. */
  rxTrain: DsNullTrain | null = null;
  /**
   * The token train of the incoming direction (token_train.ts): while it
   * runs, the deserialiser's outputs are on demand and the train wakes this
   * decoder where they pulse; `onDecode` writes them before they are read.
   */
  tokTrain: DsTokenTrain | null = null;
  /** Negative control only (tests): no wake-up to clear the output pulses. */
  static noClearWake = false;
  /** The pulses cleared by a run at the next edge also in a token train (stop 21's way; tests count both). */
  static clearByRun = false;
  /** Negative control only (tests): in a token train, the pulses' timed clear one edge late. */
  static clearLate = false;
  /**
   * The held token's registers at tokV by a run at that edge also in a token
   * train (stop 23's way; the reference). The default, false, writes them by
   * timed writes scheduled at the token's flag bit (stop 24), one run a token
   * fewer. Stop 24 measured it slower at scale (16x16 0.71x, 32x32 about
   * 0.5x) and kept it an option; the cause was the kernel's timed-write
   * cancel, which rebuilt its whole queue, fixed at stop 25 (docs/kernel.md
   * "Stop 24: token layer", "Stop 25: kernel"); tests run both.
   */
  static tokvByRun = false;
  /** Negative control only (tests): in a token train, the tokV registers' timed writes one edge late. */
  static tokvLate = false;
  /** Negative controls only (tests): a run between hdrV and tokV leaves the tokV writes standing (retractTokV); a thaw or handover does (dropTokV). */
  static noRetract = false;
  static noDrop = false;
  /** The one-cycle output pulses (registers): cleared at the edge after they rise. */
  private readonly pulses: Signal[];
  /** The registers the tokV writes may set (tokvAhead). */
  private readonly tokvRegs: Signal[];
  /** Their next-value slots (set by onElaborated). */
  private pulseN = new Int32Array(0);

  constructor(parent: Module | null, name: string, opts: { checkParity: boolean; handover?: RxHandover; nullPairs?: boolean; flow?: boolean }) {
    super(parent, name);
    const enable = (this.enable = this.input('enable'));
    const { hdrV, hdrP, hdrF, tokV, tokCtl, tokPay, syncV } = (this.in = declareRxTokenLink((n, w) => this.input(n, w)));
    const flow = opts.flow === true;
    if (flow && opts.handover !== 'on-arrival') throw new RangeError(`${name}: flow-through needs handover 'on-arrival'`);
    const out = (n: string, w = 1): Signal => (flow ? this.output(n, w) : this.reg(n, w));
    const gotNull = (this.gotNull = out('gotNull'));
    const gotFct = (this.gotFct = out('gotFct'));
    const gotChar = (this.gotChar = out('gotChar'));
    const char = (this.char = out('char', 9));
    const errParity = (this.errParity = this.reg('errParity'));
    const errEscape = (this.errEscape = this.reg('errEscape'));
    const prevPar = (this.prevPar = this.reg('prevPar'));
    const esc = (this.esc = this.reg('esc'));
    const dead = (this.dead = this.reg('dead'));
    const pendKind = (this.pendKind = this.reg('pendKind', 2, PEND_NONE, { enum: PEND_NAMES }));
    const pendVal = (this.pendVal = this.reg('pendVal', 9));
    const tok = (this.tok = this.reg('tok', TOK_BITS, TOK_NONE, { enum: TOKEN_NAMES }));
    const unchecked = (this.unchecked = this.reg('unchecked'));
    const suspectTotal = (this.suspectTotal = this.reg('suspectTotal', 32));
    const nullPair = (this.nullPair = opts.nullPairs ? this.reg('nullPair') : null);
    const lastNull = (this.lastNull = opts.nullPairs ? this.reg('lastNull') : null);
    this.tokvRegs = [prevPar, esc, pendKind, pendVal];
    this.pulses = [...(flow ? [] : [gotNull, gotFct, gotChar]), errParity, errEscape, ...(nullPair ? [nullPair] : [])];
    const checkParity = opts.checkParity;
    const onArrival = opts.handover === 'on-arrival';
    /**
     * An output pulse (gotNull, gotFct, gotChar without flow-through;
     * errParity, errEscape, nullPair) was raised in this run: the decoder
     * clears it at the next edge by a wake-up of its own (see its reads).
     */
    let pulsed = 0;
    /** Release a token now: a pulse on its output and its code on `tok`. */
    const release = (s: Float64Array, k: number, v: number): void => {
      if (nullPair && lastNull && k !== PEND_NONE) {
        if (k === PEND_NULL && s[lastNull.i] === 1) s[nullPair.n] = pulsed = 1;
        s[lastNull.n] = k === PEND_NULL ? 1 : 0;
      }
      if (k === PEND_NULL) {
        if (!flow) s[gotNull.n] = pulsed = 1;
        s[tok.n] = TOK_NULL;
      } else if (k === PEND_FCT) {
        if (!flow) s[gotFct.n] = pulsed = 1;
        s[tok.n] = TOK_FCT;
      } else if (k === PEND_CHAR) {
        if (!flow) {
          s[gotChar.n] = pulsed = 1;
          s[char.n] = v;
        }
        s[tok.n] = v;
      }
    };
    /** A token complete: held for its check ('checked') or released now ('on-arrival'). */
    const arrive = (s: Float64Array, k: number, v: number): void => {
      if (onArrival) {
        release(s, k, v);
        s[unchecked.n] = k === PEND_CHAR ? 1 : 0;
      } else {
        s[pendKind.n] = k;
        s[pendVal.n] = v;
      }
    };
    if (flow) {
      // What `arrive` releases at this token's end, combinationally (the decode process's rules).
      this.comb(
        () => {
          const s = this.s;
          let n = 0;
          let f = 0;
          let c = 0;
          let v = 0;
          if (s[enable.i] === 1 && s[dead.i] !== 1) {
            if (s[syncV.i] === 1) n = 1;
            else if (s[hdrV.i] !== 1 && s[tokV.i] === 1) {
              const o = tokenOutcome(s[tokCtl.i] === 1, s[tokPay.i]!, s[esc.i] === 1);
              const k = o & 7;
              if (k === PEND_NULL) n = 1;
              else if (k === PEND_FCT) f = 1;
              else if (k === PEND_CHAR) [c, v] = [1, o >>> 3];
            }
          }
          s[gotNull.i] = n;
          s[gotFct.i] = f;
          s[gotChar.i] = c;
          s[char.i] = v;
        },
        { writes: [gotNull, gotFct, gotChar, char], reads: [enable, dead, syncV, hdrV, tokV, tokCtl, tokPay, esc], name: 'release' },
      );
    }

    // Slot indices of the decode process's common path, read from this
    // closure rather than through the Signal objects (docs/kernel.md "Stop 19").
    // Set by onElaborated.
    let gnN = 0, gfN = 0, gcN = 0, epN = 0, eeN = 0, enI = 0, deI = 0, deN = 0, syI = 0, hvI = 0, tvI = 0, tpI = 0, tcI = 0;
    let esI = 0, esN = 0, ppI = 0, ppN = 0, hpI = 0, hfI = 0, unI = 0, unN = 0, pkI = 0, pkN = 0, pvI = 0, pvN = 0;
    this.bindSlots = () => {
      [gnN, gfN, gcN, epN, eeN, enI, deI, deN, syI, hvI, tvI, tpI, tcI] = [gotNull.n, gotFct.n, gotChar.n, errParity.n, errEscape.n, enable.i, dead.i, dead.n, syncV.i, hdrV.i, tokV.i, tokPay.i, tokCtl.i];
      [esI, esN, ppI, ppN, hpI, hfI, unI, unN, pkI, pkN, pvI, pvN] = [esc.i, esc.n, prevPar.i, prevPar.n, hdrP.i, hdrF.i, unchecked.i, unchecked.n, pendKind.i, pendKind.n, pendVal.i, pendVal.n];
    };

    // What the decode process reads (docs/kernel.md "Stop 20: receive side"):
    // its inputs only. With enable 1, no input pulse (hdrV, tokV, syncV) and
    // no output pulse standing, a run changes nothing, whatever its own
    // registers hold: they matter only at an input pulse, so their changes
    // need not wake it. Its output pulses (one cycle) are cleared by a wake-up
    // of its own at the next edge rather than by reading them back.
    const reads = [enable, dead, syncV, hdrV, hdrP, hdrF, tokV, tokCtl, tokPay];

    const decode = (): void => {
      this.tokTrain?.onDecode();
      const s = this.s;
      if (!flow) {
        // With flow-through these three are the comb process's ('release').
        s[gnN] = 0;
        s[gfN] = 0;
        s[gcN] = 0;
      }
      s[epN] = 0;
      s[eeN] = 0;
      if (nullPair) s[nullPair.n] = 0;
      if (s[enI] !== 1) {
        s[ppN] = 0;
        s[esN] = 0;
        s[deN] = 0;
        s[pkN] = PEND_NONE;
        s[pendVal.n] = 0;
        s[tok.n] = TOK_NONE;
        s[unN] = 0;
        if (lastNull) s[lastNull.n] = 0;
        return;
      }
      if (s[deI] === 1) return;
      if (s[syI] === 1) {
        // The first NULL: its bits were matched whole; it is held (or released) like any token.
        arrive(s, PEND_NULL, 0);
        s[ppN] = 0;
        s[esN] = 0;
        return;
      }
      if (s[hvI] === 1) {
        if (checkParity && (s[ppI]! ^ s[hpI]! ^ s[hfI]!) !== 1) {
          s[epN] = pulsed = 1;
          s[deN] = 1;
          if (s[unI] === 1) s[suspectTotal.n] = (s[suspectTotal.i]! + 1) % 2 ** 32;
          s[unN] = 0;
          return;
        }
        s[unN] = 0;
        release(s, s[pkI]!, s[pvI]!);
        s[pkN] = PEND_NONE;
        return;
      }
      if (s[tvI] !== 1) return;
      const pay = s[tpI]!;
      const ctl = s[tcI] === 1;
      s[ppN] = parity(ctl ? pay & 3 : pay);
      const o = tokenOutcome(ctl, pay, s[esI] === 1);
      const k = o & 7;
      if (k === OUT_ESC) {
        s[esN] = 1;
      } else if (k === OUT_ERR_ESCAPE) {
        s[eeN] = pulsed = 1;
        s[deN] = 1;
      } else {
        arrive(s, k, o >>> 3);
        if (k === PEND_NULL) s[esN] = 0;
      }
    };
    /**
     * A token train's hdrV run (onDecode set the cursor's `tokvDue`, the edge
     * where the token it frames ends, tokV): in the checked handover that
     * run only holds the token (prevPar, esc, pendKind, pendVal), whose bits
     * are on the line already, so its writes are timed register writes
     * scheduled here, and the decoder is next woken at the following token's
     * hdrV (docs/kernel.md "Stop 24: token layer"). False: the run at e as
     * before (an escape error, the decoder disabled or dead, the cursor not
     * covering e, the reference mode or option).
     */
    const tokvAhead = (e: number): boolean => {
      const tt = this.tokTrain!;
      if (onArrival || flow || DsRxDecoder.tokvByRun || this.wakeSink!.mode !== 'activity') return false;
      const s = this.s;
      // What the run at e would see: enable and dead as after this edge (a change of either wakes this process: retractTokV).
      if (s[enI] !== 1 || s[deN] === 1) return false;
      const r = tt.recv;
      if (!r.covers(e)) return false;
      const w = r.heldToken();
      const ctl = (w & 1) === 1;
      const pay = w >>> 1;
      const o = tokenOutcome(ctl, pay, s[esN] === 1);
      const k = o & 7;
      if (k === OUT_ERR_ESCAPE) return false;
      const at = DsRxDecoder.tokvLate ? e + 1 : e;
      // The values after this edge (s[..N]) stand until e: only the decoder writes these registers (a poke wakes it: retractTokV).
      const par = parity(ctl ? pay & 3 : pay);
      if (par !== s[ppN]) this.writeAt(prevPar, at, par);
      if (k === OUT_ESC) {
        if (s[esN] !== 1) this.writeAt(esc, at, 1);
      } else {
        if (s[pkN] !== k) this.writeAt(pendKind, at, k);
        const v = o >>> 3;
        if (s[pvN] !== v) this.writeAt(pendVal, at, v);
        if (k === PEND_NULL && s[esN] !== 0) this.writeAt(esc, at, 0);
      }
      r.tokvAt = at;
      this.wakeAt(this.decodeProc, e + 2);
      return true;
    };
    this.decodeProc = this.seq(
      () => {
        if (this.rxTrain?.dormant) return;
        const tt = this.tokTrain;
        if (tt !== null && tt.recv.tokvAt >= 0) this.retractTokV(this.cycleRef.cycle);
        pulsed = 0;
        decode();
        // The reference mode runs every process every cycle.
        if (pulsed === 1 && this.wakeSink!.mode === 'activity' && !DsRxDecoder.noClearWake) this.clearPulses(this.cycleRef.cycle + 1);
        if (tt !== null && tt.recv.tokvDue >= 0) {
          const e = tt.recv.tokvDue;
          tt.recv.tokvDue = -1;
          if (!tokvAhead(e)) this.wakeAt(this.decodeProc, e);
        }
      },
      { name: 'decode', reads },
    );
  }

  /**
   * A run at edge t with tokV writes pending (woken for a poke, the enable,
   * or at their own edge by a fallback): they are dropped (at their own edge
   * the applied values taken back) and, if still ahead, the run at their
   * edge restored; the runs compute the same values from their inputs.
   */
  private retractTokV(t: number): void {
    const r = this.tokTrain!.recv;
    const e = r.tokvAt;
    r.tokvAt = -1;
    if (e < t || DsRxDecoder.noRetract) return; // applied at an earlier edge: nothing pending
    for (const g of this.tokvRegs) this.cancelWrites(g);
    if (e > t) this.wakeAt(this.decodeProc, e);
  }

  /**
   * The token train's cursor stops covering edges from `from` on (a thaw, a
   * handover to the NULL train, the train ending): tokV writes pending
   * there are dropped and the decoder runs at their edge instead, as it did
   * before stop 24 (its inputs are then the deserialiser's, or the NULL
   * train's, not the cursor's).
   */
  dropTokV(from: number): void {
    const r = this.tokTrain?.recv;
    if (r === undefined || r.tokvAt < from || DsRxDecoder.noDrop) return;
    const e = r.tokvAt;
    r.tokvAt = -1;
    for (const g of this.tokvRegs) this.cancelWrites(g);
    this.wakeAt(this.decodeProc, e);
  }

  /**
   * The output pulses raised at this edge fall at edge e. In a token train
   * whose receiver covers e (not ending there), the decoder's inputs are
   * on demand and the train wakes it in every cycle where one of them
   * pulses, never two cycles in a row; so at e, unless woken for an input,
   * its run would only clear the pulses: timed register writes instead of
   * that run (docs/kernel.md "Stop 22: token layer"). Elsewhere a run at e.
   */
  private clearPulses(e: number): void {
    const tt = this.tokTrain;
    if (tt === null || DsRxDecoder.clearByRun || !tt.recv.covers(e)) {
      this.wakeAt(this.decodeProc, e);
      return;
    }
    const s = this.s;
    const at = DsRxDecoder.clearLate ? e + 1 : e;
    // The pulses' next-value slots, not their Signal objects (at 32x32 few of those are in cache: docs/kernel.md "Stop 23: token layer"); usually one stands.
    const pn = this.pulseN;
    for (let k = 0; k < pn.length; k++) if (s[pn[k]!] === 1) this.writeAt(this.pulses[k]!, at, 0);
  }

  /** A token train handing the direction to the NULL train (token_train.ts handToNull): the timed clears dropped, as the train freezes these registers. */
  cancelPulseClears(): void {
    for (const r of this.pulses) this.cancelWrites(r);
  }

  override onElaborated(): void {
    this.bindSlots();
    this.pulseN = Int32Array.from(this.pulses, (r) => r.n);
  }
}
