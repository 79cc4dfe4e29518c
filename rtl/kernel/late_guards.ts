/**
 * Late guards (docs/kernel.md "Exact sensitivity", "Stop 23: FIFOs and
 * C104"): a seq process's guarded read (`{ when, bits, reads, late: true }`)
 * whose guard is looked at once the values of the coming clock edge have
 * settled, not when the read changes. A seq process's result at an edge
 * depends on the values at that edge, so this is the exact test; looking at
 * the guard when the read changes (the other guards) sees, at the commit, a
 * comb guard's value from the cycle before: the FIFO's count changes at the
 * commit of its push while the push pulse still reads 1, and the edge ran
 * again one cycle later for nothing.
 *
 * ReaderWake.markGuarded queues the guard entry (its index in the reader
 * index's `guards`); the simulator resolves the queue at the clock edge,
 * before the seq processes run: each queued reader wakes if its guard holds
 * then. A guard must itself be a read or a rise guard of the process, so a
 * guard that comes to hold after the read changed wakes it by its own
 * change. A queue not empty is pending work (no fast-forward over it); a
 * snapshot flushes it (every queued reader wakes: a run too many is exact,
 * a lost one is not); reset and a mode switch drop it (every process runs).
 */
import type { DirtySet } from './dirty_set.ts';

export class LateGuards {
  private list = new Int32Array(256);
  /** Queued guard entries. */
  n = 0;

  constructor(
    private readonly guards: Int32Array,
    private readonly s: Float64Array,
    private readonly seq: DirtySet,
  ) {}

  /** Guard entry k (guards[k..k+3]: guard slot, mask, ~process, form) saw its read change. */
  push(k: number): void {
    if (this.n === this.list.length) {
      const grown = new Int32Array(2 * this.n);
      grown.set(this.list);
      this.list = grown;
    }
    this.list[this.n++] = k;
  }

  /** The values have settled: each queued reader whose guard holds now wakes. */
  resolve(): void {
    const g = this.guards;
    const s = this.s;
    const l = this.list;
    for (let j = 0; j < this.n; j++) {
      const k = l[j]!;
      if ((s[g[k]!]! & g[k + 1]!) !== 0) this.seq.add(~g[k + 2]!);
    }
    this.n = 0;
  }

  /** Every queued reader wakes, whatever its guard. */
  flush(): void {
    const g = this.guards;
    const l = this.list;
    for (let j = 0; j < this.n; j++) this.seq.add(~g[l[j]! + 2]!);
    this.n = 0;
  }

  clear(): void {
    this.n = 0;
  }
}
