/**
 * Running an experiment's points: in this process, or in parallel on a pool
 * of worker threads (one per core by default), optionally only one shard of
 * them (`--shard i/N`: every N-th point starting at i) for a batch scheduler;
 * and merging shard files back into the full result.
 *
 * Workers: node:worker_threads running harness/experiments/worker.mjs, which
 * registers tsx's ESM loader (as bin/icemu.mjs does) and imports
 * worker-main.ts. That works whether the parent itself runs under `tsx`,
 * under bin/icemu.mjs or inside vitest. Each worker rebuilds the point list
 * from the run parameters and answers "run point k" requests; the parent
 * hands out points longest-first (Experiment.cost) and collects results by
 * index, so the result does not depend on the number of workers or on
 * scheduling.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { toJson, type AnyExperiment, type Json } from './types.ts';

export interface ShardSpec {
  /** 0-based shard index i. */
  readonly index: number;
  /** Shard count N. */
  readonly count: number;
}

/** Parse "i/N" (0 ≤ i < N, 1 ≤ N ≤ 100000); throws RangeError naming the flag. */
export function parseShard(s: string): ShardSpec {
  const m = /^(\d+)\/(\d+)$/.exec(s.trim());
  if (!m) throw new RangeError(`--shard must look like i/N with 0 <= i < N, e.g. 0/4 (got '${s}')`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (!(count >= 1 && count <= 100_000)) throw new RangeError(`--shard: N must be in 1..100000 (got '${s}')`);
  if (!(index < count)) throw new RangeError(`--shard: i must be in 0..${count - 1} for N = ${count} (got '${s}')`);
  return { index, count };
}

/** Indices of the points a shard runs: i, i + N, i + 2N, … below total (all when no shard). */
export function shardIndices(total: number, shard?: ShardSpec): number[] {
  const out: number[] = [];
  const start = shard?.index ?? 0;
  const step = shard?.count ?? 1;
  for (let k = start; k < total; k += step) out.push(k);
  return out;
}

export interface PointRun {
  readonly index: number;
  readonly result: Json;
  /** Wall time of the point, ms (not part of the result). */
  readonly wallMs: number;
}

export interface RunOptions {
  /** Parallel workers; 1 runs in this process. Default: all cores. */
  readonly jobs?: number;
  /** Called after each point (for progress). */
  readonly onPoint?: (done: number, total: number, run: PointRun) => void;
}

export function defaultJobs(): number {
  return Math.max(1, availableParallelism());
}

/** Run one point in this process (what a worker does too). */
export function runPointHere(exp: AnyExperiment, params: unknown, points: readonly unknown[], index: number): PointRun {
  const p = points[index];
  if (p === undefined) throw new RangeError(`${exp.name}: point ${index} is outside 0..${points.length - 1}`);
  const t0 = performance.now();
  const result = toJson(exp.runPoint(p, params));
  return { index, result, wallMs: performance.now() - t0 };
}

/** Order in which points are handed out: most expensive first (ties by index). */
export function schedule(exp: AnyExperiment, params: unknown, points: readonly unknown[], indices: readonly number[]): number[] {
  if (!exp.cost) return [...indices];
  const c = new Map(indices.map((k) => [k, exp.cost!(points[k], params)]));
  return [...indices].sort((a, b) => c.get(b)! - c.get(a)! || a - b);
}

/**
 * Run the given points (all by default) and return their results sorted by
 * index. With jobs > 1 and more than one point, a pool of worker threads runs
 * them in parallel.
 */
export async function runPoints(exp: AnyExperiment, params: unknown, indices?: readonly number[], opts: RunOptions = {}): Promise<PointRun[]> {
  const points = exp.points(params);
  const todo = schedule(exp, params, points, indices ?? points.map((_, k) => k));
  const jobs = Math.max(1, Math.min(opts.jobs ?? defaultJobs(), todo.length));
  const out: PointRun[] = [];
  const total = todo.length;
  if (jobs <= 1) {
    for (const k of todo) {
      const r = runPointHere(exp, params, points, k);
      out.push(r);
      opts.onPoint?.(out.length, total, r);
    }
  } else {
    await runInWorkers(exp, params, todo, jobs, (r) => {
      out.push(r);
      opts.onPoint?.(out.length, total, r);
    });
  }
  return out.sort((a, b) => a.index - b.index);
}

interface WorkerReply {
  readonly index: number;
  readonly result?: Json;
  readonly wallMs?: number;
  readonly error?: string;
}

function runInWorkers(exp: AnyExperiment, params: unknown, todo: readonly number[], jobs: number, onResult: (r: PointRun) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const queue = [...todo];
    const workers: Worker[] = [];
    let pending = todo.length;
    let failed = false;
    const fail = (e: Error): void => {
      if (failed) return;
      failed = true;
      for (const w of workers) void w.terminate();
      reject(e);
    };
    const next = (w: Worker): void => {
      const k = queue.shift();
      if (k === undefined) {
        void w.terminate();
        return;
      }
      w.postMessage({ index: k });
    };
    for (let j = 0; j < jobs; j++) {
      const w = new Worker(new URL('./worker.mjs', import.meta.url), { workerData: { experiment: exp.name, params: toJson(params) } });
      workers.push(w);
      w.on('message', (m: WorkerReply) => {
        if (failed) return;
        if (m.error !== undefined) return fail(new Error(`${exp.name}: point ${m.index} failed in a worker: ${m.error}`));
        onResult({ index: m.index, result: m.result ?? null, wallMs: m.wallMs ?? 0 });
        if (--pending === 0) {
          for (const x of workers) void x.terminate();
          resolve();
        } else next(w);
      });
      w.on('error', (e) => fail(e instanceof Error ? e : new Error(String(e))));
      w.on('exit', (code) => {
        if (!failed && pending > 0 && code !== 0 && code !== 1) fail(new Error(`${exp.name}: a worker exited with code ${code}`));
      });
      next(w);
    }
  });
}
