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
 *    bit and its token-level outputs are computed on demand from the line
 *    by a cursor over it (token_train_rx.ts, the receive half);
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
import { DsTokenTrainRx, type RxCursorState } from './token_train_rx.ts';
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

/** What a snapshot keeps of a train (save/restore): the sender's part, the receiver's cursor. */
interface TrainState extends RxCursorState {
  active: boolean;
  loadEdge: number;
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
  /** The receive half: the deserialiser's values from the line (token_train_rx.ts). */
  readonly recv: DsTokenTrainRx;
  /** Negative control only (tests): post every token this many cycles late. */
  static late = 0;
  /** The serialiser run at the edge before each load instead of the timed write of `more` (stop 21's way; tests count both). */
  static moreByRun = false;
  /** Negative control only (tests): `more` falls one edge late. */
  static moreLate = false;
  /** Negative controls only (tests): the receiver's pulses this many cycles late; the decoder not given its inputs (token_train_rx.ts). */
  static get pulseLate(): number {
    return DsTokenTrainRx.pulseLate;
  }
  static set pulseLate(v: number) {
    DsTokenTrainRx.pulseLate = v;
  }
  static get noDecodeWrite(): boolean {
    return DsTokenTrainRx.noDecodeWrite;
  }
  static set noDecodeWrite(v: boolean) {
    DsTokenTrainRx.noDecodeWrite = v;
  }

  constructor(
    /** The sending end (its serialiser) and the receiving end (its deserialiser). */
    readonly tx: DsLinkEnd,
    readonly rx: DsLinkEnd,
  ) {
    this.line = new DataStrobeLine(`${tx.path || tx.name}.line`);
    this.recv = new DsTokenTrainRx(rx, this.line, this);
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
    this.slots = [...[ser.data, ser.strobe, ser.sh, ser.left, ser.busy, ser.more].map((r) => r.i), ...this.recv.bind()];
    this.moreN = ser.more.n;
    this.enableI = ser.enable.i;
    this.tokLenI = ser.tokLen.i;
    this.tokBitsI = ser.tokBits.i;
    this.tokI = this.tx.tokens.tok.i;
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
    // Woken at the edge before a load by the token choice changing: `more`
    // falls here all the same (post's timed write; this write equals it).
    if (c === this.loadEdge - 1) {
      s[this.moreN] = 0;
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
    if (s[this.tx.fsm.state.i] !== S_RUN || s[this.rx.fsm.state.i] !== S_RUN || !(c > this.recv.rxFrom && c < this.recv.rxUntil)) return false;
    this.writeTx(c, s);
    this.recv.writeRx(c, s);
    this.recv.writePulses(c, s);
    if (!nt.handFromTokens(c)) return false;
    // The NULL train froze the decoder's registers (next = current); timed
    // clears of its pulses go too (none stands here in the tests: the
    // decoder has not pulsed at a handover edge before the serialiser).
    this.rx.dec.cancelPulseClears();
    this.rx.dec.dropTokV(c + 1);
    this.active = false;
    this.recv.rxUntil = c;
    this.recv.rxEnding = false;
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
    // A forced tokBits wider than a NULL is no idle NULL either (mayPost's width rule; docs/kernel.md "Stop 21: review").
    return s[this.enableI] === 1 && s[this.tokLenI] === LEN_NULL && s[this.tokBitsI]! >>> LEN_NULL === 0 && s[this.tokI] === TOK_NULL && this.tx.ser.txTrain !== null;
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
    // `more` falls at the edge before the next load (the token's last bit is
    // on the wire next cycle: take) by a timed register write, not a run of
    // the serialiser, which has nothing else to do there (docs/kernel.md
    // "Stop 22: token layer"); the serialiser runs at the load edge.
    if (DsTokenTrain.moreByRun) ser.wakeAt(ser.shiftProc, c + len - 1);
    else ser.writeAt(ser.more, c + len - (DsTokenTrain.moreLate ? 0 : 1), 0);
    ser.wakeAt(ser.shiftProc, c + len);
    this.stats.tokens++;
    if ((this.stats.tokens & 63) === 0) {
      this.recv.syncRx(c - 64); // the receiver's cursor reads from curF on: move it past what is forgotten
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
    this.idleNulls = 0;
    this.recv.start(c, c + 1 + DsTokenTrain.late, x, pay);
    // From c + 1 on exactly one wire changes per cycle: D xor S alternates from x.
    this.line.encodeFrom(c + 1 - x);
    this.active = true;
    this.stats.entered++;
    // The serialiser's registers keep their slots (next = current: no commit change) and are computed on demand from now on.
    for (const r of [ser.data, ser.strobe, ser.sh, ser.left, ser.busy]) s[r.n] = s[r.i]!;
    this.post(c);
  }

  // ------------------------------------------------------------ receiver (token_train_rx.ts)

  /** The deserialiser's bits process at its edge: true when the train handled it. */
  onBits(): boolean {
    return this.recv.onBits();
  }

  /** The decoder's decode process at its edge, before it reads its inputs (they are written here). */
  onDecode(): void {
    this.recv.onDecode();
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

  materialize(cycle: number, s: Float64Array): void {
    // The direction's NULL train shares these slots and the kernel asks one
    // owner per slot (the later one, this train): it answers for both.
    this.tx.ser.txTrain?.materialize(cycle, s);
    if (this.active) this.writeTx(cycle, s);
    this.recv.materialize(cycle, s);
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
      this.rx.dec.dropTokV(rxCycle);
      this.recv.rxUntil = rxCycle + 1;
      this.recv.rxEnding = true;
      const d = this.rx.deser;
      d.wakeAt(d.bitsProc, rxCycle);
    } else this.recv.thawRx(rxCycle);
  }

  /** A comb process or a stimulus (poke, mode switch): hand back the values of the state's cycle. */
  thaw(): void {
    this.tx.ser.txTrain?.thaw(); // the shared slots' other owner (see materialize)
    const ser = this.tx.ser;
    if (!this.active) {
      if (this.recv.rxEnding) this.recv.thawRx(ser.wakeSink!.stateCycle);
      return;
    }
    const t = ser.wakeSink!.stateCycle;
    // The serialiser computes `more` bit by bit from here (it runs at t and
    // at each edge after, as `left` changes, so it would override the write
    // anyway: dropped so that no write stands for a train that has ended).
    ser.cancelWrites(ser.more);
    this.thawAt(t, t);
    ser.wakeAt(ser.shiftProc, t);
  }

  save(): TrainState {
    return { active: this.active, loadEdge: this.loadEdge, ...this.recv.save(), line: this.line.save(), enc: this.line.saveEncoding() };
  }

  restore(v: unknown): void {
    const st = v as TrainState;
    this.active = st.active;
    this.loadEdge = st.loadEdge;
    this.recv.restore(st);
    this.line.restore(st.line);
    this.line.restoreEncoding(st.enc);
  }

  reset(): void {
    this.active = false;
    this.recv.reset();
    this.line.restore({ runs: [], horizon: 0 });
  }
}
