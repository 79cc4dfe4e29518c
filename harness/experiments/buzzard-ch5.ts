/**
 * Buzzard's Chapter 5 simulation results on the TLM (seed 002 §5.6–5.7;
 * shared/spec/buzzard.md §10.3):
 *
 *   buzzard-fig5.12  mean message times vs ideal link utilisation, exp(512),
 *                    wormhole / fixed packet / quasi-adaptive packet, with the
 *                    §5.7 prose percentages checked
 *   buzzard-fig5.13  the same for exp(2048)
 *   buzzard-fig5.14  buffer/packet tradeoff, exp(512): 13 × 32 B vs 26 × 32 B
 *                    vs 13 × 64 B, plus a buffer-count and a packet-size sweep
 *                    for the §5.7 summary ("1 to 1½ × the cube order", "about
 *                    10% of the average message size")
 *   buzzard-fig5.15  the same for exp(2048)
 *
 * Every transport and variant at one (length, rate) runs on the same workload
 * (§10.3: "the same pseudo-random streams for every scheme"). Ratios follow
 * §10.3: latency = first_scheme / first_wormhole; bandwidth =
 * (last − first)_wormhole / (last − first)_scheme. "Heaviest load" is the
 * shortest mean inter-generation time. The verdict rule for a printed
 * percentage is ±10 percentage points (TOLERANCE); for "for the k heaviest
 * loads" statements the set of loads must be exactly those.
 */
import { CH5_RATES } from '../workloads/buzzard.ts';
import type { Workload } from '../workloads/types.ts';
import { chapter5Workload } from '../tlm/sweep.ts';
import { runTlm } from '../tlm/buzzard-tlm.ts';
import { TLM_CH5_DEFAULTS, type Delivery, type Transport } from '../tlm/config.ts';
import type { Series } from './svg.ts';
import { defineExperiment, num, pct, type ExperimentCliValues, type ReportPlot, type ReportTable, type SeedCheck } from './types.ts';

export type Ch5Figure = '5.12' | '5.13' | '5.14' | '5.15';

/** Absolute tolerance on a ratio for "holds" (10 percentage points). */
export const TOLERANCE = 0.1;

export interface Ch5Params {
  readonly figure: Ch5Figure;
  readonly meanBytes: 512 | 2048;
  /** Cube degree (§10.3: 6). */
  readonly cubeDegree: number;
  /** The nine mean inter-generation times of the set, heaviest first (§10.3). */
  readonly rates: readonly number[];
  readonly messagesPerNode: number;
  readonly seed: number;
  readonly delivery: Delivery;
  readonly quick: boolean;
  /** Figs 5.14/5.15: loads of the buffer and packet-size sweeps (heaviest, middle, lightest). */
  readonly sweepRates: readonly number[];
  readonly bufferSweep: readonly number[];
  readonly packetSweep: readonly number[];
}

export type Ch5Role = 'main' | 'cross' | 'buffers' | 'packets';

export interface Ch5Pt {
  readonly role: Ch5Role;
  readonly meanBytes: 512 | 2048;
  readonly meanGapTicks: number;
  readonly transport: Transport;
  readonly packetBytes: number;
  readonly buffersPerPbu: number;
}

export interface Ch5Res {
  readonly idealU: number | null;
  readonly measuredU: number;
  /** Offered load of a node input port: Σ over messages of (bytes + headers)·ticksPerByte + arbitration per packet, / (2^n · last generation). */
  readonly nipLoad: number | null;
  readonly meanFirst: number | null;
  readonly meanLast: number | null;
  readonly meanLastMinusFirst: number | null;
  readonly maxFirst: number | null;
  readonly maxLast: number | null;
  readonly messages: number;
  readonly delivered: number;
  readonly contraryMessages: number;
  readonly orderViolations: number;
  readonly deadlock: boolean;
  readonly lastGeneration: number;
  readonly makespan: number;
}

const FULL_MPN = { 512: 200, 2048: 100 } as const;
const QUICK_MPN = { 512: 8, 2048: 4 } as const;

function figureBytes(f: Ch5Figure): 512 | 2048 {
  return f === '5.12' || f === '5.14' ? 512 : 2048;
}

function resolveParams(figure: Ch5Figure, cli: ExperimentCliValues): Ch5Params {
  const meanBytes = figureBytes(figure);
  const mpn = cli.messagesPerNode ?? (cli.quick ? QUICK_MPN : FULL_MPN)[meanBytes];
  if (!(Number.isInteger(mpn) && mpn >= 1 && mpn <= 100_000)) throw new RangeError(`--messages-per-node must be a whole number in 1..100000 (got ${mpn})`);
  const delivery = (cli.delivery ?? TLM_CH5_DEFAULTS.delivery) as Delivery;
  if (delivery !== 'shared-port' && delivery !== 'per-link') throw new RangeError(`--delivery must be shared-port or per-link (got '${String(cli.delivery)}')`);
  const rates = [...CH5_RATES[meanBytes]];
  const tradeoff = figure === '5.14' || figure === '5.15';
  return {
    figure,
    meanBytes,
    cubeDegree: 6,
    rates,
    messagesPerNode: mpn,
    seed: cli.seed ?? 1,
    delivery,
    quick: cli.quick,
    sweepRates: tradeoff ? [rates[0]!, rates[4]!, rates[8]!] : [],
    bufferSweep: tradeoff ? [2, 3, 4, 6, 9, 13, 26] : [],
    packetSweep: tradeoff ? (meanBytes === 512 ? [16, 32, 64, 128, 256, 512] : [16, 32, 64, 128, 256, 512, 1024]) : [],
  };
}

const BASE = { packetBytes: 32, buffersPerPbu: 13 } as const;
const VARIANTS = [
  { key: '13x32', label: '13 buffers × 32 B', packetBytes: 32, buffersPerPbu: 13 },
  { key: '26x32', label: '26 buffers × 32 B', packetBytes: 32, buffersPerPbu: 26 },
  { key: '13x64', label: '13 buffers × 64 B', packetBytes: 64, buffersPerPbu: 13 },
] as const;

