/**
 * `icemu compare t9000-uni | t9000-bi`: two RTL T9000 endpoints joined by
 * one DS-link (harness/rtl/t9000_pair.ts, the seed 004 §4.1.4.1 jig) against
 * Eqs 4.1 / 4.2 (harness/models/dslink.ts), message by message.
 *
 * The equations give a stream's period per message: the bits one direction
 * of the link carries per message (data, header, end token, the other
 * side's acks, FCTs as a fraction). So both sides are compared as streams:
 * a message's "generation" is the completion of the message before it on
 * the same virtual link, and its `last` (message-complete − generation) is
 * its period. Side B (the closed form) puts message k of a stream at
 * Σ_{j≤k} B(m_j) cycles, so its `last` is B(m_k) exactly; side A (the RTL)
 * measures it. The first `WARMUP` messages of each stream are left out (the
 * stream starting up). Reading: docs/t9000.md#compare-presets.
 *
 *  t9000-uni  a → b only, sizes cycling through UNI_SIZES, Eq 4.1
 *  t9000-bi   both ways, lock-step start, sizes cycling through BI_SIZES, Eq 4.2
 *
 * Links: T9000_THESIS_SIM_LINKS (docs/dslink.md#run-idle, #flow-through), the setting of
 * dslink-bandwidth. Tolerances are Table 4.1's, on the relative difference of
 * the mean periods.
 */
import type { TraceEvent } from '../../traces/events/vocabulary.ts';
import type { DsLinkConfig } from '../../rtl/dslink/config.ts';
import { dslinkBandwidthTerms, TABLE_4_1, type DsDirection } from '../models/dslink.ts';
import { dsLinks, makeT9000Pair, runUntilLinksUp, T9000_THESIS_SIM_LINKS } from '../rtl/t9000_pair.ts';
import type { SideTrace } from './extract.ts';
import { compareTraces, type MetricName } from './join.ts';
import { DEFAULT_MAPPING } from './mapping.ts';
import type { Explanation, Preset, PresetRun } from './presets.ts';
import { checkTolerances, type Tolerance } from './tolerance.ts';
import { intactBytes } from '../rtl/intact.ts';

/** Sizes of the unidirectional stream: single packets, full packets, and a 4-byte last packet (100). Not 33, 65, 97: docs/t9000.md#bandwidth-experiment. */
export const UNI_SIZES = Object.freeze([4, 8, 16, 32, 64, 100, 128]);
/** Sizes of the bidirectional lock-step stream: whole packets (m = 32k), where Table 4.1's bound holds on the RTL. */
export const BI_SIZES = Object.freeze([32, 64, 96, 128]);
/** Messages per stream (quick: fewer) and how many are left out at its start. */
export const STREAM_MESSAGES = { full: 70, quick: 21 } as const;
export const WARMUP = 3;
const METRICS: MetricName[] = ['last'];

export interface T9000StreamRun {
  /** Per stream (source node), the message ids in order and their sizes. */
  readonly streams: { readonly node: number; readonly ids: number[]; readonly sizes: number[] }[];
  /** RTL completion cycle per message id. */
  readonly complete: Map<number, number>;
  readonly events: TraceEvent[];
  readonly cycles: number;
  readonly intact: boolean;
  readonly wallSeconds: number;
}

/**
 * Run the RTL pair: a (and b, for 'bi') repeats blocking sends whose sizes
 * cycle through `sizes`, two queued ahead; the far side repeats blocking
 * receives. Processes start once both link ends run.
 */
