/**
 * RTL vs TLM under a light chapter-5 load (ch5-light --quick: 4-cube, mean
 * 512 B every 9216 ticks, 40 000 ticks of generation, seed 1, ~2 s). The run
 * completes, every deviation is finite, and the systematic differences sit
 * where the closed forms put them. The asserted ranges are the ones measured
 * over seeds 1–8 (quick) with a margin; per-message agreement is NOT
 * asserted: each model starves some packets in a PBU that the other does not
 * (see the preset's last-wait explanation), so single messages can differ by
 * tens of thousands of cycles.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compareTraces, type Comparison, type MetricName } from '../../harness/compare/join.ts';
import { findPreset, type PresetRun } from '../../harness/compare/presets.ts';
import { checkTolerances } from '../../harness/compare/tolerance.ts';
import type { SideTrace } from '../../harness/compare/extract.ts';

const m = (c: Comparison, name: MetricName) => c.metrics.find((x) => x.metric === name)!;

describe('ch5-light --quick: RTL vs TLM quasi-adaptive', () => {
  let run: PresetRun;
  let c: Comparison;
  beforeAll(() => {
    run = findPreset('ch5-light')!.run({ quick: true, seed: 1, quiet: true });
    c = run.result.comparison;
  });

  it('completes on both sides with finite deviations for every metric', () => {
    expect(c.a.messagesComplete).toBe(run.workload.messages.length);
    expect(c.b.messagesComplete).toBe(run.workload.messages.length);
    expect(run.workload.messages.length).toBeGreaterThan(40);
    expect(c.missing).toEqual({ onlyA: [], onlyB: [] });
    expect(c.a.problems).toEqual([]);
    expect(c.b.problems).toEqual([]);
    expect(run.sides.a.info?.anomalies).toBe(0);
    for (const x of c.metrics) {
      expect(x.joined, x.metric).toBeGreaterThan(0);
      for (const s of [x.abs.mean, x.abs.p50, x.abs.p90, x.abs.p99, x.abs.absMax, x.rel.mean]) expect(Number.isFinite(s), x.metric).toBe(true);
    }
    expect(run.result.check.failures.map((f) => f.message)).toEqual([]);
  });

  it('the systematic differences are the closed forms (measured ranges, with margin)', () => {
    // per hop: TLM 12 ticks = 54 cycles vs RTL 31 (measured p50 exactly 23 on every seed)
    expect(m(c, 'per-hop').abs.p50).toBe(23);
    // queued: the RTL accepts the send 11 cycles after issue
    expect(m(c, 'queued').abs.p50).toBe(-11);
    // fabric at zero load: 36 + 23·d; the median 4-cube message has d = 2
    expect(m(c, 'fabric').abs.p50).toBe(82);
    // first: TLM ≈ +16.6 % for the median message (measured 16.6 % on seeds 1–8)
    expect(m(c, 'first').rel.p50).toBeGreaterThan(0.12);
    expect(m(c, 'first').rel.p50).toBeLessThan(0.22);
    // last: TLM ≈ −1.5 % (measured −1.4 … −1.7 %)
    expect(m(c, 'last').rel.p50).toBeGreaterThan(-0.03);
    expect(m(c, 'last').rel.p50).toBeLessThan(0);
    // deviation(first) = deviation(first-zl) + deviation(first-wait), message by message, hence in the mean
    expect(m(c, 'first').abs.mean).toBeCloseTo(m(c, 'first-zl').abs.mean + m(c, 'first-wait').abs.mean, 6);
    expect(m(c, 'last').abs.mean).toBeCloseTo(m(c, 'last-zl').abs.mean + m(c, 'last-wait').abs.mean, 6);
    // contention: the median message waits equally on both sides
    expect(Math.abs(m(c, 'first-wait').abs.p50)).toBeLessThanOrEqual(5);
    expect(Math.abs(m(c, 'last-wait').abs.p50)).toBeLessThanOrEqual(10);
    // link utilisation: closed-form framing ratio (−5.6 %), same for the explanation's expectation
    const lu = run.result.explanations.find((e) => e.metric === 'link-utilisation')!;
    expect(m(c, 'link-utilisation').rel.mean).toBeCloseTo(lu.expected!, 2);
    expect(m(c, 'link-utilisation').rel.mean).toBeGreaterThan(-0.065);
    expect(m(c, 'link-utilisation').rel.mean).toBeLessThan(-0.05);
    // packets: ⌈(M+6)/28⌉ vs ⌈M/32⌉ exactly
    const pk = run.result.explanations.find((e) => e.metric === 'packets')!;
    expect(pk.measured).toBeCloseTo(pk.expected!, 12);
    // the §5.7 ideal utilisation is a property of the workload (light: a few %)
    expect(c.idealLinkUtilisation).toBeGreaterThan(0.03);
    expect(c.idealLinkUtilisation).toBeLessThan(0.1);
  });

  it('negative control: the TLM delivering every message 100 ticks late fails first and last', () => {
    const late: SideTrace = {
      ...run.sides.b,
      events: run.sides.b.events.map((e) => (e.kind === 'first-packet-delivered' || e.kind === 'message-complete' ? { ...e, t: e.t + 100 } : e)),
    };
    const c2 = compareTraces(run.sides.a, late, { workload: run.workload, unit: 'cycles' });
    const r = checkTolerances(c2, run.result.tolerances);
    expect(r.pass).toBe(false);
    const failed = r.failures.map((f) => f.tolerance.metric);
    for (const k of ['first', 'last', 'first-wait', 'last-wait']) expect(failed).toContain(k);
    const first = r.failures.find((f) => f.tolerance.metric === 'first')!;
    expect(first.message).toMatch(/^first: relative p50 deviation 1\.\d+ is outside the tolerance .* worst: message \d+/);
    expect(m(c2, 'first').abs.p50 - m(c, 'first').abs.p50).toBeCloseTo(450, 6);
  });
});
