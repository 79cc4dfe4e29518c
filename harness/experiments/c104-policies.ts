/**
 * c104-policies: seed 004 Fig. 4.11 (§4.2.4) on the T9000/C104 TLM — the
 * five crossbar queue orderings (FIFO, random, net-first, oldest-first,
 * hops-first) × C104 ack prioritisation off/on, packet passing, on 8×8,
 * 16×16 and 24×24 processor meshes running Chapter 4's boundary exchange
 * (N = 2·side torus, 32-byte messages). The seed gives no compute period
 * for this figure; icemu uses 1 µs (a communication-bound load,
 * docs/thesis-model.md#chapter-4-runs). Meshes of
 * more than 256 nodes use 2-byte headers (spec §16.2).
 */
import { CROSSBAR_POLICIES, type CrossbarPolicy } from '../tlm/t9000-c104/index.ts';
import { exchangeNote, runExchange, type ExchangeResult } from './c104-exchange.ts';
import { predicateCheck } from './c104-verdicts.ts';
import { defineExperiment, type ExperimentCliValues, type ReportTable, type SeedCheck } from './types.ts';

export interface PolPoint {
  readonly side: number;
  readonly policy: CrossbarPolicy;
  readonly c104AckPriority: boolean;
}
export type PolResult = ExchangeResult;
export interface PolParams {
  readonly quick: boolean;
  readonly sides: readonly number[];
}

function points(q: PolParams): PolPoint[] {
  const out: PolPoint[] = [];
  for (const side of q.sides) for (const c104AckPriority of [false, true]) for (const policy of CROSSBAR_POLICIES) out.push({ side, policy, c104AckPriority });
  return out;
}

function runPoint(p: PolPoint): PolResult {
  return runExchange(p.side, { crossbarPolicy: p.policy, c104AckPriority: p.c104AckPriority });
}

/** Fig. 4.11 "ack prioritisation improved every policy": every gain (rate with C104 ack priority / without − 1) above 0. */
export function ackHelpsHolds(gains: readonly number[]): boolean {
  return gains.every((g) => g > 0);
}

/** Fig. 4.11 orderings over one size's results (rate by policy, for one ack-priority setting). */
export function policyOrdering(rate: Record<CrossbarPolicy, number>, tol = 0.005) {
  const best = Math.max(...Object.values(rate));
  return {
    topTwoBest: rate['hops-first'] >= best * (1 - tol) && rate['oldest-first'] >= best * (1 - tol),
    beatFifo: (['random', 'oldest-first', 'hops-first'] as const).every((k) => rate[k] > rate.fifo),
    netFirstNotAbove: rate['net-first'] <= rate.fifo * (1 + tol),
  };
}

function assemble(q: PolParams, pts: readonly PolPoint[], res: readonly PolResult[]) {
  const get = (side: number, pol: CrossbarPolicy, ack: boolean) => res[pts.findIndex((p) => p.side === side && p.policy === pol && p.c104AckPriority === ack)]!;
  const rows: (string | number)[][] = [];
  const checks: SeedCheck[] = [];
  const ackHelps: string[] = [];
  const gains: number[] = [];
  const ord = { top: true, fifo: true, net: true };
  const txt = { top: [] as string[], fifo: [] as string[], net: [] as string[] };
  for (const side of q.sides) {
    for (const ack of [false, true]) {
      const rate = Object.fromEntries(CROSSBAR_POLICIES.map((k) => [k, get(side, k, ack).exchangesPerMs])) as Record<CrossbarPolicy, number>;
      rows.push([`${side}×${side}, C104 ack priority ${ack ? 'on' : 'off'}`, ...CROSSBAR_POLICIES.map((k) => rate[k])]);
      const o = policyOrdering(rate);
      ord.top &&= o.topTwoBest;
      ord.fifo &&= o.beatFifo;
      ord.net &&= o.netFirstNotAbove;
      const tag = `${side}² ${ack ? 'on' : 'off'}`;
      txt.top.push(`${tag}: ${o.topTwoBest ? 'yes' : 'no'}`);
      txt.fifo.push(`${tag}: ${(['random', 'oldest-first', 'hops-first'] as const).map((k) => `${k} ${(100 * (rate[k] / rate.fifo - 1)).toFixed(1)}%`).join(', ')}`);
      txt.net.push(`${tag}: ${(100 * (rate['net-first'] / rate.fifo - 1)).toFixed(1)}%`);
    }
    for (const k of CROSSBAR_POLICIES) {
      const gain = get(side, k, true).exchangesPerMs / get(side, k, false).exchangesPerMs - 1;
      gains.push(gain);
      ackHelps.push(`${side}² ${k} ${(100 * gain).toFixed(1)}%`);
    }
  }
  checks.push(predicateCheck('f4.11-ack-helps', 'Fig. 4.11: ack prioritisation in the router improved every policy', 'every policy better', ackHelps.join('; '), 'holds if the rate with C104 ack priority is higher for every policy and size', ackHelpsHolds(gains)));
  checks.push(predicateCheck('f4.11-top-two', 'Fig. 4.11: hops-first and oldest-first are the best policies, with little difference, even without ack prioritisation', 'hops-first ≈ oldest-first best', txt.top.join('; '), 'holds if both are within 0.5% of the best policy in every run set', ord.top));
  checks.push(predicateCheck('f4.11-beat-fifo', 'Fig. 4.11: every policy except net-first beats the default FIFO', 'random, oldest-first, hops-first > FIFO', txt.fifo.join('; '), 'holds if each is above FIFO in every run set', ord.fifo));
  checks.push(predicateCheck('f4.11-net-first', 'Fig. 4.11: net-first does not beat FIFO', 'net-first ≤ FIFO', txt.net.join('; '), 'holds if net-first is at most 0.5% above FIFO in every run set', ord.net));
  const tables: ReportTable[] = [{ title: 'Fig. 4.11: application exchanges per ms (machine-wide) by crossbar policy', columns: ['run set', ...CROSSBAR_POLICIES], rows, digits: [0, 0, 0, 0, 0, 0] }];
  return {
    tables,
    checks,
    plots: [
      {
        id: 'policies',
        title: 'Fig. 4.11: exchanges per ms per processor by policy (x: policy index FIFO, random, net-first, oldest-first, hops-first)',
        xLabel: 'policy index',
        yLabel: 'exchanges per ms per processor',
        series: q.sides.flatMap((side) => [false, true].map((ack) => ({ name: `${side}×${side} ack ${ack ? 'on' : 'off'}`, dashed: !ack, points: CROSSBAR_POLICIES.map((k, i) => [i, get(side, k, ack).exchangesPerMs / (side * side)] as const) }))),
      },
    ],
    notes: [exchangeNote(res)],
  };
}

export const c104Policies = defineExperiment<PolPoint, PolResult, PolParams>({
  name: 'c104-policies',
  summary: 'seed 004 Fig. 4.11: crossbar policies × C104 ack priority on 8², 16², 24² meshes (T9000/C104 TLM, boundary exchange)',
  source: 'seed 004 §4.2.4, Fig. 4.11 (docs/sources.md, c104-t9000 §11)',
  method: 'T9000/C104 packet-passing TLM; Chapter 4 boundary exchange, 32-byte messages, 1 µs compute',
  options: [],
  params: (cli: ExperimentCliValues) => ({ quick: cli.quick, sides: cli.quick ? [8] : [8, 16, 24] }),
  points,
  cost: (p) => p.side * p.side,
  runPoint,
  assemble,
});
