/**
 * Figs 5.12 / 5.13 (seed 002 §5.7): mean message times of wormhole, fixed
 * packet and quasi-adaptive packet routing, and the §5.7 prose percentages
 * checked with the rules of buzzard-ch5-common.ts.
 */
import { CH5_RATES } from '../workloads/buzzard.ts';
import type { Series } from './svg.ts';
import { num, pct, type ReportPlot, type ReportTable, type SeedCheck } from './types.ts';
import { BASE, BATCH_MEANS_RULE, ciOf, FULL_MPN, QUICK_MPN, STABILITY_RULE, TRANSPORT_COLOR, TRANSPORT_MARKER, bottlenecks, gate, growthText, stabilityText, unstableList, TRANSPORT_LABEL, loadsText, lookup, minMax, near, ratio, rule, sameSet, type Ch5Params, type Ch5Pt, type Ch5Res, deliveryText } from './buzzard-ch5-common.ts';

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

export function assembleTimes(q: Ch5Params, points: readonly Ch5Pt[], results: readonly Ch5Res[]) {
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
        statement: '§5.7 quasi-adaptive latency "10% to 77%" read heavy → light (reading: docs/buzzard-ch5.md#statement-readings; as the fixed-packet range whose direction is stated)',
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
        statement: '§5.7: "Blockage at the source nodes limits improvements in latency times for the large messages at higher link utilizations" (reading: docs/buzzard-ch5.md#statement-readings; 69% at heavy, 47% at light)',
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

  // Stability gate (STABILITY_RULE): a statement that uses an unstable point is not comparable.
  const at = (rs: readonly Ch5Res[], t: string, idx: readonly number[]) => idx.map((i) => ({ label: `${t} at ${R[i]} ticks`, r: rs[i]! }));
  const usedIdx = (id: string): number[] =>
    /-heaviest$|-heavier$|-heavy$/.test(id) ? [0] : /-lightest$|-lighter$|gain-vs-short/.test(id) ? [last] : /direction|source-blockage/.test(id) ? [0, last] : R.map((_, i) => i);
  const gated = checks.map((c) => {
    const idx = usedIdx(c.id);
    const used = [...at(wh, 'wormhole', idx), ...(c.id.startsWith('quasi') ? [] : at(fx, 'fixed', idx)), ...(c.id.startsWith('fixed') ? [] : at(qa, 'quasi', idx))];
    if (c.id === 'fixed-latency-gain-vs-short') {
      const l512 = CH5_RATES[512][CH5_RATES[512].length - 1]!;
      used.push({ label: `exp(512) wormhole at ${l512} ticks`, r: get('cross', l512, 'wormhole', 32, 13) }, { label: `exp(512) fixed at ${l512} ticks`, r: get('cross', l512, 'fixed-packet', 32, 13) });
    }
    return gate(c, used);
  });
  const unstableAt = (rs: readonly Ch5Res[]): boolean[] => rs.map((r) => !r.stable);
  const T = (r: Ch5Res, f: 'meanFirst' | 'meanLast'): number | null => r[f];
  const tables: ReportTable[] = [
    {
      title: `Mean message times from queueing, ticks (exp(${mb}), ${q.cubeDegree}-cube, ${q.messagesPerNode} messages per node, ${deliveryText(q.delivery)})`,
      columns: ['gap', 'U ideal', 'NIP load', 'first wh', 'last wh', 'first fixed', 'last fixed', 'first quasi', 'last quasi', 'max last wh', 'max last quasi', 'growth wh', 'growth fixed', 'growth quasi', 'stable'],
      rows: R.map((g, i) => [
        g,
        U[i]!,
        wh[i]!.nipLoad,
        T(wh[i]!, 'meanFirst'),
        T(wh[i]!, 'meanLast'),
        T(fx[i]!, 'meanFirst'),
        T(fx[i]!, 'meanLast'),
        T(qa[i]!, 'meanFirst'),
        T(qa[i]!, 'meanLast'),
        wh[i]!.maxLast,
        qa[i]!.maxLast,
        growthText(wh[i]!),
        growthText(fx[i]!),
        growthText(qa[i]!),
        stabilityText([['wh', wh[i]!], ['fixed', fx[i]!], ['quasi', qa[i]!]]),
      ]),
      digits: [0, 3, 2, 1, 1, 1, 1, 1, 1, 0, 0],
      notes: [
        `growth: mean (first or last, the larger) of the full run over the same point at ${wh[0]!.half.messagesPerNode} messages per node, − 1; '!' and "unstable (past saturation)": ${STABILITY_RULE}.`,
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
        const mark = (r: Ch5Res): string => (r.stable && wh[i]!.stable ? '' : ' (unstable)');
        return [g, U[i]!, pct(latF[i]) + mark(fx[i]!), seedCols[0]!, pct(latQ[i]) + mark(qa[i]!), seedCols[1]!, pct(bwF[i]) + mark(fx[i]!), seedCols[2]!, pct(bwQ[i]) + mark(qa[i]!), seedCols[3]!];
      }),
      digits: [0, 3],
      notes: ['Seed columns: the §5.7 prose gives only the ends of each range (heaviest / lightest load, or a range "a–b%" whose direction is not stated).', '(unstable): the scheme or wormhole is past saturation at that load; the ratio depends on the run length and is not comparable.'],
    },
  ];
  const series = (idx: number[]): Series[] =>
    (['wormhole', 'fixed-packet', 'quasi-adaptive'] as const).flatMap((t) => {
      const rs = t === 'wormhole' ? wh : t === 'fixed-packet' ? fx : qa;
      return (['meanFirst', 'meanLast'] as const).map((f) => ({
        name: `${f === 'meanFirst' ? 'first' : 'last'} ${TRANSPORT_LABEL[t]}`,
        color: TRANSPORT_COLOR[t],
        marker: TRANSPORT_MARKER[t],
        dashed: f === 'meanLast',
        points: idx.map((i) => [U[i] ?? NaN, rs[i]![f] ?? NaN] as [number, number]),
        unstable: idx.map((i) => !rs[i]!.stable),
        errors: idx.map((i) => ciOf(rs[i]!, f)),
      }));
    });
  const all = R.map((_, i) => i);
  const part1 = all.slice(0, 5);
  const part2 = all.slice(3);
  const fig = `Fig. ${q.figure}`;
  const quick = q.quick ? ' [--quick]' : '';
  const ratioUnstable = (rs: readonly Ch5Res[]): boolean[] => all.map((i) => !rs[i]!.stable || !wh[i]!.stable);
  const plots: ReportPlot[] = [
    { id: 'part1', title: `${fig}: mean message times, exp(${mb}) (part 1 of 2: heavier loads)${quick}`, xLabel: 'ideal link utilisation', yLabel: 'mean time from queueing (ticks)', series: series(part1) },
    { id: 'part2', title: `${fig}: mean message times, exp(${mb}) (part 2 of 2: lighter loads)${quick}`, xLabel: 'ideal link utilisation', yLabel: 'mean time from queueing (ticks)', series: series(part2) },
    { id: 'all', title: `${fig}: mean message times, exp(${mb}), all loads${quick}`, xLabel: 'ideal link utilisation', yLabel: 'mean time from queueing (ticks)', yLog: true, series: series(all) },
    {
      id: 'ratios',
      title: `${fig}: ratios to wormhole, exp(${mb}) (diamonds: seed §5.7)${quick}`,
      xLabel: 'ideal link utilisation',
      yLabel: 'ratio to wormhole',
      series: [
        { name: 'latency fixed', color: TRANSPORT_COLOR['fixed-packet'], marker: 'square', points: all.map((i) => [U[i] ?? NaN, latF[i] ?? NaN] as [number, number]), unstable: ratioUnstable(fx) },
        { name: 'latency quasi', color: TRANSPORT_COLOR['quasi-adaptive'], marker: 'triangle', points: all.map((i) => [U[i] ?? NaN, latQ[i] ?? NaN] as [number, number]), unstable: ratioUnstable(qa) },
        { name: 'bandwidth fixed', color: '#ff7f0e', marker: 'square', dashed: true, points: all.map((i) => [U[i] ?? NaN, bwF[i] ?? NaN] as [number, number]), unstable: ratioUnstable(fx) },
        { name: 'bandwidth quasi', color: '#9467bd', marker: 'triangle', dashed: true, points: all.map((i) => [U[i] ?? NaN, bwQ[i] ?? NaN] as [number, number]), unstable: ratioUnstable(qa) },
        ...seedRatioSeries(mb, U[0] ?? NaN, U[last] ?? NaN),
      ],
    },
  ];
  const saturated = R.filter((_, i) => (qa[i]!.nipLoad ?? 0) >= 0.9);
  const notes = [
    `TLM (harness/tlm), ${deliveryText(q.delivery)}, ${q.messagesPerNode} messages per node (${wh[0]!.messages} messages per run), workload seed ${q.seed}; times in ticks from queueing at the source (§10.3 "first" = first ${BASE.packetBytes} data bytes, "last" = last byte).`,
    ...(q.figure === '5.13' ? [`The exp(512) comparison point (lightest load) uses ${(q.quick ? QUICK_MPN : FULL_MPN)[512]} messages per node, as buzzard-fig5.12 does by default.`] : []),
    saturated.length
      ? `Node input ports offered ≥ 0.9 of their capacity at ${saturated.join(', ')} ticks${q.delivery.wormhole === 'shared-port' || q.delivery.packet === 'shared-port' ? ' (shared-port: one per node, so every scheme queues there)' : ''}. Where a load saturates any resource the means grow with the run length (--messages-per-node) instead of settling; compare --delivery shared-port / per-link.`
      : 'No load offers the node input ports ≥ 0.9 of their capacity.',
    `Stability: ${STABILITY_RULE}; ${BATCH_MEANS_RULE}. Unstable points: ${unstableList([['wormhole', wh], ['fixed', fx], ['quasi', qa]], R)}.`,
    ...bottlenecks([['wormhole', wh], ['fixed', fx], ['quasi', qa]], R),
    `Deadlocks: ${results.filter((r) => r.deadlock).length}; order violations: ${results.reduce((a, r) => a + r.orderViolations, 0)}; undelivered messages: ${results.reduce((a, r) => a + r.messages - r.delivered, 0)}.`,
  ];
  if (q.quick) notes.push('--quick: few messages per node; the numbers are noisy and for testing the pipeline, not for judging the seed.');
  return {
    tables,
    checks: gated,
    plots,
    notes,
    data: {
      rates: [...R],
      idealU: U,
      latency: { fixed: latF, quasi: latQ },
      bandwidth: { fixed: bwF, quasi: bwQ },
      unstable: { wormhole: unstableAt(wh), fixed: unstableAt(fx), quasi: unstableAt(qa) },
      growth: { wormhole: wh.map((r) => r.growth), fixed: fx.map((r) => r.growth), quasi: qa.map((r) => r.growth) },
    },
  };
}

