/**
 * harness/compare on hand-made traces: the per-message join, every metric's
 * value on each side, the unit mapping (ticks → cycles at 4.5), the
 * deviation statistics (mean, nearest-rank percentiles, extremes, relative),
 * missing messages and bookkeeping problems; and, with fast-check, that a
 * constant shift of one side's delivery times shows up as exactly that
 * deviation in the time-from-generation metrics and nowhere else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareTraces, type MetricComparison, type Comparison } from '../../harness/compare/join.ts';
import { convertTime, checkMapping, DEFAULT_MAPPING, unitFactor } from '../../harness/compare/mapping.ts';
import { percentileSorted, summarize } from '../../harness/compare/stats.ts';
import { digest, type SideTrace } from '../../harness/compare/extract.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';

type Ev = Omit<TraceEvent, 'node'> & { node?: number };
const ev = (xs: Ev[]): TraceEvent[] => xs.map((e) => ({ node: 0, ...e }));

/**
 * Two messages. A in cycles, B in ticks (1 tick = 4.5 cycles).
 * Message 0 (generated at 0, two hops, one packet):
 *   A: queued 11, injected 23, heads 23 (pbu1), 54 (pbu2), 85 (nip), first = last = 400
 *   B: queued 0, injected 4, heads 12, 24, 36 (nip), first = last = 100 ticks (450 cycles)
 * Message 1 (generated at 450 cycles = 100 ticks, one hop, two packets on A, one on B):
 *   A: injected 473 / 774, nip 504 / 805, first 750, last 1450
 *   B: injected 104, nip 116, first 180, last 300 ticks
 */
function handMade(): { a: SideTrace; b: SideTrace } {
  const a = ev([
    { t: 11, kind: 'message-queued', msg: 0 },
    { t: 23, kind: 'packet-injected', msg: 0, packet: 0, unit: 'nop', port: 1 },
    { t: 23, kind: 'head-arrives', msg: 0, packet: 0, unit: 'pbu1', port: 1 },
    { t: 54, kind: 'head-arrives', msg: 0, packet: 0, unit: 'pbu2', port: 2 },
    { t: 85, kind: 'head-arrives', msg: 0, packet: 0, unit: 'nip', port: 0 },
    { t: 400, kind: 'first-packet-delivered', msg: 0, packet: 0 },
    { t: 400, kind: 'message-complete', msg: 0, packet: 0 },
    { t: 461, kind: 'message-queued', msg: 1 },
    { t: 473, kind: 'packet-injected', msg: 1, packet: 0 },
    { t: 473, kind: 'head-arrives', msg: 1, packet: 0, unit: 'pbu1' },
    { t: 504, kind: 'head-arrives', msg: 1, packet: 0, unit: 'nip' },
    { t: 774, kind: 'packet-injected', msg: 1, packet: 1 },
    { t: 774, kind: 'head-arrives', msg: 1, packet: 1, unit: 'pbu1' },
    { t: 805, kind: 'head-arrives', msg: 1, packet: 1, unit: 'nip' },
    { t: 750, kind: 'first-packet-delivered', msg: 1, packet: 0 },
    { t: 1450, kind: 'message-complete', msg: 1, packet: 1 },
  ]);
  const b = ev([
    { t: 0, kind: 'message-queued', msg: 0 },
    { t: 4, kind: 'packet-injected', msg: 0, packet: 0 },
    { t: 12, kind: 'head-arrives', msg: 0, packet: 0, unit: 'pbu1' },
    { t: 24, kind: 'head-arrives', msg: 0, packet: 0, unit: 'pbu2' },
    { t: 36, kind: 'head-arrives', msg: 0, packet: 0, unit: 'nip' },
    { t: 100, kind: 'first-packet-delivered', msg: 0, packet: 0 },
    { t: 100, kind: 'message-complete', msg: 0, packet: 0 },
    { t: 100, kind: 'message-queued', msg: 1 },
    { t: 104, kind: 'packet-injected', msg: 1, packet: 0 },
    { t: 112, kind: 'head-arrives', msg: 1, packet: 0, unit: 'pbu1' },
    { t: 116, kind: 'head-arrives', msg: 1, packet: 0, unit: 'nip' },
    { t: 180, kind: 'first-packet-delivered', msg: 1, packet: 0 },
    { t: 300, kind: 'message-complete', msg: 1, packet: 0 },
  ]);
  return {
    a: { label: 'A', unit: 'cycles', events: a, generation: new Map([[0, 0], [1, 450]]) },
    b: { label: 'B', unit: 'ticks', events: b, generation: new Map([[0, 0], [1, 100]]) },
  };
}

