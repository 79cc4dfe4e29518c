/**
 * Tolerance checks, including the negative controls: a known discrepancy
 * injected into one side (one message's delivery shifted, a message
 * dropped, a whole side shifted) fails the declared tolerance, and the
 * report names the metric, the statistic, the value and the offending
 * message. Identical traces pass every exact tolerance.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareTraces } from '../../harness/compare/join.ts';
import { checkTolerances, checkToleranceSpec, describeTolerance, type Tolerance } from '../../harness/compare/tolerance.ts';
import type { SideTrace } from '../../harness/compare/extract.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';

/** N messages, one packet each, d = 1 + id % 3 hops of 31 cycles, cycles. */
function trace(N: number): { events: TraceEvent[]; gen: Map<number, number> } {
  const events: TraceEvent[] = [];
  const gen = new Map<number, number>();
  for (let id = 0; id < N; id++) {
    const g = 1000 * id;
    const d = 1 + (id % 3);
    gen.set(id, g);
    events.push({ t: g + 11, kind: 'message-queued', msg: id, node: 0 });
    events.push({ t: g + 23, kind: 'packet-injected', msg: id, node: 0, packet: 0 });
    for (let h = 0; h < d; h++) events.push({ t: g + 23 + 31 * h, kind: 'head-arrives', msg: id, node: h + 1, packet: 0, unit: `pbu${h + 1}` });
    events.push({ t: g + 23 + 31 * d, kind: 'head-arrives', msg: id, node: d, packet: 0, unit: 'nip' });
    events.push({ t: g + 23 + 31 * d + 301, kind: 'first-packet-delivered', msg: id, node: d, packet: 0 });
    events.push({ t: g + 23 + 31 * d + 301, kind: 'message-complete', msg: id, node: d, packet: 0 });
  }
  return { events, gen };
}

const EXACT: Tolerance[] = ['queued', 'inject', 'fabric', 'per-hop', 'first', 'last', 'last-first'].map((metric) => ({ metric: metric as Tolerance['metric'], stat: 'absMax', min: 0, max: 0, why: 'exact' }));
const ALL: Tolerance[] = [{ metric: 'missing', max: 0, why: 'all delivered' }, ...EXACT];

const side = (label: string, t: { events: TraceEvent[]; gen: Map<number, number> }): SideTrace => ({ label, unit: 'cycles', events: t.events, generation: t.gen });

