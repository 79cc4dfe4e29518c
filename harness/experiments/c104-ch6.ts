/**
 * c104-ch6: seed 004 Chapter 6 on the T9000/C104 TLM — Tables 6.1
 * (throughput) and 6.2 (routed lifetimes, Def. 5.3, data and acks) for the
 * standard setup, and θ_t / θ_r (Def. 6.1) against the throttled
 * contention-free "ideal" with the same workload (Figs 6.3–6.5); Figs 6.1/6.2's
 * statements (the async lifetime plateau absent from throughput).
 */
import { absoluteCheck, predicateCheck, rangeCheck, relativeCheck } from './c104-verdicts.ts';
import { condition, runStdPoint, STD_MODES, stdCost, stdLookup, stdParams, SYNC_LABEL, type StdParams, type StdPoint, type StdResult } from './c104-standard.ts';
import { rateTolerance } from './c104-ch5.ts';
import { defineExperiment, type ReportTable, type SeedCheck } from './types.ts';

/** Table 6.1 (§6.2.1): packets delivered per CPU per ms [globally, locally, asynchronous]. */
export const TABLE_6_1: Record<number, [number, number, number]> = {
  2: [45.9, 52.4, 52.4],
  10: [39.9, 47.6, 53.6],
  14: [36.8, 43.7, 52.0],
  18: [33.0, 39.2, 54.1],
  30: [24.3, 28.5, 33.3],
  100: [9.0, 9.7, 10.0],
};
/** Table 6.2 (§6.2.1): routed lifetimes, µs. */
export const TABLE_6_2: Record<number, [number, number, number]> = {
  2: [6.1, 9.3, 32.9],
  10: [5.0, 6.5, 32.8],
  14: [4.6, 5.5, 32.9],
  18: [4.3, 4.9, 16.7],
  30: [4.2, 3.8, 4.2],
  100: [4.1, 2.7, 2.8],
};
/** Figs 6.3–6.5 (§6.2.2.1) at c = 100 µs, percent. */
export const THETA_100 = { loosely: { t: 58, r: 94 }, 'async-blocking': { t: 91, r: 99 } } as const;

/** θ_t = T_ideal / T_achieved (routed lifetimes), θ_r = R_achieved / R_ideal (Def. 6.1), as percentages. */
export function theta(full: StdResult, ideal: StdResult): { t: number | null; r: number | null } {
  return {
    t: full.routedAll && ideal.routedAll ? (100 * ideal.routedAll) / full.routedAll : null,
    r: ideal.throughput > 0 ? (100 * full.throughput) / ideal.throughput : null,
  };
}

/** Figs 6.3–6.5's light-load border: "for c < 20" (µs). */
export const THETA_CROSS_C = 20;
/** Figs 6.3–6.5: async θ_r at least this (%) wherever no send is dropped ("insensitive to contention until saturation"). */
export const ASYNC_THETA_R = 99;

/**
 * Figs 6.3–6.5 "for c < 20 the effect on θ_r becomes enormous and overtakes the effect on θ_t", per synchronised
 * mode: θ_r above θ_t at c = 100 µs and below it at some c < 20 µs. Runs without both loads: no verdict.
 */
export function thetaCrossHolds(byC: ReadonlyMap<number, { t: number | null; r: number | null }>): boolean | null {
  const at100 = byC.get(100);
  const low = [...byC.entries()].filter(([c, th]) => c < THETA_CROSS_C && th.t !== null && th.r !== null);
  if (!at100 || at100.t === null || at100.r === null || low.length === 0) return null;
  return at100.r > at100.t && low.some(([, th]) => th.r! < th.t!);
}
/** Figs 6.3–6.5: every async θ_r at a point below saturation at least ASYNC_THETA_R (none: no verdict). */
export function asyncInsensitiveHolds(thetaRs: readonly number[]): boolean | null {
  return thetaRs.length ? thetaRs.every((r) => r >= ASYNC_THETA_R) : null;
}

