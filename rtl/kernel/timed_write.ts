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
 *  - Writes due at one edge apply in the order they were pushed (so two
 *    writes of one register at one edge leave the later one).
 *
 * The entries are a binary min-heap ordered by (cycle, push order), in
 * typed arrays. A cancel is O(1): it bumps the register's generation, and an
 * entry whose generation is older is skipped when it comes to the top
 * (docs/kernel.md "Stop 25: cancels"). Until stop 25 a cancel rebuilt the
 * whole queue, which at 32x32 (thousands of entries, a cancel per token
 * handover with the decoder's tokV writes) cost O(entries) a cancel.
 */
export interface TimedWriteState {
  cycle: number[];
  proc: number[];
  value?: number[];
}

/** Pending timed writes: a min-heap on (cycle, push order) with lazy cancels by generation. */
class WriteHeap {
  cyc: Float64Array = new Float64Array(64);
  ord: Float64Array = new Float64Array(64);
  slot: Int32Array = new Int32Array(64);
  val: Float64Array = new Float64Array(64);
  tag: Int32Array = new Int32Array(64);
  n = 0;
  private seq = 0;

  private less(a: number, b: number): boolean {
    return this.cyc[a]! < this.cyc[b]! || (this.cyc[a] === this.cyc[b] && this.ord[a]! < this.ord[b]!);
  }

  private move(to: number, from: number): void {
    this.cyc[to] = this.cyc[from]!;
    this.ord[to] = this.ord[from]!;
    this.slot[to] = this.slot[from]!;
    this.val[to] = this.val[from]!;
    this.tag[to] = this.tag[from]!;
  }

  push(cycle: number, slot: number, value: number, tag: number): void {
    if (this.n === this.cyc.length) this.grow();
    // The new entry is the latest pushed, so it goes below every entry of its
    // cycle: it sifts up only past later cycles.
    let k = this.n++;
    while (k > 0) {
      const up = (k - 1) >> 1;
      if (this.cyc[up]! <= cycle) break;
      this.move(k, up);
      k = up;
    }
    this.cyc[k] = cycle;
    this.ord[k] = this.seq++;
    this.slot[k] = slot;
    this.val[k] = value;
    this.tag[k] = tag;
  }

  /** Remove the top entry. */
  pop(): void {
    const x = --this.n;
    if (x === 0) return;
    // Sift the last entry (now at x, just outside the heap) down from the root.
    let k = 0;
    for (;;) {
      const l = 2 * k + 1;
      if (l >= x) break;
      const r = l + 1;
      const m = r < x && this.less(r, l) ? r : l;
      if (!this.less(m, x)) break;
      this.move(k, m);
      k = m;
    }
    this.move(k, x);
  }

  private grow(): void {
    const n = this.cyc.length * 2;
    const f = (a: Float64Array): Float64Array => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const i = (a: Int32Array): Int32Array => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.cyc = f(this.cyc);
    this.ord = f(this.ord);
    this.val = f(this.val);
    this.slot = i(this.slot);
    this.tag = i(this.tag);
  }

  clear(): void {
    this.n = 0;
    this.seq = 0;
  }
}

export class TimedWrites {
  private readonly h = new WriteHeap();
  /** The edge of the last applyDue and the slots it wrote (a cancel at that edge takes them back; the commit takes them first). */
  private appliedAt = -1;
  /** applied[0 .. nApplied): reset by a count, not `length = 0`, which drops the backing store (docs/kernel.md "Stop 21: allocation and layout"). */
  readonly applied: number[] = [];
  nApplied = 0;
  /**
   * Pending (live) writes per next-value slot: a cancel of a register with
   * none (the usual case: a DS-link token train drops its decoder's pulse
   * clears at every handover, docs/kernel.md "Stop 23: token layer") is one
   * load.
   */
  private pend = new Int32Array(64);
  /** Per next-value slot: its generation; an entry pushed under an older one was cancelled. */
  private gen = new Int32Array(64);
  /** Live entries (the heap also holds cancelled ones until they reach its top). */
  private live = 0;
  /** Negative control only (tests): a restore leaves the pending counts at 0 (its cancels then drop nothing). */
  static noRecount = false;
  /** Negative control only (tests): a cancel zeroes the count but leaves the generation, so its entries still apply. */
  static keepCancelled = false;

  get size(): number {
    return this.live;
  }

  /** Cycle of the next write, or Infinity (the heap's top is always live: dropTop). */
  get next(): number {
    return this.h.n ? this.h.cyc[0]! : Infinity;
  }

  /** Register whose next-value slot is `slot` takes `value` at the edge of `cycle`. */
  push(cycle: number, slot: number, value: number): void {
    if (slot >= this.pend.length) this.grow(slot);
    this.pend[slot]!++;
    this.live++;
    this.h.push(cycle, slot, value, this.gen[slot]!);
  }

  private grow(slot: number): void {
    let n = this.pend.length;
    while (n <= slot) n *= 2;
    const p = new Int32Array(n);
    p.set(this.pend);
    this.pend = p;
    const g = new Int32Array(n);
    g.set(this.gen);
    this.gen = g;
  }

  /** Pending writes of the register whose next-value slot is `slot`. */
  pendingOf(slot: number): number {
    return slot < this.pend.length ? this.pend[slot]! : 0;
  }

  /** Pop cancelled entries off the top, so that `next` is a live write's cycle. */
  private dropTop(): void {
    const h = this.h;
    while (h.n !== 0 && h.tag[0] !== this.gen[h.slot[0]!]) h.pop();
  }

  /** Write every entry due at or before `now` into `s` (its next-value slot); `applied` lists the slots. */
  applyDue(now: number, s: Float64Array): void {
    if (this.appliedAt !== now) {
      this.appliedAt = now;
      this.nApplied = 0;
    }
    const h = this.h;
    while (h.n !== 0 && h.cyc[0]! <= now) {
      const slot = h.slot[0]!;
      if (h.tag[0] === this.gen[slot]) {
        s[slot] = h.val[0]!;
        this.pend[slot]!--;
        this.live--;
        this.applied[this.nApplied++] = slot;
      }
      h.pop();
    }
    this.dropTop();
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
    this.live -= this.pend[slot]!;
    this.pend[slot] = 0;
    if (!TimedWrites.keepCancelled) this.gen[slot] = (this.gen[slot]! + 1) | 0;
    this.dropTop();
  }

  clear(): void {
    this.appliedAt = -1;
    this.pend.fill(0);
    this.gen.fill(0);
    this.live = 0;
    this.h.clear();
  }

  /** The live entries in the order they apply (cycle, then push order). */
  save(): TimedWriteState {
    const h = this.h;
    const idx: number[] = [];
    for (let k = 0; k < h.n; k++) if (h.tag[k] === this.gen[h.slot[k]!]) idx.push(k);
    idx.sort((a, b) => h.cyc[a]! - h.cyc[b]! || h.ord[a]! - h.ord[b]!);
    const st: TimedWriteState = { cycle: idx.map((k) => h.cyc[k]!), proc: idx.map((k) => h.slot[k]!) };
    if (idx.some((k) => h.val[k] !== 0)) st.value = idx.map((k) => h.val[k]!);
    return st;
  }

  restore(st: TimedWriteState | undefined): void {
    this.clear();
    const q = st ?? { cycle: [], proc: [] };
    for (let k = 0; k < q.cycle.length; k++) this.push(q.cycle[k]!, q.proc[k]!, q.value ? q.value[k]! : 0);
    if (TimedWrites.noRecount) this.pend.fill(0);
  }
}
