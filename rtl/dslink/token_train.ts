/**
 * Token trains on a serial line (docs/dslink.md#token-trains, docs/kernel.md
 * "Serial lines"): in the fast mode ('activity') one direction of a DS-link
 * in Run that sends token after token (data, FCT, EOP, EOM, a single NULL)
 * posts each token on a kernel DataStrobeLine as the serialiser loads it,
 * and the bit-level units stop shifting:
 *  - the serialiser runs twice a token (the load edge, and the edge before
 *    it, where `more` falls so that `take` rises); its `data`, `strobe`,
 *    `sh`, `left`, `busy` are computed on demand from the posted word;
 *  - the deserialiser runs at four edges of each token it frames (its first
 *    bit, where the pulse of the previous token ends; its flag bit, where
 *    `hdrV` is raised; the next edge, where it falls; its last bit, where
 *    `tokV` carries the token), not at every bit: its registers that change
 *    per bit (`xPrev`, `cnt`, `pBit`, `flag`, `acc`, `discCnt`) are computed
 *    on demand from the line, by the deserialiser's own framing rules (a
 *    token is 4 bits when its flag is 1, else 10);
 *  - the decoder and everything above it are unchanged: they see the same
 *    pulses (`hdrV`, `tokV`, ...) in the same cycles.
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
 * (the NULL train's case, null_train.ts), or is disabled; when either end's
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

export interface TokenTrainStats {
  /** Trains entered and left; tokens posted on the line. */
  entered: number;
  thawed: number;
  tokens: number;
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
  x0: number;
  line: LineState;
  enc: EncodingState;
}

export class DsTokenTrain implements OnDemand {
  /** The sender's serialiser is on the line (its load edges post tokens). */
  active = false;
  readonly stats: TokenTrainStats = { entered: 0, thawed: 0, tokens: 0 };
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
  /** D xor S in the cycle before rxFrom (the receiver's xPrev there). */
  private x0 = 0;
  /**
   * Slots the per-token paths touch, set in bind(): read from this object
   * rather than through the units' Signal objects (at 32×32 each object an
   * evaluation touches is a cache miss: docs/kernel.md "Stop 19").
   */
  private moreN = 0;
  private enableI = 0;
  private tokLenI = 0;
  private tokBitsI = 0;
  private tokI = 0;
  private readonly outN = new Int32Array(7);
  /** Negative control only (tests): post every token this many cycles late. */
  static late = 0;

