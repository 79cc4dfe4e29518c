/**
 * `icemu experiment buzzard-fig5.1x --model rtl`: the chapter-5 points run on
 * the RTL (rtl/buzzard, clock by clock) beside the RTL-calibrated TLM and the
 * seed-level TLM, all three on the same workload (docs/buzzard-ch5.md#rtl-runs).
 *
 * What the RTL can build: quasi-adaptive and fixed (e-cube) packet routing
 * with 32- or 64-byte packets and 2..16 packet buffers per PBU (the RAM slot
 * field is 4 bits). It has no wormhole unit (the Buzzard is a packet
 * machine), no 26-buffer PBU and no other packet size, so at those points the
 * RTL column is empty and the RTL report uses the calibrated TLM's value in
 * its place; each such point is listed in the report. The ratios "to
 * wormhole" of the RTL column are therefore RTL packet times over the
 * calibrated TLM's wormhole times (the same clock: 9 cycles per byte, 31-cycle
 * hops).
 *
 * Times are reported in ticks (A1: 1 tick = 4.5 cycles) so the three columns
 * sit side by side; the RTL and the calibrated TLM run in cycles. Stability
 * is judged per model with the same rule (buzzard-ch5-common.ts
 * STABILITY_RULE: a half-length run of the same point).
 */
