/**
 * The calibrated TLM's PBU release on links (config pbuReleaseTicks;
 * docs/buzzard-ch5.md#rtl-calibrated-tlm). On a 3-cube with e-cube routing,
 * node 1 sends two long messages through PBU 1 of node 0, one on to node 2
 * (output 2) and one on to node 4 (output 3), while node 0's own long
 * message to node 2 competes for output 2, so PBU 1 holds packets for both
 * outputs and alternates between them. The RTL starts a PBU's packet on the
 * other, idle link 1 cycle after the last one's last bit (the same link: 2
 * cycles); the calibrated TLM gives the RTL's grant times for every packet
 * of PBU 1 and the RTL's completion times. Negative control: with
 * pbuReleaseTicks 0 the alternation costs 2 cycles and the times differ.
 */
import { describe, expect, it } from 'vitest';
import { runRtlWorkload } from '../../harness/compare/rtl_run.ts';
import { runTlmCalibrated } from '../../harness/tlm/index.ts';
import { finalizeMessages } from '../../harness/workloads/index.ts';
import type { Workload } from '../../harness/workloads/types.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';

const w: Workload = {
  name: 'pbu-alternation',
  seed: null,
  params: {},
  unit: 'ticks',
  cubeDegree: 3,
  messages: finalizeMessages([
    { t: 0, src: 0, dst: 2, bytes: 1500, kind: 'unicast' },
    { t: 10, src: 1, dst: 2, bytes: 900, kind: 'unicast' },
    { t: 10, src: 1, dst: 4, bytes: 900, kind: 'unicast' },
  ]),
};

/** PBU 1 of node 0: its grants as "msg/packet→port@t". */
const pbu1 = (evs: readonly TraceEvent[]) => evs.filter((e) => e.kind === 'grant' && e.node === 0 && e.unit === 'pbu1').sort((a, b) => a.t - b.t).map((e) => `${e.msg}/${e.packet}→${e.port}@${e.t}`);
const done = (evs: readonly TraceEvent[]) => evs.filter((e) => e.kind === 'message-complete').map((e) => [e.msg, e.t]).sort((a, b) => a[0]! - b[0]!);

describe('calibrated TLM: a PBU alternating between two links', () => {
  const rtl = runRtlWorkload(w, { cyclesPerTick: 4.5, maxCycles: 400_000, quiet: true, config: { routing: 'e-cube' } });
  const tlm = runTlmCalibrated(w, 'fixed-packet', { recordEvents: true });
  it('the RTL delivers everything, and PBU 1 does alternate (a packet on one link follows one on the other)', () => {
    expect(rtl.complete).toBe(3);
    const ports = pbu1(rtl.events).map((s) => s.split('→')[1]!.split('@')[0]);
    expect(ports.some((p, i) => i > 0 && p !== ports[i - 1])).toBe(true);
  });
  it("the calibrated TLM grants PBU 1's packets at the RTL's cycles (the TLM logs a grant 1 cycle after the RTL, as on every hop) and completes at the RTL's times", () => {
    const shift = (xs: string[], d: number) => xs.map((s) => s.replace(/@(\d+)$/, (_, t) => `@${Number(t) + d}`));
    expect(shift(pbu1(tlm.events!), -1)).toEqual(pbu1(rtl.events));
    expect(done(tlm.events!)).toEqual(done(rtl.events));
  });
  it('negative control: with pbuReleaseTicks 0 the grants and completions differ from the RTL', () => {
    const off = runTlmCalibrated(w, 'fixed-packet', { recordEvents: true, pbuReleaseTicks: 0 });
    expect(pbu1(off.events!)).not.toEqual(pbu1(rtl.events));
    expect(done(off.events!)).not.toEqual(done(rtl.events));
  });
});