describe('tolerance check', () => {
  it('identical traces pass every exact tolerance', () => {
    const t = trace(20);
    const r = checkTolerances(compareTraces(side('rtl', t), side('model', trace(20))), ALL);
    expect(r.pass).toBe(true);
    expect(r.failures).toEqual([]);
    expect(r.checks.map((c) => c.message)).toContain('last absolute absMax = 0: 0 cycles');
  });

  it('negative control: one message delivered 7 cycles late fails first and last, naming the message; the fabric still passes', () => {
    const a = trace(20);
    const b = trace(20);
    b.events = b.events.map((e) => (e.msg === 13 && (e.kind === 'first-packet-delivered' || e.kind === 'message-complete') ? { ...e, t: e.t + 7 } : e));
    const r = checkTolerances(compareTraces(side('rtl', a), side('model', b)), ALL);
    expect(r.pass).toBe(false);
    expect(r.failures.map((f) => f.tolerance.metric)).toEqual(['first', 'last']);
    for (const f of r.failures) {
      expect(f.value).toBe(7);
      expect(f.worst).toMatchObject({ key: { msg: 13 }, deviation: 7 });
      expect(f.message).toMatch(/absolute absMax deviation 7 cycles is outside the tolerance .* worst: message 13 \(rtl \d+, model \d+, deviation 7 cycles\)/);
    }
    expect(r.checks.find((c) => c.tolerance.metric === 'fabric')!.pass).toBe(true);
  });

  it('negative control: a dropped message fails "missing" and names it', () => {
    const a = trace(12);
    const b = trace(12);
    b.events = b.events.filter((e) => e.msg !== 5);
    const r = checkTolerances(compareTraces(side('rtl', a), side('model', b)), ALL);
    expect(r.pass).toBe(false);
    const miss = r.failures.find((f) => f.tolerance.metric === 'missing')!;
    expect(miss.value).toBe(1);
    expect(miss.messages).toEqual([5]);
    expect(miss.message).toBe('missing: 1 message(s) complete on one side only (tolerance missing messages <= 0); complete in rtl only: message 5');
    // the other metrics still join the remaining 11 messages exactly
    expect(r.failures).toHaveLength(1);
  });

  it('negative control: a head-arrives one cycle late at one hop fails per-hop and fabric at that packet and hop', () => {
    const a = trace(9);
    const b = trace(9);
    let done = false;
    b.events = b.events.map((e) => {
      if (!done && e.msg === 8 && e.kind === 'head-arrives' && e.unit === 'nip') {
        done = true;
        return { ...e, t: e.t + 1 };
      }
      return e;
    });
    const r = checkTolerances(compareTraces(side('rtl', a), side('model', b)), EXACT);
    expect(r.failures.map((f) => f.tolerance.metric)).toEqual(['fabric', 'per-hop']);
    expect(r.failures[0]!.worst?.where).toBe('message 8 packet 0');
    expect(r.failures[1]!.worst?.where).toBe('message 8 packet 0 hop 3');
  });

  it('range tolerances on relative statistics; a metric with no samples fails', () => {
    const a = trace(10);
    const b = trace(10);
    b.events = b.events.map((e) => (e.kind === 'message-complete' || e.kind === 'first-packet-delivered' ? { ...e, t: e.t + 50 } : e));
    const c = compareTraces(side('rtl', a), side('model', b));
    const ok = checkTolerances(c, [{ metric: 'last', stat: 'p50', of: 'rel', min: 0.1, max: 0.2, why: 'x' }]);
    expect(ok.pass).toBe(true); // 50 / 355…417 = 12…14%
    const bad = checkTolerances(c, [{ metric: 'last', stat: 'p50', of: 'rel', min: -0.05, max: 0.05, why: 'x' }]);
    expect(bad.pass).toBe(false);
    expect(bad.failures[0]!.message).toMatch(/^last: relative p50 deviation 0\.1\d+ is outside the tolerance \(last relative p50 in \[-0\.0500, 0\.0500\]\) over 10 samples/);
    const none = checkTolerances(compareTraces(side('rtl', a), side('model', b), { metrics: ['first'] }), [{ metric: 'last', max: 0, why: 'x' }]);
    expect(none.failures[0]!.message).toMatch(/last: no joined samples/);
  });

  it('property: shifting every delivery of B by c ≠ 0 fails exactly first and last, by |c|', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 30 }), fc.integer({ min: -500, max: 500 }).filter((c) => c !== 0), (N, c) => {
        const a = trace(N);
        const b = trace(N);
        b.events = b.events.map((e) => (e.kind === 'message-complete' || e.kind === 'first-packet-delivered' ? { ...e, t: e.t + c } : e));
        const r = checkTolerances(compareTraces(side('rtl', a), side('model', b)), ALL);
        expect(r.failures.map((f) => [f.tolerance.metric, f.value])).toEqual([
          ['first', Math.abs(c)],
          ['last', Math.abs(c)],
        ]);
      }),
      { numRuns: 40, seed: 7 },
    );
  });

  it('bad tolerance declarations are refused with the entry and field named', () => {
    expect(() => checkToleranceSpec([{ metric: 'latency' as 'first', max: 0, why: '' }])).toThrow(/tolerances\[0\]\.metric: 'latency'/);
    expect(() => checkToleranceSpec([{ metric: 'first', stat: 'p95' as 'p90', max: 0, why: '' }])).toThrow(/tolerances\[0\]\.stat/);
    expect(() => checkToleranceSpec([{ metric: 'first', why: '' }])).toThrow(/give min, max or both/);
    expect(() => checkToleranceSpec([{ metric: 'first', min: 2, max: 1, why: '' }])).toThrow(/min 2 > max 1/);
    expect(describeTolerance({ metric: 'first', stat: 'mean', of: 'rel', min: -0.1, max: 0.1, why: '' })).toBe('first relative mean in [-0.100, 0.100]');
  });
});