import { runRtlWorkload } from '../compare/rtl_run.ts';
import { digest } from '../compare/extract.ts';
import { runTlmCalibrated, CALIBRATED_CYCLES_PER_TICK } from '../tlm/calibrated.ts';
import type { Workload } from '../workloads/types.ts';
import type { BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { RTL_TIMING_VERSION } from '../../rtl/buzzard/timing_version.ts';
import type { MessageTimes } from '../tlm/types.ts';
import { ci95Of, growth, isStable, growthText, tlmRes, TOLERANCE, type Ch5Params, type Ch5Pt, type Ch5Res } from './buzzard-ch5-common.ts';
import { readRtlResults, rtlPointKey, rtlResultReusing } from './buzzard-ch5-rtl-reuse.ts';
import { pct, type Report, type ReportTable, type SeedCheck } from './types.ts';

const CPT = CALIBRATED_CYCLES_PER_TICK;

/** Messages per node in RTL mode (the RTL runs ~3–40k cycles/s on a 6-cube): full and --quick, per mean length. */
export const RTL_MPN = { full: { 512: 16, 2048: 8 }, quick: { 512: 2, 2048: 1 } } as const;

/** The three models of RTL mode, in report order. */
export const RTL_MODELS = ['rtl', 'calibrated', 'seedLevel'] as const;
export type RtlModel = (typeof RTL_MODELS)[number];
export const RTL_MODEL_LABEL: Record<RtlModel, string> = { rtl: 'RTL', calibrated: 'calibrated TLM', seedLevel: 'seed-level TLM' };

export interface Ch5RtlRes {
  /** null: the RTL cannot build this point (rtlWhyNot says why). */
  readonly rtl: Ch5Res | null;
  /** The RTL result was taken from an earlier run (--rtl-reuse), not run here. */
  readonly rtlReused: boolean;
  /** RTL_TIMING_VERSION of the RTL that produced `rtl` (null: no RTL result); --rtl-reuse reuses only its own version. */
  readonly rtlVersion: number | null;
  /** --rtl-reuse found this point stored under another RTL version (null: stored without one) and ran it again; absent otherwise. */
  readonly rtlStaleVersion?: number | null;
  readonly rtlWhyNot: string | null;
  readonly calibrated: Ch5Res;
  readonly seedLevel: Ch5Res;
}

/** Why the RTL cannot run a point, or null when it can. */
export function rtlWhyNot(p: Pick<Ch5Pt, 'transport' | 'packetBytes' | 'buffersPerPbu'>): string | null {
  if (p.transport === 'wormhole') return 'the RTL has no wormhole unit';
  if (p.packetBytes !== 32 && p.packetBytes !== 64) return `the RTL builds 32- or 64-byte packets only (${p.packetBytes} B)`;
  if (p.buffersPerPbu < 2 || p.buffersPerPbu > 16) return `the RTL's PBU holds 2..16 packets (${p.buffersPerPbu})`;
  return null;
}

export interface Times {
  readonly meanFirst: number;
  readonly meanLast: number;
  readonly meanLastMinusFirst: number;
  readonly maxFirst: number;
  readonly maxLast: number;
  readonly delivered: number;
  readonly makespan: number;
  readonly linkBusy: number;
  /** Per message in id (generation) order, cycles from generation; NaN if undelivered. */
  readonly perMessage: MessageTimes[];
}

/**
 * One RTL run: per-message first / last from generation, in cycles. `extra`
 * overrides the build (a perturbed RTL, the control of
 * test/buzzard/timing_version.test.ts); the experiment passes none.
 */
export function rtlTimes(w: Workload, p: Pick<Ch5Pt, 'transport' | 'packetBytes' | 'buffersPerPbu'>, extra: Partial<BuzzardConfig> = {}): Times {
  const genEnd = w.messages.length ? Math.round(w.messages.at(-1)!.t * CPT) : 0;
  const run = runRtlWorkload(w, {
    cyclesPerTick: CPT,
    maxCycles: genEnd + 4_000_000,
    quiet: true,
    config: { routing: p.transport === 'fixed-packet' ? 'e-cube' : 'quasi-adaptive', packetBytes: p.packetBytes as 32 | 64, camHeight: p.buffersPerPbu, ...extra },
  });
  const d = digest({ label: 'rtl', unit: 'cycles', events: run.events, generation: run.generation });
  let n = 0;
  let sf = 0;
  let sl = 0;
  let mf = 0;
  let ml = 0;
  let end = 0;
  const perMessage: MessageTimes[] = w.messages.map(() => ({ first: NaN, last: NaN }));
  for (const [id, m] of d.messages) {
    if (m.gen === undefined || m.first === undefined || m.last === undefined) continue;
    if (perMessage[id] !== undefined) perMessage[id] = { first: m.first - m.gen, last: m.last - m.gen };
    n++;
    sf += m.first - m.gen;
    sl += m.last - m.gen;
    mf = Math.max(mf, m.first - m.gen);
    ml = Math.max(ml, m.last - m.gen);
    end = Math.max(end, m.last);
  }
  return { meanFirst: sf / n, meanLast: sl / n, meanLastMinusFirst: (sl - sf) / n, maxFirst: mf, maxLast: ml, delivered: n, makespan: end, linkBusy: run.linkBusyCycles, perMessage };
}

/** The RTL's result in the shape of a TLM point (ticks), with the same stability rule. */
function rtlRes(w: Workload, half: Workload, halfMpn: number, p: Ch5Pt, idealU: number | null): Ch5Res {
  const s = rtlTimes(w, p);
  const h = rtlTimes(half, p);
  const g = { first: growth(s.meanFirst, h.meanFirst), last: growth(s.meanLast, h.meanLast) };
  const links = w.cubeDegree * 2 ** w.cubeDegree;
  const t = (x: number): number => x / CPT;
  return {
    idealU,
    measuredU: s.makespan > 0 ? s.linkBusy / (links * s.makespan) : 0,
    nipLoad: null,
    meanFirst: t(s.meanFirst),
    meanLast: t(s.meanLast),
    meanLastMinusFirst: t(s.meanLastMinusFirst),
    maxFirst: t(s.maxFirst),
    maxLast: t(s.maxLast),
    messages: w.messages.length,
    delivered: s.delivered,
    contraryMessages: 0,
    orderViolations: 0,
    deadlock: s.delivered < w.messages.length,
    lastGeneration: w.messages.length ? w.messages.at(-1)!.t : 0,
    makespan: t(s.makespan),
    half: { messagesPerNode: halfMpn, meanFirst: t(h.meanFirst), meanLast: t(h.meanLast) },
    growth: g,
    stable: isStable(g) && s.delivered === w.messages.length,
    ci95: ci95Of(s.perMessage, CPT),
    resources: { sourceWaitBySlot: [], meanSourceWait: NaN, meanInNetworkFirst: NaN, pbuFullFraction: [], linkBusyFraction: [] },
  };
}

/** Messages per node of a point in RTL mode: the figure's own count, RTL_MPN for a point of the other length. */
export function rtlMpn(p: Pick<Ch5Pt, 'meanBytes'>, q: Pick<Ch5Params, 'meanBytes' | 'messagesPerNode' | 'quick'>): number {
  return p.meanBytes === q.meanBytes ? q.messagesPerNode : RTL_MPN[q.quick ? 'quick' : 'full'][p.meanBytes];
}

/** Check that an --rtl-reuse directory can be read (RangeError: one usage line), before any point runs. */
export function checkRtlReuse(dir: string): void {
  readRtlResults(dir, rtlMpn);
}

/**
 * Run one point in RTL mode: the seed-level TLM (`seedLevel`, the TLM mode's
 * own runner, on the same messages per node), the calibrated TLM and, where
 * it can build the point, the RTL, each at full and half length.
 */
export function runCh5PointRtl(p: Ch5Pt, q: Ch5Params, seedLevel: (p: Ch5Pt, q: Ch5Params) => Ch5Res, workload: (mb: 512 | 2048, gap: number, mpn: number) => Workload): Ch5RtlRes {
  const mpn = rtlMpn(p, q);
  const halfMpn = Math.max(1, Math.ceil(mpn / 2));
  const sl = seedLevel(p, { ...q, meanBytes: p.meanBytes, messagesPerNode: mpn });
  const w = workload(p.meanBytes, p.meanGapTicks, mpn);
  const hw = workload(p.meanBytes, p.meanGapTicks, halfMpn);
  const over = { packetBytes: p.packetBytes - 4, buffersPerPbu: p.buffersPerPbu, recordEvents: false } as const;
  const calRun = runTlmCalibrated(w, p.transport, over);
  const cal = tlmRes(calRun.stats, runTlmCalibrated(hw, p.transport, over).stats, halfMpn, null, CPT, calRun.perMessage);
  const why = rtlWhyNot(p);
  const rtl = why ? null : rtlResultReusing(rtlPointKey(p, q, mpn, halfMpn), q.rtlReuse ?? null, rtlMpn, sl.idealU, () => rtlRes(w, hw, halfMpn, p, sl.idealU));
  const stale = rtl?.staleVersion !== undefined ? { rtlStaleVersion: rtl.staleVersion } : {};
  return { rtl: rtl?.res ?? null, rtlReused: rtl?.reused ?? false, rtlVersion: rtl ? RTL_TIMING_VERSION : null, ...stale, rtlWhyNot: why, calibrated: { ...cal, idealU: sl.idealU }, seedLevel: sl };
}

/** The report's --rtl-reuse note: what was reused, and what was stored under another RTL version and run again. */
export function reuseNote(dir: string, results: readonly Pick<Ch5RtlRes, 'rtl' | 'rtlReused' | 'rtlStaleVersion'>[]): string {
  const stale = results.filter((r) => r.rtlStaleVersion !== undefined);
  const versions = [...new Set(stale.map((r) => (r.rtlStaleVersion === null ? 'none (stored before RTL versions)' : String(r.rtlStaleVersion))))].join(', ');
  return (
    `--rtl-reuse ${dir}: the RTL results of ${results.filter((r) => r.rtlReused).length} of ${results.filter((r) => r.rtl !== null).length} RTL points were taken from earlier RTL-mode runs there (same seed, cube, workload and build, RTL version ${RTL_TIMING_VERSION}; the RTL is deterministic), not run again; the calibrated and seed-level TLMs ran here.` +
    (stale.length ? ` ${stale.length} point${stale.length === 1 ? ' was' : 's were'} stored there under another RTL version (${versions}) and run again: the RTL's timing may have changed since (docs/buzzard-ch5.md#rtl-version).` : '')
  );
}

/** One model's results, the RTL falling back to the calibrated TLM where it has no point. */
export function modelResults(results: readonly Ch5RtlRes[], m: RtlModel): Ch5Res[] {
  return results.map((r) => (m === 'rtl' ? (r.rtl ?? r.calibrated) : r[m]));
}

/** Relative difference a/b − 1 as text ("+1.2%"). */
function rel(a: number | null, b: number | null): string {
  if (a === null || b === null || !(b > 0)) return 'n/a';
  const x = a / b - 1;
  return `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
}

/** Label of a point in tables, e.g. "1024 quasi 13×32". */
function pointLabel(p: Ch5Pt): string {
  return `${p.role === 'main' ? '' : `${p.role} exp(${p.meanBytes}) `}${p.meanGapTicks} ${p.transport === 'quasi-adaptive' ? 'quasi' : p.transport === 'fixed-packet' ? 'fixed' : 'wormhole'} ${p.buffersPerPbu}×${p.packetBytes}`;
}

/**
 * The RTL-mode report: a side-by-side table of every point (mean first and
 * last of RTL, calibrated and seed-level TLM, in ticks, with the calibrated
 * TLM's difference to the RTL and each model's stability), then each model's
 * own report from the TLM mode's assembler with its checks prefixed by the
 * model ("rtl/…", "calibrated/…", "seed-level/…").
 */
export function assembleRtl(q: Ch5Params, points: readonly Ch5Pt[], results: readonly Ch5RtlRes[], assemble: (q: Ch5Params, points: readonly Ch5Pt[], results: readonly Ch5Res[]) => Report): Report {
  const side: ReportTable = {
    title: `RTL, calibrated TLM and seed-level TLM side by side, mean times from generation in ticks (1 tick = ${CPT} cycles), exp(${q.meanBytes}), ${q.cubeDegree}-cube, ${q.messagesPerNode} messages per node`,
    columns: ['point', 'first RTL', 'first cal', 'first seed-level', 'last RTL', 'last cal', 'last seed-level', 'cal−RTL first', 'cal−RTL last', 'growth RTL', 'growth cal', 'growth seed-level'],
    rows: points.map((p, k) => {
      const r = results[k]!;
      return [
        pointLabel(p),
        r.rtl?.meanFirst ?? null,
        r.calibrated.meanFirst,
        r.seedLevel.meanFirst,
        r.rtl?.meanLast ?? null,
        r.calibrated.meanLast,
        r.seedLevel.meanLast,
        rel(r.calibrated.meanFirst, r.rtl?.meanFirst ?? null),
        rel(r.calibrated.meanLast, r.rtl?.meanLast ?? null),
        r.rtl ? growthText(r.rtl) : `— (${r.rtlWhyNot})`,
        growthText(r.calibrated),
        growthText(r.seedLevel),
      ];
    }),
    digits: [0, 1, 1, 1, 1, 1, 1],
    notes: [
      'cal−RTL: the calibrated TLM relative to the RTL (the calibrated presets hold it within ±2% of the RTL on the means below saturation, harness/compare/calibrated.ts).',
      'seed-level: the TLM with the seed\'s simulator constants (2 ticks/byte, 12-tick hops, 32 data bytes per packet): a model of the seed\'s simulator, not of the RTL (docs/buzzard-ch5.md#rtl-runs).',
    ],
  };
  const sub = RTL_MODELS.map((m) => ({ m, rep: assemble(q, points, modelResults(results, m)) }));
  const missing = points.map((p, k) => [p, results[k]!] as const).filter(([, r]) => r.rtl === null);
  const prefix = (m: RtlModel): string => (m === 'seedLevel' ? 'seed-level' : m);
  const checks: SeedCheck[] = sub.flatMap(({ m, rep }) => rep.checks.map((c) => ({ ...c, id: `${prefix(m)}/${c.id}`, statement: `[${RTL_MODEL_LABEL[m]}] ${c.statement}` })));
  const tables = [side, ...sub.flatMap(({ m, rep }) => rep.tables.map((t) => ({ ...t, title: `[${RTL_MODEL_LABEL[m]}] ${t.title}` })))];
  const plots = sub.flatMap(({ m, rep }) => rep.plots.map((pl) => ({ ...pl, id: `${prefix(m)}-${pl.id}`, title: `[${RTL_MODEL_LABEL[m]}] ${pl.title}` })));
  const verdicts = (m: RtlModel): string => {
    const cs = checks.filter((c) => c.id.startsWith(`${prefix(m)}/`));
    return `${cs.filter((c) => c.holds === true).length} hold, ${cs.filter((c) => c.holds === false).length} fail, ${cs.filter((c) => c.comparable === false).length} not comparable, of ${cs.length}`;
  };
  const notes = [
    `--model rtl: ${q.messagesPerNode} messages per node (RTL_MPN: ${RTL_MPN.full[q.meanBytes]} full, ${RTL_MPN.quick[q.meanBytes]} --quick; the TLM mode's default is 200 / 100), the same workload for the three models; the RTL runs clock by clock (rtl/buzzard), sharded with --shard / --jobs like any experiment.`,
    `Verdicts: RTL ${verdicts('rtl')}; calibrated TLM ${verdicts('calibrated')}; seed-level TLM ${verdicts('seedLevel')} (rules as in TLM mode, ±${TOLERANCE * 100} pp).`,
    ...(q.rtlReuse !== undefined ? [reuseNote(q.rtlReuse, results)] : []),
    `Points the RTL cannot build (the RTL report uses the calibrated TLM's value there): ${missing.length ? [...new Set(missing.map(([p, r]) => `${pointLabel(p)} (${r.rtlWhyNot})`))].join('; ') : 'none'}.`,
    ...sub.flatMap(({ m, rep }) => rep.notes.map((n) => `[${RTL_MODEL_LABEL[m]}] ${n}`)),
  ];
  const cmp = points.map((p, k) => [p, results[k]!] as const).filter(([, r]) => r.rtl !== null);
  const worst = (f: 'meanFirst' | 'meanLast'): string => {
    let b = 0;
    let at = '';
    for (const [p, r] of cmp) {
      const x = Math.abs((r.calibrated[f] ?? NaN) / (r.rtl![f] ?? NaN) - 1);
      if (Number.isFinite(x) && x > b) [b, at] = [x, pointLabel(p)];
    }
    return at ? `${pct(b, 1)} at ${at}` : 'n/a';
  };
  notes.splice(2, 0, `Calibrated TLM vs RTL over the ${cmp.length} RTL points: largest |difference| of mean first ${worst('meanFirst')}, of mean last ${worst('meanLast')}; RTL stable at ${cmp.filter(([, r]) => r.rtl!.stable).length} of ${cmp.length}.`);
  return {
    tables,
    checks,
    plots,
    notes,
    data: {
      model: 'rtl',
      messagesPerNode: q.messagesPerNode,
      rtlReused: results.filter((r) => r.rtlReused).length,
      ...(q.rtlReuse !== undefined ? { rtlStale: results.filter((r) => r.rtlStaleVersion !== undefined).length } : {}),
      rtlVersion: RTL_TIMING_VERSION,
      rtlMissing: missing.map(([p, r]) => ({ point: pointLabel(p), why: r.rtlWhyNot })),
      ...Object.fromEntries(sub.map(({ m, rep }) => [m, rep.data ?? null])),
      meanFirstTicks: Object.fromEntries(RTL_MODELS.map((m) => [m, results.map((r) => (m === 'rtl' ? (r.rtl?.meanFirst ?? null) : r[m].meanFirst))])),
      meanLastTicks: Object.fromEntries(RTL_MODELS.map((m) => [m, results.map((r) => (m === 'rtl' ? (r.rtl?.meanLast ?? null) : r[m].meanLast))])),
      idealU: results.map((r) => r.seedLevel.idealU),
    },
  };
}
