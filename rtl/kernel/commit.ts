/**
 * The commit: at the clock edge registers take their next values, and the
 * readers of those that changed wake (docs/kernel.md "Commit"). Register r
 * keeps its current value in slot regBase + 2r and its next value beside it
 * (docs/kernel.md "Stop 20: state layout"). The simulator's core
 * (simulator_core.ts) owns one Commit; memories' pending writes stay there.
 *
 * In the fast mode only registers a seq process that ran may write can have
 * a new next value: the processes that ran (`ran`, filled by the core's
 * runDirtySeq), each commit group once, plus the tracked-write list of the
 * processes that record their writes with Module.put.
 */
import type { Netlist } from './elaborate.ts';
import type { ReaderWake } from './reader_index.ts';
import { SimError } from './errors.ts';
import { commitRecords } from './tables.ts';

export class Commit {
  /** Seq processes run this cycle (activity mode), in run order. */
  readonly ran: Int32Array;
  nRan = 0;
  /** Tracked writes this cycle (register indices), deduplicated by trackedMark. */
  readonly trackedList: Int32Array;
  readonly trackedMark: Uint8Array;
  nTracked = 0;
  /**
   * Per seq process p, what the fast commit reads of it, together
   * (docs/kernel.md "Stop 22: kernel tables"; tables.ts commitRecords):
   * rec[4p] the record of its commit group's first process (4q), whose
   * rec[4q+3] holds the commit count the group was last committed at;
   * rec[4p+1]..rec[4p+2] its write list's entries in `listSlots`, or, when
   * rec[4p+1] < 0, its sweep range as slots ~rec[4p+1]..rec[4p+2] (step 2).
   * Five parallel arrays (group, list start and end, sweep bounds) and a
   * stamp per group were up to six lines for each process that ran.
   */
  private readonly rec: Int32Array;
  /** The seq processes' write lists as current-value slots (regBase + 2r). */
  private readonly listSlots: Int32Array;
  /** A commit counter, not the cycle: a restored snapshot turns the cycle back. */
  private commitCount = 0;

  constructor(
    private readonly net: Netlist,
    private readonly s: Float64Array,
    private readonly wake: ReaderWake,
    private readonly clock: { cycle: number },
    private readonly checks: boolean,
  ) {
    this.ran = new Int32Array(net.seq.length);
    this.rec = commitRecords(net);
    this.listSlots = net.seqWriteList.map((r) => net.regBase + 2 * r);
    this.trackedList = new Int32Array(net.nRegs);
    this.trackedMark = new Uint8Array(net.nRegs);
  }

  /** A tracked process wrote the register whose next-value slot is `n`. */
  written(n: number): void {
    const r = (n - this.net.regBase) >> 1;
    if (this.trackedMark[r] === 0) {
      this.trackedMark[r] = 1;
      this.trackedList[this.nTracked++] = r;
    }
  }

  /** Forget the tracked writes (after a commit that covered them). */
  clearTracked(): void {
    const list = this.trackedList;
    const mark = this.trackedMark;
    for (let k = 0; k < this.nTracked; k++) mark[list[k]!] = 0;
    this.nTracked = 0;
  }

  /** Reference mode: every register takes its next value; nobody is marked (every process runs anyway). */
  plain(): void {
    this.range(0, this.net.nRegs, false);
    this.clearTracked();
  }

  /**
   * Fast mode: visit just the registers the processes that ran may write,
   * once per commit group, and the tracked writes; wake the readers of what
   * changed.
   */
  active(): void {
    if (this.sweepCheaper()) {
      // Most of the design ran: one sweep over all registers is cheaper than
      // many short lists, and equal (the others' next values equal their current).
      this.range(0, this.net.nRegs, true);
      this.clearTracked();
      return;
    }
    const s = this.s;
    const rec = this.rec;
    const list = this.listSlots;
    const now = ++this.commitCount;
    const ran = this.ran;
    for (let k = 0; k < this.nRan; k++) {
      const i = ran[k]! << 2;
      const stamp = rec[i]! + 3;
      if (rec[stamp] === now) continue; // its group was committed this edge
      rec[stamp] = now;
      const a = rec[i + 1]!;
      const b = rec[i + 2]!;
      if (a >= 0) {
        for (let j = a; j < b; j++) {
          const x = list[j]!;
          if (s[x + 1] !== s[x]) this.slot(x);
        }
      } else {
        for (let x = ~a; x < b; x += 2) {
          if (s[x + 1] !== s[x]) this.slot(x);
        }
      }
    }
    const base = this.net.regBase;
    // What tracked processes recorded (Module.put).
    const tl = this.trackedList;
    for (let k = 0; k < this.nTracked; k++) {
      const x = base + 2 * tl[k]!;
      if (s[x + 1] !== s[x]) this.slot(x);
    }
    this.clearTracked();
  }

  /** Fast mode, before active(): the registers of these next-value slots (timed writes, timed_write.ts) take their next values first. */
  first(nextSlots: readonly number[], count: number): void {
    const s = this.s;
    for (let k = 0; k < count; k++) {
      const x = nextSlots[k]! - 1;
      if (s[x + 1] !== s[x]) this.slot(x);
    }
  }

  /** The register whose current value is in `x` takes its (changed) next value, in x + 1; its readers wake. */
  private slot(x: number): void {
    const v = this.s[x + 1]!;
    if (this.checks) this.checkWidth(x, v);
    this.s[x] = v;
    this.wake.mark(x);
  }

  /**
   * One sweep over all registers beats the write lists when the lists the
   * ran processes would visit add up to a good part of all registers
   * (docs/kernel.md "Commit"). Counting the list lengths, not the processes:
   * a design of many small units beside a few wide ones (a C104 network's
   * DS-link ends beside the T9000s' virtual-link control) runs more than a
   * quarter of its processes every cycle while they write a small part of
   * its registers.
   */
  sweepCheaper(): boolean {
    const rec = this.rec;
    const ran = this.ran;
    const limit = this.net.nRegs >> 2;
    let cost = this.nTracked;
    for (let k = 0; k < this.nRan; k++) {
      const i = ran[k]! << 2;
      // A list's entries, or a sweep's registers (its slot span over 2).
      const a = rec[i + 1]!;
      cost += a >= 0 ? rec[i + 2]! - a : (rec[i + 2]! - ~a) >> 1;
      if (cost > limit) return true;
    }
    return false;
  }

  /** Registers from..to take their next values; with `mark`, the readers of those that changed wake. */
  private range(from: number, to: number, mark: boolean): void {
    const s = this.s;
    const base = this.net.regBase;
    for (let x = base + 2 * from, e = base + 2 * to; x < e; x += 2) {
      const v = s[x + 1]!;
      if (v !== s[x]) {
        if (this.checks) this.checkWidth(x, v);
        s[x] = v;
        if (mark) this.wake.mark(x);
      }
    }
  }

  /** Debug mode: the value fits its signal's width. */
  checkWidth(slot: number, v: number): void {
    if (!(v >= 0 && v <= this.net.slotMask[slot]! && (v >>> 0) === v)) tooWide(this.net, slot, v, this.clock.cycle);
  }
}

/** The one error of a value that does not fit its signal (debug mode). */
export function tooWide(net: Netlist, slot: number, v: number, cycle: number): never {
  const sig = net.slotSignal[slot]!;
  throw new SimError('value-too-wide', `value ${v} does not fit ${sig.width}-bit ${sig.kind} ${sig.path} (allowed 0..${sig.mask})`, cycle);
}
