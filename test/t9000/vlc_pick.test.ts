/**
 * The virtual link control's round-robin picks (rtl/t9000/vlc.ts `pickRule`;
 * docs/kernel.md "Stop 23: endpoints per cycle"): one pass over the work list
 * for every link and both kinds (default) against a scan per link and kind
 * (the reference, the rule before stop 23), in lock-step on random C104
 * meshes under the thesis's traffic (both addressings, stream and
 * handshake, past saturation): every wire, register and control-block word
 * equal at every cycle, the same events. Negative control: the fault
 * 'pick-one-link' (every VL counted as on link 0) differs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { C104System } from '../../harness/rtl/c104_system.ts';
import type { EndpointFault } from '../../rtl/t9000/config.ts';
import type { VirtualLinkControl } from '../../rtl/t9000/vlc.ts';
import { firstStepDiff } from '../c104/system_check.ts';
import { thesisMesh, thesisMeshArb, type ThesisMeshCase } from './thesis_mesh.ts';

const CYCLES = 4500;

function build(c: ThesisMeshCase, rule: VirtualLinkControl['pickRule'], fault: EndpointFault = 'none'): C104System {
  return thesisMesh(
    c,
    CYCLES - 1000,
    (sys) => {
      for (const ep of sys.endpoints) ep.vlc.pickRule = rule;
    },
    fault,
  );
}

describe('VLC picks: one pass equals a scan per link and kind', () => {
  it('random meshes and workloads: equal at every cycle', () => {
    fc.assert(
      fc.property(thesisMeshArb.map((c) => ({ ...c, side: Math.min(c.side, 3) })), (c) => {
        const ref = build(c, 'scan');
        const fast = build(c, 'pass');
        expect(firstStepDiff(ref, fast, CYCLES)).toBeUndefined();
        expect(fast.rec.events).toEqual(ref.rec.events);
        expect(fast.rec.deliveries.length).toBeGreaterThan(0);
      }),
      { numRuns: 3, seed: 23 },
    );
  }, 300_000);

  it("negative control: the fault 'pick-one-link' differs from the reference", () => {
    const c: ThesisMeshCase = { side: 3, window: 1, interval: 30, bytes: 40, seed: 5, node: true, handshake: false, overhead: 0 };
    expect(firstStepDiff(build(c, 'scan'), build(c, 'pass'), CYCLES)).toBeUndefined();
    expect(firstStepDiff(build(c, 'scan'), build(c, 'pass', 'pick-one-link'), CYCLES)).toMatch(/^cycle \d+/);
  }, 120_000);
});