/** §6.2.1's high loads, where Fig. 6.2's async plateau lies: c up to this (µs; "14 < c < 18" its sharpest rise). */
export const PLATEAU_MAX_C = 18;
/** Fig. 6.2's plateau edge: the async routed lifetimes over c ≤ PLATEAU_MAX_C span at least this factor ("approximately double"; seed 16.7 → 32.9 µs, ×1.97). */
export const PLATEAU_EDGE = 1.8;
/** Fig. 6.1 "simply not present" / "almost no change at all": the async throughputs over the same runs span under this (%; seed 52.0–54.1, 4.0%). */
export const FLAT_THROUGHPUT_PCT = 5;
/** §6.2.1 at the highest load: async and blocking throughputs "almost identical" (under this %, seed 0.0%) while their routed lifetimes differ "by a factor of over three". */
export const IDENTICAL_PCT = 5;
export const LIFETIME_FACTOR = 3;

export interface RateAndLifetime {
  readonly c: number;
  readonly throughput: number;
  readonly routed: number | null;
}
/**
 * Figs 6.1/6.2 (§6.2.1, docs/thesis-model.md#figs-61-62): over the async runs at c ≤ PLATEAU_MAX_C, where the routed
 * lifetime climbs onto its plateau (span at least PLATEAU_EDGE), the throughput spans under FLAT_THROUGHPUT_PCT. Fewer
 * than two such runs, or no climb of PLATEAU_EDGE among them: no verdict.
 */
export function plateauAbsentRule(points: readonly RateAndLifetime[]): { holds: boolean | null; measured: string } {
  const pts = points.filter((p) => p.c <= PLATEAU_MAX_C && p.routed !== null && p.throughput > 0).sort((a, b) => a.c - b.c);
  if (pts.length < 2) return { holds: null, measured: 'n/a' };
  const rs = pts.map((p) => p.routed!);
  const ts = pts.map((p) => p.throughput);
  const factor = Math.max(...rs) / Math.min(...rs);
  const span = 100 * (Math.max(...ts) / Math.min(...ts) - 1);
  const measured = `c = ${pts.map((p) => p.c).join(', ')} µs: routed lifetimes ${rs.map((r) => r.toFixed(2)).join(' / ')} µs (×${factor.toFixed(2)}), throughputs ${ts.map((t) => t.toFixed(1)).join(' / ')} (span ${span.toFixed(1)}%)`;
  return { holds: factor < PLATEAU_EDGE ? null : span < FLAT_THROUGHPUT_PCT, measured };
}
/** §6.2.1 at the highest load (a c below THETA_CROSS_C, else no verdict): async and blocking throughputs within IDENTICAL_PCT, routed lifetimes at least LIFETIME_FACTOR apart. */
export function highestLoadRule(asyncP: RateAndLifetime, blocking: RateAndLifetime): { holds: boolean | null; measured: string } {
  if (asyncP.routed === null || blocking.routed === null || blocking.throughput <= 0) return { holds: null, measured: 'n/a' };
  const apart = 100 * Math.abs(asyncP.throughput / blocking.throughput - 1);
  const factor = asyncP.routed / blocking.routed;
  const measured = `c = ${asyncP.c} µs: throughputs ${asyncP.throughput.toFixed(1)} / ${blocking.throughput.toFixed(1)} (${apart.toFixed(1)}% apart), routed lifetimes ${asyncP.routed.toFixed(2)} / ${blocking.routed.toFixed(2)} µs (×${factor.toFixed(2)})`;
  return { holds: asyncP.c >= THETA_CROSS_C ? null : apart < IDENTICAL_PCT && factor >= LIFETIME_FACTOR, measured };
}

function ch6Points(q: StdParams): StdPoint[] {
  const cs = q.quick ? [30, 100] : [2, 10, 14, 18, 30, 100];
  const out: StdPoint[] = [];
  for (const model of ['full', 'throttled'] as const) for (const cUs of cs) for (const mode of STD_MODES) out.push({ mode, model, cUs });
  return out;
}

