/**
 * `npx tsx bench/hash_compare.ts TREE_A TREE_B`: the state hashes of two
 * source trees at cycles 500, 1000, .. 3000 on a loaded Buzzard 3-cube (gap
 * 256 ticks) and a C104 3x3 mesh under the Table 3.1 load (node
 * addressing), each tree built with its own bench and kernel files. A kernel
 * change that should be exact (docs/kernel.md "Stop 21: cost at scale")
 * prints `equal` for every cycle; exit 1 if any differ.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Steady from './steady.ts';
import type * as C104Bench from './c104.ts';
import type { Simulator } from '../rtl/kernel/index.ts';

const trees = process.argv.slice(2, 4);
if (trees.length !== 2) {
  console.error('hash_compare: usage: hash_compare.ts TREE_A TREE_B');
  process.exit(2);
}
const load = async <T>(tree: string, file: string): Promise<T> => {
  try {
    return (await import(pathToFileURL(resolve(tree, file)).href)) as T;
  } catch (e) {
    console.error(`hash_compare: cannot load ${tree}/${file}: ${(e as Error).message.split('\n')[0]}`);
    return process.exit(2);
  }
};
const CYCLES = [500, 1000, 1500, 2000, 2500, 3000];
const hashes = (sim: Simulator): string[] => CYCLES.map((c) => (sim.step(c - sim.cycle), sim.stateHash()));
let differ = 0;
for (const name of ['cube3', 'c104 3x3'] as const) {
  const per: string[][] = [];
  for (const tree of trees) {
    if (name === 'cube3') per.push(hashes((await load<typeof Steady>(tree, 'bench/steady.ts')).buildLoaded({ n: 3, gapTicks: 256, warmup: 3000, window: 0 }).sim));
    else per.push(hashes((await load<typeof C104Bench>(tree, 'bench/c104.ts')).buildC104Mesh({ side: 3, window: 16, interval: 100, warmup: 0, cycles: 3000, addressing: 'node' }, 3000).sim));
  }
  CYCLES.forEach((c, k) => {
    const same = per[0]![k] === per[1]![k];
    if (!same) differ++;
    console.log(`${name} cycle ${c}: ${per[0]![k]} ${per[1]![k]} ${same ? 'equal' : 'DIFFER'}`);
  });
}
process.exit(differ ? 1 : 0);
