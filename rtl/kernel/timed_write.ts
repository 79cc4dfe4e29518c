/**
 * Timed register writes (docs/kernel.md "Timed register writes"): "register
 * R takes value V at the edge of cycle C", committed by the kernel at that
 * edge without running a process. A unit uses it where its seq process would
 * run only to write a value it knows in advance (the DS-link serialiser's
 * `more` falling before a load edge, docs/kernel.md "Stop 22: token layer").
 *
 * Rules (the simulator, simulator_core.ts, applies them):
 *  - At edge C, before the seq processes of that edge run, V is written into
 *    R's next-value slot; the commit makes it current and marks R's readers
 *    if it changed, before any other register (Commit.first): a reader that
 *    reads another register only while R is 1 (a guarded read) is then not
 *    woken by that register's change in the same commit when R falls, as it
 *    is not when R's writer runs (its module's registers commit first
 *    there). A process that runs at the same edge and writes R overrides it
 *    (it runs later).
 *  - Fast mode only: the reference mode runs every process every cycle, so
 *    `writeAt` there is a no-op and a switch to it drops what is pending.
 *  - A poke of R leaves its pending writes standing: the poke changes R's
 *    current value, not what the seq logic computes at C (the reference
 *    mode's process writes V there all the same). A poke of the state V was
 *    derived from wakes the module's seq processes (the poke rule,
 *    docs/kernel.md "Exact sensitivity"), which `cancel` and schedule again
 *    what they still know.
 *  - Snapshots carry them; reset drops them; fast-forward stops at them.
 *
 * The entries are a WakeQueue's (wake_queue.ts): cycle, next-value slot,
 * value.
 */
import { WakeQueue } from './wake_queue.ts';

export interface TimedWriteState {
  cycle: number[];
  proc: number[];
  value?: number[];
}

export class TimedWrites {
  private readonly q = new WakeQueue();
  /** The edge of the last applyDue and the slots it wrote (a cancel at that edge takes them back; the commit takes them first). */
  private appliedAt = -1;
  /** applied[0 .. nApplied): reset by a count, not `length = 0`, which drops the backing store (docs/kernel.md "Stop 21: allocation and layout"). */
  readonly applied: number[] = [];
  nApplied = 0;
  private s: Float64Array | null = null;
  /**
   * Pending writes per next-value slot: a cancel of a register with none
   * (the usual case: a DS-link token train drops its decoder's pulse clears
   * at every handover, docs/kernel.md "Stop 23: token layer") is one load,
   * not a scan of the whole queue (at 32x32 it holds thousands of entries).
   */
  private pend = new Int32Array(64);
  /** Negative control only (tests): a restore leaves the pending counts at 0 (its cancels then drop nothing). */
  static noRecount = false;
  private readonly apply = (slot: number, value: number): void => {
    this.s![slot] = value;
    this.pend[slot]!--;
    this.applied[this.nApplied++] = slot;
  };

  get size(): number {
    return this.q.size;
  }

  /** Cycle of the next write, or Infinity. */
  get next(): number {
    return this.q.next;
  }

  /** Register whose next-value slot is `slot` takes `value` at the edge of `cycle`. */
  push(cycle: number, slot: number, value: number): void {
    if (slot >= this.pend.length) this.grow(slot);
    this.pend[slot]!++;
    this.q.push(cycle, slot, value);
  }

  private grow(slot: number): void {
    let n = this.pend.length;
    while (n <= slot) n *= 2;
    const p = new Int32Array(n);
    p.set(this.pend);
    this.pend = p;
  }

  /** Pending writes of the register whose next-value slot is `slot`. */
  pendingOf(slot: number): number {
    return slot < this.pend.length ? this.pend[slot]! : 0;
  }

  /** Write every entry due at or before `now` into `s` (its next-value slot); `applied` lists the slots. */
  applyDue(now: number, s: Float64Array): void {
    if (this.appliedAt !== now) {
      this.appliedAt = now;
      this.nApplied = 0;
    }
    this.s = s;
    this.q.popDue(now, this.apply);
  }

  /**
   * Drop every pending write of the register whose next-value slot is
   * `slot`. At the edge `now` where one was applied already (before the seq
   * processes ran), its next value goes back to its current one: the state
   * the write was derived from changed (a poke), and the canceller writes
   * the register itself if its logic does.
   */
  cancel(slot: number, now: number, s: Float64Array): void {
    if (this.appliedAt === now) {
      const a = this.applied;
      for (let k = 0; k < this.nApplied; k++) {
        if (a[k] === slot) {
          s[slot] = s[slot - 1]!;
          break;
        }
      }
    }
    if (this.pendingOf(slot) === 0) return;
    this.pend[slot] = 0;
    this.q.drop(slot);
  }

  clear(): void {
    this.appliedAt = -1;
    this.pend.fill(0);
    this.q.clear();
  }

  save(): TimedWriteState {
    return this.q.save();
  }

  restore(st: TimedWriteState | undefined): void {
    this.appliedAt = -1;
    const q = st ?? { cycle: [], proc: [] };
    this.q.restore(q);
    this.pend.fill(0);
    if (TimedWrites.noRecount) return;
    for (const slot of q.proc) {
      if (slot >= this.pend.length) this.grow(slot);
      this.pend[slot]!++;
    }
  }
}