  constructor(
    /** The sending end (its serialiser) and the receiving end (its deserialiser). */
    readonly tx: DsLinkEnd,
    readonly rx: DsLinkEnd,
  ) {
    this.line = new DataStrobeLine(`${tx.path || tx.name}.line`);
    tx.ser.tokTrain = this;
    rx.deser.tokTrain = this;
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
      this.post(c);
      return true;
    }
    // No token for the line: both units go on bit by bit from here (the
    // receiver from the next edge: the bit on the wire now is still posted).
    this.thawAt(c, c + 1);
    return false;
  }

  /** At a load edge: the token offered can go on the line. */
  private mayPost(): boolean {
    const s = this.s;
    if (s[this.enableI] !== 1) return false;
    const len = s[this.tokLenI]!;
    if (len !== LEN_CTL && len !== LEN_DATA && len !== LEN_NULL) return false;
    // A NULL after a NULL: the link goes idle, the NULL train's case.
    if (len === LEN_NULL && this.tx.ser.txTrain !== null && s[this.tokI] === TOK_NULL) return false;
    return true;
  }

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
    if ((this.stats.tokens & 63) === 0) this.line.forget(c - 64);
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
    const c = ser.cycleRef.cycle;
    this.prevP = s[d.pBit.i]!;
    this.prevFl = s[d.flag.i]!;
    this.x0 = x;
    this.curF = c + 1 + DsTokenTrain.late;
    this.rxFrom = c + 1;
    this.rxUntil = Infinity;
    // From c + 1 on exactly one wire changes per cycle: D xor S alternates from x.
    this.line.encodeFrom(c + 1 - x);
    this.active = true;
    this.stats.entered++;
    // The serialiser's registers keep their slots (next = current: no commit change) and are computed on demand from now on.
    for (const r of [ser.data, ser.strobe, ser.sh, ser.left, ser.busy]) s[r.n] = s[r.i]!;
    this.post(c);
    d.wakeAt(d.bitsProc, c + 1);
    return true;
  }

  // ------------------------------------------------------------ receiver

  /** The deserialiser's bits process at its edge: true when the train handled it. */
  onBits(): boolean {
    const d = this.rx.deser;
    const e = d.cycleRef.cycle;
    if (e < this.rxFrom || e >= this.rxUntil) return false;
    const s = this.s;
    // hdrV, tokV, syncV, hdrP, hdrF, tokCtl, tokPay (next-value slots)
    const o = this.outN;
    s[o[0]!] = 0;
    s[o[1]!] = 0;
    s[o[2]!] = 0;
    const f = this.curF;
    const j = e - f;
    if (j === 0) {
      d.wakeAt(d.bitsProc, e + 1);
    } else if (j === 1) {
      const pf = this.bits(f, 2);
      s[o[0]!] = 1;
      s[o[3]!] = pf & 1;
      s[o[4]!] = pf >>> 1;
      d.wakeAt(d.bitsProc, e + 1);
      d.wakeAt(d.bitsProc, f + ((pf >>> 1) === 1 ? 4 : 10) - 1);
    } else if (j >= 2) {
      const pf = this.bits(f, 2);
      const len = (pf >>> 1) === 1 ? 4 : 10;
      if (j === len - 1) {
        s[o[1]!] = 1;
        s[o[5]!] = pf >>> 1;
        s[o[6]!] = this.bits(f + 2, len - 2);
        this.prevP = pf & 1;
        this.prevFl = pf >>> 1;
        this.curF = f + len;
        d.wakeAt(d.bitsProc, e + 1);
      }
    }
    return true;
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
    if (cycle >= this.rxFrom && cycle < this.rxUntil) this.writeRx(cycle, s);
  }

  nextChange(cycle: number): number {
    return this.active ? cycle + 1 : Infinity;
  }

  /**
   * Write the values back for good: the serialiser's for cycle txCycle, the
   * receiver's for rxCycle (one later when called from the serialiser's
   * load edge), and let the receiver go on bit by bit from rxCycle.
   */
  private thawAt(txCycle: number, rxCycle: number): void {
    const s = this.s;
    this.writeTx(txCycle, s);
    this.writeRx(rxCycle, s);
    this.active = false;
    this.rxUntil = rxCycle;
    this.stats.thawed++;
    const d = this.rx.deser;
    d.wakeAt(d.bitsProc, rxCycle);
  }

  /** A comb process or a stimulus (poke, mode switch): hand back the values of the state's cycle. */
  thaw(): void {
    this.tx.ser.txTrain?.thaw(); // the shared slots' other owner (see materialize)
    if (!this.active) return;
    const ser = this.tx.ser;
    const t = ser.wakeSink!.stateCycle;
    this.thawAt(t, t);
    ser.wakeAt(ser.shiftProc, t);
  }

  save(): TrainState {
    return { active: this.active, loadEdge: this.loadEdge, rxFrom: this.rxFrom, rxUntil: this.rxUntil, curF: this.curF, prevP: this.prevP, prevFl: this.prevFl, x0: this.x0, line: this.line.save(), enc: this.line.saveEncoding() };
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
    this.x0 = st.x0;
    this.line.restore(st.line);
    this.line.restoreEncoding(st.enc);
  }

  reset(): void {
    this.active = false;
    this.rxFrom = Infinity;
    this.rxUntil = Infinity;
    this.line.restore({ runs: [], horizon: 0 });
  }
}
