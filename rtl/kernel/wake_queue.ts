/**
 * Timed wake-ups (docs/kernel.md "Timed wake-ups"): a binary min-heap of
 * (cycle, seq process index), in parallel arrays. The simulator marks the
 * processes whose cycle has come before the clock edge. (The timed register
 * writes have their own queue, with cancels: timed_write.ts.)
 */
export class WakeQueue {
  private c: number[] = [];
  private q: number[] = [];

  get size(): number {
    return this.c.length;
  }

  /** Cycle of the next wake-up, or Infinity. */
  get next(): number {
    return this.c.length ? this.c[0]! : Infinity;
  }

  push(cycle: number, proc: number): void {
    const c = this.c;
    const q = this.q;
    let k = c.length;
    c.push(cycle);
    q.push(proc);
    while (k > 0) {
      const up = (k - 1) >> 1;
      if (c[up]! <= cycle) break;
      c[k] = c[up]!;
      q[k] = q[up]!;
      k = up;
    }
    c[k] = cycle;
    q[k] = proc;
  }

  /** Remove every wake-up due at or before `now`, calling `due` with its process. */
  popDue(now: number, due: (proc: number) => void): void {
    const c = this.c;
    const q = this.q;
    while (c.length && c[0]! <= now) {
      due(q[0]!);
      const lastC = c.pop()!;
      const lastQ = q.pop()!;
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
        k = m;
      }
      c[k] = lastC;
      q[k] = lastQ;
    }
  }

  clear(): void {
    this.c = [];
    this.q = [];
  }

  save(): { cycle: number[]; proc: number[] } {
    return { cycle: this.c.slice(), proc: this.q.slice() };
  }

  restore(st: { cycle: number[]; proc: number[] }): void {
    this.c = st.cycle.slice();
    this.q = st.proc.slice();
  }
}