function ch5Points(q: Ch5Params): Ch5Pt[] {
  const out: Ch5Pt[] = [];
  const mb = q.meanBytes;
  if (q.figure === '5.12' || q.figure === '5.13') {
    for (const g of q.rates) for (const t of ['wormhole', 'fixed-packet', 'quasi-adaptive'] as const) out.push({ role: 'main', meanBytes: mb, meanGapTicks: g, transport: t, ...BASE });
    if (q.figure === '5.13') {
      // §5.7: "the improvements in latency time are greater than they were for the shorter messages" at low utilisation.
      const light512 = CH5_RATES[512][CH5_RATES[512].length - 1]!;
      for (const t of ['wormhole', 'fixed-packet'] as const) out.push({ role: 'cross', meanBytes: 512, meanGapTicks: light512, transport: t, ...BASE });
    }
    return out;
  }
  for (const g of q.rates) for (const t of ['fixed-packet', 'quasi-adaptive'] as const) for (const v of VARIANTS) out.push({ role: 'main', meanBytes: mb, meanGapTicks: g, transport: t, packetBytes: v.packetBytes, buffersPerPbu: v.buffersPerPbu });
  for (const g of q.sweepRates) for (const b of q.bufferSweep) out.push({ role: 'buffers', meanBytes: mb, meanGapTicks: g, transport: 'quasi-adaptive', packetBytes: 32, buffersPerPbu: b });
  for (const g of q.sweepRates) for (const p of q.packetSweep) out.push({ role: 'packets', meanBytes: mb, meanGapTicks: g, transport: 'quasi-adaptive', packetBytes: p, buffersPerPbu: 13 });
  return out;
}

// One workload per (length, rate), cached in the process (workers see their points in any order).
const cache = new Map<string, Workload>();
function workload(q: Ch5Params, meanBytes: 512 | 2048, gap: number): Workload {
  const messagesPerNode = meanBytes === q.meanBytes ? q.messagesPerNode : (q.quick ? QUICK_MPN : FULL_MPN)[meanBytes];
  const key = `${meanBytes}/${gap}/${messagesPerNode}/${q.seed}/${q.cubeDegree}`;
  let w = cache.get(key);
  if (!w) {
    w = chapter5Workload(meanBytes, gap, { messagesPerNode, seed: q.seed, cubeDegree: q.cubeDegree });
    if (cache.size >= 4) cache.delete(cache.keys().next().value!);
    cache.set(key, w);
  }
  return w;
}

function runCh5Point(p: Ch5Pt, q: Ch5Params): Ch5Res {
  const w = workload(q, p.meanBytes, p.meanGapTicks);
  const r = runTlm(w, { transport: p.transport, packetBytes: p.packetBytes, buffersPerPbu: p.buffersPerPbu, delivery: q.delivery, recordEvents: false });
  const s = r.stats;
  const hb = r.config.headerBytes;
  // Node input port busy time offered: every packet (worm) arbitrates for O_0, then moves header + data at link rate.
  let nipTicks = 0;
  for (const m of w.messages) {
    const pk = p.transport === 'wormhole' ? 1 : Math.max(1, Math.ceil(m.bytes / p.packetBytes));
    nipTicks += (m.bytes + hb * pk) * r.config.ticksPerByte + pk * r.config.arbitrationTicks;
  }
  const N = 2 ** w.cubeDegree;
  return {
    idealU: s.idealLinkUtilisation,
    measuredU: s.measuredLinkUtilisation,
    nipLoad: s.lastGeneration > 0 ? nipTicks / (N * s.lastGeneration) : null,
    meanFirst: s.meanFirst,
    meanLast: s.meanLast,
    meanLastMinusFirst: s.meanLastMinusFirst,
    maxFirst: s.maxFirst,
    maxLast: s.maxLast,
    messages: s.messages,
    delivered: s.delivered,
    contraryMessages: s.contraryMessages,
    orderViolations: s.orderViolations,
    deadlock: s.deadlock !== null,
    lastGeneration: s.lastGeneration,
    makespan: s.makespan,
  };
}

function cost(p: Ch5Pt, q: Ch5Params): number {
  const mpn = p.meanBytes === q.meanBytes ? q.messagesPerNode : 1;
  const packets = p.meanBytes / p.packetBytes + 1;
  return mpn * (p.transport === 'wormhole' ? 2 : packets) * (1 + 2000 / p.meanGapTicks);
}

// ------------------------------------------------------------------ report helpers

type Lookup = (role: Ch5Role, gap: number, t: Transport, pb: number, bu: number) => Ch5Res;

function lookup(points: readonly Ch5Pt[], results: readonly Ch5Res[], meanBytes: number): Lookup {
  const m = new Map<string, Ch5Res>();
  points.forEach((p, k) => m.set(`${p.role}/${p.meanBytes}/${p.meanGapTicks}/${p.transport}/${p.packetBytes}/${p.buffersPerPbu}`, results[k]!));
  return (role, gap, t, pb, bu) => {
    const r = m.get(`${role}/${role === 'cross' ? 512 : meanBytes}/${gap}/${t}/${pb}/${bu}`);
    if (!r) throw new Error(`buzzard-ch5: no result for ${role} ${gap} ${t} ${pb}x${bu}`);
    return r;
  };
}

function ratio(a: number | null, b: number | null): number | null {
  return a === null || b === null || !(b > 0) ? null : a / b;
}

function near(measured: number | null, seed: number): boolean {
  return measured !== null && Math.abs(measured - seed) <= TOLERANCE + 1e-12;
}

