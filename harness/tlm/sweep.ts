/**
 * The seed 002 Chapter 5 sweep on the TLM (docs/sources.md, buzzard §10.3):
 * 6-cube, uniform destinations, exponential lengths (mean 512 or 2048 B),
 * normal inter-generation times at the nine rates of each set, for the three
 * transports; plus the 26-buffer and 64-byte-packet variants of the two
 * packet transports (wormhole has neither buffers nor packets). Every
 * transport and variant at one (length, rate) sees the same workload (§10.3:
 * "the same pseudo-random streams for every scheme").
 *
 * Run from a checkout:
 *   npx tsx harness/tlm/sweep.ts [--messages-per-node N] [--seed S] [--lengths 512,2048] [--json FILE]
 * prints one line per point (ideal utilisation, mean first/last, ratios to
 * wormhole, wall time) and the total wall time.
 */
import { writeOutput } from '../../traces/files.ts';
import { pathToFileURL } from 'node:url';
import { CH5_RATES, buzzardCh5Workload } from '../workloads/buzzard.ts';
import type { Workload } from '../workloads/types.ts';
import { TLM_CH5_VARIANTS, TRANSPORTS, type Ch5Variant, type Transport } from './config.ts';
import { runTlm, type TlmStats } from './buzzard-tlm.ts';

export interface Ch5Point {
  readonly meanBytes: 512 | 2048;
  readonly meanGapTicks: number;
  readonly transport: Transport;
  readonly variant: Ch5Variant;
}

export interface Ch5SweepOptions {
  /** Mean lengths to sweep (default both). */
  readonly lengths?: readonly (512 | 2048)[];
  /** Include the 26-buffer and 64-byte variants (default true). */
  readonly variants?: boolean;
  /** Messages generated per node (default 100). */
  readonly messagesPerNode?: number;
  /** Workload seed (default 1). */
  readonly seed?: number;
  /** Cube degree (default 6). */
  readonly cubeDegree?: number;
}

/** All points of the sweep, grouped by (length, rate) so that one workload serves a group. */
export function chapter5SweepPoints(opts: Ch5SweepOptions = {}): Ch5Point[] {
  const out: Ch5Point[] = [];
  for (const meanBytes of opts.lengths ?? ([512, 2048] as const)) {
    for (const meanGapTicks of CH5_RATES[meanBytes]) {
      for (const transport of TRANSPORTS) out.push({ meanBytes, meanGapTicks, transport, variant: 'base' });
      if (opts.variants ?? true) {
        for (const variant of ['buffers26', 'packet64'] as const) {
          for (const transport of ['fixed-packet', 'quasi-adaptive'] as const) out.push({ meanBytes, meanGapTicks, transport, variant });
        }
      }
    }
  }
  return out;
}

export function chapter5Workload(meanBytes: 512 | 2048, meanGapTicks: number, opts: Ch5SweepOptions = {}): Workload {
  return buzzardCh5Workload({ cubeDegree: opts.cubeDegree ?? 6, meanBytes, meanGapTicks, messagesPerNode: opts.messagesPerNode ?? 100, seed: opts.seed ?? 1 });
}

export interface Ch5PointResult {
  readonly point: Ch5Point;
  readonly stats: TlmStats;
  /** Wall time of the TLM run (not the workload generation), ms. */
  readonly wallMs: number;
}

/** Run one point on a given workload (events off). */
export function runChapter5Point(point: Ch5Point, workload: Workload): Ch5PointResult {
  const t0 = performance.now();
  const r = runTlm(workload, { transport: point.transport, ...TLM_CH5_VARIANTS[point.variant], recordEvents: false });
  return { point, stats: r.stats, wallMs: performance.now() - t0 };
}

/** Run the whole sweep; `onPoint` sees each result as it is made. */
export function runChapter5Sweep(opts: Ch5SweepOptions = {}, onPoint?: (r: Ch5PointResult) => void): Ch5PointResult[] {
  const out: Ch5PointResult[] = [];
  let key = '';
  let w: Workload | undefined;
  for (const p of chapter5SweepPoints(opts)) {
    const k = `${p.meanBytes}/${p.meanGapTicks}`;
    if (k !== key || !w) {
      w = chapter5Workload(p.meanBytes, p.meanGapTicks, opts);
      key = k;
    }
    const r = runChapter5Point(p, w);
    out.push(r);
    onPoint?.(r);
  }
  return out;
}

function fmt(x: number | null, d = 1): string {
  return x === null || Number.isNaN(x) ? '-' : x.toFixed(d);
}

function main(argv: string[]): void {
  const opt = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const mpn = Number(opt('--messages-per-node') ?? 100);
  const seed = Number(opt('--seed') ?? 1);
  const lengths = (opt('--lengths') ?? '512,2048').split(',').map(Number) as (512 | 2048)[];
  for (const l of lengths) if (l !== 512 && l !== 2048) throw new RangeError(`--lengths: ${l} is not one of 512, 2048`);
  if (!Number.isInteger(mpn) || mpn < 1) throw new RangeError(`--messages-per-node: ${mpn} is outside 1..∞ (integer)`);
  const json = opt('--json');
  const t0 = performance.now();
  const wormhole = new Map<string, TlmStats>();
  console.log('bytes  gap    U_ideal transport       variant    first    last  first/wh (last-first)wh/scheme  dead  wall_ms');
  const results = runChapter5Sweep({ messagesPerNode: mpn, seed, lengths }, (r) => {
    const p = r.point;
    const k = `${p.meanBytes}/${p.meanGapTicks}`;
    if (p.transport === 'wormhole') wormhole.set(k, r.stats);
    const wh = wormhole.get(k);
    const lat = wh ? r.stats.meanFirst / wh.meanFirst : NaN;
    const bw = wh ? wh.meanLastMinusFirst / r.stats.meanLastMinusFirst : NaN;
    console.log(
      `${String(p.meanBytes).padEnd(6)} ${String(p.meanGapTicks).padEnd(6)} ${fmt(r.stats.idealLinkUtilisation, 3).padEnd(7)} ${p.transport.padEnd(15)} ${p.variant.padEnd(9)} ${fmt(r.stats.meanFirst).padStart(8)} ${fmt(r.stats.meanLast).padStart(8)} ${fmt(lat, 2).padStart(8)} ${fmt(bw, 2).padStart(8)} ${r.stats.deadlock ? 'YES' : 'no '} ${fmt(r.wallMs, 0).padStart(7)}`,
    );
  });
  const total = performance.now() - t0;
  console.log(`${results.length} points, ${mpn} messages per node, total wall time ${(total / 1000).toFixed(1)} s (TLM runs ${(results.reduce((a, r) => a + r.wallMs, 0) / 1000).toFixed(1)} s)`);
  if (json) {
    writeOutput(json, JSON.stringify({ messagesPerNode: mpn, seed, totalWallMs: total, results }, null, 1));
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
