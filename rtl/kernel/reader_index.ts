import type { Netlist } from './elaborate.ts';
import type { DirtySet } from './dirty_set.ts';
import { LateGuards } from './late_guards.ts';

/**
 * Who wakes when a slot changes, laid out for the hot marking loop
 * (docs/kernel.md "Stop 20: reader index"). The netlist keeps the readers as
 * four CSR tables (comb and seq readers, comb and seq guarded readers) and
 * the guard entries as five parallel arrays; marking one changed slot then
 * touched up to eight arrays at scattered places, each a likely cache miss
 * in a large design. Here the same lists, merged:
 *
 *  - `idx[2x]`, `idx[2x + 2]`: slot x's plain readers in `readers`; an entry
 *    p >= 0 is comb process p, an entry < 0 is seq process ~p.
 *  - `idx[2x + 1]`, `idx[2x + 3]`: slot x's guarded readers in `guards`,
 *    GUARD_STRIDE numbers each: the guard's slot, its mask, the process (p
 *    or ~p, as above), and 1 for a `bits` guard, 0 for an `is` list, 2
 *    for a late `bits` guard (its process queued: late_guards.ts).
 *
 * Both starts of a slot sit side by side (one cache line), and a guard
 * entry's four numbers too. The sets of processes are the netlist's, only
 * the order within a slot differs (comb and seq interleaved as listed), and
 * marking adds to sets, so nothing observable changes.
 */
export interface ReaderIndex {
  idx: Int32Array;
  readers: Int32Array;
  guards: Int32Array;
}

export const GUARD_STRIDE = 4;

export function buildReaderIndex(net: Netlist): ReaderIndex {
  // Every slot, next-value slots with empty lists (a register's next value is
  // beside its current one: docs/kernel.md "Stop 20: state layout").
  const n = net.size;
  const idx = new Int32Array(2 * (n + 1));
  const readers = new Int32Array(net.combReaders.length + net.seqReaders.length);
  const guards = new Int32Array(GUARD_STRIDE * (net.combGuardProc.length + net.seqGuardProc.length));
  let r = 0;
  let g = 0;
  for (let x = 0; x < n; x++) {
    idx[2 * x] = r;
    idx[2 * x + 1] = g;
    for (let k = net.combReaderStart[x]!, e = net.combReaderStart[x + 1]!; k < e; k++) readers[r++] = net.combReaders[k]!;
    for (let k = net.seqReaderStart[x]!, e = net.seqReaderStart[x + 1]!; k < e; k++) readers[r++] = ~net.seqReaders[k]!;
    for (let k = net.combGuardStart[x]!, e = net.combGuardStart[x + 1]!; k < e; k++) {
      guards[g++] = net.combGuardSlot[k]!;
      guards[g++] = net.combGuardMask[k]!;
      guards[g++] = net.combGuardProc[k]!;
      guards[g++] = net.combGuardBits[k]!;
    }
    for (let k = net.seqGuardStart[x]!, e = net.seqGuardStart[x + 1]!; k < e; k++) {
      guards[g++] = net.seqGuardSlot[k]!;
      guards[g++] = net.seqGuardMask[k]!;
      guards[g++] = ~net.seqGuardProc[k]!;
      guards[g++] = net.seqGuardBits[k]!;
    }
  }
  idx[2 * n] = r;
  idx[2 * n + 1] = g;
  return { idx, readers, guards };
}

/**
 * Marking: slot x changed, so its readers wake, and its guarded readers
 * whose guard is in a reading state. Shared by the commit (commit.ts), the
 * comb settle and poke; one class, so each of its call sites stays
 * monomorphic (docs/kernel.md "Stop 21: allocation and layout").
 */
export class ReaderWake {
  readonly idx: Int32Array;
  readonly readers: Int32Array;
  readonly guards: Int32Array;
  /** Late guard entries queued until the values have settled. */
  readonly late: LateGuards;
  constructor(
    net: Netlist,
    private readonly s: Float64Array,
    private readonly comb: DirtySet,
    private readonly seq: DirtySet,
  ) {
    const ri = buildReaderIndex(net);
    this.idx = ri.idx;
    this.readers = ri.readers;
    this.guards = ri.guards;
    this.late = new LateGuards(ri.guards, GUARD_STRIDE, net.seq.length, s, seq);
  }

  /** Slot `slot` changed: its readers wake, and its guarded readers whose guard is in a reading state. */
  mark(slot: number): void {
    const idx = this.idx;
    const i = slot << 1;
    const a = idx[i]!;
    const b = idx[i + 2]!;
    if (a !== b) addReaders(this.comb, this.seq, this.readers, a, b);
    const ga = idx[i + 1]!;
    const gb = idx[i + 3]!;
    if (ga !== gb) this.markGuarded(ga, gb);
  }

  /**
   * Guarded readers of a slot (entries ga..gb of the guard list): only while
   * their guard (a register or a comb signal) is in one of the states where
   * they read it. A guard about to change in this commit or settle wakes
   * them itself, so its value here may be the old one (docs/kernel.md
   * "Exact sensitivity").
   */
  private markGuarded(ga: number, gb: number): void {
    const s = this.s;
    const g = this.guards;
    // An `is` guard tests bit v of its mask, a `bits` guard v & mask: as one test, (1 << v or v) & mask.
    for (let k = ga; k < gb; k += GUARD_STRIDE) {
      const form = g[k + 3]!;
      if (form === 2) {
        this.late.push(~g[k + 2]!);
        continue;
      }
      const v = s[g[k]!]!;
      if (((form === 1 ? v : 1 << v) & g[k + 1]!) !== 0) {
        const p = g[k + 2]!;
        if (p >= 0) this.comb.add(p);
        else this.seq.add(~p);
      }
    }
  }
}

/**
 * Add readers list[a..b) to the dirty sets (an entry p >= 0 is comb process
 * p, < 0 seq process ~p): DirtySet.add written out, as this runs for every
 * changed register and wire (a small monomorphic function V8 inlines into
 * mark).
 */
function addReaders(comb: DirtySet, seq: DirtySet, list: Int32Array, a: number, b: number): void {
  for (let k = a; k < b; k++) {
    let p = list[k]!;
    let set = comb;
    if (p < 0) {
      p = ~p;
      set = seq;
    }
    const words = set.words;
    const w = p >>> 5;
    const bit = 1 << (p & 31);
    const old = words[w]!;
    if ((old & bit) === 0) {
      words[w] = old | bit;
      set.summary[w >>> 5]! |= 1 << (w & 31);
      set.count++;
    }
  }
}
