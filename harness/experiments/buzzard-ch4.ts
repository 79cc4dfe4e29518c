/**
 * buzzard-ch4: seed 002 §4.4 (docs/sources.md, buzzard §10.1) — datagram,
 * datagram with cut-through and persistent circuit switching × fixed /
 * adaptive routing × unidirectional / bidirectional links, on the workloads
 * of Figs 4.6–4.27 (harness/workloads/buzzard.ts CH4_FIGURES), with the §4.4
 * simulator's times (harness/tlm/ch4.ts: 1 tick per byte, 1 tick set-up, 40
 * ticks buffer allocation, creation-time priority); min / mean / mean + σ /
 * max message times; the seven qualitative results as statements with
 * stated rules; and the §4.5 relations (wormhole M + hβ, packet M + hα)
 * measured on the Buzzard TLM at zero load.
 *
 * The figures' plots are lost (captions only), so there are no seed numbers:
 * every statement is a relation between measured means.
 */
import { runCh4, type Ch4Links, type Ch4Routing, type Ch4Transport } from '../tlm/ch4.ts';
import { runTlm } from '../tlm/buzzard-tlm.ts';
import { CH4_FIGURES, buzzardCh4Workload } from '../workloads/buzzard.ts';
import { finalizeMessages, type Workload } from '../workloads/types.ts';
import { BATCH_MEANS_RULE, batchMeansHalfWidth } from './buzzard-ch5-common.ts';
import { defineExperiment, messagesPerNodeParam, num, type ExperimentCliValues, type ReportPlot, type SeedCheck } from './types.ts';

export const CH4_TRANSPORTS: readonly Ch4Transport[] = ['datagram', 'cut-through', 'circuit'];
const ROUTINGS: readonly Ch4Routing[] = ['fixed', 'adaptive'];
const LINKS: readonly Ch4Links[] = ['uni', 'bi'];
const CODE: Record<Ch4Transport, string> = { datagram: 'DT', 'cut-through': 'DC', circuit: 'CS' }; // Fig. 4.5 legend

export interface Ch4Params {
  readonly figures: readonly string[];
  readonly messagesPerNode: number;
  readonly seed: number;
  readonly quick: boolean;
  /** harness/tlm/ch4.ts adaptiveHops (default 'every'; 'first' is the sensitivity run of docs/buzzard-ch4.md). */
  readonly adaptiveHops?: 'every' | 'first';
}

/** The constant-gap (bursty) figures of §4.4. */
export const BURSTY: readonly string[] = ['4.24', '4.25', '4.26', '4.27'];

/**
 * Control workload for a bursty figure (id '<fig>e'): the same lengths and
 * destinations with exponential gaps of the same mean, so that the rise
 * from it to the figure is the effect of the constant gaps alone
 * (docs/buzzard-ch4.md#bursts). Not a seed figure.
 */
export function ch4Workload(fig: string): (typeof CH4_FIGURES)[string] {
  const base = CH4_FIGURES[fig.endsWith('e') ? fig.slice(0, -1) : fig]!;
  if (!fig.endsWith('e')) return base;
  const g = base.interGeneration;
  if (g === 'flooded' || g.law !== 'constant') throw new RangeError(`buzzard-ch4: no exponential-gap control for figure ${fig}`);
  return { ...base, interGeneration: { law: 'exp', mean: g.value } };
}

export type Ch4Pt = { readonly kind: 'fig'; readonly fig: string; readonly transport: Ch4Transport; readonly routing: Ch4Routing; readonly links: Ch4Links } | { readonly kind: 'sec4.5' };

export interface Ch4Res {
  readonly min?: number;
  readonly mean?: number;
  readonly meanPlusSd?: number;
  readonly max?: number;
  /** 95% half-width of the mean by batch means (BATCH_MEANS_RULE), null with fewer than 20 messages. */
  readonly ci95?: number | null;
  readonly delivered?: number;
  readonly messages?: number;
  readonly maxBufferBytes?: number;
  readonly preemptions?: number;
  /** §4.5: zero-load times of the Buzzard TLM (ticks) by transport, M and h. */
  readonly zeroLoad?: { readonly transport: string; readonly M: number; readonly h: number; readonly t: number }[];
}

/** Legend code, e.g. DCAB = datagram cut-through, adaptive, bidirectional (Fig. 4.5). */
export function ch4Code(t: Ch4Transport, r: Ch4Routing, l: Ch4Links): string {
  return `${CODE[t]}${r === 'fixed' ? 'F' : 'A'}${l === 'bi' ? 'B' : 'U'}`;
}

