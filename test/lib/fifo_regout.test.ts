/**
 * The FIFO's registered outputs (rtl/lib/fifo.ts, option registeredOut;
 * docs/kernel.md "Stop 22: FIFOs and C104"):
 *  - against the comb outputs: the same random held stimulus into a FIFO
 *    with registeredOut and one without (both with and without the folded
 *    glue, 'drop' policies, depths 1..5), dout, full, empty, valid and count
 *    equal at every cycle, in both modes;
 *  - fast ('activity') = reference ('plain') at every cycle, the whole state
 *    (test/lib/lockstep_sim.ts), with memory words poked on the way;
 *  - negative control: the edge blind to its memory (FIFO_FAULT.memBlind)
 *    is seen by that lock-step;
 *  - the documented difference: a poked memory word at the head shows at the
 *    registered dout after one edge, at the comb one at once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Module, Simulator, type Signal } from '../../rtl/kernel/index.ts';
import { Fifo, FIFO_FAULT } from '../../rtl/lib/fifo.ts';
import { Lockstep } from './lockstep_sim.ts';
import { Drive, joinDrive } from './fifo_drive.ts';

/** A registered FIFO and a comb one behind the same drive. */
class Pair extends Module {
  readonly d = new Drive(this, 'd');
  readonly rf: Fifo;
  readonly cf: Fifo;
  constructor(depth: number, glue: boolean) {
    super(null, 'top');
    const opts = { width: 8, depth, onOverflow: 'drop' as const, onUnderflow: 'drop' as const, ...(glue ? { pushEnable: true, popOr: true, valid: true } : {}) };
    this.rf = new Fifo(this, 'reg', { ...opts, registeredOut: true });
    this.cf = new Fifo(this, 'comb', opts);
    for (const f of [this.rf, this.cf]) joinDrive(this, this.d, f, glue);
  }
}

interface Op {
  hold: number;
  key: 'push' | 'pushEn' | 'pop' | 'pop2' | 'din' | 'mem';
  v: number;
}

const keys = ['push', 'pushEn', 'pop', 'pop2', 'din'] as const;
const stimOf = (k: readonly Op['key'][]): fc.Arbitrary<Op[]> =>
  fc.array(fc.record({ hold: fc.integer({ min: 1, max: 6 }), key: fc.constantFrom(...k), v: fc.nat(255) }), { minLength: 10, maxLength: 120 });
const stim = stimOf(keys);
/** With memory pokes (`mem`) among the inputs' changes. */
const withMem = stimOf([...keys, 'mem']);

/** Apply the stimulus; `mem` pokes word v % depth of both FIFOs' memories with v. */
function drive(poke: (sel: (p: Pair) => Signal, v: number) => void, pokeMem: (v: number) => void, step: () => void, ops: readonly Op[]): void {
  for (const o of ops) {
    if (o.key === 'mem') pokeMem(o.v);
    else poke((p) => p.d[o.key as 'din'], o.key === 'din' ? o.v : o.v & 1);
    for (let c = 0; c < o.hold; c++) step();
  }
}

const outs = (sim: Simulator, f: Fifo): number[] => [f.dout, f.full, f.empty, f.count, ...(f.valid ? [f.valid] : [])].map((x) => sim.peek(x));

describe('Fifo registeredOut', () => {
  it('equals the comb outputs at every cycle (both modes, with and without the folded glue)', () => {
    fc.assert(
      fc.property(stim, fc.integer({ min: 1, max: 5 }), fc.boolean(), fc.constantFrom('plain' as const, 'activity' as const), (ops, depth, glue, mode) => {
        const top = new Pair(depth, glue);
        const sim = new Simulator(top, { mode });
        drive((sel, v) => sim.poke(sel(top), v), () => {}, () => {
          sim.step();
          expect(outs(sim, top.rf)).toEqual(outs(sim, top.cf));
        }, ops);
      }),
      { numRuns: 200 },
    );
  });

  const lockstep = (ops: Op[], depth: number, glue: boolean): void => {
    const ls = new Lockstep(() => new Pair(depth, glue));
    const pokeMem = (v: number): void => {
      ls.simP.pokeMem(ls.plain.rf.mem, v % depth, v);
      ls.simA.pokeMem(ls.active.rf.mem, v % depth, v);
    };
    drive((sel, v) => ls.poke(sel, v), pokeMem, () => ls.step(), ops);
  };

  it('fast = reference at every cycle, memory words poked on the way', () => {
    fc.assert(fc.property(withMem, fc.integer({ min: 1, max: 5 }), fc.boolean(), (ops, depth, glue) => lockstep(ops, depth, glue)), { numRuns: 150 });
  });

  it('negative control: the edge blind to its memory is seen by the lock-step', () => {
    FIFO_FAULT.memBlind = true;
    try {
      const ops: Op[] = [{ hold: 1, key: 'din', v: 7 }, { hold: 1, key: 'push', v: 1 }, { hold: 3, key: 'push', v: 0 }, { hold: 3, key: 'mem', v: 0 }];
      expect(() => lockstep(ops, 4, false)).toThrow(/reg\.dout is 0 in plain mode but 7 in activity mode/);
    } finally {
      FIFO_FAULT.memBlind = false;
    }
  });

  it('a poked head word: the comb dout at once, the registered one after one edge', () => {
    const top = new Pair(4, false);
    const sim = new Simulator(top, { mode: 'activity' });
    sim.poke(top.d.din, 7);
    sim.poke(top.d.push, 1);
    sim.step();
    sim.poke(top.d.push, 0);
    sim.step();
    expect([sim.peek(top.rf.dout), sim.peek(top.cf.dout)]).toEqual([7, 7]);
    sim.pokeMem(top.rf.mem, 0, 9);
    sim.pokeMem(top.cf.mem, 0, 9);
    expect([sim.peek(top.rf.dout), sim.peek(top.cf.dout)]).toEqual([7, 9]);
    sim.step();
    expect([sim.peek(top.rf.dout), sim.peek(top.cf.dout)]).toEqual([9, 9]);
  });
});
