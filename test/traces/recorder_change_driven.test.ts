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
import type { C104System } from '../../harness/rtl/c104_system.ts';
import { thesisMesh, thesisMeshArb, type ThesisMeshCase } from '../t9000/thesis_mesh.ts';

const CYCLES = 7000;

/** One run of `c` with the recorder in the given mode; `miss` = the endpoint whose rDone list is hidden (the control). */
function runCase(c: ThesisMeshCase, changeDriven: boolean, miss = -1): C104System {
  const sys = thesisMesh(c, CYCLES - 1500, (s) => {
    s.rec.changeDriven = changeDriven;
    if (miss >= 0) Object.defineProperty(s.endpoints[miss]!.vlc, 'rDoneMovedCount', { value: () => 0 });
  });
  sys.sim.step(CYCLES);
  return sys;
}

/** Everything the recorder gives: events in order, deliveries, anomalies, the summary's statistics. */
function observed(sys: C104System): string {
  const r = sys.rec;
  return JSON.stringify({ events: r.events, deliveries: r.deliveries, anomalies: r.anomalies, summary: r.summary });
}

describe('the T9000 recorder, change-driven against every cycle', () => {
  it('random meshes and workloads: the same events, deliveries and summary', () => {
    let completions = 0;
    fc.assert(
      fc.property(thesisMeshArb, (c) => {
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
    const c: ThesisMeshCase = { side: 3, window: 1, interval: 40, bytes: 40, seed: 5, node: true, handshake: false, overhead: 0 };
    const ref = observed(runCase(c, false));
    expect(observed(runCase(c, true))).toBe(ref);
    expect(observed(runCase(c, true, 4))).not.toBe(ref);
  }, 120_000);
});
