/**
 * FIFO: a circular buffer in a kernel memory, with a head pointer and an
 * occupancy count in registers.
 *
 * Generic unit (ARCHITECTURE.md, rtl/lib). Seed users: the queues of the
 * Buzzard main control unit and node ports (seed 002 §5.4), the DS-link
 * token buffers of thesis 004. Storage is a `memory` rather than registers so
 * depths up to 4096 stay cheap to simulate and to snapshot.
 *
 * Ports (D = depth, W = width, C = bits for 0..D):
 *  inputs   push, din[W], pop
 *  outputs  dout[W]   the head entry (combinational; 0 when empty)
 *           count[C]  entries held (a register, driving the net directly)
 *           full, empty
 *  registers head[A] (A = bits for 0..D-1), count[C]
 *  memory   mem[D] x W
 *
 * Clock edge:
 *  - pop removes the head entry (dout shows it during the cycle of the pop);
 *  - push appends din;
 *  - push and pop together are allowed in any state that has an entry to pop,
 *    including full: the pop frees the slot the push fills, count unchanged;
 *  - push while full without pop is an overflow, pop while empty an underflow.
 *    Policy per config: 'error' (default) stops the simulation with a SimError
 *    naming the unit (a protocol violation by the producer/consumer); 'drop'
 *    ignores the offending push/pop (the rest of the cycle's operation, e.g.
 *    a push together with an underflowing pop, still happens).
 *
 * Folded glue (optional, default off; docs/kernel.md "Stop 21: FIFOs and C104
 * per token"): a user whose push is "push and enable", whose pop is "either
 * of two pulses" or who needs "not empty" gets them here rather than from
 * combs of its own, each of which ran twice per token (rise and fall):
 *  input    pushEn  (config pushEnable) a push needs push = 1 and pushEn = 1
 *  input    pop2    (config popOr)      a pop happens on pop = 1 or pop2 = 1
 *  output   valid   (config valid)      1 while the FIFO holds an entry
 * With pushEnable or popOr the clock edge wakes on the rise of push, pop or
 * pop2, and on a change of head, count, din or pushEn only if one of them
 * stands at the edge (late guards, docs/kernel.md "Exact sensitivity" and
 * "Stop 23: FIFOs and C104"): with all three 0 it does nothing, so it no
 * longer runs once more after each push and pop.
 *
 * Registered outputs (config registeredOut, default off; docs/kernel.md
 * "Stop 22: FIFOs and C104"): dout, full, empty and valid are registers of
 * the same names, written by the clock edge from the state it leaves (the
 * head entry after the edge's pop and push), so the `out` comb, which ran
 * after every push and pop, is gone. Same values at every cycle, with one
 * difference, under a poke only: a poked head, count or memory word shows
 * at the outputs from the next clock edge (with the comb, at once).
 */
import { bitsToHold, checkInt } from './check.ts';
import { Module, type Memory, type Signal } from '../kernel/module.ts';

export type FifoViolationPolicy = 'error' | 'drop';

export interface FifoConfig {
  /** Entry width in bits, 1..32. */
  width: number;
  /** Number of entries, 1..4096. */
  depth: number;
  /** Push while full (without pop): 'error' (default) or 'drop' the pushed word. */
  onOverflow?: FifoViolationPolicy;
  /** Pop while empty: 'error' (default) or 'drop' (ignore the pop). */
  onUnderflow?: FifoViolationPolicy;
  /** Input `pushEn`: push only while it is 1 as well (folded glue); default false. */
  pushEnable?: boolean;
  /** Input `pop2`: pop on pop or pop2 (folded glue); default false. */
  popOr?: boolean;
  /** Output `valid`: not empty (folded glue); default false. */
  valid?: boolean;
  /** Outputs as registers written by the clock edge, no `out` comb (see the header); default false. */
  registeredOut?: boolean;
}

/**
 * Negative control for test/c104/per_token_guards.test.ts only: `enableBlind`
 * leaves `pushEn` out of the clock edge's reads (a wrong guard the lock-step
 * property must see); `memBlind` leaves `mem` out of the registered
 * outputs' edge reads and drops the memory's poke hook
 * (test/lib/fifo_regout.test.ts: a poked memory word never reaches dout in
 * the fast mode); `lateBlind` leaves head and count out of the folded
 * glue's late-guarded reads (test/lib/fifo_late.test.ts: a pulse held over
 * two edges is seen once); `oneBlind` drops the depth-1 push-and-pop
 * wake-up (the same test); `andPop` gives the push's conjunction on `pop`
 * instead of `pushEn` (test/lib/fifo_push_and.test.ts: a push with pop 0
 * missed). False in every other use.
 */
