/**
 * c104-starvation: seed 004 Figs 5.6–5.9 (§5.4.4) on the T9000/C104 TLM —
 * load maps (data packets delivered per ms per source CPU) of the
 * non-blocking workload (16, 8, 1, c, 1, 32) at high load: the starved edge
 * columns under x-first routing with T9000 ack priority, the rotation under
 * y-first routing, the sensitivity to the outstanding-message limit, and
 * `--noackpri` (t9000AckPriority off). "Unlimited" outstanding messages
 * (the runs where "simulator memory grows without bound") is a limit of
 * 1,000,000. Each run is a fixed simulated time; the map covers the whole run.
 */
import { runC104, type Routing } from '../tlm/t9000-c104/index.ts';
import { SyntheticProgram, standardSetup } from '../workloads/thesis-synthetic.ts';
import { predicateCheck } from './c104-verdicts.ts';
import { defineExperiment, type ExperimentCliValues, type ReportTable, type SeedCheck } from './types.ts';

export const UNLIMITED = 1_000_000;
/** "Zero work": an edge line's mean rate below this share of the middle lines' mean. */
export const STARVED = 0.05;
/** "Uniform": every line's mean within this ratio of the others (max/min). */
export const UNIFORM = 1.1;
/** Bands "disappear": every edge line at least this share of the middle. */
export const CURED = 0.8;

export interface StarvePoint {
  readonly fig: string;
  readonly routing: Routing;
  readonly ackPriority: boolean;
  readonly limit: number;
  readonly cUs: number;
}
export interface StarveParams {
  readonly quick: boolean;
  readonly seed: number;
  readonly runNs: number;
}
export interface StarveResult {
  /** Mean rate per column x (0..15) and per row y. */
  readonly columns: number[];
  readonly rows: number[];
  readonly map: number[];
  /** Mean acks owed per node at the end of the run (created, not yet delivered), by column x. */
  readonly ackColumns: number[];
  /** Packets (data and acks) forwarded per ms by each C104, index y·16 + x. */
  readonly switchMap: number[];
  readonly throughput: number;
}

function points(): StarvePoint[] {
  const out: StarvePoint[] = [];
  for (const cUs of [1, 10, 100]) out.push({ fig: '5.6', routing: 'xy', ackPriority: true, limit: UNLIMITED, cUs });
  out.push({ fig: '5.7', routing: 'yx', ackPriority: true, limit: UNLIMITED, cUs: 1 });
  for (const limit of [16, 32, 64, 128]) out.push({ fig: '5.8', routing: 'xy', ackPriority: true, limit, cUs: 1 });
  for (const limit of [16, 32, 64, 128, UNLIMITED]) out.push({ fig: '5.9', routing: 'xy', ackPriority: false, limit, cUs: 1 });
  return out;
}

function runPoint(p: StarvePoint, q: StarveParams): StarveResult {
  const r = runC104(new SyntheticProgram(standardSetup(p.cUs, 'async', q.seed)), { routing: p.routing, t9000AckPriority: p.ackPriority, outstandingLimit: p.limit }, { fixedNs: q.runNs, truncate: false });
  const m = r.loadMap;
  const D = 16;
  const columns = Array.from({ length: D }, (_, x) => m.filter((_, i) => i % D === x).reduce((a, v) => a + v, 0) / D);
  const rows = Array.from({ length: D }, (_, y) => m.slice(y * D, y * D + D).reduce((a, v) => a + v, 0) / D);
  const owed = r.ackBacklog;
  const ackColumns = Array.from({ length: D }, (_, x) => owed.filter((_, i) => i % D === x).reduce((a, v) => a + v, 0) / D);
  return { columns, rows, map: m, ackColumns, switchMap: r.switchLoadMap ?? [], throughput: r.summary.throughput };
}

/** Edge lines (0 and 15) relative to the middle lines (6..9). */
export function edgeShare(lines: readonly number[]): number {
  const mid = (lines[6]! + lines[7]! + lines[8]! + lines[9]!) / 4;
  return mid > 0 ? Math.max(lines[0]!, lines[lines.length - 1]!) / mid : NaN;
}
export function spread(lines: readonly number[]): number {
  return Math.max(...lines) / Math.min(...lines);
}

