/** Checking `--signals` globs against a design before anything is written. */
import type { Simulator } from '../../rtl/kernel/index.ts';
import { UsageError } from './args.ts';

/** Every glob must match some signal or memory: one line naming the option and the glob otherwise. */
export function checkGlobs(sim: Simulator, command: string, option: string, globs: readonly string[]): void {
  for (const g of globs) {
    let hits: number;
    try {
      hits = sim.glob(g).length;
    } catch (e) {
      throw new UsageError(`icemu ${command}: --${option} '${g}': ${(e as Error).message}`);
    }
    if (hits === 0) throw new UsageError(`icemu ${command}: --${option}: no signal or memory matches '${g}' (globs: * within a name segment, ** across segments, e.g. 'fifo.*')`);
  }
}
