/**
 * Timed wake-ups (docs/kernel.md "Timed wake-ups"): a binary min-heap of
 * (cycle, seq process index), in parallel arrays. The simulator marks the
 * processes whose cycle has come before the clock edge. With a payload per
 * entry (`value`) it also holds the timed register writes (timed_write.ts:
 * cycle, next-value slot, value).
 */
export class WakeQueue {
  private c: number[] = [];
  private q: number[] = [];
  private v: number[] = [];

  get size(): number {
    return this.c.length;
  }

  /** Cycle of the next wake-up, or Infinity. */
  get next(): number {
    return this.c.length ? this.c[0]! : Infinity;
  }

  push(cycle: number, proc: number, value = 0): void {
    const c = this.c;
    const q = this.q;
    const v = this.v;
    let k = c.length;
    c.push(cycle);
    q.push(proc);
    v.push(value);
    while (k > 0) {
      const up = (k - 1) >> 1;
      if (c[up]! <= cycle) break;
      c[k] = c[up]!;
      q[k] = q[up]!;
      v[k] = v[up]!;
      k = up;
    }
    c[k] = cycle;
    q[k] = proc;
    v[k] = value;
  }

  /** Remove every wake-up due at or before `now`, calling `due` with its process (and payload). */
  popDue(now: number, due: (proc: number, value: number) => void): void {
    const c = this.c;
    const q = this.q;
    const v = this.v;
    while (c.length && c[0]! <= now) {
      due(q[0]!, v[0]!);
      const lastC = c.pop()!;
      const lastQ = q.pop()!;
      const lastV = v.pop()!;
      if (!c.length) break;
      // sift the last entry down from the root
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        if (l >= c.length) break;
        const r = l + 1;
        const m = r < c.length && c[r]! < c[l]! ? r : l;
        if (c[m]! >= lastC) break;
        c[k] = c[m]!;
        q[k] = q[m]!;
        v[k] = v[m]!;
        k = m;
      }
      c[k] = lastC;
      q[k] = lastQ;
      v[k] = lastV;
    }
  }

  /** Does some entry hold process (or slot) `proc`? */
  has(proc: number): boolean {
    return this.q.includes(proc);
  }

  /** Drop every entry of process (or slot) `proc`. */
  drop(proc: number): void {
    const { c, q, v } = this;
    this.clear();
    for (let k = 0; k < c.length; k++) if (q[k] !== proc) this.push(c[k]!, q[k]!, v[k]!);
  }

  clear(): void {
    this.c = [];
    this.q = [];
    this.v = [];
  }

  /** The entries (payloads only where some is not 0: wake-ups have none). */
  save(): { cycle: number[]; proc: number[]; value?: number[] } {
    const st: { cycle: number[]; proc: number[]; value?: number[] } = { cycle: this.c.slice(), proc: this.q.slice() };
    if (this.v.some((x) => x !== 0)) st.value = this.v.slice();
    return st;
  }

  restore(st: { cycle: number[]; proc: number[]; value?: number[] }): void {
    this.c = st.cycle.slice();
    this.q = st.proc.slice();
    this.v = st.value ? st.value.slice() : st.cycle.map(() => 0);
  }
}
