/**
 * Shared helpers of the experiment tests: run `icemu experiment …` in this
 * process (through the CLI's main), read its outputs,
 * check SVG well-formedness and that the plotted points are the data.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { icemu, type CliRun } from '../cli/helpers.ts';
import { findExperiment } from '../../harness/experiments/registry.ts';
import type { ExperimentResult } from '../../harness/experiments/output.ts';
import { plotFileName } from '../../harness/experiments/output.ts';
import { drawable, plotLayout, px } from '../../harness/experiments/svg.ts';
import type { SeedCheck } from '../../harness/experiments/types.ts';

export type { CliRun };

/** Run `icemu experiment <argv>` in this process through the CLI's main (test/cli/helpers.ts). */
export function icemuExperiment(argv: string[]): Promise<CliRun> {
  return icemu(['experiment', ...argv]);
}

export function tempDir(tag: string): string {
  return mkdtempSync(join(tmpdir(), `icemu-exp-${tag}-`));
}

export function removeDir(d: string): void {
  rmSync(d, { recursive: true, force: true });
}

export function readResult(dir: string, name: string): ExperimentResult {
  return JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')) as ExperimentResult;
}

/**
 * Crude XML well-formedness: every tag is a name with double-quoted
 * attributes, tags nest and close, the text has no raw '<' and only the five
 * escaped entities. Returns the element counts.
 */
