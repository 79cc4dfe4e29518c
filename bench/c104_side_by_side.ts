/**
 * Before/after speed of the C104 mesh and the T9000 pair, side by side in
 * one process (the method of bench/side_by_side.ts, for the DS-link/C104
 * designs): two source trees (e.g. `git archive OLD | tar -x -C /tmp/old`,
 * node_modules linked in) each build the same design, both are warmed up to
 * the same cycle, then timed windows alternate between them (CPU time of
 * this process), so load from other jobs falls on both alike. On one core:
 *
 *   taskset -c 0 npx tsx bench/c104_side_by_side.ts /tmp/old . CASE WARMUP WINDOW ROUNDS
 *
 * CASE: mesh3, mesh4 (a 3×3 / 4×4 C104 mesh under seed 004's Table 3.1
 * load: ±16, one 32-byte message per endpoint every 100 cycles, bench/c104.ts),
 * idle4 (the 4×4 with no traffic), pair (the T9000 pair streaming 32-byte
 * messages both ways, bench/t9000.ts). Prints per tree: cycles per CPU
 * second, evaluations per cycle, ns per evaluation (and link bits per CPU
 * second for the pair), then the speed-up. The cases: bench/c104_cases.ts.
 *
 * Bias: A/A runs (a tree against a copy of itself, loaded 4x4, warm 10k,
 * 4 × 5k cycles, load 6–9) gave 1.03× and, swapped, 1.00×: no load-order
 * bias of the size bench/side_by_side.ts shows (0.81×). But its
 * before/after figures of this session for the loaded 4x4 (1.22×) and the
 * pair (1.26×) were not reproduced by bench/alternate.ts (each window its
 * own process: 1.01–1.06× and 1.05–1.14×; the 3x3's 1.22× was, 1.21×): two
 * different trees in one process share its JIT, which an A/A run cannot
 * show. Use bench/alternate.ts for ratios (docs/kernel.md
 * "Measured").
 */
import type * as Kernel from '../rtl/kernel/index.ts';
import { buildC104Case, C104_CASES, isC104Case } from './c104_cases.ts';

function usage(msg: string): never {
  console.error(`c104_side_by_side: ${msg} (usage: c104_side_by_side.ts BEFORE_TREE AFTER_TREE ${C104_CASES.join('|')} WARMUP WINDOW ROUNDS)`);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.length !== 6) usage('expected 6 arguments');
const [before, after, which] = args as [string, string, string];
if (!isC104Case(which)) usage(`unknown case '${which}'`);
const nums = args.slice(3).map(Number);
if (!nums.every((x) => Number.isInteger(x) && x >= 0)) usage('WARMUP WINDOW ROUNDS must be whole numbers >= 0');
const [warm, win, rounds] = nums as [number, number, number];
if (win < 1 || rounds < 1) usage('WINDOW and ROUNDS at least 1');

const runs: { sim: Kernel.Simulator; cpu: number; evals: number }[] = [];
for (const tree of [before, after]) {
  const sim = await buildC104Case(tree, which, warm, win * rounds, usage);
  sim.step(warm);
  runs.push({ sim, cpu: 0, evals: 0 });
}
// Both at the same cycle (the pair's prepare runs until its links are up).
const top = Math.max(...runs.map((x) => x.sim.cycle));
for (const x of runs) x.sim.step(top - x.sim.cycle);
for (let r = 0; r < rounds; r++) {
  for (const x of r % 2 ? [runs[1]!, runs[0]!] : runs) {
    const e0 = x.sim.evaluations;
    const u0 = process.cpuUsage();
    x.sim.step(win);
    const u = process.cpuUsage(u0);
    x.cpu += (u.user + u.system) / 1e6;
    x.evals += x.sim.evaluations - e0;
  }
}
const cycles = win * rounds;
runs.forEach((x, k) => {
  const ns = x.evals > 0 ? `${((x.cpu * 1e9) / x.evals).toFixed(0)} ns/eval` : 'no evaluations';
  const bits = which === 'pair' ? `  ${((2 * cycles) / x.cpu / 1e3).toFixed(1)} kbit/s of link` : '';
  console.log(`${k === 0 ? 'before' : 'after '} ${which} ${(cycles / x.cpu).toFixed(0)} cycles/s  ${(x.evals / cycles).toFixed(1)} evals/cycle  ${ns}${bits}`);
});
console.log(`speed-up ${(runs[0]!.cpu / runs[1]!.cpu).toFixed(3)}x`);
