import type { Netlist } from './elaborate.ts';

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
 *    or ~p, as above), and 1 for a `bits` guard, 0 for an `is` list.
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
