/**
 * Late guards (`readsWhen: [{ when, bits, reads, late: true }]`, seq
 * processes only; rtl/kernel/late_guards.ts, docs/kernel.md "Exact
 * sensitivity"): a change of a guarded read wakes the process if the guard
 * holds at the next clock edge, not at the change. The case it is for: a
 * reader that acts at each edge where a pulse stands (a FIFO's push), whose
 * own register changes at the commit while the pulse, a comb signal of the
 * cycle before, still reads 1; looked at then, the reader ran again one
 * cycle later for nothing.
 *
 * The pulse `p` is a comb copy of a register loaded from an input (random
 * stimuli, held 1 for one or several cycles); the reader counts, at each
 * edge where p is 1, p's cycles and an input `x`. Fast mode against the
 * reference mode at every cycle, with snapshots saved and restored in either
 * mode; the reader's runs counted (one per edge where p stands; without
 * `late`, one more after each pulse); negative control: a reader that also
 * acts while p is 0 is wrong under the same declaration.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Module, Simulator, type Signal, type SimMode } from '../../rtl/kernel/index.ts';

class Pulsed extends Module {
  readonly pin: Signal;
  readonly xin: Signal;
  readonly cnt: Signal;
  readonly sum: Signal;
  runs = 0;
  constructor(late: boolean, actsAtZero = false) {
    super(null, 'top');
    const pin = (this.pin = this.input('pin'));
    const xin = (this.xin = this.input('xin', 4));
    const pr = this.reg('pr');
    const x = this.reg('x', 4);
    const cnt = (this.cnt = this.reg('cnt', 8));
    const sum = (this.sum = this.reg('sum', 8));
    const p = this.wire('p');
    this.comb(() => void (this.s[p.i] = this.s[pr.i]!), { writes: [p], reads: [pr], name: 'copy' });
    this.seq(
      () => {
        const s = this.s;
        s[pr.n] = s[pin.i]!;
        s[x.n] = s[xin.i]!;
      },
      { reads: [pin, xin], writes: [pr, x], name: 'load' },
    );
    this.seq(
      () => {
        this.runs++;
        const s = this.s;
        if (s[p.i] === 1) {
          s[cnt.n] = (s[cnt.i]! + 1) & 255;
          s[sum.n] = (s[sum.i]! + s[x.i]!) & 255;
        } else if (actsAtZero) s[cnt.n] = (s[cnt.i]! + 16) & 255;
      },
      { reads: [], writes: [cnt, sum], readsWhen: [{ when: p, bits: 1, reads: [cnt, sum, x], rise: true, late }], name: 'count' },
    );
  }
}

type Stim = [number, number][];

function trace(mode: SimMode, stim: Stim, late = true, actsAtZero = false, snapAt = -1, restoreMode: SimMode = mode): { out: number[][]; runs: number } {
  const top = new Pulsed(late, actsAtZero);
  let sim = new Simulator(top, { mode });
  let cur = top;
  const out: number[][] = [];
  stim.forEach(([p, x], k) => {
    if (k === snapAt) {
      // Saved between cycles (the queue holds the last commit's entries), restored into a fresh machine.
      const snap = sim.save();
      const top2 = new Pulsed(late, actsAtZero);
      const sim2 = new Simulator(top2, { mode: restoreMode });
      sim2.restore(snap);
      sim = sim2;
      cur = top2;
    }
    sim.poke(cur.pin, p);
    sim.poke(cur.xin, x);
    sim.step();
    out.push([sim.peek(cur.cnt), sim.peek(cur.sum)]);
  });
  return { out, runs: top.runs };
}

const stimuli = fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 15 })), { minLength: 1, maxLength: 80 });

describe('late guards', () => {
  it('property: fast = reference at every cycle', () => {
    fc.assert(
      fc.property(stimuli, (stim) => {
        expect(trace('activity', stim).out).toEqual(trace('plain', stim).out);
      }),
    );
  });

  it('property: a snapshot saved with entries queued, restored in either mode, goes on as the reference', () => {
    fc.assert(
      fc.property(stimuli, fc.nat(), fc.constantFrom<SimMode>('activity', 'plain'), (stim, at, rm) => {
        const snapAt = at % stim.length;
        expect(trace('activity', stim, true, false, snapAt, rm).out).toEqual(trace('plain', stim).out);
      }),
    );
  });

  it('a pulse held several cycles runs the reader once per edge it stands, and not after (without late: once more)', () => {
    const stim: Stim = [];
    for (let k = 0; k < 5; k++) stim.push([1, 1], [1, 2], [1, 3], [0, 0], [0, 0], [0, 0]);
    const late = trace('activity', stim, true);
    const early = trace('activity', stim, false);
    expect(late.out).toEqual(trace('plain', stim).out);
    expect(early.out).toEqual(late.out);
    // 15 edges with p standing, plus the start-up run (every process is marked once).
    expect(late.runs).toBe(15 + 1);
    expect(early.runs).toBe(15 + 5 + 1);
  });

  it('queued entries are pending work: fast-forward does not skip the edge that resolves them', () => {
    const top = new Pulsed(true);
    const sim = new Simulator(top, { mode: 'activity' });
    sim.poke(top.pin, 1);
    sim.step(2);
    sim.poke(top.pin, 0);
    sim.step(1);
    expect(sim.quiescent).toBe(false);
    sim.step(5);
    expect(sim.quiescent).toBe(true);
    expect(sim.peek(top.cnt)).toBe(2);
  });

  it('negative control: a reader that acts while the guard is 0 misses runs', () => {
    const stim: Stim = [
      [1, 1],
      [1, 1],
      [0, 0],
      [0, 0],
    ];
    expect(trace('activity', stim, true, true).out).not.toEqual(trace('plain', stim, true, true).out);
  });

  it('a late guard is for seq processes only', () => {
    class Bad extends Module {
      constructor() {
        super(null, 'top');
        const a = this.input('a', 2);
        const g = this.input('g');
        const o = this.output('o', 2);
        this.comb(() => void (this.s[o.i] = this.s[a.i]!), { writes: [o], reads: [], readsWhen: [{ when: g, bits: 1, reads: [a], late: true }], name: 'c' });
      }
    }
    expect(() => new Simulator(new Bad())).toThrow(/late is for seq processes only/);
  });
});
