/**
 * c104-bursts: seed 004 Figs 6.10 and 6.11 (§6.3) on the T9000/C104 TLM —
 * the loosely synchronous workload (16, 8, n, c/n, 4/n, 32) for
 * n ∈ {1, 2, 4}: four messages per processor per cycle, sent as one burst
 * of m = 4/n per process (the seed's "m = n/4" contradicts its own
 * "n · m = 4" and tuple; the tuple is followed, docs/thesis-model.md#figs-610-611).
 * c is the per-processor compute period, each process computes c/n.
 * Fig. 6.10: m = 4 up to 30% below m = 1 at the heaviest load; at light
 * load larger m gives longer routed lifetimes; at heavy load m = 1's
 * lifetimes rise sharply below c ≈ 30 µs, the others' slowly.
 * (That rise is also checked with the per-process c/n on the axis,
 * docs/thesis-model.md#figs-610-611.)
 * Fig. 6.11: at 30 µs between packet injections per processor, m = 1 has
 * θ_r ≈ 100% and m = 4 θ_r ≈ 70%.
 */
import type { ContentionMode } from '../tlm/t9000-c104/index.ts';
import { standardSetup } from '../workloads/thesis-synthetic.ts';
import { absoluteCheck, predicateCheck } from './c104-verdicts.ts';
import { theta } from './c104-ch6.ts';
import { runStdSpec, stdCost, stdParams, type StdParams, type StdResult } from './c104-standard.ts';
import { defineExperiment, type ReportTable, type SeedCheck } from './types.ts';

export const BURST_N: readonly number[] = [1, 2, 4];
/** Fig. 6.10: "up to a 30% deficit", points, and its tolerance. */
export const DEFICIT = 30;
export const DEFICIT_TOL = 5;
/** Fig. 6.11: data packets injected per processor per ms at 30 µs between injections. */
export const INJECTION_30US = 1000 / 30;
export const THETA_M1 = 95;
export const THETA_M4 = 70;
export const THETA_M4_TOL = 5;
/** Fig. 6.10's "below about c = 30 µs", read on the per-process axis (c/n). */
export const PER_PROCESS_30 = 30;

/** Fig. 6.10 "m = 1 rises sharply, the others slowly": m = 1's rise factor above both others'. */
export function risesMost(m1: number, m2: number, m4: number): boolean {
  return m1 > m2 && m1 > m4;
}

export interface BurstPoint {
  /** Processes per processor; m = 4 / n messages per process per iteration. */
  readonly n: number;
  readonly model: ContentionMode;
  /** Per-processor compute period, µs. */
  readonly cUs: number;
}

function points(q: StdParams): BurstPoint[] {
  // --quick: the two loads that bracket Fig. 6.11's 30 µs between injections for every m.
  const cs = q.quick ? [60, 120] : [8, 15, 30, 60, 120, 200];
  const out: BurstPoint[] = [];
  for (const n of BURST_N) for (const model of ['full', 'throttled'] as ContentionMode[]) for (const cUs of cs) out.push({ n, model, cUs });
  return out;
}

function runPoint(p: BurstPoint, q: StdParams): StdResult {
  const base = standardSetup(p.cUs / p.n, 'loosely', q.seed);
  return runStdSpec({ ...base, n: p.n, m: { law: 'constant', value: 4 / p.n } }, p.model, q);
}

/** θ_r at a given injection rate, interpolated linearly between the measured points (sorted by rate); null outside them. */
export function thetaAt(pointsXY: readonly (readonly [number, number])[], x: number): number | null {
  const s = [...pointsXY].sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < s.length; i++) {
    const [x0, y0] = s[i - 1]!;
    const [x1, y1] = s[i]!;
    if (x >= x0 && x <= x1) return x1 === x0 ? y0 : y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
  }
  return null;
}

