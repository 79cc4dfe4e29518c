/**
 * Review of stop 21's C104 fast paths (docs/kernel.md "Stop 21: review"):
 * the input router's reads by state (its clock edge and stream guards), the
 * link ends' folded FIFO glue, wake on rise in their token layer. A 2x2
 * mesh with twelve messages (test/review/systems.ts) warmed past link
 * start-up; then seeded random disturbances hit the reference and the fast
 * copy alike (test/lib/chaos_lockstep.ts: pokes of the routers' and the
 * link ends' registers and wires, snapshots restored in the same and the
 * other mode, setMode both ways); every slot and control-block word equal
 * at every cycle (a model error, e.g. a poked header past the last label,
 * alike in both). Not poked: the decoders' and deserialisers' token-level
 * registers and tokBits (test/dslink/null_recording_poke.test.ts and
 * dslink_chaos cover them on a pair). Negative control: the router's
 * connected state blind to `release` (ROUTER_FAULT.endBlind) is caught.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTER_FAULT } from '../../rtl/c104/input_router.ts';
import { chaosLockstep, warmCopies } from '../lib/chaos_lockstep.ts';
import { review2x2 } from './systems.ts';

const WARM = 2560; // links in Run, the first messages under way
const POKED = /\.in[0-9]+\.|_link[0-9]+\.(tokens\.(?!tokBits)|credit\.|fsm\.|ser\.(?!tokBits)|txBuf|rxBuf)/;

const copies = warmCopies((mode) => review2x2(mode).sim, WARM);

afterEach(() => {
  ROUTER_FAULT.endBlind = false;
});

describe('review: C104 2x2 mesh under random pokes, snapshots and mode switches', () => {
  it('fast = reference at every cycle', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        const { ref, fast } = copies();
        expect(chaosLockstep(ref, fast, seed, { cycles: 500, rate: 0.04, pokeable: (s) => POKED.test(s.path) }).diff).toBeUndefined();
      }),
      { numRuns: Number(process.env.ICEMU_FULL) ? 200 : 12 },
    );
  });

  it('negative control: a router blind to release while connected is caught', { timeout: 600_000 }, () => {
    ROUTER_FAULT.endBlind = true;
    const ref = review2x2('plain').sim;
    const fast = review2x2('activity').sim;
    ref.step(2500);
    fast.step(2500);
    expect(chaosLockstep(ref, fast, 1, { cycles: 1500, rate: 0, kinds: [] }).diff).toBeDefined();
  });
});
