/**
 * A set of process indices as a two-level bitmap: one bit per process, and a
 * summary bit per 32-bit word that may be nonzero. Iterating finds the set
 * processes in ascending index order while skipping empty stretches 1,024
 * processes at a time, so an almost idle design costs little per cycle
 * however large it is. Ascending order matters: comb processes must run in
 * their static order, and seq processes in the same order as plain mode.
 * The iteration itself is written out in the simulator's two hot loops
 * (Simulator.runDirtySeq, Simulator.settleActive), where a call per member
 * would cost more than the member's evaluation.
 */
export class DirtySet {
  readonly words: Uint32Array;
  readonly summary: Uint32Array;
  count = 0;
  constructor(readonly size: number) {
    this.words = new Uint32Array((size + 31) >>> 5);
    this.summary = new Uint32Array((this.words.length + 31) >>> 5);
  }

  /** Add p; returns true if it was not in the set. */
  add(p: number): boolean {
    const w = p >>> 5;
    const bit = 1 << (p & 31);
    const old = this.words[w]!;
    if (old & bit) return false;
    this.words[w] = old | bit;
    this.summary[w >>> 5]! |= 1 << (w & 31);
    this.count++;
    return true;
  }

  has(p: number): boolean {
    return (this.words[p >>> 5]! & (1 << (p & 31))) !== 0;
  }

  clear(): void {
    this.words.fill(0);
    this.summary.fill(0);
    this.count = 0;
  }

  fill(): void {
    this.clear();
    for (let p = 0; p < this.size; p++) this.add(p);
  }

  snapshot(): Uint32Array {
    return this.words.slice();
  }

  restore(words: Uint32Array): void {
    this.clear();
    for (let w = 0; w < words.length; w++) {
      let bits = words[w]!;
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        this.add((w << 5) + (31 - Math.clz32(low)));
      }
    }
  }
}
