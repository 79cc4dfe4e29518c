/**
 * The FIFO's folded glue (rtl/lib/fifo.ts, options pushEnable, popOr, valid;
 * docs/kernel.md "Stop 21: FIFOs and C104 per token"):
 *  - against the glue it replaces: a plain FIFO fed by a comb computing
 *    push = push & pushEn and pop = pop | pop2, with valid = not empty, on
 *    random held stimulus (one input changed at a time, then held), every
 *    cycle, with the 'drop' policies;
 *  - fast ('activity') = reference ('plain') at every cycle, the whole state
 *    (test/lib/lockstep_sim.ts), which is what the guarded reads of din and
 *    pushEn (read only while push is 1) must keep;
 *  - negative control: the edge blind to pushEn (FIFO_FAULT.enableBlind) is
 *    seen by that lock-step.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Module, Simulator, type Signal } from '../../rtl/kernel/index.ts';
import { Fifo, FIFO_FAULT } from '../../rtl/lib/fifo.ts';
import { Lockstep } from './lockstep_sim.ts';
import { Drive } from './fifo_drive.ts';

/** The folded FIFO beside a plain one with the glue as a comb of its own. */
class Pair extends Module {
  readonly d = new Drive(this, 'd');
  readonly folded: Fifo;
  readonly plain: Fifo;
  readonly glued: Signal;
  constructor(depth: number) {
    super(null, 'top');
    const { d } = this;
    const opts = { width: 8, depth, onOverflow: 'drop' as const, onUnderflow: 'drop' as const };
    const folded = (this.folded = new Fifo(this, 'folded', { ...opts, pushEnable: true, popOr: true, valid: true }));
    const plain = (this.plain = new Fifo(this, 'plain', opts));
    for (const f of [folded, plain]) this.connect(d.din, f.din);
    this.connect(d.push, folded.push);
    this.connect(d.pushEn, folded.pushEn!);
    this.connect(d.pop, folded.pop);
    this.connect(d.pop2, folded.pop2!);
    const push = this.wire('push');
    const pop = this.wire('pop');
    this.connect(push, plain.push);
    this.connect(pop, plain.pop);
    this.glued = this.wire('valid');
    // The drive's registers and the plain FIFO's empty through wires of this module (a unit reads its own signals).
    const [pu, pe, po, p2, em] = ([[d.push, 'pu'], [d.pushEn, 'pe'], [d.pop, 'po'], [d.pop2, 'p2'], [plain.empty, 'em']] as const).map(([x, n]) => {
      const w = this.wire(n);
      this.connect(x, w);
      return w;
    }) as [Signal, Signal, Signal, Signal, Signal];
    this.comb(
      () => {
        const s = this.s;
        s[push.i] = s[pu.i]! & s[pe.i]!;
        s[pop.i] = s[po.i]! | s[p2.i]!;
        s[this.glued.i] = 1 - s[em.i]!;
      },
      { writes: [push, pop, this.glued], reads: [pu, pe, po, p2, em] },
    );
  }
}

/** One input changed, then held `hold` cycles (so a push stays up while its enable changes alone). */
interface Op {
  hold: number;
  key: 'push' | 'pushEn' | 'pop' | 'pop2' | 'din';
  v: number;
}

const stim: fc.Arbitrary<Op[]> = fc.array(
  fc.record({ hold: fc.integer({ min: 1, max: 6 }), key: fc.constantFrom('push' as const, 'pushEn' as const, 'pop' as const, 'pop2' as const, 'din' as const), v: fc.nat(255) }),
  { minLength: 10, maxLength: 120 },
);

/** Apply the stimulus; `step` steps one cycle (and checks). */
function drive(poke: (sel: (p: Pair) => Signal, v: number) => void, step: () => void, ops: readonly Op[]): void {
  for (const o of ops) {
    poke((p) => p.d[o.key], o.key === 'din' ? o.v : o.v & 1);
    for (let c = 0; c < o.hold; c++) step();
  }
}

describe('Fifo folded glue (pushEnable, popOr, valid)', () => {
  it('equals a plain FIFO behind the glue comb, every cycle (both modes)', () => {
    fc.assert(
      fc.property(stim, fc.integer({ min: 1, max: 5 }), fc.constantFrom('plain' as const, 'activity' as const), (ops, depth, mode) => {
        const top = new Pair(depth);
        const sim = new Simulator(top, { mode });
        const check = (): void => {
          const f = top.folded;
          const g = top.plain;
          expect([sim.peek(f.count), sim.peek(f.dout), sim.peek(f.full), sim.peek(f.empty), sim.peek(f.valid!)]).toEqual([sim.peek(g.count), sim.peek(g.dout), sim.peek(g.full), sim.peek(g.empty), sim.peek(top.glued)]);
        };
        drive((sel, v) => sim.poke(sel(top), v), () => (sim.step(), check()), ops);
      }),
      { numRuns: 150 },
    );
  });

  it('fast = reference at every cycle (guarded din and pushEn)', () => {
    fc.assert(
      fc.property(stim, fc.integer({ min: 1, max: 5 }), (ops, depth) => {
        const ls = new Lockstep(() => new Pair(depth));
        drive((sel, v) => ls.poke(sel, v), () => ls.step(), ops);
      }),
      { numRuns: 150 },
    );
  });

  it('negative control: the edge blind to pushEn is seen by the lock-step', () => {
    FIFO_FAULT.enableBlind = true;
    try {
      expect(() =>
        fc.assert(
          fc.property(stim, fc.integer({ min: 1, max: 5 }), (ops, depth) => {
            const ls = new Lockstep(() => new Pair(depth));
            drive((sel, v) => ls.poke(sel, v), () => ls.step(), ops);
          }),
          { numRuns: 150 },
        ),
      ).toThrow();
    } finally {
      FIFO_FAULT.enableBlind = false;
    }
  });
});
