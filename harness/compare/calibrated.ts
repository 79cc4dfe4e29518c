/**
 * `icemu compare calibrated-light | calibrated-moderate | calibrated-heavy`:
 * the RTL against the TLM in RTL-calibrated mode (harness/tlm/calibrated.ts:
 * the RTL's packetisation, framing, per-hop and arbitration timing,
 * control-unit constants, one node input port, fair PBU output order), on
 * the chapter-5 workload on a 6-cube (quasi-adaptive routing, 512-byte mean
 * messages) at a light, a moderate and a heavy but stable rate. Both sides
 * are in cycles; the declared tolerance is on the means: mean first-packet
 * and mean last-byte time within 2% of the RTL's. Unlike the seed-level
 * presets (presets.ts ch5-*), agreement here is the claim that the TLM can
 * stand in for the RTL on sweeps too large for the RTL.
 */
import { runTlmCalibrated } from '../tlm/calibrated.ts';
import { TLM_RTL_CALIBRATED } from '../tlm/config.ts';
import { buzzardCh5Workload } from '../workloads/buzzard.ts';
import { describeWorkload } from '../workloads/types.ts';
import { rtlClosedFormTrace } from './analytic.ts';
import type { SideTrace } from './extract.ts';
import { compareTraces, type MetricName } from './join.ts';
import { DEFAULT_MAPPING } from './mapping.ts';
import { rtlSide, type Explanation, type Preset } from './presets.ts';
import { runRtlWorkload } from './rtl_run.ts';
import { checkTolerances, type Tolerance } from './tolerance.ts';

const CPT = DEFAULT_MAPPING.cyclesPerTick;

/** Mean first / last within ±2% of the RTL's (the bound), every message delivered, hops and acceptance exact in the median. */
export const CALIBRATED_TOLERANCES: readonly Tolerance[] = Object.freeze([
  { metric: 'missing', max: 0, why: 'both sides deliver every message' },
  { metric: 'first', of: 'means', min: -0.02, max: 0.02, why: 'calibrated mode: mean first-packet time within 2% of the RTL (ARCHITECTURE.md "The TLM, calibrated and seed-level")' },
  { metric: 'last', of: 'means', min: -0.02, max: 0.02, why: 'calibrated mode: mean last-byte time within 2% of the RTL' },
  { metric: 'per-hop', stat: 'p50', min: 0, max: 0, why: 'both sides 31 cycles per uncontended hop (TLM: forwardStart 29 + arbitration 2)' },
  { metric: 'queued', stat: 'p50', min: 0, max: 0, why: 'both sides accept the send 11 cycles after it is issued (TLM queuedTicks, measured on the RTL)' },
]);

interface CalSpec {
  readonly name: string;
  readonly summary: string;
  readonly meanGapTicks: number;
  readonly durationTicks: number;
  readonly quickDurationTicks: number;
}

