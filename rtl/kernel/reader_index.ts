import type { Netlist } from './elaborate.ts';
import type { DirtySet } from './dirty_set.ts';
import { LateGuards } from './late_guards.ts';

/**
 * Who wakes when a slot changes, laid out for the hot marking loop
 * (docs/kernel.md "Stop 20: reader index", "Stop 24: kernel"). The netlist
 * keeps the readers as four CSR tables (comb and seq readers, comb and seq
 * guarded readers) and the guard entries as five parallel arrays; here the
 * same lists, merged, one record per slot that can change:
 *
 *  - Records only for current-value slots: wire x at record x, register r
 *    (slot regBase + 2r) at record regBase + r. A register's next-value slot
 *    never wakes anyone, and a record for it was 8 bytes of every start
 *    pair's line carrying nothing (stop 23: 13 % of their lines).
 *  - `idx[2d]`, `idx[2d + 1]`: record d, both numbers in one aligned 8-byte
 *    pair (one cache line, and no look at the next record's start). Usually
 *    the start of the slot's entries in `list` and its counts, plain readers
 *    (low 16 bits) and guard entries (the bits above); 0 when nobody reads
 *    the slot. A slot whose one reader is plain, with no guard entries (a
 *    third of the slots marked at the Table 3.1 load), keeps that reader in
 *    `idx[2d]` with `idx[2d + 1]` = LONE: no `list` line for it.
 *  - `list`: per slot its plain readers, one number each (p >= 0 comb
 *    process p, < 0 seq process ~p), then its guard entries, GUARD_STRIDE
 *    numbers each: the guard's slot, its mask, the process (p or ~p, as
 *    above), and 1 for a `bits` guard, 0 for an `is` list, 2 for a late
 *    `bits` guard (its process queued: late_guards.ts). A slot's readers and
 *    guards side by side: often one line for both.
 *
 * The sets of processes are the netlist's, only the order within a slot
 * differs (comb and seq interleaved as listed), and marking adds to sets, so
 * nothing observable changes (test/kernel/reader_index.test.ts compares the
 * records with the netlist's tables, slot by slot).
 */
export interface ReaderIndex {
  idx: Int32Array;
  list: Int32Array;
  /** The guard entries alone (GUARD_STRIDE numbers each), for LateGuards' set-up; not kept hot. */
  guards: Int32Array;
}

export const GUARD_STRIDE = 4;
/** idx[2d + 1] of a slot whose one reader, plain, is idx[2d]. */
export const LONE = -1;
const MAX_PLAIN = 0xffff;
/** Negative control only (tests): a slot's lone reader is dropped (its record says nobody reads it). */
export const readerIndexFault = { dropLone: false };
const MAX_GUARDS = 0x7fff;

/** Record of current-value slot x (its pair at idx[2 * record]); a next-value slot maps to its register's record. */
export function recordOf(x: number, regBase: number): number {
  return x < regBase ? x : (x + regBase) >> 1;
}

export function buildReaderIndex(net: Netlist): ReaderIndex {
  const rb = net.regBase;
  const nRec = net.nWires + net.nRegs;
  const idx = new Int32Array(2 * nRec);
  const list = new Int32Array(net.combReaders.length + net.seqReaders.length + GUARD_STRIDE * (net.combGuardProc.length + net.seqGuardProc.length));
  const guards = new Int32Array(GUARD_STRIDE * (net.combGuardProc.length + net.seqGuardProc.length));
  let r = 0;
  let g = 0;
  for (let d = 0; d < nRec; d++) {
    const x = d < rb ? d : rb + 2 * (d - rb);
    const a = r;
    for (let k = net.combReaderStart[x]!, e = net.combReaderStart[x + 1]!; k < e; k++) list[r++] = net.combReaders[k]!;
    for (let k = net.seqReaderStart[x]!, e = net.seqReaderStart[x + 1]!; k < e; k++) list[r++] = ~net.seqReaders[k]!;
    const nPlain = r - a;
    const g0 = g;
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
    const nGuards = (g - g0) / GUARD_STRIDE;
    if (nPlain > MAX_PLAIN || nGuards > MAX_GUARDS) throw new Error(`internal: slot ${x} has ${nPlain} readers and ${nGuards} guard entries, beyond the reader index's ${MAX_PLAIN} and ${MAX_GUARDS}`);
    if (nPlain === 1 && nGuards === 0) {
      idx[2 * d] = list[a]!;
      idx[2 * d + 1] = readerIndexFault.dropLone ? 0 : LONE;
      r = a; // not in the list
      continue;
    }
    for (let k = g0; k < g; k++) list[r++] = guards[k]!;
    idx[2 * d] = a;
    idx[2 * d + 1] = nPlain === 0 && nGuards === 0 ? 0 : nPlain | (nGuards << 16);
  }
  return { idx, list: list.slice(0, r), guards };
}

/**
 * Marking: slot x changed, so its readers wake, and its guarded readers
 * whose guard is in a reading state. Shared by the commit (commit.ts), the
 * comb settle and poke; one class, so each of its call sites stays
 * monomorphic (docs/kernel.md "Stop 21: allocation and layout").
 */
export class ReaderWake {
  readonly idx: Int32Array;
  readonly list: Int32Array;
  private readonly regBase: number;
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
    this.list = ri.list;
    this.regBase = net.regBase;
    this.late = new LateGuards(ri.guards, GUARD_STRIDE, net.seq, s, seq, net.lateMems.guards);
  }

  /** Slot `slot` (a current value) changed: its readers wake, and its guarded readers whose guard is in a reading state. */
  mark(slot: number): void {
    const rb = this.regBase;
    // recordOf, inlined, times 2: a wire x at 2x, a register's current slot x at x + regBase.
    const i = slot < rb ? slot << 1 : (slot + rb) & ~1;
    const idx = this.idx;
    const w = idx[i + 1]!;
    if (w === 0) return;
    const a = idx[i]!;
    if (w === LONE) {
      addReaders(this.comb, this.seq, idx, i, i + 1);
      return;
    }
    const e = a + (w & MAX_PLAIN);
    if (e !== a) addReaders(this.comb, this.seq, this.list, a, e);
    const ng = w >>> 16;
    if (ng !== 0) this.markGuarded(e, e + GUARD_STRIDE * ng);
  }

  /**
   * Guarded readers of a slot (entries ga..gb of the list): only while
   * their guard (a register or a comb signal) is in one of the states where
   * they read it. A guard about to change in this commit or settle wakes
   * them itself, so its value here may be the old one (docs/kernel.md
   * "Exact sensitivity").
   */
  private markGuarded(ga: number, gb: number): void {
    const s = this.s;
    const g = this.list;
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