const metric = (c: Comparison, name: string): MetricComparison => {
  const m = c.metrics.find((x) => x.metric === name);
  if (!m) throw new Error(`no metric ${name}`);
  return m;
};

describe('statistics', () => {
  it('nearest-rank percentiles are sample values', () => {
    const s = Float64Array.from([5, 1, 4, 2, 3]).sort();
    expect([0.2, 0.5, 0.9, 0.99, 1].map((p) => percentileSorted(s, p))).toEqual([1, 3, 5, 5, 5]);
    expect(percentileSorted(Float64Array.from([7, 9]), 0.5)).toBe(7);
    expect(Number.isNaN(percentileSorted([], 0.5))).toBe(true);
    expect(() => percentileSorted(s, 0)).toThrow(/outside \(0, 1\]/);
  });

  it('summarize: mean, percentiles, extremes, |x| statistics; empty and non-finite input', () => {
    const s = summarize([-3, 1, 2, 10]);
    expect(s).toEqual({ count: 4, mean: 2.5, p50: 1, p90: 10, p99: 10, min: -3, max: 10, absMean: 4, absMax: 10 });
    expect(summarize([]).count).toBe(0);
    expect(Number.isNaN(summarize([]).mean)).toBe(true);
    expect(() => summarize([1, NaN])).toThrow(/non-finite/);
  });
});

describe('time mapping', () => {
  it('ticks ↔ cycles at the A1 default of 4.5; µs at the clock; identity', () => {
    expect(DEFAULT_MAPPING.cyclesPerTick).toBe(4.5);
    expect(convertTime(100, 'ticks', 'cycles', DEFAULT_MAPPING)).toBe(450);
    expect(convertTime(450, 'cycles', 'ticks', DEFAULT_MAPPING)).toBe(100);
    expect(convertTime(7, 'cycles', 'us', DEFAULT_MAPPING)).toBe(1); // 7 MHz
    expect(convertTime(2, 'us', 'ticks', { cyclesPerTick: 4, clockMHz: 10, note: '' })).toBe(5);
    expect(unitFactor('cycles', 'cycles', DEFAULT_MAPPING)).toBe(1);
    const other = { cyclesPerTick: 4, note: 'A1 without sync bits' };
    expect(convertTime(100, 'ticks', 'cycles', other)).toBe(400);
  });

  it('bad mappings are refused with the field named', () => {
    expect(() => checkMapping({ cyclesPerTick: 0, note: '' })).toThrow(/mapping\.cyclesPerTick: 0/);
    expect(() => checkMapping({ cyclesPerTick: 4.5, clockMHz: -1, note: '' })).toThrow(/mapping\.clockMHz/);
    expect(() => convertTime(1, 'us', 'cycles', { cyclesPerTick: 4.5, note: '' })).toThrow(/clockMHz: needed/);
  });
});

