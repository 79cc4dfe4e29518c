/**
 * What a batch run simulates, from command options: the cube (`--config
 * FILE`, the same JSON or preset names the REPL takes, with `--n`,
 * `--routing` and `--strict-framing` on top) and the workload (Buzzard's
 * chapter-5 generator, a trace file as the REPL's `load` reads it, or a
 * synthetic pattern at a rate). Also the plain synchronous run used by the
 * sweep's points.
 */
import { readFileSync } from 'node:fs';
import { checkConfig, type BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { Simulator } from '../../rtl/kernel/index.ts';
import { UsageError, type ParsedOptions } from '../cli/args.ts';
import { ConfigError, resolveConfig } from '../repl/presets.ts';
import { CubeDriver } from '../rtl/cube_driver.ts';
import { attachEvents } from '../rtl/events.ts';
import { DEFAULT_CYCLES_PER_TICK, scheduleWorkload } from '../rtl/run_workload.ts';
import { buzzardCh5Workload } from '../workloads/buzzard.ts';
import { parseWorkloadFile, WorkloadFileError } from '../workloads/trace-file.ts';
import type { Workload } from '../workloads/types.ts';
import { patternWorkload, PATTERNS, type PatternName } from './patterns.ts';
import { linkCounters, summarise, type BatchSummary } from './stats.ts';

/** The cube: --config FILE or preset, then --n, --routing, --strict-framing. */
export function resolveCube(command: string, opts: ParsedOptions): { cfg: BuzzardConfig; source: string } {
  let base: Partial<BuzzardConfig> = {};
  let source = 'defaults';
  if (opts.config !== undefined) {
    try {
      const r = resolveConfig(opts.config as string);
      base = r.config;
      source = r.name;
    } catch (e) {
      if (e instanceof ConfigError || e instanceof RangeError) throw new UsageError(`icemu ${command}: --config: ${e.message}`);
      throw e;
    }
  }
  const routing = opts.routing as string | undefined;
  if (routing !== undefined && routing !== 'quasi-adaptive' && routing !== 'e-cube') throw new UsageError(`icemu ${command}: --routing must be quasi-adaptive or e-cube (got '${routing}')`);
  const over: Partial<BuzzardConfig> = {
    n: (opts.n as number | undefined) ?? (opts.config !== undefined ? base.n : 6),
    ...(routing ? { routing } : {}),
    ...(opts['strict-framing'] ? { strictFraming: true } : {}),
  };
  try {
    return { cfg: checkConfig({ ...base, ...over }), source };
  } catch (e) {
    throw new UsageError(`icemu ${command}: ${(e as Error).message}`);
  }
}

export interface WorkloadChoice {
  readonly workload: Workload;
  /** Cycles per workload time unit. */
  readonly cpt: number;
  readonly description: string;
  readonly kind: 'ch5' | 'file' | 'pattern';
}

/** The workload: --workload FILE, --pattern NAME --rate R, or the chapter-5 generator. */
export function resolveWorkload(command: string, opts: ParsedOptions, n: number, genCycles: number): WorkloadChoice {
  const file = opts.workload as string | undefined;
  const pattern = opts.pattern as string | undefined;
  const rate = opts.rate as string | undefined;
  if (file !== undefined && pattern !== undefined) throw new UsageError(`icemu ${command}: --workload and --pattern cannot be combined`);
  if (rate !== undefined && pattern === undefined) throw new UsageError(`icemu ${command}: --rate goes with --pattern`);
  const mb = opts['mean-bytes'] as number;
  const seed = opts.seed as number;
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`icemu ${command}: --workload: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    let w: Workload;
    try {
      w = parseWorkloadFile(text, { file, cubeDegree: n });
    } catch (e) {
      if (e instanceof WorkloadFileError || e instanceof RangeError) throw new UsageError(`icemu ${command}: --workload: ${e.message}`);
      throw e;
    }
    if (w.unit === 'us') throw new UsageError(`icemu ${command}: --workload ${file}: unit 'us' has no fixed cycle length on the RTL; use '# unit: cycles' or ticks`);
    if (w.cubeDegree !== n) throw new UsageError(`icemu ${command}: --workload ${file} is for a ${w.cubeDegree}-cube, the cube has degree ${n} (--n)`);
    const bad = w.messages.find((m) => m.kind !== 'unicast' || m.bytes < 1);
    if (bad) throw new UsageError(`icemu ${command}: --workload ${file}: message ${bad.id} is ${bad.kind === 'unicast' ? 'empty' : 'a broadcast'}; batch runs send unicast messages of 1 byte or more`);
    return { workload: w, cpt: w.unit === 'cycles' ? 1 : DEFAULT_CYCLES_PER_TICK, description: `trace file ${file}: ${w.messages.length} messages (unit ${w.unit})`, kind: 'file' };
  }
  if (pattern !== undefined) {
    if (!(PATTERNS as readonly string[]).includes(pattern)) throw new UsageError(`icemu ${command}: --pattern must be one of ${PATTERNS.join(', ')} (got '${pattern}')`);
    const r = parseRate(command, rate ?? '0.1');
    const hotspot = parseFraction(command, 'hotspot', (opts.hotspot as string | undefined) ?? '0.2');
    const w = patternWorkload({ n, pattern: pattern as PatternName, rate: r, meanBytes: mb, durationCycles: genCycles, seed, hotspotFraction: hotspot });
    return { workload: w, cpt: 1, description: `${pattern} pattern at ${r} link bandwidths per node: ${w.messages.length} messages, mean ${mb} B, seed ${seed}`, kind: 'pattern' };
  }
  const cpt = DEFAULT_CYCLES_PER_TICK;
  const w = buzzardCh5Workload({ cubeDegree: n, meanBytes: mb, meanGapTicks: opts['gap-ticks'] as number, durationTicks: genCycles / cpt, seed });
  return { workload: w, cpt, description: `chapter-5 workload: ${w.messages.length} messages, mean ${mb} B, mean gap ${opts['gap-ticks']} ticks, seed ${seed}`, kind: 'ch5' };
}

export function parseRate(command: string, text: string): number {
  const r = Number(text);
  if (!/^[0-9.eE+-]+$/.test(text) || !(r > 0 && r <= 100)) throw new UsageError(`icemu ${command}: --rate must be a number in (0, 100] link bandwidths per node (got '${text}')`);
  return r;
}

export function parseFraction(command: string, option: string, text: string): number {
  const r = Number(text);
  if (!/^[0-9.eE+-]+$/.test(text) || !(r >= 0 && r <= 1)) throw new UsageError(`icemu ${command}: --${option} must be a fraction in 0..1 (got '${text}')`);
  return r;
}

export interface BatchWindow {
  readonly cycles: number;
  readonly warmup: number;
  /** End of generation and of the measurement window. */
  readonly genEnd: number;
}

/** The default window: warm-up 10% of the run, generation and measurement until 80% (the rest drains). */
export function defaultWindow(cycles: number, warmup?: number): BatchWindow {
  const genEnd = Math.floor(cycles * 0.8);
  return { cycles, warmup: warmup ?? Math.floor(cycles * 0.1), genEnd };
}

/** Run a workload on a fresh cube, synchronously, and summarise the window (the sweep's points). */
export function runBatch(cfg: BuzzardConfig, w: Workload, cpt: number, win: BatchWindow): BatchSummary {
  const cube = new BuzzardCube(cfg);
  const sim = new Simulator(cube);
  const driver = new CubeDriver(sim, cube);
  const sched = scheduleWorkload(driver, w, { cyclesPerTick: cpt });
  const rec = attachEvents(sim, cube, driver);
  sim.step(win.warmup);
  const atFrom = linkCounters(sim, cube);
  sim.step(win.cycles - win.warmup);
  const bytes = new Map(w.messages.map((m) => [m.id, m.bytes]));
  return summarise({
    n: cfg.n,
    scheduled: sched.map((m) => ({ id: m.id, cycle: m.cycle, bytes: bytes.get(m.id)! })),
    events: rec.events,
    from: win.warmup,
    to: win.genEnd,
    runEnd: win.cycles,
    countersAtFrom: atFrom,
    countersAtEnd: linkCounters(sim, cube),
  });
}
