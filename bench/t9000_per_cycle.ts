/**
 * `npx tsx bench/t9000_per_cycle.ts [--side S] [--warm W] [--window N]`: the
 * T9000 endpoints' and the harness's calls per node and cycle in a window of
 * the Table 3.1 mesh (bench/c104-table31-rtl.ts --node: side×side T9000 +
 * C104 nodes, ±16, 32 bytes every 100 cycles; docs/kernel.md "Stop 23:
 * endpoints per cycle"): stimuli run, memory pokes (word pokes and block
 * writes, with the words they carry), the virtual link control's runs and
 * the length of its work list after each cycle (the blocks its latest run
 * visited; sampled every cycle whether or not it ran). Counting wrappers around the
 * simulator's calls (a measuring tool: its timing means nothing). Prints JSON.
 */
import type { Memory } from '../rtl/kernel/index.ts';
import { buildC104Mesh, C104_START } from './c104.ts';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const side = arg('side', 8);
const warm = arg('warm', 2000);
const window = arg('window', 2000);
if (!(Number.isInteger(side) && side >= 2 && side <= 16 && warm >= 0 && window >= 1)) {
  console.error('bench/t9000_per_cycle: --side in 2..16, --warm >= 0, --window >= 1');
  process.exit(2);
}
const sys = buildC104Mesh({ side, window: 16, interval: 100, warmup: 0, cycles: warm + window, addressing: 'node' }, C104_START + warm + window);
const { sim } = sys;
sim.step(C104_START + warm);

type Counted = { pokeMem: (m: Memory, a: number, v: number) => void; pokeMemBlock?: (m: Memory, a: number, v: ArrayLike<number>) => void; schedule: (cycle: number, fn: (x: unknown) => void) => void; stimuli: unknown[] };
const S = sim as unknown as Counted;
let counting = false;
const c = { stimuli: 0, pokes: 0, blockWrites: 0, blockWords: 0, vlcRuns: 0, vlcVisits: 0 };
const poke = S.pokeMem.bind(sim);
S.pokeMem = (m, a, v) => {
  if (counting) c.pokes++;
  poke(m, a, v);
};
if (S.pokeMemBlock) {
  const block = S.pokeMemBlock.bind(sim);
  S.pokeMemBlock = (m, a, v) => {
    if (counting) {
      c.blockWrites++;
      c.blockWords += v.length;
    }
    block(m, a, v);
  };
}
// Stimuli scheduled from here on count when they run; those already in the list (the feeder's, up to 2,000 cycles ahead) too.
const wrapFn = (fn: (x: unknown) => void) => (x: unknown): void => {
  if (counting) c.stimuli++;
  fn(x);
};
for (const st of S.stimuli as { fn: (x: unknown) => void }[]) st.fn = wrapFn(st.fn);
const schedule = S.schedule.bind(sim);
S.schedule = (cycle, fn) => schedule(cycle, wrapFn(fn));
const vlcs = sys.endpoints.map((ep) => ep.vlc);
sim.observe({
  onCycle: () => {
    if (!counting) return;
    for (const v of vlcs) {
      const n = v.visitedCount();
      if (n > 0) c.vlcRuns++;
      c.vlcVisits += n;
    }
  },
});
const e0 = sim.evaluations;
counting = true;
sim.step(window);
const per = window * side * side;
console.log(
  JSON.stringify(
    {
      mesh: `${side}x${side}`,
      window,
      stimuliPerNodeCycle: c.stimuli / per,
      wordPokesPerNodeCycle: c.pokes / per,
      blockWritesPerNodeCycle: c.blockWrites / per,
      blockWordsPerNodeCycle: c.blockWords / per,
      vlcNonEmptyWorkListsPerNodeCycle: c.vlcRuns / per,
      vlcWorkListLengthPerNodeCycle: c.vlcVisits / per,
      evaluationsPerNodeCycle: (sim.evaluations - e0) / per,
    },
    null,
    1,
  ),
);