/** Fig. 5.6's dead zone: the lines below STARVED of the mean of lines 6 and 9. */
export function starvedLines(lines: readonly number[]): number[] {
  return lines.map((v, x) => (v < STARVED * ((lines[6]! + lines[9]!) / 2) ? x : -1)).filter((x) => x >= 0);
}
/** "Spreads to x < 4 and x > 11": lines 0..3 and 12..15 all starved. */
export function deadZoneHolds(starved: readonly number[]): boolean {
  return [0, 1, 2, 3, 12, 13, 14, 15].every((x) => starved.includes(x));
}
/** Fig. 5.6 at low load: columns and rows each within UNIFORM (max/min). */
export function uniformHolds(columns: readonly number[], rows: readonly number[]): boolean {
  return spread(columns) <= UNIFORM && spread(rows) <= UNIFORM;
}
/** Fig. 5.6 at low load, "routing load highest in the centre": the busiest C104 lies in the middle block, x and y in 6..9 (no map: no verdict). */
export function centreBusiestHolds(switchMap: readonly number[], D = 16): boolean | null {
  if (switchMap.length !== D * D) return null;
  const i = switchMap.indexOf(Math.max(...switchMap));
  const mid = (v: number) => v >= 6 && v <= 9;
  return mid(i % D) && mid(Math.floor(i / D));
}

/** Fig. 5.6's ack queues: the starved columns owe at least this many times the acks the middle columns (6..9) owe. */
export const ACK_PILE = 10;
/** Fig. 5.6 "T9000 ack queues grow unboundedly on exactly the starved nodes": starved columns' mean acks owed over the middle's at least ACK_PILE (no starved column: no verdict). */
export function ackPileHolds(ackColumns: readonly number[], starved: readonly number[]): boolean | null {
  if (starved.length === 0) return null;
  const mid = (ackColumns[6]! + ackColumns[7]! + ackColumns[8]! + ackColumns[9]!) / 4;
  const st = starved.reduce((a, x) => a + ackColumns[x]!, 0) / starved.length;
  return st >= ACK_PILE * Math.max(mid, 1e-9);
}

/** Fig. 5.7: edge rows starved, edge columns above CURED. */
export function rotatedHolds(rows: readonly number[], columns: readonly number[]): boolean {
  return edgeShare(rows) < STARVED && edgeShare(columns) > CURED;
}
/** Fig. 5.8 "sensitive": the edge share at limit 16 more than twice that at limit 128. */
export function sensitiveHolds(share16: number, share128: number): boolean {
  return share16 > 2 * share128;
}

