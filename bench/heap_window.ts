/**
 * Allocation in a loaded Buzzard cube's steady window only (issue 8;
 * docs/kernel.md "Stop 21: Buzzard units"): builds and warms up as
 * bench/steady.ts does, then runs the window under the inspector's sampling
 * heap profiler (objects kept or not) and prints the bytes allocated per
 * cycle and the top allocation sites by self size. Run on one core:
 *
 *   taskset -c 0 npx tsx bench/heap_window.ts [n=6] [gap=1024] [warmup=30000] [window=5000]
 */
import { Session } from 'node:inspector/promises';
import { buildLoaded } from './steady.ts';

const [n = '6', gap = '1024', warm = '30000', win = '5000'] = process.argv.slice(2);
const { sim } = buildLoaded({ n: +n, gapTicks: +gap, warmup: +warm, window: +win });
sim.step(+warm);
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
// every object kept in the profile, also those collected in the window: the sampler then shows what a cycle allocates
await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
sim.step(+win);
const { profile } = await session.post('HeapProfiler.stopSampling');
interface Node { callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }; selfSize: number; children: Node[] }
const self = new Map<string, number>();
let total = 0;
const walk = (nd: Node): void => {
  if (nd.selfSize) {
    const f = nd.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.replace(/^.*\/(rtl|bench|harness)\//, '$1/')}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + nd.selfSize);
    total += nd.selfSize;
  }
  for (const c of nd.children) walk(c);
};
walk(profile.head as Node);
console.log(`window ${win} cycles: ${(total / +win).toFixed(0)} bytes allocated per cycle (sampled)`);
for (const [k, b] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((100 * b) / total).toFixed(1).padStart(5)} %  ${(b / +win).toFixed(0).padStart(7)} B/cycle  ${k}`);
