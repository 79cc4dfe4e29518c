/**
 * Sampled CPU profile of a loaded Buzzard cube's steady window only (issue 8;
 * docs/kernel.md "Stop 20: cost per evaluation"): builds and warms up the
 * case as bench/steady.ts does, then runs the window under the inspector's
 * sampling profiler and prints self time per function (top 40) and the
 * window's evaluations per cycle. Run on one core:
 *
 *   taskset -c 0 npx tsx bench/cpu_window.ts [n=6] [gap=1024] [warmup=30000] [window=5000] [out.cpuprofile]
 *
 * `--c104 SIDE WARMUP WINDOW [out]`: the same for the side×side C104 mesh of
 * the Table 3.1 run (bench/c104-table31-rtl.ts --node: T9000 node
 * addressing, ±16, 32 bytes every 100 cycles, summary recorder; the warm-up
 * counts from cycle 0, so it includes the 2,500 cycles of link start-up;
 * docs/kernel.md "Stop 21: cost at scale"). Each line also gives the
 * function's CPU ns per evaluation.
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { buildLoaded } from './steady.ts';
import { buildC104Mesh } from './c104.ts';

const c104 = process.argv[2] === '--c104';
const args = process.argv.slice(c104 ? 3 : 2);
const [n = c104 ? '8' : '6', gap = '1024', warm = '30000', win = '5000', out] = c104 ? [args[0], '0', ...args.slice(1)] : args;
if (![n, gap, warm, win].every((v) => Number.isInteger(Number(v)) && Number(v) >= 0) || +win < 1) {
  console.error('cpu_window: arguments are whole numbers (usage: cpu_window.ts [n gap warmup window [out]] | --c104 SIDE WARMUP WINDOW [out])');
  process.exit(2);
}
const sim = c104
  ? buildC104Mesh({ side: +n, window: 16, interval: 100, warmup: 0, cycles: +warm + +win, addressing: 'node' }, +warm + +win, { summary: true }).sim
  : buildLoaded({ n: +n, gapTicks: +gap, warmup: +warm, window: +win }).sim;
sim.step(+warm);
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
const e0 = sim.evaluations;
await session.post('Profiler.start');
const u0 = process.cpuUsage();
sim.step(+win);
const u = process.cpuUsage(u0);
const { profile } = await session.post('Profiler.stop');
if (out) writeFileSync(out, JSON.stringify(profile));
interface Node { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }
const self = new Map<string, number>();
let total = 0;
for (const nd of profile.nodes as Node[]) {
  const h = nd.hitCount ?? 0;
  if (!h) continue;
  const f = nd.callFrame;
  const key = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\/(rtl|bench|harness)\//, '$1/')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + h);
  total += h;
}
const evals = (sim.evaluations - e0) / +win;
const cpu = (u.user + u.system) / 1e6;
console.log(`window ${win} cycles, ${(+win / cpu).toFixed(0)} cycles per CPU s (profiler on), ${evals.toFixed(1)} evaluations per cycle, ${((cpu * 1e9) / (evals * +win)).toFixed(0)} ns per evaluation`);
const nsPerEval = (cpu * 1e9) / (evals * +win);
for (const [k, h] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${((100 * h) / total).toFixed(1).padStart(5)} %  ${((nsPerEval * h) / total).toFixed(1).padStart(6)} ns/eval  ${k}`);
