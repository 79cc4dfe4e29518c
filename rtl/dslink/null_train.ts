/**
 * NULL trains on demand (docs/dslink.md#null-trains, docs/kernel.md
 * "On-demand values"): one direction of a DS-link in Run with nothing to
 * send carries NULL after NULL, and every register of that direction's
 * bit-level units (the sender's serialiser, the receiver's deserialiser and
 * decoder) then repeats with the NULL's period, 8 cycles. In the fast mode
 * ('activity') this unit notices such a stretch, records one period of
 * those registers, and from then on the units stop evaluating: their values
 * are computed on demand (the recorded period, by cycle) for peek, the VCD,
 * the REPL and observers.
 *
 * Train handover (docs/dslink.md#train-handover): once a period has been
 * recorded, later idle stretches are entered straight from the token
 * train's load edge (handFromTokens: the state checked against the
 * period's load-edge row, no recording), and a dormant train offered
 * another token hands the direction straight to the token train there.
 *
 * Still trains (docs/dslink.md#still-trains): from entry on (while the
 * choice offers the train's NULL), the serialiser's `more` and its `take`
 * are on demand too, so an idle direction costs no evaluation at all.
 * `take` is read only by the token choice (`choose`, comb) and its
 * register update (`advance`, seq), and
 * while the choice offers this train's NULL and the choice's registers hold
 * what a NULL leaves in them, neither depends on `take` (no FCT or normal
 * token is taken; `advance` rewrites the same values). So the first change
 * that could matter runs `choose` (every input of `advance` but the enable
 * is one of `choose`'s, and an enable change thaws through the link end's
 * `trainWatch`), and `choose` hands the offered token to `offered()` before
 * it reads `take`: another token ends the still stretch there, writing the
 * true `more` and `take` of that cycle and waking the serialiser at the
 * next boundary as before. A poke of `more`, `take` or one of the choice's
 * registers (owned slots; the choice's by a provider that writes nothing),
 * a mode switch and a reset thaw everything.
 *
 * Exact by construction: the recorded period is what the bit-by-bit units
 * produced, checked (every register of the direction at cycle t + 8 equal
 * to cycle t, the serialiser loading the same NULL word in between), and
 * the units' future depends only on their registers and their inputs. Every input change hands the values back before anyone reads
 * them ("thaw"): the sender loading another token (or a different NULL)
 * at a token boundary, either end's enable (the link state machine leaving
 * Run, watched by a comb process of the link end), a poke of one of the
 * registers, a switch to the reference mode. The reference mode ('plain')
 * never enters a train: it is the bit-by-bit model it is checked against
 * (test/dslink/null_train.test.ts, test/c104/fast_reference.test.ts).
 *
 * Registers of the direction read by other units while a train runs: the
 * decoder's gotFct, gotChar, char, errParity, errEscape and the
 * deserialiser's disc (constant during a train: checked on entry); gotNull
 * and pendKind (the link state machine reads them only outside Run); the
 * serialiser's left (read in the error states, entered only after a thaw).
 */
import type { Signal } from '../kernel/module.ts';
import type { OnDemand } from '../kernel/simulator.ts';
import { TOK_NULL } from './tokens.ts';
import type { DsLinkEnd } from './end.ts';
import { S_RUN } from './link_fsm.ts';

/**
 * Periods recorded before entering. One is enough: the direction's units are
 * deterministic, so equal registers at cycle t and t + 8 with the same
 * inputs (the same NULL word loaded in between, both ends still in Run)
 * repeat for as long as the inputs do.
 */
const PERIODS = 1;

export interface NullTrainStats {
  /** Trains entered and left; still stretches begun and ended by another token offered. */
  entered: number;
  thawed: number;
  stilled: number;
  handedBack: number;
  /** Of those, handed back in a boundary cycle (`take` 1 then: the FCT or character goes at this boundary). */
  atBoundary: number;
  /** Trains entered straight from a token train's load edge (no recording); left straight into a token train. */
  fromTokens: number;
  toTokens: number;
}

