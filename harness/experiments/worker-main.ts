/**
 * Worker thread of the experiment runner (loaded by worker.mjs): rebuilds the
 * experiment's point list from the parameters it was started with, then runs
 * the points the parent asks for, one message per point.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { findExperiment } from './registry.ts';
import { runPointHere } from './runner.ts';

const { experiment, params } = workerData as { experiment: string; params: unknown };
const exp = findExperiment(experiment);
if (!exp) throw new Error(`worker: unknown experiment '${experiment}'`);
const points = exp.points(params);

parentPort!.on('message', (m: { index: number }) => {
  try {
    const r = runPointHere(exp, params, points, m.index);
    parentPort!.postMessage({ index: r.index, result: r.result, wallMs: r.wallMs });
  } catch (e) {
    parentPort!.postMessage({ index: m.index, error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
