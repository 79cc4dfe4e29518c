/**
 * c104-ch5: seed 004 Chapter 5 on the T9000/C104 TLM — the standard setup
 * (16, 8, 1, c, 1, 32) over c under the three synchronisation modes:
 * Table 5.1 (message rates), Table 5.2 (as % of the asynchronous rate),
 * Table 5.3 (lifetimes at saturation), the mean path (9.50 hops, §5.6) and
 * the statements of Figs 5.10–5.15 (full vs throttled contention-free vs
 * contention-free; transport and T9000 queue times). Verdict rules: harness/experiments/c104-verdicts.ts.
 */
import type { ContentionMode } from '../tlm/t9000-c104/index.ts';
import { absoluteCheck, predicateCheck, relativeCheck } from './c104-verdicts.ts';
import { condition, runStdPoint, STD_MODES, stdCost, stdLookup, stdParams, SYNC_LABEL, type StdParams, type StdPoint, type StdResult } from './c104-standard.ts';
import { defineExperiment, type ReportTable, type SeedCheck } from './types.ts';

/** Table 5.1 (§5.4.3), message rates per CPU per ms, full model. */
export const TABLE_5_1: Record<number, [number, number, number]> = {
  1: [46.4, 52.6, 53.4],
  2: [45.6, 52.1, 57.1],
  4: [44.1, 52.2, 57.4],
  8: [42.0, 49.0, 52.4],
  12: [38.2, 45.7, 58.1],
  16: [35.2, 41.3, 56.5],
  30: [24.3, 28.5, 33.3],
  60: [14.1, 15.8, 16.7],
  120: [7.6, 8.2, 8.3],
  200: [4.7, 4.9, 5.0],
};
/** Table 5.2 (§5.4.3), % of the asynchronous rate: [loosely, async-blocking]. */
export const TABLE_5_2: Record<number, [number, number]> = {
  1: [87, 98],
  2: [80, 91],
  4: [77, 91],
  8: [80, 93],
  12: [66, 77],
  16: [62, 73],
  20: [63, 74],
  30: [73, 85],
  60: [84, 96],
  120: [92, 98],
  200: [95, 99],
};
/** Table 5.3 (§5.6.1): lifetimes (µs) at saturation, async, from creation / first T9 output / first C104 output. */
/** Table 5.3's lifetimes as printed; the percentages derived from them (the printed 87% and 32% do not fit them). */
export const TABLE_5_3 = { creation: 111.6, firstT9: 87.0, firstC104: 32.2, pctT9: 78, pctC104: 29 };
/** Region "c = 0" of Figs 5.10–5.12 (µs). */
export const C_ZERO = 0.2;

/** Fig. 5.14's "throughput differs by at most 40%": lowest of the three rates ≥ (1 − 0.4) × highest. */
export const RATE_GAP = 0.4;
/** Fig. 5.15's "zero" queue time, µs (one 33-byte packet takes 3.3 µs to send). */
export const QUEUE_ZERO_US = 0.1;

/** Fig. 5.2's "always at 100% CPU": every async run busy at least this share of the window. */
export const CPU_FULL = 0.99;
/** Figs 5.13/5.14's "more than 700% longer": the async transport time above this multiple of the others'. */
export const LONGER = 8;
/** Fig. 5.10's "identical": contention-free and throttled CF rates at most this far apart at every c. */
export const IDENTICAL = 0.02;

/** Fig. 5.2: the lowest async CPU utilisation at least CPU_FULL (no runs: no verdict). */
export function asyncCpuHolds(cpu: readonly number[]): boolean | null {
  return cpu.length ? Math.min(...cpu) >= CPU_FULL : null;
}
/** Figs 5.13/5.14: every async / larger-other transport ratio above LONGER (no runs: no verdict). */
export function transportLongerHolds(ratios: readonly number[]): boolean | null {
  return ratios.length ? ratios.every((x) => x > LONGER) : null;
}
/** Fig. 5.14: every lowest/highest rate share at least 1 − RATE_GAP (no c < 15: no verdict). */
export function ratesCloseHolds(shares: readonly number[]): boolean | null {
  return shares.length ? shares.every((x) => x >= 1 - RATE_GAP) : null;
}
/** Fig. 5.10: the largest relative difference at most IDENTICAL (no ideal runs: no verdict). */
export function identicalHolds(worst: number, runs: number): boolean | null {
  return runs ? worst <= IDENTICAL : null;
}

