/**
 * Figs 5.14 / 5.15 (seed 002 §5.6–5.7): the buffer/packet tradeoff (13 × 32 B
 * vs 26 × 32 B vs 13 × 64 B), plus the buffer-count and packet-size sweeps
 * behind the §5.7 summary, checked with the rules of buzzard-ch5-common.ts.
 */
import type { Transport } from '../tlm/config.ts';
import type { Series } from './svg.ts';
import { num, type ReportPlot, type ReportTable, type SeedCheck } from './types.ts';
import { BATCH_MEANS_RULE, ciOf, STABILITY_RULE, TRANSPORT_LABEL, VARIANTS, gate, growthText, stabilityText, loadsText, lookup, type Ch5Params, type Ch5Pt, type Ch5Res, deliveryText } from './buzzard-ch5-common.ts';

// ------------------------------------------------------------------ Figs 5.14 / 5.15

export function assembleTradeoff(q: Ch5Params, points: readonly Ch5Pt[], results: readonly Ch5Res[]) {
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
  // "About 10%": the swept sizes between 5% and 20% of the mean; "best": the smallest mean first + mean last
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
    rule: `holds if at every sweep load the size with the smallest mean first + mean last (equal weight, docs/buzzard-ch5.md#statement-readings) is one of ${about10.join(', ')} B`,
    holds: bestSum.every((p) => about10.includes(p)),
  });

  // Stability gate (STABILITY_RULE): a statement that uses an unstable point is not comparable.
  const lab = (p: Ch5Pt): string => `${p.role === 'main' ? TRANSPORT_LABEL[p.transport] : p.role} ${p.buffersPerPbu}×${p.packetBytes} B at ${p.meanGapTicks} ticks`;
  const pts = (f: (p: Ch5Pt) => boolean) => points.map((p, k) => ({ p, r: results[k]! })).filter((x) => f(x.p)).map((x) => ({ label: lab(x.p), r: x.r }));
  const main = (t: Transport, pb: number, bu: number) => (p: Ch5Pt) => p.role === 'main' && p.transport === t && p.packetBytes === pb && p.buffersPerPbu === bu;
  const either = (f: (p: Ch5Pt) => boolean, g: (p: Ch5Pt) => boolean) => (p: Ch5Pt) => f(p) || g(p);
  const uses: Record<string, (p: Ch5Pt) => boolean> = {
    'quasi-bigger-packets-beat-more-buffers': either(main('quasi-adaptive', 64, 13), main('quasi-adaptive', 32, 26)),
    'fixed-bigger-packets-beat-more-buffers': either(main('fixed-packet', 64, 13), main('fixed-packet', 32, 26)),
    'quasi-bigger-packets-first-only-at-high-load': either(main('quasi-adaptive', 64, 13), main('quasi-adaptive', 32, 26)),
    'adequate-buffers': (p) => p.role === 'buffers' && p.meanGapTicks === q.sweepRates[mid],
    'packet-size-last-improves': (p) => p.role === 'packets' && p.packetBytes <= mb / 4,
    'packet-size-first-grows-light': (p) => p.role === 'packets' && p.meanGapTicks === gl,
    'packet-size-ten-percent': (p) => p.role === 'packets',
  };
  const gated = checks.map((c) => (uses[c.id] ? gate(c, pts(uses[c.id]!)) : c));
  const unstable = points.map((p, k) => ({ p, r: results[k]! })).filter((x) => !x.r.stable).map((x) => `${lab(x.p)} (${growthText(x.r)})`);
  const tables: ReportTable[] = (['quasi-adaptive', 'fixed-packet'] as const).map((t) => {
    const cols = VARIANTS.map((x) => v(t, x.key));
    return {
      title: `${TRANSPORT_LABEL[t]}: mean first / last times (ticks), exp(${mb}), ${q.messagesPerNode} messages per node, ${deliveryText(q.delivery)}`,
      columns: ['gap', 'U ideal', 'first 13×32', 'first 26×32', 'first 13×64', 'last 13×32', 'last 26×32', 'last 13×64', 'stable'],
      rows: R.map((g, i) => [g, U[i]!, cols[0]![i]!.meanFirst, cols[1]![i]!.meanFirst, cols[2]![i]!.meanFirst, cols[0]![i]!.meanLast, cols[1]![i]!.meanLast, cols[2]![i]!.meanLast, stabilityText(VARIANTS.map((x, k) => [x.key, cols[k]![i]!] as const))]),
      digits: [0, 3],
      notes: [`stable: ${STABILITY_RULE}; "no (…)" names the unstable configurations.`],
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
    notes: ['Seed §5.7: "packet sizes of about 10% of the average message size worked best". Reading (docs/buzzard-ch5.md#statement-readings): the sweep holds the buffer count at 13 (not the buffer memory).'],
  });

  const variantSeries = (t: Transport): Series[] =>
    VARIANTS.flatMap((x, k) =>
      (['meanFirst', 'meanLast'] as const).map((f) => ({
        name: `${f === 'meanFirst' ? 'first' : 'last'} ${x.label}`,
        color: ['#1f77b4', '#d62728', '#2ca02c'][k],
        dashed: f === 'meanLast',
        marker: (['circle', 'square', 'triangle'] as const)[k],
        points: idx.map((i) => [U[i] ?? NaN, v(t, x.key)[i]![f] ?? NaN] as [number, number]),
        unstable: idx.map((i) => !v(t, x.key)[i]!.stable),
        errors: idx.map((i) => ciOf(v(t, x.key)[i]!, f)),
      })),
    );
  const sweepColors = ['#d62728', '#ff7f0e', '#1f77b4'];
  /** first / last per sweep load over the swept values xs, unstable points flagged. */
  const sweepSeries = (xs: readonly number[], at: (g: number, x: number) => Ch5Res): Series[] =>
    q.sweepRates.flatMap((g, k) =>
      (['meanFirst', 'meanLast'] as const).map((f) => ({
        name: `${f === 'meanFirst' ? 'first' : 'last'}, gap ${g}`,
        color: sweepColors[k],
        dashed: f === 'meanLast',
        points: xs.map((x) => [x, at(g, x)[f] ?? NaN] as [number, number]),
        unstable: xs.map((x) => !at(g, x).stable),
        errors: xs.map((x) => ciOf(at(g, x), f)),
      })),
    );
  const fig = `Fig. ${q.figure}`;
  const quick = q.quick ? ' [--quick]' : '';
  const plots: ReportPlot[] = [
    { id: 'quasi', title: `${fig}: buffer/packet tradeoff, quasi-adaptive, exp(${mb})${quick}`, xLabel: 'ideal link utilisation', yLabel: 'mean time from queueing (ticks)', yLog: true, series: variantSeries('quasi-adaptive') },
    { id: 'fixed', title: `${fig}: buffer/packet tradeoff, fixed packet, exp(${mb})${quick}`, xLabel: 'ideal link utilisation', yLabel: 'mean time from queueing (ticks)', yLog: true, series: variantSeries('fixed-packet') },
    {
      id: 'buffers',
      title: `${fig} (extension): buffers per PBU, quasi-adaptive, exp(${mb})${quick}`,
      xLabel: 'packet buffers per PBU',
      yLabel: 'mean time from queueing (ticks)',
      yLog: true,
      series: sweepSeries(q.bufferSweep, (g, b) => get('buffers', g, 'quasi-adaptive', 32, b)),
    },
    {
      id: 'packets',
      title: `${fig} (extension): packet size, quasi-adaptive, 13 buffers, exp(${mb})${quick}`,
      xLabel: 'packet data bytes',
      yLabel: 'mean time from queueing (ticks)',
      xLog: true,
      yLog: true,
      series: sweepSeries(P, (g, p) => get('packets', g, 'quasi-adaptive', p, 13)),
    },
  ];
  const notes = [
    `TLM (harness/tlm), ${deliveryText(q.delivery)}, ${q.messagesPerNode} messages per node, workload seed ${q.seed}. The seed's Figs 5.14/5.15 are lost (captions only); the plotted series are the mean first/last times of the three configurations (docs/buzzard-ch5.md#statement-readings).`,
    `Stability: ${STABILITY_RULE}; ${BATCH_MEANS_RULE}. Unstable points: ${unstable.length ? unstable.join('; ') : 'none'}.`,
    `Deadlocks: ${results.filter((r) => r.deadlock).length}; order violations: ${results.reduce((a, r) => a + r.orderViolations, 0)}; undelivered messages: ${results.reduce((a, r) => a + r.messages - r.delivered, 0)}.`,
    `Heaviest load ${R[0]} ticks (U ≈ ${num(U[0], 2)}), lightest ${R[last]} ticks (U ≈ ${num(U[last], 3)}).`,
  ];
  if (q.quick) notes.push('--quick: few messages per node; the numbers are noisy and for testing the pipeline, not for judging the seed.');
  return { tables, checks: gated, plots, notes, data: { unstable, rates: [...R], idealU: U, bufferKnees: knees, bestPacketLast: bestLast, bestPacketFirst: bestFirst, bestPacketFirstPlusLast: bestSum } };
}

