/**
 * `icemu compare c104-zero-load | c104-light | c104-moderate`: the RTL C104
 * mesh (harness/rtl/c104_system.ts: C104 switches, T9000 endpoints, real
 * DS-links, clock by clock) against the T9000/C104 TLM in its token-credit
 * (RTL-calibrated) mode (harness/tlm/t9000-c104/token-network.ts,
 * docs/thesis-model.md#token-credit), on one list of timed messages
 * (harness/compare/c104_rtl.ts). Both sides in RTL cycles (TLM ns / 10).
 *
 *  c104-zero-load  one message at a time on a 4×4 mesh, 7 paths × 0–100 B:
 *                  every stamp equal (ZERO_LOAD_BOUNDS 0…0)
 *  c104-light      4×4 mesh, uniform random destinations, 64-byte messages at
 *                  0.1 DS-link bandwidths per node (Poisson)
 *  c104-moderate   the same at 0.3 (internal links about a third busy)
 *
 * The loaded presets bound the relative difference of the means of 'first'
 * (first packet delivered) and 'last' (message complete), as the Buzzard
 * calibrated presets do (calibrated.ts): agreement in the mean is the claim
 * that the TLM can stand in for the RTL. Measured ranges are in each `why`.
 */
import { TOKEN_CREDIT_PRESET } from '../tlm/t9000-c104/index.ts';
import { uniformTimedMessages, type TimedMessage } from '../workloads/timed-messages.ts';
import type { Workload } from '../workloads/types.ts';
import { runRtlMesh, runTlmMesh, zeroLoadDeviations, ZERO_LOAD_BOUNDS, type SideRun } from './c104_rtl.ts';
import type { SideTrace } from './extract.ts';
import { compareTraces, type MetricName } from './join.ts';
import { DEFAULT_MAPPING } from './mapping.ts';
import type { Explanation, Preset, PresetRun } from './presets.ts';
import { checkTolerances, type Tolerance } from './tolerance.ts';

const SIDE = 4;
const METRICS: MetricName[] = ['first', 'last', 'last-first', 'throughput'];

/** The timed messages as a Workload record (for the report; the C104 mesh is no cube: cubeDegree 0). */
function asWorkload(name: string, messages: readonly TimedMessage[], params: Record<string, unknown>, seed: number | null): Workload {
  return { name, seed, params, unit: 'ns', cubeDegree: 0, messages: messages.map((m, id) => ({ id, t: m.t, src: m.src, dst: m.dst, bytes: m.bytes, kind: 'unicast' as const })) };
}

function side(label: string, r: SideRun, info: Record<string, unknown>): SideTrace {
  return { label, unit: 'cycles', events: r.events, generation: r.generation, info: { wallSeconds: r.wallSeconds, complete: r.complete, ...info } };
}

interface LoadSpec {
  readonly name: string;
  readonly summary: string;
  readonly load: number;
  readonly durationNs: number;
  readonly quickDurationNs: number;
  readonly tolerances: readonly Tolerance[];
}

export const C104_BYTES = 64;
/** The RTL sends one ordered pair's messages on one virtual link; keep them apart (c104_rtl.ts). */
export const C104_PAIR_GAP_NS = 50_000;