function loadsText(idx: readonly number[], rates: readonly number[]): string {
  return idx.length ? `${idx.map((i) => rates[i]).join(', ')} ticks` : 'no load';
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

function minMax(xs: readonly (number | null)[]): { min: number | null; max: number | null; argmin: number; argmax: number } {
  let min: number | null = null;
  let max: number | null = null;
  let argmin = -1;
  let argmax = -1;
  xs.forEach((x, k) => {
    if (x === null) return;
    if (min === null || x < min) {
      min = x;
      argmin = k;
    }
    if (max === null || x > max) {
      max = x;
      argmax = k;
    }
  });
  return { min, max, argmin, argmax };
}

const rule = {
  endpoint: `holds if the measured ratio is within ±${TOLERANCE * 100} percentage points of the seed's`,
  range: `holds if the measured minimum and maximum over the nine loads are each within ±${TOLERANCE * 100} percentage points of the seed's range ends`,
  set: 'holds if the set of loads where it is true is exactly the set the seed names',
};

const TRANSPORT_COLOR: Record<Transport, string> = { wormhole: '#1f77b4', 'fixed-packet': '#d62728', 'quasi-adaptive': '#2ca02c' };
const TRANSPORT_LABEL: Record<Transport, string> = { wormhole: 'wormhole', 'fixed-packet': 'fixed packet', 'quasi-adaptive': 'quasi-adaptive' };

// ------------------------------------------------------------------ Figs 5.12 / 5.13

/** The §5.7 percentages, per length (buzzard.md §10.3 table). */
const SEED = {
  512: {
    fixedLat: { heaviest: 0.35, lightest: 0.87 },
    fixedBw: { heaviest: 0.37, lightest: 0.81 },
    quasiLat: { lo: 0.1, hi: 0.77 },
    quasiBw: { heaviest: 0.28, lightest: 0.81 },
  },
  2048: {
    fixedLat: { lo: 0.47, hi: 0.69 },
    fixedBw: { lo: 0.39, hi: 0.72 },
    quasiLat: { lo: 0.14, hi: 0.31 },
    quasiBw: { heaviest: 0.31, lightest: 0.72 },
  },
} as const;

function assembleTimes(q: Ch5Params, points: readonly Ch5Pt[], results: readonly Ch5Res[]) {
  const get = lookup(points, results, q.meanBytes);
  const R = q.rates;
  const last = R.length - 1;
  const wh = R.map((g) => get('main', g, 'wormhole', 32, 13));
  const fx = R.map((g) => get('main', g, 'fixed-packet', 32, 13));
  const qa = R.map((g) => get('main', g, 'quasi-adaptive', 32, 13));
  const U = wh.map((r) => r.idealU);
  const latF = R.map((_, i) => ratio(fx[i]!.meanFirst, wh[i]!.meanFirst));
  const latQ = R.map((_, i) => ratio(qa[i]!.meanFirst, wh[i]!.meanFirst));
  const bwF = R.map((_, i) => ratio(wh[i]!.meanLastMinusFirst, fx[i]!.meanLastMinusFirst));
  const bwQ = R.map((_, i) => ratio(wh[i]!.meanLastMinusFirst, qa[i]!.meanLastMinusFirst));
  const sooner = (s: Ch5Res[]): number[] => R.map((_, i) => i).filter((i) => s[i]!.meanLast !== null && wh[i]!.meanLast !== null && s[i]!.meanLast! < wh[i]!.meanLast!);
  const below = (r: (number | null)[], x: number): number[] => r.map((v, i) => (v !== null && v < x ? i : -1)).filter((i) => i >= 0);
  const heaviest = (k: number): number[] => R.slice(0, k).map((_, i) => i);
  const checks: SeedCheck[] = [];
  const mb = q.meanBytes;
  const fmtR = (r: (number | null)[]): string => r.map((x) => pct(x)).join(' ');

  if (mb === 512) {
    const s = SEED[512];
    checks.push(
      {
        id: 'fixed-latency-heaviest',
        statement: '§5.7: fixed packet latency "35% of the wormhole latency times for the heaviest link utilization"',
        seed: pct(s.fixedLat.heaviest),
        measured: `${pct(latF[0])} at ${R[0]} ticks (U = ${num(U[0], 3)})`,
        rule: rule.endpoint,
        holds: near(latF[0]!, s.fixedLat.heaviest),
      },
      {
        id: 'fixed-latency-lightest',
        statement: '§5.7: fixed packet latency "87% of the wormhole time for the lightest utilization value"',
        seed: pct(s.fixedLat.lightest),
        measured: `${pct(latF[last])} at ${R[last]} ticks (U = ${num(U[last], 3)})`,
        rule: rule.endpoint,
        holds: near(latF[last]!, s.fixedLat.lightest),
      },
      {
        id: 'fixed-latency-below-half',
        statement: '§5.7: fixed packet latency "remain[s] below 50% of the wormhole times for the four heaviest utilization values"',
        seed: `below 50% at the 4 heaviest loads (${loadsText(heaviest(4), R)})`,
        measured: `below 50% at ${loadsText(below(latF, 0.5), R)}; ratios heavy→light ${fmtR(latF)}`,
        rule: rule.set,
        holds: sameSet(below(latF, 0.5), heaviest(4)),
      },
      {
        id: 'fixed-bandwidth-heavier',
        statement: '§5.7: fixed packet bandwidth "about 37% of that of the wormhole scheme for the heavier loads"',
        seed: pct(s.fixedBw.heaviest),
        measured: `${pct(bwF[0])} at the heaviest load`,
        rule: rule.endpoint,
        holds: near(bwF[0]!, s.fixedBw.heaviest),
      },
      {
        id: 'fixed-bandwidth-lighter',
        statement: '§5.7: fixed packet bandwidth "to about 81% for the lighter loads"',
        seed: pct(s.fixedBw.lightest),
        measured: `${pct(bwF[last])} at the lightest load; ratios heavy→light ${fmtR(bwF)}`,
        rule: rule.endpoint,
        holds: near(bwF[last]!, s.fixedBw.lightest),
      },
      {
        id: 'fixed-whole-message-sooner',
        statement: '§5.7: with fixed packets "the arrival time for entire messages is quicker for the three heaviest traffic loads"',
        seed: `mean last < wormhole at the 3 heaviest loads (${loadsText(heaviest(3), R)})`,
        measured: `mean last < wormhole at ${loadsText(sooner(fx), R)}`,
        rule: rule.set,
        holds: sameSet(sooner(fx), heaviest(3)),
      },
    );
    const lq = minMax(latQ);
    checks.push(
      {
        id: 'quasi-latency-range',
        statement: '§5.7: quasi-adaptive "latency times range from 10% to 77% of those for wormhole routing"',
        seed: `${pct(s.quasiLat.lo)} … ${pct(s.quasiLat.hi)}`,
        measured: `${pct(lq.min)} (at ${R[lq.argmin]} ticks) … ${pct(lq.max)} (at ${R[lq.argmax]} ticks); heavy→light ${fmtR(latQ)}`,
        rule: rule.range,
        holds: near(lq.min, s.quasiLat.lo) && near(lq.max, s.quasiLat.hi),
      },
      {
        id: 'quasi-latency-direction',
        statement: '§5.7 quasi-adaptive latency "10% to 77%" read heavy → light ([interp] buzzard.md §10.3, as the fixed-packet range whose direction is stated)',
        seed: `${pct(s.quasiLat.lo)} at the heaviest load, ${pct(s.quasiLat.hi)} at the lightest`,
        measured: `${pct(latQ[0])} at the heaviest, ${pct(latQ[last])} at the lightest`,
        rule: 'holds if ratio(heaviest) < ratio(lightest)',
        holds: latQ[0] !== null && latQ[last] !== null && latQ[0]! < latQ[last]!,
      },
      {
        id: 'quasi-latency-below-half',
        statement: '§5.7: quasi-adaptive latency "less than 50% of the times for wormhole routing for all but the 3 lightest loads"',
        seed: `below 50% at the 6 heaviest loads (${loadsText(heaviest(6), R)})`,
        measured: `below 50% at ${loadsText(below(latQ, 0.5), R)}`,
        rule: rule.set,
        holds: sameSet(below(latQ, 0.5), heaviest(6)),
      },
      {
        id: 'quasi-bandwidth-heaviest',
        statement: '§5.7: quasi-adaptive bandwidth "about 28% of that for wormhole at the heaviest traffic load"',
        seed: pct(s.quasiBw.heaviest),
        measured: `${pct(bwQ[0])}`,
        rule: rule.endpoint,
        holds: near(bwQ[0]!, s.quasiBw.heaviest),
      },
      {
        id: 'quasi-bandwidth-lightest',
        statement: '§5.7: quasi-adaptive bandwidth "to about 81% at the lightest load"',
        seed: pct(s.quasiBw.lightest),
        measured: `${pct(bwQ[last])}; heavy→light ${fmtR(bwQ)}`,
        rule: rule.endpoint,
        holds: near(bwQ[last]!, s.quasiBw.lightest),
      },
      {
        id: 'quasi-whole-message-sooner',
        statement: '§5.7: "For the four heaviest traffic loads the average time for the messages to completely arrive is less with the quasi-adaptive packet scheme"',
        seed: `mean last < wormhole at the 4 heaviest loads (${loadsText(heaviest(4), R)})`,
        measured: `mean last < wormhole at ${loadsText(sooner(qa), R)}`,
        rule: rule.set,
        holds: sameSet(sooner(qa), heaviest(4)),
      },
    );
  } else {
    const s = SEED[2048];
    const lf = minMax(latF);
    const bf = minMax(bwF);
    const lq = minMax(latQ);
    checks.push(
      {
        id: 'fixed-latency-range',
        statement: '§5.7: for the longer messages fixed packet latency "ranged from 47% of the wormhole times to 69%"',
        seed: `${pct(s.fixedLat.lo)} … ${pct(s.fixedLat.hi)}`,
        measured: `${pct(lf.min)} (at ${R[lf.argmin]} ticks) … ${pct(lf.max)} (at ${R[lf.argmax]} ticks); heavy→light ${fmtR(latF)}`,
        rule: rule.range,
        holds: near(lf.min, s.fixedLat.lo) && near(lf.max, s.fixedLat.hi),
      },
      {
        id: 'fixed-latency-source-blockage',
        statement: '§5.7: "Blockage at the source nodes limits improvements in latency times for the large messages at higher link utilizations" ([interp] buzzard.md §10.3: 69% at heavy, 47% at light)',
        seed: 'latency ratio higher at the heaviest load than at the lightest',
        measured: `${pct(latF[0])} at the heaviest, ${pct(latF[last])} at the lightest`,
        rule: 'holds if ratio(heaviest) > ratio(lightest)',
        holds: latF[0] !== null && latF[last] !== null && latF[0]! > latF[last]!,
      },
      {
        id: 'fixed-bandwidth-range',
        statement: '§5.7: fixed packet "Bandwidth ranges from 39% to 72%"',
        seed: `${pct(s.fixedBw.lo)} … ${pct(s.fixedBw.hi)}`,
        measured: `${pct(bf.min)} (at ${R[bf.argmin]} ticks) … ${pct(bf.max)} (at ${R[bf.argmax]} ticks); heavy→light ${fmtR(bwF)}`,
        rule: rule.range,
        holds: near(bf.min, s.fixedBw.lo) && near(bf.max, s.fixedBw.hi),
      },
    );
    const light512 = CH5_RATES[512][CH5_RATES[512].length - 1]!;
    const c512 = ratio(get('cross', light512, 'fixed-packet', 32, 13).meanFirst, get('cross', light512, 'wormhole', 32, 13).meanFirst);
    checks.push(
      {
        id: 'fixed-latency-gain-vs-short',
        statement: '§5.7: "For the lower link utilizations the improvements in latency time are greater than they were for the shorter messages"',
        seed: 'fixed-packet latency ratio at the lightest load lower for exp(2048) than for exp(512)',
        measured: `${pct(latF[last])} for exp(2048) at ${R[last]} ticks vs ${pct(c512)} for exp(512) at ${light512} ticks`,
        rule: 'holds if ratio(2048, lightest) < ratio(512, lightest)',
        holds: latF[last] !== null && c512 !== null && latF[last]! < c512,
      },
      {
        id: 'quasi-latency-range',
        statement: '§5.7: quasi-adaptive "Message latency ranges between 14% and 31% of that for wormhole routing across the entire range of loads"',
        seed: `${pct(s.quasiLat.lo)} … ${pct(s.quasiLat.hi)}`,
        measured: `${pct(lq.min)} (at ${R[lq.argmin]} ticks) … ${pct(lq.max)} (at ${R[lq.argmax]} ticks); heavy→light ${fmtR(latQ)}`,
        rule: rule.range,
        holds: near(lq.min, s.quasiLat.lo) && near(lq.max, s.quasiLat.hi),
      },
      {
        id: 'quasi-bandwidth-heaviest',
        statement: '§5.7: quasi-adaptive bandwidth "about 31% of that of wormhole at the heaviest traffic loads"',
        seed: pct(s.quasiBw.heaviest),
        measured: pct(bwQ[0]),
        rule: rule.endpoint,
        holds: near(bwQ[0]!, s.quasiBw.heaviest),
      },
      {
        id: 'quasi-bandwidth-lightest',
        statement: '§5.7: quasi-adaptive bandwidth "to about 72% at the lightest"',
        seed: pct(s.quasiBw.lightest),
        measured: `${pct(bwQ[last])}; heavy→light ${fmtR(bwQ)}`,
        rule: rule.endpoint,
        holds: near(bwQ[last]!, s.quasiBw.lightest),
      },
    );
  }
  // Shape (buzzard.md §14 "Approximate": packet "first" ≪ wormhole at heavy load, lower bandwidth, quasi-adaptive beats fixed).
  const qBeatsF = R.map((_, i) => i).filter((i) => latQ[i] !== null && latF[i] !== null && latQ[i]! <= latF[i]!);
  const bwLower = R.map((_, i) => i).filter((i) => bwF[i] !== null && bwQ[i] !== null && bwF[i]! < 1 && bwQ[i]! < 1);
  checks.push(
    {
      id: 'shape-packet-latency-heavy',
      statement: 'buzzard.md §14 (shape): packet schemes give much lower "first" times than wormhole at heavy load',
      seed: 'latency ratio well below 1 at the heaviest load (seed: fixed 35%/47–69%, quasi 10%/14–31%)',
      measured: `fixed ${pct(latF[0])}, quasi-adaptive ${pct(latQ[0])} at ${R[0]} ticks`,
      rule: 'holds if both ratios are below 50%',
      holds: latF[0] !== null && latQ[0] !== null && latF[0]! < 0.5 && latQ[0]! < 0.5,
    },
    {
      id: 'shape-packet-bandwidth-lower',
      statement: 'buzzard.md §14 (shape) / §5.7: packet schemes have lower bandwidth than wormhole',
      seed: 'bandwidth ratio below 1 at every load',
      measured: `below 1 for both schemes at ${bwLower.length} of ${R.length} loads (fixed ${fmtR(bwF)}; quasi ${fmtR(bwQ)})`,
      rule: 'holds if below 1 for both schemes at every load',
      holds: bwLower.length === R.length,
    },
    {
      id: 'shape-quasi-beats-fixed',
      statement: '§5.7 "The change to the quasi-adaptive packet scheme leads to significant improvements" (buzzard.md §14: quasi-adaptive beats fixed packet)',
      seed: 'quasi-adaptive latency ≤ fixed packet latency at every load',
      measured: `at ${qBeatsF.length} of ${R.length} loads (fixed ${fmtR(latF)}; quasi ${fmtR(latQ)})`,
      rule: 'holds if at every load',
      holds: qBeatsF.length === R.length,
    },
  );

  const T = (r: Ch5Res, f: 'meanFirst' | 'meanLast'): number | null => r[f];
  const tables: ReportTable[] = [
    {
      title: `Mean message times from queueing, ticks (exp(${mb}), ${q.cubeDegree}-cube, ${q.messagesPerNode} messages per node, ${q.delivery} delivery)`,
      columns: ['gap', 'U ideal', 'NIP load', 'first wh', 'last wh', 'first fixed', 'last fixed', 'first quasi', 'last quasi', 'max last wh', 'max last quasi'],
      rows: R.map((g, i) => [g, U[i]!, wh[i]!.nipLoad, T(wh[i]!, 'meanFirst'), T(wh[i]!, 'meanLast'), T(fx[i]!, 'meanFirst'), T(fx[i]!, 'meanLast'), T(qa[i]!, 'meanFirst'), T(qa[i]!, 'meanLast'), wh[i]!.maxLast, qa[i]!.maxLast]),
      digits: [0, 3, 2, 1, 1, 1, 1, 1, 1, 0, 0],
      notes: [
        'gap: mean inter-generation time per node (ticks); U ideal: §5.7 ideal link utilisation (A19: 384 directed links).',
        'NIP load: mean offered load of a node input port (bytes + headers at 2 ticks/byte, + 4 ticks arbitration per packet, over the generation period) — near 1 it saturates under shared-port delivery (harness/tlm/README.md).',
      ],
    },
    {
      title: 'Ratios to wormhole (latency = first/first_wh; bandwidth = (last−first)_wh/(last−first)) beside the seed',
      columns: ['gap', 'U ideal', 'lat fixed', 'seed', 'lat quasi', 'seed', 'bw fixed', 'seed', 'bw quasi', 'seed'],
      rows: R.map((g, i) => {
        const s512 = SEED[512];
        const s2048 = SEED[2048];
        const end = (h: string, l: string): string => (i === 0 ? h : i === last ? l : '');
        const seedCols =
          mb === 512
            ? [end(pct(s512.fixedLat.heaviest), pct(s512.fixedLat.lightest)), end('10–77%', '10–77%'), end(pct(s512.fixedBw.heaviest), pct(s512.fixedBw.lightest)), end(pct(s512.quasiBw.heaviest), pct(s512.quasiBw.lightest))]
            : [end('47–69%', '47–69%'), end('14–31%', '14–31%'), end('39–72%', '39–72%'), end(pct(s2048.quasiBw.heaviest), pct(s2048.quasiBw.lightest))];
        return [g, U[i]!, pct(latF[i]), seedCols[0]!, pct(latQ[i]), seedCols[1]!, pct(bwF[i]), seedCols[2]!, pct(bwQ[i]), seedCols[3]!];
      }),
      digits: [0, 3],
      notes: ['Seed columns: the §5.7 prose gives only the ends of each range (heaviest / lightest load, or a range "a–b%" whose direction is not stated).'],
    },
  ];
  const series = (idx: number[]): Series[] =>
    (['wormhole', 'fixed-packet', 'quasi-adaptive'] as const).flatMap((t) => {
      const rs = t === 'wormhole' ? wh : t === 'fixed-packet' ? fx : qa;
      return (['meanFirst', 'meanLast'] as const).map((f) => ({
        name: `${f === 'meanFirst' ? 'first' : 'last'} ${TRANSPORT_LABEL[t]}`,
        color: TRANSPORT_COLOR[t],
        dashed: f === 'meanLast',
        points: idx.map((i) => [U[i] ?? NaN, rs[i]![f] ?? NaN] as [number, number]),
      }));
    });
  const all = R.map((_, i) => i);
  const part1 = all.slice(0, 5);
  const part2 = all.slice(3);
  const fig = `Fig. ${q.figure}`;
  const plots: ReportPlot[] = [
    { id: 'part1', title: `${fig}: mean message times, exp(${mb}) (part 1 of 2: heavier loads)`, xLabel: 'ideal link utilisation', yLabel: 'mean time from queueing (ticks)', series: series(part1) },
    { id: 'part2', title: `${fig}: mean message times, exp(${mb}) (part 2 of 2: lighter loads)`, xLabel: 'ideal link utilisation', yLabel: 'mean time from queueing (ticks)', series: series(part2) },
    { id: 'all', title: `${fig}: mean message times, exp(${mb}), all loads`, xLabel: 'ideal link utilisation', yLabel: 'mean time from queueing (ticks)', yLog: true, series: series(all) },
    {
      id: 'ratios',
      title: `${fig}: ratios to wormhole, exp(${mb}) (dashed: seed §5.7)`,
      xLabel: 'ideal link utilisation',
      yLabel: 'ratio to wormhole',
      series: [
        { name: 'latency fixed', color: TRANSPORT_COLOR['fixed-packet'], points: all.map((i) => [U[i] ?? NaN, latF[i] ?? NaN] as [number, number]) },
        { name: 'latency quasi', color: TRANSPORT_COLOR['quasi-adaptive'], points: all.map((i) => [U[i] ?? NaN, latQ[i] ?? NaN] as [number, number]) },
        { name: 'bandwidth fixed', color: '#ff7f0e', points: all.map((i) => [U[i] ?? NaN, bwF[i] ?? NaN] as [number, number]) },
        { name: 'bandwidth quasi', color: '#9467bd', points: all.map((i) => [U[i] ?? NaN, bwQ[i] ?? NaN] as [number, number]) },
        ...seedRatioSeries(mb, U[0] ?? NaN, U[last] ?? NaN),
      ],
    },
  ];
  const saturated = R.filter((_, i) => (qa[i]!.nipLoad ?? 0) >= 0.9);
  const notes = [
    `TLM (harness/tlm), ${q.delivery} delivery, ${q.messagesPerNode} messages per node (${wh[0]!.messages} messages per run), workload seed ${q.seed}; times in ticks from queueing at the source (§10.3 "first" = first ${BASE.packetBytes} data bytes, "last" = last byte).`,
    ...(q.figure === '5.13' ? [`The exp(512) comparison point (lightest load) uses ${(q.quick ? QUICK_MPN : FULL_MPN)[512]} messages per node, as buzzard-fig5.12 does by default.`] : []),
    saturated.length
      ? `Node input ports offered ≥ 0.9 of their capacity at ${saturated.join(', ')} ticks${q.delivery === 'shared-port' ? ' (shared-port: one per node, so every scheme queues there)' : ''}. Where a load saturates any resource the means grow with the run length (--messages-per-node) instead of settling; compare --delivery per-link.`
      : 'No load offers the node input ports ≥ 0.9 of their capacity.',
    `Deadlocks: ${results.filter((r) => r.deadlock).length}; order violations: ${results.reduce((a, r) => a + r.orderViolations, 0)}; undelivered messages: ${results.reduce((a, r) => a + r.messages - r.delivered, 0)}.`,
  ];
  if (q.quick) notes.push('--quick: few messages per node; the numbers are noisy and for testing the pipeline, not for judging the seed.');
  return {
    tables,
    checks,
    plots,
    notes,
    data: { rates: [...R], idealU: U, latency: { fixed: latF, quasi: latQ }, bandwidth: { fixed: bwF, quasi: bwQ } },
  };
}

function seedRatioSeries(mb: 512 | 2048, uHeavy: number, uLight: number): Series[] {
  // The seed's stated ends, drawn as dashed two-point lines where the direction is stated.
  if (mb === 512) {
    const s = SEED[512];
    return [
      { name: 'seed latency fixed', color: TRANSPORT_COLOR['fixed-packet'], dashed: true, points: [[uHeavy, s.fixedLat.heaviest], [uLight, s.fixedLat.lightest]] },
      { name: 'seed latency quasi', color: TRANSPORT_COLOR['quasi-adaptive'], dashed: true, points: [[uHeavy, s.quasiLat.lo], [uLight, s.quasiLat.hi]] },
      { name: 'seed bandwidth fixed', color: '#ff7f0e', dashed: true, points: [[uHeavy, s.fixedBw.heaviest], [uLight, s.fixedBw.lightest]] },
      { name: 'seed bandwidth quasi', color: '#9467bd', dashed: true, points: [[uHeavy, s.quasiBw.heaviest], [uLight, s.quasiBw.lightest]] },
    ];
  }
  const s = SEED[2048];
  return [
    { name: 'seed latency fixed (interp)', color: TRANSPORT_COLOR['fixed-packet'], dashed: true, points: [[uHeavy, s.fixedLat.hi], [uLight, s.fixedLat.lo]] },
    { name: 'seed bandwidth quasi', color: '#9467bd', dashed: true, points: [[uHeavy, s.quasiBw.heaviest], [uLight, s.quasiBw.lightest]] },
  ];
}

// ------------------------------------------------------------------ Figs 5.14 / 5.15

function assembleTradeoff(q: Ch5Params, points: readonly Ch5Pt[], results: readonly Ch5Res[]) {
  const get = lookup(points, results, q.meanBytes);
  const R = q.rates;
  const mb = q.meanBytes;
  const last = R.length - 1;
  const v = (t: Transport, key: (typeof VARIANTS)[number]['key']) => {
    const x = VARIANTS.find((y) => y.key === key)!;
    return R.map((g) => get('main', g, t, x.packetBytes, x.buffersPerPbu));
  };
  const U = v('quasi-adaptive', '13x32').map((r) => r.idealU);
  const checks: SeedCheck[] = [];
  const idx = R.map((_, i) => i);
  for (const t of ['quasi-adaptive', 'fixed-packet'] as const) {
    const big = v(t, '13x64');
    const more = v(t, '26x32');
    const better = idx.filter((i) => big[i]!.meanLast !== null && more[i]!.meanLast !== null && big[i]!.meanLast! < more[i]!.meanLast!);
    checks.push({
      id: `${t === 'quasi-adaptive' ? 'quasi' : 'fixed'}-bigger-packets-beat-more-buffers`,
      statement: `§5.7 (Figs 5.14, 5.15): "it is preferable to increase the length of packets rather than the number of packet buffers. This trend is consistent for the arrival of the last packet" (${TRANSPORT_LABEL[t]})`,
      seed: 'mean last: 13 × 64 B < 26 × 32 B at every load',
      measured: `at ${better.length} of ${R.length} loads (${loadsText(better, R)})`,
      rule: 'holds if at every load',
      holds: better.length === R.length,
    });
  }
  {
    const big = v('quasi-adaptive', '13x64');
    const more = v('quasi-adaptive', '26x32');
    const firstBetter = idx.filter((i) => big[i]!.meanFirst !== null && more[i]!.meanFirst !== null && big[i]!.meanFirst! < more[i]!.meanFirst!);
    const ok = firstBetter.length > 0 && firstBetter.every((i) => i < 3);
    checks.push({
      id: 'quasi-bigger-packets-first-only-at-high-load',
      statement:
        '§5.7: "for the shorter messages … the additional time required [to] transmit the larger packet does not lead to lower message times until the traffic load gets very high" (first packet; quasi-adaptive, 13 × 64 B vs 26 × 32 B)',
      seed: mb === 512 ? 'mean first lower with 64 B packets only at the very highest loads' : 'stated for exp(512) only',
      measured: `mean first lower with 64 B packets at ${loadsText(firstBetter, R)}`,
      rule: mb === 512 ? 'holds if that set is non-empty and within the 3 heaviest loads' : 'reported only (the seed says this of the shorter messages)',
      holds: mb === 512 ? ok : null,
    });
  }
  // Buffer sweep: smallest count within 5% of 26 buffers' mean last, per load. The verdict uses the middle sweep
  // load: at the heaviest the network saturates (the means grow with the run length) and at the lightest almost
  // nothing queues, so neither says how many buffers are "adequate".
  const knees = q.sweepRates.map((g) => {
    const l26 = get('buffers', g, 'quasi-adaptive', 32, 26).meanLast ?? NaN;
    const k = q.bufferSweep.find((b) => (get('buffers', g, 'quasi-adaptive', 32, b).meanLast ?? Infinity) <= 1.05 * l26);
    return k ?? null;
  });
  const mid = Math.floor(q.sweepRates.length / 2);
  const knee = knees[mid] ?? Infinity;
  checks.push({
    id: 'adequate-buffers',
    statement: '§5.7: "Adding buffers provides the greatest performance gain until an adequate supply of buffers is available. An adequate number of buffers appears to be from about 1 to 1½ times the order of the cube"',
    seed: `adequate ≈ ${q.cubeDegree}–${1.5 * q.cubeDegree} buffers per PBU (n = ${q.cubeDegree})`,
    measured: `smallest count within 5% of 26 buffers' mean last time: ${knees.map((k, i) => `${k ?? '>26'} at ${q.sweepRates[i]} ticks`).join(', ')} (quasi-adaptive, 32 B packets)`,
    rule: `holds if that count at the middle sweep load (${q.sweepRates[mid]} ticks) is within ${q.cubeDegree}..${1.5 * q.cubeDegree}`,
    holds: knee >= q.cubeDegree && knee <= 1.5 * q.cubeDegree,
  });
  // Packet-size sweep.
  const P = q.packetSweep;
  const pl = (g: number, p: number, f: 'meanFirst' | 'meanLast'): number => get('packets', g, 'quasi-adaptive', p, 13)[f] ?? NaN;
  const upTo = P.filter((p) => p <= mb / 4);
  const lastImproves = q.sweepRates.map((g) => upTo.every((p, k) => k === 0 || pl(g, p, 'meanLast') < pl(g, upTo[k - 1]!, 'meanLast')));
  checks.push({
    id: 'packet-size-last-improves',
    statement: '§5.7: "the arrival times for the total packet can be improved by increasing the packet size until the point where packet size approaches the average message size"',
    seed: `mean last falls as packets grow, at least up to ${mb / 4} B (a quarter of the mean)`,
    measured: q.sweepRates.map((g, i) => `${g} ticks: ${upTo.map((p) => num(pl(g, p, 'meanLast'), 0)).join(' → ')} (${lastImproves[i] ? 'falls' : 'does not fall throughout'})`).join('; '),
    rule: `holds if mean last strictly falls over ${upTo.join(', ')} B at every sweep load`,
    holds: lastImproves.every(Boolean),
  });
  const gl = q.sweepRates[q.sweepRates.length - 1]!;
  const firstGrows = P.every((p, k) => k === 0 || pl(gl, p, 'meanFirst') > pl(gl, P[k - 1]!, 'meanFirst'));
  checks.push({
    id: 'packet-size-first-grows-light',
    statement: '§5.7: "increasing packet sizes may also lead to increases in the delivery time for an individual packet … packet sizes should be limited to a small fraction of average message size"',
    seed: 'at light load the first-packet time grows with the packet size',
    measured: `${gl} ticks: ${P.map((p) => `${p} B ${num(pl(gl, p, 'meanFirst'), 0)}`).join(', ')}`,
    rule: 'holds if mean first strictly grows with packet size at the lightest sweep load',
    holds: firstGrows,
  });
  // "About 10%": the swept sizes between 5% and 20% of the mean; "best": [interp] the smallest mean first + mean last
  // (the seed weighs whole-message arrival against first-packet latency, "where the latency of the first packet is important").
  const about10 = P.filter((p) => p >= 0.05 * mb && p <= 0.2 * mb);
  const argmin = (g: number, score: (p: number) => number): number => P.reduce((a, p) => (score(p) < score(a) ? p : a), P[0]!);
  const bestLast = q.sweepRates.map((g) => argmin(g, (p) => pl(g, p, 'meanLast')));
  const bestFirst = q.sweepRates.map((g) => argmin(g, (p) => pl(g, p, 'meanFirst')));
  const bestSum = q.sweepRates.map((g) => argmin(g, (p) => pl(g, p, 'meanFirst') + pl(g, p, 'meanLast')));
  checks.push({
    id: 'packet-size-ten-percent',
    statement: '§5.7: "in systems where the latency of the first packet is important … packet sizes should be limited to a small fraction of average message size. In the systems that we simulated, packet sizes of about 10% of the average message size worked best"',
    seed: `≈ ${0.1 * mb} B (swept sizes within 5–20% of the mean: ${about10.join(', ')} B)`,
    measured: q.sweepRates.map((g, i) => `${g} ticks: best first + last ${bestSum[i]} B (best first ${bestFirst[i]} B, best last ${bestLast[i]} B)`).join('; '),
    rule: `holds if at every sweep load the size with the smallest mean first + mean last ([interp] equal weight) is one of ${about10.join(', ')} B`,
    holds: bestSum.every((p) => about10.includes(p)),
  });

  const tables: ReportTable[] = (['quasi-adaptive', 'fixed-packet'] as const).map((t) => {
    const cols = VARIANTS.map((x) => v(t, x.key));
    return {
      title: `${TRANSPORT_LABEL[t]}: mean first / last times (ticks), exp(${mb}), ${q.messagesPerNode} messages per node, ${q.delivery} delivery`,
      columns: ['gap', 'U ideal', 'first 13×32', 'first 26×32', 'first 13×64', 'last 13×32', 'last 26×32', 'last 13×64'],
      rows: R.map((g, i) => [g, U[i]!, cols[0]![i]!.meanFirst, cols[1]![i]!.meanFirst, cols[2]![i]!.meanFirst, cols[0]![i]!.meanLast, cols[1]![i]!.meanLast, cols[2]![i]!.meanLast]),
      digits: [0, 3],
    };
  });
  tables.push({
    title: 'Buffer-count sweep (quasi-adaptive, 32 B packets): mean first / last (ticks)',
    columns: ['buffers', ...q.sweepRates.flatMap((g) => [`first@${g}`, `last@${g}`])],
    rows: q.bufferSweep.map((b) => [b, ...q.sweepRates.flatMap((g) => [get('buffers', g, 'quasi-adaptive', 32, b).meanFirst, get('buffers', g, 'quasi-adaptive', 32, b).meanLast])]),
    digits: [0],
    notes: [`Seed §5.7: adequate ≈ 1–1½ × n = ${q.cubeDegree}–${1.5 * q.cubeDegree} buffers.`],
  });
  tables.push({
    title: 'Packet-size sweep (quasi-adaptive, 13 buffers): mean first / last (ticks)',
    columns: ['packet B', '% of mean', ...q.sweepRates.flatMap((g) => [`first@${g}`, `last@${g}`])],
    rows: P.map((p) => [p, (100 * p) / mb, ...q.sweepRates.flatMap((g) => [pl(g, p, 'meanFirst'), pl(g, p, 'meanLast')])]),
    digits: [0, 1],
    notes: ['Seed §5.7: "packet sizes of about 10% of the average message size worked best". [interp] The sweep holds the buffer count at 13 (not the buffer memory).'],
  });

  const variantSeries = (t: Transport): Series[] =>
    VARIANTS.flatMap((x, k) =>
      (['meanFirst', 'meanLast'] as const).map((f) => ({
        name: `${f === 'meanFirst' ? 'first' : 'last'} ${x.label}`,
        color: ['#1f77b4', '#d62728', '#2ca02c'][k],
        dashed: f === 'meanLast',
        points: idx.map((i) => [U[i] ?? NaN, v(t, x.key)[i]![f] ?? NaN] as [number, number]),
      })),
    );
  const sweepColors = ['#d62728', '#ff7f0e', '#1f77b4'];
  const fig = `Fig. ${q.figure}`;
  const plots: ReportPlot[] = [
    { id: 'quasi', title: `${fig}: buffer/packet tradeoff, quasi-adaptive, exp(${mb})`, xLabel: 'ideal link utilisation', yLabel: 'mean time from queueing (ticks)', yLog: true, series: variantSeries('quasi-adaptive') },
    { id: 'fixed', title: `${fig}: buffer/packet tradeoff, fixed packet, exp(${mb})`, xLabel: 'ideal link utilisation', yLabel: 'mean time from queueing (ticks)', yLog: true, series: variantSeries('fixed-packet') },
    {
      id: 'buffers',
      title: `${fig} (extension): buffers per PBU, quasi-adaptive, exp(${mb})`,
      xLabel: 'packet buffers per PBU',
      yLabel: 'mean time from queueing (ticks)',
      yLog: true,
      series: q.sweepRates.flatMap((g, k) =>
        (['meanFirst', 'meanLast'] as const).map((f) => ({
          name: `${f === 'meanFirst' ? 'first' : 'last'}, gap ${g}`,
          color: sweepColors[k],
          dashed: f === 'meanLast',
          points: q.bufferSweep.map((b) => [b, get('buffers', g, 'quasi-adaptive', 32, b)[f] ?? NaN] as [number, number]),
        })),
      ),
    },
    {
      id: 'packets',
      title: `${fig} (extension): packet size, quasi-adaptive, 13 buffers, exp(${mb})`,
      xLabel: 'packet data bytes',
      yLabel: 'mean time from queueing (ticks)',
      xLog: true,
      yLog: true,
      series: q.sweepRates.flatMap((g, k) =>
        (['meanFirst', 'meanLast'] as const).map((f) => ({
          name: `${f === 'meanFirst' ? 'first' : 'last'}, gap ${g}`,
          color: sweepColors[k],
          dashed: f === 'meanLast',
          points: P.map((p) => [p, pl(g, p, f)] as [number, number]),
        })),
      ),
    },
  ];
  const notes = [
    `TLM (harness/tlm), ${q.delivery} delivery, ${q.messagesPerNode} messages per node, workload seed ${q.seed}. The seed's Figs 5.14/5.15 are lost (captions only); the plotted series are [interp] first/last for the three configurations.`,
    `Deadlocks: ${results.filter((r) => r.deadlock).length}; order violations: ${results.reduce((a, r) => a + r.orderViolations, 0)}; undelivered messages: ${results.reduce((a, r) => a + r.messages - r.delivered, 0)}.`,
    `Heaviest load ${R[0]} ticks (U ≈ ${num(U[0], 2)}), lightest ${R[last]} ticks (U ≈ ${num(U[last], 3)}).`,
  ];
  if (q.quick) notes.push('--quick: few messages per node; the numbers are noisy and for testing the pipeline, not for judging the seed.');
  return { tables, checks, plots, notes, data: { rates: [...R], idealU: U, bufferKnees: knees, bestPacketLast: bestLast, bestPacketFirst: bestFirst, bestPacketFirstPlusLast: bestSum } };
}

function makeCh5(figure: Ch5Figure) {
  const mb = figureBytes(figure);
  const times = figure === '5.12' || figure === '5.13';
  return defineExperiment<Ch5Pt, Ch5Res, Ch5Params>({
    name: `buzzard-fig${figure}`,
    summary: times
      ? `mean message times vs ideal link utilisation, exp(${mb}): wormhole, fixed packet, quasi-adaptive (TLM), with the §5.7 percentages checked`
      : `buffer/packet tradeoff, exp(${mb}): 13×32 B vs 26×32 B vs 13×64 B, plus buffer-count and packet-size sweeps (TLM)`,
    source: times
      ? `seed 002 (Buzzard 1988) §5.7, Fig. ${figure} "Mean Message Times, Length = exp(${mb})" and its prose percentages (shared/spec/buzzard.md §10.3)`
      : `seed 002 (Buzzard 1988) §5.6–5.7, Fig. ${figure} "Message Times, Buffer/Packet Tradeoffs, Length = exp(${mb})" and the §5.7 summary (shared/spec/buzzard.md §10.3)`,
    method:
      'transaction-level model harness/tlm (2 ticks/byte, 4 ticks arbitration, 4-byte headers), 6-cube, uniform destinations, exponential lengths, normal gaps σ = mean/2 at the nine §5.7 rates; one workload per rate shared by every scheme',
    options: ['messages-per-node', 'seed', 'delivery'],
    params: (cli) => resolveParams(figure, cli),
    points: ch5Points,
    cost,
    runPoint: runCh5Point,
    assemble: (q, points, results) => (times ? assembleTimes(q, points, results) : assembleTradeoff(q, points, results)),
  });
}

export const buzzardFig512 = makeCh5('5.12');
export const buzzardFig513 = makeCh5('5.13');
export const buzzardFig514 = makeCh5('5.14');
export const buzzardFig515 = makeCh5('5.15');
