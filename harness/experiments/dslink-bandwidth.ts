/**
 * dslink-bandwidth: seed 004 §4.1.4.1 Figs 4.2/4.3 and Table 4.1 (and
 * §4.1.4.2 Eq 4.3 / Table 4.2): two T9000-style endpoints joined by one
 * DS-link, fixed-size messages sent repeatedly, uni- and bidirectional,
 * lock-step and staggered starts; measured data bandwidth per direction
 * beside Eqs 4.1/4.2 (harness/models/dslink.ts) and the deviation.
 * Readings: docs/t9000.md#bandwidth-experiment.
 *
 * Point: {m, direction: uni|bi, start: lockstep|staggered}; result: {mbps, …}
 * (dslink-bandwidth-run.ts). Verdict rules: dslink-bandwidth-rules.ts.
 */
import { LinkStub } from '../rtl/link_standin.ts';
import { dsLinks, T9000_THESIS_SIM_LINKS } from '../rtl/t9000_pair.ts';
import { TABLE_4_1, TABLE_4_2, deviationPercent, dslinkBandwidth, dslinkPacketPassingBandwidth } from '../models/dslink.ts';
import { LATE_STAGGER_CYCLES, runBandwidthPoint, STAGGER_CYCLES, type BandwidthPoint, type BandwidthResult, type Direction, type Start } from './dslink-bandwidth-run.ts';
import { boundaryDrops, deviationStats, fctResolution, lockstepBelowBy, withinMaxDeviation } from './dslink-bandwidth-rules.ts';
import type { Series } from './svg.ts';
import { defineExperiment, num, type ReportPlot, type ReportTable, type SeedCheck } from './types.ts';

export interface DsBwParams {
  readonly quick: boolean;
  readonly sizes: readonly number[];
  /** Link bit cycles measured per point (at least). */
  readonly windowCycles: number;
  readonly warmup: number;
  /** Which link end joins the endpoints: the real DS-link (rtl/dslink) or the FCT-free stand-in. */
  readonly link: 'dslink' | 'standin';
}

const DIRS: readonly Direction[] = ['uni', 'bi'];
const STARTS = ['lockstep', 'staggered'] as const;
const QUICK_SIZES = [1, 2, 4, 8, 16, 31, 32, 33, 48, 64, 65, 96, 97, 128];

function resolveParams(cli: { quick: boolean; sizes?: readonly number[] }): DsBwParams {
  const sizes = cli.sizes ? [...cli.sizes] : cli.quick ? QUICK_SIZES : Array.from({ length: 128 }, (_, i) => i + 1);
  if (sizes.length < 1) throw new RangeError('--sizes needs at least one message size');
  sizes.forEach((s, i) => {
    if (!(Number.isInteger(s) && s >= 1 && s <= 4096)) throw new RangeError(`--sizes: ${s} is not a whole number of bytes in 1..4096`);
    if (i > 0 && s <= sizes[i - 1]!) throw new RangeError(`--sizes must increase (got ${sizes.join(',')})`);
  });
  return { quick: cli.quick, sizes, windowCycles: cli.quick ? 6000 : 20000, warmup: 5, link: 'dslink' };
}

/** Eq 4.1 (uni) / Eq 4.2 (bi). */
export const predicted = (m: number, d: Direction): number => dslinkBandwidth({ m, direction: d });

