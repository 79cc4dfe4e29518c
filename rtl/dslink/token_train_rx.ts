/**
 * The receive half of a token train (token_train.ts; docs/dslink.md#token-trains,
 * docs/kernel.md "Stop 20: receive side"): while the sender's tokens are on
 * the line, the deserialiser does not run; its per-bit registers (`xPrev`,
 * `cnt`, `pBit`, `flag`, `acc`, `discCnt`) and its token-level outputs
 * (`hdrV`, `hdrP`, `hdrF`, `tokV`, `tokCtl`, `tokPay`, `syncV`) are computed
 * from the line by the deserialiser's own framing rules (a token is 4 bits
 * when its flag is 1, else 10), with a cursor (the first bit of the token it
 * frames) that moves on when asked (`syncRx`); the decoder is woken by timed
 * wake-ups where those outputs pulse and reads them through `onDecode`.
 * The train (token_train.ts) starts and ends this cursor; what is here is
 * only the receiver's side of the line.
 */
import type { DataStrobeLine } from '../kernel/serial_line.ts';
import type { Signal } from '../kernel/module.ts';
import type { DsLinkEnd } from './end.ts';
import type { DsRxDecoder } from './rx_decoder.ts';

/** What a snapshot keeps of the receiver's cursor (save/restore). */
export interface RxCursorState {
  rxFrom: number;
  rxUntil: number;
  curF: number;
  prevP: number;
  prevFl: number;
  prevPay: number;
  heldP: number;
  heldF: number;
  rxEnding: boolean;
  x0: number;
  tokvAt?: number;
}

export class DsTokenTrainRx {
  /** The deserialiser is on the line at edges rxFrom <= e < rxUntil. */
  rxFrom = Infinity;
  rxUntil = Infinity;
  /** First bit (cycle on the wire) of the token the receiver frames now. */
  curF = 0;
  /** pBit and flag of the receiver's previous token (its registers keep them until the next token's bits). */
  prevP = 0;
  prevFl = 0;
  /** The previous token's data bits or control code (tokPay keeps it until the next token's last bit). */
  prevPay = 0;
  /**
   * hdrP and hdrF until the current token's flag bit: the previous token's
   * parity and flag, or at entry what the registers hold (equal to pBit and
   * flag unless one was poked since).
   */
  heldP = 0;
  heldF = 0;
  /** The parity and flag bits of the token at pfAt (read once a token: every decoder run in a train asks). */
  private pfAt = -1;
  private pfV = 0;
  /**
   * The train left at a load edge c (no token for the line): the receiver's
   * values of cycle c + 1 (= rxUntil - 1) are still on demand until the
   * deserialiser, woken at c + 1, writes them back and goes on bit by bit
   * (written at the edge c itself they would show the decoder, running at
   * that edge after the serialiser, its inputs of c + 1).
   */
  rxEnding = false;
  /** D xor S in the cycle before rxFrom (the receiver's xPrev there). */
  x0 = 0;
  /**
   * The edge of the decoder's pending tokV writes (rx_decoder.ts tokvAhead;
   * docs/kernel.md "Stop 24: token layer"), or -1. Kept here, in the
   * snapshot with the cursor, as the kernel keeps the writes.
   */
  tokvAt = -1;
  /** Set by onDecode at a hdrV, read and cleared by the decoder's same run: the edge of that token's tokV. */
  tokvDue = -1;
  /** The deserialiser's output slots (current, next), set in bind(): a hot path reads them from here (docs/kernel.md "Stop 19"). */
  private readonly outI = new Int32Array(7);
  private readonly outN = new Int32Array(7);
  /** Negative controls only (tests, through DsTokenTrain): the receiver's pulses this many cycles late; the decoder not given its inputs (onDecode a no-op). */
  static pulseLate = 0;
  static noDecodeWrite = false;

  constructor(
    /** The receiving end (its deserialiser and decoder). */
    readonly rx: DsLinkEnd,
    readonly line: DataStrobeLine,
    /** The train: its sender's serialiser is on the line while `active` (a field read, not a closure call, per decoder run). */
    private readonly train: { readonly active: boolean },
  ) {
    this.dec = rx.dec;
  }

  /** The receiving end's decoder (woken and given its inputs per token). */
  private readonly dec: DsRxDecoder;

  private get s(): Float64Array {
    return this.rx.s;
  }

  /** The cursor answers for cycle t and goes on past it (not ending there): the decoder is woken at every input pulse of t (rx_decoder.ts clearPulses). */
  covers(t: number): boolean {
    return t > this.rxFrom && t < this.rxUntil && !this.rxEnding;
  }

