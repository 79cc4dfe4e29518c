/**
 * Review of stop 21's Buzzard fast paths (docs/kernel.md "Stop 21: review"):
 * the control unit on slot numbers and its FIFO pop guarded by rxTake, the
 * flow control unit's stats, the arbiter and the dual-port RAM without the
 * reads they only write, slot numbers in the link ends. A 2-cube with the
 * chapter-5 workload, small CAMs and FIFOs (test/review/systems.ts), warmed
 * 300 cycles; then seeded random disturbances hit the reference and the
 * fast copy alike (test/lib/chaos_lockstep.ts: pokes of the control units',
 * flow control units' registers and wires but their link bits, the RAMs',
 * the ATUs'; snapshots restored in the same and the other mode, setMode
 * both ways); every slot and memory word equal at every cycle. Not poked:
 * link bits and moving registers (a documented limit of the links on serial
 * lines, docs/kernel.md "Buzzard links on serial lines"), and the RAM's read
 * bus and its registers (rdq/rvq/rsq behind rdata/rvalid/rsrc): a word is
 * taken at the read grant in the fast mode, so a poke there in the cycle a
 * word arrives reaches only the reference (README's poke paragraph,
 * docs/kernel.md "Stop 24: Buzzard"; seed 214502983 found it). Negative control:
 * a poke in the fast copy only is caught (the harness can see a flip).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chaosLockstep, warmCopies } from '../lib/chaos_lockstep.ts';
import { reviewCube2 } from './systems.ts';

const POKED = /\.(cu|ram|atu)\.|\.fcu[0-9]+\.(?![a-zA-Z]*[bB]it$)/;
const READ_BUS = /\.ram\.(rdq|rvq|rsq|rdata|rvalid|rsrc)$/;
const pokeable = (s: { path: string }): boolean => POKED.test(s.path) && !READ_BUS.test(s.path);

const copies = warmCopies(reviewCube2, 300);

describe('review: Buzzard 2-cube under random pokes, snapshots and mode switches', () => {
  it('fast = reference at every cycle', { timeout: 600_000 }, () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), (seed) => {
        const { ref, fast } = copies();
        expect(chaosLockstep(ref, fast, seed, { cycles: 500, rate: 0.04, pokeable }).diff).toBeUndefined();
      }),
      { numRuns: Number(process.env.ICEMU_FULL) ? 200 : 25 },
    );
  });

  it('negative control: a register poked in the fast copy only is caught', () => {
    const { ref, fast } = copies();
    fast.poke('node1.cu.mLen', fast.peek('node1.cu.mLen') ^ 1);
    expect(chaosLockstep(ref, fast, 1, { cycles: 50, rate: 0, kinds: [] }).diff).toBeDefined();
  });
});
