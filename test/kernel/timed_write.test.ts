/**
 * Timed register writes (rtl/kernel/timed_write.ts, docs/kernel.md "Timed
 * register writes"): a unit arms a one-bit register `q` at a rise of its
 * input and drops it d + 1 edges later. The reference mode's process runs
 * every cycle and drops q itself at that edge (it compares the cycle with
 * its `due` register); in the fast mode the process runs only when its
 * inputs change, and q's fall is a timed write. A watcher reads q (counts
 * its changes): the commit of a timed write must mark it.
 *
 * Fast mode against the reference mode at every cycle (every register and
 * wire), with pokes of q and of `due` before the write's edge, snapshots
 * with a write pending saved and restored in either mode, mode switches both
 * ways and a reset. Negative controls: the write scheduled one edge late;
 * a re-arm that does not cancel the earlier write.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Module, Simulator, type Signal, type SimMode } from '../../rtl/kernel/index.ts';

interface Faults {
  late?: boolean;
  noCancel?: boolean;
}

class Dropper extends Module {
  readonly pin: Signal;
  readonly din: Signal;
  readonly q: Signal;
  readonly due: Signal;
  readonly edges: Signal;
  armRuns = 0;
  constructor(f: Faults) {
    super(null, 'top');
    const pin = (this.pin = this.input('pin'));
    const din = (this.din = this.input('din', 3));
    const go = this.reg('go');
    const d = this.reg('d', 3);
    const prev = this.reg('prev');
    const q = (this.q = this.reg('q'));
    const due = (this.due = this.reg('due', 16));
    const ql = this.reg('ql');
    const edges = (this.edges = this.reg('edges', 8));
    this.seq(
      () => {
        const s = this.s;
        s[go.n] = s[pin.i]!;
        s[d.n] = s[din.i]!;
      },
      { reads: [pin, din], name: 'load' },
    );
    const arm = this.seq(
      () => {
        this.armRuns++;
        const s = this.s;
        const c = this.cycleRef.cycle;
        const fast = this.wakeSink!.mode === 'activity';
        // Re-derived at every run (a poked `due` wakes this process): cancelled before q is written here.
        if (fast && !f.noCancel) this.cancelWrites(q);
        s[prev.n] = s[go.i]!;
        let at = s[due.i]!;
        if (s[go.i] === 1 && s[prev.i] === 0) {
          s[q.n] = 1;
          at = c + s[d.i]! + 1;
          s[due.n] = at;
        } else if (c === at) s[q.n] = 0;
        if (fast && at > c) this.writeAt(q, at + (f.late ? 1 : 0), 0);
      },
      { reads: [go, d, prev], writes: [prev, q, due], name: 'arm' },
    );
    void arm;
    this.seq(
      () => {
        const s = this.s;
        s[ql.n] = s[q.i]!;
        if (s[q.i] !== s[ql.i]) s[edges.n] = (s[edges.i]! + 1) & 255;
      },
      { reads: [q, ql, edges], writes: [ql, edges], name: 'watch' },
    );
  }
}

/** One cycle's stimulus: pin, din, and optionally a poke of q or due. */
type Stim = [number, number, number];
const stimuli = fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 19 })), { minLength: 1, maxLength: 120 });

function build(mode: SimMode, f: Faults = {}): { top: Dropper; sim: Simulator } {
  const top = new Dropper(f);
  return { top, sim: new Simulator(top, { mode }) };
}

/** Apply one cycle's stimulus: poke code 0 = poke q to 1, 1 = q to 0, 2 = due to now + 3; else none. */
function apply(top: Dropper, sim: Simulator, [p, x, k]: Stim): void {
  sim.poke(top.pin, p);
  sim.poke(top.din, x);
  if (k === 0) sim.poke(top.q, 1);
  else if (k === 1) sim.poke(top.q, 0);
  else if (k === 2) sim.poke(top.due, sim.cycle + 3);
}

function trace(mode: SimMode, stim: Stim[], f: Faults = {}, pokes = true): number[][] {
  const { top, sim } = build(mode, f);
  return stim.map((st) => {
    apply(top, sim, pokes ? st : [st[0], st[1], 99]);
    sim.step();
    return Array.from(sim.values());
  });
}

