/**
 * buzzard-ch5-light: the light-load end points of seed 002 §5.7 (exp(512),
 * lightest rate, 9216 ticks) against the TLM's undetermined modelling
 * choices (docs/buzzard-ch5.md): where per-hop packet forwarding starts
 * (TlmConfig.forwardStart), when a wormhole source slot frees
 * (TlmConfig.wormholeSlotFree), and the delivery model of each scheme
 * (TlmConfig.delivery). The seed's ends: fixed-packet latency 87% of
 * wormhole, quasi-adaptive 77%, bandwidth about 81% for both.
 *
 * Every wormhole configuration is paired with every packet configuration (the
 * ratios are quotients of independent runs on one workload), so 4 wormhole
 * runs and 16 packet runs give 32 combinations; the table lists them by their
 * largest distance from the seed's four numbers.
 */
import type { Delivery, ForwardStart, Transport, WormholeSlotFree } from '../tlm/config.ts';
import { runTlm } from '../tlm/buzzard-tlm.ts';
import { chapter5Workload } from '../tlm/sweep.ts';
import { CH5_RATES } from '../workloads/buzzard.ts';
import { CH5_DELIVERY_DEFAULT, TOLERANCE, near, ratio } from './buzzard-ch5-common.ts';
import { defineExperiment, messagesPerNodeParam, pct, type ExperimentCliValues, type ReportPlot, type SeedCheck } from './types.ts';

/** §5.7 at the lightest exp(512) load. */
export const LIGHT_SEED = Object.freeze({ fixedLat: 0.87, quasiLat: 0.77, fixedBw: 0.81, quasiBw: 0.81 });

export const FORWARD_STARTS: readonly ForwardStart[] = ['header', 12, 20, 'packet'];
export const SLOT_FREES: readonly WormholeSlotFree[] = ['tail-sent', 'delivered'];
const DELIVERIES: readonly Delivery[] = ['per-link', 'shared-port'];

export interface LightParams {
  readonly meanGapTicks: number;
  readonly messagesPerNode: number;
  readonly seed: number;
  readonly quick: boolean;
}

export interface LightPt {
  readonly transport: Transport;
  readonly delivery: Delivery;
  /** packet transports */
  readonly forwardStart: ForwardStart | null;
  /** wormhole */
  readonly slotFree: WormholeSlotFree | null;
}

export interface LightRes {
  readonly meanFirst: number;
  readonly meanLast: number;
  readonly meanLastMinusFirst: number;
  readonly delivered: number;
  readonly messages: number;
}

export interface LightCombo {
  readonly wormhole: { readonly slotFree: WormholeSlotFree; readonly delivery: Delivery };
  readonly packet: { readonly forwardStart: ForwardStart; readonly delivery: Delivery };
  readonly fixedLat: number | null;
  readonly quasiLat: number | null;
  readonly fixedBw: number | null;
  readonly quasiBw: number | null;
  /** Largest |measured − seed| over the four ratios. */
  readonly worst: number;
}

function fsText(f: ForwardStart): string {
  return f === 'header' ? 'header (4 B)' : f === 'packet' ? 'whole packet' : typeof f === 'number' ? `${f} B` : `${f.ticks} ticks`;
}

/** All combinations, best (smallest worst distance) first. */
export function lightCombos(points: readonly LightPt[], results: readonly LightRes[]): LightCombo[] {
  const find = (f: (p: LightPt) => boolean): LightRes => results[points.findIndex(f)]!;
  const out: LightCombo[] = [];
  for (const sf of SLOT_FREES) {
    for (const wd of DELIVERIES) {
      const wh = find((p) => p.transport === 'wormhole' && p.slotFree === sf && p.delivery === wd);
      for (const fs of FORWARD_STARTS) {
        for (const pd of DELIVERIES) {
          const fx = find((p) => p.transport === 'fixed-packet' && p.forwardStart === fs && p.delivery === pd);
          const qa = find((p) => p.transport === 'quasi-adaptive' && p.forwardStart === fs && p.delivery === pd);
          const c = {
            fixedLat: ratio(fx.meanFirst, wh.meanFirst),
            quasiLat: ratio(qa.meanFirst, wh.meanFirst),
            fixedBw: ratio(wh.meanLastMinusFirst, fx.meanLastMinusFirst),
            quasiBw: ratio(wh.meanLastMinusFirst, qa.meanLastMinusFirst),
          };
          const worst = Math.max(...(Object.keys(LIGHT_SEED) as (keyof typeof LIGHT_SEED)[]).map((k) => (c[k] === null ? Infinity : Math.abs(c[k]! - LIGHT_SEED[k]))));
          out.push({ wormhole: { slotFree: sf, delivery: wd }, packet: { forwardStart: fs, delivery: pd }, ...c, worst });
        }
      }
    }
  }
  return out.sort((a, b) => a.worst - b.worst);
}