describe('join of two hand-made traces (A cycles, B ticks → cycles)', () => {
  const { a, b } = handMade();
  const c = compareTraces(a, b, { unit: 'cycles' });

  it('message-level metrics per side and their deviations', () => {
    const first = metric(c, 'first');
    expect(first.joined).toBe(2);
    // A: 400, 300; B: 450, 360 → deviations 50, 60
    expect(first.a).toMatchObject({ mean: 350, min: 300, max: 400 });
    expect(first.b).toMatchObject({ mean: 405, min: 360, max: 450 });
    expect(first.abs).toMatchObject({ count: 2, mean: 55, p50: 50, p90: 60, p99: 60, max: 60, min: 50 });
    expect(first.rel.count).toBe(2);
    expect(first.rel.mean).toBeCloseTo((50 / 400 + 60 / 300) / 2, 12);
    expect(first.worst).toMatchObject({ key: { msg: 1 }, where: 'message 1', a: 300, b: 360, deviation: 60 });
    // last: A 400, 1000; B 450, 900 → 50, −100
    expect(metric(c, 'last').abs).toMatchObject({ mean: -25, min: -100, max: 50, absMax: 100, absMean: 75 });
    expect(metric(c, 'last').worst?.where).toBe('message 1');
    // last − first: A 0, 700; B 0, 540
    expect(metric(c, 'last-first').abs).toMatchObject({ min: -160, max: 0 });
    // queued: A 11, 11; B 0, 0
    expect(metric(c, 'queued').abs).toMatchObject({ mean: -11, absMax: 11 });
  });

  it('packet- and hop-level metrics join packet k with packet k; extra packets are counted, not errors', () => {
    const inj = metric(c, 'inject');
    // packet 0 of both messages: A 23, 23; B 18, 18 cycles
    expect(inj).toMatchObject({ joined: 2, onlyA: 1, onlyB: 0 });
    expect(inj.abs).toMatchObject({ min: -5, max: -5 });
    const fab = metric(c, 'fabric');
    // A: 62, 31 (and 31 for packet 1 of message 1, unmatched); B: (36 − 4)·4.5 = 144, (116 − 104)·4.5 = 54
    expect(fab).toMatchObject({ joined: 2, onlyA: 1 });
    expect(fab.a).toMatchObject({ min: 31, max: 62 });
    expect(fab.b).toMatchObject({ min: 54, max: 144 });
    const hop = metric(c, 'per-hop');
    // message 0: hops 31, 31 (A) vs 54, 54 (B); message 1: 31 vs (116 − 112)·4.5 = 18
    expect(hop).toMatchObject({ joined: 3, onlyA: 1 });
    expect(hop.abs).toMatchObject({ min: -13, max: 23, p50: 23 });
    expect(hop.worst?.where).toBe('message 0 packet 0 hop 1');
  });

  it('side summaries: completion, makespan in the common unit, packets, per-hop over all packets', () => {
    expect(c.a).toMatchObject({ label: 'A', unit: 'cycles', messagesSeen: 2, messagesComplete: 2, makespan: 1450, packets: 3, meanPerHopAllPackets: 31 });
    expect(c.b).toMatchObject({ label: 'B', unit: 'ticks', messagesComplete: 2, makespan: 1350, packets: 2 });
    expect(c.b.meanPerHopAllPackets).toBeCloseTo((54 + 54 + 18) / 3, 12);
    expect(c.missing).toEqual({ onlyA: [], onlyB: [] });
    expect(c.rows).toEqual([
      { msg: 0, firstA: 400, firstB: 450, lastA: 400, lastB: 450 },
      { msg: 1, firstA: 300, firstB: 360, lastA: 1000, lastB: 900 },
    ]);
  });

  it('the comparison can be made in ticks instead (same deviations divided by 4.5)', () => {
    const t = compareTraces(a, b, { unit: 'ticks' });
    expect(metric(t, 'first').abs.mean).toBeCloseTo(55 / 4.5, 12);
    expect(metric(t, 'per-hop').abs.p50).toBeCloseTo(23 / 4.5, 12);
  });

  it('without generation times the message-queued stamp is the reference', () => {
    const t = compareTraces({ ...a, generation: undefined }, { ...b, generation: undefined }, { unit: 'cycles' });
    expect(metric(t, 'queued').abs.absMax).toBe(0);
    // A first from queued: 389, 289; B: 450, 360
    expect(metric(t, 'first').a).toMatchObject({ min: 289, max: 389 });
  });

  it('a message complete on one side only is missing; a repeated delivery is a problem', () => {
    const bb: SideTrace = { ...b, events: [...b.events.filter((e) => !(e.msg === 1 && e.kind === 'message-complete')), { t: 120, kind: 'message-complete', msg: 0, node: 0 }] };
    const t = compareTraces(a, bb, { unit: 'cycles' });
    expect(t.missing).toEqual({ onlyA: [1], onlyB: [] });
    expect(metric(t, 'last').joined).toBe(1);
    expect(t.b.problems).toHaveLength(1);
    expect(t.b.problems[0]).toMatch(/message 0: a second message-complete at t = 120/);
    expect(digest(bb).messages.get(0)!.last).toBe(100); // the first stamp is kept
  });

  it('unknown metric names are refused', () => {
    expect(() => compareTraces(a, b, { metrics: ['first', 'latency' as 'first'] })).toThrow(/compare\.metrics: 'latency'/);
  });
});

