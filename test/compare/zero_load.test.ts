/**
 * Zero load: the RTL against its closed form (harness/compare/analytic.ts).
 * The 'zero-load' preset passes with every metric exact (0 cycles), the
 * fabric part is 31·d with no calibration, the closed form agrees with
 * harness/models/buzzard.ts and with the TLM's own zero-load behaviour, the
 * measured 1–2-byte exception stays in its measured range, and a wrong
 * calibration constant is caught and named (negative control on real RTL
 * traces).
 */
import { describe, expect, it } from 'vitest';
import { rtlClosedFormTrace, rtlZeroLoad, RTL_MEASURED, tlmZeroLoad } from '../../harness/compare/analytic.ts';
import { compareTraces } from '../../harness/compare/join.ts';
import { findPreset, ZERO_LOAD_LENGTHS_QUICK } from '../../harness/compare/presets.ts';
import { runRtlWorkload } from '../../harness/compare/rtl_run.ts';
import { checkTolerances } from '../../harness/compare/tolerance.ts';
import { zeroLoadWorkload } from '../../harness/compare/zero_load_workload.ts';
import { zeroLoadLatency } from '../../harness/models/buzzard.ts';
import { runTlm, type Transport } from '../../harness/tlm/index.ts';
import { finalizeMessages } from '../../harness/workloads/index.ts';

describe('RTL zero-load closed form', () => {
  it('is harness/models/buzzard.ts zeroLoadLatency with the measured control-unit terms, 31 cycles per hop in the fabric', () => {
    for (const bytes of [3, 22, 23, 100, 512]) {
      for (let d = 1; d <= 6; d++) {
        const z = rtlZeroLoad({ bytes, hops: d });
        const m = zeroLoadLatency({ hops: d, messageBytes: bytes, injectionCycles: RTL_MEASURED.injectionCycles, deliveryCycles: z.deliveryLast });
        expect(z.packets).toBe(Math.ceil((bytes + 6) / 28));
        expect(z.inject[0]).toBe(m.firstPacketStartCycles);
        expect(z.inject[0]).toBe(23);
        expect(z.nip.map((t, k) => t - z.inject[k]!)).toEqual(z.nip.map(() => 31 * d));
        expect(z.first).toBe(m.firstPacketCompleteCycles + z.deliveryFirst);
        expect(z.last).toBe(m.messageCompleteCycles);
        for (let k = 1; k < z.packets; k++) expect(z.inject[k]! - z.inject[k - 1]!).toBe(z.bits[k - 1]! + 2);
      }
    }
    // the delivery store: full word (length ≡ 0 mod 4) vs read-modify-write; the first packet of a longer message ends mid-word (byte 21)
    expect([4, 8, 20].map((b) => rtlZeroLoad({ bytes: b, hops: 1 }).deliveryLast)).toEqual([1, 1, 1]);
    expect([3, 5, 23, 50].map((b) => rtlZeroLoad({ bytes: b, hops: 1 }).deliveryLast)).toEqual([2, 2, 2, 2]);
    expect([1, 2].map((b) => rtlZeroLoad({ bytes: b, hops: 1 }).deliveryLast)).toEqual([4, 4]);
    expect(rtlZeroLoad({ bytes: 100, hops: 2 }).deliveryFirst).toBe(2);
    // by hand: 50 bytes, 3 hops: packets of 299 bits; 23 + 301 + 93 + 299 + 2
    expect(rtlZeroLoad({ bytes: 50, hops: 3 })).toMatchObject({ packets: 2, first: 23 + 93 + 299 + 2, last: 23 + 301 + 93 + 299 + 2 });
  });

  it('the TLM closed form used to split off the systematic part equals the TLM at zero load', () => {
    for (const transport of ['fixed-packet', 'quasi-adaptive', 'wormhole'] as Transport[]) {
      for (const bytes of [1, 31, 32, 33, 100, 512]) {
        for (let d = 1; d <= 4; d++) {
          const w = { name: 't', seed: null, params: {}, unit: 'ticks' as const, cubeDegree: 4, messages: finalizeMessages([{ t: 5, src: 3, dst: 3 ^ ((1 << d) - 1), bytes, kind: 'unicast' }]) };
          const z = tlmZeroLoad({ bytes, hops: d, config: { transport } });
          expect(runTlm(w, { transport, recordEvents: false }).perMessage[0], `${transport} ${bytes} B d=${d}`).toEqual({ first: z.first, last: z.last });
        }
      }
    }
  });
});