  /** The deserialiser's slots the cursor answers for (after elaboration). */
  bind(): number[] {
    const d = this.rx.deser;
    const o = d.out;
    this.outI.set([o.hdrV.i, o.tokV.i, o.syncV.i, o.hdrP.i, o.hdrF.i, o.tokCtl.i, o.tokPay.i]);
    this.outN.set([o.hdrV.n, o.tokV.n, o.syncV.n, o.hdrP.n, o.hdrF.n, o.tokCtl.n, o.tokPay.n]);
    return [d.xPrev, d.cnt, d.pBit, d.flag, d.acc, d.discCnt, d.disc, d.gotBit, d.synced, d.hist, o.hdrV, o.tokV, o.syncV, o.hdrP, o.hdrF, o.tokCtl, o.tokPay].map((r) => r.i);
  }

  /**
   * At the train's start edge c: D xor S is x in cycle c, the receiver
   * completes a token with payload pay at c and frames the next from
   * first (c + 1, or later for a negative control) on (its pBit, flag, hdrP,
   * hdrF read from the slots: unchanged by that token's end).
   */
  start(c: number, first: number, x: number, pay: number): void {
    const s = this.s;
    const d = this.rx.deser;
    this.prevP = s[d.pBit.i]!;
    this.prevFl = s[d.flag.i]!;
    this.prevPay = pay;
    this.heldP = s[d.out.hdrP.i]!;
    this.heldF = s[d.out.hdrF.i]!;
    this.x0 = x;
    this.curF = first;
    this.rxFrom = c + 1;
    this.rxUntil = Infinity;
    this.rxEnding = false;
    this.pfAt = -1; // a token posted earlier in another history (a restored snapshot) may have started there
    // The decoder's first pulse of the train: the first token's hdrV (onDecode schedules the rest).
    const dec = this.rx.dec;
    dec.wakeAt(dec.decodeProc, this.curF + 2);
  }

  /**
   * The deserialiser's bits process at its edge: true when the train handled
   * it (nothing to do: its values are on demand). At the edge after a thaw
   * at a load edge, its values are written back and it goes on bit by bit.
   */
  onBits(): boolean {
    const d = this.rx.deser;
    const e = d.cycleRef.cycle;
    if (e < this.rxFrom || e >= this.rxUntil) return false;
    if (this.rxEnding && e === this.rxUntil - 1) {
      this.thawRx(e);
      return false;
    }
    return true;
  }

  /**
   * The decoder's decode process at edge t, before it reads its inputs:
   * write the deserialiser's outputs of cycle t into their slots (they are
   * on demand for rxFrom < t < rxUntil; in rxFrom the deserialiser's last
   * bit-by-bit edge wrote them), and from a cycle where one of them pulses,
   * wake the decoder at the next such cycle while the train runs.
   */
  onDecode(): void {
    const dec = this.dec;
    const t = dec.cycleRef.cycle;
    if (t <= this.rxFrom || t >= this.rxUntil) return;
    const j = this.writePulses(t, DsTokenTrainRx.noDecodeWrite ? new Float64Array(dec.s.length) : dec.s);
    if (!this.train.active) return;
    // j 0: tokV of the previous token now, the next token's hdrV at curF + 2; j 2: hdrV now, tokV when the token has ended.
    const late = DsTokenTrainRx.pulseLate;
    if (j === 0) dec.wakeAt(dec.decodeProc, this.curF + 2 + late);
    else if (j === 2) {
      const e = this.curF + late + (this.pfOf(this.curF) >>> 1 === 1 ? 4 : 10);
      // The decoder, after its run, writes the token's registers at e ahead or runs there (rx_decoder.ts tokvAhead).
      if (late === 0) this.tokvDue = e;
      else dec.wakeAt(dec.decodeProc, e);
    }
  }

  /**
   * The token the receiver frames (curF), as the deserialiser shows it at
   * its tokV: its flag (tokCtl) in bit 0, its data bits or control code
   * (tokPay) above. Its bits are on the line: posted at its load edge.
   */
  heldToken(): number {
    const f = this.curF;
    const fl = this.pfOf(f) >>> 1;
    return fl | (this.bits(f + 2, fl === 1 ? 2 : 8) << 1);
  }

  /** The first two bits (parity, flag) of the token starting at f, cached for the token the receiver frames. */
  private pfOf(f: number): number {
    if (this.pfAt !== f) {
      this.pfV = this.bits(f, 2);
      this.pfAt = f;
    }
    return this.pfV;
  }

  /**
   * Move the receiver's cursor to the token the deserialiser frames in cycle
   * t (the one whose bits it has seen at edges curF .. t - 1): every token
   * that ended before t becomes the previous one.
   */
  syncRx(t: number): void {
    let f = this.curF;
    while (t - f >= 2) {
      const pf = this.pfOf(f);
      const len = (pf >>> 1) === 1 ? 4 : 10;
      if (t - f < len) break;
      this.prevP = this.heldP = pf & 1;
      this.prevFl = this.heldF = pf >>> 1;
      this.prevPay = this.bits(f + 2, len - 2);
      f += len;
    }
    this.curF = f;
  }

