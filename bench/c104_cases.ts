/**
 * The C104/DS-link cases of the before/after tools (bench/alternate.ts,
 * bench/c104_side_by_side.ts), built from a given source tree's own bench
 * and kernel files, so an older tree is measured with its own code:
 * mesh3, mesh4 (a 3×3 / 4×4 C104 mesh under seed 004's Table 3.1 load: ±16,
 * one 32-byte message per endpoint every 100 cycles, bench/c104.ts), idle4
 * (the 4×4 with no traffic), pair (the T9000 pair streaming 32-byte
 * messages both ways, bench/t9000.ts), node8 (the 8x8 mesh of the Table 3.1
 * run, T9000 node addressing as bench/c104-table31-rtl.ts --node; its
 * warm-up counts from cycle 0, so it includes the 2,500 cycles of link
 * start-up), node16 (the same at 16x16: docs/kernel.md "Stop 21: cost at
 * scale").
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as C104Bench from './c104.ts';
import type * as PairBench from './t9000.ts';
import type * as Kernel from '../rtl/kernel/index.ts';

export const C104_CASES = ['mesh3', 'mesh4', 'idle4', 'pair', 'node8', 'node16', 'node32'] as const;
export type C104Case = (typeof C104_CASES)[number];

/** The case's T9000 + C104 nodes (the pair: 2 endpoints). */
export const c104CaseNodes = (c: C104Case): number => ({ mesh3: 9, mesh4: 16, idle4: 16, pair: 2, node8: 64, node16: 256, node32: 1024 })[c];
export const isC104Case = (s: string): s is C104Case => (C104_CASES as readonly string[]).includes(s);

/** Imports `file` of `tree`; a tree without it is the user's error (one line, exit 2). */
export async function loadFromTree<T>(tree: string, file: string, fail: (msg: string) => never): Promise<T> {
  try {
    return (await import(pathToFileURL(resolve(tree, file)).href)) as T;
  } catch (e) {
    return fail(`cannot load ${tree}/${file}: ${(e as Error).message.split('\n')[0]}`);
  }
}

/**
 * Builds case `c` of `tree` (the pair: prepared until its links are up) with
 * sends scheduled for `cycles` cycles after a warm-up of `warm`; the caller
 * steps it.
 */
export async function buildC104Case(tree: string, c: C104Case, warm: number, cycles: number, fail: (msg: string) => never): Promise<Kernel.Simulator> {
  if (c === 'pair') {
    const K = await loadFromTree<typeof Kernel>(tree, 'rtl/kernel/index.ts', fail);
    const P = await loadFromTree<typeof PairBench>(tree, 'bench/t9000.ts', fail);
    const pc = P.t9000PairBenchCase();
    const top = pc.build();
    const sim = new K.Simulator(top, { mode: 'activity' });
    pc.prepare(sim, top);
    return sim;
  }
  const M = await loadFromTree<typeof C104Bench>(tree, 'bench/c104.ts', fail);
  if (c === 'node8' || c === 'node16' || c === 'node32') return M.buildC104Mesh({ side: c104CaseNodes(c) ** 0.5, window: 16, interval: 100, warmup: warm, cycles, addressing: 'node' }, warm + cycles).sim;
  const side = c === 'mesh3' ? 3 : 4;
  return M.buildC104Mesh({ side, window: 16, interval: 100, warmup: warm, cycles, idle: c === 'idle4' }, warm + cycles + M.C104_START).sim;
}
