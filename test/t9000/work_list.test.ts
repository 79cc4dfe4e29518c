/**
 * The virtual link control's work list (rtl/t9000/vlc.ts `workList`,
 * docs/t9000.md#control-blocks "Resting blocks"): the default rule takes
 * resting blocks (waiting only for a link event that names them) off the
 * list. Against the reference, every block visited every cycle ('all'), and
 * the rule before stop 22 ('idle'), in lock-step on random C104 meshes under
 * the thesis's windowed random traffic (both addressings, stream and
 * handshake messages, loads past saturation): every wire, register and
 * control-block word equal at every cycle. The default's list is shorter
 * (coverage: resting blocks were taken off). Negative control: the wrong
 * guard of fault 'rest-on-hold' (a block whose handshake hold
 * still counts down taken as resting) differs from the reference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { C104System } from '../../harness/rtl/c104_system.ts';
import type { VirtualLinkControl } from '../../rtl/t9000/vlc.ts';
import { firstStepDiff } from '../c104/system_check.ts';
import { thesisMesh, thesisMeshArb, type ThesisMeshCase } from './thesis_mesh.ts';

const CYCLES = 6000;

function build(c: ThesisMeshCase, rule: VirtualLinkControl['workList'], wrongGuard = false): C104System {
  return thesisMesh(
    c,
    CYCLES - 1000,
    (sys) => {
      for (const ep of sys.endpoints) ep.vlc.workList = rule;
    },
    wrongGuard ? 'rest-on-hold' : 'none',
  );
}

/** Visited blocks summed over the run's cycles, per endpoint list length after each cycle. */
function countVisits(sys: C104System): () => number {
  let n = 0;
  sys.sim.observe({ onCycle: () => void (n += sys.endpoints.reduce((a, ep) => a + ep.vlc.visitedCount(), 0)) });
  return () => n;
}

describe('VLC work list: resting blocks off the list', () => {
  it("random meshes and workloads: 'resting' and 'idle' equal 'all' (every block every cycle) at every cycle", () => {
    let all = 0;
    let resting = 0;
    fc.assert(
      fc.property(thesisMeshArb, fc.boolean(), (c, againstIdle) => {
        const ref = build(c, againstIdle ? 'idle' : 'all');
        const fast = build(c, 'resting');
        const visits = countVisits(fast);
        const refVisits = countVisits(ref);
        expect(firstStepDiff(ref, fast, CYCLES)).toBeUndefined();
        expect(fast.rec.events).toEqual(ref.rec.events);
        expect(fast.rec.anomalies).toEqual([]);
        if (!againstIdle) {
          all += refVisits();
          resting += visits();
        }
      }),
      { numRuns: 4, seed: 22 },
    );
    // coverage: the resting rule visited fewer blocks than the reference
    expect(resting).toBeLessThan(all / 2);
  }, 300_000);

  it("negative control: the fault 'rest-on-hold' (a wrong guard) differs from the reference", () => {
    const c: ThesisMeshCase = { side: 3, window: 1, interval: 150, bytes: 60, seed: 3, node: true, handshake: true, overhead: 20 };
    expect(firstStepDiff(build(c, 'all'), build(c, 'resting'), CYCLES)).toBeUndefined();
    expect(firstStepDiff(build(c, 'all'), build(c, 'resting', true), CYCLES)).toMatch(/^cycle \d+/);
  }, 120_000);
});
