/**
 * What an experiment run leaves on disk, all written atomically (temporary
 * file in the same directory, then rename):
 *
 *   <name>.json              the result: parameters, every point with its
 *                            result, and the report (tables, seed checks,
 *                            plot data, notes). Deterministic: the same
 *                            parameters give the same bytes, whether run in
 *                            one process, on many workers, or as shards merged.
 *   <name>[.<plot>].svg      one line plot per report plot
 *   <name>.run.json          how it ran (wall time, workers, shards, host):
 *                            kept out of the result so that stays exact
 *   <name>.shard-<i>-of-<N>.json
 *                            a shard's point results (--shard i/N), merged by
 *                            `icemu experiment merge DIR`
 */
import { readdirSync, readFileSync } from 'node:fs';
import { ensureDirectory, reasonOf, writeOutput } from '../../traces/files.ts';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { findExperiment } from './registry.ts';
import type { PointRun, ShardSpec } from './runner.ts';
import { linePlot } from './svg.ts';
import { toJson, type AnyExperiment, type Json, type Report } from './types.ts';

export const RESULT_FORMAT = 'icemu-experiment/1';
export const SHARD_FORMAT = 'icemu-experiment-shard/1';

export interface ExperimentResult {
  readonly format: typeof RESULT_FORMAT;
  readonly experiment: string;
  readonly summary: string;
  readonly source: string;
  readonly method: string;
  readonly params: Json;
  readonly points: readonly { readonly index: number; readonly point: Json; readonly result: Json }[];
  readonly report: Report;
}

export interface ShardFile {
  readonly format: typeof SHARD_FORMAT;
  readonly experiment: string;
  readonly params: Json;
  readonly shard: ShardSpec;
  readonly totalPoints: number;
  readonly points: readonly { readonly index: number; readonly point: Json; readonly result: Json }[];
  /** Wall times (not part of the merged result). */
  readonly timing: { readonly wallMs: number; readonly jobs: number; readonly pointWallMs: readonly number[] };
}

/** Write a file safely: checked, a temporary file beside it, then rename (traces/files.ts). */
export function writeAtomic(path: string, text: string): void {
  writeOutput(path, text, '--out');
}

export function jsonText(v: unknown): string {
  return JSON.stringify(toJson(v), null, 1) + '\n';
}

/** Assemble the full result from every point's result (runs sorted by index, all present). */
export function buildResult(exp: AnyExperiment, params: unknown, runs: readonly PointRun[]): ExperimentResult {
  const points = exp.points(params);
  if (runs.length !== points.length) throw new Error(`${exp.name}: ${runs.length} results for ${points.length} points`);
  runs.forEach((r, k) => {
    if (r.index !== k) throw new Error(`${exp.name}: result ${k} is for point ${r.index}`);
  });
  const report = exp.assemble(
    params,
    points,
    runs.map((r) => r.result),
  );
  return {
    format: RESULT_FORMAT,
    experiment: exp.name,
    summary: exp.summary,
    source: exp.source,
    method: exp.method,
    params: toJson(params),
    points: runs.map((r) => ({ index: r.index, point: toJson(points[r.index]), result: r.result })),
    report: toJson(report) as unknown as Report,
  };
}

export function plotFileName(experiment: string, plotId: string): string {
  return plotId ? `${experiment}.${plotId}.svg` : `${experiment}.svg`;
}

export interface RunInfo {
  readonly wallMs: number;
  readonly jobs: number;
  /** Sum of the points' wall times, ms. */
  readonly pointWallMs: number;
  readonly slowestPointMs: number;
  readonly shards?: number;
}

/** Write <name>.json, the SVG plots and <name>.run.json into dir; returns the paths written. */
export function writeResult(dir: string, result: ExperimentResult, info: RunInfo): string[] {
  ensureDirectory(dir, '--out');
  const files: string[] = [];
  const main = join(dir, `${result.experiment}.json`);
  writeAtomic(main, jsonText(result));
  files.push(main);
  for (const p of result.report.plots) {
    const f = join(dir, plotFileName(result.experiment, p.id));
    writeAtomic(f, linePlot({ title: p.title, xLabel: p.xLabel, yLabel: p.yLabel, xLog: p.xLog, yLog: p.yLog, series: p.series }));
    files.push(f);
  }
  const run = join(dir, `${result.experiment}.run.json`);
  writeAtomic(
    run,
    jsonText({
      experiment: result.experiment,
      ...info,
      cores: availableParallelism(),
      node: process.version,
      finishedAt: new Date().toISOString(),
    }),
  );
  files.push(run);
  return files;
}

export function shardFileName(experiment: string, shard: ShardSpec): string {
  return `${experiment}.shard-${shard.index}-of-${shard.count}.json`;
}

export function writeShard(dir: string, exp: AnyExperiment, params: unknown, shard: ShardSpec, runs: readonly PointRun[], timing: { wallMs: number; jobs: number }): string {
  ensureDirectory(dir, '--out');
  const points = exp.points(params);
  const file: ShardFile = {
    format: SHARD_FORMAT,
    experiment: exp.name,
    params: toJson(params),
    shard,
    totalPoints: points.length,
    points: runs.map((r) => ({ index: r.index, point: toJson(points[r.index]), result: r.result })),
    timing: { ...timing, pointWallMs: runs.map((r) => r.wallMs) },
  };
  const path = join(dir, shardFileName(exp.name, shard));
  writeAtomic(path, jsonText(file));
  return path;
}