export function runT9000Stream(direction: DsDirection, sizes: readonly number[], count: number, links: Partial<DsLinkConfig> = T9000_THESIS_SIM_LINKS): T9000StreamRun {
  const t0 = performance.now();
  const pair = makeT9000Pair(2, { sendAreaBytes: 1024, rxSlots: 5 }, { links: dsLinks(links), workload: { compare: `t9000-${direction}`, sizes: [...sizes], count } });
  const { driver, sim, rec } = pair;
  const start = runUntilLinksUp(pair);
  const senders = direction === 'bi' ? [0, 1] : [0];
  const payload = (node: number, k: number) => Array.from({ length: sizes[k % sizes.length]! }, (_, j) => (j * 31 + 7 * k + node) & 0xff);
  for (const node of senders) {
    let k = 0;
    driver.receiveLoop(1 - node, node, count, start);
    driver.sendLoop(node, node, count, start, () => payload(node, k++), false, 2);
  }
  const r = sim.runUntil(() => rec.deliveries.length >= senders.length * count, 2000 * count + 50_000);
  if (!r.reached) throw new Error(`t9000-${direction}: ${rec.deliveries.length} of ${senders.length * count} messages delivered`);
  const complete = new Map<number, number>();
  for (const e of rec.events) if (e.kind === 'message-complete') complete.set(e.msg, e.t);
  const streams = senders.map((node) => {
    const msgs = driver.messages.filter((m) => m.src.node === node).sort((x, y) => x.seq - y.seq);
    return { node, ids: msgs.map((m) => m.id), sizes: msgs.map((m) => m.data.length) };
  });
  const byId = new Map(driver.messages.map((m) => [m.id, m] as const));
  const intact = rec.deliveries.every((d) => intactBytes(d.bytes, byId.get(d.msg)?.data));
  return { streams, complete, events: rec.events, cycles: sim.cycle, intact, wallSeconds: (performance.now() - t0) / 1000 };
}

/** Eq 4.1 / 4.2: bits on one direction of the link per message of m bytes (= cycles at one bit per cycle). */
export function eqPeriod(m: number, direction: DsDirection): number {
  return dslinkBandwidthTerms({ m, direction }).B;
}

/**
 * The two sides as streams: per message after the warm-up, generation = the
 * stream's previous completion, last = completion. A from the RTL, B from the
 * closed form (cumulative periods). Message ids are the RTL's.
 */
export function streamSides(run: T9000StreamRun, direction: DsDirection, period: (m: number) => number = (m) => eqPeriod(m, direction)): { a: SideTrace; b: SideTrace } {
  const evA: TraceEvent[] = [];
  const evB: TraceEvent[] = [];
  const genA = new Map<number, number>();
  const genB = new Map<number, number>();
  for (const s of run.streams) {
    let tb = 0;
    s.ids.forEach((id, k) => {
      const pb = tb;
      tb += period(s.sizes[k]!);
      if (k < WARMUP) return;
      genA.set(id, run.complete.get(s.ids[k - 1]!)!);
      evA.push({ t: run.complete.get(id)!, kind: 'message-complete', msg: id, node: 1 - s.node });
      genB.set(id, pb);
      evB.push({ t: tb, kind: 'message-complete', msg: id, node: 1 - s.node });
    });
  }
  const byT = (x: TraceEvent, y: TraceEvent) => x.t - y.t;
  return {
    a: { label: 'rtl', unit: 'cycles', events: evA.sort(byT), generation: genA, info: { cyclesRun: run.cycles, wallSeconds: run.wallSeconds, intact: run.intact, links: 'T9000_THESIS_SIM_LINKS' } },
    b: { label: direction === 'uni' ? 'Eq 4.1' : 'Eq 4.2', unit: 'cycles', events: evB.sort(byT), generation: genB, info: { model: 'harness/models/dslink.ts dslinkBandwidthTerms (exact FCT fractions)' } },
  };
}

interface StreamSpec {
  readonly name: string;
  readonly summary: string;
  readonly direction: DsDirection;
  readonly sizes: readonly number[];
  readonly tolerances: readonly Tolerance[];
}

