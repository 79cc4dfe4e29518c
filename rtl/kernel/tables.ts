/**
 * The kernel's per-process records (docs/kernel.md "Stop 22: kernel
 * tables"): what a hot loop reads of one process, packed together in one
 * Int32Array, built once from the netlist's parallel CSR tables (which stay:
 * the debug tools and bench/kernel_work read them).
 */
import type { Netlist } from './elaborate.ts';

/** The seq processes' commit records (Commit.rec): the group's stamp record, list or sweep bounds, stamp. */
export function commitRecords(net: Netlist): Int32Array {
  const n = net.seq.length;
  const rec = new Int32Array(4 * n);
  const first = new Int32Array(net.nSeqGroups).fill(-1); // per group: its first process
  for (let p = 0; p < n; p++) {
    const i = 4 * p;
    const g = net.seqGroup[p]!;
    if (first[g] === -1) first[g] = p;
    rec[i] = 4 * first[g]!;
    const lo = net.seqSweepLo[p]!;
    const hi = net.seqSweepHi[p]!;
    if (hi > lo) {
      // A process has a write list or a sweep range, never both (elaborate.ts).
      rec[i + 1] = ~(net.regBase + 2 * lo);
      rec[i + 2] = net.regBase + 2 * hi;
    } else {
      rec[i + 1] = net.seqWriteStart[p]!;
      rec[i + 2] = net.seqWriteStart[p + 1]!;
    }
  }
  return rec;
}

/** runComb's per-process records (SimulatorCore.combRec) from the netlist's CSR write lists. */
export function combRecords(start: Int32Array, writes: Int32Array): Int32Array {
  const n = start.length - 1;
  const rec = new Int32Array(2 * n);
  for (let p = 0; p < n; p++) {
    const a = start[p]!;
    const b = start[p + 1]!;
    if (b - a === 1) rec[2 * p] = rec[2 * p + 1] = ~writes[a]!; // an empty a..b: no list
    else {
      rec[2 * p] = a;
      rec[2 * p + 1] = b;
    }
  }
  return rec;
}