export class DsNullTrain implements OnDemand {
  /** True while the direction's values are on demand. */
  dormant = false;
  /** Dormant and `more`/`take` on demand too: no wake-up at NULL boundaries (the file header). */
  still = false;
  slots: readonly number[] = [];
  readonly stats: NullTrainStats = { entered: 0, thawed: 0, stilled: 0, handedBack: 0, atBoundary: 0, fromTokens: 0, toTokens: 0 };
  /** Current-value and next-value slots of the frozen registers: the serialiser's first, then the receiver's. */
  private readonly cur: Int32Array;
  private readonly nxt: Int32Array;
  private readonly nTx: number;
  /** Slots compared on entry besides the frozen ones (the serialiser's `more`). */
  private moreSlot = -1;
  private leftSlot = -1;
  /** Slots of the dormant path (per NULL): read here, not through Signal objects (docs/kernel.md "Stop 19"). */
  private moreN = -1;
  private enableI = -1;
  private tokLenI = -1;
  private tokBitsI = -1;
  private moreI = -1;
  private takeI = -1;
  /** The token choice's registers (prevPar, nullSent, tok, normalOnWire): what a NULL leaves in them is checked while still. */
  private readonly choiceI = new Int32Array(4);
  /** Frozen registers other units read unguarded: constant over the period, or no train. */
  private readonly constIdx: number[];
  /**
   * Frozen registers no unit of the direction reads while a NULL period runs
   * (the decoder's `char`, written only when a character is released, and
   * `suspectTotal`, read only on a parity error): a handover from a token
   * train carries their current values into the period (handFromTokens).
   */
  private readonly passiveIdx: number[];
  // recording
  private rec = -1;
  private recNext = 0;
  private snaps: Float64Array[] = [];
  private word = 0;
  private len = 0;
  // dormant
  private table: Float64Array[] = [];
  private origin = 0;
  private loadEdge = 0;
  /** Row of the table at a load edge (the NULL's last bit on the wire, `left` 0). */
  private loadPhase = -1;

  constructor(
    /** The sending end (its serialiser) and the receiving end (its deserialiser and decoder). */
    readonly tx: DsLinkEnd,
    readonly rx: DsLinkEnd,
  ) {
    const ser = tx.ser;
    const txRegs: Signal[] = [ser.data, ser.strobe, ser.sh, ser.left, ser.busy];
    const d = rx.deser;
    const dec = rx.dec;
    const rxRegs: Signal[] = [
      ...Object.values(d.out),
      d.disc, d.gotBit, d.xPrev, d.synced, d.hist, d.cnt, d.pBit, d.flag, d.acc, d.discCnt,
      dec.gotNull, dec.gotFct, dec.gotChar, dec.char, dec.errParity, dec.errEscape, dec.prevPar, dec.esc, dec.dead, dec.pendKind, dec.pendVal, dec.tok, dec.unchecked, dec.suspectTotal,
      ...(dec.nullPair ? [dec.nullPair] : []),
      ...(dec.lastNull ? [dec.lastNull] : []),
    ];
    const regs = [...txRegs, ...rxRegs];
    this.nTx = txRegs.length;
    this.regs = regs;
    this.cur = new Int32Array(regs.length);
    this.nxt = new Int32Array(regs.length);
    const outsideRead = new Set<Signal>([d.disc, dec.gotFct, dec.gotChar, dec.char, dec.errParity, dec.errEscape, ...(dec.nullPair ? [dec.nullPair] : [])]);
    this.constIdx = regs.flatMap((r, k) => (outsideRead.has(r) ? [k] : []));
    const passive = new Set<Signal>([dec.char, dec.suspectTotal]);
    this.passiveIdx = regs.flatMap((r, k) => (passive.has(r) ? [k] : []));
    tx.ser.txTrain = this;
    tx.tokens.nullTrain = this;
    rx.deser.rxTrain = this;
    rx.dec.rxTrain = this;
  }

  private readonly regs: Signal[];

