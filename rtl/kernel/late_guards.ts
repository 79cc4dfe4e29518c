/**
 * Late guards (docs/kernel.md "Exact sensitivity", "Stop 23: FIFOs and
 * C104"): a seq process's guarded read (`{ when, bits, reads, late: true }`)
 * whose guard is looked at when the clock edge comes, not when the read
 * changes. A seq process's result at an edge depends on the values at that
 * edge, so this is the exact test; looking at the guard when the read
 * changes (the other guards) sees, at the commit, a comb guard's value from
 * the cycle before: the FIFO's count changes at the commit of its push while
 * the push pulse still reads 1, and the edge ran again one cycle later for
 * nothing.
 *
 * ReaderWake.markGuarded queues the process (once: a FIFO's head and count
 * change together, each under three guards); the simulator resolves the
 * queue at the clock edge, before the seq processes run: a queued process
 * wakes if one of its late guards holds then. One of them, not the one the
 * changed read was declared under: a run too many is exact (the reference
 * mode runs every process every cycle), and one test per process is what
 * the queue is for. A guard must itself be a read or a rise guard of the
 * process, so a guard that comes to hold after the read changed wakes it by
 * its own change. A queue not empty is pending work (no fast-forward over
 * it); a snapshot flushes it (every queued process wakes); reset and a mode
 * switch drop it (every process runs).
 *
 * A conjunction (`and`, docs/kernel.md "Stop 25: token layer"): the guard
 * holds while `when & bits` is not 0 and `and` is not 0 at the edge. The
 * `and` signal is one of the guard's reads (elaborate.ts checks it), so its
 * change queues the process like any read; with `rise` the guard's own
 * change queues it too (form 2, elaborate.ts) instead of waking it at once.
 * The case: the transmit buffer's push rising while its enable (the buffer
 * full) is 0, an edge that does nothing.
 */
import type { DirtySet } from './dirty_set.ts';
import type { ProcessDecl } from './module.ts';

/** Negative control only (tests): a conjunction holds while `and` is 0 (inverted), so the edges where both stand are missed. */
export const lateGuardFault = { andInverted: false };

export class LateGuards {
  private list: Int32Array;
  /** Queued processes. */
  n = 0;
  private readonly queued: Uint8Array;
  /** Per seq process p, its late guards: (slot, mask, and slot or -1) triples at start[p]..start[p+1] of `pairs`. */
  private readonly start: Int32Array;
  private readonly pairs: Int32Array;
  /** A conjunction holds while (its signal is not 0) is this (1; 0 under lateGuardFault.andInverted). */
  private readonly andIs: number;

  /** `guards`: the reader index's guard entries, `stride` numbers each (reader_index.ts), late ones of form 2. */
  constructor(
    guards: Int32Array,
    stride: number,
    decls: readonly ProcessDecl[],
    private readonly s: Float64Array,
    private readonly seq: DirtySet,
    /** (seq process, guard slot, mask) triples of the late guards on memories (late_mems.ts). */
    memGuards: Int32Array = new Int32Array(0),
  ) {
    const nSeq = decls.length;
    const per: [number, number, number][][] = Array.from({ length: nSeq }, () => []);
    const add = (p: number, slot: number, mask: number): void => {
      const list = per[p]!;
      // The conjunctions declared on this guard (none: -1).
      const ands = decls[p]!.readsWhen.flatMap((g) => ('bits' in g && g.late === true && g.when.i === slot && (g.bits | 0) === mask ? [g.and?.i ?? -1] : []));
      for (const c of ands.length ? ands : [-1]) if (!list.some(([x, y, z]) => x === slot && y === mask && z === c)) list.push([slot, mask, c]);
    };
    for (let k = 0; k < guards.length; k += stride) {
      if (guards[k + 3] !== 2) continue;
      add(~guards[k + 2]!, guards[k]!, guards[k + 1]!);
    }
    for (let k = 0; k < memGuards.length; k += 3) add(memGuards[k]!, memGuards[k + 1]!, memGuards[k + 2]!);
    this.start = new Int32Array(nSeq + 1);
    const flat: number[] = [];
    per.forEach((l, p) => {
      for (const [a, b, c] of l) flat.push(a, b, c);
      this.start[p + 1] = flat.length;
    });
    this.andIs = lateGuardFault.andInverted ? 0 : 1;
    this.pairs = Int32Array.from(flat);
    this.queued = new Uint8Array(nSeq);
    this.list = new Int32Array(64);
  }

  /** A late-guarded read of seq process p changed. */
  push(p: number): void {
    if (this.queued[p] !== 0) return;
    this.queued[p] = 1;
    if (this.n === this.list.length) {
      const grown = new Int32Array(2 * this.n);
      grown.set(this.list);
      this.list = grown;
    }
    this.list[this.n++] = p;
  }

  /** The values of the edge: each queued process one of whose late guards holds now wakes. */
  resolve(): void {
    const s = this.s;
    const l = this.list;
    const st = this.start;
    const pr = this.pairs;
    for (let j = 0; j < this.n; j++) {
      const p = l[j]!;
      this.queued[p] = 0;
      for (let k = st[p]!, e = st[p + 1]!; k < e; k += 3) {
        if ((s[pr[k]!]! & pr[k + 1]!) !== 0) {
          const a = pr[k + 2]!;
          if (a >= 0 && (s[a]! !== 0 ? 1 : 0) !== this.andIs) continue;
          this.seq.add(p);
          break;
        }
      }
    }
    this.n = 0;
  }

  /** Every queued process wakes, whatever its guards. */
  flush(): void {
    for (let j = 0; j < this.n; j++) {
      this.queued[this.list[j]!] = 0;
      this.seq.add(this.list[j]!);
    }
    this.n = 0;
  }

  clear(): void {
    for (let j = 0; j < this.n; j++) this.queued[this.list[j]!] = 0;
    this.n = 0;
  }
}