function assemble(q: StdParams, pts: readonly BurstPoint[], res: readonly StdResult[]) {
  const m = new Map(pts.map((p, k) => [`${p.n}/${p.model}/${p.cUs}`, res[k]!]));
  const get = (n: number, model: ContentionMode, c: number) => m.get(`${n}/${model}/${c}`)!;
  const cs = [...new Set(pts.map((p) => p.cUs))].sort((a, b) => a - b);
  const mOf = (n: number) => 4 / n;
  const tables: ReportTable[] = [
    {
      title: 'Figs 6.10/6.11: loosely synchronous (16, 8, n, c/n, 4/n, 32): rate per CPU per ms / routed lifetime µs / θ_r %',
      columns: ['c (µs)', ...BURST_N.flatMap((n) => [`m = ${mOf(n)} rate`, 'routed', 'θ_r'])],
      rows: cs.map((c) => [c, ...BURST_N.flatMap((n) => { const f = get(n, 'full', c); return [f.throughput, f.routedAll, theta(f, get(n, 'throttled', c)).r]; })]),
      digits: [0, 1, 2, 0, 1, 2, 0, 1, 2, 0],
    },
  ];
  const checks: SeedCheck[] = [];
  const deficits = cs.map((c) => 100 * (1 - get(1, 'full', c).throughput / get(4, 'full', c).throughput));
  const worst = Math.max(...deficits);
  checks.push(absoluteCheck('f6.10-deficit', `Fig. 6.10: m = 4 is up to 30% below m = 1 (largest deficit over c = ${cs.join(', ')} µs)`, DEFICIT, worst, DEFICIT_TOL, ' pts', undefined, 1));
  const light = cs[cs.length - 1]!;
  const lightLife = BURST_N.map((n) => get(n, 'full', light).routedAll ?? NaN);
  checks.push(predicateCheck('f6.10-light-bursts', `Fig. 6.10: at light load (c = ${light} µs) larger m gives longer routed lifetimes`, 'm = 4 > m = 2 > m = 1', `routed lifetimes m = 4 / 2 / 1: ${lightLife.map((x) => x.toFixed(2)).join(' / ')} µs`, 'holds if strictly decreasing from m = 4 to m = 1', lightBurstsOrdered(lightLife)));
  const heavy = cs[0]!;
  const life = (n: number, c: number) => get(n, 'full', c).routedAll ?? NaN;
  // The text's axis: c per processor, so "below about 30 µs" is c = 30 for every m.
  const rise = (n: number) => life(n, heavy) / life(n, 30);
  const hasThirty = cs.includes(30) && heavy < 30;
  checks.push(predicateCheck('f6.10-m1-rises', `Fig. 6.10: at heavy load m = 1's routed lifetime rises sharply below c ≈ 30 µs, the others' slowly (per-processor c = ${heavy} vs 30 µs)`, 'm = 1 rises most', hasThirty ? `rise m = 1: ×${rise(4).toFixed(2)}, m = 2: ×${rise(2).toFixed(2)}, m = 4: ×${rise(1).toFixed(2)}` : 'n/a (full run only)', 'holds if m = 1\'s rise from c = 30 µs to the heaviest load is larger than both others\'', hasThirty ? risesMost(rise(4), rise(2), rise(1)) : null));
  // The other reading (docs/thesis-model.md#figs-610-611): the axis as Definition 5.1's per-process c/n, so 30 µs is c = 30·n per processor.
  const riseP = (n: number) => life(n, heavy) / life(n, PER_PROCESS_30 * n);
  const hasP = BURST_N.every((n) => cs.includes(PER_PROCESS_30 * n)) && heavy < PER_PROCESS_30;
  checks.push(predicateCheck('f6.10-m1-rises-per-process', `Fig. 6.10, read with the per-process compute period c/n on the axis: m = 1's routed lifetime rises sharply below c/n ≈ 30 µs, the others' slowly (per-processor c = ${heavy} vs 30·n µs)`, 'm = 1 rises most', hasP ? `rise m = 1: ×${riseP(4).toFixed(2)}, m = 2: ×${riseP(2).toFixed(2)}, m = 4: ×${riseP(1).toFixed(2)}` : 'n/a (full run only)', 'holds if m = 1\'s rise from c/n = 30 µs to the heaviest load is larger than both others\'', hasP ? risesMost(riseP(4), riseP(2), riseP(1)) : null));
  const curve = (n: number) => cs.map((c) => { const f = get(n, 'full', c); return [f.throughput, theta(f, get(n, 'throttled', c)).r ?? NaN] as const; });
  const t1 = thetaAt(curve(4), INJECTION_30US);
  const t4 = thetaAt(curve(1), INJECTION_30US);
  checks.push(predicateCheck('f6.11-m1', 'Fig. 6.11: at 30 µs between packet injections (33.3 per processor per ms) m = 1 has θ_r ≈ 100%', '≈ 100%', t1 === null ? 'not bracketed by the measured rates' : `${t1.toFixed(1)}%`, `holds if at least ${THETA_M1}% (interpolated in the injection rate)`, m1NearFull(t1)));
  checks.push(absoluteCheck('f6.11-m4', 'Fig. 6.11: at 30 µs between packet injections m = 4 has θ_r ≈ 70%', THETA_M4, t4, THETA_M4_TOL, ' pts', undefined, 1));
  return {
    tables,
    checks,
    plots: [
      {
        id: 'theta-r',
        title: 'Fig. 6.11: θ_r vs packets injected per processor per ms',
        xLabel: 'data packets per processor per ms',
        yLabel: 'θ_r (%)',
        series: BURST_N.map((n) => ({ name: `m = ${mOf(n)} (n = ${n})`, points: curve(n) })),
      },
    ],
    notes: [`Each point ±${(100 * q.precision).toFixed(0)}% or ${(q.maxNs / 1e6).toFixed(0)} ms; ${res.filter((r) => !r.converged).length} of ${res.length} did not converge. Injection rate = data packets delivered per processor per ms (equal in steady state).`],
  };
}

/** Fig. 6.11: m = 1's interpolated θ_r at least THETA_M1 (not bracketed by the measured rates: no verdict). */
export function m1NearFull(thetaR: number | null): boolean | null {
  return thetaR === null ? null : thetaR >= THETA_M1;
}
/** Fig. 6.10 at light load: routed lifetimes strictly decreasing from m = 4 to m = 1 (given in that order). */
export function lightBurstsOrdered(life: readonly number[]): boolean {
  return life[0]! > life[1]! && life[1]! > life[2]!;
}

export const c104Bursts = defineExperiment<BurstPoint, StdResult, StdParams>({
  name: 'c104-bursts',
  summary: 'seed 004 Figs 6.10, 6.11: bursts of m = 4/n messages, (16, 8, n, c/n, 4/n, 32), θ_r vs injection rate (T9000/C104 TLM)',
  source: 'seed 004 §6.3, Figs 6.10, 6.11 (docs/sources.md, c104-t9000 §11)',
  method: 'T9000/C104 packet-passing TLM; loosely synchronous (16, 8, n, c/n, 4/n, 32), n = 1, 2, 4 × full / throttled CF',
  options: ['seed'],
  params: stdParams,
  points,
  cost: stdCost,
  runPoint,
  assemble,
});
