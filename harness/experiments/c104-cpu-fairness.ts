/**
 * c104-cpu-fairness: seed 004 Fig. 4.1 (§4.1.3) on the T9000/C104 TLM's
 * CPU model — k processes on one T9000, each looping on compute(period):
 * "the total work completed is constant as we change the number of
 * processes, and represents a perfect 100% cpu load. Fairness is reflected
 * in the fact that for any given run, all processes complete precisely the
 * same amount of work per ms", and the same "with a larger or smaller
 * compute period (… substantially smaller or greater than, or close to, the
 * scheduler's constant timeslice interval)". Per-process shares with time
 * slicing and without, and (not a seed statement, reported) a short and a
 * long loop on one CPU, where FIFO and time slicing share differently.
 * docs/thesis-model.md#time-slicing.
 */
import { runC104 } from '../tlm/t9000-c104/index.ts';
import { ComputeLoops } from '../workloads/compute-loops.ts';
import { predicateCheck } from './c104-verdicts.ts';
import { defineExperiment, type ExperimentCliValues, type ReportTable, type SeedCheck } from './types.ts';

/** The quantum: the seed gives none (docs/thesis-model.md#time-slicing); Fig. 4.1's own period, so that its run is the "close to" case. */
export const QUANTUM_NS = 1000;
/** "A perfect 100% cpu load": the CPU's idle time at most 1 ns per ms. */
export const FULL_LOAD = 1 - 1e-6;
/** Fig. 4.1's period and the others of the repeat, relative to the quantum: substantially smaller, close (below, equal, above), substantially greater. */
const PERIODS = [100, 900, 1000, 1100, 10_000];
const KS = [1, 2, 3, 4, 5, 6, 8, 10, 16];
/** The contrast (not a seed statement): a 1 µs and a 10 µs loop on one CPU. */
export const MIXED = [1000, 10_000];

export interface FairPoint {
  /** Fig. 4.1's equal loops, or the contrast. */
  readonly kind: 'fig4.1' | 'mixed';
  /** Compute periods of the k loops (all equal for Fig. 4.1; MIXED for the contrast). */
  readonly periodsNs: readonly number[];
  /** 0 = no time slicing. */
  readonly quantumNs: number;
}
export interface FairParams {
  readonly quick: boolean;
  readonly windowNs: number;
}
export interface FairResult {
  readonly cpuNs: number[];
  readonly iterations: number[];
}

/** The scheduling unit: how much CPU one process can take before another gets the CPU. */
export function schedulingUnit(periodNs: number, quantumNs: number): number {
  return quantumNs > 0 ? Math.min(quantumNs, periodNs) : periodNs;
}

/** Fig. 4.1's figures of one run over a window: total CPU share, and the spread of the per-process iterations and CPU time. */
export function shares(r: FairResult, windowNs: number) {
  const total = r.cpuNs.reduce((a, x) => a + x, 0) / windowNs;
  const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
  return { total, iterationSpread: spread(r.iterations), cpuSpreadNs: spread(r.cpuNs) };
}

/** "A perfect 100% cpu load": the total CPU share at least FULL_LOAD (the rule of the f4.1-full-load checks). */
export function fullLoad(total: number): boolean {
  return total >= FULL_LOAD;
}

/**
 * "The total work completed is constant as we change the number of processes": the k loops complete the
 * window's worth of iterations, less at most one in progress per loop at the window's end.
 */
export function totalWorkConstant(totalIterations: number, k: number, periodNs: number, windowNs: number): boolean {
  const full = Math.floor(windowNs / periodNs);
  return totalIterations <= full && totalIterations >= full - k;
}

/**
 * "All processes complete precisely the same amount of work": over a finite window the completed
 * iterations may differ by the one in progress at its end, the CPU time by one scheduling unit.
 */
export function equalShares(s: { iterationSpread: number; cpuSpreadNs: number }, unitNs: number): boolean {
  return s.iterationSpread <= 1 && s.cpuSpreadNs <= unitNs;
}

function points(q: FairParams): FairPoint[] {
  const periods = q.quick ? [100, 1000, 10_000] : PERIODS;
  const ks = q.quick ? [1, 2, 3, 16] : KS;
  const out: FairPoint[] = [];
  for (const k of ks) out.push({ kind: 'fig4.1', periodsNs: Array(k).fill(1000), quantumNs: 0 });
  for (const period of periods) for (const k of ks) out.push({ kind: 'fig4.1', periodsNs: Array(k).fill(period), quantumNs: QUANTUM_NS });
  for (const quantumNs of [0, QUANTUM_NS]) out.push({ kind: 'mixed', periodsNs: MIXED, quantumNs });
  return out;
}

function runPoint(p: FairPoint, q: FairParams): FairResult {
  const r = runC104(new ComputeLoops(p.periodsNs), { side: 2, timeSliceNs: p.quantumNs }, { fixedNs: q.windowNs, truncate: false });
  return { cpuNs: r.processWork.cpuNs, iterations: r.processWork.iterations };
}

const label = (quantumNs: number) => (quantumNs > 0 ? `quantum ${quantumNs} ns` : 'no time slicing');

