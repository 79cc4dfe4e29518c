/**
 * Who wakes when a memory word changes (docs/kernel.md "Stop 24: kernel"):
 * per memory its whole-memory readers (any changed word wakes them) and its
 * comb readers at one address (CombOptions.readsAt: a changed word wakes
 * them only while their address signal holds that word's address).
 *
 * Exact: a reader at an address reads exactly one word, mem[s[addr]]. When
 * a word changes (at the commit or a poke), either s[addr] keeps its present
 * value until the reader next runs, and then the comparison below is the
 * reader's own, or it changes, and then that change wakes the reader (the
 * address is a plain read), which then reads the new word anyway: the same
 * argument as a guard seen before it settles ("Exact sensitivity").
 *
 * 'whole' (SimOptions.memoryWake) is the reference: the addressed readers
 * wake on every write to their memory, as before stop 24.
 */
import type { Netlist } from './elaborate.ts';
import type { MemoryWake } from './sim_options.ts';

/** Negative control only (tests): the addressed readers are dropped, so no write wakes them. */
export const memWakeFault = { dropAddressed: false };

export interface MemReaders {
  /** Per memory: the comb processes any changed word wakes. */
  comb: Int32Array[];
  /** Per memory: pairs (comb process, address slot) a changed word wakes while s[slot] is its address. */
  at: Int32Array[];
}

export function memReaders(net: Netlist, wake: MemoryWake): MemReaders {
  const none = new Int32Array(0);
  if (memWakeFault.dropAddressed) return { comb: net.memCombReaders, at: net.memAtReaders.map(() => none) };
  if (wake === 'address') return { comb: net.memCombReaders, at: net.memAtReaders };
  // The reference: each addressed reader among the whole-memory ones, in process order.
  const comb = net.memCombReaders.map((list, m) => {
    const at = net.memAtReaders[m]!;
    if (at.length === 0) return list;
    const all = new Set(list);
    for (let k = 0; k < at.length; k += 2) all.add(at[k]!);
    return Int32Array.from([...all].sort((a, b) => a - b));
  });
  return { comb, at: net.memAtReaders.map(() => none) };
}
