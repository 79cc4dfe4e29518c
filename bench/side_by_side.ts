/**
 * Before/after speed of the Buzzard cube, side by side in one process (issue
 * 8; the method of the early tables in docs/speed.md): two source trees (e.g. `git
 * archive OLD | tar -x -C /tmp/old`, with node_modules linked in) each build
 * the same loaded cube, both are warmed up to the same cycle, then timed
 * windows alternate between them (CPU time of this process), so load from
 * other jobs on a shared machine falls on both alike. Run it on one core:
 *
 *   taskset -c 0 npx tsx bench/side_by_side.ts /tmp/old . N GAP WARMUP WINDOW ROUNDS [plain]
 *
 * GAP is the chapter-5 mean gap in ticks (0 = idle, fast-forward off);
 * `plain` times the reference mode from the warmed-up state. Prints, per
 * tree: cycles per CPU second, evaluations per cycle, ns per evaluation and
 * the link utilisation of the timed windows, then the speed-up.
 *
 * Bias: both trees share one process's JIT and caches. A/A runs (one tree
 * against a copy of itself, loaded 6-cube, load ~11) measured 0.81× and, in
 * the other order, 0.85×: the tree loaded second is slower, so a ratio
 * near 1 from here says little; bench/alternate.ts runs each window in
 * a process of its own.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Steady from './steady.ts';

function usage(msg: string): never {
  console.error(`side_by_side: ${msg} (usage: side_by_side.ts BEFORE_TREE AFTER_TREE N GAP WARMUP WINDOW ROUNDS [plain])`);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.length < 7 || args.length > 8) usage('expected 7 or 8 arguments');
const [before, after] = args as [string, string];
const nums = args.slice(2, 7).map(Number);
if (!nums.every((x) => Number.isInteger(x) && x >= 0)) usage('N GAP WARMUP WINDOW ROUNDS must be whole numbers >= 0');
const [n, gap, warm, win, rounds] = nums as [number, number, number, number, number];
if (n < 1 || n > 10 || win < 1 || rounds < 1) usage('N is 1..10, WINDOW and ROUNDS at least 1');
const plain = args[7] === 'plain';
if (args[7] !== undefined && !plain) usage(`unknown mode '${args[7]}' (only 'plain')`);

async function load(tree: string): Promise<typeof Steady> {
  try {
    return (await import(pathToFileURL(resolve(tree, 'bench/steady.ts')).href)) as typeof Steady;
  } catch (e) {
    return usage(`cannot load ${tree}/bench/steady.ts: ${(e as Error).message.split('\n')[0]}`);
  }
}

const trees = [await load(before), await load(after)];
const runs = trees.map((M) => {
  const c: Steady.SteadyCase = { n, gapTicks: gap, warmup: warm, window: win, ...(gap === 0 ? { sim: { fastForward: false } } : {}) };
  const { sim, cube } = M.buildLoaded(c);
  sim.step(warm);
  if (plain) sim.setMode('plain');
  return { M, sim, cube, cpu: 0, evals: 0, busy: 0 };
});
for (let r = 0; r < rounds; r++) {
  for (const x of r % 2 ? [runs[1]!, runs[0]!] : runs) {
    const e0 = x.sim.evaluations;
    const b0 = x.M.busyLinkCycles(x.sim, x.cube);
    const u0 = process.cpuUsage();
    x.sim.step(win);
    const u = process.cpuUsage(u0);
    x.cpu += (u.user + u.system) / 1e6;
    x.evals += x.sim.evaluations - e0;
    x.busy += x.M.busyLinkCycles(x.sim, x.cube) - b0;
  }
}
const cycles = win * rounds;
const links = n * (1 << n);
runs.forEach((x, k) => {
  const evals = x.evals / cycles;
  const ns = x.evals > 0 ? `${((x.cpu * 1e9) / x.evals).toFixed(0)} ns/eval` : 'no evaluations';
  console.log(`${k === 0 ? 'before' : 'after '} ${(cycles / x.cpu).toFixed(0)} cycles/s  ${evals.toFixed(1)} evals/cycle  ${ns}  link utilisation ${((100 * x.busy) / (links * cycles)).toFixed(1)}%`);
});
console.log(`speed-up ${(runs[0]!.cpu / runs[1]!.cpu).toFixed(3)}x`);