export const buzzardCh5Light = defineExperiment<LightPt, LightRes, LightParams>({
  name: 'buzzard-ch5-light',
  summary: "the TLM's undetermined choices (per-hop forwarding start, wormhole slot release, delivery per scheme) against §5.7's light-load end points (87% / 77% latency, ~81% bandwidth)",
  source: 'seed 002 (Buzzard 1988) §5.7, exp(512) at the lightest rate: fixed latency 87%, quasi-adaptive up to 77%, bandwidth about 81% (docs/sources.md, buzzard §10.3)',
  method: 'TLM (harness/tlm) at 9216 ticks, 6-cube, one workload; wormhole × {slot frees at tail / at delivery} × {per-link, shared-port}; fixed and quasi-adaptive × forwarding after {header, 12 B, 20 B, whole packet} × {per-link, shared-port}',
  options: ['messages-per-node', 'seed'],
  params: (cli: ExperimentCliValues): LightParams => {
    const mpn = messagesPerNodeParam(cli, 16, 200);
    return { meanGapTicks: CH5_RATES[512].at(-1)!, messagesPerNode: mpn, seed: cli.seed ?? 1, quick: cli.quick };
  },
  points: () => {
    const out: LightPt[] = [];
    for (const slotFree of SLOT_FREES) for (const delivery of DELIVERIES) out.push({ transport: 'wormhole', delivery, forwardStart: null, slotFree });
    for (const t of ['fixed-packet', 'quasi-adaptive'] as const) for (const forwardStart of FORWARD_STARTS) for (const delivery of DELIVERIES) out.push({ transport: t, delivery, forwardStart, slotFree: null });
    return out;
  },
  runPoint: (p, q) => {
    const w = chapter5Workload(512, q.meanGapTicks, { messagesPerNode: q.messagesPerNode, seed: q.seed });
    const r = runTlm(w, { transport: p.transport, delivery: p.delivery, recordEvents: false, ...(p.forwardStart !== null ? { forwardStart: p.forwardStart } : {}), ...(p.slotFree !== null ? { wormholeSlotFree: p.slotFree } : {}) });
    return { meanFirst: r.stats.meanFirst, meanLast: r.stats.meanLast, meanLastMinusFirst: r.stats.meanLastMinusFirst, delivered: r.stats.delivered, messages: r.stats.messages };
  },
  assemble: (q, points, results) => {
    const combos = lightCombos(points, results);
    const isDefault = (c: LightCombo): boolean =>
      c.wormhole.slotFree === 'tail-sent' && c.packet.forwardStart === 'header' && c.wormhole.delivery === CH5_DELIVERY_DEFAULT.wormhole && c.packet.delivery === CH5_DELIVERY_DEFAULT.packet;
    const def = combos.find(isDefault)!;
    const best = combos[0]!;
    const all4 = (c: LightCombo): boolean => near(c.fixedLat, LIGHT_SEED.fixedLat) && near(c.quasiLat, LIGHT_SEED.quasiLat) && near(c.fixedBw, LIGHT_SEED.fixedBw) && near(c.quasiBw, LIGHT_SEED.quasiBw);
    const text = (c: LightCombo): string =>
      `wormhole slot ${c.wormhole.slotFree}, ${c.wormhole.delivery}; packets forward after ${fsText(c.packet.forwardStart)}, ${c.packet.delivery}: latency fixed ${pct(c.fixedLat)} quasi ${pct(c.quasiLat)}, bandwidth fixed ${pct(c.fixedBw)} quasi ${pct(c.quasiBw)}`;
    const matching = combos.filter(all4);
    const checks: SeedCheck[] = [
      {
        id: 'default-light-ends',
        statement: '§5.7 at the lightest exp(512) load: fixed latency 87%, quasi-adaptive 77%, bandwidth about 81% (both), with the default modelling choices',
        seed: '87% / 77% / 81% / 81%',
        measured: text(def),
        rule: `holds if all four are within ±${TOLERANCE * 100} percentage points`,
        holds: all4(def),
      },
      {
        id: 'some-choice-matches',
        statement: 'the same four numbers: is there a combination of the swept choices that gives all of them?',
        seed: '87% / 77% / 81% / 81%',
        measured: `${matching.length} of ${combos.length} combinations within ±${TOLERANCE * 100} pp; closest: ${text(best)} (worst distance ${pct(best.worst)})`,
        rule: 'reported (the sweep informs the defaults; it does not test the seed)',
        holds: null,
      },
    ];
    const fsx = (f: ForwardStart): number => (f === 'header' ? 4 : f === 'packet' ? 36 : typeof f === 'number' ? f : NaN);
    const pick = (sf: WormholeSlotFree, d: Delivery) => FORWARD_STARTS.map((f) => combos.find((c) => c.wormhole.slotFree === sf && c.wormhole.delivery === d && c.packet.delivery === d && c.packet.forwardStart === f)!);
    const plots: ReportPlot[] = [
      {
        id: '',
        title: `§5.7 light-load ratios vs forwarding start (same delivery for all schemes)${q.quick ? ' [--quick]' : ''}`,
        xLabel: 'bytes of a packet in before the next PBU may route it (36 = whole packet)',
        yLabel: 'ratio to wormhole',
        series: [
          ...SLOT_FREES.flatMap((sf) =>
            DELIVERIES.map((d, k) => ({
              name: `latency fixed, slot ${sf}, ${d}`,
              color: ['#d62728', '#ff7f0e', '#8c564b', '#e377c2'][SLOT_FREES.indexOf(sf) * 2 + k],
              marker: 'square' as const,
              dashed: d === 'shared-port',
              points: pick(sf, d).map((c) => [fsx(c.packet.forwardStart), c.fixedLat ?? NaN] as [number, number]),
            })),
          ),
          { name: 'seed: fixed latency 87%', color: '#000000', marker: 'diamond', markersOnly: true, points: [[4, 0.87], [36, 0.87]] },
          { name: 'seed: quasi latency 77%', color: '#2ca02c', marker: 'diamond', markersOnly: true, points: [[4, 0.77], [36, 0.77]] },
          { name: 'seed: bandwidth 81%', color: '#9467bd', marker: 'diamond', markersOnly: true, points: [[4, 0.81], [36, 0.81]] },
        ],
      },
    ];
    return {
      tables: [
        {
          title: `Light-load ratios to wormhole at ${q.meanGapTicks} ticks, exp(512), ${q.messagesPerNode} messages per node (best first; seed 87% / 77% / 81% / 81%)`,
          columns: ['wh slot frees', 'wh delivery', 'packets forward after', 'packet delivery', 'lat fixed', 'lat quasi', 'bw fixed', 'bw quasi', 'worst |Δ|', 'default'],
          rows: combos.map((c) => [c.wormhole.slotFree, c.wormhole.delivery, fsText(c.packet.forwardStart), c.packet.delivery, pct(c.fixedLat), pct(c.quasiLat), pct(c.fixedBw), pct(c.quasiBw), pct(c.worst), isDefault(c) ? 'yes' : '']),
        },
      ],
      checks,
      plots,
      notes: [
        'Light load is stable at every configuration (the chapter-5 runs show < 3% growth of the means when the run is doubled at 9216 ticks), so no stability gate applies here.',
        `Every run delivered every message: ${results.every((r) => r.delivered === r.messages)}.`,
        ...(q.quick ? ['--quick: 16 messages per node; the ratios are noisy.'] : []),
      ],
      data: { combos: combos.map((c) => ({ ...c })) } as never,
    };
  },
});
