/**
 * The T9000 event recorder's change-driven path (harness/rtl/t9000_events.ts
 * `changeDriven`, docs/kernel.md "Stop 22: harness per cycle") against its
 * reference, the scan of every endpoint's work list every cycle: on random
 * C104 meshes under the thesis's windowed random traffic (both addressing
 * modes, loads up to past saturation) the two give the same events, in the
 * same order, the same deliveries and the same summary. Negative control: a
 * change-driven recorder whose one endpoint's receive completions are not
 * listed (a missed endpoint) gives other events.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meshNetwork } from '../../rtl/c104/labelling.ts';
import { makeC104System, nodeChannels, type C104System } from '../../harness/rtl/c104_system.ts';
import { channelPairs, thesisWindowWorkload } from '../../harness/rtl/c104_thesis_workload.ts';
import type { ChannelEnd } from '../../harness/rtl/t9000_driver.ts';

interface Case {
  side: number;
  window: number;
  interval: number;
  bytes: number;
  seed: number;
  node: boolean;
}

const START = 2500; // after link start-up
const CYCLES = 7000;

/** One run of `c` with the recorder in the given mode; `miss` = the endpoint whose rDone list is hidden (the control). */
function runCase(c: Case, changeDriven: boolean, miss = -1): C104System {
  const T = c.side * c.side;
  const msgs = thesisWindowWorkload({ side: c.side, window: c.window, intervalCycles: c.interval, bytes: c.bytes, start: START, end: CYCLES - 1500, seed: c.seed });
  const { pairs, labels } = channelPairs(msgs, T);
  const spec = meshNetwork({ w: c.side, h: c.side, routing: 'x-first', labelsPerNode: c.node ? 1 : Math.max(1, labels) });
  const next = spec.terminals.map((t) => t.label);
  const channels: [ChannelEnd, ChannelEnd][] = c.node ? nodeChannels(pairs, T).channels : pairs.map(([a, b]) => [{ node: a, vl: next[a]!++ }, { node: b, vl: next[b]!++ }]);
  const sys = makeC104System(spec, channels, c.node ? { t9000: { addressing: 'node' } } : {});
  sys.rec.changeDriven = changeDriven;
  if (miss >= 0) Object.defineProperty(sys.endpoints[miss]!.vlc, 'rDoneMovedCount', { value: () => 0 });
  sys.driver.holdWhenFull = true;
  const endOf = new Map<number, ChannelEnd>();
  for (const [a, b] of channels) {
    endOf.set(a.node * T + b.node, a);
    endOf.set(b.node * T + a.node, b);
  }
  for (const m of msgs) {
    const src = endOf.get(m.src * T + m.dst)!;
    const dst = endOf.get(m.dst * T + m.src)!;
    sys.driver.send(src.node, src.vl, Array.from({ length: m.bytes }, (_, j) => (m.id * 7 + j) & 0xff), m.t);
    sys.driver.receive(dst.node, dst.vl, m.t);
  }
  sys.sim.step(CYCLES);
  return sys;
}

/** Everything the recorder gives: events in order, deliveries, anomalies, the summary's statistics. */
function observed(sys: C104System): string {
  const r = sys.rec;
  return JSON.stringify({ events: r.events, deliveries: r.deliveries, anomalies: r.anomalies, summary: r.summary });
}

const caseArb = fc.record({
  side: fc.integer({ min: 2, max: 4 }),
  window: fc.integer({ min: 1, max: 2 }),
  interval: fc.integer({ min: 15, max: 200 }),
  bytes: fc.integer({ min: 1, max: 70 }),
  seed: fc.integer({ min: 1, max: 1e6 }),
  node: fc.boolean(),
});

describe('the T9000 recorder, change-driven against every cycle', () => {
  it('random meshes and workloads: the same events, deliveries and summary', () => {
    let completions = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const fast = runCase(c, true);
        const ref = runCase(c, false);
        expect(observed(fast)).toBe(observed(ref));
        completions += fast.rec.events.filter((e) => e.kind === 'message-complete').length;
      }),
      { numRuns: 6, seed: 22 },
    );
    // coverage: the runs completed messages (the lists had work)
    expect(completions).toBeGreaterThan(200);
  }, 240_000);

  it('negative control: one endpoint whose receive completions go unlisted gives other events', () => {
    const c: Case = { side: 3, window: 1, interval: 40, bytes: 40, seed: 5, node: true };
    const ref = observed(runCase(c, false));
    expect(observed(runCase(c, true))).toBe(ref);
    expect(observed(runCase(c, true, 4))).not.toBe(ref);
  }, 120_000);
});
