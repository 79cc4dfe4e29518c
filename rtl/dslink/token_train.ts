/**
 * Token trains on a serial line (docs/dslink.md#token-trains, docs/kernel.md
 * "Serial lines"): in the fast mode ('activity') one direction of a DS-link
 * in Run that sends token after token (data, FCT, EOP, EOM, a single NULL)
 * posts each token on a kernel DataStrobeLine as the serialiser loads it,
 * and the bit-level units stop shifting:
 *  - the serialiser runs twice a token (the load edge, and the edge before
 *    it, where `more` falls so that `take` rises); its `data`, `strobe`,
 *    `sh`, `left`, `busy` are computed on demand from the posted word;
 *  - the deserialiser does not run at all: its registers that change per
 *    bit (`xPrev`, `cnt`, `pBit`, `flag`, `acc`, `discCnt`) and its
 *    token-level outputs (`hdrV`, `hdrP`, `hdrF`, `tokV`, `tokCtl`,
 *    `tokPay`, `syncV`) are computed on demand from the line, by the
 *    deserialiser's own framing rules (a token is 4 bits when its flag is
 *    1, else 10), with a cursor (the first bit of the token it frames) that
 *    moves on when asked (`syncRx`);
 *  - the decoder is woken by timed wake-ups in the cycles where its inputs
 *    pulse (`hdrV` at a token's first bit + 2, `tokV` at its last bit + 1:
 *    each such run schedules the next) instead of by the pulses' rises and
 *    falls, and reads its inputs through `onDecode`, which writes their
 *    values of the cycle into the slots first; what it does in those cycles
 *    is unchanged, and so is everything above it (docs/dslink.md#token-trains,
 *    docs/kernel.md "Stop 20: receive side").
 * D and S (the wires, one net with the far end's dIn/sIn) are on demand
 * too, so peek, the VCD, the REPL (watches and breakpoints on a wire) and
 * observers see every bit of every cycle.
 *
 * Exact by construction, and checked at entry: the train starts at a load
 * edge c where both ends are in Run and the receiver completes a token with
 * the bit on the wire at c (so at c + 1 it is synchronised, between tokens,
 * `acc` 0, a bit every cycle from then on: exactly one of D and S changes per
 * cycle while tokens follow each other with no gap). It ends ("thaw": every
 * on-demand value written back, both units go on bit by bit) when the
 * sender loads no token (the quiet run-idle modes), a NULL after a NULL
 * (the NULL train's case, null_train.ts: handed to it at that edge when its
 * recorded period continues the state, docs/dslink.md#train-handover), or
 * is disabled; when either end's
 * enable changes (the link end's `trainWatch` comb process); before a poke
 * of one of its registers; on a switch to the reference mode; on reset.
 * The reference mode ('plain') never enters a train: it is the bit-by-bit
 * model the fast mode is held against at every cycle and every register
 * (test/dslink/token_train.test.ts, test/c104/fast_reference.test.ts;
 * negative control `DsTokenTrain.late`: every token posted a cycle late).
 *
 * Not on links with flow-through (the receiver's token outputs are comb
 * logic of the wires) or a wire-fault injector between the ends (it reads
 * the wires every cycle): those stay bit by bit (ports.ts).
 */
import { DataStrobeLine, type EncodingState, type LineState } from '../kernel/serial_line.ts';
import type { Signal } from '../kernel/module.ts';
import type { OnDemand } from '../kernel/simulator.ts';
import type { DsLinkEnd } from './end.ts';
import { S_RUN } from './link_fsm.ts';
import { LEN_CTL, LEN_DATA, LEN_NULL, TOK_NULL } from './tokens.ts';

/**
 * NULLs after a NULL a token train posts while it waits for the receiver's
 * state to reach its NULL period's (docs/dslink.md#train-handover): one NULL
 * is enough after a character ('checked' holds it until the next token's
 * parity); more would only delay the fall back to a recording.
 */
const IDLE_NULLS = 2;

export interface TokenTrainStats {
  /** Trains entered and left; tokens posted on the line. */
  entered: number;
  thawed: number;
  tokens: number;
  /** Trains left straight into the direction's NULL train; entered straight from it (docs/dslink.md#train-handover). */
  toNull: number;
  fromNull: number;
}

/** What a snapshot keeps of a train (save/restore). */
interface TrainState {
  active: boolean;
  loadEdge: number;
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
  line: LineState;
  enc: EncodingState;
}

