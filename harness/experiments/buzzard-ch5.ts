/**
 * Buzzard's Chapter 5 simulation results on the TLM (seed 002 §5.6–5.7;
 * docs/sources.md, buzzard §10.3):
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
import type { Workload } from '../workloads/types.ts';
import { chapter5Workload } from '../tlm/sweep.ts';
import { runTlm } from '../tlm/buzzard-tlm.ts';
import { CH5_RATES } from '../workloads/buzzard.ts';
import { defineExperiment, messagesPerNodeParam, type ExperimentCliValues } from './types.ts';
import { BASE, FULL_MPN, QUICK_MPN, VARIANTS, parseCh5Delivery, parseCh5Model, tlmRes, type Ch5Figure, type Ch5Params, type Ch5Pt, type Ch5Res } from './buzzard-ch5-common.ts';
import { assembleTimes } from './buzzard-ch5-times.ts';
import { assembleTradeoff } from './buzzard-ch5-tradeoff.ts';
import { RTL_MPN, assembleRtl, checkRtlReuse, runCh5PointRtl, rtlWhyNot, type Ch5RtlRes } from './buzzard-ch5-rtl.ts';

export { TOLERANCE, type Ch5Figure, type Ch5Params, type Ch5Pt, type Ch5Res, type Ch5Role } from './buzzard-ch5-common.ts';

function figureBytes(f: Ch5Figure): 512 | 2048 {
  return f === '5.12' || f === '5.14' ? 512 : 2048;
}

function resolveParams(figure: Ch5Figure, cli: ExperimentCliValues): Ch5Params {
  const meanBytes = figureBytes(figure);
  const model = parseCh5Model(cli.model);
  const mpn = model === 'rtl' ? messagesPerNodeParam(cli, RTL_MPN.quick[meanBytes], RTL_MPN.full[meanBytes]) : messagesPerNodeParam(cli, QUICK_MPN[meanBytes], FULL_MPN[meanBytes]);
  const delivery = parseCh5Delivery(cli.delivery);
  if (cli.rtlReuse !== undefined) {
    if (model !== 'rtl') throw new RangeError('--rtl-reuse needs --model rtl');
    checkRtlReuse(cli.rtlReuse);
  }
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
    model,
    ...(cli.rtlReuse !== undefined ? { rtlReuse: cli.rtlReuse } : {}),
    sweepRates: tradeoff ? [rates[0]!, rates[4]!, rates[8]!] : [],
    bufferSweep: tradeoff ? [2, 3, 4, 6, 9, 13, 26] : [],
    packetSweep: tradeoff ? (meanBytes === 512 ? [16, 32, 64, 128, 256, 512] : [16, 32, 64, 128, 256, 512, 1024]) : [],
  };
}


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
function workload(q: Ch5Params, meanBytes: 512 | 2048, gap: number, messagesPerNode: number): Workload {
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
  const mpn = p.meanBytes === q.meanBytes ? q.messagesPerNode : (q.quick ? QUICK_MPN : FULL_MPN)[p.meanBytes];
  const halfMpn = Math.max(1, Math.ceil(mpn / 2));
  const cfg = { transport: p.transport, packetBytes: p.packetBytes, buffersPerPbu: p.buffersPerPbu, delivery: p.transport === 'wormhole' ? q.delivery.wormhole : q.delivery.packet, recordEvents: false } as const;
  // Stability (buzzard-ch5-common.ts STABILITY_RULE): the same point at half the run length, then the full run.
  const h = runTlm(workload(q, p.meanBytes, p.meanGapTicks, halfMpn), cfg).stats;
  const w = workload(q, p.meanBytes, p.meanGapTicks, mpn);
  const r = runTlm(w, cfg);
  const s = r.stats;
  const hb = r.config.headerBytes;
  // Node input port busy time offered: every packet (worm) arbitrates for O_0, then moves header + data at link rate.
  let nipTicks = 0;
  for (const m of w.messages) {
    const pk = p.transport === 'wormhole' ? 1 : Math.max(1, Math.ceil(m.bytes / p.packetBytes));
    nipTicks += (m.bytes + hb * pk) * r.config.ticksPerByte + pk * r.config.arbitrationTicks;
  }
  const N = 2 ** w.cubeDegree;
  return tlmRes(s, h, halfMpn, s.lastGeneration > 0 ? nipTicks / (N * s.lastGeneration) : null, 1, r.perMessage);
}

function cost(p: Ch5Pt, q: Ch5Params): number {
  const mpn = p.meanBytes === q.meanBytes ? q.messagesPerNode : 1;
  const packets = p.meanBytes / p.packetBytes + 1;
  // RTL mode: a point the RTL builds costs it ~100× a TLM run.
  const rtl = q.model === 'rtl' && rtlWhyNot(p) === null ? 100 : 1;
  return rtl * 1.5 * mpn * (p.transport === 'wormhole' ? 2 : packets) * (1 + 2000 / p.meanGapTicks); // full + half run
}

function runPoint(p: Ch5Pt, q: Ch5Params): Ch5Res | Ch5RtlRes {
  if (q.model === 'tlm') return runCh5Point(p, q);
  return runCh5PointRtl(p, q, runCh5Point, (mb, gap, mpn) => workload(q, mb, gap, mpn));
}

function makeCh5(figure: Ch5Figure) {
  const mb = figureBytes(figure);
  const times = figure === '5.12' || figure === '5.13';
  const assembleTlm = (q: Ch5Params, points: readonly Ch5Pt[], results: readonly Ch5Res[]) => (times ? assembleTimes(q, points, results) : assembleTradeoff(q, points, results));
  return defineExperiment<Ch5Pt, Ch5Res | Ch5RtlRes, Ch5Params>({
    name: `buzzard-fig${figure}`,
    summary: times
      ? `mean message times vs ideal link utilisation, exp(${mb}): wormhole, fixed packet, quasi-adaptive (TLM), with the §5.7 percentages checked`
      : `buffer/packet tradeoff, exp(${mb}): 13×32 B vs 26×32 B vs 13×64 B, plus buffer-count and packet-size sweeps (TLM)`,
    source: times
      ? `seed 002 (Buzzard 1988) §5.7, Fig. ${figure} "Mean Message Times, Length = exp(${mb})" and its prose percentages (docs/sources.md, buzzard §10.3)`
      : `seed 002 (Buzzard 1988) §5.6–5.7, Fig. ${figure} "Message Times, Buffer/Packet Tradeoffs, Length = exp(${mb})" and the §5.7 summary (docs/sources.md, buzzard §10.3)`,
    method:
      'transaction-level model harness/tlm (2 ticks/byte, 4 ticks arbitration, 4-byte headers), 6-cube, uniform destinations, exponential lengths, normal gaps σ = mean/2 at the nine §5.7 rates; one workload per rate shared by every scheme',
    options: ['messages-per-node', 'seed', 'delivery', 'model', 'rtl-reuse'],
    params: (cli) => resolveParams(figure, cli),
    points: ch5Points,
    cost,
    runPoint,
    assemble: (q, points, results) => (q.model === 'rtl' ? assembleRtl(q, points, results as Ch5RtlRes[], assembleTlm) : assembleTlm(q, points, results as Ch5Res[])),
  });
}

export const buzzardFig512 = makeCh5('5.12');
export const buzzardFig513 = makeCh5('5.13');
export const buzzardFig514 = makeCh5('5.14');
export const buzzardFig515 = makeCh5('5.15');