function streamPreset(s: StreamSpec): Preset {
  return {
    name: s.name,
    summary: s.summary,
    tolerances: s.tolerances,
    run(o = {}): PresetRun {
      const t0 = performance.now();
      const quick = Boolean(o.quick);
      const count = quick ? STREAM_MESSAGES.quick : STREAM_MESSAGES.full;
      if (!o.quiet) process.stderr.write(`${s.name}: RTL T9000 pair, ${count} messages per stream …\n`);
      const run = runT9000Stream(s.direction, s.sizes, count);
      if (!run.intact) throw new Error(`${s.name}: a message arrived corrupted on the RTL`);
      const { a, b } = streamSides(run, s.direction);
      const comparison = compareTraces(a, b, { unit: 'cycles', metrics: METRICS });
      const check = checkTolerances(comparison, s.tolerances);
      const last = comparison.metrics.find((m) => m.metric === 'last');
      const explanations: Explanation[] = [
        {
          metric: 'last',
          stat: 'means',
          expected: 0,
          measured: last && last.joined ? (last.b.mean - last.a.mean) / last.a.mean : null,
          unit: 'rel',
          text: `mean period per message: RTL ${last?.a.mean.toFixed(2)} cycles, ${b.label} ${last?.b.mean.toFixed(2)} cycles; per message the RTL's periods scatter around the equation's by the FCTs, which it sends whole (one per 8 characters) where the equation counts fractions`,
        },
      ];
      const notes = [
        'A = RTL (rtl/t9000 + rtl/dslink, clock by clock, T9000_THESIS_SIM_LINKS: transmit buffer 1, rxHandover on-arrival, runIdle silent, flowThrough); B = the closed form (harness/models/dslink.ts), no fitting.',
        `Streams: generation of a message = completion of the one before it on its virtual link, so last = the period per message; the first ${WARMUP} messages of each stream are left out. Sizes cycle through ${s.sizes.join(', ')} bytes.`,
        'Where the equations do not hold on the RTL (bidirectional with a 60-cycle stagger, the late row: m = 33–36, 65–68, 97–100) see icemu experiment dslink-bandwidth and docs/t9000.md#staggered-offset.',
      ];
      const params = { direction: s.direction, sizes: [...s.sizes], messagesPerStream: count, warmup: WARMUP };
      const header = { format: 'icemu-events' as const, version: 1 as const, unit: 'cycles' as const, workload: { name: s.name, ...params } };
      return {
        result: { preset: s.name, title: s.summary, quick, seed: o.seed ?? 1, workload: { name: s.name, seed: null, messages: run.streams.reduce((n, x) => n + x.ids.length, 0), params }, mapping: DEFAULT_MAPPING, comparison, tolerances: s.tolerances, check, explanations, notes, wallSeconds: (performance.now() - t0) / 1000 },
        workload: { name: s.name, seed: null, params, unit: 'cycles', cubeDegree: 0, messages: [] },
        sides: { a, b },
        traces: { a: { header: { ...header, model: 'rtl' as const }, events: a.events as TraceEvent[] }, b: { header: { ...header, model: 'analytic' as const }, events: b.events as TraceEvent[] } },
      };
    },
  };
}

const T41 = TABLE_4_1;
/** Percent → fraction, rounded to 12 digits (1.38 / 100 is 0.013799999999999998 in binary). */
const frac = (pct: number): number => Number((pct / 100).toPrecision(12));

export const T9000_PRESETS: readonly Preset[] = Object.freeze([
  streamPreset({
    name: 't9000-uni',
    summary: 'RTL T9000 pair, one DS-link, a → b stream vs Eq 4.1, mean period per message',
    direction: 'uni',
    sizes: UNI_SIZES,
    tolerances: [
      { metric: 'missing', max: 0, why: 'every message is delivered on the RTL' },
      { metric: 'last', of: 'means', min: -frac(T41.staggered.uni.max), max: frac(T41.staggered.uni.max), why: `Table 4.1 staggered uni: within ${T41.staggered.uni.max}% of Eq 4.1 (measured: −0.008% full, −0.009% --quick)` },
    ],
  }),
  streamPreset({
    name: 't9000-bi',
    summary: 'RTL T9000 pair, one DS-link, lock-step streams both ways vs Eq 4.2, mean period per message',
    direction: 'bi',
    sizes: BI_SIZES,
    tolerances: [
      { metric: 'missing', max: 0, why: 'every message is delivered on the RTL' },
      {
        metric: 'last',
        of: 'means',
        min: -frac(T41.lockstep.bi.max),
        max: 0,
        why: `Table 4.1 lock-step bi: bandwidth below Eq 4.2 by at most ${T41.lockstep.bi.max}%, never above, so the model's period is at most that much shorter than the RTL's (measured −0.28% full, −0.29% --quick: one cycle per packet, the deserialiser register; with NULLs (T9000_THESIS_LINKS) −2.14%, silent without flow-through −1.08%)`,
      },
    ],
  }),
]);