describe('property: a constant shift of one side is reported as exactly that shift', () => {
  /** A random trace in cycles: messages with packets along d hops, 31 cycles per hop, all times multiples of 9 (exact in ticks). */
  const traceArb = fc.array(fc.record({ gen: fc.nat(1000), d: fc.integer({ min: 1, max: 6 }), packets: fc.integer({ min: 1, max: 4 }), wait: fc.nat(50), tail: fc.integer({ min: 1, max: 40 }) }), { minLength: 1, maxLength: 12 });
  const build = (ms: { gen: number; d: number; packets: number; wait: number; tail: number }[], shift: number, scale: number): { events: TraceEvent[]; gen: Map<number, number> } => {
    const events: TraceEvent[] = [];
    const gen = new Map<number, number>();
    ms.forEach((m, id) => {
      const g = 9 * m.gen;
      gen.set(id, g / scale);
      const at = (t: number, s = 0): number => (t + s) / scale;
      events.push({ t: at(g + 99), kind: 'message-queued', msg: id, node: 0 });
      for (let k = 0; k < m.packets; k++) {
        const inj = g + 9 * (m.wait + 40 * k);
        events.push({ t: at(inj, shift), kind: 'packet-injected', msg: id, node: 0, packet: k });
        for (let h = 0; h < m.d; h++) events.push({ t: at(inj + 63 * h, shift), kind: 'head-arrives', msg: id, node: h, packet: k, unit: `pbu${h + 1}` });
        events.push({ t: at(inj + 63 * m.d, shift), kind: 'head-arrives', msg: id, node: m.d, packet: k, unit: 'nip' });
      }
      const last = g + 9 * (m.wait + 40 * m.packets + 7 * m.d + m.tail);
      events.push({ t: at(g + 9 * (m.wait + 40 + 7 * m.d), shift), kind: 'first-packet-delivered', msg: id, node: m.d, packet: 0 });
      events.push({ t: at(last, shift), kind: 'message-complete', msg: id, node: m.d, packet: m.packets - 1 });
    });
    return { events, gen };
  };

  it('B = A shifted by c (delivery, injection and heads), B in ticks: first/last/inject deviate by exactly c, the rest by 0', () => {
    fc.assert(
      fc.property(traceArb, fc.integer({ min: -20, max: 20 }).map((k) => 9 * k), (ms, c) => {
        const A = build(ms, 0, 1);
        const B = build(ms, c, 4.5);
        const r = compareTraces({ label: 'a', unit: 'cycles', events: A.events, generation: A.gen }, { label: 'b', unit: 'ticks', events: B.events, generation: B.gen }, { unit: 'cycles' });
        for (const name of ['first', 'last', 'inject']) {
          const m = metric(r, name);
          expect(m.onlyA + m.onlyB).toBe(0);
          expect([m.abs.min, m.abs.max, m.abs.p50]).toEqual([c, c, c]);
        }
        for (const name of ['queued', 'fabric', 'per-hop', 'last-first']) expect(metric(r, name).abs.absMax, name).toBe(0);
        expect(r.missing).toEqual({ onlyA: [], onlyB: [] });
      }),
      { numRuns: 60, seed: 424242 },
    );
  });
});