export const FIFO_FAULT = { enableBlind: false, memBlind: false, lateBlind: false, oneBlind: false, andPop: false };

/**
 * With `pushEnable`, the push's rise wakes the clock edge at once whatever
 * `pushEn` is (before stop 25; the reference). Default false: the edge is
 * queued and wakes only if push and pushEn both stand there (a late guard
 * with a conjunction, docs/kernel.md "Stop 25: token layer"). Read when a
 * unit is built.
 */
export const FIFO_OPTIONS = { pushAtRise: false };

function checkPolicy(field: string, v: unknown): FifoViolationPolicy {
  if (v === undefined) return 'error';
  if (v !== 'error' && v !== 'drop') throw new RangeError(`fifo.${field}: '${String(v)}' is not one of 'error', 'drop'`);
  return v;
}

export class Fifo extends Module {
  readonly config: Readonly<Required<FifoConfig>>;
  /** Folded glue (FifoConfig): null when not configured. */
  readonly pushEn: Signal | null;
  readonly pop2: Signal | null;
  readonly valid: Signal | null;
  readonly push: Signal;
  readonly din: Signal;
  readonly pop: Signal;
  readonly dout: Signal;
  readonly full: Signal;
  readonly empty: Signal;
  readonly head: Signal;
  readonly count: Signal;
  readonly mem: Memory;
  private readonly bindSlots: () => void;