  /** After elaboration (slots are known): DsLinkEnd.onElaborated of the sending end. */
  bind(): void {
    this.regs.forEach((r, k) => {
      this.cur[k] = r.i;
      this.nxt[k] = r.n;
    });
    const ser = this.tx.ser;
    const tok = this.tx.tokens;
    const choice = [tok.prevPar.i, tok.nullSent.i, tok.tok.i, tok.normalOnWire.i];
    this.slots = [...this.regs.map((r) => r.i), ser.more.i, ser.take.i];
    this.choiceI.set(choice);
    // A poke of one of the choice's registers hands everything back first
    // (the still stretch relies on their values). They are owned by a
    // provider of their own with nothing to write (their slots are real), so
    // a peek of them (the link meter's, every cycle) costs nothing.
    this.tx.wakeSink!.addOnDemand({ slots: choice, materialize: () => {}, nextChange: () => Infinity, thaw: () => this.thaw() });
    this.moreSlot = ser.more.i;
    this.leftSlot = ser.left.i;
    [this.moreN, this.moreI, this.takeI, this.enableI, this.tokLenI, this.tokBitsI] = [ser.more.n, ser.more.i, ser.take.i, ser.enable.i, ser.tokLen.i, ser.tokBits.i];
  }

  private get s(): Float64Array {
    return this.tx.s;
  }

  /**
   * The serialiser's shift process, at the start of each of its runs (edge
   * of cycle c). Returns true when the train handled the edge (the process
   * then does nothing more).
   */
  onShift(): boolean {
    const s = this.tx.s;
    // The common case, every bit of a running link: not in a train, not
    // recording, not at a token boundary.
    if (!this.dormant && this.rec < 0 && s[this.leftSlot] !== 0) return false;
    const ser = this.tx.ser;
    const sink = ser.wakeSink!;
    const c = ser.cycleRef.cycle;
    if (this.dormant) {
      if (this.still) {
        // Woken by a poke: of a register the serialiser reads (the same NULL
        // at every boundary), or of the choice's tokBits/tokLen (comb wires,
        // forced until after this edge: `choose` did not run, so offered()
        // saw nothing). In a boundary cycle the serialiser loads what the
        // wires say: another token hands back here and thaws below
        // (test/dslink/still_train_review.test.ts).
        if (c !== this.boundary(c) || (s[this.tokLenI] === this.len && s[this.tokBitsI] === this.word)) return true;
        this.handBack(c, false);
      }
      if (c === this.loadEdge - 1) {
        s[this.moreN] = 0; // the NULL's last bit is on the wire next cycle: take
        ser.wakeAt(ser.shiftProc, this.loadEdge);
        return true;
      }
      if (c !== this.loadEdge) return true; // woken by the token choice changing mid-token: not read until the boundary
      if (s[this.enableI] === 1 && s[this.tokLenI] === this.len && s[this.tokBitsI] === this.word) {
        s[this.moreN] = 1;
        this.loadEdge += this.len;
        // Still from here when the choice's registers hold what a NULL
        // leaves (the choice offers this NULL: checked above); `choose` calls
        // offered() when that changes.
        if (this.quietOffer()) this.goStill();
        else ser.wakeAt(ser.shiftProc, this.loadEdge - 1);
        return true;
      }
      // Another token: the serialiser goes on bit by bit from this edge; the
      // receiver's state at c + 1 still follows the period (bits up to c are NULL bits).
      this.thawAt(c, c + 1, false, false);
      // Or straight onto the token train's line from this edge (docs/dslink.md#train-handover):
      // the deserialiser is then on demand from c + 1, no run there.
      if (this.tx.ser.tokTrain?.enterAfterNull(c)) {
        this.stats.toTokens++;
        return true;
      }
      this.rx.deser.wakeAt(this.rx.deser.bitsProc, c + 1);
      this.shiftThaw = c;
      return false;
    }
    if (sink.mode !== 'activity') {
      this.rec = -1;
      return false;
    }
    if (this.rec >= 0) {
      // Either unit disabled at this edge (its registers leave the period
      // now, which the recorded current values cannot show): no train.
      const off = s[ser.enable.i] !== 1 || s[this.rx.deser.enable.i] !== 1;
      if (off || c !== this.recNext || (s[ser.left.i] === 0 && !(s[ser.tokLen.i] === this.len && s[ser.tokBits.i] === this.word))) {
        this.rec = -1; // disabled, a cycle skipped or another token: start again at a later NULL
        return false;
      }
      const n = this.len * PERIODS;
      if (this.rec < n) {
        this.record(this.rec++);
        this.recNext = c + 1;
        return false;
      }
      this.rec = -1;
      if (this.periodic(n)) {
        this.enter(c);
        return true;
      }
      return false;
    }
    // Arm at a take edge loading a NULL after a NULL, both ends in Run.
    if (s[ser.left.i] === 0 && s[ser.enable.i] === 1 && s[this.tx.tokens.tok.i] === TOK_NULL && s[this.tx.fsm.state.i] === S_RUN && s[this.rx.fsm.state.i] === S_RUN) {
      const len = s[ser.tokLen.i]!;
      if (len !== 8) return false;
      this.word = s[ser.tokBits.i]!;
      this.len = len;
      this.rec = 0;
      this.recNext = c + 1;
      if (this.snaps.length < len * PERIODS + 1) this.snaps = Array.from({ length: len * PERIODS + 1 }, () => new Float64Array(this.cur.length + 1));
    }
    return false;
  }

