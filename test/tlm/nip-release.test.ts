/**
 * The node input port of the RTL-calibrated TLM (config nipReleaseTicks,
 * nipPbuReleaseTicks; docs/buzzard-ch5.md#rtl-calibrated-tlm): on a hotspot
 * (three neighbours of node 0 on a 2-cube sending long messages to it at
 * once), the spacings between packets entering node 0's node input port
 * are those of the RTL on the same workload: another PBU's packet
 * 11 + 18·W − 1 cycles after the last one, the same PBU's 11 + 18·W + 1.
 * Negative control: without the early release (0 / 0) the spacings are the
 * links' 11 + 18·W + 2 and differ from the RTL's. And the crossbar
 * arbitration (config arbiter 'tree'): seven sources of a 3-cube sending to
 * node 0 reach its node input port in the RTL's PBU order with the RTL's
 * completion times; the round-robin arbiter (negative control) does not.
 */
import { describe, expect, it } from 'vitest';
import { runRtlWorkload } from '../../harness/compare/rtl_run.ts';
import { runTlmCalibrated } from '../../harness/tlm/index.ts';
import { finalizeMessages } from '../../harness/workloads/index.ts';
import type { Workload } from '../../harness/workloads/types.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';

const hotspot: Workload = {
  name: 'hotspot',
  seed: null,
  params: {},
  unit: 'ticks',
  cubeDegree: 2,
  messages: finalizeMessages([
    { t: 10, src: 1, dst: 0, bytes: 600, kind: 'unicast' },
    { t: 10, src: 2, dst: 0, bytes: 600, kind: 'unicast' },
    { t: 12, src: 3, dst: 0, bytes: 400, kind: 'unicast' },
  ]),
};

/** Spacings of consecutive grants into node 0's node input port, "other:<cycles>" or "same:<cycles>" (same PBU), sorted. */
function nipSpacings(events: readonly TraceEvent[]): string[] {
  const g = events.filter((e) => e.kind === 'grant' && e.node === 0 && e.port === 0).sort((a, b) => a.t - b.t);
  return g.slice(1).map((e, i) => `${e.unit === g[i]!.unit ? 'same' : 'other'}:${e.t - g[i]!.t}`).sort();
}

describe('calibrated TLM: the node input port under a hotspot', () => {
  const rtl = runRtlWorkload(hotspot, { cyclesPerTick: 4.5, maxCycles: 200_000, quiet: true });
  it('the RTL delivers everything; its spacings are 11 + 18·W − 1 (another PBU) and 11 + 18·W + 1 (same PBU)', () => {
    expect(rtl.complete).toBe(3);
    const sp = nipSpacings(rtl.events);
    expect(sp).toContain('other:298'); // W = 16: 11 + 288 − 1
    expect(sp.filter((s) => s.startsWith('other:')).every((s) => s === 'other:298' || Number(s.slice(6)) < 298)).toBe(true);
  });
  it('the calibrated TLM gives the same spacings as the RTL, and the same delivery times', () => {
    const tlm = runTlmCalibrated(hotspot, 'quasi-adaptive', { recordEvents: true });
    expect(nipSpacings(tlm.events!)).toEqual(nipSpacings(rtl.events));
    const done = (evs: readonly TraceEvent[]) => evs.filter((e) => e.kind === 'message-complete').map((e) => [e.msg, e.t]).sort((a, b) => a[0]! - b[0]!);
    expect(done(tlm.events!)).toEqual(done(rtl.events));
  });
  it('negative control: without the early release the spacings are the links\' 11 + 18·W + 2 and differ from the RTL', () => {
    const tlm = runTlmCalibrated(hotspot, 'quasi-adaptive', { recordEvents: true, nipReleaseTicks: 0, nipPbuReleaseTicks: 0 });
    const sp = nipSpacings(tlm.events!);
    expect(sp).toContain('other:301');
    expect(sp).not.toContain('other:298');
    expect(sp).not.toEqual(nipSpacings(rtl.events));
    const one = runTlmCalibrated(hotspot, 'quasi-adaptive', { recordEvents: true, nipPbuReleaseTicks: 0 });
    expect(nipSpacings(one.events!)).not.toEqual(nipSpacings(rtl.events));
  });
});

describe('calibrated TLM: the crossbar tree arbiter', () => {
  const w: Workload = { name: 'h3', seed: null, params: {}, unit: 'ticks', cubeDegree: 3, messages: finalizeMessages([1, 2, 3, 4, 5, 6, 7].map((src, i) => ({ t: 10 + i, src, dst: 0, bytes: 300, kind: 'unicast' as const }))) };
  const order = (evs: readonly TraceEvent[]) => evs.filter((e) => e.kind === 'grant' && e.node === 0 && e.port === 0).sort((a, b) => a.t - b.t).map((e) => e.unit);
  const done = (evs: readonly TraceEvent[]) => evs.filter((e) => e.kind === 'message-complete').map((e) => [e.msg, e.t]).sort((a, b) => a[0]! - b[0]!);
  const rtl = runRtlWorkload(w, { cyclesPerTick: 4.5, maxCycles: 400_000, quiet: true });
  it("grants node 0's input port in the RTL's order, with the RTL's completion times", () => {
    expect(rtl.complete).toBe(7);
    const tree = runTlmCalibrated(w, 'quasi-adaptive');
    expect(order(tree.events!)).toEqual(order(rtl.events));
    expect(done(tree.events!)).toEqual(done(rtl.events));
  });
  it('negative control: the round-robin arbiter grants in another order and finishes at other times', () => {
    const rr = runTlmCalibrated(w, 'quasi-adaptive', { arbiter: 'round-robin' });
    expect(order(rr.events!)).not.toEqual(order(rtl.events));
    expect(done(rr.events!)).not.toEqual(done(rtl.events));
  });
});