const SHARD_RE = /^(.+)\.shard-(\d+)-of-(\d+)\.json$/;

export class MergeError extends Error {
  /** `usage`: the directory itself is wrong (exit 2), not its contents (exit 1). */
  constructor(
    message: string,
    readonly usage = false,
  ) {
    super(message);
    this.name = 'MergeError';
  }
}

export interface MergedExperiment {
  readonly exp: AnyExperiment;
  readonly params: unknown;
  readonly runs: PointRun[];
  readonly shardFiles: string[];
  /** Sum of the shards' wall times and the slowest shard, ms. */
  readonly shardWallMs: number;
  readonly slowestShardMs: number;
  readonly jobs: number;
}

/**
 * Read the shard files in dir (optionally only one experiment's) and combine
 * each experiment's shards into its full list of point results. Errors name
 * the file and the problem: mixed parameters or shard counts, a point whose
 * description differs from what this code generates, duplicate points with
 * different results, or missing shards.
 */
export function readShards(dir: string, only?: string): MergedExperiment[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    throw new MergeError(`cannot read directory '${dir}': ${reasonOf(e)}`, true);
  }
  const groups = new Map<string, { file: string; data: ShardFile }[]>();
  for (const f of names.sort()) {
    const m = SHARD_RE.exec(f);
    if (!m || (only && m[1] !== only)) continue;
    const path = join(dir, f);
    let data: ShardFile;
    try {
      data = JSON.parse(readFileSync(path, 'utf8')) as ShardFile;
    } catch (e) {
      throw new MergeError(`${path}: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    if (data.format !== SHARD_FORMAT) throw new MergeError(`${path}: format '${String(data.format)}' is not ${SHARD_FORMAT}`);
    const l = groups.get(data.experiment) ?? [];
    l.push({ file: path, data });
    groups.set(data.experiment, l);
  }
  if (groups.size === 0) throw new MergeError(`no shard files${only ? ` of ${only}` : ''} (*.shard-<i>-of-<N>.json) in '${dir}'`);
  const out: MergedExperiment[] = [];
  for (const [name, files] of groups) {
    const exp = findExperiment(name);
    if (!exp) throw new MergeError(`${files[0]!.file}: unknown experiment '${name}'`);
    const first = files[0]!;
    const paramText = JSON.stringify(first.data.params);
    const count = first.data.shard.count;
    const points = exp.points(first.data.params);
    if (first.data.totalPoints !== points.length) throw new MergeError(`${first.file}: ${first.data.totalPoints} points, but these parameters give ${points.length} (shard from another version?)`);
    const byIndex = new Map<number, { result: Json; wallMs: number }>();
    let shardWallMs = 0;
    let slowest = 0;
    let jobs = 0;
    for (const { file, data } of files) {
      if (JSON.stringify(data.params) !== paramText) throw new MergeError(`${file}: parameters differ from ${first.file}; merge shards of one run only`);
      if (data.shard.count !== count) throw new MergeError(`${file}: shard count ${data.shard.count} differs from ${first.file} (${count})`);
      shardWallMs += data.timing?.wallMs ?? 0;
      slowest = Math.max(slowest, data.timing?.wallMs ?? 0);
      jobs = Math.max(jobs, data.timing?.jobs ?? 0);
      data.points.forEach((p, j) => {
        if (!(Number.isInteger(p.index) && p.index >= 0 && p.index < points.length)) throw new MergeError(`${file}: point index ${p.index} is outside 0..${points.length - 1}`);
        if (JSON.stringify(p.point) !== JSON.stringify(toJson(points[p.index]))) throw new MergeError(`${file}: point ${p.index} is ${JSON.stringify(p.point)}, expected ${JSON.stringify(toJson(points[p.index]))}`);
        const prev = byIndex.get(p.index);
        if (prev && JSON.stringify(prev.result) !== JSON.stringify(p.result)) throw new MergeError(`${file}: point ${p.index} appears twice with different results`);
        byIndex.set(p.index, { result: p.result, wallMs: data.timing?.pointWallMs?.[j] ?? 0 });
      });
    }
    if (byIndex.size !== points.length) {
      const missing = points.map((_, k) => k).filter((k) => !byIndex.has(k));
      const missingShards = [...new Set(missing.map((k) => k % count))].sort((a, b) => a - b);
      throw new MergeError(
        `${name}: ${missing.length} of ${points.length} points missing (shards ${missingShards.map((i) => `${i}/${count}`).join(', ')} not found or incomplete in '${dir}')`,
      );
    }
    const runs = points.map((_, k) => ({ index: k, result: byIndex.get(k)!.result, wallMs: byIndex.get(k)!.wallMs }));
    out.push({ exp, params: first.data.params, runs, shardFiles: files.map((f) => f.file), shardWallMs, slowestShardMs: slowest, jobs: jobs || 1 });
  }
  return out.sort((a, b) => a.exp.name.localeCompare(b.exp.name));
}