export const dslinkBandwidthExperiment = defineExperiment<BandwidthPoint, BandwidthResult, DsBwParams>({
  name: 'dslink-bandwidth',
  summary: 'T9000 DS-link bandwidth against message size, uni/bi, lock-step/staggered (RTL endpoints), beside Eqs 4.1/4.2 and Table 4.1',
  source: 'seed 004 §4.1.4.1 Eqs 4.1, 4.2, Figs 4.2, 4.3, Table 4.1; §4.1.4.2 Eq 4.3, Table 4.2 (docs/sources.md, c104-t9000 §6, §10)',
  method: `RTL: two T9000-style endpoints (rtl/t9000) joined by one link end each, clock by clock at 10 ns; senders repeat m-byte messages on their own virtual link with two sends queued, receivers repeat blocking receives; staggered = b's sender starts ${STAGGER_CYCLES} cycles later (one bit time less than a header: docs/t9000.md#staggered-offset); late (bi only, a finding) = ${LATE_STAGGER_CYCLES} cycles later; bandwidth from delivery times after the warm-up`,
  options: ['sizes'],
  params: resolveParams,
  points: (q) => q.sizes.flatMap((m) => [...DIRS.flatMap((direction) => STARTS.map((start): BandwidthPoint => ({ m, direction, start }))), { m, direction: 'bi', start: 'late' }]),
  cost: (p) => (p.direction === 'bi' ? 2 : 1),
  runPoint: (p, q) =>
    runBandwidthPoint(p, { windowCycles: q.windowCycles, warmup: q.warmup, links: q.link === 'dslink' ? dsLinks(T9000_THESIS_SIM_LINKS) : (parent, name) => new LinkStub(parent, name) }),
  assemble: (q, points, results) => {
    const get = (m: number, d: Direction, s: Start): BandwidthResult => results[points.findIndex((p) => p.m === m && p.direction === d && p.start === s)]!;
    const dev = (m: number, d: Direction, s: Start): number => deviationPercent(get(m, d, s).mbps, predicted(m, d));
    const devPP = (m: number, d: Direction, s: Start): number => deviationPercent(get(m, d, s).mbps, dslinkPacketPassingBandwidth({ m, direction: d }));
    const table41 = q.sizes.filter((m) => m >= TABLE_4_1.minBytes);
    const series = (d: Direction, s: Start, f: (m: number, d: Direction, s: Start) => number) => table41.map((m) => f(m, d, s));
    const stats = (d: Direction, s: Start, f = dev) => deviationStats(series(d, s, f));

    const rows: (string | number | null)[][] = q.sizes.map((m) => [
      m,
      predicted(m, 'uni'),
      get(m, 'uni', 'lockstep').mbps,
      dev(m, 'uni', 'lockstep'),
      get(m, 'uni', 'staggered').mbps,
      dev(m, 'uni', 'staggered'),
      predicted(m, 'bi'),
      get(m, 'bi', 'lockstep').mbps,
      dev(m, 'bi', 'lockstep'),
      get(m, 'bi', 'staggered').mbps,
      dev(m, 'bi', 'staggered'),
      get(m, 'bi', 'late').mbps,
      dev(m, 'bi', 'late'),
      dslinkPacketPassingBandwidth({ m, direction: 'uni' }),
      dslinkPacketPassingBandwidth({ m, direction: 'bi' }),
    ]);
    const cases = DIRS.flatMap((d) => STARTS.map((s) => [d, s] as const));
    const seedRow = (d: Direction, s: Exclude<Start, 'late'>) => TABLE_4_1[s][d];
    const tables: ReportTable[] = [
      {
        title: 'Data bandwidth per direction, Mbit/s, and deviation from Eq 4.1 (uni) / Eq 4.2 (bi), %',
        columns: ['m', 'Eq 4.1', 'uni lock', 'dev', 'uni stag', 'dev', 'Eq 4.2', 'bi lock', 'dev', 'bi stag', 'dev', 'bi late', 'dev', 'Eq 4.3 uni', 'Eq 4.3 bi'],
        rows,
        digits: [0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2],
        notes: [
          q.link === 'standin'
            ? 'link: the stand-in link end (harness/rtl/link_standin.ts: no FCT/NULL tokens), so the FCT-free Eq 4.3 is the fair comparison'
            : "link: rtl/dslink DsLinkEnd (tokens, parity, FCT credit, start-up; processes start once both ends run), T9000_THESIS_SIM_LINKS: transmit buffer 1 character, rxHandover 'on-arrival' (the thesis's simulator has no receive latency: docs/dslink.md#handover), runIdle 'silent' (no NULLs on an idle link in Run, as the thesis's simulator: docs/dslink.md#run-idle), flowThrough (deserialiser and decoder combinational, empty buffers passed through: a turnaround costs no cycle, docs/dslink.md#flow-through)",
        ],
      },
      {
        title: `Table 4.1 layout: deviation from Eqs 4.1/4.2 for m ≥ ${TABLE_4_1.minBytes}, % (measured | seed)`,
        columns: ['case', 'max |dev|', 'seed max', 'avg |dev|', 'seed avg', 'signed min', 'signed max'],
        rows: [
          ...cases.map(([d, s]) => {
            const st = stats(d, s);
            return [`${s} ${d}`, st.maxAbs, seedRow(d, s).max, st.avgAbs, seedRow(d, s).avg, st.min, st.max];
          }),
          (() => {
            const st = stats('bi', 'late');
            return [`late bi (${LATE_STAGGER_CYCLES} cycles; finding, not judged)`, st.maxAbs, null, st.avgAbs, null, st.min, st.max];
          })(),
        ],
        digits: [0, 2, 2, 2, 2, 2, 2],
        notes: [
          `late bi: b's sender ${LATE_STAGGER_CYCLES} cycles after a's. Seed 004's own endpoint rules give the half-duplex pattern there (harness/models/t9000-endpoint-rules.ts); its Fig. 4.3 shows no dip at any m, so its staggered runs were not in that regime and Table 4.1 is not a bound for this row (docs/t9000.md#staggered-offset).`,
        ],
      },
      {
        title: `Table 4.2 layout: deviation from Eq 4.3 (no FCT cost) for m ≥ ${TABLE_4_1.minBytes}, % (measured | seed packet-passing)`,
        columns: ['case', 'max |dev|', 'seed max', 'avg |dev|', 'seed avg'],
        rows: cases.map(([d, s]) => {
          const st = stats(d, s, devPP);
          return [`${s} ${d}`, st.maxAbs, TABLE_4_2[d].max, st.avgAbs, TABLE_4_2[d].avg];
        }),
        digits: [0, 2, 2, 2, 2],
      },
    ];

    const drops = boundaryDrops(q.sizes, (m) => get(m, 'uni', 'staggered').mbps);
    const has3233 = q.sizes.includes(32) && q.sizes.includes(33);
    const checks: SeedCheck[] = [
      {
        id: 'intact',
        statement: 'every message delivered byte-exact (precondition)',
        seed: '-',
        measured: `${results.filter((r) => r.intact).length} of ${results.length} runs byte-exact`,
        rule: 'holds if every run is byte-exact',
        holds: results.every((r) => r.intact),
      },
      ...(['uni', 'bi'] as const).map((d): SeedCheck => {
        const st = stats(d, 'staggered');
        const bound = TABLE_4_1.staggered[d].max;
        return {
          id: `staggered-${d}`,
          statement: `Table 4.1: staggered ${d}-directional bandwidth deviates from Eq ${d === 'uni' ? '4.1' : '4.2'} by at most ${bound}% (m ≥ 4)`,
          seed: `max ${bound}%, avg ${TABLE_4_1.staggered[d].avg}%`,
          measured: `max ${num(st.maxAbs, 2)}% (at m = ${table41[st.argMax] ?? 'n/a'}), avg ${num(st.avgAbs, 2)}%`,
          rule: `holds if every |deviation| ≤ ${bound}% for m ≥ 4`,
          holds: table41.length ? withinMaxDeviation(series(d, 'staggered', dev), bound) : null,
        };
      }),
      (() => {
        const st = stats('bi', 'lockstep');
        return {
          id: 'lockstep-bi',
          statement: 'Table 4.1 / §4.1.4.1: lock-step bidirectional bandwidth falls slightly below Eq 4.2 (at most 1.38%), never above',
          seed: `max ${TABLE_4_1.lockstep.bi.max}% below, avg ${TABLE_4_1.lockstep.bi.avg}%`,
          measured: `deviation from ${num(st.min, 2)}% to ${num(st.max, 2)}%`,
          rule: `holds if every deviation is in [−${TABLE_4_1.lockstep.bi.max}%, +${num(fctResolution(q.windowCycles), 3)}%] for m ≥ 4 (above: one FCT over the ≥ ${q.windowCycles}-cycle window, what the measurement resolves)`,
          holds: table41.length ? lockstepBelowBy(series('bi', 'lockstep', dev), TABLE_4_1.lockstep.bi.max, fctResolution(q.windowCycles)) : null,
        };
      })(),
      {
        id: 'boundary-drop',
        statement: 'Fig. 4.2: bandwidth drops at every 32-byte boundary (uni Eq 4.1: 76.42 → 73.33 Mbit/s from 32 to 33 bytes)',
        seed: '76.42 → 73.33 Mbit/s (Eq 4.1)',
        measured:
          (has3233 ? `32 → 33: ${num(get(32, 'uni', 'staggered').mbps, 2)} → ${num(get(33, 'uni', 'staggered').mbps, 2)} Mbit/s; ` : '') +
          `${drops.filter((x) => x.drops).length} of ${drops.length} boundaries in --sizes drop`,
        rule: `holds if bandwidth(32k+1) < bandwidth(32k) at every boundary in --sizes${has3233 ? ' and 32, 33 are within 0.64% of Eq 4.1' : ''}`,
        holds: drops.length
          ? drops.every((x) => x.drops) && (!has3233 || withinMaxDeviation([dev(32, 'uni', 'staggered'), dev(33, 'uni', 'staggered')], TABLE_4_1.staggered.uni.max))
          : null,
      },
      ...(['uni', 'bi'] as const).map((d): SeedCheck => {
        const st = stats(d, 'staggered', devPP);
        return {
          id: `eq4_3-${d}`,
          statement: `§4.1.4.2 / Table 4.2: an FCT-free link matches Eq 4.3 (${d}) within ${TABLE_4_2[d].max}%`,
          seed: `max ${TABLE_4_2[d].max}%, avg ${TABLE_4_2[d].avg}%`,
          measured: `staggered: max ${num(st.maxAbs, 2)}% (at m = ${table41[st.argMax] ?? 'n/a'}), avg ${num(st.avgAbs, 2)}%`,
          rule: `holds if every |deviation from Eq 4.3| ≤ ${TABLE_4_2[d].max}% for m ≥ 4 (judged on the FCT-free stand-in link only; reported on a link with FCTs)`,
          holds: q.link === 'standin' && table41.length ? withinMaxDeviation(series(d, 'staggered', devPP), TABLE_4_2[d].max) : null,
        };
      }),
    ];

    const fig = (s: Start, id: string, title: string): ReportPlot => ({
      id,
      title,
      xLabel: 'message size m (bytes)',
      yLabel: 'data bandwidth per direction (Mbit/s)',
      series: [
        { name: 'uni measured', color: '#1f77b4', points: q.sizes.map((m) => [m, get(m, 'uni', s).mbps] as [number, number]) },
        { name: 'Eq 4.1', color: '#1f77b4', dashed: true, points: q.sizes.map((m) => [m, predicted(m, 'uni')] as [number, number]) },
        { name: 'bi measured', color: '#d62728', points: q.sizes.map((m) => [m, get(m, 'bi', s).mbps] as [number, number]) },
        { name: 'Eq 4.2', color: '#d62728', dashed: true, points: q.sizes.map((m) => [m, predicted(m, 'bi')] as [number, number]) },
      ] satisfies Series[],
    });
    return {
      tables,
      checks,
      plots: [
        fig('lockstep', 'fig4.2', 'Fig. 4.2: lock-step start, measured and predicted bandwidth'),
        fig('staggered', 'fig4.3', `Fig. 4.3: staggered start (${STAGGER_CYCLES} cycles), measured and predicted bandwidth`),
        {
          id: 'late-stagger',
          title: `Finding: bidirectional, b's sender ${LATE_STAGGER_CYCLES} cycles later (the half-duplex pattern of short last packets; not in the seed)`,
          xLabel: 'message size m (bytes)',
          yLabel: 'data bandwidth per direction (Mbit/s)',
          series: [
            { name: 'bi measured, late start', color: '#d62728', points: q.sizes.map((m) => [m, get(m, 'bi', 'late').mbps] as [number, number]) },
            { name: 'Eq 4.2', color: '#d62728', dashed: true, points: q.sizes.map((m) => [m, predicted(m, 'bi')] as [number, number]) },
          ] satisfies Series[],
        },
      ],
      notes: [
        'Deviation = (measured − predicted) / predicted. Table 4.1 excludes messages shorter than 4 bytes; so do the checks.',
        `Staggered: endpoint b's sender starts ${STAGGER_CYCLES} cycles after a's, one bit time less than a header token: under the seed's own endpoint rules any stagger of a header or more makes messages ending in a short packet (m = 33, 65, …) fall into a half-duplex pattern (the short packet's ack waits behind the other side's full packet, which is never interleaved), and the seed's Fig. 4.3 shows no such dip, so its "short interval" was shorter (derived, docs/t9000.md#staggered-offset). On this zero-latency link the staggered streams then settle as in lock-step. The late row (${LATE_STAGGER_CYCLES} cycles) shows the pattern.`,
        q.quick ? '--quick: a subset of sizes and a shorter window.' : `Sizes ${q.sizes[0]}..${q.sizes[q.sizes.length - 1]}, ≥ ${q.windowCycles} cycles measured per point.`,
      ],
      data: { deviations: { ...Object.fromEntries(cases.map(([d, s]) => [`${s}-${d}`, series(d, s, dev)])), 'late-bi': series('bi', 'late', dev) } },
    };
  },
});
