/**
 * `npm run bench`: simulated cycles per second, written to out/bench.json.
 * Speed targets live here, not in the tests (a test checks behaviour, never
 * wall time).
 *
 *  - kernel/* and arbiters/*: synthetic designs, measured with benchmark.js.
 *  - buzzard/*: the Buzzard RTL cube under the chapter-5 workload, measured
 *    in steady state (bench/steady.ts): warmed up until the load has built up
 *    (a loaded 6-cube ramps up over ~30k cycles; timing from cycle 200 as the
 *    first version did measured the ramp), then one timed window. Each entry
 *    records the window's link utilisation, evaluations per cycle, ns per
 *    evaluation and simulated link bits per wall second. Run it on one core
 *    (`taskset -c 0 npm run bench`) and note the machine's load.
 *
 *   npm run bench                 all suites
 *   npm run bench -- --filter arb only benchmarks whose name contains "arb"
 *   npm run bench -- --quick      fewer samples (a smoke run)
 */
import Benchmark from 'benchmark';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { Simulator, type Module, type SimMode } from '../rtl/kernel/index.ts';
import { arbiterTreesDesign, mixedLogicDesign, smallUnitsDesign } from './designs.ts';
import { CH5_RATES } from '../harness/workloads/index.ts';
import { measureSteady, type SteadyCase, type SteadyResult } from './steady.ts';
import { measureC104Mesh, type C104MeshCase, type C104MeshResult } from './c104.ts';

interface Case {
  name: string;
  build: () => Module;
  mode: SimMode;
  /** Cycles stepped per benchmark call. */
  chunk: number;
  /** Skip quiescent stretches (default true); off for "idle" cases, which would otherwise measure nothing. */
  fastForward?: boolean;
  /** Set up stimulus once the simulator exists (e.g. schedule a workload). */
  prepare?: (sim: Simulator, top: Module) => void;
  /** Target in cycles/s, if the issue sets one. */
  target?: number;
  /** Link bits one cycle simulates (a DS-link pair: one per direction), for a bits/s figure. */
  linkBitsPerCycle?: number;
  note: string;
}

const cases: Case[] = [];
for (const mode of ['plain', 'activity'] as const) {
  cases.push({
    name: `kernel/mixed-1000-regs/${mode}`,
    build: () => mixedLogicDesign(250),
    mode,
    chunk: 1000,
    note: '250 cells x 4 registers (1,000 registers), 2 comb processes and 1 seq process per cell, in a ring',
  });
  cases.push({
    name: `kernel/small-units-2000/${mode}`,
    build: () => smallUnitsDesign(2000),
    mode,
    chunk: 500,
    target: 20_000,
    note: '2,000 small units (one 8-bit register each) in a ring; target >= 20,000 cycles/s on one core',
  });
  cases.push({
    name: `arbiters/64-trees-of-7/${mode}`,
    build: () => arbiterTreesDesign(64, 7),
    mode,
    chunk: 1000,
    note: '64 arbiter trees of 7 inputs (6 1-of-2 modules each, latency 2) under random requests that hold until granted',
  });
}

// T9000 endpoint pair streaming 32-byte messages over the real DS-link (issue 9 "Use")
import { dslinkIdleBenchCase, t9000PairBenchCase } from './t9000.ts';
cases.push(t9000PairBenchCase());
// A bare DS-link pair, idle (issue 10): NULL trains on demand, and the bit-by-bit reference beside it.
cases.push(dslinkIdleBenchCase('activity'), dslinkIdleBenchCase('plain'));

