/**
 * c104-variability: seed 004 Figs 6.6–6.9 (§6.2.2.2) on the T9000/C104
 * TLM — the standard setup with the compute period drawn from a law of
 * mean c: constant, normal with σ = 10% or 50% of c (clamped at 0), or
 * negative-exponential; loosely synchronous and asynchronous blocking;
 * full model and the throttled contention-free ideal for θ (Def. 6.1).
 * Fig. 6.6: loosely, throughput falls as σ rises; σ = 0 and 10% give the
 * same low-load throughput but very different routed lifetimes.
 * Fig. 6.7: async blocking, no difference. Fig. 6.8: σ = 0, θ_t never
 * exceeds about 63%. Fig. 6.9: at light load σ = 0 has θ_r ≈ 90%, the
 * others ≈ 100%.
 */
import type { ContentionMode } from '../tlm/t9000-c104/index.ts';
import type { ValueLaw } from '../workloads/laws.ts';
import type { SyncMode } from '../workloads/process-program.ts';
import { standardSetup } from '../workloads/thesis-synthetic.ts';
import { absoluteCheck, predicateCheck } from './c104-verdicts.ts';
import { theta } from './c104-ch6.ts';
import { runStdSpec, stdCost, stdParams, SYNC_LABEL, type StdParams, type StdResult } from './c104-standard.ts';
import { defineExperiment, type ReportTable, type SeedCheck } from './types.ts';

export type CLaw = 'constant' | 'normal-10' | 'normal-50' | 'exp';
export const C_LAWS: readonly CLaw[] = ['constant', 'normal-10', 'normal-50', 'exp'];
const LAW_LABEL: Record<CLaw, string> = { constant: 'σ = 0', 'normal-10': 'σ = 10%', 'normal-50': 'σ = 50%', exp: 'neg. exp.' };

export function computeLaw(law: CLaw, cUs: number): ValueLaw {
  if (law === 'constant') return { law: 'constant', value: cUs };
  if (law === 'exp') return { law: 'exp', mean: cUs };
  return { law: 'normal', mean: cUs, sd: (law === 'normal-10' ? 0.1 : 0.5) * cUs };
}

/** "Same" throughput / "no difference": within this relative band. */
export const SAME = 0.03;
/** "Very different" lifetimes: differ by at least this share. */
export const DIFFERENT = 0.2;
/** Fig. 6.8: θ_t for σ = 0 never exceeds about 63% (+ this many points). */
export const THETA_T_CAP = 63;
export const THETA_T_SLACK = 5;
/** Fig. 6.9 light load: σ = 0 θ_r ≈ 90 ± 5; the others ≈ 100 (at least 95). */
export const THETA_R_LIGHT = 90;
export const THETA_R_TOL = 5;
export const THETA_R_NEAR_FULL = 95;

export interface VarPoint {
  readonly mode: SyncMode;
  readonly law: CLaw;
  readonly model: ContentionMode;
  readonly cUs: number;
}

function points(q: StdParams): VarPoint[] {
  // --quick: the light load only (c = 100 µs, where Figs 6.8/6.9's light-load statements are made).
  const cs = q.quick ? [100] : [2, 10, 30, 100];
  const out: VarPoint[] = [];
  for (const mode of ['loosely', 'async-blocking'] as SyncMode[]) for (const law of C_LAWS) for (const model of ['full', 'throttled'] as ContentionMode[]) for (const cUs of cs) out.push({ mode, law, model, cUs });
  return out;
}

function runPoint(p: VarPoint, q: StdParams): StdResult {
  return runStdSpec({ ...standardSetup(p.cUs, p.mode, q.seed), c: computeLaw(p.law, p.cUs) }, p.model, q);
}

/** A measured rate with its 95% confidence half-width. */
export interface RateCI {
  readonly rate: number;
  readonly ci: number;
}

/** 95% half-width of the difference of two independent means: √(h₁² + h₂²). */
export function diffCI(a: RateCI, b: RateCI): number {
  return Math.hypot(a.ci, b.ci);
}

/**
 * Fig. 6.6 "falls as σ rises": in law order (σ = 0, 10%, 50%, exp.) no rate
 * is above the previous one by more than the 95% interval of their
 * difference, and the exp. rate is below σ = 0's by more than that interval
 * (each point carries its own ±1% interval, so a fixed 1% allowance was
 * narrower than the difference of two points can resolve:
 * docs/thesis-model.md#figs-6669).
 */