function seedRatioSeries(mb: 512 | 2048, uHeavy: number, uLight: number): Series[] {
  // The seed's stated ends, drawn as markers (diamonds) at the heaviest and lightest loads, where the direction is stated.
  if (mb === 512) {
    const s = SEED[512];
    return [
      { name: 'seed latency fixed', color: TRANSPORT_COLOR['fixed-packet'], markersOnly: true, marker: 'diamond', points: [[uHeavy, s.fixedLat.heaviest], [uLight, s.fixedLat.lightest]] },
      { name: 'seed latency quasi', color: TRANSPORT_COLOR['quasi-adaptive'], markersOnly: true, marker: 'diamond', points: [[uHeavy, s.quasiLat.lo], [uLight, s.quasiLat.hi]] },
      { name: 'seed bandwidth fixed', color: '#ff7f0e', markersOnly: true, marker: 'diamond', points: [[uHeavy, s.fixedBw.heaviest], [uLight, s.fixedBw.lightest]] },
      { name: 'seed bandwidth quasi', color: '#9467bd', markersOnly: true, marker: 'diamond', points: [[uHeavy, s.quasiBw.heaviest], [uLight, s.quasiBw.lightest]] },
    ];
  }
  const s = SEED[2048];
  return [
    { name: 'seed latency fixed (interp)', color: TRANSPORT_COLOR['fixed-packet'], markersOnly: true, marker: 'diamond', points: [[uHeavy, s.fixedLat.hi], [uLight, s.fixedLat.lo]] },
    { name: 'seed bandwidth quasi', color: '#9467bd', markersOnly: true, marker: 'diamond', points: [[uHeavy, s.quasiBw.heaviest], [uLight, s.quasiBw.lightest]] },
  ];
}

