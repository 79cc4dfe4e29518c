/**
 * Text rendering of an experiment result: a header naming the seed result and
 * the method, the tables (measured values beside the seed's), the seed checks
 * (statement, seed numbers, measured numbers, rule, verdict) and notes.
 */
import chalk from 'chalk';
import type { ExperimentResult } from './output.ts';
import type { ReportTable, SeedCheck } from './types.ts';

function cell(v: string | number | null, digits: number): string {
  if (v === null) return '-';
  if (typeof v === 'number') return Number.isFinite(v) ? v.toFixed(digits) : '-';
  return v;
}

/** A table as aligned text lines (numbers right-aligned, text left-aligned). */
export function renderTable(t: ReportTable): string[] {
  const cols = t.columns.length;
  const text = t.rows.map((r) => r.map((v, c) => cell(v, t.digits?.[c] ?? 1)));
  const width = t.columns.map((h, c) => Math.max(h.length, ...text.map((r) => (r[c] ?? '').length)));
  const numeric = t.columns.map((_, c) => t.rows.every((r) => r[c] === null || typeof r[c] === 'number'));
  const fmt = (vals: readonly string[]): string =>
    vals
      .slice(0, cols)
      .map((v, c) => (numeric[c] ? v.padStart(width[c]!) : v.padEnd(width[c]!)))
      .join('  ')
      .trimEnd();
  const out = [chalk.bold(t.title), chalk.bold(fmt(t.columns.map((h, c) => (numeric[c] ? h.padStart(width[c]!) : h))))];
  for (const r of text) out.push(fmt(r));
  for (const n of t.notes ?? []) out.push(chalk.dim(n));
  return out;
}

export function verdict(h: boolean | null, comparable = true): string {
  if (!comparable) return chalk.magenta('not comparable');
  return h === null ? chalk.yellow('reported') : h ? chalk.green('holds') : chalk.red('does not hold');
}

/** The seed checks as a list: one block per statement. */
export function renderChecks(checks: readonly SeedCheck[]): string[] {
  if (!checks.length) return [];
  const out = [chalk.bold('Seed statements vs measured')];
  for (const c of checks) {
    out.push(`  [${verdict(c.holds, c.comparable !== false)}] ${c.statement}`);
    out.push(`      seed: ${c.seed}`);
    out.push(`      measured: ${c.measured}`);
    out.push(chalk.dim(`      rule: ${c.rule}`));
  }
  const held = checks.filter((c) => c.holds === true).length;
  const failed = checks.filter((c) => c.holds === false).length;
  const notComparable = checks.filter((c) => c.comparable === false).length;
  const open = checks.length - held - failed - notComparable;
  out.push(`  ${held} hold, ${failed} do not hold${notComparable ? `, ${notComparable} not comparable` : ''}${open ? `, ${open} reported without verdict` : ''} (of ${checks.length})`);
  return out;
}

export function renderResult(r: ExperimentResult): string {
  const lines: string[] = [];
  lines.push(chalk.bold(`icemu experiment ${r.experiment}`) + `: ${r.summary}`);
  lines.push(`  seed:   ${r.source}`);
  lines.push(`  method: ${r.method}`);
  lines.push(`  params: ${JSON.stringify(r.params)}`);
  for (const t of r.report.tables) lines.push('', ...renderTable(t));
  const checks = renderChecks(r.report.checks);
  if (checks.length) lines.push('', ...checks);
  if (r.report.notes.length) {
    lines.push('', chalk.bold('Notes'));
    for (const n of r.report.notes) lines.push(`  - ${n}`);
  }
  return lines.join('\n');
}