export function fallsWithSigma(r: readonly RateCI[]): boolean {
  const first = r[0]!;
  const last = r[r.length - 1]!;
  return r.every((x, i) => i === 0 || x.rate - r[i - 1]!.rate <= diffCI(x, r[i - 1]!)) && first.rate - last.rate > diffCI(first, last);
}

/** Largest relative spread (max/min − 1) of a list of positive values. */
export function relSpread(xs: readonly number[]): number {
  return Math.max(...xs) / Math.min(...xs) - 1;
}

function assemble(q: StdParams, pts: readonly VarPoint[], res: readonly StdResult[]) {
  const m = new Map(pts.map((p, k) => [`${p.mode}/${p.law}/${p.model}/${p.cUs}`, res[k]!]));
  const get = (mode: SyncMode, law: CLaw, model: ContentionMode, c: number) => m.get(`${mode}/${law}/${model}/${c}`)!;
  const cs = [...new Set(pts.map((p) => p.cUs))].sort((a, b) => a - b);
  const light = cs[cs.length - 1]!;
  const tables: ReportTable[] = (['loosely', 'async-blocking'] as SyncMode[]).map((mode) => ({
    title: `Figs 6.6–6.9: ${SYNC_LABEL[mode]}, rate per CPU per ms / routed lifetime µs / θ_t % / θ_r % by compute-period law`,
    columns: ['c (µs)', ...C_LAWS.flatMap((l) => [`${LAW_LABEL[l]} rate`, 'routed', 'θ_t', 'θ_r'])],
    rows: cs.map((c) => [c, ...C_LAWS.flatMap((l) => { const f = get(mode, l, 'full', c); const th = theta(f, get(mode, l, 'throttled', c)); return [f.throughput, f.routedAll, th.t, th.r]; })]),
    digits: [0, ...C_LAWS.flatMap(() => [1, 2, 0, 0])],
  }));
  const checks: SeedCheck[] = [];
  const rates = (mode: SyncMode, c: number) => C_LAWS.map((l) => get(mode, l, 'full', c).throughput);
  const withCI = (c: number) => C_LAWS.map((l) => { const f = get('loosely', l, 'full', c); return { rate: f.throughput, ci: f.ciHalfWidth }; });
  const fallsAt = cs.map((c) => ({ c, ok: fallsWithSigma(withCI(c)), r: withCI(c) }));
  checks.push(predicateCheck('f6.6-falls', 'Fig. 6.6: loosely synchronous, throughput falls as σ rises', 'falls', fallsAt.map((x) => `c = ${x.c}: ${x.r.map((v) => `${v.rate.toFixed(2)}±${v.ci.toFixed(2)}`).join(' / ')} ${x.ok ? 'falls' : 'does not'}`).join('; '), 'holds if at every c no law\'s rate (σ = 0, 10%, 50%, exp.) is above the previous one\'s by more than the 95% interval of their difference, and the exp. rate is below σ = 0\'s by more than it', fallsAt.every((x) => x.ok)));
  const c0 = get('loosely', 'constant', 'full', light);
  const c10 = get('loosely', 'normal-10', 'full', light);
  const sameRate = Math.abs(c10.throughput / c0.throughput - 1);
  const lifeDiff = c0.routedAll && c10.routedAll ? Math.abs(c10.routedAll / c0.routedAll - 1) : NaN;
  checks.push(predicateCheck('f6.6-same-rate-different-life', `Fig. 6.6: σ = 0 and 10% give the same low-load throughput but very different routed lifetimes (c = ${light} µs)`, 'same rate, different lifetimes', `rates differ ${(100 * sameRate).toFixed(1)}%, routed lifetimes ${c0.routedAll?.toFixed(2)} vs ${c10.routedAll?.toFixed(2)} µs (${(100 * lifeDiff).toFixed(0)}%)`, `holds if the rates are within ${100 * SAME}% and the lifetimes differ by at least ${100 * DIFFERENT}%`, sameRateDifferentLife(sameRate, lifeDiff)));
  const blockSpread = Math.max(...cs.map((c) => relSpread(rates('async-blocking', c))));
  checks.push(predicateCheck('f6.7-no-difference', 'Fig. 6.7: async blocking, the compute-period law makes no difference to throughput', 'no difference', `largest spread over the laws ${(100 * blockSpread).toFixed(1)}% (c = ${cs.join(', ')} µs)`, `holds if the rates of the four laws are within ${100 * SAME}% of each other at every c`, blockSpread <= SAME));
  const tt = cs.map((c) => theta(get('loosely', 'constant', 'full', c), get('loosely', 'constant', 'throttled', c)).t ?? NaN);
  checks.push(predicateCheck('f6.8-theta-t-cap', 'Fig. 6.8: loosely synchronous σ = 0, θ_t approaches but never exceeds about 63%', '≤ 63%', `θ_t ${tt.map((x) => x.toFixed(0)).join(', ')}% (c = ${cs.join(', ')} µs)`, `holds if θ_t is at most ${THETA_T_CAP + THETA_T_SLACK}% at every c`, thetaTCapHolds(tt)));
  const trL = (law: CLaw) => theta(get('loosely', law, 'full', light), get('loosely', law, 'throttled', light)).r;
  const cond = { converged: c0.converged && get('loosely', 'constant', 'throttled', light).converged, dropped: 0 };
  checks.push(absoluteCheck('f6.9-theta-r-sigma0', `Fig. 6.9: at light load (c = ${light} µs) σ = 0 loses about 10% (θ_r ≈ 90%)`, THETA_R_LIGHT, trL('constant'), THETA_R_TOL, ' pts', cond, 0));
  const others = (['normal-10', 'normal-50', 'exp'] as CLaw[]).map((l) => trL(l) ?? NaN);
  checks.push(predicateCheck('f6.9-theta-r-others', `Fig. 6.9: at light load (c = ${light} µs) the other laws have θ_r ≈ 100%`, '≈ 100%', others.map((x) => `${x.toFixed(1)}%`).join(', '), `holds if every one is at least ${THETA_R_NEAR_FULL}%`, othersNearFull(others)));
  return {
    tables,
    checks,
    plots: [
      {
        id: 'rates',
        title: 'Figs 6.6/6.7: rate vs c by compute-period law',
        xLabel: 'mean compute period c (µs)',
        yLabel: 'messages per CPU per ms',
        xLog: true,
        series: (['loosely', 'async-blocking'] as SyncMode[]).flatMap((mode) => C_LAWS.map((l) => ({ name: `${SYNC_LABEL[mode]} ${LAW_LABEL[l]}`, dashed: mode !== 'loosely', points: cs.map((c) => [c, get(mode, l, 'full', c).throughput] as const) }))),
      },
    ],
    notes: [`Normal laws clamp at 0 (docs/thesis-model.md#figs-6669). Each point ±${(100 * q.precision).toFixed(0)}% or ${(q.maxNs / 1e6).toFixed(0)} ms; ${res.filter((r) => !r.converged).length} of ${res.length} did not converge.`],
  };
}

