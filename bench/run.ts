/**
 * `npm run bench`: simulated cycles per second on the kernel benchmark designs,
 * measured with benchmark.js, written to out/bench.json. Speed targets live
 * here, not in the tests (a test checks behaviour, never wall time).
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
import { BuzzardCube } from '../rtl/buzzard/network.ts';
import { CubeDriver } from '../harness/rtl/cube_driver.ts';
import { DEFAULT_CYCLES_PER_TICK, scheduleWorkload } from '../harness/rtl/run_workload.ts';
import { buzzardCh5Workload, CH5_RATES } from '../harness/workloads/index.ts';

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

// The Buzzard RTL n-cube, idle and under Buzzard's heaviest chapter-5 load
// (exponential lengths mean 512 B, mean inter-generation 1024 ticks, 1 tick = 4.5 cycles).
for (const n of [4, 6, 8]) {
  cases.push({
    name: `buzzard/cube-n${n}/idle`,
    build: () => new BuzzardCube({ n }),
    mode: 'activity',
    fastForward: false,
    chunk: 500,
    note: `Buzzard ${n}-cube, every unit of every node, no traffic, fast-forward off (with it on, an idle cube skips ahead in O(1))`,
  });
  cases.push({
    name: `buzzard/cube-n${n}/ch5-heaviest`,
    build: () => new BuzzardCube({ n }),
    prepare: (sim, top) => {
      const horizon = 200_000; // cycles of traffic, more than any benchmark run steps
      const w = buzzardCh5Workload({ cubeDegree: n, meanBytes: 512, meanGapTicks: CH5_RATES[512][0]!, durationTicks: horizon / DEFAULT_CYCLES_PER_TICK, seed: 1 });
      scheduleWorkload(new CubeDriver(sim, top as BuzzardCube), w);
    },
    mode: 'activity',
    chunk: n >= 8 ? 50 : 200,
    target: n === 6 ? 20_000 : undefined,
    note: `Buzzard ${n}-cube under the chapter-5 workload at its heaviest rate (512 B mean, 1024 ticks mean gap)${n === 6 ? '; target >= 20,000 cycles/s' : ''}`,
  });
}

const args = process.argv.slice(2);
const filter = args.includes('--filter') ? args[args.indexOf('--filter') + 1] ?? '' : '';
const quick = args.includes('--quick');
const selected = cases.filter((c) => c.name.includes(filter));
if (!selected.length) {
  console.error(`bench: no benchmark matches '${filter}' (have: ${cases.map((c) => c.name).join(', ')})`);
  process.exit(2);
}

interface Result {
  name: string;
  cyclesPerSecond: number;
  rmePercent: number;
  samples: number;
  target?: number;
  meetsTarget?: boolean;
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
  if (c.target) {
    r.target = c.target;
    r.meetsTarget = cps >= c.target;
  }
  results.push(r);
  const tgt = c.target ? `  (target ${c.target.toLocaleString('en-US')}: ${r.meetsTarget ? 'met' : 'NOT met'})` : '';
  console.log(`${c.name.padEnd(36)} ${Math.round(cps).toLocaleString('en-US').padStart(12)} cycles/s  ±${r.rmePercent}%${tgt}`);
});
suite.on('complete', () => {
  mkdirSync('out', { recursive: true });
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    quick,
    results,
  };
  writeFileSync('out/bench.json.tmp', JSON.stringify(report, null, 2) + '\n');
  renameSync('out/bench.json.tmp', 'out/bench.json');
  console.log('wrote out/bench.json');
});
suite.run({ async: false });
