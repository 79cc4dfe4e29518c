/**
 * How a batch run's statistics are shown and saved: a text block for the
 * terminal (latency percentiles, a histogram, link figures, warnings), the
 * JSON summary (`--json FILE`) and the per-link CSV beside it.
 */
import chalk from 'chalk';
import type { BatchSummary, LatencyStats, LinkSummary, MessageWindow } from './stats.ts';

const fmt = (v: number | null, d = 1): string => (v === null ? 'n/a' : v.toFixed(d));

export function formatLatency(label: string, s: LatencyStats): string {
  return `  ${label.padEnd(30)} mean ${fmt(s.mean).padStart(9)}  p50 ${fmt(s.p50, 0).padStart(7)}  p95 ${fmt(s.p95, 0).padStart(7)}  p99 ${fmt(s.p99, 0).padStart(7)}  max ${fmt(s.max, 0).padStart(7)}  (${s.count} messages)`;
}

export function formatHistogram(s: LatencyStats, width = 40): string[] {
  const counts = s.histogram.counts;
  const top = Math.max(1, ...counts);
  const w = s.histogram.binWidth;
  const label = (k: number): string => `${k * w}..${(k + 1) * w - 1}`;
  const lw = Math.max(...counts.map((_, k) => label(k).length), 6);
  return counts.map((c, k) => `  ${label(k).padStart(lw)} | ${'#'.repeat(Math.round((c / top) * width)).padEnd(width)} ${c}`);
}

/** The message lines of the statistics block (any network): window, latencies, histogram, throughput. */
export function formatMessageWindow(s: MessageWindow): string[] {
  const lines: string[] = [];
  lines.push(chalk.bold(`Measurement window: cycles ${s.window.from}..${s.window.to - 1} (warm-up before it; run ended at ${s.window.runEnd})`));
  lines.push(formatLatency('latency to last byte (cycles)', s.latency));
  lines.push(formatLatency('latency to first packet', s.firstPacket));
  if (s.latency.count) {
    lines.push('  latency histogram (cycles):');
    lines.push(...formatHistogram(s.latency));
  }
  lines.push(`  throughput: offered ${s.throughput.offered.toFixed(3)}, delivered ${s.throughput.delivered.toFixed(3)} ${s.throughput.unit}`);
  return lines;
}

/** The statistics block printed after a batch run on the Buzzard cube. */
export function formatSummary(s: BatchSummary): string[] {
  const lines = formatMessageWindow(s);
  lines.push(formatLinkSummary(s.links.length, s.linkSummary));
  for (const w of s.warnings) lines.push(chalk.yellow(`  warning: ${w}`));
  return lines;
}

/** The one-line link summary (any network). */
export function formatLinkSummary(count: number, ls: LinkSummary): string {
  const pct = (v: number): string => `${(100 * v).toFixed(1)}%`;
  return `  links (${count} directed): utilisation mean ${pct(ls.meanUtilisation)}, max ${pct(ls.maxUtilisation)}; blocked mean ${pct(ls.meanBlocked)}, max ${pct(ls.maxBlocked)}`;
}

/** The per-link CSV: one row per directed link. */
export function linksCsv(s: BatchSummary): string {
  const rows = ['node,dimension,neighbour,utilisation,blocked_fraction,packets'];
  for (const l of s.links) rows.push(`${l.node},${l.dimension},${l.neighbour},${l.utilisation.toFixed(6)},${l.blocked.toFixed(6)},${l.packets}`);
  return rows.join('\n') + '\n';
}

/** `run.json` -> `run.links.csv`. */
export function csvPathFor(jsonPath: string): string {
  return jsonPath.replace(/\.json$/i, '') + '.links.csv';
}
