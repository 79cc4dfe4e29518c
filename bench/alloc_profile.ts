/**
 * Where a steady-state window allocates (issue 8/10; docs/kernel.md "Stop 21:
 * allocation and layout"). Builds a case, warms it up, then runs the window
 * under V8's sampling heap profiler (inspector HeapProfiler, objects freed by
 * minor and major GCs included, so it sees the short-lived garbage a
 * steady-state window makes) and prints the estimated bytes allocated per
 * cycle and per evaluation, and the top allocation sites (function, file:line)
 * by bytes per cycle. The estimate is the sampler's (interval 512 bytes):
 * sites below a few bytes per cycle are noise.
 *
 *   npx tsx bench/alloc_profile.ts CASE WARMUP WINDOW [TOP]
 *
 * CASE: a C104 case of bench/c104_cases.ts (node8, mesh4, ...), or cubeN
 * (the loaded Buzzard N-cube of bench/steady.ts, gap 1024 ticks).
 */
import { Session } from 'node:inspector/promises';
import { buildC104Case, isC104Case } from './c104_cases.ts';
import { buildLoaded } from './steady.ts';
import type { Simulator } from '../rtl/kernel/index.ts';

function usage(msg: string): never {
  console.error(`alloc_profile: ${msg} (usage: alloc_profile.ts CASE WARMUP WINDOW [TOP]; CASE a C104 case or cubeN)`);
  process.exit(2);
}

const [which = '', warmS = '', winS = '', topS = '25'] = process.argv.slice(2);
const warm = Number(warmS);
const win = Number(winS);
const top = Number(topS);
if (!(Number.isInteger(warm) && warm >= 0 && Number.isInteger(win) && win >= 1 && Number.isInteger(top) && top >= 1)) usage('WARMUP, WINDOW and TOP are whole numbers (WINDOW, TOP >= 1)');

let sim: Simulator;
const cube = /^cube([2-9]|10)$/.exec(which);
if (cube) sim = buildLoaded({ n: Number(cube[1]), gapTicks: 1024, warmup: warm, window: win }).sim;
else if (isC104Case(which)) sim = await buildC104Case('.', which, warm, win, usage);
else usage(`unknown case '${which}'`);
sim.step(warm);

interface Node {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  selfSize: number;
  children: Node[];
}
const session = new Session();
session.connect();
await session.post('HeapProfiler.enable');
await session.post('HeapProfiler.startSampling', { samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
const e0 = sim.evaluations;
sim.step(win);
const evals = sim.evaluations - e0;
const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as { profile: { head: Node } };
session.disconnect();

// Self bytes by site; each site also with the chain of its two callers.
const bySite = new Map<string, number>();
let total = 0;
const name = (n: Node): string => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.replace(/^.*\/(rtl|harness|bench|node_modules)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
const walk = (n: Node, path: string[]): void => {
  const here = name(n);
  if (n.selfSize > 0) {
    const key = [here, ...path.slice(-2).reverse()].join(' <- ');
    bySite.set(key, (bySite.get(key) ?? 0) + n.selfSize);
    total += n.selfSize;
  }
  for (const c of n.children) walk(c, [...path, here]);
};
walk(profile.head, []);
console.log(JSON.stringify({ case: which, window: win, evaluationsPerCycle: evals / win, bytesPerCycle: Math.round(total / win), bytesPerEvaluation: +(total / evals).toFixed(2) }));
for (const [k, v] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${(v / win).toFixed(1).padStart(9)} B/cycle  ${k}`);