export function checkXml(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const stack: string[] = [];
  const body = text.replace(/^<\?xml[^?]*\?>\s*/, '');
  const re = /<[^>]*>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  const checkText = (t: string): void => {
    expect(t, 'raw < in text').not.toMatch(/</);
    expect(t, 'unescaped & in text').not.toMatch(/&(?!amp;|lt;|gt;|quot;|apos;)/);
  };
  while ((m = re.exec(body))) {
    checkText(body.slice(last, m.index));
    last = re.lastIndex;
    const tag = m[0];
    if (tag.startsWith('</')) {
      const name = tag.slice(2, -1).trim();
      expect(stack.pop(), `closing </${name}>`).toBe(name);
      continue;
    }
    expect(tag, 'tag syntax').toMatch(/^<[A-Za-z][\w:-]*(\s+[\w:-]+="[^"<>]*")*\s*\/?>$/);
    const name = /^<([A-Za-z][\w:-]*)/.exec(tag)![1]!;
    counts.set(name, (counts.get(name) ?? 0) + 1);
    if (!tag.endsWith('/>')) stack.push(name);
  }
  checkText(body.slice(last));
  expect(stack, 'unclosed elements').toEqual([]);
  expect(counts.get('svg')).toBe(1);
  return counts;
}

/** Every plot of the result exists as an SVG, is well formed, and its polylines are exactly the data mapped through the axes. */
export function checkPlots(dir: string, r: ExperimentResult): void {
  expect(r.report.plots.length).toBeGreaterThan(0);
  for (const p of r.report.plots) {
    const file = join(dir, plotFileName(r.experiment, p.id));
    expect(existsSync(file), file).toBe(true);
    const svg = readFileSync(file, 'utf8');
    const counts = checkXml(svg);
    const polylines = [...svg.matchAll(/<polyline [^>]*points="([^"]*)"/g)].map((x) => x[1]!);
    expect(polylines).toHaveLength(p.series.length);
    const layout = plotLayout({ title: p.title, xLabel: p.xLabel, yLabel: p.yLabel, xLog: p.xLog, yLog: p.yLog, series: p.series });
    let drawn = 0;
    p.series.forEach((s, k) => {
      const pts = drawable(s, p.xLog, p.yLog);
      drawn += pts.length;
      expect(polylines[k], `${file}: series ${s.name}`).toBe(pts.map(([x, y]) => `${px(layout.sx(x))},${px(layout.sy(y))}`).join(' '));
      // inside the plot area
      for (const [x, y] of pts) {
        expect(layout.sx(x)).toBeGreaterThanOrEqual(layout.left - 0.01);
        expect(layout.sx(x)).toBeLessThanOrEqual(layout.right + 0.01);
        expect(layout.sy(y)).toBeGreaterThanOrEqual(layout.top - 0.01);
        expect(layout.sy(y)).toBeLessThanOrEqual(layout.bottom + 0.01);
      }
    });
    // one marker per drawn point (any shape), one ring per unstable point
    expect([...svg.matchAll(/class="marker( unstable)?"/g)].length).toBe(drawn);
    const unstable = p.series.reduce((a, s) => a + s.points.filter(([x, y], k) => Boolean(s.unstable?.[k]) && Number.isFinite(x) && Number.isFinite(y) && (!p.xLog || x > 0) && (!p.yLog || y > 0)).length, 0);
    expect([...svg.matchAll(/class="unstable-ring"/g)].length).toBe(unstable);
    expect(drawn, `${file} draws something`).toBeGreaterThan(0);
  }
}

/** The structure every result JSON has. */
export function checkStructure(r: ExperimentResult, name: string): void {
  expect(r.format).toBe('icemu-experiment/1');
  expect(r.experiment).toBe(name);
  for (const k of ['summary', 'source', 'method'] as const) expect(typeof r[k]).toBe('string');
  const exp = findExperiment(name)!;
  const points = exp.points(r.params);
  expect(r.points).toHaveLength(points.length);
  r.points.forEach((p, k) => {
    expect(p.index).toBe(k);
    expect(p.point).toEqual(JSON.parse(JSON.stringify(points[k])));
    expect(p.result).not.toBeNull();
  });
  expect(r.report.tables.length).toBeGreaterThan(0);
  for (const t of r.report.tables) {
    expect(t.rows.length).toBeGreaterThan(0);
    for (const row of t.rows) expect(row).toHaveLength(t.columns.length);
  }
  expect(r.report.checks.length).toBeGreaterThan(0);
  const ids = new Set<string>();
  for (const c of r.report.checks) {
    for (const k of ['id', 'statement', 'seed', 'measured', 'rule'] as const) expect(typeof c[k], `${c.id}.${k}`).toBe('string');
    expect([true, false, null]).toContain(c.holds);
    expect(ids.has(c.id), `duplicate check id ${c.id}`).toBe(false);
    ids.add(c.id);
  }
}

export function check(r: ExperimentResult, id: string): SeedCheck {
  const c = r.report.checks.find((x) => x.id === id);
  if (!c) throw new Error(`${r.experiment}: no check '${id}' (have ${r.report.checks.map((x) => x.id).join(', ')})`);
  return c;
}

/** Files an experiment directory holds (for the no-temporary-files check). */
export function listDir(d: string): string[] {
  return readdirSync(d).sort();
}

/**
 * The standard quick-run test body: run unsharded (jobs as given), run shards
 * 0/2 and 1/2 into another directory, merge them, and check the merged
 * result JSON and SVGs equal the unsharded ones byte for byte.
 */
export async function quickAndShards(name: string, extra: string[] = [], jobs = 1): Promise<{ dir: string; result: ExperimentResult; run: CliRun }> {
  const dir = tempDir(name);
  const run = await icemuExperiment([name, '--quick', '--out', dir, '--jobs', String(jobs), '--quiet', ...extra]);
  expect(run.code, run.err).toBe(0);
  const result = readResult(dir, name);
  const shards = tempDir(`${name}-shards`);
  try {
    for (const i of [0, 1]) {
      const s = await icemuExperiment([name, '--quick', '--shard', `${i}/2`, '--out', shards, '--jobs', '1', '--quiet', ...extra]);
      expect(s.code, s.err).toBe(0);
      expect(s.out).toContain(`shard ${i}/2`);
    }
    expect(listDir(shards)).toEqual([`${name}.shard-0-of-2.json`, `${name}.shard-1-of-2.json`]);
    const m = await icemuExperiment(['merge', shards]);
    expect(m.code, m.err).toBe(0);
    expect(readFileSync(join(shards, `${name}.json`), 'utf8')).toBe(readFileSync(join(dir, `${name}.json`), 'utf8'));
    for (const p of result.report.plots) {
      const f = plotFileName(name, p.id);
      expect(readFileSync(join(shards, f), 'utf8'), f).toBe(readFileSync(join(dir, f), 'utf8'));
    }
  } finally {
    removeDir(shards);
  }
  // nothing half-written left behind
  expect(listDir(dir).filter((f) => f.includes('.tmp'))).toEqual([]);
  return { dir, result, run };
}

/** `icemu experiment <name> ...args --out <temp> --quiet`, expecting exit 0; the directory joins `dirs` for removal. */
export async function runExperimentIn(name: string, args: string[], dirs: string[]): Promise<{ d: string; res: ExperimentResult }> {
  const d = tempDir(name);
  dirs.push(d);
  const r = await icemuExperiment([name, ...args, '--out', d, '--quiet']);
  expect(r.code, r.err).toBe(0);
  return { d, res: readResult(d, name) };
}
