/**
 * Rendering of a comparison: a fixed-width table (chalk for emphasis only:
 * every verdict is also spelled out, so it reads the same without colour),
 * and the JSON report, written atomically (temporary file, then rename).
 */
import chalk from 'chalk';
import { writeOutput } from '../../traces/files.ts';
import { describeMapping } from './mapping.ts';
import type { Comparison, MetricComparison } from './join.ts';
import type { PresetResult } from './presets.ts';
import type { ToleranceReport } from './tolerance.ts';

function num(x: number | null | undefined, width: number, digits = 1): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a'.padStart(width);
  const a = Math.abs(x);
  let s: string;
  if (Number.isInteger(x) && a < 1e7) s = String(x);
  else if (a !== 0 && a < 0.01) s = x.toExponential(1);
  else if (a < 10) s = x.toFixed(Math.max(digits, 3));
  else s = x.toFixed(digits);
  return s.padStart(width);
}

function pct(x: number | null | undefined, width: number): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return 'n/a'.padStart(width);
  return `${(100 * x).toFixed(1)}%`.padStart(width);
}

const COLS: [string, number][] = [
  ['metric', 17],
  ['unit', 11],
  ['joined', 7],
  ['A mean', 10],
  ['B mean', 10],
  ['dev mean', 10],
  ['p50', 8],
  ['p90', 8],
  ['p99', 8],
  ['max|dev|', 9],
  ['rel mean', 9],
  ['rel p50', 9],
];

/** The deviation table, one metric per line (deviation = B − A). */
export function formatTable(c: Comparison): string[] {
  const lines: string[] = [];
  lines.push(chalk.bold(COLS.map(([h, w], i) => (i < 2 ? h.padEnd(w) : h.padStart(w))).join(' ')));
  const row = (m: MetricComparison): string => {
    const cells = [
      m.metric.padEnd(17),
      m.unit.padEnd(11),
      `${m.joined}`.padStart(7),
      num(m.a.mean, 10),
      num(m.b.mean, 10),
      num(m.abs.mean, 10),
      num(m.abs.p50, 8),
      num(m.abs.p90, 8),
      num(m.abs.p99, 8),
      num(m.abs.absMax, 9),
      pct(m.rel.mean, 9),
      pct(m.rel.p50, 9),
    ];
    return cells.join(' ');
  };
  for (const m of c.metrics) lines.push(row(m));
  return lines;
}

export function formatChecks(r: ToleranceReport): string[] {
  return r.checks.map((k) => (k.pass ? `  ${chalk.green('PASS')} ${k.message}` : `  ${chalk.red.bold('FAIL')} ${k.message}`));
}

/** The full text report of a preset run. */
export function formatReport(r: PresetResult): string {
  const c = r.comparison;
  const w = r.workload as { name?: string; messages?: number; seed?: number | null; params?: Record<string, unknown> };
  const out: string[] = [];
  out.push(`${chalk.bold(`icemu compare ${r.preset}`)}${r.quick ? ' (quick)' : ''}: ${r.title}`);
  out.push(`  A = ${c.a.label} (${c.a.unit}), B = ${c.b.label} (${c.b.unit}); deviation = B − A, in ${c.unit}; relative = (B − A)/A`);
  out.push(`  time mapping: ${describeMapping(r.mapping)}`);
  const p = w.params ?? {};
  const wl = [`workload ${w.name ?? '?'}`, `seed ${w.seed ?? 'none'}`, `${w.messages ?? '?'} messages`, p.cubeDegree !== undefined ? `${String(p.cubeDegree)}-cube` : '', p.meanBytes !== undefined ? `mean ${String(p.meanBytes)} B` : '', p.meanGapTicks !== undefined ? `mean gap ${String(p.meanGapTicks)} ticks` : ''].filter(Boolean);
  out.push(`  ${wl.join(', ')}`);
  out.push(
    `  ${c.a.label}: ${c.a.messagesComplete}/${c.a.messagesSeen} messages complete, ${c.a.packets} packets, makespan ${num(c.a.makespan, 0)} ${c.unit}; ` +
      `${c.b.label}: ${c.b.messagesComplete}/${c.b.messagesSeen} complete, ${c.b.packets} packets, makespan ${num(c.b.makespan, 0)} ${c.unit}`,
  );
  if (c.idealLinkUtilisation !== null) out.push(`  ideal link utilisation (seed §5.7, 2·M·L / (n·2^n links × last generation)): ${(100 * c.idealLinkUtilisation).toFixed(2)}%`);
  out.push('');
  out.push(...formatTable(c).map((l) => `  ${l}`));
  if (c.missing.onlyA.length || c.missing.onlyB.length) {
    out.push(`  ${chalk.yellow('missing')}: complete in ${c.a.label} only: ${c.missing.onlyA.length}, in ${c.b.label} only: ${c.missing.onlyB.length}`);
  }
  for (const side of [c.a, c.b]) {
    const an = side.info?.anomalies;
    if (typeof an === 'number' && an > 0) out.push(`  ${chalk.yellow('event-bookkeeping anomalies')} on ${side.label}: ${an} (harness/rtl/events.ts; the affected messages may be misjoined)`);
  }
  const probs = [...c.a.problems, ...c.b.problems];
  if (probs.length) out.push(`  ${chalk.yellow('trace problems')}: ${probs.length} (first: ${probs[0]})`);
  if (r.explanations.length) {
    out.push('');
    out.push(chalk.bold('  Systematic differences (closed-form expectation vs measured):'));
    for (const e of r.explanations) {
      const isRel = e.unit === '' || e.unit === 'rel';
      const val = (x: number | null): string => (isRel ? pct(x, 0) : `${num(x, 0)}${e.unit ? ` ${e.unit}` : ''}`);
      out.push(`  - ${e.metric}${e.stat ? ` (${e.stat})` : ''}: expected ${val(e.expected)}, measured ${val(e.measured)}. ${e.text}`);
    }
  }
  if (r.notes.length) {
    out.push('');
    for (const n of r.notes) out.push(chalk.dim(`  ${n}`));
  }
  out.push('');
  out.push(chalk.bold(`  Tolerances (${r.check.checks.length}):`));
  out.push(...formatChecks(r.check));
  out.push(r.check.pass ? `  ${chalk.green.bold('RESULT: PASS')} (all ${r.check.checks.length} tolerances hold)` : `  ${chalk.red.bold('RESULT: FAIL')} (${r.check.failures.length} of ${r.check.checks.length} tolerances exceeded: ${r.check.failures.map((f) => f.tolerance.metric).join(', ')})`);
  return out.join('\n');
}

/** JSON-safe copy: NaN and ±Infinity become null. */
export function toJson(x: unknown): string {
  return JSON.stringify(x, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2) + '\n';
}

/** Write text safely: checked, a temporary file beside the target, then rename (traces/files.ts). */
export function writeAtomic(path: string, text: string, label?: string): void {
  writeOutput(path, text, label);
}