function assembleCh6(q: StdParams, points: readonly StdPoint[], results: readonly StdResult[]) {
  const get = stdLookup(points, results);
  const cs = [...new Set(points.map((p) => p.cUs))].sort((a, b) => a - b);
  const checks: SeedCheck[] = [];
  const tables: ReportTable[] = [];
  const r61: (string | number | null)[][] = [];
  const r62: (string | number | null)[][] = [];
  const rth: (string | number | null)[][] = [];
  for (const c of cs) {
    const row1: (string | number | null)[] = [c];
    const row2: (string | number | null)[] = [c];
    const row3: (string | number | null)[] = [c];
    STD_MODES.forEach((m, i) => {
      const f = get(m, 'full', c)!;
      const id = get(m, 'throttled', c)!;
      row1.push(f.throughput, TABLE_6_1[c]?.[i] ?? null);
      row2.push(f.routedAll, TABLE_6_2[c]?.[i] ?? null);
      const th = theta(f, id);
      row3.push(th.t, th.r);
      const s61 = TABLE_6_1[c];
      if (s61) checks.push(relativeCheck(`t6.1-${m}-c${c}`, `Table 6.1: ${SYNC_LABEL[m]} packets delivered per CPU per ms at c = ${c} µs`, s61[i]!, f.throughput, rateTolerance(c), condition(f)));
      if (m === 'async' && c <= 14) checks.push(rangeCheck(`t6.2-async-plateau-c${c}`, `Table 6.2: asynchronous routed lifetime plateau at high load (c = ${c} µs)`, 30, 36, f.routedAll, ' µs', { converged: f.converged, dropped: 0 }));
      if (c === 100 && (m === 'loosely' || m === 'async-blocking')) {
        const s = THETA_100[m];
        const cond = { converged: f.converged && id.converged, dropped: 0 };
        checks.push(absoluteCheck(`theta-t-${m}-c100`, `Figs 6.3–6.5: θ_t for ${SYNC_LABEL[m]} at c = 100 µs (%)`, s.t, th.t, 5, ' pts', cond, 0));
        checks.push(absoluteCheck(`theta-r-${m}-c100`, `Figs 6.3–6.5: θ_r for ${SYNC_LABEL[m]} at c = 100 µs (%)`, s.r, th.r, 5, ' pts', cond, 0));
      }
    });
    r61.push(row1);
    r62.push(row2);
    rth.push(row3);
  }
  const thetaAt = (m: (typeof STD_MODES)[number]) => new Map(cs.map((c) => [c, theta(get(m, 'full', c)!, get(m, 'throttled', c)!)] as const));
  for (const m of ['loosely', 'async-blocking'] as const) {
    const byC = thetaAt(m);
    const text = [...byC.entries()].filter(([c]) => c < THETA_CROSS_C || c === 100).map(([c, th]) => `c = ${c}: θ_t ${th.t?.toFixed(0)} / θ_r ${th.r?.toFixed(0)}`).join(', ');
    checks.push(predicateCheck(`f6.3-theta-r-overtakes-${m}`, `Figs 6.3–6.5: for c < ${THETA_CROSS_C} µs the effect on θ_r overtakes the effect on θ_t (${SYNC_LABEL[m]})`, 'θ_r falls below θ_t', text || 'n/a', `holds if θ_r > θ_t at c = 100 µs and θ_r < θ_t at some c < ${THETA_CROSS_C} µs`, thetaCrossHolds(byC)));
  }
  const belowSat = cs.filter((c) => get('async', 'full', c)!.dropped === 0 && get('async', 'full', c)!.converged && get('async', 'throttled', c)!.converged);
  const asyncR = belowSat.map((c) => theta(get('async', 'full', c)!, get('async', 'throttled', c)!).r ?? NaN);
  checks.push(predicateCheck('f6.5-async-insensitive', 'Figs 6.3–6.5: asynchronous throughput is insensitive to contention until saturation', 'θ_r ≈ 100% below saturation', belowSat.map((c, i) => `c = ${c}: θ_r ${asyncR[i]!.toFixed(2)}%`).join(', ') || 'n/a', `holds if async θ_r is at least ${ASYNC_THETA_R}% at every c where no send is dropped`, asyncInsensitiveHolds(asyncR)));
  const rl = (m: (typeof STD_MODES)[number], c: number): RateAndLifetime => ({ c, throughput: get(m, 'full', c)!.throughput, routed: get(m, 'full', c)!.routedAll });
  const edge = plateauAbsentRule(cs.map((c) => rl('async', c)));
  checks.push(predicateCheck('f6.1-plateau-not-in-throughput', 'Figs 6.1/6.2: the asynchronous routed-lifetime plateau "is simply not present at all in the packet throughput response" (14 < c < 18: delivery times about double "with almost no change at all" in packets delivered)', 'c = 2–18 µs: lifetimes 16.7–32.9 µs (×1.97), throughputs 52.0–54.1 (span 4.0%)', edge.measured, `holds if, over the async runs at c ≤ ${PLATEAU_MAX_C} µs whose routed lifetimes span at least ×${PLATEAU_EDGE} (else no verdict), the throughputs span under ${FLAT_THROUGHPUT_PCT}%`, edge.holds));
  const top = highestLoadRule(rl('async', cs[0]!), rl('async-blocking', cs[0]!));
  checks.push(predicateCheck('f6.1-highest-load', 'Figs 6.1/6.2: at the highest load async and blocking throughputs are almost identical while their communication times differ by a factor of over three', 'c = 2 µs: 52.4 / 52.4, 32.9 / 9.3 µs (×3.5)', top.measured, `holds if, at the lowest c (under ${THETA_CROSS_C} µs, else no verdict), the two throughputs are under ${IDENTICAL_PCT}% apart and the routed lifetimes at least ×${LIFETIME_FACTOR}`, top.holds));
  tables.push({ title: 'Table 6.1: packets delivered per CPU per ms, full model', columns: ['c (µs)', 'Globally', 'seed', 'Locally', 'seed', 'Async', 'seed'], rows: r61, digits: [0, 1, 1, 1, 1, 1, 1] });
  tables.push({ title: 'Table 6.2: routed lifetimes (Def. 5.3, data and acks), µs, full model', columns: ['c (µs)', 'Globally', 'seed', 'Locally', 'seed', 'Async', 'seed'], rows: r62, digits: [0, 2, 1, 2, 1, 2, 1] });
  tables.push({ title: 'Def. 6.1: θ_t and θ_r (%) against the throttled contention-free ideal', columns: ['c (µs)', 'Glob. θ_t', 'θ_r', 'Loc. θ_t', 'θ_r', 'Async θ_t', 'θ_r'], rows: rth, digits: [0, 0, 0, 0, 0, 0, 0] });
  const series = STD_MODES.flatMap((m) => [
    { name: `θ_t ${SYNC_LABEL[m]}`, points: cs.map((c) => [c, theta(get(m, 'full', c)!, get(m, 'throttled', c)!).t ?? NaN] as const) },
    { name: `θ_r ${SYNC_LABEL[m]}`, dashed: true, points: cs.map((c) => [c, theta(get(m, 'full', c)!, get(m, 'throttled', c)!).r ?? NaN] as const) },
  ]);
  return {
    tables,
    checks,
    plots: [{ id: 'theta', title: 'Figs 6.3–6.5: θ_t and θ_r vs compute period', xLabel: 'compute period c (µs)', yLabel: '%', xLog: true, series }],
    notes: [
      'Ideal = throttled contention-free model with the same workload (same workload seed; §6.2.2). Routed lifetime = first internal DS-link output → complete delivery, mean over data and ack packets (spec §10 T-6.2).',
      `Stopping rule: ±${(q.precision * 100).toFixed(0)}% at 95% or ${(q.maxNs / 1e6).toFixed(0)} ms simulated; ${results.filter((r) => !r.converged).length} of ${results.length} points did not converge.`,
    ],
  };
}

export const c104Ch6 = defineExperiment<StdPoint, StdResult, StdParams>({
  name: 'c104-ch6',
  summary: 'seed 004 Tables 6.1, 6.2 and θ_t / θ_r, Figs 6.1–6.5 (T9000/C104 TLM, standard setup)',
  source: 'seed 004 §6.2, Tables 6.1, 6.2, Def. 6.1, Figs 6.1–6.5 (docs/sources.md, c104-t9000 §10–§11)',
  method: 'T9000/C104 packet-passing TLM; (16, 8, 1, c, 1, 32) × 3 synchronisation modes × full / throttled CF',
  options: ['seed'],
  params: (cli) => ({ ...stdParams(cli), maxNs: 50_000_000 }),
  points: ch6Points,
  cost: stdCost,
  runPoint: runStdPoint,
  assemble: assembleCh6,
});