/** Fig. 5.15 over the full-model runs: largest self-throttled queue time; the c of the async queue and transport peaks. */
export function queueRule(runs: readonly { mode: string; c: number; queue: number | null; transport: number | null }[]) {
  const self = runs.filter((r) => r.mode !== 'async').map((r) => r.queue ?? 0);
  const a = runs.filter((r) => r.mode === 'async' && r.queue !== null && r.transport !== null);
  const argmax = (k: 'queue' | 'transport') => (a.length ? a.reduce((b, r) => (r[k]! > b[k]! ? r : b)).c : null);
  return { selfMax: self.length ? Math.max(...self) : 0, queuePeak: argmax('queue'), transportPeak: argmax('transport') };
}

/** Fig. 5.3's "at low load synchronisation makes little difference": at the lightest load run, lowest rate / highest at least this (the seed's own Table 5.1 at c = 200 µs: 4.7 / 5.0 = 94%). */
export const LOW_LOAD_CLOSE = 0.9;
/** The lightest load the Fig. 5.3 rule reads: c of at least this (µs); a run without one gets no verdict. */
export const LOW_LOAD_C = 100;
/** Fig. 5.3: the lowest/highest rate share at the lightest load at least LOW_LOAD_CLOSE (no run at c ≥ LOW_LOAD_C: no verdict). */
export function lowLoadCloseHolds(share: number | null): boolean | null {
  return share === null ? null : share >= LOW_LOAD_CLOSE;
}

/** Fig. 5.1's async gap: the loads it is read at (c below this, µs: where the curves part) and the smallest gap, points. */
export const GAP_BELOW_C = 30;
export const GAP_MIN_PTS = 1;
/** Fig. 5.1 "a divergence … which persisted right up to the maximum load levels" (§5.4.3): every gap at least GAP_MIN_PTS (no c < GAP_BELOW_C: no verdict). */
export function asyncGapHolds(gapsPts: readonly number[]): boolean | null {
  return gapsPts.length ? gapsPts.every((g) => g >= GAP_MIN_PTS) : null;
}

/** Table 5.1 / 6.1 tolerance (issue 11): ±5% at c ≥ 30 µs, ±10% at c ≤ 16 µs (spec §14 item 13). */
export function rateTolerance(cUs: number): number {
  return cUs >= 30 ? 0.05 : 0.1;
}

function ch5Points(q: StdParams): StdPoint[] {
  // --quick: the c = 30 and 60 µs rows (16×16, converging within the quick cap); the full run has every row.
  const full = q.quick ? [30, 60] : [C_ZERO, 1, 2, 4, 8, 12, 16, 20, 30, 60, 120, 200];
  const ideal = q.quick ? [30] : [C_ZERO, 1, 2, 4, 8, 16, 30, 60, 120, 200];
  const out: StdPoint[] = [];
  for (const cUs of full) for (const mode of STD_MODES) out.push({ mode, model: 'full', cUs });
  for (const model of ['throttled', 'contention-free'] as ContentionMode[]) for (const cUs of ideal) for (const mode of STD_MODES) out.push({ mode, model, cUs });
  return out;
}

