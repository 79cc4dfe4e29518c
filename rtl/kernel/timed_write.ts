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
 * A binary min-heap on the cycle, in three parallel arrays.
 */
export interface TimedWriteState {
  cycle: number[];
  slot: number[];
  value: number[];
}

export class TimedWrites {
  private c: number[] = [];
  private n: number[] = [];
  private v: number[] = [];
  /** The edge of the last applyDue and the slots it wrote (a cancel at that edge takes them back; the commit takes them first). */
  private appliedAt = -1;
  readonly applied: number[] = [];

  get size(): number {
    return this.c.length;
  }

  /** Cycle of the next write, or Infinity. */
  get next(): number {
    return this.c.length ? this.c[0]! : Infinity;
  }

  /** Register whose next-value slot is `slot` takes `value` at the edge of `cycle`. */
  push(cycle: number, slot: number, value: number): void {
    const { c, n, v } = this;
    let k = c.length;
    c.push(cycle);
    n.push(slot);
    v.push(value);
    while (k > 0) {
      const up = (k - 1) >> 1;
      if (c[up]! <= cycle) break;
      c[k] = c[up]!;
      n[k] = n[up]!;
      v[k] = v[up]!;
      k = up;
    }
    c[k] = cycle;
    n[k] = slot;
    v[k] = value;
  }

  /** Write every entry due at or before `now` into `s` (its next-value slot); `applied` lists the slots. */
  applyDue(now: number, s: Float64Array): void {
    const { c, n, v } = this;
    if (this.appliedAt !== now) {
      this.appliedAt = now;
      this.applied.length = 0;
    }
    while (c.length && c[0]! <= now) {
      s[n[0]!] = v[0]!;
      this.applied.push(n[0]!);
      this.popRoot();
    }
  }

  /**
   * Drop every pending write of the register whose next-value slot is
   * `slot`. At the edge `now` where one was applied already (before the seq
   * processes ran), its next value goes back to its current one: the state
   * the write was derived from changed (a poke), and the canceller writes
   * the register itself if its logic does.
   */
  cancel(slot: number, now: number, s: Float64Array): void {
    if (this.appliedAt === now && this.applied.includes(slot)) s[slot] = s[slot - 1]!;
    if (!this.n.includes(slot)) return;
    const keep = this.save();
    const at = this.appliedAt;
    this.clear();
    for (let k = 0; k < keep.cycle.length; k++) if (keep.slot[k] !== slot) this.push(keep.cycle[k]!, keep.slot[k]!, keep.value[k]!);
    this.appliedAt = at;
  }

  /** Pending writes of the register whose next-value slot is `slot` (tests, the REPL). */
  pending(slot: number): { cycle: number; value: number }[] {
    const out: { cycle: number; value: number }[] = [];
    for (let k = 0; k < this.c.length; k++) if (this.n[k] === slot) out.push({ cycle: this.c[k]!, value: this.v[k]! });
    return out.sort((a, b) => a.cycle - b.cycle);
  }

  private popRoot(): void {
    const { c, n, v } = this;
    const lastC = c.pop()!;
    const lastN = n.pop()!;
    const lastV = v.pop()!;
    if (!c.length) return;
    let k = 0;
    for (;;) {
      const l = 2 * k + 1;
      if (l >= c.length) break;
      const r = l + 1;
      const m = r < c.length && c[r]! < c[l]! ? r : l;
      if (c[m]! >= lastC) break;
      c[k] = c[m]!;
      n[k] = n[m]!;
      v[k] = v[m]!;
      k = m;
    }
    c[k] = lastC;
    n[k] = lastN;
    v[k] = lastV;
  }

  clear(): void {
    this.appliedAt = -1;
    this.c = [];
    this.n = [];
    this.v = [];
  }

  save(): TimedWriteState {
    return { cycle: this.c.slice(), slot: this.n.slice(), value: this.v.slice() };
  }

  restore(st: TimedWriteState | undefined): void {
    this.appliedAt = -1;
    this.c = st ? st.cycle.slice() : [];
    this.n = st ? st.slot.slice() : [];
    this.v = st ? st.value.slice() : [];
  }
}