export class DsTokenTrain implements OnDemand {
  /** The sender's serialiser is on the line (its load edges post tokens). */
  active = false;
  readonly stats: TokenTrainStats = { entered: 0, thawed: 0, tokens: 0, toNull: 0, fromNull: 0 };
  readonly line: DataStrobeLine;
  slots: readonly number[] = [];
  /** Next load edge of the serialiser (a token's last bit is on the wire at loadEdge). */
  private loadEdge = 0;
  /** The deserialiser is on the line at edges rxFrom <= e < rxUntil. */
  private rxFrom = Infinity;
  private rxUntil = Infinity;
  /** First bit (cycle on the wire) of the token the receiver frames now. */
  private curF = 0;
  /** pBit and flag of the receiver's previous token (its registers keep them until the next token's bits). */
  private prevP = 0;
  private prevFl = 0;
  /** The previous token's data bits or control code (tokPay keeps it until the next token's last bit). */
  private prevPay = 0;
  /**
   * hdrP and hdrF until the current token's flag bit: the previous token's
   * parity and flag, or at entry what the registers hold (equal to pBit and
   * flag unless one was poked since).
   */
  private heldP = 0;
  private heldF = 0;
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
  private rxEnding = false;
  /** D xor S in the cycle before rxFrom (the receiver's xPrev there). */
  private x0 = 0;
  /**
   * Slots the per-token paths touch, set in bind(): read from this object
   * rather than through the units' Signal objects (fewer objects touched a
   * token; at 32×32 little of it is still in cache: docs/kernel.md "Stop 19").
   */
  private moreN = 0;
  private enableI = 0;
  private tokLenI = 0;
  private tokBitsI = 0;
  private tokI = 0;
  private readonly outI = new Int32Array(7);
  private readonly outN = new Int32Array(7);
  /** Negative control only (tests): post every token this many cycles late. */
  static late = 0;
  /** Negative controls only (tests): the receiver's pulses this many cycles late; the decoder not given its inputs (onDecode a no-op). */
  static pulseLate = 0;
  static noDecodeWrite = false;

  constructor(
    /** The sending end (its serialiser) and the receiving end (its deserialiser). */
    readonly tx: DsLinkEnd,
    readonly rx: DsLinkEnd,
  ) {
    this.line = new DataStrobeLine(`${tx.path || tx.name}.line`);
    tx.ser.tokTrain = this;
    rx.deser.tokTrain = this;
    rx.dec.tokTrain = this;
  }

  private get s(): Float64Array {
    return this.tx.s;
  }

  /** After elaboration (slots are known): DsLinkEnd.onElaborated of the sending end. */
  bind(): void {
    const ser = this.tx.ser;
    const d = this.rx.deser;
    this.slots = [ser.data, ser.strobe, ser.sh, ser.left, ser.busy, ser.more, d.xPrev, d.cnt, d.pBit, d.flag, d.acc, d.discCnt, d.disc, d.gotBit, d.synced, d.hist].map((r) => r.i);
    this.moreN = ser.more.n;
    this.enableI = ser.enable.i;
    this.tokLenI = ser.tokLen.i;
    this.tokBitsI = ser.tokBits.i;
    this.tokI = this.tx.tokens.tok.i;
    const o = d.out;
    this.slots = [...this.slots, o.hdrV.i, o.tokV.i, o.syncV.i, o.hdrP.i, o.hdrF.i, o.tokCtl.i, o.tokPay.i];
    this.outI.set([o.hdrV.i, o.tokV.i, o.syncV.i, o.hdrP.i, o.hdrF.i, o.tokCtl.i, o.tokPay.i]);
    this.outN.set([o.hdrV.n, o.tokV.n, o.syncV.n, o.hdrP.n, o.hdrF.n, o.tokCtl.n, o.tokPay.n]);
  }

  // ------------------------------------------------------------ sender

