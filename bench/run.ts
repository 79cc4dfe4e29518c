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

interface Case {
  name: string;
  build: () => Module;
  mode: SimMode;
  /** Cycles stepped per benchmark call. */
  chunk: number;
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
  const sim = new Simulator(c.build(), { mode: c.mode });
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