  private record(k: number): void {
    const s = this.s;
    const snap = this.snaps[k]!;
    const cur = this.cur;
    for (let j = 0; j < cur.length; j++) snap[j] = s[cur[j]!]!;
    snap[cur.length] = s[this.moreSlot]!;
  }

  /** The n recorded cycles are whole periods and the current cycle starts the next one with the same values. */
  private periodic(n: number): boolean {
    const p = this.len;
    this.record(n);
    const snaps = this.snaps;
    for (let k = 0; k + p <= n; k++) {
      const a = snaps[k]!;
      const b = snaps[k + p]!;
      for (let j = 0; j < a.length; j++) if (a[j] !== b[j]) return false;
    }
    for (const j of this.constIdx) {
      for (let k = n - p; k < n; k++) if (snaps[k]![j] !== snaps[n]![j]) return false;
    }
    return true;
  }

  /** Edge of cycle c, the first bit of a NULL (the recording started on one): values on demand from now on. */
  private enter(c: number): void {
    const ser = this.tx.ser;
    const p = this.len;
    const n = p * PERIODS;
    // The period's values (the same arrays each time: a train is entered often on a loaded link).
    if (this.table.length !== p) this.table = Array.from({ length: p }, () => new Float64Array(this.cur.length));
    for (let k = 0; k < p; k++) this.table[k]!.set(this.snaps[n - p + k]!.subarray(0, this.cur.length));
    this.origin = c - p; // snaps[n - p] is cycle c - p
    const s = this.s;
    // Next values equal to the current ones: the commit sees no change, so
    // nothing is woken by the frozen registers (their slots go stale; the
    // on-demand values replace them whenever anyone looks).
    const cur = this.cur;
    const nxt = this.nxt;
    for (let j = 0; j < cur.length; j++) s[nxt[j]!] = s[cur[j]!]!;
    s[ser.more.n] = s[ser.more.i]!;
    this.loadEdge = c + s[ser.left.i]!;
    this.loadPhase = (this.loadEdge - this.origin) % p;
    this.dormant = true;
    this.stats.entered++;
    // Still at once when the choice offers this NULL now (the NULL loaded at
    // the last edge left its registers as a NULL does); else the serialiser
    // decides at the next boundary.
    if (this.quietOffer()) this.goStill();
    else ser.wakeAt(ser.shiftProc, this.loadEdge - 1);
  }

