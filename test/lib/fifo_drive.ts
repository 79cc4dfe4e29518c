/**
 * Test helper for the FIFO option tests (fifo_glue, fifo_regout, fifo_late,
 * fifo_push_and): the registers a test pokes as a FIFO's raw pulses; a FIFO
 * with the folded glue behind them, its held stimuli, the lock-step and the
 * run count.
 */
import fc from 'fast-check';
import { Module, Simulator } from '../../rtl/kernel/index.ts';
import { Fifo } from '../../rtl/lib/fifo.ts';
import { Lockstep } from './lockstep_sim.ts';

/** Registers the test pokes: the raw pulses. */
export class Drive extends Module {
  readonly push = this.reg('push');
  readonly pushEn = this.reg('pushEn');
  readonly pop = this.reg('pop');
  readonly pop2 = this.reg('pop2');
  readonly din = this.reg('din', 8);
}

/** The drive's pulses to FIFO f's inputs (pushEn and pop2 with the glue), joined in module m. */
export function joinDrive(m: Module, d: Drive, f: Fifo, glue: boolean): void {
  m.connect(d.din, f.din);
  m.connect(d.push, f.push);
  m.connect(d.pop, f.pop);
  if (glue) {
    m.connect(d.pushEn, f.pushEn!);
    m.connect(d.pop2, f.pop2!);
  }
}

/** One FIFO with the folded glue behind the drive (or without the glue: the plain reads, for the run count). */
export class GlueFifo extends Module {
  readonly d = new Drive(this, 'd');
  readonly f: Fifo;
  constructor(depth: number, regOut: boolean, glue = true, onOverflow: 'drop' | 'error' = 'drop') {
    super(null, 'top');
    const opts = { width: 8, depth, onOverflow, onUnderflow: 'drop' as const, registeredOut: regOut };
    this.f = new Fifo(this, 'f', glue ? { ...opts, pushEnable: true, popOr: true, valid: true } : opts);
    joinDrive(this, this.d, this.f, glue);
  }
}

/** A stimulus: a drive register (or head, count, a memory word: a poke) set to v, then `hold` edges. */
export interface Op {
  hold: number;
  key: 'push' | 'pushEn' | 'pop' | 'pop2' | 'din' | 'head' | 'count' | 'mem';
  v: number;
}

export const driven = ['push', 'pushEn', 'pop', 'pop2', 'din'] as const;
export const stimOf = (k: readonly Op['key'][]): fc.Arbitrary<Op[]> =>
  fc.array(fc.record({ hold: fc.integer({ min: 1, max: 6 }), key: fc.constantFrom(...k), v: fc.nat(255) }), { minLength: 10, maxLength: 120 });

/** The glue FIFO in lock-step, fast against the reference mode (test/lib/lockstep_sim.ts), under `ops`. */
export function lockstep(ops: readonly Op[], depth: number, regOut: boolean, onOverflow: 'drop' | 'error' = 'drop'): void {
  const ls = new Lockstep(() => new GlueFifo(depth, regOut, true, onOverflow));
  for (const o of ops) {
    if (o.key === 'mem') {
      ls.simP.pokeMem(ls.plain.f.mem, o.v % depth, o.v);
      ls.simA.pokeMem(ls.active.f.mem, o.v % depth, o.v);
    } else if (o.key === 'head') ls.poke((u) => u.f.head, o.v % depth);
    else if (o.key === 'count') ls.poke((u) => u.f.count, o.v % (depth + 1));
    else ls.poke((u) => u.d[o.key as 'din'], o.key === 'din' ? o.v : o.v & 1);
    for (let c = 0; c < o.hold; c++) ls.step();
  }
}

/** The FIFO's runs under `ops` (the only process of the design but for none: the drive's registers are only poked). */
export function fifoRuns(ops: readonly Op[], depth: number, glue = true): number {
  const top = new GlueFifo(depth, true, glue);
  const sim = new Simulator(top, { mode: 'activity' });
  const before = sim.evaluations;
  for (const o of ops) {
    sim.poke(top.d[o.key as 'din'], o.v);
    sim.step(o.hold);
  }
  return sim.evaluations - before;
}
