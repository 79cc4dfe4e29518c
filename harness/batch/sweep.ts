/**
 * Latency–load sweep on the Buzzard RTL (`icemu sweep`, also listed as the
 * experiment `buzzard-sweep`): one batch run (harness/batch/setup.ts
 * runBatch) per offered rate of a traffic pattern, each a deterministic
 * point, so the experiment runner spreads them over worker threads, shards
 * (`--shard i/N` on many machines) and merges them. The report is a table
 * per rate and two plots: latency (mean, p99) against offered load, and
 * delivered against offered load, where saturation shows as the knee.
 */
import { checkConfig, type BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { defineExperiment, type ExperimentCliValues, type ReportTable } from '../experiments/types.ts';
import { patternWorkload, PATTERNS, type PatternName } from './patterns.ts';
import { defaultWindow, runBatch } from './setup.ts';

export interface SweepParams {
  readonly config: BuzzardConfig;
  readonly pattern: PatternName;
  readonly rates: readonly number[];
  readonly cycles: number;
  readonly warmup: number;
  readonly meanBytes: number;
  readonly seed: number;
  readonly hotspot: number;
}

export interface SweepResult {
  readonly rate: number;
  readonly offered: number;
  readonly delivered: number;
  readonly messages: number;
  readonly mean: number | null;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
  readonly max: number | null;
  readonly meanUtilisation: number;
  readonly maxUtilisation: number;
  readonly meanBlocked: number;
  readonly warnings: readonly string[];
}

export const DEFAULT_RATES = [0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4];
export const QUICK_SWEEP: Omit<SweepParams, 'config'> & { n: number } = { n: 2, pattern: 'uniform', rates: [0.1, 0.3], cycles: 15_000, warmup: 1500, meanBytes: 64, seed: 1, hotspot: 0.2 };

/** Check sweep parameters (RangeError naming the field). */
export function checkSweep(p: SweepParams): SweepParams {
  if (!(PATTERNS as readonly string[]).includes(p.pattern)) throw new RangeError(`pattern: '${p.pattern}' is not one of ${PATTERNS.join(', ')}`);
  if (!p.rates.length) throw new RangeError('rates: give at least one rate');
  for (const r of p.rates) if (!(r > 0 && r <= 100)) throw new RangeError(`rates: ${r} is outside (0, 100] link bandwidths per node`);
  const win = defaultWindow(p.cycles, p.warmup);
  if (win.warmup >= win.genEnd) throw new RangeError(`warmup: ${p.warmup} must be below ${win.genEnd} (80% of the cycles)`);
  return p;
}

export const buzzardSweep = defineExperiment<{ rate: number }, SweepResult, SweepParams>({
  name: 'buzzard-sweep',
  summary: 'latency-load curve of a traffic pattern on the Buzzard RTL (icemu sweep sets the pattern, rates and cube)',
  source: 'not a seed figure: the usual latency-load curve of interconnect studies, on the clock-level Buzzard cube',
  method: 'RTL: one batch run per offered rate (harness/batch), statistics over the measurement window',
  options: ['seed'],
  params(cli: ExperimentCliValues): SweepParams {
    const q = QUICK_SWEEP;
    const full = { ...q, n: 3, rates: DEFAULT_RATES, cycles: 60_000, warmup: 6000, meanBytes: 128 };
    const base = cli.quick ? q : full;
    return checkSweep({ config: checkConfig({ n: base.n }), pattern: base.pattern, rates: base.rates, cycles: base.cycles, warmup: base.warmup, meanBytes: base.meanBytes, seed: cli.seed ?? 1, hotspot: base.hotspot });
  },
  points: (q) => q.rates.map((rate) => ({ rate })),
  cost: (p, q) => p.rate * q.cycles,
  runPoint({ rate }, q): SweepResult {
    const win = defaultWindow(q.cycles, q.warmup);
    const w = patternWorkload({ n: q.config.n, pattern: q.pattern, rate, meanBytes: q.meanBytes, durationCycles: win.genEnd, seed: q.seed, hotspotFraction: q.hotspot });
    const s = runBatch(q.config, w, 1, win);
    return {
      rate,
      offered: s.throughput.offered,
      delivered: s.throughput.delivered,
      messages: s.latency.count,
      mean: s.latency.mean,
      p50: s.latency.p50,
      p95: s.latency.p95,
      p99: s.latency.p99,
      max: s.latency.max,
      meanUtilisation: s.linkSummary.meanUtilisation,
      maxUtilisation: s.linkSummary.maxUtilisation,
      meanBlocked: s.linkSummary.meanBlocked,
      warnings: s.warnings,
    };
  },
  assemble(q, _points, results) {
    const table: ReportTable = {
      title: `${q.pattern} traffic on a Buzzard ${q.config.n}-cube (${q.config.routing}), mean ${q.meanBytes} B, ${q.cycles} cycles, warm-up ${q.warmup}`,
      columns: ['rate', 'offered', 'delivered', 'messages', 'mean', 'p50', 'p95', 'p99', 'max', 'link util %', 'blocked %', 'warning'],
      rows: results.map((r) => [r.rate, r.offered, r.delivered, r.messages, r.mean, r.p50, r.p95, r.p99, r.max, 100 * r.meanUtilisation, 100 * r.meanBlocked, r.warnings.length ? 'yes' : '']),
      digits: [3, 3, 3, 0, 1, 0, 0, 0, 0, 1, 1, 0],
      notes: ['rate, offered, delivered: link bandwidths per node (one link = 1 byte per 9 cycles); latencies in cycles, generation to last byte.'],
    };
    const curve = (f: (r: SweepResult) => number | null): [number, number][] => results.filter((r) => f(r) !== null).map((r) => [r.offered, f(r)!]);
    return {
      tables: [table],
      checks: [],
      plots: [
        { id: 'latency', title: `Latency against offered load (${q.pattern}, ${q.config.n}-cube)`, xLabel: 'offered load (link bandwidths per node)', yLabel: 'latency (cycles)', series: [{ name: 'mean', points: curve((r) => r.mean) }, { name: 'p99', points: curve((r) => r.p99), dashed: true }] },
        { id: 'throughput', title: `Delivered against offered load (${q.pattern}, ${q.config.n}-cube)`, xLabel: 'offered load (link bandwidths per node)', yLabel: 'delivered load', series: [{ name: 'delivered', points: curve((r) => r.delivered) }, { name: 'offered', points: curve((r) => r.offered), dashed: true }] },
      ],
      notes: results.flatMap((r) => r.warnings.map((w) => `rate ${r.rate}: ${w}`)),
      data: { pattern: q.pattern, n: q.config.n },
    };
  },
});