function assemble(q: StarveParams, pts: readonly StarvePoint[], res: readonly StarveResult[]) {
  const find = (f: (p: StarvePoint) => boolean) => res[pts.findIndex(f)]!;
  const label = (p: StarvePoint) => `Fig. ${p.fig} ${p.routing} ackpri ${p.ackPriority ? 'on' : 'off'} limit ${p.limit === UNLIMITED ? '∞' : p.limit} c=${p.cUs}`;
  const tables: ReportTable[] = [
    { title: 'Mean data packets delivered per ms per CPU, by column x (0..15)', columns: ['run', ...Array.from({ length: 16 }, (_, x) => `x${x}`)], rows: pts.map((p, k) => [label(p), ...res[k]!.columns]), digits: [0, ...Array(16).fill(0)] },
    { title: 'The same by row y (0..15)', columns: ['run', ...Array.from({ length: 16 }, (_, y) => `y${y}`)], rows: pts.map((p, k) => [label(p), ...res[k]!.rows]), digits: [0, ...Array(16).fill(0)] },
  ];
  const checks: SeedCheck[] = [];
  const hi = find((p) => p.fig === '5.6' && p.cUs === 1);
  const lo = find((p) => p.fig === '5.6' && p.cUs === 100);
  const share = (x: number) => `${(100 * x).toFixed(1)}%`;
  checks.push(predicateCheck('f5.6-starved-columns', 'Fig. 5.6: at high load (c = 1 µs) columns x = 0 and x = 15 do zero work', 'zero work', `edge columns at ${share(edgeShare(hi.columns))} of the middle columns' rate`, `holds if both edge columns are below ${100 * STARVED}% of the middle (x = 6..9)`, edgeShare(hi.columns) < STARVED));
  const dead = starvedLines(hi.columns);
  checks.push(predicateCheck('f5.6-dead-zone', 'Fig. 5.6: at the highest load the dead zone spreads to x < 4 and x > 11', 'x < 4 and x > 11', `starved columns (below ${100 * STARVED}% of the middle): ${dead.join(', ') || 'none'}`, 'holds if the starved columns include 0..3 and 12..15', deadZoneHolds(dead)));
  checks.push(predicateCheck('f5.6-uniform-low-load', 'Fig. 5.6: at c = 100 µs the achieved work is uniform', 'uniform', `column max/min ${spread(lo.columns).toFixed(3)}, row max/min ${spread(lo.rows).toFixed(3)}`, `holds if both are at most ${UNIFORM}`, uniformHolds(lo.columns, lo.rows)));
  const owedMid = (hi.ackColumns[6]! + hi.ackColumns[7]! + hi.ackColumns[8]! + hi.ackColumns[9]!) / 4;
  const owedStarved = dead.length ? dead.reduce((a, x) => a + hi.ackColumns[x]!, 0) / dead.length : NaN;
  checks.push(predicateCheck('f5.6-ack-queues', 'Fig. 5.6: at high load the T9000 ack queues grow unboundedly on exactly the starved nodes', 'ack queues on the starved nodes', `acks owed per node at ${(q.runNs / 1e6).toFixed(0)} ms: starved columns ${owedStarved.toFixed(0)}, middle columns (6..9) ${owedMid.toFixed(1)}; by column ${hi.ackColumns.map((v) => v.toFixed(0)).join(' ')}`, `holds if the starved columns owe at least ${ACK_PILE}× the acks the middle columns owe`, ackPileHolds(hi.ackColumns, dead)));
  const busiest = lo.switchMap.length ? lo.switchMap.indexOf(Math.max(...lo.switchMap)) : -1;
  checks.push(predicateCheck('f5.6-centre-routing', 'Fig. 5.6: at c = 100 µs the routing load is highest in the centre', 'highest in the centre', busiest < 0 ? 'n/a' : `busiest C104 at (${busiest % 16}, ${Math.floor(busiest / 16)}), ${lo.switchMap[busiest]!.toFixed(0)} packets per ms; least busy ${Math.min(...lo.switchMap).toFixed(0)}`, 'holds if the C104 forwarding the most packets has x and y in 6..9', centreBusiestHolds(lo.switchMap)));
  const yx = find((p) => p.fig === '5.7');
  checks.push(predicateCheck('f5.7-rotated', 'Fig. 5.7: y-first routing gives the same pattern rotated by 90° (rows y = 0 and 15 starve, columns do not)', 'rotated', `edge rows at ${share(edgeShare(yx.rows))}, edge columns at ${share(edgeShare(yx.columns))} of the middle`, `holds if edge rows are below ${100 * STARVED}% and edge columns above ${100 * CURED}%`, rotatedHolds(yx.rows, yx.columns)));
  const lim = [16, 32, 64, 128].map((l) => find((p) => p.fig === '5.8' && p.limit === l));
  checks.push(predicateCheck('f5.8-sensitive', 'Fig. 5.8: the load surface is sensitive to the outstanding limit (16/32/64/128)', 'sensitive', `edge-column share ${lim.map((r) => share(edgeShare(r.columns))).join(' / ')}`, 'holds if the edge share changes by more than a factor 2 between limits 16 and 128', sensitiveHolds(edgeShare(lim[0]!.columns), edgeShare(lim[3]!.columns))));
  checks.push(predicateCheck('f5.8-returns', 'Fig. 5.8: at the highest limit starvation at x = 0 and x = 15 returns', 'starved', `edge share at limit 128: ${share(edgeShare(lim[3]!.columns))}`, `holds if below ${100 * STARVED}%`, edgeShare(lim[3]!.columns) < STARVED));
  const off = pts.map((p, k) => (p.fig === '5.9' ? res[k]! : null)).filter((r): r is StarveResult => r !== null);
  const worst = Math.min(...off.map((r) => edgeShare(r.columns)));
  checks.push(predicateCheck('f5.9-cured', 'Fig. 5.9: with --noackpri the starvation bands disappear completely', 'no bands', `edge-column share without ack priority: ${off.map((r) => share(edgeShare(r.columns))).join(' / ')} (limits 16/32/64/128/∞)`, `holds if every edge column is at least ${100 * CURED}% of the middle`, worst >= CURED));
  return {
    tables,
    checks,
    plots: [
      {
        id: 'columns',
        title: 'Figs 5.6–5.9: rate per CPU by column at c = 1 µs',
        xLabel: 'column x',
        yLabel: 'data packets per ms',
        series: pts.map((p, k) => ({ name: label(p), dashed: !p.ackPriority, points: res[k]!.columns.map((v, x) => [x, v] as const) })),
      },
    ],
    notes: [`Each run: ${(q.runNs / 1e6).toFixed(0)} ms simulated from an empty network; maps over the whole run. "Middle" = lines 6..9.`],
  };
}

export const c104Starvation = defineExperiment<StarvePoint, StarveResult, StarveParams>({
  name: 'c104-starvation',
  summary: 'seed 004 Figs 5.6–5.9: starved edge columns, y-first rotation, outstanding limits, --noackpri (T9000/C104 TLM)',
  source: 'seed 004 §5.4.4, Figs 5.6–5.9 (docs/sources.md, c104-t9000 §11)',
  method: 'T9000/C104 packet-passing TLM; non-blocking (16, 8, 1, c, 1, 32); load maps per source CPU',
  options: ['seed'],
  params: (cli: ExperimentCliValues) => ({ quick: cli.quick, seed: cli.seed ?? 1, runNs: cli.quick ? 3_000_000 : 10_000_000 }),
  points,
  cost: (p) => 1 + 30 / p.cUs,
  runPoint,
  assemble,
});