function sec45(): Ch4Res {
  const out: { transport: string; M: number; h: number; t: number }[] = [];
  for (const transport of ['wormhole', 'fixed-packet'] as const) {
    for (const M of [64, 256, 1024]) {
      for (let h = 1; h <= 6; h++) {
        const w: Workload = { name: 's45', seed: null, params: {}, unit: 'ticks', cubeDegree: 6, messages: finalizeMessages([{ t: 0, src: 0, dst: (1 << h) - 1, bytes: M, kind: 'unicast' }]) };
        out.push({ transport, M, h, t: runTlm(w, { transport, recordEvents: false }).perMessage[0]!.last });
      }
    }
  }
  return { zeroLoad: out };
}

export const buzzardCh4 = defineExperiment<Ch4Pt, Ch4Res, Ch4Params>({
  name: 'buzzard-ch4',
  summary: 'Chapter 4 transports (datagram, cut-through, persistent circuit switching × fixed/adaptive × uni/bidirectional) on the Figs 4.6–4.27 workloads, the seven §4.4 results as statements, §4.5 M + hβ vs M + hα',
  source: 'seed 002 (Buzzard 1988) §4.4 Figs 4.5–4.27 (captions; plots lost) and the §4.4 prose results, §4.5 (docs/sources.md, buzzard §10.1, §10.2)',
  method: '§4.4 simulator harness/tlm/ch4.ts (1 tick/byte, 1 tick set-up, 40 ticks buffer allocation, creation-time priority), 6-cube, one workload per figure shared by the 12 configurations; §4.5 on the Buzzard TLM at zero load',
  options: ['messages-per-node', 'seed'],
  params: (cli: ExperimentCliValues): Ch4Params => {
    const mpn = messagesPerNodeParam(cli, 4, 40);
    return { figures: Object.keys(CH4_FIGURES), messagesPerNode: mpn, seed: cli.seed ?? 1, quick: cli.quick };
  },
  points: (q) => {
    const out: Ch4Pt[] = [{ kind: 'sec4.5' }];
    const controls = BURSTY.every((f) => q.figures.includes(f)) ? BURSTY.map((f) => `${f}e`) : [];
    for (const fig of [...q.figures, ...controls]) for (const transport of CH4_TRANSPORTS) for (const routing of ROUTINGS) for (const links of LINKS) out.push({ kind: 'fig', fig, transport, routing, links });
    return out;
  },
  runPoint: (p, q) => {
    if (p.kind === 'sec4.5') return sec45();
    const w = buzzardCh4Workload({ ...ch4Workload(p.fig), messagesPerNode: q.messagesPerNode, seed: q.seed });
    const r = runCh4(w, { transport: p.transport, routing: p.routing, links: p.links, adaptiveHops: q.adaptiveHops ?? 'every' });
    const ts = Array.from(r.times).filter((x) => !Number.isNaN(x));
    const mean = ts.reduce((a, b) => a + b, 0) / ts.length;
    const sd = Math.sqrt(ts.reduce((a, b) => a + (b - mean) ** 2, 0) / ts.length);
    return { min: Math.min(...ts), mean, meanPlusSd: mean + sd, max: Math.max(...ts), ci95: batchMeansHalfWidth(Array.from(r.times)), delivered: r.delivered, messages: w.messages.length, maxBufferBytes: r.maxBufferBytes, preemptions: r.preemptions };
  },
  assemble: (q, points, results) => {
    const get = (fig: string, t: Ch4Transport, r: Ch4Routing, l: Ch4Links): Ch4Res => results[points.findIndex((p) => p.kind === 'fig' && p.fig === fig && p.transport === t && p.routing === r && p.links === l)]!;
    const mean = (fig: string, t: Ch4Transport, r: Ch4Routing, l: Ch4Links): number => get(fig, t, r, l).mean!;
    const combos = ROUTINGS.flatMap((r) => LINKS.map((l) => [r, l] as const));
    const flooded = ['4.6', '4.7', '4.8', '4.9', '4.10', '4.11', '4.12', '4.13', '4.14'];
    const share = (xs: boolean[]): number => xs.filter(Boolean).length / xs.length;
    const pctS = (x: number): string => `${(100 * x).toFixed(0)}%`;
    const checks: SeedCheck[] = [];
    // 1. flooded
    const dtDc = flooded.flatMap((f) => combos.map(([r, l]) => mean(f, 'datagram', r, l) / mean(f, 'cut-through', r, l)));
    checks.push({
      id: 'flooded-datagram-like-cut-through',
      statement: '§4.4 (flooded, Figs 4.6–4.14): datagram and cut-through perform about the same ("cut-through rarely establishes a connection longer than one hop")',
      seed: 'mean DT ≈ mean DC',
      measured: `DT/DC mean ratio ${num(Math.min(...dtDc), 2)}…${num(Math.max(...dtDc), 2)} over ${dtDc.length} (figure, routing, links) cases; within [0.8, 1.25] in ${pctS(share(dtDc.map((x) => x >= 0.8 && x <= 1.25)))}`,
      rule: 'holds if the ratio is within [0.8, 1.25] in at least 75% of the flooded cases',
      holds: share(dtDc.map((x) => x >= 0.8 && x <= 1.25)) >= 0.75,
    });
    const csWorse = flooded.flatMap((f) => combos.map(([r, l]) => mean(f, 'circuit', r, l) / Math.max(mean(f, 'datagram', r, l), mean(f, 'cut-through', r, l))));
    checks.push({
      id: 'flooded-circuit-worst',
      statement: '§4.4 (flooded): datagram and cut-through are "consistently and significantly better than circuit switching"',
      seed: 'mean CS > mean DT and mean DC',
      measured: `CS / max(DT, DC) ${num(Math.min(...csWorse), 2)}…${num(Math.max(...csWorse), 2)}; > 1.1 in ${pctS(share(csWorse.map((x) => x > 1.1)))} of ${csWorse.length} cases`,
      rule: 'holds if CS is more than 10% slower than both in at least 75% of the flooded cases',
      holds: share(csWorse.map((x) => x > 1.1)) >= 0.75,
    });
    const fixNor = CH4_TRANSPORTS.flatMap((t) => combos.map(([r, l]) => mean('4.9', t, r, l) / mean('4.10', t, r, l)));
    checks.push({
      id: 'flooded-fixed-vs-normal-lengths',
      statement: '§4.4: "fixed vs normal lengths with the same mean about the same" (Fig. 4.9 constant 8192 vs Fig. 4.10 nor(8192, 2048))',
      seed: 'mean(4.9) ≈ mean(4.10)',
      measured: `ratio ${num(Math.min(...fixNor), 2)}…${num(Math.max(...fixNor), 2)} over the 12 configurations`,
      rule: 'holds if within [0.8, 1.25] for every configuration',
      holds: fixNor.every((x) => x >= 0.8 && x <= 1.25),
    });
    // 2. bidirectional, 3. adaptive: both are said of the flooded uniform runs (§4.4 ¶ after Figs 4.6–4.10;
    // docs/buzzard-ch4.md#statement-scopes); lighter loads have their own adaptive statement (5).
    const floodedUni = ['4.6', '4.7', '4.8', '4.9', '4.10'];
    const large = floodedUni.slice(1);
    const biOf = (figs: readonly string[]) => figs.flatMap((f) => CH4_TRANSPORTS.flatMap((t) => ROUTINGS.map((r) => mean(f, t, r, 'uni') / mean(f, t, r, 'bi'))));
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const bi = biOf(large);
    const biSmall = biOf(['4.6']);
    const med = median(bi);
    checks.push({
      id: 'bidirectional-doubles',
      statement: '§4.4 (flooded, Figs 4.6–4.10): "non-interfering bidirectional links directly contribute to about a doubling in performance in all cases. The performance increase is even better for small messages"',
      seed: 'mean(uni) / mean(bi) ≈ 2 (Figs 4.7–4.10), larger for 16-byte messages (Fig. 4.6)',
      measured: `Figs 4.7–4.10: median ${num(med, 2)}, range ${num(Math.min(...bi), 2)}…${num(Math.max(...bi), 2)}, within [1.6, 2.6] in ${pctS(share(bi.map((x) => x >= 1.6 && x <= 2.6)))} of ${bi.length}; Fig. 4.6 (16 B): median ${num(median(biSmall), 2)}`,
      rule: 'holds if in Figs 4.7–4.10 the median ratio is within [1.6, 2.6] and at least 75% of the cases are, and the median for Fig. 4.6 is larger',
      holds: med >= 1.6 && med <= 2.6 && share(bi.map((x) => x >= 1.6 && x <= 2.6)) >= 0.75 && median(biSmall) > med,
    });
    const adapt = floodedUni.flatMap((f) => CH4_TRANSPORTS.flatMap((t) => LINKS.map((l) => mean(f, t, 'fixed', l) / mean(f, t, 'adaptive', l))));
    const adaptCs = floodedUni.flatMap((f) => LINKS.map((l) => mean(f, 'circuit', 'fixed', l) / mean(f, 'circuit', 'adaptive', l)));
    checks.push({
      id: 'adaptive-marginal',
      statement: '§4.4 (flooded, Figs 4.6–4.10): adaptive routing gives "marginal performance improvements at best and often leads to significant performance decreases. This is especially true for circuit switching"',
      seed: 'mean(fixed) / mean(adaptive) ≤ ≈1.1; often < 1 for CS',
      measured: `fixed/adaptive ${num(Math.min(...adapt), 2)}…${num(Math.max(...adapt), 2)}; ≤ 1.1 in ${pctS(share(adapt.map((x) => x <= 1.1)))} of ${adapt.length}; circuit ≤ 1.1 in ${pctS(share(adaptCs.map((x) => x <= 1.1)))}, < 1 in ${pctS(share(adaptCs.map((x) => x < 1)))}`,
      rule: 'holds if the improvement is at most 10% in at least 75% of the cases, and in every circuit case',
      holds: share(adapt.map((x) => x <= 1.1)) >= 0.75 && adaptCs.every((x) => x <= 1.1),
    });
    // 4. locality
    const csDc = (f: string, r: Ch4Routing, l: Ch4Links): number => mean(f, 'circuit', r, l) / mean(f, 'cut-through', r, l);
    const loc = combos.map(([r, l]) => [csDc('4.6', r, l), Math.min(csDc('4.13', r, l), csDc('4.14', r, l))] as const);
    checks.push({
      id: 'locality-small-circuit-better',
      statement: '§4.4: with locality (dpf, sl) and small messages "circuit switching looks comparatively better" (Figs 4.13, 4.14 vs 4.6)',
      seed: 'CS/DC lower with local destinations than with uniform, 16-byte messages',
      measured: combos.map(([r, l], k) => `${r}/${l}: uniform ${num(loc[k]![0], 2)} → local ${num(loc[k]![1], 2)}`).join('; '),
      rule: 'holds if lower with locality for every routing/links combination',
      holds: loc.every(([u, lo]) => lo < u),
    });
    // 5. lighter loads
    const trend = combos.map(([r, l]) => ['4.15', '4.16', '4.17'].map((f) => csDc(f, r, l)));
    checks.push({
      id: 'light-circuit-approaches-cut-through',
      statement: '§4.4 (Figs 4.15–4.17): "circuit switching approaches cut-through as load falls"',
      seed: 'CS/DC falls from exp(512) to exp(2560) inter-generation',
      measured: combos.map(([r, l], k) => `${r}/${l}: ${trend[k]!.map((x) => num(x, 2)).join(' → ')}`).join('; '),
      rule: 'holds if CS/DC at exp(2560) is below that at exp(512) for every combination',
      holds: trend.every((t) => t[2]! < t[0]!),
    });
    // §4.4 ¶ on Figs 4.16, 4.17, 4.19, 4.20, 4.22, 4.23: "adaptive routing is useful, though its effect is frequently
    // small. The chief exceptions occur with small packets … adaptive routing, in conjunction with circuit switching"
    const lighter = ['4.16', '4.17', '4.19', '4.20', '4.22', '4.23'];
    const adaptLight = lighter.flatMap((f) => CH4_TRANSPORTS.filter((t) => !(t === 'circuit' && (f === '4.22' || f === '4.23'))).flatMap((t) => LINKS.map((l) => mean(f, t, 'fixed', l) / mean(f, t, 'adaptive', l))));
    checks.push({
      id: 'light-adaptive-useful-small',
      statement: '§4.4 (moderate and light loads, Figs 4.16, 4.17, 4.19, 4.20, 4.22, 4.23): "adaptive routing is useful, though its effect is frequently small" (small-message circuits excepted)',
      seed: 'mean(fixed) / mean(adaptive) > 1 mostly, ≤ 1.1 often',
      measured: `fixed/adaptive ${num(Math.min(...adaptLight), 2)}…${num(Math.max(...adaptLight), 2)}; > 1 in ${pctS(share(adaptLight.map((x) => x > 1)))}, ≤ 1.1 in ${pctS(share(adaptLight.map((x) => x <= 1.1)))} of ${adaptLight.length}`,
      rule: 'holds if above 1 in at least 75% of the cases and at most 1.1 in at least half',
      holds: share(adaptLight.map((x) => x > 1)) >= 0.75 && share(adaptLight.map((x) => x <= 1.1)) >= 0.5,
    });
    const small = ['4.21', '4.22', '4.23'].flatMap((f) => LINKS.map((l) => mean(f, 'circuit', 'adaptive', l) / mean(f, 'circuit', 'fixed', l)));
    checks.push({
      id: 'small-adaptive-circuit-hurts',
      statement: '§4.4 (Figs 4.21–4.23, 16-byte messages): "adaptive plus circuit switching always hurts"',
      seed: 'mean CS adaptive > mean CS fixed',
      measured: `adaptive/fixed ${small.map((x) => num(x, 2)).join(' ')}`,
      rule: 'holds if above 1 in every case',
      holds: small.every((x) => x > 1),
    });
    // 6. bursty: the rise from exponential to constant gaps, same lengths (control workloads '<fig>e', docs/buzzard-ch4.md#bursts)
    const rise = (f: string, t: Ch4Transport, r: Ch4Routing, l: Ch4Links): number => mean(f, t, r, l) / mean(`${f}e`, t, r, l);
    const burstCases = BURSTY.flatMap((f) => combos.map(([r, l]) => CH4_TRANSPORTS.map((t) => rise(f, t, r, l))));
    const csLargest = share(burstCases.map(([dt, dc, cs]) => cs! > dt! && cs! > dc!));
    const medRise = CH4_TRANSPORTS.map((_, k) => median(burstCases.map((c) => c[k]!)));
    const margin = medRise[2]! - Math.max(medRise[0]!, medRise[1]!);
    const old = CH4_TRANSPORTS.map((t) => mean('4.24', t, 'fixed', 'bi') / mean('4.16', t, 'fixed', 'bi'));
    checks.push({
      id: 'bursty-circuit-most-sensitive',
      statement: '§4.4 (Figs 4.24–4.27): with bursty constant-gap generation "circuit routing is by far the most sensitive"',
      seed: 'the rise from exponential to constant gaps (same mean, same lengths) is largest for CS, by far',
      measured: `constant / exponential gaps (Figs 4.24–4.27 vs their controls, ${burstCases.length} routing/links cases): CS largest in ${pctS(csLargest)}; median rise ${CH4_TRANSPORTS.map((t, k) => `${CODE[t]} ×${num(medRise[k], 2)}`).join(', ')}; CS − next ${num(margin, 2)}. Earlier reading (Fig. 4.24 / Fig. 4.16, fixed, bidirectional, lengths differ too): ${CH4_TRANSPORTS.map((t, k) => `${CODE[t]} ×${num(old[k], 2)}`).join(', ')}`,
      rule: 'holds if CS has the largest rise in at least 75% of the cases and its median rise exceeds the larger of DT\'s and DC\'s by at least 0.1 ("by far")',
      holds: csLargest >= 0.75 && margin >= 0.1,
    });
    // 7. buffers
    const kb = (f: string): number => Math.max(...combos.map(([r, l]) => get(f, 'datagram', r, l).maxBufferBytes!)) / 1024;
    const light = kb('4.20');
    const heavy = kb('4.18');
    checks.push({
      id: 'datagram-buffers',
      statement: '§4.4: without flow control datagrams need about 100 KB (light) to over 200 KB (heavy) of buffers per node for 8192-byte mean messages',
      seed: '≈100 KB light, > 200 KB heavy',
      measured: `largest bytes stored at one node: ${num(light, 0)} KB (Fig. 4.20, light), ${num(heavy, 0)} KB (Fig. 4.18, heavy), over the four datagram configurations`,
      rule: 'holds if light is within [50, 200] KB and heavy is larger and at least 100 KB',
      holds: light >= 50 && light <= 200 && heavy > light && heavy >= 100,
    });
    // §4.5
    const zl = results[points.findIndex((p) => p.kind === 'sec4.5')]!.zeroLoad!;
    const at = (t: string, M: number, h: number): number => zl.find((z) => z.transport === t && z.M === M && z.h === h)!.t;
    const perHop = (t: string, M: number): number[] => [2, 3, 4, 5, 6].map((h) => at(t, M, h) - at(t, M, h - 1));
    const beta = perHop('wormhole', 64)[0]!;
    const alpha = perHop('fixed-packet', 64)[0]!;
    const whLinear = [64, 256, 1024].every((M) => perHop('wormhole', M).every((x) => x === beta));
    const pkLinear = [64, 256, 1024].every((M) => perHop('fixed-packet', M).every((x) => x === alpha));
    checks.push({
      id: 'sec4.5-wormhole-M-plus-h-beta',
      statement: '§4.5: wormhole (cut-through) message time ∝ M + h·β',
      seed: 'per-hop increment β independent of M',
      measured: `Buzzard TLM at zero load: per-hop increment ${beta} ticks for M = 64, 256, 1024 B (${whLinear ? 'constant' : 'varies'}); per byte ${num((at('wormhole', 1024, 1) - at('wormhole', 256, 1)) / 768, 2)} ticks`,
      rule: 'holds if the increment per hop is the same for every M and h',
      holds: whLinear,
    });
    checks.push({
      id: 'sec4.5-packet-M-plus-h-alpha',
      statement: '§4.5: pipelined packets: message time ∝ M + h·α (the M/p multiplier on hα drops to one)',
      seed: 'per-hop increment α independent of M (pipelined)',
      measured: `per-hop increment ${alpha} ticks for M = 64, 256, 1024 B (${pkLinear ? 'constant' : 'varies'}); α − β = ${alpha - beta} ticks`,
      rule: 'holds if the increment per hop is the same for every M and h',
      holds: pkLinear,
    });
    const quick = q.quick ? ' [--quick]' : '';
    const cfgs = CH4_TRANSPORTS.flatMap((t) => ROUTINGS.flatMap((r) => LINKS.map((l) => [t, r, l] as const)));
    const plots: ReportPlot[] = [
      {
        id: 'means',
        title: `§4.4 mean message time by figure (log)${quick}`,
        xLabel: 'figure (4.6 … 4.27, in catalogue order)',
        yLabel: 'mean message time (ticks)',
        yLog: true,
        series: cfgs.map(([t, r, l], k) => ({
          name: ch4Code(t, r, l),
          color: ['#1f77b4', '#d62728', '#2ca02c'][CH4_TRANSPORTS.indexOf(t)],
          marker: (['circle', 'square', 'triangle', 'diamond'] as const)[k % 4],
          dashed: l === 'uni',
          points: q.figures.map((f, i) => [i + 1, mean(f, t, r, l)] as [number, number]),
          errors: q.figures.map((f) => get(f, t, r, l).ci95 ?? NaN),
        })),
      },
    ];
    return {
      tables: [
        {
          title: `Message times (ticks), ${q.messagesPerNode} messages per node, 6-cube: min / mean / mean+σ / max`,
          columns: ['fig', 'config', 'min', 'mean', 'mean+σ', 'max', 'max buffer B', 'preempted'],
          rows: q.figures.flatMap((f) => cfgs.map(([t, r, l]) => {
            const x = get(f, t, r, l);
            return [f, ch4Code(t, r, l), x.min!, x.mean!, x.meanPlusSd!, x.max!, t === 'circuit' ? null : x.maxBufferBytes!, x.preemptions ?? 0];
          })),
          digits: [0, 0, 0, 0, 0, 0, 0, 0],
          notes: ['Legend (Fig. 4.5): DT datagram, DC datagram cut-through, CS circuit switched; F/A fixed/adaptive routing; U/B unidirectional/bidirectional links.'],
        },
      ],
      checks,
      plots,
      notes: [
        `Every run delivered every message: ${results.every((r) => r.delivered === undefined || r.delivered === r.messages)}.`,
        'Flooded loads (a message every 50 ticks per node) are past saturation by design (§10.1: "more than N messages in the system"): their means grow with the run length; the statements compare schemes on identical runs.',
        `Plot: ${BATCH_MEANS_RULE}; on the flooded figures the bar measures noise of a mean that still grows with the run length.`,
        'Figures 4.24e–4.27e (run, not tabled): controls of the bursty figures with the same lengths and exponential gaps of the same mean, for the bursty statement (docs/buzzard-ch4.md#bursts); not seed figures.',
        ...(q.adaptiveHops === 'first' ? ["adaptiveHops 'first': adaptive routing only at the source (sensitivity run, docs/buzzard-ch4.md#links-and-routing)."] : []),
        ...(q.quick ? ['--quick: 4 messages per node; the relations are noisy.'] : []),
      ],
    };
  },
});
