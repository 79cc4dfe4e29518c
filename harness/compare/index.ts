/**
 * harness/compare: joins event traces of two levels (RTL, TLM, analytic) per
 * message and reports the deviations (ARCHITECTURE.md "Three levels, one
 * workload, one trace vocabulary").
 *
 *   mapping.ts             explicit time mapping (A1: 1 tick = 4.5 cycles)
 *   stats.ts               mean, nearest-rank percentiles, extremes
 *   extract.ts             one side: events digested per message and packet
 *   join.ts                compareTraces: per-metric deviations B − A
 *   tolerance.ts           declared tolerances and their check (names metric and message)
 *   analytic.ts            zero-load closed forms (RTL in cycles, measured CU terms named; TLM in ticks)
 *   zero_load_workload.ts  one message at a time, every length at every distance
 *   rtl_run.ts             run a workload on the RTL cube until every message is complete
 *   presets.ts             zero-load, ch5-light, ch5-moderate
 *   report.ts              table (chalk), JSON written atomically
 */
export * from './mapping.ts';
export * from './stats.ts';
export * from './extract.ts';
export * from './join.ts';
export * from './tolerance.ts';
export * from './analytic.ts';
export * from './zero_load_workload.ts';
export * from './rtl_run.ts';
export * from './presets.ts';
export * from './report.ts';
