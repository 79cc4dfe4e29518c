/**
 * Before/after speed of the Buzzard cube in alternating separate processes
 * (issue 8). bench/side_by_side.ts runs both trees in one process; A/A
 * runs of it (a tree against a copy of itself, either order) measured the
 * tree loaded second 0.81–0.85× of the first on the loaded 6-cube (one
 * process's JIT and caches are shared by both), so its ratios carry that
 * bias. Here each window is its own process (`measureSteady` of that
 * tree's bench/steady.ts: build, warm up, time one window, CPU time; GAP 0
 * = idle, fast-forward off), before and after alternate, so load from other jobs on a shared
 * machine falls on both alike. Run on one core:
 *
 *   taskset -c 0 npx tsx bench/alternate.ts BEFORE_TREE AFTER_TREE ROUNDS N GAP WARMUP WINDOW [plain]
 *
 * The C104/DS-link cases (issue 10; bench/c104_cases.ts: mesh3, mesh4,
 * idle4, pair, node8, node16) the same way, each window a process that builds the case
 * from that tree, warms it up and times one window:
 *
 *   taskset -c 0 npx tsx bench/alternate.ts BEFORE_TREE AFTER_TREE ROUNDS CASE WARMUP WINDOW
 *
 * Prints each run, then per tree the median cycles per CPU second,
 * evaluations per cycle, CPU ns per evaluation and link utilisation (0 for
 * the C104 cases: not metered here), and the ratio of the medians. The
 * same tree on both sides is the A/A control.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Steady from './steady.ts';
import { buildC104Case, C104_CASES, isC104Case } from './c104_cases.ts';

// A child: one window of one tree (its own bench/steady.ts), printed as JSON.
if (process.argv[2] === '--child') {
  const [tree, n, gap, warm, win, mode] = process.argv.slice(3) as [string, string, string, string, string, string];
  const M = (await import(pathToFileURL(resolve(tree, 'bench/steady.ts')).href)) as typeof Steady;
  const r = M.measureSteady({ n: +n, gapTicks: +gap, warmup: +warm, window: +win, ...(+gap === 0 ? { sim: { fastForward: false } } : {}), ...(mode === 'plain' ? { measureMode: 'plain' as const } : {}) });
  console.log(JSON.stringify(r));
  process.exit(0);
}

function usage(msg: string): never {
  console.error(`alternate: ${msg} (usage: alternate.ts BEFORE_TREE AFTER_TREE ROUNDS N GAP WARMUP WINDOW [plain], or BEFORE_TREE AFTER_TREE ROUNDS ${C104_CASES.join('|')} WARMUP WINDOW)`);
  process.exit(2);
}

// A child of a C104 case: one window of one tree, CPU time of the window only.
if (process.argv[2] === '--child-c104') {
  const [tree, which, warm, win] = process.argv.slice(3) as [string, string, string, string];
  if (!isC104Case(which)) usage(`unknown case '${which}'`);
  const sim = await buildC104Case(tree, which, +warm, +win, usage);
  sim.step(+warm);
  const e0 = sim.evaluations;
  const u0 = process.cpuUsage();
  sim.step(+win);
  const u = process.cpuUsage(u0);
  const cpuSeconds = (u.user + u.system) / 1e6;
  console.log(JSON.stringify({ cyclesPerCpuSecond: +win / cpuSeconds, evaluationsPerCycle: (sim.evaluations - e0) / +win, cpuSeconds, cycles: +win, linkUtilisation: 0 }));
  process.exit(0);
}

const args = process.argv.slice(2);
const c104 = args[3] !== undefined && isC104Case(args[3]);
if (c104 ? args.length !== 6 : args.length < 7 || args.length > 8) usage(c104 ? 'expected 6 arguments for a C104 case' : 'expected 7 or 8 arguments');
const trees = [resolve(args[0]!), resolve(args[1]!)];
const nums = (c104 ? [args[2], '1', '0', args[4], args[5]] : args.slice(2, 7)).map(Number);
if (!nums.every((x) => Number.isInteger(x) && x >= 0)) usage(c104 ? 'ROUNDS WARMUP WINDOW must be whole numbers >= 0' : 'ROUNDS N GAP WARMUP WINDOW must be whole numbers >= 0');
const [rounds, n, gap, warm, win] = nums as [number, number, number, number, number];
if (rounds < 1 || n < 1 || n > 10 || win < 1) usage('ROUNDS and WINDOW at least 1, N 1..10');
const mode = c104 ? 'activity' : (args[7] ?? 'activity');
if (mode !== 'activity' && mode !== 'plain') usage(`unknown mode '${mode}' (only 'plain')`);
const childArgs = (tree: string): string[] => (c104 ? ['--child-c104', tree, args[3]!, String(warm), String(win)] : ['--child', tree, String(n), String(gap), String(warm), String(win), mode]);

interface Run {
  cps: number;
  evals: number;
  nsCpu: number;
  util: number;
}
const runs: Run[][] = [[], []];
for (let r = 0; r < rounds; r++) {
  for (const k of r % 2 ? [1, 0] : [0, 1]) {
    const p = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...childArgs(trees[k]!)], { encoding: 'utf8' });
    const line = p.stdout.trim().split('\n').pop() ?? '';
    let j: { cyclesPerCpuSecond: number; evaluationsPerCycle: number; cpuSeconds: number; cycles: number; linkUtilisation: number };
    try {
      j = JSON.parse(line);
    } catch {
      usage(`${trees[k]}: ${c104 ? args[3] : 'bench/steady.ts'} gave no result (${(p.stderr || line).trim().split('\n').pop()})`);
    }
    const x = { cps: j.cyclesPerCpuSecond, evals: j.evaluationsPerCycle, nsCpu: j.evaluationsPerCycle ? (1e9 * j.cpuSeconds) / (j.evaluationsPerCycle * j.cycles) : 0, util: j.linkUtilisation };
    runs[k]!.push(x);
    console.log(`${k === 0 ? 'before' : 'after '} ${x.cps.toFixed(0)} cycles/CPU s  ${x.evals.toFixed(1)} evals/cycle  ${x.nsCpu.toFixed(0)} ns/eval  ${(100 * x.util).toFixed(1)}%`);
  }
}
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const med = runs.map((rs) => ({ cps: median(rs.map((x) => x.cps)), evals: median(rs.map((x) => x.evals)), ns: median(rs.map((x) => x.nsCpu)), util: median(rs.map((x) => x.util)) }));
med.forEach((m, k) => console.log(`median ${k === 0 ? 'before' : 'after '} ${m.cps.toFixed(0)} cycles/CPU s  ${m.evals.toFixed(1)} evals/cycle  ${m.ns.toFixed(0)} ns/eval  link utilisation ${(100 * m.util).toFixed(1)}%`));
const ratios = runs[1]!.map((x, k) => x.cps / runs[0]![k]!.cps);
console.log(`speed-up ${(med[1]!.cps / med[0]!.cps).toFixed(3)}x (per round ${ratios.map((q) => q.toFixed(2)).join(', ')})`);
