/**
 * Sampled CPU profile of a loaded Buzzard cube's steady window only (issue 8;
 * docs/kernel.md "Stop 20: cost per evaluation"): builds and warms up the
 * case as bench/steady.ts does, then runs the window under the inspector's
 * sampling profiler and prints self time per function (top 40) and the
 * window's evaluations per cycle. Run on one core:
 *
 *   taskset -c 0 npx tsx bench/cpu_window.ts [n=6] [gap=1024] [warmup=30000] [window=5000] [out.cpuprofile]
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { buildLoaded } from './steady.ts';

const [n = '6', gap = '1024', warm = '30000', win = '5000', out] = process.argv.slice(2);
const { sim } = buildLoaded({ n: +n, gapTicks: +gap, warmup: +warm, window: +win });
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
for (const [k, h] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${((100 * h) / total).toFixed(1).padStart(5)} %  ${k}`);
