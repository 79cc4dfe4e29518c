/**
 * The folded-glue FIFO's edge on late guards (rtl/lib/fifo.ts; docs/kernel.md
 * "Exact sensitivity", "Stop 23: FIFOs and C104"): it wakes on the rise of
 * push, pop or pop2, and on a change of head, count, din or pushEn only if
 * a pulse stands at the next edge, so it no longer runs once more after
 * each push and pop.
 *  - fast ('activity') = reference ('plain') at every cycle, the whole state
 *    (test/lib/lockstep_sim.ts): random held stimulus (pulses held over
 *    several edges, one input changed at a time), depths 1..5, registered
 *    outputs or not, pokes of head, count and memory words on the way;
 *  - the edge's runs: one per edge where a pulse stands (a plain-read FIFO:
 *    one more after each);
 *  - negative control: the edge blind to its own head and count under the
 *    late guards (FIFO_FAULT.lateBlind) misses a held pulse's second edge;
 *    without its own wake-up after a depth-1 push and pop (head and count
 *    stay: FIFO_FAULT.oneBlind) a pop standing alone after the push fell
 *    is missed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../rtl/kernel/index.ts';
import { FIFO_FAULT } from '../../rtl/lib/fifo.ts';
import { driven, fifoRuns, GlueFifo, lockstep, type Op, stimOf } from './fifo_drive.ts';

const runs = (ops: readonly Op[], glue: boolean): number => fifoRuns(ops, 16, glue);

describe('Fifo folded glue on late guards', () => {
  it('fast = reference at every cycle (held pulses, depths 1..5, registered outputs or not)', () => {
    fc.assert(fc.property(stimOf(driven), fc.integer({ min: 1, max: 5 }), fc.boolean(), (ops, depth, regOut) => lockstep(ops, depth, regOut)), { numRuns: 200 });
  });

  it('fast = reference at every cycle, head, count and memory words poked on the way', () => {
    fc.assert(fc.property(stimOf([...driven, 'head', 'count', 'mem']), fc.integer({ min: 1, max: 5 }), fc.boolean(), (ops, depth, regOut) => lockstep(ops, depth, regOut)), { numRuns: 150 });
  });

  it('one run per edge where a pulse stands; the plain-read FIFO runs once more after each', () => {
    const ops: Op[] = [{ hold: 1, key: 'pushEn', v: 1 }, { hold: 1, key: 'din', v: 5 }];
    // Five one-cycle pushes, then a push held three edges, then five one-cycle pops.
    for (let k = 0; k < 5; k++) ops.push({ hold: 1, key: 'push', v: 1 }, { hold: 2, key: 'push', v: 0 });
    ops.push({ hold: 3, key: 'push', v: 1 }, { hold: 2, key: 'push', v: 0 });
    for (let k = 0; k < 5; k++) ops.push({ hold: 1, key: 'pop', v: 1 }, { hold: 2, key: 'pop', v: 0 });
    // The start-up run (every process is marked once), then 13 edges with a pulse.
    expect(runs(ops, true)).toBe(1 + 13);
    // Plain reads: each pulse's fall wakes it once more (11 pulses), din's change once.
    expect(runs(ops, false)).toBe(1 + 13 + 11 + 1);
  });

  /** A registered glue FIFO of depth 4 holding 7, 8 (fast mode), every pulse down: the poke cases' start. */
  const holding78 = (): { top: GlueFifo; sim: Simulator } => {
    const top = new GlueFifo(4, true);
    const sim = new Simulator(top, { mode: 'activity' });
    sim.poke(top.d.pushEn, 1);
    sim.poke(top.d.din, 7);
    sim.poke(top.d.push, 1);
    sim.step();
    sim.poke(top.d.din, 8);
    sim.step();
    sim.poke(top.d.push, 0);
    sim.step(3);
    return { top, sim };
  };

  it('README "poke": a poked head word, head or count reaches the registered outputs at the next edge, no pulse standing', () => {
    const { top, sim } = holding78();
    expect([sim.peek(top.f.dout), sim.peek(top.f.count)]).toEqual([7, 2]);
    sim.pokeMem(top.f.mem, 0, 9);
    expect(sim.peek(top.f.dout)).toBe(7);
    sim.step();
    expect(sim.peek(top.f.dout)).toBe(9);
    sim.poke(top.f.head, 1);
    sim.step();
    expect(sim.peek(top.f.dout)).toBe(8);
    sim.poke(top.f.count, 0);
    sim.step();
    expect([sim.peek(top.f.dout), sim.peek(top.f.empty), sim.peek(top.f.valid!)]).toEqual([0, 1, 0]);
  });

  it('negative control: without the memory poke hook (FIFO_FAULT.memBlind) a poked word stays unseen', () => {
    FIFO_FAULT.memBlind = true;
    try {
      const { top, sim } = holding78();
      sim.pokeMem(top.f.mem, 0, 9);
      sim.step(2);
      expect(sim.peek(top.f.dout)).toBe(7);
    } finally {
      FIFO_FAULT.memBlind = false;
    }
  });

  it('negative control: the edge blind to head and count under the late guards is seen by the lock-step', () => {
    FIFO_FAULT.lateBlind = true;
    try {
      const held: Op[] = [{ hold: 1, key: 'pushEn', v: 1 }, { hold: 1, key: 'din', v: 7 }, { hold: 3, key: 'push', v: 1 }, { hold: 2, key: 'push', v: 0 }];
      expect(() => lockstep(held, 4, true)).toThrow(/f\.count is 2 in plain mode but 1 in activity mode/);
    } finally {
      FIFO_FAULT.lateBlind = false;
    }
  });

  it('negative control: depth 1 without its push-and-pop wake-up (head and count stay; then the pop falls, the push stands: an overflow)', () => {
    // Since stop 25 the push's fall queues the edge (its late guard with pushEn), so the case
    // "the push falls, the pop stands" no longer needs the wake-up; "the pop falls, the push
    // stands" does: the push into the full FIFO is an overflow the reference mode reports.
    const d1: Op[] = [{ hold: 1, key: 'pushEn', v: 1 }, { hold: 1, key: 'din', v: 7 }, { hold: 1, key: 'push', v: 1 }, { hold: 1, key: 'pop', v: 1 }, { hold: 3, key: 'push', v: 0 }];
    const over: Op[] = [{ hold: 1, key: 'pushEn', v: 1 }, { hold: 1, key: 'din', v: 7 }, { hold: 1, key: 'push', v: 1 }, { hold: 1, key: 'pop', v: 1 }, { hold: 3, key: 'pop', v: 0 }];
    lockstep(d1, 1, true);
    expect(() => lockstep(over, 1, true, 'error')).toThrow(/push into a full FIFO/);
    FIFO_FAULT.oneBlind = true;
    try {
      lockstep(d1, 1, true);
      expect(() => lockstep(over, 1, true, 'error')).toThrow(/expected 'null' to be 'SimError/);
    } finally {
      FIFO_FAULT.oneBlind = false;
    }
  });
});