describe('zero-load preset: RTL vs closed form', () => {
  it('passes with every metric exactly 0 cycles (quick)', () => {
    const { result, sides, workload: w } = findPreset('zero-load')!.run({ quick: true, quiet: true });
    expect(result.check.failures.map((f) => f.message)).toEqual([]);
    expect(result.check.pass).toBe(true);
    const c = result.comparison;
    expect(c.a.messagesComplete).toBe(ZERO_LOAD_LENGTHS_QUICK.length * 4);
    expect(c.missing).toEqual({ onlyA: [], onlyB: [] });
    for (const m of c.metrics) {
      expect(m.joined, m.metric).toBeGreaterThan(0);
      expect(m.onlyA + m.onlyB, m.metric).toBe(0);
      expect([m.abs.min, m.abs.max], m.metric).toEqual([0, 0]);
    }
    expect(c.metrics.find((m) => m.metric === 'per-hop')!.a).toMatchObject({ min: 31, max: 31 });
    expect(c.metrics.find((m) => m.metric === 'fabric')!.joined).toBe(c.a.packets);
    expect(sides.a.info?.anomalies).toBe(0);

    // Negative control on the real RTL trace: a closed form with one cycle more of injection is off by exactly one
    // cycle in inject, first and last (message 0 named), while the fabric and per-hop parts still match exactly.
    const wrong = rtlClosedFormTrace(w, { measured: { injectionCycles: RTL_MEASURED.injectionCycles + 1 } });
    const c2 = compareTraces(sides.a, { label: 'closed form', unit: 'cycles', events: wrong.events, generation: wrong.generation }, { workload: w });
    const r2 = checkTolerances(c2, result.tolerances);
    expect(r2.failures.map((f) => f.tolerance.metric)).toEqual(['inject', 'first', 'last']);
    for (const f of r2.failures) {
      expect(f.value).toBe(1);
      expect(f.message).toMatch(/worst: message 0/);
    }

    // Negative control just outside the exact fabric and per-hop tolerances: the closed form's head reaching the
    // node input port 1 cycle late (one packet) or 1 cycle early (another) fails both, by exactly 1 cycle.
    const nipHeads = sides.b.events.filter((e) => e.kind === 'head-arrives' && e.unit === 'nip');
    expect(nipHeads.length).toBeGreaterThan(2);
    for (const [victim, dt] of [[nipHeads[1]!, 1], [nipHeads.at(-1)!, -1]] as const) {
      const shifted = sides.b.events.map((e) => (e === victim ? { ...e, t: e.t + dt } : e));
      const c3 = compareTraces(sides.a, { ...sides.b, events: shifted }, { workload: w, unit: 'cycles', metrics: ['fabric', 'per-hop'] });
      const r3 = checkTolerances(c3, result.tolerances.filter((t) => t.metric === 'fabric' || t.metric === 'per-hop'));
      expect(r3.failures.map((f) => [f.tolerance.metric, f.value])).toEqual([['fabric', 1], ['per-hop', 1]]);
      expect(r3.failures[0]!.message).toMatch(new RegExp(`worst: message ${victim.msg} packet ${victim.packet}`));
    }
  });

  it('1–2-byte messages: the RTL is 0 or 1 cycle earlier than the closed form (match-bound delivery, measured)', () => {
    const devs: number[] = [];
    for (const seed of [1, 2]) {
      const w = zeroLoadWorkload({ cubeDegree: 3, lengths: [1, 2, 1], seed, cyclesPerTick: 4.5 });
      const rtl = runRtlWorkload(w, { cyclesPerTick: 4.5, maxCycles: 500_000, quiet: true });
      const cf = rtlClosedFormTrace(w);
      const c = compareTraces({ label: 'rtl', unit: 'cycles', events: rtl.events, generation: rtl.generation }, { label: 'cf', unit: 'cycles', events: cf.events, generation: cf.generation }, { workload: w });
      for (const name of ['inject', 'fabric', 'per-hop', 'queued']) expect(c.metrics.find((m) => m.metric === name)!.abs.absMax, name).toBe(0);
      for (const r of c.rows) {
        expect(r.lastB! - r.lastA!).toBe(r.firstB! - r.firstA!);
        devs.push(r.lastB! - r.lastA!);
      }
    }
    expect(devs.length).toBe(18);
    for (const d of devs) expect([0, 1]).toContain(d);
  });
});
