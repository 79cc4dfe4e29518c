/**
 * The virtual link control's per-run shortcuts (docs/kernel.md "Stop 23:
 * endpoints per cycle"), each against its reference in lock-step.
 *
 * The round-robin picks (rtl/t9000/vlc.ts `pickRule`;
 * docs/kernel.md "Stop 23: endpoints per cycle"): one pass over the work list
 * for every link and both kinds (default) against a scan per link and kind
 * (the reference, the rule before stop 23), in lock-step on random C104
 * meshes under the thesis's traffic (both addressings, stream and
 * handshake, past saturation): every wire, register and control-block word
 * equal at every cycle, the same events. Negative control: the fault
 * 'pick-one-link' (every VL counted as on link 0) differs.
 *
 * A run with no block on its work list ends after the picks (`skipEmpty`)
 * against every run going through: the same comparison; negative control:
 * the fault 'skip-one-block' (a run with one block ends early too) differs.
 */
import { describe, expect, it } from 'vitest';
import type { C104System } from '../../harness/rtl/c104_system.ts';
import type { EndpointFault } from '../../rtl/t9000/config.ts';
import type { VirtualLinkControl } from '../../rtl/t9000/vlc.ts';
import { firstStepDiff } from '../c104/system_check.ts';
import { assertEqualOnRandomMeshes, thesisMesh, type ThesisMeshCase } from './thesis_mesh.ts';

const CYCLES = 4500;

function build(c: ThesisMeshCase, rule: VirtualLinkControl['pickRule'], fault: EndpointFault = 'none', skipEmpty = true): C104System {
  return thesisMesh(
    c,
    CYCLES - 1000,
    (sys) => {
      for (const ep of sys.endpoints) {
        ep.vlc.pickRule = rule;
        ep.vlc.skipEmpty = skipEmpty;
      }
    },
    fault,
  );
}

describe('VLC picks: one pass equals a scan per link and kind', () => {
  it('random meshes and workloads: equal at every cycle', () => {
    assertEqualOnRandomMeshes((c) => build(c, 'scan'), (c) => build(c, 'pass'), CYCLES, 23);
  }, 300_000);

  it("negative control: the fault 'pick-one-link' differs from the reference", () => {
    const c: ThesisMeshCase = { side: 3, window: 1, interval: 30, bytes: 40, seed: 5, node: true, handshake: false, overhead: 0 };
    expect(firstStepDiff(build(c, 'scan'), build(c, 'pass'), CYCLES)).toBeUndefined();
    expect(firstStepDiff(build(c, 'scan'), build(c, 'pass', 'pick-one-link'), CYCLES)).toMatch(/^cycle \d+/);
  }, 120_000);
});

describe('VLC: a run with an empty work list ends after the picks', () => {
  it('random meshes and workloads: equal to every run going through, at every cycle', () => {
    assertEqualOnRandomMeshes((c) => build(c, 'pass', 'none', false), (c) => build(c, 'pass'), CYCLES, 24);
  }, 300_000);

  it("negative control: the fault 'skip-one-block' differs from the reference", () => {
    const c: ThesisMeshCase = { side: 2, window: 1, interval: 100, bytes: 40, seed: 5, node: true, handshake: false, overhead: 0 };
    expect(firstStepDiff(build(c, 'pass', 'none', false), build(c, 'pass', 'skip-one-block'), CYCLES)).toMatch(/^cycle \d+/);
  }, 120_000);
});