  /**
   * Write the deserialiser's token-level outputs for cycle t (> rxFrom) into
   * both slots: what its edge t - 1 wrote (rx_deserialiser.ts's emit):
   * hdrV at a token's second bit + 1, tokV at its last bit + 1, syncV never
   * (synchronised); hdrP/hdrF, tokCtl/tokPay keep the last token's that
   * raised them. Returns t - curF (0: tokV now; 2: hdrV now).
   */
  writePulses(t: number, s: Float64Array): number {
    t -= DsTokenTrainRx.pulseLate;
    this.syncRx(t);
    const j = t - this.curF;
    const o = this.outI;
    const n = this.outN;
    let p = this.heldP;
    let fl = this.heldF;
    if (j >= 2) {
      const pf = this.pfOf(this.curF);
      p = pf & 1;
      fl = pf >>> 1;
    }
    // Both slots of each (no commit change); no closure here: a hot path (docs/kernel.md "Stop 20").
    s[o[0]!] = s[n[0]!] = j === 2 ? 1 : 0;
    s[o[1]!] = s[n[1]!] = j === 0 ? 1 : 0;
    s[o[2]!] = s[n[2]!] = 0;
    s[o[3]!] = s[n[3]!] = p;
    s[o[4]!] = s[n[4]!] = fl;
    s[o[5]!] = s[n[5]!] = this.prevFl;
    s[o[6]!] = s[n[6]!] = this.prevPay;
    return j;
  }

  /** n bits (lsb first) from cycle `from` on the line. */
  private bits(from: number, n: number): number {
    const w = this.line.wordAt(from);
    if (w !== undefined && from + n <= w.start + w.nbits) return (w.word >>> (from - w.start)) & ((1 << n) - 1);
    return this.line.bits(from, n, 'lsb-first');
  }

  /** Write the deserialiser's per-bit registers for cycle t (t >= rxFrom) into both slots. */
  writeRx(t: number, s: Float64Array): void {
    if (t < this.rxFrom) return;
    const d = this.rx.deser;
    const put = (r: Signal, v: number): void => {
      s[r.i] = v;
      s[r.n] = v;
    };
    put(d.xPrev, t === this.rxFrom ? this.x0 : this.line.bitAt(t - 1) ^ this.line.strobeAt(t - 1));
    put(d.discCnt, 0);
    this.syncRx(t);
    const f = this.curF;
    const j = t - f;
    let cnt = 0;
    let acc = 0;
    let p = this.prevP;
    let fl = this.prevFl;
    if (j >= 1) {
      const pf = this.bits(f, Math.min(j, 2));
      p = pf & 1;
      if (j >= 2) {
        fl = pf >>> 1;
        const len = fl === 1 ? 4 : 10;
        if (j < len) {
          cnt = j;
          if (j > 2) acc = this.bits(f + 2, j - 2);
        }
      } else cnt = 1;
    }
    put(d.cnt, cnt);
    put(d.acc, acc);
    put(d.pBit, p);
    put(d.flag, fl);
  }

  /** The receiver's values of cycle t into the slots (on demand: a look from outside). */
  materialize(t: number, s: Float64Array): void {
    if (t >= this.rxFrom && t < this.rxUntil) {
      this.writeRx(t, s);
      if (t > this.rxFrom) this.writePulses(t, s);
    }
  }

  /** Write the receiver's values of cycle t back for good; the deserialiser goes on bit by bit from edge t. */
  thawRx(t: number): void {
    this.dec.dropTokV(t);
    const s = this.s;
    this.writeRx(t, s);
    if (t > this.rxFrom) this.writePulses(t, s);
    this.rxUntil = t;
    this.rxEnding = false;
    const d = this.rx.deser;
    d.wakeAt(d.bitsProc, t);
  }

  save(): RxCursorState {
    return { rxFrom: this.rxFrom, rxUntil: this.rxUntil, curF: this.curF, prevP: this.prevP, prevFl: this.prevFl, prevPay: this.prevPay, heldP: this.heldP, heldF: this.heldF, rxEnding: this.rxEnding, x0: this.x0, tokvAt: this.tokvAt };
  }

  restore(st: RxCursorState): void {
    this.rxFrom = st.rxFrom;
    this.rxUntil = st.rxUntil;
    this.curF = st.curF;
    this.prevP = st.prevP;
    this.prevFl = st.prevFl;
    this.prevPay = st.prevPay;
    this.heldP = st.heldP;
    this.heldF = st.heldF;
    this.rxEnding = st.rxEnding;
    this.pfAt = -1;
    this.x0 = st.x0;
    this.tokvAt = st.tokvAt ?? -1;
    this.tokvDue = -1;
  }

  reset(): void {
    this.tokvAt = -1;
    this.tokvDue = -1;
    this.rxEnding = false;
    this.pfAt = -1;
    this.rxFrom = Infinity;
    this.rxUntil = Infinity;
  }
}