  /**
   * At a token train's load edge c (token_train.ts), the sender loading a NULL
   * after a NULL: enter the train here, without recording, when this
   * direction's registers at cycle c (every on-demand value of the token
   * train written into the slots by the caller) equal the row of a period
   * recorded earlier at its load edge, apart from the passive registers,
   * which take their current values (docs/dslink.md#train-handover). Exact
   * by the argument of the recording: the units are deterministic, the state
   * at c is the state the recorded period had at its load edge, and the
   * inputs are the same (this NULL loaded at c, both ends in Run: checked by
   * the caller). The train then handles this load edge as a dormant train
   * does. Returns false (nothing changed) when the rows differ.
   */
  handFromTokens(c: number): boolean {
    const p = this.len;
    const s = this.s;
    if (this.dormant || this.loadPhase < 0 || this.table.length !== p || s[this.tokLenI] !== p || s[this.tokBitsI] !== this.word) return false;
    if (this.tx.ser.wakeSink!.mode !== 'activity' || s[this.rx.deser.enable.i] !== 1) return false;
    const cur = this.cur;
    const row = this.table[this.loadPhase]!;
    const passive = this.passiveIdx;
    for (let j = 0; j < cur.length; j++) if (s[cur[j]!] !== row[j] && !passive.includes(j)) return false;
    for (const j of DsNullTrain.stalePassive ? [] : passive) {
      const v = s[cur[j]!]!;
      for (const r of this.table) r[j] = v; // constant over the period: no unit of the direction writes it there
    }
    this.rec = -1;
    this.origin = c - this.loadPhase + DsNullTrain.handSkew;
    const nxt = this.nxt;
    for (let j = 0; j < cur.length; j++) s[nxt[j]!] = s[cur[j]!]!;
    this.dormant = true;
    this.stats.entered++;
    this.stats.fromTokens++;
    // This load edge, as a dormant train's (onShift): the NULL loaded, `more` rises.
    s[this.moreN] = 1;
    this.loadEdge = c + p;
    const ser = this.tx.ser;
    if (this.quietOffer()) this.goStill();
    else ser.wakeAt(ser.shiftProc, this.loadEdge - 1);
    return true;
  }

  /** A period has been recorded (handFromTokens has a row to compare with). */
  hasPeriod(): boolean {
    return this.loadPhase >= 0 && this.table.length === this.len;
  }

  /** The period's values at cycle t. */
  private at(t: number): Float64Array {
    const p = this.table.length;
    const k = t - this.origin + DsNullTrain.skew;
    return this.table[((k % p) + p) % p]!;
  }

  /** Edge at which the serialiser last left a train (the receiver's slots then hold the next cycle's values). */
  private shiftThaw = -1;

  /** The serialiser left a train at this edge (token_train.ts does not start a token train there). */
  justThawed(c: number): boolean {
    return this.shiftThaw === c;
  }

  /** Negative control only (tests): read the period this many cycles off. */
  static skew = 0;
  /** Negative control only (tests): a train entered from a token train reads its period this many cycles off. */
  static handSkew = 0;
  /** Negative control only (tests): a train entered from a token train keeps the recorded period's passive values (a stale `char`). */
  static stalePassive = false;
  /** Negative control only (tests): hand `more`/`take` back as if this many cycles later. */
  static lateHandBack = 0;
  /** Negative control only (tests): no wake-up of `advance` when `take` is handed back as 1. */
  static noAdvanceWake = false;

  /**
   * From `choose` (tx_tokens.ts) while still, before it reads `take`: the
   * token it offers now. This train's NULL with the choice's registers as a
   * NULL leaves them: nothing changes at the next boundary; anything else:
   * hand `more` and `take` back for this cycle and wake the serialiser at
   * the next boundary (the dormant train decides there, as before).
   */
  offered(bits: number, len: number): void {
    if (bits === this.word && len === this.len && this.choiceAtNull()) return;
    const t = this.tx.ser.wakeSink!.stateCycle + DsNullTrain.lateHandBack;
    this.stats.handedBack++;
    if (this.boundary(t) === t) this.stats.atBoundary++;
    this.handBack(t, true);
  }

  /** The choice's registers hold what loading a NULL leaves in them (`advance` rewrites the same values at a boundary). */
  private choiceAtNull(): boolean {
    const s = this.s;
    const q = this.choiceI;
    return s[q[0]!] === 0 && s[q[1]!] === 1 && s[q[2]!] === TOK_NULL && s[q[3]!] === 0;
  }

  /** At an edge of a dormant train: the serialiser is offered this train's NULL and the choice is at a NULL's values. */
  private quietOffer(): boolean {
    const s = this.s;
    return s[this.enableI] === 1 && s[this.tokLenI] === this.len && s[this.tokBitsI] === this.word && this.choiceAtNull();
  }

  /** No wake-up at boundaries from here; `loadEdge` is the first boundary of the still stretch (the file header). */
  private goStill(): void {
    this.still = true;
    this.stats.stilled++;
  }

