/**
 * Guarded reads (docs/kernel.md "Exact sensitivity"): a read that matters only
 * while a guard register is in certain states wakes its reader only then, and
 * a guarded read may be driven by comb logic (the node input port's line bit
 * comes through the crossbar's data path): the reader is ordered after the
 * driver, and the guard, a register, is settled before any comb runs.
 *
 * The unit declares the guarded reader before the comb that drives what it
 * reads, so only the ordering edge of the guarded read makes it see the
 * settled value. Random stimuli, fast mode against the reference mode at every
 * cycle; negative control: a reader guarded on the wrong state misses changes.
 *
 * The same with a guard that is itself comb logic (a select decoded from the
 * register, docs/kernel.md "Exact sensitivity"): the guard may be seen before
 * it settles when the guarded wire changes, and its own change wakes the
 * reader; the decoder is declared after the reader too.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Module, Simulator, type Signal, type SimMode } from '../../rtl/kernel/index.ts';

/**
 * The reader's guard: 'reg', the register g (read at g = 1); 'comb', a wire
 * `sel` = g + 1 (read at sel = 2, i.e. g = 1); 'bits', an 8-bit wire `sel` =
 * (g + 1) * 0x11, a `bits` guard (read while sel & 0x20, i.e. g = 1 or 2).
 * `guardIs` is the `is` value or the `bits` mask.
 */
type GuardKind = 'reg' | 'comb' | 'bits';
class Guarded extends Module {
  readonly xin: Signal;
  readonly gin: Signal;
  readonly out: Signal;
  constructor(guardIs: number, kind: GuardKind = 'reg') {
    super(null, 'top');
    const xin = (this.xin = this.input('xin', 4));
    const gin = (this.gin = this.input('gin', 2));
    const x = this.reg('x', 4);
    const g = this.reg('g', 2);
    const w = this.wire('w', 4);
    const out = (this.out = this.output('out', 4));
    const guard = kind === 'reg' ? g : this.wire('sel', kind === 'bits' ? 8 : 2);
    const reads = (v: number): boolean => (kind === 'bits' ? (v & 0x20) !== 0 : v === (kind === 'comb' ? 2 : 1));
    // the guarded reader first: static order alone would run it before w's driver (and sel's)
    this.comb(
      () => {
        const s = this.s;
        s[out.i] = reads(s[guard.i]!) ? s[w.i]! : 0;
      },
      { writes: [out], reads: [guard], readsWhen: [kind === 'bits' ? { when: guard, bits: guardIs, reads: [w] } : { when: guard, is: [guardIs], reads: [w] }], name: 'reader' },
    );
    if (kind !== 'reg') {
      this.comb(
        () => {
          this.s[guard.i] = kind === 'bits' ? (this.s[g.i]! + 1) * 0x11 : (this.s[g.i]! + 1) & 3;
        },
        { writes: [guard], reads: [g], name: 'decode' },
      );
    }
    this.comb(
      () => {
        this.s[w.i] = (this.s[x.i]! * 3) & 15;
      },
      { writes: [w], reads: [x], name: 'driver' },
    );
    this.seq(
      () => {
        const s = this.s;
        s[x.n] = s[xin.i]!;
        s[g.n] = s[gin.i]!;
      },
      { reads: [xin, gin], name: 'load' },
    );
  }
}

/** Out at every cycle for a stimulus sequence. */
function trace(mode: SimMode, guardIs: number, stim: [number, number][], kind: GuardKind = 'reg'): number[] {
  const top = new Guarded(guardIs, kind);
  const sim = new Simulator(top, { mode });
  return stim.map(([x, g]) => {
    sim.poke(top.xin, x);
    sim.poke(top.gin, g);
    sim.step();
    return sim.peek(top.out);
  });
}

const stimuli = fc.array(fc.tuple(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 60 });

const cases: { title: string; kind: GuardKind; is: number; wrong: number; control: string }[] = [
  { title: 'guarded reads driven by comb logic', kind: 'reg', is: 1, wrong: 2, control: 'a reader guarded on the wrong state misses the changes' },
  { title: 'guards that are comb-driven signals', kind: 'comb', is: 2, wrong: 3, control: 'a reader guarded on the wrong select value misses the changes' },
  // the bit form (docs/kernel.md "Exact sensitivity"): 0x22 tests bits 1 and 5, exact for g = 1, 2; 0x40 only g = 3
  { title: 'bits guards (a mask of a comb-driven signal)', kind: 'bits', is: 0x22, wrong: 0x40, control: 'a reader guarded on the wrong bits misses the changes' },
];