function run(name: string, title: string, w: Workload, messages: readonly TimedMessage[], tolerances: readonly Tolerance[], quick: boolean, seed: number, o: { quiet?: boolean }, extra: (rtl: SideRun, tlm: SideRun, c: ReturnType<typeof compareTraces>) => { explanations: Explanation[]; notes: string[] }): PresetRun {
  const t0 = performance.now();
  if (!o.quiet) process.stderr.write(`${name}: RTL ${SIDE}×${SIDE} mesh, ${messages.length} messages …\n`);
  const rtl = runRtlMesh(messages, { side: SIDE });
  const tlm = runTlmMesh(messages, { side: SIDE, ...TOKEN_CREDIT_PRESET });
  const a = side('rtl', rtl, { config: 'mesh 4x4, x-first, stc104 buffers, thesis timing (routing delay 4 cycles), 4 CPU links' });
  const b = side('tlm token-credit', tlm, { config: TOKEN_CREDIT_PRESET });
  const comparison = compareTraces(a, b, { unit: 'cycles', metrics: METRICS });
  const check = checkTolerances(comparison, tolerances);
  const { explanations, notes } = extra(rtl, tlm, comparison);
  const header = { format: 'icemu-events' as const, version: 1 as const, unit: 'cycles' as const, workload: { name: w.name, ...w.params } };
  return {
    result: { preset: name, title, quick, seed, workload: { name: w.name, seed: w.seed, messages: messages.length, params: w.params }, mapping: DEFAULT_MAPPING, comparison, tolerances, check, explanations, notes, wallSeconds: (performance.now() - t0) / 1000 },
    workload: w,
    sides: { a, b },
    traces: { a: { header: { ...header, model: 'rtl' as const }, events: rtl.events }, b: { header: { ...header, model: 'tlm' as const }, events: tlm.events } },
  };
}

function meansRows(c: ReturnType<typeof compareTraces>): Explanation[] {
  return (['first', 'last'] as const).map((k) => {
    const m = c.metrics.find((x) => x.metric === k);
    return { metric: k, stat: 'means', expected: 0, measured: m && m.joined ? (m.b.mean - m.a.mean) / m.a.mean : null, unit: 'rel', text: `RTL mean ${m?.a.mean.toFixed(1)} cycles, TLM ${m?.b.mean.toFixed(1)} cycles` };
  });
}

const NOTES = [
  'A = RTL (rtl/c104 + rtl/t9000 + rtl/dslink, clock by clock), B = TLM token-credit mode (harness/tlm/t9000-c104/token-network.ts); both in cycles of 10 ns from the end of DS-link start-up.',
  'Both sides tie a channel to T9000 link (its end number at the node) mod 4, each link with its own ack and data queues (the TLM\'s t9000Links \'per-channel\', docs/thesis-model.md#t9000-links); the RTL runs with node addressing.',
];

function loadPreset(s: LoadSpec): Preset {
  return {
    name: s.name,
    summary: s.summary,
    tolerances: s.tolerances,
    run(o = {}) {
      const seed = o.seed ?? 1;
      const quick = Boolean(o.quick);
      const params = { side: SIDE, load: s.load, bytes: C104_BYTES, durationNs: quick ? s.quickDurationNs : s.durationNs, pairGapNs: C104_PAIR_GAP_NS, seed };
      const msgs = uniformTimedMessages(params);
      const w = asWorkload('c104-uniform', msgs, params, seed);
      const title = `RTL vs TLM (token-credit), 4×4 C104 mesh, uniform random ${C104_BYTES} B at ${s.load} DS-link bandwidths per node`;
      return run(s.name, title, w, msgs, s.tolerances, quick, seed, o, (_r, _t, c) => ({ explanations: meansRows(c), notes: NOTES }));
    },
  };
}

const zeroLoadTolerances: Tolerance[] = [
  { metric: 'missing', max: 0, why: 'both sides deliver every message' },
  { metric: 'first', stat: 'min', min: ZERO_LOAD_BOUNDS.firstDelivered[0], max: ZERO_LOAD_BOUNDS.firstDelivered[1], why: 'zero-load bound of the first packet\'s delivery (c104_rtl.ts ZERO_LOAD_BOUNDS: equal, measured 0…0)' },
  { metric: 'first', stat: 'max', min: ZERO_LOAD_BOUNDS.firstDelivered[0], max: ZERO_LOAD_BOUNDS.firstDelivered[1], why: 'as above, the other side' },
  { metric: 'last', stat: 'min', min: ZERO_LOAD_BOUNDS.complete[0], max: ZERO_LOAD_BOUNDS.complete[1], why: 'zero-load bound of message completion (equal, measured 0…0)' },
  { metric: 'last', stat: 'max', min: ZERO_LOAD_BOUNDS.complete[0], max: ZERO_LOAD_BOUNDS.complete[1], why: 'as above, the other side' },
];

