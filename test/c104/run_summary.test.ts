/**
 * `icemu c104`'s summary without its events (harness/rtl/c104_run_summary.ts,
 * docs/c104.md#lazy-workload): integer histograms give latencyStats' figures
 * exactly (control: one value in the neighbouring bin), and the running
 * figures of a run equal the ones its full event lists give (controls: one
 * T9000 event, one switch event dropped).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { IntHistogram } from '../../harness/batch/int_histogram.ts';
import { latencyStats, percentile } from '../../harness/batch/stats.ts';
import { listFigures, listWindow, RunningFigures, type ScheduledMessage } from '../../harness/rtl/c104_run_summary.ts';
import { attachC104Events } from '../../harness/rtl/c104_events.ts';
import { buildC104Mesh, C104_START } from '../../bench/c104.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';

const histogramOf = (vs: readonly number[]): IntHistogram => {
  const h = new IntHistogram();
  for (const v of vs) h.add(v);
  return h;
};
const values = fc.array(fc.oneof(fc.nat(50), fc.nat(100_000)), { minLength: 1, maxLength: 300 });

describe('IntHistogram', () => {
  it('gives latencyStats of the sorted list: percentiles, mean, max, bins (property)', () => {
    fc.assert(
      fc.property(values, (vs) => {
        const h = histogramOf(vs);
        expect(h.stats()).toEqual(latencyStats(vs));
        const sorted = [...vs].sort((a, b) => a - b);
        for (const p of [0, 1, 50, 95, 99, 100]) expect(h.percentile(p)).toBe(percentile(sorted, p));
      }),
      { numRuns: 300 },
    );
    expect(new IntHistogram().stats()).toEqual(latencyStats([]));
  });

  it('control: one value counted in the neighbouring bin is seen', () => {
    const r = fc.check(
      fc.property(values, (vs) => {
        const h = histogramOf([...vs.slice(1), vs[0]! + 1]);
        const sorted = [...vs].sort((a, b) => a - b);
        return [50, 95, 99].every((p) => h.percentile(p) === percentile(sorted, p));
      }),
      { numRuns: 300, seed: 1 },
    );
    expect(r.failed).toBe(true);
  });

  it('refuses a value that is not a whole number 0 or more', () => {
    expect(() => new IntHistogram().add(-1)).toThrow(/not a whole number/);
    expect(() => new IntHistogram().add(1.5)).toThrow(/not a whole number/);
  });
});

describe('RunningFigures', { timeout: 180_000 }, () => {
  // 3x3, ±2, a send every 60 cycles per node: past saturation (the warnings fire), sends held
  const until = C104_START + 8000;
  const from = C104_START + 500;
  const sys = buildC104Mesh({ side: 3, window: 2, interval: 60, warmup: 0, cycles: 0, seed: 4 }, until);
  const t9000: [TraceEvent, number, number][] = [];
  sys.rec.onEvent = (e, m) => void t9000.push([e, m.cycle, m.size]);
  let synthetic = 0;
  const switchEvents: TraceEvent[] = [];
  attachC104Events(sys.sim, sys.network.switches, sys.net, () => ({ msg: synthetic++, packet: 0 }), { sink: (e) => void switchEvents.push(e) });
  sys.sim.step(until + 5000);
  const exits = (sw: number, port: number): boolean => sys.net?.peer[sw]![port]?.kind !== 'switch';
  const scheduled: ScheduledMessage[] = sys.driver.messages.map((m) => ({ id: m.id, cycle: m.cycle, bytes: m.size }));
  const bounds = { nodes: 9, cyclesPerLinkByte: 10, from, to: Math.min(until, sys.sim.cycle), runEnd: sys.sim.cycle };
  const running = (dropT9000 = -1, dropSwitch = -1): RunningFigures => {
    const r = new RunningFigures(from, until, exits);
    scheduled.forEach((m) => r.scheduled(m));
    r.pass(sys.sim.cycle - 4000);
    t9000.forEach(([e, c, b], k) => k !== dropT9000 && r.t9000(e, c, b));
    switchEvents.forEach((e, k) => k !== dropSwitch && r.switchEvent(e));
    return r;
  };
  const queued = new Map(sys.driver.messages.map((m) => [m.id, m.cycle]));
  const list = listFigures(sys.rec.events, switchEvents, queued);
  const window = listWindow(scheduled, sys.rec.events, bounds);

  it('equal the figures of the full event lists (means, counts, window, warnings)', () => {
    expect(sys.driver.heldCount).toBeGreaterThan(0);
    expect(list.counts.messages).toBeGreaterThan(100);
    expect(list.counts.hops).toBeGreaterThan(100);
    expect(window.warnings).toHaveLength(2);
    const r = running();
    expect(r.figures()).toEqual(list);
    expect(r.window(bounds)).toEqual(window);
  });

  it.each(['message-complete', 'first-packet-delivered'])('control: one %s event dropped changes them', (kind) => {
    const k = t9000.findIndex(([e, c]) => e.kind === kind && c >= from && e.t > until - 2000);
    expect(k).toBeGreaterThan(0);
    const r = running(k);
    expect([r.figures(), r.window(bounds)]).not.toEqual([list, window]);
  });

  it.each(['head-arrives', 'packet-forwarded'])('control: one switch %s event dropped changes them', (kind) => {
    const k = switchEvents.findIndex((e, i) => i > switchEvents.length / 2 && e.kind === kind && switchEvents.filter((x) => x.msg === e.msg && x.kind === 'head-arrives').length > 1);
    expect(k).toBeGreaterThan(0);
    expect(running(-1, k).figures()).not.toEqual(list);
  });
});
