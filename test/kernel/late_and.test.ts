/**
 * Late guards with a conjunction (`readsWhen: [{ when, bits, reads, rise:
 * true, late: true, and }]`, rtl/kernel/late_guards.ts, docs/kernel.md "Stop
 * 25: token layer"): the guard holds while `when & bits` and `and` are both
 * not 0 at the clock edge; the rise of `when` queues the process rather than
 * waking it, so a pulse that rises while `and` is 0 (a FIFO's push while
 * the buffer is full) runs nothing.
 *
 * Two comb pulses `p` and `q` (copies of registers loaded from inputs,
 * random stimuli); the reader counts, at each edge where both stand, and
 * adds an input `x`. Fast mode against the reference mode at every cycle,
 * with snapshots saved and restored in either mode; the reader's runs
 * counted (one per edge where p and q stand; without `and`, also one per
 * rise of p while q is 0). Negative control: `lateGuardFault.andInverted`
 * (the conjunction tested against `and` = 0) misses the edges where both
 * stand.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Module, Simulator, type Signal, type SimMode } from '../../rtl/kernel/index.ts';
import { lateGuardFault } from '../../rtl/kernel/late_guards.ts';

afterEach(() => {
  lateGuardFault.andInverted = false;
});

class Both extends Module {
  readonly pin: Signal;
  readonly qin: Signal;
  readonly xin: Signal;
  readonly cnt: Signal;
  readonly sum: Signal;
  runs = 0;
  constructor(withAnd: boolean) {
    super(null, 'top');
    const pin = (this.pin = this.input('pin'));
    const qin = (this.qin = this.input('qin'));
    const xin = (this.xin = this.input('xin', 4));
    const pr = this.reg('pr');
    const qr = this.reg('qr');
    const x = this.reg('x', 4);
    const cnt = (this.cnt = this.reg('cnt', 8));
    const sum = (this.sum = this.reg('sum', 8));
    const p = this.wire('p');
    const q = this.wire('q');
    this.comb(() => void (this.s[p.i] = this.s[pr.i]!), { writes: [p], reads: [pr], name: 'copyP' });
    this.comb(() => void (this.s[q.i] = this.s[qr.i]!), { writes: [q], reads: [qr], name: 'copyQ' });
    this.seq(
      () => {
        const s = this.s;
        s[pr.n] = s[pin.i]!;
        s[qr.n] = s[qin.i]!;
        s[x.n] = s[xin.i]!;
      },
      { reads: [pin, qin, xin], writes: [pr, qr, x], name: 'load' },
    );
    this.seq(
      () => {
        this.runs++;
        const s = this.s;
        if (s[p.i] === 1 && s[q.i] === 1) {
          s[cnt.n] = (s[cnt.i]! + 1) & 255;
          s[sum.n] = (s[sum.i]! + s[x.i]!) & 255;
        }
      },
      { reads: [], writes: [cnt, sum], readsWhen: [{ when: p, bits: 1, reads: [cnt, sum, x, q], rise: true, late: true, ...(withAnd ? { and: q } : {}) }], name: 'count' },
    );
  }
}

type Stim = [number, number, number][];

function trace(mode: SimMode, stim: Stim, withAnd = true, snapAt = -1, restoreMode: SimMode = mode): { out: number[][]; runs: number } {
  const top = new Both(withAnd);
  let sim = new Simulator(top, { mode });
  let cur = top;
  const out: number[][] = [];
  stim.forEach(([p, q, x], k) => {
    if (k === snapAt) {
      const snap = sim.save();
      const top2 = new Both(withAnd);
      const sim2 = new Simulator(top2, { mode: restoreMode });
      sim2.restore(snap);
      sim = sim2;
      cur = top2;
    }
    sim.poke(cur.pin, p);
    sim.poke(cur.qin, q);
    sim.poke(cur.xin, x);
    sim.step();
    out.push([sim.peek(cur.cnt), sim.peek(cur.sum)]);
  });
  return { out, runs: top.runs };
}

const bit = fc.integer({ min: 0, max: 1 });
const stimuli = fc.array(fc.tuple(bit, bit, fc.integer({ min: 0, max: 15 })), { minLength: 1, maxLength: 80 });

describe('late guards with a conjunction', () => {
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
        expect(trace('activity', stim, true, at % stim.length, rm).out).toEqual(trace('plain', stim).out);
      }),
    );
  });

  it('runs: one per edge where both stand; without the conjunction also one per rise of p while q is 0', () => {
    // p rises while q is 0 (5 times), q joins later for two edges; p held alone.
    const stim: Stim = [];
    for (let k = 0; k < 5; k++) stim.push([1, 0, 1], [1, 0, 2], [1, 1, 3], [1, 1, 4], [0, 1, 0], [0, 0, 0]);
    const both = trace('activity', stim, true);
    const plainAnd = trace('activity', stim, false);
    expect(both.out).toEqual(trace('plain', stim).out);
    expect(plainAnd.out).toEqual(both.out);
    // The stimuli reach p and q one edge after they are poked, so both stand at 10 edges; plus the start-up run.
    expect(both.runs).toBe(10 + 1);
    // Without `and`: in each round p's rise wakes it at once though q is 0, and x's change queues it for the next edge, p still 1 and q 0: 2 runs more.
    expect(plainAnd.runs).toBe(10 + 1 + 10);
  });

  it('property: the reader runs exactly at the edges where both stand (after the start-up run)', () => {
    fc.assert(
      fc.property(stimuli, (stim) => {
        const t = trace('activity', stim);
        // p and q stand at edge k + 1 when poked 1 at step k (loaded at edge k, copied by the comb).
        let edges = 0;
        for (let k = 0; k + 1 < stim.length; k++) if (stim[k]![0] === 1 && stim[k]![1] === 1) edges++;
        expect(t.runs).toBe(1 + edges);
      }),
    );
  });

  it('negative control: the conjunction inverted (holds while and is 0) misses the edges where both stand', () => {
    lateGuardFault.andInverted = true;
    const stim: Stim = [
      [1, 0, 1],
      [1, 1, 2],
      [1, 1, 3],
      [0, 0, 0],
      [0, 0, 0],
    ];
    expect(trace('activity', stim).out).not.toEqual(trace('plain', stim).out);
  });

  it('`and` needs late and must be one of the guard reads', () => {
    class Bad extends Module {
      constructor(late: boolean, inReads: boolean) {
        super(null, 'top');
        const a = this.input('a', 2);
        const g = this.input('g');
        const e = this.input('e');
        const r = this.reg('r', 2);
        this.seq(() => void (this.s[r.n] = this.s[a.i]!), { writes: [r], reads: [], readsWhen: [{ when: g, bits: 1, reads: inReads ? [a, e] : [a], late, and: e }], name: 'c' });
      }
    }
    expect(() => new Simulator(new Bad(false, true))).toThrow(/readsWhen and e needs late: true/);
    expect(() => new Simulator(new Bad(true, false))).toThrow(/must be one of the guard's reads/);
    expect(() => new Simulator(new Bad(true, true))).not.toThrow();
  });
});
