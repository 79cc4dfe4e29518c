/**
 * The TLM in RTL-calibrated mode (harness/tlm/calibrated.ts): at zero load
 * it reproduces the RTL's zero-load closed form (harness/compare/analytic.ts,
 * exact on the RTL: the 'zero-load' preset) to the cycle, for every message
 * length class (1–2-byte, one-packet, prefix boundary 22/23 bytes, multi-packet,
 * full-word and read-modify-write ends) and 1–6 hops; each calibration
 * constant, moved by one cycle, moves the result by exactly that (negative
 * controls); and the seed-level defaults are untouched.
 */
import { describe, expect, it } from 'vitest';
import { rtlZeroLoad } from '../../harness/compare/analytic.ts';
import { runTlmCalibrated, TLM_CH5_DEFAULTS, TLM_RTL_CALIBRATED, workloadInCycles } from '../../harness/tlm/index.ts';
import { finalizeMessages } from '../../harness/workloads/index.ts';
import type { Workload } from '../../harness/workloads/types.ts';

function one(bytes: number, d: number, n = 6): Workload {
  return { name: 't', seed: null, params: {}, unit: 'ticks', cubeDegree: n, messages: finalizeMessages([{ t: 7, src: 5, dst: 5 ^ ((1 << d) - 1), bytes, kind: 'unicast' }]) };
}

describe('RTL-calibrated TLM at zero load', () => {
  it('equals the RTL zero-load closed form exactly (first and last, cycles from the send)', () => {
    for (const bytes of [1, 2, 3, 4, 5, 21, 22, 23, 24, 50, 51, 100, 512, 1000]) {
      for (let d = 1; d <= 6; d++) {
        const z = rtlZeroLoad({ bytes, hops: d });
        expect(runTlmCalibrated(one(bytes, d), 'quasi-adaptive', { recordEvents: false }).perMessage[0], `${bytes} B, ${d} hops`).toEqual({ first: z.first, last: z.last });
        expect(runTlmCalibrated(one(bytes, d), 'fixed-packet', { recordEvents: false }).perMessage[0]).toEqual({ first: z.first, last: z.last });
      }
    }
  });
  it('negative controls: one cycle more of injection, per hop or framing moves first by exactly 1, d, or 1 cycle', () => {
    const base = runTlmCalibrated(one(100, 3), 'quasi-adaptive', { recordEvents: false }).perMessage[0]!;
    const inj = runTlmCalibrated(one(100, 3), 'quasi-adaptive', { recordEvents: false, injectionTicks: 22 }).perMessage[0]!;
    const hop = runTlmCalibrated(one(100, 3), 'quasi-adaptive', { recordEvents: false, forwardStart: { ticks: 30 } }).perMessage[0]!;
    const fr = runTlmCalibrated(one(100, 3), 'quasi-adaptive', { recordEvents: false, framingTicks: 12 }).perMessage[0]!;
    expect([inj.first - base.first, hop.first - base.first, fr.first - base.first]).toEqual([1, 3, 1]);
    // framing is paid by every packet at the source: ⌈(100 + 6)/28⌉ = 4 packets → last later by 4
    expect(fr.last - base.last).toBe(4);
  });
  it('the message-queued stamp is 11 cycles after the send; generation times are round(t · 4.5)', () => {
    const r = runTlmCalibrated(one(10, 2), 'quasi-adaptive');
    const q = r.events!.find((e) => e.kind === 'message-queued')!;
    expect(q.t).toBe(Math.round(7 * 4.5) + 11);
    expect(workloadInCycles(one(10, 2)).messages[0]!.t).toBe(32);
    expect(r.header.unit).toBe('cycles');
  });
  it('is a separate configuration: the seed-level defaults are unchanged', () => {
    expect(TLM_CH5_DEFAULTS).toMatchObject({ ticksPerByte: 2, arbitrationTicks: 4, packetBytes: 32, framingTicks: 0, wireWordBytes: 1, firstPacketPrefixBytes: 0, injectionTicks: 0, forwardStart: 'header', pbuOutputOrder: 'last-used-first' });
    expect(TLM_RTL_CALIBRATED).toMatchObject({ ticksPerByte: 9, arbitrationTicks: 2, packetBytes: 28, delivery: 'shared-port', pbuOutputOrder: 'rotate' });
  });
});
