/**
 * Steady-state measurement of a Buzzard cube under the chapter-5 workload:
 * build, warm up (the load ramps up over the first ~30k cycles of a loaded
 * 6-cube; timing the ramp flatters the figures, issue 8), then time a window
 * and report what the window did: cycles/s, process evaluations per cycle,
 * ns per evaluation, link utilisation of the window (busy link-cycles /
 * (links x cycles)) and simulated link bits per wall second.
 */
import { Simulator, type SimMode, type SimOptions } from '../rtl/kernel/index.ts';
import { BuzzardCube } from '../rtl/buzzard/network.ts';
import type { BuzzardConfig } from '../rtl/buzzard/config.ts';
import { CubeDriver } from '../harness/rtl/cube_driver.ts';
import { DEFAULT_CYCLES_PER_TICK, scheduleWorkload } from '../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../harness/workloads/index.ts';

export interface SteadyCase {
  n: number;
  /** Mean inter-generation time per node, ticks; 0 = no traffic (idle). */
  gapTicks: number;
  meanBytes?: number;
  warmup: number;
  window: number;
  sim?: SimOptions;
  /** Mode of the timed window (the warm-up runs in sim.mode): 'plain' measures the reference mode from the same state. */
  measureMode?: SimMode;
  cfg?: Partial<BuzzardConfig>;
  seed?: number;
}

/** What a timed window of a simulation did (shared by the Buzzard and C104 benches). */
export interface WindowTiming {
  cycles: number;
  seconds: number;
  cyclesPerSecond: number;
  /** CPU time of the window (user + system): less sensitive to other load on a shared machine than wall time. */
  cpuSeconds: number;
  cyclesPerCpuSecond: number;
  evaluationsPerCycle: number;
  nsPerEvaluation: number;
}

/** Step `cycles` and time it: wall and CPU time, process evaluations. */
export function timeWindow(sim: Simulator, cycles: number): WindowTiming {
  const ev0 = sim.evaluations;
  const t0 = performance.now();
  const u0 = process.cpuUsage();
  sim.step(cycles);
  const seconds = (performance.now() - t0) / 1000;
  const u = process.cpuUsage(u0);
  const cpuSeconds = (u.user + u.system) / 1e6;
  const evals = sim.evaluations - ev0;
  return {
    cycles,
    seconds,
    cyclesPerSecond: cycles / seconds,
    cpuSeconds,
    cyclesPerCpuSecond: cycles / cpuSeconds,
    evaluationsPerCycle: evals / cycles,
    nsPerEvaluation: evals ? (seconds * 1e9) / evals : 0,
  };
}

export interface SteadyResult extends WindowTiming {
  linkUtilisation: number;
  linkBitsPerSecond: number;
}

export function busyLinkCycles(sim: Simulator, cube: BuzzardCube): number {
  let busy = 0;
  for (const node of cube.nodes) for (const f of node.fcus) busy += sim.peek(f.busyCycles);
  return busy;
}

export function buildLoaded(c: SteadyCase): { sim: Simulator; cube: BuzzardCube } {
  const cube = new BuzzardCube({ n: c.n, ...c.cfg });
  const sim = new Simulator(cube, c.sim);
  if (c.gapTicks > 0) {
    const horizon = c.warmup + c.window + 10_000;
    const w = buzzardCh5Workload({ cubeDegree: c.n, meanBytes: c.meanBytes ?? 512, meanGapTicks: c.gapTicks, durationTicks: horizon / DEFAULT_CYCLES_PER_TICK, seed: c.seed ?? 1 });
    scheduleWorkload(new CubeDriver(sim, cube), w);
  }
  return { sim, cube };
}

export function measureSteady(c: SteadyCase): SteadyResult {
  const { sim, cube } = buildLoaded(c);
  sim.step(c.warmup);
  if (c.measureMode) sim.setMode(c.measureMode);
  const links = c.n * (1 << c.n);
  const busy0 = busyLinkCycles(sim, cube);
  const w = timeWindow(sim, c.window);
  const busy = busyLinkCycles(sim, cube) - busy0; // 32-bit counters: no wrap within a bench window
  return { ...w, linkUtilisation: busy / (links * c.window), linkBitsPerSecond: busy / w.seconds };
}

// Run directly: tsx bench/steady.ts n gap warmup window [mode]
if (process.argv[1]?.endsWith('steady.ts')) {
  const [n = '6', gap = '1024', warm = '30000', win = '5000', mode = 'activity'] = process.argv.slice(2);
  const r = measureSteady({ n: +n, gapTicks: +gap, warmup: +warm, window: +win, measureMode: mode as SimMode });
  console.log(JSON.stringify(r));
}