  /** The next NULL boundary (a cycle in which `take` is 1) at or after t. */
  private boundary(t: number): number {
    const p = this.len;
    const b = this.loadEdge;
    return t <= b ? b : b + Math.ceil((t - b) / p) * p;
  }

  /** Write `more` (both slots) and `take` for cycle t of a still stretch. */
  private writeTake(t: number, s: Float64Array): number {
    const b = this.boundary(t);
    const more = t === b ? 0 : 1;
    s[this.moreI] = more;
    s[this.moreN] = more;
    s[this.takeI] = s[this.enableI] === 1 && more === 0 ? 1 : 0;
    return b;
  }

  /** End the still stretch at cycle t: `more` and `take` real again, the serialiser woken at the next boundary (wake) or by the caller. */
  private handBack(t: number, wake: boolean): void {
    this.still = false;
    const b = this.writeTake(t, this.s);
    this.loadEdge = b;
    const ser = this.tx.ser;
    if (wake) ser.wakeAt(ser.shiftProc, t === b ? b : b - 1);
    // `take` written here (1 at a boundary) is no change the kernel marks, and
    // `advance` wakes on take's rise (tx_tokens.ts): wake it for this edge.
    if (this.s[this.takeI] === 1 && !DsNullTrain.noAdvanceWake) this.tx.tokens.wakeAt(this.tx.tokens.advanceProc, t);
  }

  /**
   * Write the values back for good: the serialiser's for cycle txCycle, the
   * receiver's for rxCycle (one later when called from the serialiser's
   * edge: the receiver's next state still follows the period), and wake the
   * units' processes so they go on bit by bit.
   */
  private thawAt(txCycle: number, rxCycle: number, wakeTx: boolean, wakeDeser = true): void {
    if (this.still) this.handBack(txCycle, false);
    this.dormant = false;
    this.stats.thawed++;
    const s = this.s;
    const a = this.at(txCycle);
    const b = this.at(rxCycle);
    const cur = this.cur;
    const nxt = this.nxt;
    for (let j = 0; j < cur.length; j++) {
      const v = j < this.nTx ? a[j]! : b[j]!;
      s[cur[j]!] = v;
      s[nxt[j]!] = v;
    }
    const ser = this.tx.ser;
    if (wakeTx) ser.wakeAt(ser.shiftProc, txCycle);
    if (wakeDeser) this.rx.deser.wakeAt(this.rx.deser.bitsProc, rxCycle);
    this.rx.dec.wakeAt(this.rx.dec.decodeProc, rxCycle);
  }

  /** A comb process or a stimulus (poke, mode switch): hand back the values of the state's cycle. */
  thaw(): void {
    // A recording in progress sees the poked (or handed back) value in its
    // rows and would replay it: start again at a later NULL
    // (docs/kernel.md "Stop 21: review").
    this.rec = -1;
    if (!this.dormant) return;
    const t = this.tx.ser.wakeSink!.stateCycle;
    this.thawAt(t, t, true);
  }

  // ------------------------------------------------------------ OnDemand

  materialize(cycle: number, s: Float64Array): void {
    if (!this.dormant) return;
    const v = this.at(cycle);
    const cur = this.cur;
    const nxt = this.nxt;
    for (let j = 0; j < cur.length; j++) {
      s[cur[j]!] = v[j]!;
      s[nxt[j]!] = v[j]!;
    }
    if (this.still) this.writeTake(cycle, s);
  }

  nextChange(cycle: number): number {
    return this.dormant ? cycle + 1 : Infinity;
  }

  save(): unknown {
    return { dormant: this.dormant, still: this.still, table: this.table.map((x) => x.slice()), origin: this.origin, loadEdge: this.loadEdge, loadPhase: this.loadPhase, word: this.word, len: this.len };
  }

  restore(v: unknown): void {
    const st = v as { dormant: boolean; still: boolean; table: Float64Array[]; origin: number; loadEdge: number; loadPhase: number; word: number; len: number };
    Object.assign(this, { ...st, loadPhase: st.loadPhase ?? -1, table: st.table.map((x) => x.slice()) });
    this.rec = -1;
  }

  reset(): void {
    this.dormant = false;
    this.still = false;
    this.rec = -1;
  }
}
