/**
 * Seeded, replayable workloads shared by the RTL, the TLM and the analytic
 * models (ARCHITECTURE.md "Three levels, one workload, one trace vocabulary").
 *
 *   rng.ts          Rng: the project's seeded generator (xoshiro128**), save/restore/hash
 *   types.ts        Workload, WorkloadMessage, validateWorkload, workloadHash, hops
 *   laws.ts         value laws (constant, exp, normal) and destination laws (uni, dpf, sl)
 *   buzzard.ts      seed 002 Chapter 5 (§10.3) and Chapter 4 (§10.1) generators, CH4_FIGURES, CH5_RATES
 *   littlefield.ts  seed 001 f(L) test jig (centre node exchanging with L/2 neighbours)
 *   trace-file.ts   explicit files: `time source destination length` per line
 *   process-program.ts  ProcessProgram: workloads as per-process loops (seed 004), SyncMode
 *   thesis-synthetic.ts seed 004 Definition 5.1 (D, d, n, c, m, M), destination window, mean path
 *   boundary-exchange.ts seed 004 Chapter 4 toroidal boundary exchange
 *   compute-loops.ts  seed 004 Fig. 4.1 compute loops on one processor (CPU fairness)
 */
export * from './rng.ts';
export * from './types.ts';
export * from './laws.ts';
export * from './buzzard.ts';
export * from './littlefield.ts';
export * from './trace-file.ts';
export * from './process-program.ts';
export * from './thesis-synthetic.ts';
export * from './boundary-exchange.ts';
export * from './compute-loops.ts';
