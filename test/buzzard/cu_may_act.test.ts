/**
 * The control unit's IDLE dispatch look (rtl/buzzard/cu_transmit.ts mayAct,
 * issue 8): mayAct, a superset of the transmit task's four steps'
 * conditions read straight from the state vector, is never false in a state
 * where the steps themselves would act (a completion write, a slot load,
 * the broadcast queue, a new message). Checked for every node at every
 * cycle of random Buzzard workloads (unicasts and broadcasts, both framings,
 * both routings). Fast mode = reference mode cannot show this (both run the
 * same mayAct); the RTL timing fingerprint (timing_version.test.ts) checks
 * the cycles too.
 *
 * The check also counts the node-cycles where mayAct says yes (the
 * workloads reach them), and a mayAct blind to the slots' idle flag (a head
 * load of an idle slot) is caught on the same runs: the negative control.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ControlUnit } from '../../rtl/buzzard/control_unit.ts';
import { cuRandomRun, cuRunParams, type CuRunParams } from './cu_random_run.ts';

type Look = (cu: ControlUnit) => boolean;
const current: Look = (cu) => cu.txIdle.mayAct();
/** Broken on purpose: mayAct with every slot's idle input seen as 0. */
const blindToIdle: Look = (cu) => {
  const s = cu.s;
  const saved = cu.slots.map((sl) => s[sl.idle.i]!);
  cu.slots.forEach((sl) => (s[sl.idle.i] = 0));
  const r = cu.txIdle.mayAct();
  cu.slots.forEach((sl, j) => (s[sl.idle.i] = saved[j]!));
  return r;
};

/**
 * Whether `look` said no at a node-cycle where the steps acted (the run stops
 * at the first: the steps' writes then change it), and the node-cycles where
 * the look said yes (the steps are not asked there: they would act).
 */
function missed(p: CuRunParams, look: Look): { missed: number; yes: number } {
  const { sim, cus } = cuRandomRun(p);
  let yes = 0;
  for (let c = 0; c < p.cycles; c++) {
    sim.step(1);
    for (const cu of cus) {
      if (look(cu)) {
        yes++;
        continue;
      }
      // the look says nothing can act: the steps must agree (they write nothing when they return false)
      if (cu.txIdle.txSteps()) return { missed: 1, yes };
    }
  }
  return { missed: 0, yes };
}


describe('control unit IDLE dispatch look (issue 8)', () => {
  it('mayAct is never false where the transmit steps would act; a look blind to the idle flag is caught', () => {
    fc.assert(
      fc.property(cuRunParams, (p) => {
        const r = missed(p, current);
        expect(r.missed).toBe(0);
        expect(r.yes).toBeGreaterThan(0);
      }),
      { numRuns: 6 },
    );
    const control = missed({ n: 3, strict: false, routing: 'quasi-adaptive', meanBytes: 32, gapTicks: 20, seed: 7, broadcast: 40, cycles: 1500 }, blindToIdle);
    expect(control.missed).toBe(1);
  }, 240_000);
});