  /**
   * The serialiser's shift process at the edge of cycle c, before anything
   * else. Returns true when the train handled the edge.
   */
  onShift(): boolean {
    if (!this.active) return false;
    const ser = this.tx.ser;
    const c = ser.cycleRef.cycle;
    const s = this.s;
    if (c === this.loadEdge - 1) {
      s[this.moreN] = 0; // the token's last bit is on the wire next cycle: take
      ser.wakeAt(ser.shiftProc, this.loadEdge);
      return true;
    }
    if (c !== this.loadEdge) return true; // woken by the token choice changing mid-token: not read until the boundary
    if (this.mayPost()) {
      this.idleNulls = 0;
      this.post(c);
      return true;
    }
    // A NULL after a NULL: straight into the NULL train when its period
    // (recorded earlier) continues this state (docs/dslink.md#train-handover).
    if (this.handToNull(c)) return true;
    // Not yet (the receiver's decoder still holds the last character in
    // `pendVal` and `tok` until the NULLs have arrived): post the NULL and
    // ask again at the next load edge, a few times.
    if (this.idleNulls < IDLE_NULLS && this.idleNull() && this.tx.ser.txTrain!.hasPeriod()) {
      this.idleNulls++;
      this.post(c);
      return true;
    }
    // No token for the line: both units go on bit by bit from here (the
    // receiver from the next edge: the bit on the wire now is still posted).
    this.thawAt(c, c + 1);
    return false;
  }

  /**
   * At load edge c, the link going idle: every on-demand value of cycle c
   * written into the slots, and the NULL train asked to take the direction
   * from this edge (null_train.ts handFromTokens). The train then answers
   * for every slot this one did; the receiver's part ends at c.
   */
  private handToNull(c: number): boolean {
    const nt = this.tx.ser.txTrain;
    const s = this.s;
    if (nt === null || !this.idleNull()) return false;
    if (s[this.tx.fsm.state.i] !== S_RUN || s[this.rx.fsm.state.i] !== S_RUN || !(c > this.rxFrom && c < this.rxUntil)) return false;
    this.writeTx(c, s);
    this.writeRx(c, s);
    this.writePulses(c, s);
    if (!nt.handFromTokens(c)) return false;
    this.active = false;
    this.rxUntil = c;
    this.rxEnding = false;
    this.stats.thawed++;
    this.stats.toNull++;
    return true;
  }

  /** At a load edge: the token offered can go on the line. */
  private mayPost(): boolean {
    const s = this.s;
    if (s[this.enableI] !== 1) return false;
    const len = s[this.tokLenI]!;
    if (len !== LEN_CTL && len !== LEN_DATA && len !== LEN_NULL) return false;
    // A word wider than its length (a forced tokBits): the serialiser's `sh` keeps the high bits, which no line word carries; bit by bit.
    if (s[this.tokBitsI]! >>> len !== 0) return false;
    // A NULL after a NULL: the link goes idle, the NULL train's case.
    if (len === LEN_NULL && this.tx.ser.txTrain !== null && s[this.tokI] === TOK_NULL) return false;
    return true;
  }

  /** At a load edge: the sender enabled and offered a NULL after a NULL (the link idle: mayPost's refusal). */
  private idleNull(): boolean {
    const s = this.s;
    return s[this.enableI] === 1 && s[this.tokLenI] === LEN_NULL && s[this.tokI] === TOK_NULL && this.tx.ser.txTrain !== null;
  }

  /** NULLs after a NULL posted since the last other token, waiting for a handover to the NULL train. */
  private idleNulls = 0;

  /** Post the offered token from cycle c + 1 on (edge c loads it). */
  private post(c: number): void {
    const s = this.s;
    const ser = this.tx.ser;
    const len = s[this.tokLenI]!;
    this.line.send(c + 1 + DsTokenTrain.late, s[this.tokBitsI]!, len, 'lsb-first');
    s[this.moreN] = 1;
    this.loadEdge = c + len;
    ser.wakeAt(ser.shiftProc, c + len - 1);
    this.stats.tokens++;
    if ((this.stats.tokens & 63) === 0) {
      this.syncRx(c - 64); // the receiver's cursor reads from curF on: move it past what is forgotten
      this.line.forget(c - 64);
    }
  }