// The Buzzard RTL n-cube (issue 8): heaviest chapter-5 load (512 B mean,
// 1024 ticks mean gap, 1 tick = 4.5 cycles), moderate load (5120 ticks, the
// main job's default), idle (fast-forward off: with it on an idle cube skips
// ahead in O(1)), and the reference mode of the loaded 6-cube beside the fast one.
interface CubeCase extends SteadyCase {
  name: string;
  target?: number;
  note: string;
}
const HEAVY = CH5_RATES[512][0]!;
const cubeCases: CubeCase[] = [
  { name: 'buzzard/cube-n4/ch5-heaviest', n: 4, gapTicks: HEAVY, warmup: 30_000, window: 20_000, note: 'Buzzard 4-cube, chapter-5 heaviest load' },
  { name: 'buzzard/cube-n6/ch5-heaviest', n: 6, gapTicks: HEAVY, warmup: 30_000, window: 10_000, target: 20_000, note: 'Buzzard 6-cube, chapter-5 heaviest load; target >= 20,000 cycles/s (issue 8)' },
  { name: 'buzzard/cube-n6/ch5-heaviest/reference', n: 6, gapTicks: HEAVY, warmup: 30_000, window: 1_000, measureMode: 'plain', note: "the same in the reference mode ('plain': every process every cycle, full commit), timed from the state the fast mode reached after the warm-up (Simulator.setMode)" },
  { name: 'buzzard/cube-n8/ch5-heaviest', n: 8, gapTicks: HEAVY, warmup: 20_000, window: 2_000, target: 5_000, note: 'Buzzard 8-cube, chapter-5 heaviest load (shorter warm-up: utilisation is near its plateau by 20k cycles); target >= 5,000 cycles/s (issue 8)' },
  { name: 'buzzard/cube-n6/ch5-moderate', n: 6, gapTicks: 5120, warmup: 30_000, window: 20_000, note: "Buzzard 6-cube, moderate load (5120 ticks mean gap, the main job's default)" },
  { name: 'buzzard/cube-n6/idle', n: 6, gapTicks: 0, warmup: 1_000, window: 20_000, sim: { fastForward: false }, note: 'Buzzard 6-cube, no traffic, fast-forward off' },
];

// C104 meshes (issue 10): T9000 + C104 per node, real DS-links, seed 004's
// Table 3.1 workload (one 32-byte message per endpoint every 1 µs = 100
// cycles to a random endpoint within ±16, i.e. anywhere on these meshes;
// held sends): saturated, as the thesis's run. bench/c104.ts.
interface C104Case extends C104MeshCase {
  name: string;
  note: string;
}
const c104Cases: C104Case[] = [
  { name: 'c104/mesh-3x3/thesis-1us', side: 3, window: 16, interval: 100, warmup: 20_000, cycles: 10_000, note: 'C104 3x3 mesh, Table 3.1 workload (32 B every 1 us, +-16)' },
  { name: 'c104/mesh-4x4/thesis-1us', side: 4, window: 16, interval: 100, warmup: 20_000, cycles: 5_000, note: 'C104 4x4 mesh, Table 3.1 workload (32 B every 1 us, +-16)' },
  { name: 'c104/mesh-4x4/idle', side: 4, window: 16, interval: 100, warmup: 5_000, cycles: 5_000, idle: true, note: 'C104 4x4 mesh, links up and no traffic: every link end sends and receives NULLs (the cost of idle links)' },
  { name: 'c104/mesh-3x3/thesis-1us/reference', side: 3, window: 16, interval: 100, warmup: 20_000, cycles: 500, measureMode: 'plain', note: "the 3x3 entry in the reference mode ('plain'), timed from the state the fast mode reached" },
];

const args = process.argv.slice(2);
const filter = args.includes('--filter') ? args[args.indexOf('--filter') + 1] ?? '' : '';
const quick = args.includes('--quick');
const selected = cases.filter((c) => c.name.includes(filter));
const selectedCubes = cubeCases.filter((c) => c.name.includes(filter));
const selectedC104 = c104Cases.filter((c) => c.name.includes(filter));
if (!selected.length && !selectedCubes.length && !selectedC104.length) {
  console.error(`bench: no benchmark matches '${filter}' (have: ${[...cases, ...cubeCases, ...c104Cases].map((c) => c.name).join(', ')})`);
  process.exit(2);
}

