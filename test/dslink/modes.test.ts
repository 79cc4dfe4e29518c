/**
 * The DS-link pair in 'plain' and 'activity' simulator modes, run in lockstep
 * (test/lib/lockstep_sim.ts): every register, wire and buffer word agrees at
 * every cycle, through start-up, random traffic both ways with random stalls,
 * and a bit flip with its error and restart. A unit process that read a
 * signal it did not declare would make the activity copy miss an update.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { CHAR_EOM, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { Lockstep } from '../lib/lockstep_sim.ts';
import { Bench } from './bench.ts';

const charArb = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(CHAR_EOP, CHAR_EOM));

describe('DS-link pair: plain and activity modes agree', () => {
  it('at every cycle, with traffic, stalls and a fault', () => {
    fc.assert(
      fc.property(
        fc.array(charArb, { maxLength: 60 }),
        fc.array(charArb, { maxLength: 60 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 9 }),
        fc.integer({ min: 2000, max: 2600 }),
        (aToB, bToA, pop, flipAt) => {
          const popB = pop.some((x) => x) ? pop : [true];
          const ls = new Lockstep(() => new Bench({ faults: true, aToB, bToA, popB, a: { resetNs: 500, waitNs: 1000 }, b: { resetNs: 500, waitNs: 1000 } }));
          for (let c = 0; c < 3000; c++) {
            if (c === flipAt - 1800) ls.poke((u) => u.pair.ab!.flipD, 1);
            ls.step();
          }
        },
      ),
      { numRuns: 6 },
    );
  });
});