function calibratedPreset(spec: CalSpec): Preset {
  return {
    name: spec.name,
    summary: spec.summary,
    tolerances: CALIBRATED_TOLERANCES,
    run(o = {}) {
      const t0 = performance.now();
      const seed = o.seed ?? 1;
      const quick = Boolean(o.quick);
      const n = 6;
      const w = buzzardCh5Workload({ cubeDegree: n, meanBytes: 512, meanGapTicks: spec.meanGapTicks, durationTicks: quick ? spec.quickDurationTicks : spec.durationTicks, seed });
      const genEnd = w.messages.length ? w.messages.at(-1)!.t * CPT : 0;
      const rtl = runRtlWorkload(w, { cyclesPerTick: CPT, maxCycles: Math.ceil(genEnd) + 4_000_000, quiet: o.quiet, label: `${spec.name} rtl` });
      const tt = performance.now();
      const tlm = runTlmCalibrated(w, 'quasi-adaptive', {}, CPT);
      const tlmSecs = (performance.now() - tt) / 1000;
      const cf = rtlClosedFormTrace(w, { cyclesPerTick: CPT });
      const a = rtlSide(rtl, cf.zeroLoad);
      const b: SideTrace = {
        label: 'tlm calibrated',
        unit: 'cycles',
        events: tlm.events!,
        generation: cf.generation,
        zeroLoad: cf.zeroLoad,
        linkBusy: tlm.linkBusy.reduce((x, y) => x + y, 0),
        info: { wallSeconds: tlmSecs, config: tlm.config, stats: { ...tlm.stats, deadlock: tlm.stats.deadlock ? { undeliveredMessages: tlm.stats.deadlock.undeliveredMessages } : null } },
      };
      const comparison = compareTraces(a, b, { workload: w, unit: 'cycles', mapping: DEFAULT_MAPPING });
      const check = checkTolerances(comparison, CALIBRATED_TOLERANCES);
      const get = (k: MetricName) => comparison.metrics.find((m) => m.metric === k);
      const meansRow = (k: MetricName, text: string): Explanation => {
        const m = get(k);
        return { metric: k, stat: 'means', expected: 0, measured: m && m.joined ? (m.b.mean - m.a.mean) / m.a.mean : null, unit: 'rel', text: `${text}: RTL mean ${m?.a.mean.toFixed(1)} cycles, TLM ${m?.b.mean.toFixed(1)} cycles` };
      };
      const explanations: Explanation[] = [
        meansRow('first', 'first-packet time (the RTL first packet: 22 data bytes after the 6-byte prefix, on both sides)'),
        meansRow('last', 'last-byte time'),
        meansRow('first-wait', 'contention in the first-packet time (beyond the shared zero-load closed form)'),
        meansRow('last-wait', 'contention in the last-byte time'),
      ];
      const notes = [
        `A = RTL (rtl/buzzard, clock by clock), B = TLM in RTL-calibrated mode (harness/tlm/calibrated.ts; ${JSON.stringify({ ...TLM_RTL_CALIBRATED, recordEvents: undefined, maxEvents: undefined })}); both in cycles, sends at round(t · ${CPT}).`,
        'Not modelled by the calibrated TLM: the node input port FIFO (16 words) blocking the last PBU while the control unit drains it (1–2-cycle longer packet spacings on ~3% of back-to-back packets); of the control unit\'s single engine only the receive delay (sendRxDelayTicks) is modelled, not two sends generated in the same cycle at one node nor slot refills competing with a send (docs/buzzard-ch5.md#rtl-calibrated-tlm).',
      ];
      return {
        result: { preset: spec.name, title: `RTL vs TLM (RTL-calibrated) quasi-adaptive, 6-cube, chapter-5 workload every ${spec.meanGapTicks} ticks`, quick, seed, workload: describeWorkload(w), mapping: DEFAULT_MAPPING, comparison, tolerances: CALIBRATED_TOLERANCES, check, explanations, notes, wallSeconds: (performance.now() - t0) / 1000 },
        workload: w,
        sides: { a, b },
        traces: { a: { header: rtl.header, events: rtl.events }, b: { header: tlm.header, events: tlm.events! } },
      };
    },
  };
}

export const CALIBRATED_PRESETS: readonly Preset[] = Object.freeze([
  calibratedPreset({ name: 'calibrated-light', summary: 'RTL vs RTL-calibrated TLM, 6-cube, 512 B every 9216 ticks (light)', meanGapTicks: 9216, durationTicks: 100_000, quickDurationTicks: 20_000 }),
  calibratedPreset({ name: 'calibrated-moderate', summary: 'RTL vs RTL-calibrated TLM, 6-cube, 512 B every 5120 ticks (moderate)', meanGapTicks: 5120, durationTicks: 60_000, quickDurationTicks: 12_000 }),
  calibratedPreset({ name: 'calibrated-heavy', summary: 'RTL vs RTL-calibrated TLM, 6-cube, 512 B every 2560 ticks (heavy, below saturation)', meanGapTicks: 2560, durationTicks: 40_000, quickDurationTicks: 8_000 }),
]);