function assemble(q: FairParams, pts: readonly FairPoint[], res: readonly FairResult[]) {
  const ms = q.windowNs / 1e6;
  const fig = pts.map((p, i) => ({ p, r: res[i]! })).filter(({ p }) => p.kind === 'fig4.1');
  const cases = [...new Set(fig.map(({ p }) => `${p.periodsNs[0]}/${p.quantumNs}`))];
  const checks: SeedCheck[] = [];
  const rows: (string | number | null)[][] = [];
  for (const key of cases) {
    const [period, quantum] = key.split('/').map(Number) as [number, number];
    const runs = fig.filter(({ p }) => p.periodsNs[0] === period && p.quantumNs === quantum);
    const unit = schedulingUnit(period, quantum);
    const measured = runs.map(({ p, r }) => ({ k: p.periodsNs.length, r, s: shares(r, q.windowNs) }));
    for (const { k, r, s } of measured) {
      const it = r.iterations.map((x) => x / ms);
      rows.push([period, quantum || null, k, 100 * s.total, r.iterations.reduce((a, x) => a + x, 0) / ms, Math.min(...it), Math.max(...it), s.cpuSpreadNs]);
    }
    const where = `compute(${period} ns), ${label(quantum)}`;
    const worstTotal = Math.min(...measured.map((m) => m.s.total));
    const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
    const constant = measured.every((m) => totalWorkConstant(sum(m.r.iterations), m.k, period, q.windowNs));
    checks.push(predicateCheck(`f4.1-full-load-p${period}-q${quantum}`, `Fig. 4.1: the total work is constant in the number of processes and a perfect 100% CPU load (${where})`, '100% for every k', `lowest total CPU share ${(100 * worstTotal).toFixed(5)}% over k = ${measured.map((m) => m.k).join(', ')}`, `holds if the CPU is busy at least ${(100 * FULL_LOAD).toFixed(4)}% of the ${ms} ms window at every k and the k loops complete the window's iterations less at most k in progress`, fullLoad(worstTotal) && constant));
    const worst = measured.reduce((a, m) => (m.s.iterationSpread > a.s.iterationSpread || m.s.cpuSpreadNs > a.s.cpuSpreadNs ? m : a));
    checks.push(predicateCheck(`f4.1-equal-p${period}-q${quantum}`, `Fig. 4.1: all processes complete precisely the same amount of work per ms (${where})`, 'equal shares', `widest spread at k = ${worst.k}: ${worst.s.iterationSpread} iterations, ${worst.s.cpuSpreadNs} ns of CPU in ${ms} ms`, `holds if at every k the processes' completed iterations differ by at most 1 (the one in progress at the window's end) and their CPU time by at most one scheduling unit (${unit} ns)`, measured.every((m) => equalShares(m.s, unit))));
  }
  const tables: ReportTable[] = [
    {
      title: `Fig. 4.1: k compute loops on one T9000, ${ms} ms window`,
      columns: ['period (ns)', 'quantum (ns)', 'k', 'CPU busy %', 'iterations per ms, total', 'per process, least', 'per process, most', 'CPU spread (ns)'],
      rows,
      digits: [0, 0, 0, 4, 1, 1, 1, 0],
    },
    {
      title: `Not a seed statement: a ${MIXED[0]} ns and a ${MIXED[1]} ns loop on one CPU, FIFO vs time slicing (per-process CPU share and iterations per ms)`,
      columns: ['scheduling', 'short loop CPU %', 'long loop CPU %', 'short loop iterations per ms', 'long loop iterations per ms'],
      rows: pts.flatMap((p, i) => (p.kind === 'mixed' ? [[label(p.quantumNs), ...res[i]!.cpuNs.map((x) => (100 * x) / q.windowNs), ...res[i]!.iterations.map((x) => x / ms)]] : [])),
      digits: [0, 2, 2, 1, 1],
    },
  ];
  return {
    tables,
    checks,
    plots: [
      {
        id: 'fig4.1',
        title: 'Fig. 4.1: compute(1000 ns) loops on one T9000: work per ms, total and per process',
        xLabel: 'processes k',
        yLabel: 'iterations per ms',
        series: [0, QUANTUM_NS].flatMap((quantum) => {
          const runs = fig.filter(({ p }) => p.periodsNs[0] === 1000 && p.quantumNs === quantum);
          const at = (f: (xs: number[]) => number) => runs.map(({ p, r }) => [p.periodsNs.length, f(r.iterations) / ms] as const);
          return [
            { name: `total, ${label(quantum)}`, points: at((xs) => xs.reduce((a, x) => a + x, 0)) },
            { name: `least per process, ${label(quantum)}`, dashed: true, points: at((xs) => Math.min(...xs)) },
            { name: `most per process, ${label(quantum)}`, dashed: true, points: at((xs) => Math.max(...xs)) },
          ];
        }),
      },
    ],
    notes: [
      `The seed gives no quantum; ${QUANTUM_NS} ns (Fig. 4.1's period) is icemu's, so the periods ${PERIODS.join(', ')} ns are substantially smaller, close to and substantially greater than it. The TLM's smallest grid is 2×2: the loops run on processor 0, the others idle.`,
      'Per process: CPU time (the slice running at the window\'s end counted up to it) and iterations completed, from time 0 (no warm-up: the loops are in steady state from the start).',
    ],
  };
}

export const c104CpuFairness = defineExperiment<FairPoint, FairResult, FairParams>({
  name: 'c104-cpu-fairness',
  summary: 'seed 004 Fig. 4.1: per-process CPU shares of k compute loops on one T9000, with and without time slicing (T9000/C104 TLM)',
  source: 'seed 004 §3.5.3, §4.1.3, Fig. 4.1 (docs/sources.md, c104-t9000 §2)',
  method: 'T9000/C104 TLM CPU model (FIFO run queue, optional time slicing); k compute(period) loops, fixed window',
  options: [],
  params: (cli: ExperimentCliValues) => ({ quick: cli.quick, windowNs: 10_000_000 }),
  points,
  cost: (p) => p.periodsNs.length / Math.min(...p.periodsNs),
  runPoint,
  assemble,
});
