/**
 * Process runs per word of a loaded Buzzard cube in steady state (issue 8;
 * docs/kernel.md "Stop 23: Buzzard per word"): builds and warms up the case
 * as bench/steady.ts does, then counts, over one window, the runs of every
 * process kind (unit class . process name) and the words the buffer RAMs
 * wrote (one per word arriving over a link or from the control unit, the
 * RAM's write port serving at most one a cycle: `ram.wany`), and prints runs
 * per cycle and per word. Counts only (no timer): exact and the same on any
 * machine. `reference` builds stop 22's process structure (wordFolds false).
 *
 *   npx tsx bench/per_word.ts [n=6] [gap=1024] [warmup=30000] [window=5000] [folded|reference]
 */
import { Simulator } from '../rtl/kernel/index.ts';
import { BuzzardCube } from '../rtl/buzzard/network.ts';
import type { ProcessDecl } from '../rtl/kernel/module.ts';
import { CubeDriver } from '../harness/rtl/cube_driver.ts';
import { buzzardCh5Workload } from '../harness/workloads/index.ts';
import { DEFAULT_CYCLES_PER_TICK, scheduleWorkload } from '../harness/rtl/run_workload.ts';

const [n = '6', gap = '1024', warm = '30000', win = '5000', structure = 'folded'] = process.argv.slice(2);
if (structure !== 'folded' && structure !== 'reference') {
  console.error(`per_word: structure '${structure}' is not 'folded' or 'reference'`);
  process.exit(2);
}
const cube = new BuzzardCube({ n: +n }, 'cube', { wordFolds: structure === 'folded' });
const sim = new Simulator(cube);
// bench/steady.ts buildLoaded's workload (seed 1, 512-byte mean messages)
const horizon = +warm + +win + 10_000;
scheduleWorkload(new CubeDriver(sim, cube), buzzardCh5Workload({ cubeDegree: +n, meanBytes: 512, meanGapTicks: +gap, durationTicks: horizon / DEFAULT_CYCLES_PER_TICK, seed: 1 }));
sim.step(+warm);

const runs = new Map<string, { runs: number }>();
// The simulator's process tables are private: a bench may look, the design never does (bench/process_profile.ts).
const inner = sim as unknown as { net: { seq: ProcessDecl[]; comb: ProcessDecl[] }; seqFns: (() => void)[]; combFns: (() => void)[] };
const wrap = (decls: ProcessDecl[], fns: (() => void)[], tag: string): void => {
  decls.forEach((d, p) => {
    const key = `${tag} ${d.module.constructor.name}.${d.name.replace(/[0-9]+/g, '#')}`;
    let k = runs.get(key);
    if (!k) runs.set(key, (k = { runs: 0 }));
    const kind = k;
    const fn = fns[p]!;
    fns[p] = () => {
      fn();
      kind.runs++;
    };
  });
};
wrap(inner.net.seq, inner.seqFns, 'seq ');
wrap(inner.net.comb, inner.combFns, 'comb');
const e0 = sim.evaluations;
const wany = cube.nodes.map((nd) => sim.net.signals.find((s) => s.path === `${nd.ram.path}.wany`)!);
let words = 0;
for (let c = 0; c < +win; c++) {
  sim.step(1);
  for (const s of wany) words += sim.peek(s);
}
const W = +win;
const evals = sim.evaluations - e0;
console.log(`${n}-cube gap ${gap}, ${structure}, window ${W} after ${warm}: ${(evals / W).toFixed(1)} evaluations per cycle, ${(words / W).toFixed(2)} RAM words written per cycle, ${(evals / words).toFixed(1)} evaluations per word`);
const rows = [...runs.entries()].filter(([, k]) => k.runs > 0).sort((a, b) => b[1].runs - a[1].runs);
for (const [key, k] of rows.slice(0, 30)) console.log(`${key.padEnd(46)} ${(k.runs / W).toFixed(2).padStart(8)} runs/cycle ${(k.runs / words).toFixed(2).padStart(6)} runs/word`);
