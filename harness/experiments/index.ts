/**
 * Reproductions of the seeds' results (ARCHITECTURE.md "harness/experiments/:
 * one module per reproduced seed figure or table"), run by
 * `icemu experiment <name>` (harness/commands/experiment.ts).
 *
 *   types.ts          Experiment: deterministic JSON points → results → report (tables, seed checks, plots)
 *   registry.ts       the named experiments
 *   buzzard-ch5.ts    buzzard-fig5.12 … buzzard-fig5.15 (TLM)
 *   collisions.ts     buzzard-collisions (Eqs 5.1/5.2: exact enumeration and TLM)
 *   oliver-graphs.ts  oliver-graphs (Graphs 1–5 from the models)
 *   nbl-testjig.ts    nbl-testjig (Littlefield's f(L) jig on the RTL Buzzard node)
 *   runner.ts         parallel points (worker threads), --shard i/N
 *   worker.mjs, worker-main.ts   the worker thread
 *   output.ts         result / shard / run files (atomic), merge
 *   report.ts         text rendering
 *   svg.ts            self-contained SVG line plots
 */
export * from './types.ts';
export * from './registry.ts';
export * from './runner.ts';
export * from './output.ts';
export * from './report.ts';
export * from './svg.ts';
