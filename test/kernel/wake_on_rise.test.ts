/**
 * Wake on rise (`readsWhen: [{ when, bits, reads, rise: true }]`,
 * docs/kernel.md "Stop 21: token layer"): the guard is no plain read, its
 * change wakes the reader only when the new value has `when & bits` set, and
 * `reads` count while it does. For a reader that does nothing while the
 * guard is 0 (the DS-link's `advance` while `take` is 0, the credit count
 * while no pulse stands): a one-cycle pulse wakes it once, not twice.
 *
 * The pulse `p` comes from a register loaded from an input (random stimuli,
 * held 1 for one or several cycles); the reader counts, at each edge where
 * p is 1, p's cycles and an input `x` (a guarded read). Fast mode against
 * the reference mode at every cycle; the reader's runs counted; negative
 * control: a reader that also acts while p is 0 (counts p's 0 cycles) is
 * wrong under the same declaration.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Module, Simulator, type Signal, type SimMode } from '../../rtl/kernel/index.ts';

class Riser extends Module {
  readonly pin: Signal;
  readonly xin: Signal;
  readonly cnt: Signal;
  readonly sum: Signal;
  runs = 0;
  constructor(actsAtZero: boolean, combGuard: boolean) {
    super(null, 'top');
    const pin = (this.pin = this.input('pin'));
    const xin = (this.xin = this.input('xin', 4));
    const pr = this.reg('pr');
    const x = this.reg('x', 4);
    const cnt = (this.cnt = this.reg('cnt', 8));
    const sum = (this.sum = this.reg('sum', 8));
    // The guard: the register itself, or a comb copy of it (a pulse computed by comb logic, like `take`).
    const p = combGuard ? this.wire('p') : pr;
    if (combGuard) this.comb(() => void (this.s[p.i] = this.s[pr.i]!), { writes: [p], reads: [pr], name: 'copy' });
    this.seq(
      () => {
        const s = this.s;
        s[pr.n] = s[pin.i]!;
        s[x.n] = s[xin.i]!;
      },
      { reads: [pin, xin], name: 'load' },
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
      { reads: [], readsWhen: [{ when: p, bits: 1, reads: [cnt, sum, x], rise: true }], name: 'count' },
    );
  }
}

function trace(mode: SimMode, stim: [number, number][], actsAtZero = false, combGuard = false): { out: number[][]; runs: number } {
  const top = new Riser(actsAtZero, combGuard);
  const sim = new Simulator(top, { mode });
  const out = stim.map(([p, x]) => {
    sim.poke(top.pin, p);
    sim.poke(top.xin, x);
    sim.step();
    return [sim.peek(top.cnt), sim.peek(top.sum)];
  });
  return { out, runs: top.runs };
}

const stimuli = fc.array(fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 15 })), { minLength: 1, maxLength: 80 });

describe('wake on rise', () => {
  for (const combGuard of [false, true]) {
    it(`property: fast = reference at every cycle (guard a ${combGuard ? 'comb wire' : 'register'})`, () => {
      fc.assert(
        fc.property(stimuli, (stim) => {
          expect(trace('activity', stim, false, combGuard).out).toEqual(trace('plain', stim, false, combGuard).out);
        }),
      );
    });
  }

  it('a one-cycle pulse runs the reader once (a plain read of the guard: twice)', () => {
    const stim: [number, number][] = [];
    for (let k = 0; k < 10; k++) stim.push([1, 3], [0, 3], [0, 3]);
    const t = trace('activity', stim);
    expect(t.out.at(-1)).toEqual([10, 30]);
    // one run at each of the 10 edges where p is 1 (the start-up marks every process once)
    expect(t.runs).toBe(10 + 1);
  });

  it('a pulse held several cycles: a run at every edge it stands (the reader\'s own register changes wake it)', () => {
    const t = trace('activity', [[1, 1], [1, 2], [1, 3], [1, 4], [0, 0], [0, 0]]);
    expect(t.out).toEqual(trace('plain', [[1, 1], [1, 2], [1, 3], [1, 4], [0, 0], [0, 0]]).out);
  });

  it('negative control: a reader that acts while the guard is 0 misses runs', () => {
    const stim: [number, number][] = [
      [1, 1],
      [0, 0],
      [0, 0],
      [0, 0],
    ];
    expect(trace('activity', stim, true).out).not.toEqual(trace('plain', stim, true).out);
  });

  it('a rise guard is only a bits guard of its own module', () => {
    class Bad extends Module {
      constructor() {
        super(null, 'top');
        const a = this.input('a', 2);
        const o = this.output('o', 2);
        this.comb(() => void (this.s[o.i] = this.s[a.i]!), { writes: [o], reads: [], readsWhen: [{ when: o, bits: 1, reads: [a], rise: true }], name: 'self' });
      }
    }
    expect(() => new Simulator(new Bad())).toThrow(/readsWhen guard/);
  });
});