/** Fig. 6.6: rates within SAME of each other and routed lifetimes at least DIFFERENT apart (both relative). */
export function sameRateDifferentLife(rateGap: number, lifeGap: number): boolean {
  return rateGap <= SAME && lifeGap >= DIFFERENT;
}
/** Fig. 6.8: θ_t at most THETA_T_CAP + THETA_T_SLACK at every c. */
export function thetaTCapHolds(thetaT: readonly number[]): boolean {
  return thetaT.every((x) => x <= THETA_T_CAP + THETA_T_SLACK);
}
/** Fig. 6.9: every other law's θ_r at least THETA_R_NEAR_FULL. */
export function othersNearFull(thetaR: readonly number[]): boolean {
  return thetaR.every((x) => x >= THETA_R_NEAR_FULL);
}

export const c104Variability = defineExperiment<VarPoint, StdResult, StdParams>({
  name: 'c104-variability',
  summary: 'seed 004 Figs 6.6–6.9: compute-period laws (σ = 0, 10%, 50%, exp.) and θ (T9000/C104 TLM)',
  source: 'seed 004 §6.2.2.2, Figs 6.6–6.9 (docs/sources.md, c104-t9000 §11)',
  method: 'T9000/C104 packet-passing TLM; (16, 8, 1, c~law, 1, 32), loosely and blocking × full / throttled CF',
  options: ['seed'],
  params: stdParams,
  points,
  cost: stdCost,
  runPoint,
  assemble,
});