/** The zero-load message list of the cross-check: 7 paths of 1–6 hops × 10 sizes (quick: 4 × 5), one every 30 µs. */
export function c104ZeroLoadMessages(quick: boolean): TimedMessage[] {
  const pairs = quick ? [[0, 1], [0, 15], [3, 12], [7, 8]] : [[0, 1], [0, 4], [0, 15], [5, 10], [3, 12], [12, 3], [7, 8]];
  const sizes = quick ? [0, 1, 32, 33, 65] : [0, 1, 2, 8, 31, 32, 33, 64, 65, 100];
  const out: TimedMessage[] = [];
  let t = 0;
  for (const [src, dst] of pairs) for (const bytes of sizes) out.push({ t: (t += 30_000), src: src!, dst: dst!, bytes });
  return out;
}

const zeroLoad: Preset = {
  name: 'c104-zero-load',
  summary: 'RTL C104 4×4 mesh vs TLM token-credit, one message at a time (7 paths × 0–100 B)',
  tolerances: zeroLoadTolerances,
  run(o = {}) {
    const quick = Boolean(o.quick);
    const msgs = c104ZeroLoadMessages(quick);
    const w = asWorkload('c104-zero-load', msgs, { side: SIDE, messages: msgs.length }, null);
    return run('c104-zero-load', 'RTL vs TLM (token-credit) at zero load, 4×4 C104 mesh', w, msgs, zeroLoadTolerances, quick, o.seed ?? 1, o, (rtl, tlm) => ({
      explanations: zeroLoadDeviations(rtl.times, tlm.times).map((d) => ({ metric: d.stamp, stat: 'min…max', expected: d.bound[1], measured: d.max, unit: 'cycles', text: `TLM − RTL ${d.min}…${d.max} cycles, declared ${d.bound[0]}…${d.bound[1]}: ${d.pass ? 'within' : 'OUTSIDE'}` })),
      notes: NOTES,
    }));
  },
};

const lightTolerances: Tolerance[] = [
  { metric: 'missing', max: 0, why: 'both sides deliver every message' },
  { metric: 'first', of: 'means', min: -0.03, max: 0.03, why: 'token-credit mode stands in for the RTL: mean first-packet time within 3% (measured −0.37 / −0.15 / −0.48% on seeds 1–3)' },
  { metric: 'last', of: 'means', min: -0.03, max: 0.03, why: 'mean completion time within 3% (measured −0.26 / −0.07 / −0.47% on seeds 1–3)' },
  { metric: 'last', stat: 'p50', min: -10, max: 10, why: 'median completion within 10 cycles (measured 0 / 0 / 0 cycles on seeds 1–3; zero load: equal per message)' },
];

const moderateTolerances: Tolerance[] = [
  { metric: 'missing', max: 0, why: 'both sides deliver every message' },
  { metric: 'first', of: 'means', min: -0.05, max: 0.05, why: 'mean first-packet time within 5% (measured −0.55 / −0.61 / −0.29% on seeds 1–3)' },
  { metric: 'last', of: 'means', min: -0.05, max: 0.05, why: 'mean completion time within 5% (measured +0.68 / −0.95 / −0.32% on seeds 1–3)' },
  { metric: 'last', stat: 'p50', min: -15, max: 15, why: 'median completion within 15 cycles (measured 0 / −2 / 0 cycles on seeds 1–3)' },
];

export const C104_PRESETS: readonly Preset[] = Object.freeze([
  zeroLoad,
  loadPreset({ name: 'c104-light', summary: 'RTL C104 4×4 mesh vs TLM token-credit, uniform random 64 B at 0.1 link bandwidths per node', load: 0.1, durationNs: 600_000, quickDurationNs: 200_000, tolerances: lightTolerances }),
  loadPreset({ name: 'c104-moderate', summary: 'RTL C104 4×4 mesh vs TLM token-credit, uniform random 64 B at 0.3 link bandwidths per node', load: 0.3, durationNs: 400_000, quickDurationNs: 150_000, tolerances: moderateTolerances }),
]);