function assembleCh5(q: StdParams, points: readonly StdPoint[], results: readonly StdResult[]) {
  const get = stdLookup(points, results);
  const fullCs = [...new Set(points.filter((p) => p.model === 'full').map((p) => p.cUs))].sort((a, b) => a - b);
  const checks: SeedCheck[] = [];
  const tables: ReportTable[] = [];

  // Table 5.1
  const rows51: (string | number | null)[][] = [];
  for (const c of fullCs) {
    const seed = TABLE_5_1[c];
    const row: (string | number | null)[] = [c];
    STD_MODES.forEach((m, i) => {
      const r = get(m, 'full', c)!;
      row.push(r.throughput, seed ? seed[i]! : null);
      if (seed) checks.push(relativeCheck(`t5.1-${m}-c${c}`, `Table 5.1: ${SYNC_LABEL[m]} message rate at c = ${c} µs (per CPU per ms)`, seed[i]!, r.throughput, rateTolerance(c), condition(r)));
    });
    rows51.push(row);
  }
  tables.push({
    title: 'Table 5.1: message rates (per CPU per ms), full model — measured beside the seed',
    columns: ['c (µs)', 'Loosely', 'seed', 'Async blocking', 'seed', 'Async', 'seed'],
    rows: rows51,
    digits: [1, 1, 1, 1, 1, 1, 1],
  });

  // Table 5.2
  const rows52: (string | number | null)[][] = [];
  for (const c of fullCs) {
    const a = get('async', 'full', c)!;
    const seed = TABLE_5_2[c];
    const row: (string | number | null)[] = [c];
    (['loosely', 'async-blocking'] as const).forEach((m, i) => {
      const r = get(m, 'full', c)!;
      const pct = a.throughput > 0 ? (100 * r.throughput) / a.throughput : null;
      row.push(pct, seed ? seed[i]! : null);
      if (seed) checks.push(absoluteCheck(`t5.2-${m}-c${c}`, `Table 5.2: ${SYNC_LABEL[m]} rate as % of the asynchronous rate at c = ${c} µs`, seed[i]!, pct, 4, ' pts', { converged: r.converged && a.converged, dropped: 0 }, 0));
    });
    rows52.push(row);
  }
  // Table 5.2 against the seed's own asynchronous column (reported beside the rule above, not instead of it): at c ≤ 16 µs
  // the async rate is past saturation and the seed's scatters ±5% (docs/thesis-model.md#table-52-misses).
  for (const c of fullCs) {
    const seed = TABLE_5_2[c];
    const seedAsync = TABLE_5_1[c]?.[2];
    if (!seed || !seedAsync) continue;
    (['loosely', 'async-blocking'] as const).forEach((m, i) => {
      const r = get(m, 'full', c)!;
      checks.push(absoluteCheck(`t5.2-${m}-c${c}-seed-async`, `Table 5.2 over the seed's own Table 5.1 asynchronous rate (${seedAsync}): ${SYNC_LABEL[m]} at c = ${c} µs`, seed[i]!, (100 * r.throughput) / seedAsync, 4, ' pts', { converged: r.converged, dropped: 0 }, 0));
    });
  }
  tables.push({ title: 'Table 5.2: rate as % of the asynchronous rate, full model', columns: ['c (µs)', 'Loosely %', 'seed', 'Async blocking %', 'seed'], rows: rows52, digits: [1, 1, 0, 1, 0] });

  // Table 5.3: async at the highest load of the table (c = 1 µs), data and acks together (docs/thesis-model.md#table-53)
  const sat = get('async', 'full', 1);
  if (sat) {
    const cr = sat.allTransport;
    const t9 = sat.allLifetime;
    const rt = sat.allRouted;
    const pct = (x: number | null): number | null => (cr && x !== null ? (100 * x) / cr : null);
    tables.push({
      title: 'Table 5.3: average packet lifetimes at saturation (async, c = 1 µs), data and acks together, µs',
      columns: ['measured from', 'lifetime', '% of total', 'data only', 'acks only', 'seed lifetime', 'seed % (derived)'],
      rows: [
        ['creation', cr, 100, sat.dataTransport, sat.ackTransport, TABLE_5_3.creation, 100],
        ['first T9 output', t9, pct(t9), sat.dataLifetime, null, TABLE_5_3.firstT9, TABLE_5_3.pctT9],
        ['first C104 output', rt, pct(rt), sat.dataRouted, sat.ackRouted, TABLE_5_3.firstC104, TABLE_5_3.pctC104],
      ],
      digits: [0, 1, 0, 1, 1, 1, 0],
      notes: ['The seed prints 87% and 32% beside 87.0 and 32.2 of 111.6 µs; its own values give 78% and 29%, the targets here. Its lifetimes fit the mean over data and acks (Table 6.2\'s routed lifetime is that mean too), not data alone (docs/thesis-model.md#table-53).'],
    });
    const atSat = { converged: sat.converged, dropped: 0 };
    checks.push(relativeCheck('t5.3-creation', 'Table 5.3: lifetime from creation at saturation (data and acks), µs', TABLE_5_3.creation, cr, 0.1, atSat));
    checks.push(relativeCheck('t5.3-t9', 'Table 5.3: lifetime from first T9 output at saturation (data and acks), µs', TABLE_5_3.firstT9, t9, 0.1, atSat));
    checks.push(relativeCheck('t5.3-routed', 'Table 5.3: lifetime from first C104 output (routed lifetime) at saturation (data and acks), µs', TABLE_5_3.firstC104, rt, 0.1, atSat));
    checks.push(absoluteCheck('t5.3-pct-t9', 'Table 5.3: lifetime from first T9 output as % of lifetime from creation', TABLE_5_3.pctT9, pct(t9), 5, ' pts', atSat, 0));
    checks.push(absoluteCheck('t5.3-pct-c104', 'Table 5.3: routed lifetime as % of lifetime from creation', TABLE_5_3.pctC104, pct(rt), 5, ' pts', atSat, 0));
  }

  // Mean path (§5.6): mean over the full-model runs of the standard setup
  const hops = points.map((p, k) => (p.model === 'full' ? results[k]!.meanHops : null)).filter((x): x is number => x !== null);
  const meanHops = hops.length ? hops.reduce((a, x) => a + x, 0) / hops.length : null;
  checks.push(absoluteCheck('mean-hops', '§5.6: mean path over the standard-setup runs, DS-link hops (injection + internal + delivery)', 9.5, meanHops, 0.05, ' hops', undefined, 2));

  // Figs 5.1, 5.2, 5.13/5.14 (statements about the full-model runs)
  const full = points.map((p, k) => [p, results[k]!] as const).filter(([p]) => p.model === 'full');
  const maxNet = Math.max(...full.map(([, r]) => r.networkUtilisation));
  checks.push(absoluteCheck('f5.1-max-utilisation', 'Fig. 5.1: internal-link utilisation reaches a maximum of 50% of the network bandwidth', 50, 100 * maxNet, 5, '%', undefined, 1));
  // The second reading, reported beside the first, not instead of it: a link is in use from the crossbar connection to
  // the packet's tail, waits for room in the next input buffer included (docs/thesis-model.md#figs-51-510512).
  const maxConn = Math.max(...full.map(([, r]) => r.networkConnectedUtilisation));
  checks.push(absoluteCheck('f5.1-max-utilisation-connected', 'Fig. 5.1, links counted busy from their crossbar connection to the tail: maximum 50% of the network bandwidth', 50, 100 * maxConn, 5, '%', undefined, 1));
  // Fig. 5.1's async gap, in both readings of link utilisation: async minus the higher of the two synchronised modes.
  const gapCs = fullCs.filter((c) => c < GAP_BELOW_C);
  for (const [id, key, how] of [['f5.1-async-gap', 'networkUtilisation', ''], ['f5.1-async-gap-connected', 'networkConnectedUtilisation', ', links counted busy from their crossbar connection to the tail']] as const) {
    const gaps = gapCs.map((c) => 100 * (get('async', 'full', c)![key] - Math.max(get('loosely', 'full', c)![key], get('async-blocking', 'full', c)![key])));
    checks.push(predicateCheck(id, `Fig. 5.1${how}: the asynchronous workload's network utilisation stays above the synchronised ones' up to the highest load`, 'gap persists', gaps.map((g, i) => `c = ${gapCs[i]}: ${g.toFixed(1)}`).join(', ') || 'n/a', `holds if async exceeds the higher of the other two by at least ${GAP_MIN_PTS} point at every c < ${GAP_BELOW_C} µs`, asyncGapHolds(gaps)));
  }
  const asyncCpu = full.filter(([p]) => p.mode === 'async').map(([, r]) => r.cpuUtilisation);
  checks.push(predicateCheck('f5.2-async-cpu', 'Fig. 5.2: the non-blocking asynchronous workload is always at 100% CPU', '100%', asyncCpu.length ? `lowest ${(100 * Math.min(...asyncCpu)).toFixed(2)}%` : 'n/a', `holds if every async run is at ${100 * CPU_FULL}% CPU or more`, asyncCpuHolds(asyncCpu)));
  const longer = full.filter(([p]) => p.mode === 'async' && p.cUs >= 1 && p.cUs < 15).map(([p, r]) => {
    const others = STD_MODES.filter((m) => m !== 'async').map((m) => get(m, 'full', p.cUs)!.dataTransport ?? NaN);
    return { c: p.cUs, ratio: (r.dataTransport ?? NaN) / Math.max(...others) };
  });
  checks.push(predicateCheck('f5.13-transport', 'Figs 5.13/5.14: for c < 15 µs the asynchronous transport time is more than 700% longer than the other workloads\'', '> 8× (more than 700% longer)', longer.map((x) => `c = ${x.c}: ${x.ratio.toFixed(1)}×`).join(', ') || 'n/a', `holds if the async data transport time exceeds ${LONGER}× the larger of the other two at every c in [1, 15)`, transportLongerHolds(longer.map((x) => x.ratio))));

  const lowC = fullCs.filter((c) => c >= 1 && c < 15);
  const rateGap = lowC.map((c) => {
    const rates = STD_MODES.map((m) => get(m, 'full', c)!.throughput);
    return { c, share: Math.min(...rates) / Math.max(...rates) };
  });
  checks.push(predicateCheck('f5.14-rates-close', 'Figs 5.13/5.14 with Fig. 5.3: for c < 15 µs the throughputs of the three workloads differ by at most 40%', 'at most 40% (lowest ≥ 60% of highest)', rateGap.map((x) => `c = ${x.c}: ${(100 * x.share).toFixed(0)}%`).join(', ') || 'n/a', `holds if the lowest rate is at least ${100 * (1 - RATE_GAP)}% of the highest at every c in [1, 15)`, ratesCloseHolds(rateGap.map((x) => x.share))));
  const lightest = Math.max(...fullCs);
  const lightRates = lightest >= LOW_LOAD_C ? STD_MODES.map((m) => get(m, 'full', lightest)!.throughput) : [];
  const lightShare = lightRates.length ? Math.min(...lightRates) / Math.max(...lightRates) : null;
  checks.push(predicateCheck('f5.3-low-load', 'Fig. 5.3: at low load synchronisation makes little difference', `little difference (seed at c = 200 µs: 94%)`, lightShare === null ? 'n/a' : `c = ${lightest} µs: lowest rate ${(100 * lightShare).toFixed(1)}% of the highest`, `holds if at the lightest load run (c ≥ ${LOW_LOAD_C} µs) the lowest of the three rates is at least ${100 * LOW_LOAD_CLOSE}% of the highest`, lowLoadCloseHolds(lightShare)));
  const qr = queueRule(full.map(([p, r]) => ({ mode: p.mode, c: p.cUs, queue: r.dataQueue, transport: r.dataTransport })));
  checks.push(predicateCheck('f5.15-self-throttled', 'Fig. 5.15: T9000 queue time is zero for the self-throttled workloads (one outstanding packet per process)', '0', `largest loosely / blocking data queue time ${qr.selfMax.toFixed(3)} µs`, `holds if every loosely-synchronous and blocking run queues data at most ${QUEUE_ZERO_US} µs on average`, qr.selfMax <= QUEUE_ZERO_US));
  checks.push(predicateCheck('f5.15-async-peak', 'Fig. 5.15: for async, long queueing starts at the loads where transport time peaks', 'same load', `async queue time peaks at c = ${qr.queuePeak} µs, transport time at c = ${qr.transportPeak} µs`, 'holds if the async data queue time and data transport time are largest at the same c', qr.queuePeak === null ? null : qr.queuePeak === qr.transportPeak));

  // Figs 5.10–5.12
  const idealCs = [...new Set(points.filter((p) => p.model === 'throttled').map((p) => p.cUs))].sort((a, b) => a - b);
  let worst = 0;
  for (const c of idealCs) {
    const a = get('loosely', 'throttled', c);
    const b = get('loosely', 'contention-free', c);
    if (a && b && a.throughput > 0) worst = Math.max(worst, Math.abs(b.throughput / a.throughput - 1));
  }
  checks.push(predicateCheck('f5.10-identical', 'Fig. 5.10: loosely synchronous, the contention-free and throttled contention-free curves are identical', 'identical', `largest difference ${(100 * worst).toFixed(2)}% over c = ${idealCs.join(', ')} µs`, `holds if they differ by at most ${100 * IDENTICAL}% at every c`, identicalHolds(worst, idealCs.length)));
  const z = (m: 'async-blocking' | 'async', model: ContentionMode) => get(m, model, C_ZERO);
  const fig = (id: string, text: string, seed: number, r: StdResult | undefined) => relativeCheck(id, text, seed, r ? r.throughput : null, 0.1, r ? { converged: r.converged, dropped: 0 } : undefined);
  checks.push(fig('f5.11-throttled', `Fig. 5.11: async blocking near c = 0 (c = ${C_ZERO} µs), throttled contention-free rate ≈ 290 per CPU per ms`, 290, z('async-blocking', 'throttled')));
  checks.push(fig('f5.11-cf', `Fig. 5.11: async blocking near c = 0, contention-free rate ≈ 530`, 530, z('async-blocking', 'contention-free')));
  checks.push(fig('f5.12-throttled', `Fig. 5.12: async non-blocking near c = 0, throttled contention-free rate ≈ 544`, 544, z('async', 'throttled')));
  checks.push(fig('f5.12-cf', `Fig. 5.12: async non-blocking near c = 0, contention-free rate ≈ 5000`, 5000, z('async', 'contention-free')));

  const rowsModels: (string | number | null)[][] = [];
  for (const c of idealCs) {
    const row: (string | number | null)[] = [c];
    for (const m of STD_MODES) for (const model of ['full', 'throttled', 'contention-free'] as ContentionMode[]) row.push(get(m, model, c)?.throughput ?? null);
    rowsModels.push(row);
  }
  tables.push({
    title: 'Figs 5.10–5.12: rate per CPU per ms under full / throttled CF / CF',
    columns: ['c (µs)', 'Loosely full', 'thr. CF', 'CF', 'Blocking full', 'thr. CF', 'CF', 'Async full', 'thr. CF', 'CF'],
    rows: rowsModels,
    digits: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1],
  });

  const series = STD_MODES.flatMap((m, i) => [
    { name: `${SYNC_LABEL[m]} (measured)`, points: fullCs.map((c) => [c, get(m, 'full', c)!.throughput] as const) },
    { name: `${SYNC_LABEL[m]} (seed)`, dashed: true, points: Object.entries(TABLE_5_1).map(([c, v]) => [Number(c), v[i]!] as const) },
  ]);
  const notConverged = results.filter((r) => !r.converged).length;
  return {
    tables,
    checks,
    plots: [{ id: 'rates', title: 'Fig. 5.3 / Table 5.1: message rate vs compute period (full model)', xLabel: 'compute period c (µs)', yLabel: 'messages per CPU per ms', xLog: true, series }],
    notes: [
      'Model: packet-passing T9000/C104 TLM (harness/tlm/t9000-c104), thesis defaults: 70-token input buffers, CPU link width 4, FIFO crossbar, T9000 ack priority on, x-first routing, outstanding limit 16, routing delay 0 (docs/thesis-model.md).',
      `Stopping rule: 95% CI of the rate within ±${(q.precision * 100).toFixed(0)}% (MSER-5 truncation, 20 batch means) or ${(q.maxNs / 1e6).toFixed(0)} ms simulated; ${notConverged} of ${results.length} points did not converge.`,
      'Async points with dropped sends are past saturation: their Table 5.1 verdicts are "not comparable" (deviation still shown).',
    ],
    data: { meanHops },
  };
}

export const c104Ch5 = defineExperiment<StdPoint, StdResult, StdParams>({
  name: 'c104-ch5',
  summary: 'seed 004 Tables 5.1–5.3, mean path 9.50, Figs 5.1–5.3, 5.10–5.16 (T9000/C104 TLM, standard setup)',
  source: 'seed 004 §5.4–§5.6, Tables 5.1, 5.2, 5.3, Figs 5.1, 5.2, 5.10–5.16 (docs/sources.md, c104-t9000 §10–§11)',
  method: 'T9000/C104 packet-passing TLM; (16, 8, 1, c, 1, 32) × 3 synchronisation modes × full / throttled CF / CF',
  options: ['seed'],
  params: stdParams,
  points: ch5Points,
  cost: stdCost,
  runPoint: runStdPoint,
  assemble: assembleCh5,
});