for (const c of cases) {
  describe(c.title, () => {
    it('property: the fast mode equals the reference mode at every cycle', () => {
      fc.assert(
        fc.property(stimuli, (stim) => {
          expect(trace('activity', c.is, stim, c.kind)).toEqual(trace('plain', c.is, stim, c.kind));
        }),
      );
    });

    it('the reader does not run when the guarded wire changes outside its guard state', () => {
      const top = new Guarded(c.is, c.kind);
      const sim = new Simulator(top);
      sim.poke(top.gin, 0);
      sim.step(2);
      const e0 = sim.evaluations;
      for (let x = 1; x <= 8; x++) {
        sim.poke(top.xin, x);
        sim.step();
      }
      // per cycle: load (poked input) and driver (x changed); never the reader (nor the decoder: g holds)
      expect(sim.evaluations - e0).toBe(8 * 2);
    });

    it(`negative control: ${c.control}`, () => {
      const stim: [number, number][] = [
        [0, 1],
        [5, 1],
        [7, 1],
      ];
      expect(trace('plain', c.wrong, stim, c.kind)).toEqual([0, 15, 5]);
      expect(trace('activity', c.wrong, stim, c.kind)).not.toEqual(trace('plain', c.wrong, stim, c.kind));
    });
  });
}

describe('guards that are comb-driven signals: limits', () => {
  it('a comb process may not guard on what it writes itself', () => {
    class Self extends Module {
      constructor() {
        super(null, 'top');
        const a = this.input('a', 2);
        const o = this.output('o', 2);
        this.comb(() => void (this.s[o.i] = this.s[a.i]!), { writes: [o], reads: [], readsWhen: [{ when: o, is: [1], reads: [a] }], name: 'self' });
      }
    }
    expect(() => new Simulator(new Self())).toThrow(/must be a signal of its module that it does not write/);
  });

  it('an `is` guard is at most 5 bits; a `bits` mask is nonzero and within its guard', () => {
    class Wide extends Module {
      constructor(g: { is: number[] } | { bits: number }) {
        super(null, 'top');
        const a = this.input('a', 2);
        const sel = this.input('sel', 8);
        const o = this.output('o', 2);
        this.comb(() => void (this.s[o.i] = this.s[a.i]!), { writes: [o], reads: [], readsWhen: [{ when: sel, reads: [a], ...g }], name: 'r' });
      }
    }
    expect(() => new Simulator(new Wide({ is: [1] }))).toThrow(/at most 5 bits wide/);
    expect(() => new Simulator(new Wide({ bits: 0 }))).toThrow(/nonzero mask within guard/);
    expect(() => new Simulator(new Wide({ bits: 0x100 }))).toThrow(/nonzero mask within guard/);
    expect(() => new Simulator(new Wide({ bits: 0x80 }))).not.toThrow();
  });

  it('an `is` guard names values its guard can take (a value past its width would never match, or wrap in the mask)', () => {
    class Narrow extends Module {
      constructor(is: number[]) {
        super(null, 'top');
        const a = this.input('a', 2);
        const sel = this.input('sel', 2);
        const o = this.output('o', 2);
        this.comb(() => void (this.s[o.i] = this.s[a.i]!), { writes: [o], reads: [], readsWhen: [{ when: sel, is, reads: [a] }], name: 'r' });
      }
    }
    for (const bad of [[4], [-1], [1.5], []]) expect(() => new Simulator(new Narrow(bad))).toThrow(/\.r: readsWhen is \[.*\] must name values of guard (top\.)?sel \(0\.\.3\)$/);
    expect(() => new Simulator(new Narrow([0, 3]))).not.toThrow();
  });

  it('a `bits` guard wakes the reader in every state it names (g = 1 and g = 2 under 0x22)', () => {
    for (const g of [1, 2]) {
      const top = new Guarded(0x22, 'bits');
      const sim = new Simulator(top);
      sim.poke(top.gin, g);
      sim.step(2);
      for (let x = 1; x <= 4; x++) {
        sim.poke(top.xin, x);
        sim.step();
        sim.step();
        expect(sim.peek(top.out)).toBe((x * 3) & 15);
      }
    }
  });
});