interface Result {
  name: string;
  cyclesPerSecond: number;
  rmePercent?: number;
  samples?: number;
  /** Steady-state entries (buzzard/*): what the timed window did. */
  steady?: Omit<SteadyResult, 'cyclesPerSecond'> & { warmupCycles: number };
  /** C104 mesh entries (c104/*): what the timed window did. */
  c104?: Omit<C104MeshResult, 'cyclesPerSecond'> & { warmupCycles: number };
  target?: number;
  meetsTarget?: boolean;
  /** Link bits simulated per wall second (cases with linkBitsPerCycle). */
  linkBitsPerSecond?: number;
  note: string;
}
const results: Result[] = [];
const suite = new Benchmark.Suite();
for (const c of selected) {
  const top = c.build();
  const sim = new Simulator(top, { mode: c.mode, fastForward: c.fastForward ?? true });
  c.prepare?.(sim, top);
  sim.step(c.chunk); // warm up the JIT and let the design leave reset
  suite.add(c.name, () => sim.step(c.chunk), quick ? { maxTime: 0.5, minSamples: 5 } : { maxTime: 3, minSamples: 10 });
}
suite.on('cycle', (ev: Benchmark.Event) => {
  const b = ev.target as unknown as Benchmark & { name: string };
  const c = selected.find((x) => x.name === b.name)!;
  const cps = (b.hz ?? 0) * c.chunk;
  const r: Result = { name: c.name, cyclesPerSecond: Math.round(cps), rmePercent: Number(b.stats.rme.toFixed(2)), samples: b.stats.sample.length, note: c.note };
  if (c.linkBitsPerCycle) r.linkBitsPerSecond = Math.round(cps * c.linkBitsPerCycle);
  if (c.target) {
    r.target = c.target;
    r.meetsTarget = cps >= c.target;
  }
  results.push(r);
  const tgt = c.target ? `  (target ${c.target.toLocaleString('en-US')}: ${r.meetsTarget ? 'met' : 'NOT met'})` : '';
  const bits = r.linkBitsPerSecond ? `  ${r.linkBitsPerSecond.toLocaleString('en-US')} link bits/s` : '';
  console.log(`${c.name.padEnd(40)} ${Math.round(cps).toLocaleString('en-US').padStart(12)} cycles/s  ±${r.rmePercent}%${bits}${tgt}`);
});
function writeReport(): void {
  mkdirSync('out', { recursive: true });
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    loadAverage: os.loadavg(),
    quick,
    results,
  };
  writeFileSync('out/bench.json.tmp', JSON.stringify(report, null, 2) + '\n');
  renameSync('out/bench.json.tmp', 'out/bench.json');
  console.log('wrote out/bench.json');
}

if (selected.length) suite.run({ async: false });
for (const c of selectedCubes) {
  // --quick: a shorter warm-up and window (a smoke run, not a steady state).
  const cc = quick ? { ...c, warmup: Math.min(c.warmup, 2_000), window: Math.min(c.window, 500) } : c;
  const r = measureSteady(cc);
  const { cyclesPerSecond, ...rest } = r;
  const out: Result = { name: c.name, cyclesPerSecond: Math.round(cyclesPerSecond), steady: { ...rest, warmupCycles: cc.warmup }, note: c.note };
  if (c.target) {
    out.target = c.target;
    out.meetsTarget = cyclesPerSecond >= c.target;
  }
  results.push(out);
  const tgt = c.target ? `  (target ${c.target.toLocaleString('en-US')}: ${out.meetsTarget ? 'met' : 'NOT met'})` : '';
  console.log(
    `${c.name.padEnd(40)} ${Math.round(cyclesPerSecond).toLocaleString('en-US').padStart(12)} cycles/s  util ${(100 * r.linkUtilisation).toFixed(1)}%  ${r.evaluationsPerCycle.toFixed(0)} evals/cycle  ${r.nsPerEvaluation.toFixed(0)} ns/eval  ${(r.linkBitsPerSecond / 1e6).toFixed(2)} Mbit/s${tgt}`,
  );
}
for (const c of selectedC104) {
  const cc = quick ? { ...c, warmup: Math.min(c.warmup, 4_000), cycles: Math.min(c.cycles, 500) } : c;
  const { cyclesPerSecond, ...rest } = measureC104Mesh(cc);
  results.push({ name: c.name, cyclesPerSecond: Math.round(cyclesPerSecond), c104: { ...rest, warmupCycles: cc.warmup }, note: c.note });
  console.log(
    `${c.name.padEnd(40)} ${Math.round(cyclesPerSecond).toLocaleString('en-US').padStart(12)} cycles/s  (${Math.round(rest.cyclesPerCpuSecond).toLocaleString('en-US')} per CPU s)  util ${(100 * rest.linkUtilisation).toFixed(1)}%  ${rest.evaluationsPerCycle.toFixed(0)} evals/cycle  ${rest.nsPerEvaluation.toFixed(0)} ns/eval`,
  );
}
writeReport();
