/**
 * The receive port's header process reads the link's character only in its
 * HDR state (a guarded read, rtl/t9000/rx_port.ts; docs/kernel.md "Stop 23:
 * endpoints per cycle"): the fast mode in lock-step with the reference mode
 * ('plain': every process every cycle) on random C104 meshes under the
 * thesis's traffic, every wire, register and control-block word equal at
 * every cycle, the same events. Negative control: the wrong guard of fault
 * 'header-guard-data' (reads in DATA instead) differs.
 */
import { describe, expect, it } from 'vitest';
import type { C104System } from '../../harness/rtl/c104_system.ts';
import type { EndpointFault } from '../../rtl/t9000/config.ts';
import { firstStepDiff } from '../c104/system_check.ts';
import { assertEqualOnRandomMeshes, thesisMesh, type ThesisMeshCase } from './thesis_mesh.ts';

const CYCLES = 4500;

function build(c: ThesisMeshCase, mode: 'plain' | 'activity', fault: EndpointFault = 'none'): C104System {
  return thesisMesh(c, CYCLES - 1000, () => {}, fault, { mode });
}

describe('RxPort header: guarded reads', () => {
  it('random meshes and workloads: the fast mode equals the reference at every cycle', () => {
    assertEqualOnRandomMeshes((c) => build(c, 'plain'), (c) => build(c, 'activity'), CYCLES, 23);
  }, 300_000);

  it("negative control: the fault 'header-guard-data' (a wrong guard) differs from the reference", () => {
    for (const node of [true, false]) {
      const c: ThesisMeshCase = { side: 2, window: 1, interval: 100, bytes: 40, seed: 5, node, handshake: false, overhead: 0 };
      expect(firstStepDiff(build(c, 'plain'), build(c, 'activity'), CYCLES)).toBeUndefined();
      expect(firstStepDiff(build(c, 'plain', 'header-guard-data'), build(c, 'activity', 'header-guard-data'), CYCLES)).toMatch(/^cycle \d+/);
    }
  }, 120_000);
});