describe('timed register writes', () => {
  it('property: fast = reference at every cycle and slot (no pokes)', () => {
    fc.assert(
      fc.property(stimuli, (stim) => {
        expect(trace('activity', stim, {}, false)).toEqual(trace('plain', stim, {}, false));
      }),
    );
  });

  it('property: with pokes of q and of due before the write edge', () => {
    fc.assert(
      fc.property(stimuli, (stim) => {
        expect(trace('activity', stim)).toEqual(trace('plain', stim));
      }),
    );
  });

  it('the fall is committed without running the process, and marks the reader', () => {
    const { top, sim } = build('activity');
    sim.poke(top.pin, 1);
    sim.poke(top.din, 5);
    sim.step(); // go rises
    sim.poke(top.pin, 0);
    sim.step(); // arm runs: q 1, fall at edge 1 + 5 + 1
    sim.step(2); // go falls, prev follows: two more runs
    const runs = top.armRuns;
    expect(sim.peek(top.q)).toBe(1);
    sim.step(4);
    expect(sim.cycle).toBe(8);
    expect(sim.peek(top.q)).toBe(0);
    sim.step(); // the watcher counts the fall at edge 8
    expect(sim.peek(top.edges)).toBe(2);
    expect(top.armRuns).toBe(runs); // edges 4..8: the process did not run, q fell
  });

  it('a process running at the write edge overrides it; writeAt in the reference mode is a no-op', () => {
    // Re-armed exactly at the edge of the pending fall: q stays 1 in both modes.
    const stim: Stim[] = [[1, 0, 99], [0, 0, 99], [1, 3, 99], [0, 0, 99], [0, 0, 99], [0, 0, 99], [0, 0, 99], [0, 0, 99], [0, 0, 99]];
    expect(trace('activity', stim)).toEqual(trace('plain', stim));
    const { top, sim } = build('plain');
    expect(() => top.writeAt(top.q, sim.cycle + 2, 0)).not.toThrow();
    expect(sim.quiescent).toBe(false);
  });

  it('bad arguments: a past cycle, a value too wide, a register of another module, a wire', () => {
    const { top, sim } = build('activity');
    sim.step(3);
    expect(() => top.writeAt(top.q, 1, 0)).toThrow(/writeAt/);
    expect(() => top.writeAt(top.q, 9, 2)).toThrow(/writeAt/);
    expect(() => top.writeAt(top.pin, 9, 0)).toThrow(/not a register/);
  });

  it('fast-forward stops at a pending write; quiescent only without one', () => {
    const { top, sim } = build('activity');
    sim.poke(top.pin, 1);
    sim.poke(top.din, 7);
    sim.step();
    sim.poke(top.pin, 0);
    sim.step(3);
    expect(sim.quiescent).toBe(false); // the fall at edge 9 is pending
    sim.step(20);
    expect(sim.peek(top.q)).toBe(0);
    expect(sim.peek(top.edges)).toBe(2);
    expect(sim.quiescent).toBe(true);
  });

  it('snapshots with a write pending, saved and restored in either mode; mode switches both ways; reset', () => {
    fc.assert(
      fc.property(stimuli, fc.nat(119), fc.constantFrom<SimMode>('activity', 'plain'), fc.constantFrom<SimMode>('activity', 'plain'), (stim, at, saveMode, restoreMode) => {
        const cut = at % stim.length;
        const ref = trace('plain', stim);
        const { top, sim } = build(saveMode);
        stim.slice(0, cut).forEach((st) => {
          apply(top, sim, st);
          sim.step();
        });
        const snap = sim.save();
        // Run on past the cut (maybe across the pending write), switch mode, reset, then restore.
        stim.slice(cut).forEach((st) => {
          apply(top, sim, st);
          sim.step();
        });
        sim.setMode(saveMode === 'activity' ? 'plain' : 'activity');
        sim.reset();
        sim.setMode(restoreMode);
        sim.restore(snap);
        stim.slice(cut).forEach((st, k) => {
          apply(top, sim, st);
          sim.step();
          expect(Array.from(sim.values())).toEqual(ref[cut + k]);
        });
      }),
    );
  });

  it('a mode switch in the middle of a pending write, both ways', () => {
    fc.assert(
      fc.property(stimuli, fc.array(fc.nat(119), { maxLength: 6 }), (stim, switches) => {
        const ref = trace('plain', stim);
        const { top, sim } = build('activity');
        stim.forEach((st, k) => {
          if (switches.includes(k)) sim.setMode(sim.mode === 'activity' ? 'plain' : 'activity');
          apply(top, sim, st);
          sim.step();
          expect(Array.from(sim.values())).toEqual(ref[k]);
        });
      }),
    );
  });

  it('reset drops pending writes', () => {
    const { top, sim } = build('activity');
    sim.poke(top.pin, 1);
    sim.poke(top.din, 7);
    sim.step(2);
    sim.reset();
    sim.step(); // due 0 = cycle 0: the reference drops q at edge 0
    sim.poke(top.q, 1); // q 1 by a poke: no write pending may drop it
    sim.step(20);
    expect(sim.peek(top.q)).toBe(1);
  });

  // Armed with d = 3 at edge 1 (fall at 5), re-armed with d = 7 at edge 3 (fall at 11): a case each fault changes.
  const controlCase: Stim[] = [[1, 3, 99], [0, 0, 99], [1, 7, 99], [0, 0, 99], ...Array.from({ length: 12 }, (): Stim => [0, 0, 99])];
  for (const [name, f] of [['written one edge late', { late: true }], ['a re-arm not cancelling the earlier write', { noCancel: true }]] as const) {
    it(`negative control: ${name} differs from the reference`, () => {
      const r = fc.check(
        fc.property(stimuli, (stim) => {
          expect(trace('activity', stim, f, false)).toEqual(trace('plain', stim, f, false));
        }),
        { examples: [[controlCase]] },
      );
      expect(r.failed).toBe(true);
    });
  }
});