  /**
   * Called by the serialiser's shift process at a load edge where no train
   * runs (after the NULL train had its say): start one if the token offered
   * and both units allow it (see the file header).
   */
  tryEnter(): boolean {
    const ser = this.tx.ser;
    const sink = ser.wakeSink!;
    if (sink.mode !== 'activity') return false;
    const s = this.s;
    if (s[ser.left.i] !== 0 || !this.mayPost()) return false;
    const nt = ser.txTrain;
    if (nt !== null && nt.justThawed(ser.cycleRef.cycle)) return false; // the receiver's registers already hold the next cycle's values
    if (s[this.tx.fsm.state.i] !== S_RUN || s[this.rx.fsm.state.i] !== S_RUN) return false;
    const d = this.rx.deser;
    if (s[d.enable.i] !== 1 || s[d.synced.i] !== 1 || s[d.gotBit.i] !== 1) return false;
    const x = s[ser.data.i]! ^ s[ser.strobe.i]!;
    if (x === s[d.xPrev.i]) return false; // no bit on the wire now
    const cnt = s[d.cnt.i]!;
    if (!(cnt >= 2 && cnt + 1 === (s[d.flag.i] === 1 ? 4 : 10))) return false; // the receiver does not end a token now
    // The token the receiver completes at c (its tokPay from cycle c + 1 on): the deserialiser's rule (rx_deserialiser.ts).
    this.start(ser.cycleRef.cycle, x, s[d.acc.i]! | (s[ser.data.i]! << (cnt - 2)));
    return true;
  }

  /**
   * At the load edge c of a dormant NULL train offered another token, after
   * its thaw wrote the serialiser's values of cycle c and the receiver's of
   * c + 1 (null_train.ts): start here when the offered token can go on the
   * line and the receiver completed the NULL with the bit on the wire at c
   * (tokV 1 and `cnt` 0 at c + 1), so the train's receiver rules hold from
   * c + 1 on as at tryEnter's edges (docs/dslink.md#train-handover).
   */
  enterAfterNull(c: number): boolean {
    const s = this.s;
    if (this.tx.ser.wakeSink!.mode !== 'activity' || !this.mayPost()) return false;
    if (s[this.tx.fsm.state.i] !== S_RUN || s[this.rx.fsm.state.i] !== S_RUN) return false;
    const d = this.rx.deser;
    if (s[d.enable.i] !== 1 || s[d.synced.i] !== 1 || s[d.gotBit.i] !== 1 || s[d.out.tokV.i] !== 1 || s[d.cnt.i] !== 0 || s[d.acc.i] !== 0) return false;
    const ser = this.tx.ser;
    const x = s[ser.data.i]! ^ s[ser.strobe.i]!;
    if (s[d.xPrev.i] !== x) return false;
    // The receiver's values at c + 1: pBit, flag, hdrP, hdrF as at c (a token's end keeps them), tokPay the token just completed.
    this.start(c, x, s[d.out.tokPay.i]!);
    this.stats.fromNull++;
    return true;
  }

  /**
   * Start at load edge c: D xor S is x in cycle c, the receiver completes a
   * token with payload pay at c and frames the next from c + 1 (its pBit,
   * flag, hdrP, hdrF read from the slots: unchanged by that token's end).
   */
  private start(c: number, x: number, pay: number): void {
    const s = this.s;
    const ser = this.tx.ser;
    const d = this.rx.deser;
    this.prevP = s[d.pBit.i]!;
    this.prevFl = s[d.flag.i]!;
    this.prevPay = pay;
    this.heldP = s[d.out.hdrP.i]!;
    this.heldF = s[d.out.hdrF.i]!;
    this.x0 = x;
    this.idleNulls = 0;
    this.curF = c + 1 + DsTokenTrain.late;
    this.rxFrom = c + 1;
    this.rxUntil = Infinity;
    this.rxEnding = false;
    this.pfAt = -1; // a token posted earlier in another history (a restored snapshot) may have started there
    // From c + 1 on exactly one wire changes per cycle: D xor S alternates from x.
    this.line.encodeFrom(c + 1 - x);
    this.active = true;
    this.stats.entered++;
    // The serialiser's registers keep their slots (next = current: no commit change) and are computed on demand from now on.
    for (const r of [ser.data, ser.strobe, ser.sh, ser.left, ser.busy]) s[r.n] = s[r.i]!;
    this.post(c);
    // The decoder's first pulse of the train: the first token's hdrV (onDecode schedules the rest).
    const dec = this.rx.dec;
    dec.wakeAt(dec.decodeProc, this.curF + 2);
  }