  constructor(parent: Module | null, name: string, config: FifoConfig) {
    super(parent, name);
    const W = checkInt('fifo', 'width', config.width, 1, 32);
    const D = checkInt('fifo', 'depth', config.depth, 1, 4096);
    const onOverflow = checkPolicy('onOverflow', config.onOverflow);
    const onUnderflow = checkPolicy('onUnderflow', config.onUnderflow);
    const pushEnable = config.pushEnable === true;
    const popOr = config.popOr === true;
    const hasValid = config.valid === true;
    const regOut = config.registeredOut === true;
    this.config = { width: W, depth: D, onOverflow, onUnderflow, pushEnable, popOr, valid: hasValid, registeredOut: regOut };

    const push = (this.push = this.input('push', 1));
    const din = (this.din = this.input('din', W));
    const pop = (this.pop = this.input('pop', 1));
    const dout = (this.dout = regOut ? this.reg('dout', W, 0) : this.output('dout', W));
    const full = (this.full = regOut ? this.reg('full', 1, 0) : this.output('full', 1));
    const empty = (this.empty = regOut ? this.reg('empty', 1, 1) : this.output('empty', 1));
    const head = (this.head = this.reg('head', bitsToHold(D - 1), 0));
    const count = (this.count = this.reg('count', bitsToHold(D), 0));
    const mem = (this.mem = this.memory('mem', W, D));
    const pushEn = (this.pushEn = pushEnable ? this.input('pushEn', 1) : null);
    const pop2 = (this.pop2 = popOr ? this.input('pop2', 1) : null);
    const valid = (this.valid = hasValid ? (regOut ? this.reg('valid', 1, 0) : this.output('valid', 1)) : null);
    const dropOver = onOverflow === 'drop';
    const dropUnder = onUnderflow === 'drop';

    // Slot indices, read from this closure rather than through the Signal
    // objects (a C104 mesh node has ~40 FIFOs; at 32x32 little of what an
    // evaluation touches is still in cache: docs/kernel.md "Stop 19"). Set by onElaborated.
    let pu = 0, di = 0, po = 0, doI = 0, fu = 0, em = 0, hI = 0, hN = 0, cI = 0, cN = 0, pe = 0, p2 = 0, va = 0;
    // With registeredOut the edge writes the outputs' next values (slot .n), else the comb their values.
    this.bindSlots = () => {
      [pu, di, po, hI, hN, cI, cN] = [push.i, din.i, pop.i, head.i, head.n, count.i, count.n];
      [doI, fu, em, va] = regOut ? [dout.n, full.n, empty.n, valid?.n ?? 0] : [dout.i, full.i, empty.i, valid?.i ?? 0];
      [pe, p2] = [pushEn?.i ?? 0, pop2?.i ?? 0];
    };
    // The outputs for n entries whose head entry is e (registered: the next values).
    const outputs = (s: Float64Array, n: number, e: number): void => {
      s[doI] = n > 0 ? e : 0;
      s[fu] = n >= D ? 1 : 0;
      s[em] = n === 0 ? 1 : 0;
      if (hasValid) s[va] = n === 0 ? 0 : 1;
    };

    const memRead = regOut && !FIFO_FAULT.memBlind ? [mem] : [];
    if (!regOut) this.comb(
      () => {
        const s = this.s;
        outputs(s, s[cI]!, mem.data[s[hI]!]!);
      },
      { writes: valid ? [dout, full, empty, valid] : [dout, full, empty], reads: [head, count, mem], name: 'out' },
    );

    // What a standing pulse's edge must see change (FIFO_FAULT.lateBlind: nothing, a held pulse's second edge missed).
    const stateRead = FIFO_FAULT.lateBlind ? [] : [head, count];
    const lateWake = pushEnable || popOr;
    // The push acts only with pushEn: a conjunction of the two, looked at the
    // edge, so a push rising while pushEn is 0 (the transmit buffer full, the
    // C104 stage loading into it) runs nothing ("Stop 25: token layer").
    // FIFO_FAULT.andPop: the conjunction on the wrong signal (then a read too).
    const pushEnRead: Signal[] = pushEn && !FIFO_FAULT.enableBlind ? [pushEn] : [];
    const andWith = FIFO_FAULT.andPop ? pop : pushEn;
    const pushAnd: { and?: Signal } = pushEnRead.length && andWith && !FIFO_OPTIONS.pushAtRise ? { and: andWith } : {};
    if (FIFO_FAULT.andPop && pushAnd.and) pushEnRead.push(pop);
    const ops = this.seq(
      () => {
        const s = this.s;
        let doPush = s[pu]! !== 0 && (!pushEnable || s[pe]! !== 0);
        let doPop = s[po]! !== 0 || (popOr && s[p2]! !== 0);
        const n = s[cI]!;
        const h = s[hI]!;
        if (!doPush && !doPop) {
          // Registered: the outputs again from the state (they differ from it only after a poke).
          if (regOut) outputs(s, n, mem.data[h]!);
          return;
        }
        if (doPop && n === 0) {
          if (!dropUnder) this.fail(`pop from an empty FIFO${doPush ? ' (with push)' : ''}`);
          doPop = false;
        }
        if (doPush && n >= D && !doPop) {
          if (!dropOver) this.fail(`push into a full FIFO (${D} of ${D} entries) without pop`);
          doPush = false;
        }
        let t = -1;
        if (doPush) {
          t = h + n;
          if (t >= D) t -= D;
          mem.write(t, s[di]!);
        }
        const h2 = doPop ? (h + 1 >= D ? 0 : h + 1) : h;
        const n2 = n + (doPush ? 1 : 0) - (doPop ? 1 : 0);
        if (doPop) s[hN] = h2;
        s[cN] = n2;
        // The head entry after this edge: the pushed word when it lands in the head slot (memory writes land at commit).
        if (regOut) outputs(s, n2, t === h2 ? s[di]! : mem.data[h2]!);
        // Depth 1, push and pop together: head and count stay, so no late
        // guard wakes the next edge, where a pulse may stand alone (the push
        // fell, the pop stands: it must pop).
        if (lateWake && D === 1 && doPush && doPop && !FIFO_FAULT.oneBlind) this.wakeAt(ops, this.cycleRef.cycle + 1);
      },
      // Folded glue (the link ends' FIFOs): the edge acts only at an edge
      // where push, pop or pop2 is 1, so it wakes on their rise and, while
      // one stands at the edge, on a change of what it reads then (late
      // guards, docs/kernel.md "Exact sensitivity"): a pulse held over two
      // edges is no rise, and the edge's own head or count change wakes it
      // for the second; a pulse that fell does not ("Stop 23: FIFOs and
      // C104": the idle run after each push and pop is gone). Pokes: of head
      // or count, the kernel wakes the edge (docs/kernel.md#poke); of a
      // memory word, `mem.onPoke` below. Without the glue the reads are as
      // they always were (the Buzzard's FIFOs; registered outputs read the
      // memory, so a poked word wakes the edge).
      pushEn || pop2
        ? {
            reads: [],
            readsWhen: [
              { when: push, bits: 1, rise: true, late: true, reads: [...stateRead, din, ...pushEnRead], ...pushAnd },
              { when: pop, bits: 1, rise: true, late: true, reads: stateRead },
              ...(pop2 ? [{ when: pop2, bits: 1, rise: true, late: true, reads: stateRead }] : []),
            ],
            name: 'ops',
          }
        : { reads: [push, din, pop, head, count, ...memRead], name: 'ops' },
    );
    // Registered outputs with the glue: a poked memory word reaches them at the next edge, as a poked head or count does.
    if (regOut && (pushEn || pop2) && !FIFO_FAULT.memBlind) mem.onPoke = () => this.wakeAt(ops, this.cycleRef.cycle);
  }

  override onElaborated(): void {
    this.bindSlots();
  }
}