  // ------------------------------------------------------------ receiver

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
    const dec = this.rx.dec;
    const t = dec.cycleRef.cycle;
    if (t <= this.rxFrom || t >= this.rxUntil) return;
    const j = this.writePulses(t, DsTokenTrain.noDecodeWrite ? new Float64Array(this.s.length) : this.s);
    if (!this.active) return;
    // j 0: tokV of the previous token now, the next token's hdrV at curF + 2; j 2: hdrV now, tokV when the token has ended.
    const late = DsTokenTrain.pulseLate;
    if (j === 0) dec.wakeAt(dec.decodeProc, this.curF + 2 + late);
    else if (j === 2) dec.wakeAt(dec.decodeProc, this.curF + late + (this.pfOf(this.curF) >>> 1 === 1 ? 4 : 10));
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
  private syncRx(t: number): void {
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
  private writePulses(t: number, s: Float64Array): number {
    t -= DsTokenTrain.pulseLate;
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

  // ------------------------------------------------------------ values on demand

  /** Write the serialiser's registers for cycle t into both slots. */
  private writeTx(t: number, s: Float64Array): void {
    const w = this.line.wordAt(t);
    if (w === undefined) return; // before the first token: the slots are real
    const ser = this.tx.ser;
    const k = t - w.start;
    const put = (r: Signal, v: number): void => {
      s[r.i] = v;
      s[r.n] = v;
    };
    put(ser.data, (w.word >>> k) & 1);
    put(ser.strobe, this.line.strobeAt(t));
    put(ser.sh, w.word >>> (k + 1));
    put(ser.left, w.nbits - 1 - k);
    put(ser.busy, 1);
  }

  /** Write the deserialiser's per-bit registers for cycle t (t >= rxFrom) into both slots. */
  private writeRx(t: number, s: Float64Array): void {
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

  materialize(cycle: number, s: Float64Array): void {
    // The direction's NULL train shares these slots and the kernel asks one
    // owner per slot (the later one, this train): it answers for both.
    this.tx.ser.txTrain?.materialize(cycle, s);
    if (this.active) this.writeTx(cycle, s);
    if (cycle >= this.rxFrom && cycle < this.rxUntil) {
      this.writeRx(cycle, s);
      if (cycle > this.rxFrom) this.writePulses(cycle, s);
    }
  }

  nextChange(cycle: number): number {
    return this.active ? cycle + 1 : Infinity;
  }

  /**
   * Write the values back for good: the serialiser's for cycle txCycle, the
   * receiver's for rxCycle, and let the receiver go on bit by bit from
   * rxCycle. Called from the serialiser's load edge (rxCycle one later),
   * the receiver's are written at rxCycle (rxEnding: onBits, onDecode or a
   * thaw, whichever comes first).
   */
  private thawAt(txCycle: number, rxCycle: number): void {
    this.writeTx(txCycle, this.s);
    this.active = false;
    this.stats.thawed++;
    if (rxCycle > txCycle) {
      this.rxUntil = rxCycle + 1;
      this.rxEnding = true;
      const d = this.rx.deser;
      d.wakeAt(d.bitsProc, rxCycle);
    } else this.thawRx(rxCycle);
  }

  /** Write the receiver's values of cycle t back for good; the deserialiser goes on bit by bit from edge t. */
  private thawRx(t: number): void {
    const s = this.s;
    this.writeRx(t, s);
    if (t > this.rxFrom) this.writePulses(t, s);
    this.rxUntil = t;
    this.rxEnding = false;
    const d = this.rx.deser;
    d.wakeAt(d.bitsProc, t);
  }

  /** A comb process or a stimulus (poke, mode switch): hand back the values of the state's cycle. */
  thaw(): void {
    this.tx.ser.txTrain?.thaw(); // the shared slots' other owner (see materialize)
    const ser = this.tx.ser;
    if (!this.active) {
      if (this.rxEnding) this.thawRx(ser.wakeSink!.stateCycle);
      return;
    }
    const t = ser.wakeSink!.stateCycle;
    this.thawAt(t, t);
    ser.wakeAt(ser.shiftProc, t);
  }

  save(): TrainState {
    return { active: this.active, loadEdge: this.loadEdge, rxFrom: this.rxFrom, rxUntil: this.rxUntil, curF: this.curF, prevP: this.prevP, prevFl: this.prevFl, prevPay: this.prevPay, heldP: this.heldP, heldF: this.heldF, rxEnding: this.rxEnding, x0: this.x0, line: this.line.save(), enc: this.line.saveEncoding() };
  }

  restore(v: unknown): void {
    const st = v as TrainState;
    this.active = st.active;
    this.loadEdge = st.loadEdge;
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
    this.line.restore(st.line);
    this.line.restoreEncoding(st.enc);
  }

  reset(): void {
    this.active = false;
    this.rxEnding = false;
    this.pfAt = -1;
    this.rxFrom = Infinity;
    this.rxUntil = Infinity;
    this.line.restore({ runs: [], horizon: 0 });
  }
}
