/**
 * FIFO (rtl/lib/fifo.ts) against a plain array queue: random push/pop
 * sequences on random widths and depths, both overflow/underflow policies,
 * both simulator modes; plus explicit edges (depth 1, depth 4096, push+pop
 * while full, hierarchical error names) and configuration errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Module, SimError, Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { Fifo, type FifoConfig, type FifoViolationPolicy } from '../../rtl/lib/fifo.ts';

const MODES: SimMode[] = ['plain', 'activity'];

function expectOutputs(sim: Simulator, f: Fifo, q: number[], depth: number): void {
  expect({
    count: sim.peek(f.count),
    empty: sim.peek(f.empty),
    full: sim.peek(f.full),
    dout: sim.peek(f.dout),
  }).toEqual({
    count: q.length,
    empty: q.length === 0 ? 1 : 0,
    full: q.length === depth ? 1 : 0,
    dout: q.length > 0 ? q[0] : 0,
  });
}

interface Op {
  push: boolean;
  pop: boolean;
  din: number;
}

const scenario = fc.record({
  width: fc.oneof(fc.integer({ min: 1, max: 32 }), fc.constant(32)),
  depth: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 40 })),
  onOverflow: fc.constantFrom<FifoViolationPolicy>('error', 'drop'),
  onUnderflow: fc.constantFrom<FifoViolationPolicy>('error', 'drop'),
  mode: fc.constantFrom(...MODES),
  // push / pop probabilities in percent, so some runs fill up and some drain
  pPush: fc.integer({ min: 10, max: 90 }),
  pPop: fc.integer({ min: 10, max: 90 }),
  raw: fc.array(fc.tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 0, max: 99 }), fc.nat()), { minLength: 1, maxLength: 200, size: 'max' }),
});

describe('Fifo: model-based', () => {
  it('behaves as a queue on random push/pop sequences, with both violation policies (both modes)', () => {
    let overflows = 0;
    let underflows = 0;
    let pushPopFull = 0;
    fc.assert(
      fc.property(scenario, (sc) => {
        const { width, depth, onOverflow, onUnderflow, mode } = sc;
        const ops: Op[] = sc.raw.map(([a, b, d]) => ({ push: a < sc.pPush, pop: b < sc.pPop, din: d % 2 ** width }));
        const f = new Fifo(null, 'fifo', { width, depth, onOverflow, onUnderflow });
        const sim = new Simulator(f, { mode });
        const q: number[] = [];
        expectOutputs(sim, f, q, depth);
        for (const op of ops) {
          sim.poke(f.push, op.push ? 1 : 0);
          sim.poke(f.pop, op.pop ? 1 : 0);
          sim.poke(f.din, op.din);
          const under = op.pop && q.length === 0;
          const over = op.push && q.length === depth && !op.pop;
          if (op.push && op.pop && q.length === depth) pushPopFull++;
          if (under) underflows++;
          if (over) overflows++;
          const error = (under && onUnderflow === 'error') || (over && onOverflow === 'error');
          if (error) {
            const snap = sim.save();
            let caught: unknown;
            try {
              sim.step();
            } catch (e) {
              caught = e;
            }
            expect(caught).toBeInstanceOf(SimError);
            expect((caught as Error).message).toMatch(under ? /^cycle \d+: fifo: pop from an empty FIFO/ : /^cycle \d+: fifo: push into a full FIFO/);
            sim.restore(snap);
          } else {
            sim.step();
            // model: a legal pop removes the head, then a legal push appends
            const popOk = op.pop && q.length > 0;
            const pushOk = op.push && (q.length < depth || popOk);
            if (popOk) q.shift();
            if (pushOk) q.push(op.din);
          }
          expectOutputs(sim, f, q, depth);
        }
      }),
      { numRuns: 300 },
    );
    // the edges were actually exercised
    expect(overflows).toBeGreaterThan(300);
    expect(underflows).toBeGreaterThan(300);
    expect(pushPopFull).toBeGreaterThan(300);
  });
});

describe.each(MODES)('Fifo: edges (%s mode)', (mode) => {
  it('depth 1: push, push+pop while full replaces the entry, pop empties', () => {
    const f = new Fifo(null, 'f', { width: 8, depth: 1 });
    const sim = new Simulator(f, { mode });
    expect([sim.peek(f.empty), sim.peek(f.full), sim.peek(f.dout)]).toEqual([1, 0, 0]);
    sim.poke(f.push, 1);
    sim.poke(f.din, 0xa5);
    sim.step();
    expect([sim.peek(f.empty), sim.peek(f.full), sim.peek(f.dout), sim.peek(f.count)]).toEqual([0, 1, 0xa5, 1]);
    sim.poke(f.pop, 1);
    sim.poke(f.din, 0x5a);
    expect(sim.peek(f.dout)).toBe(0xa5); // the popped word is visible during the pop cycle
    sim.step();
    expect([sim.peek(f.full), sim.peek(f.dout), sim.peek(f.count)]).toEqual([1, 0x5a, 1]);
    sim.poke(f.push, 0);
    sim.step();
    expect([sim.peek(f.empty), sim.peek(f.count), sim.peek(f.dout)]).toEqual([1, 0, 0]);
  });

  it('depth 4096: fills completely, refuses one more, and drains in order', () => {
    const f = new Fifo(null, 'big', { width: 16, depth: 4096 });
    const sim = new Simulator(f, { mode });
    expect(f.count.width).toBe(13);
    sim.poke(f.push, 1);
    for (let k = 0; k < 4096; k++) {
      sim.poke(f.din, (k * 7919) & 0xffff);
      sim.step();
    }
    expect([sim.peek(f.count), sim.peek(f.full)]).toEqual([4096, 1]);
    expect(() => sim.step()).toThrow('cycle 4096: big: push into a full FIFO (4096 of 4096 entries) without pop');
  });

  it('depth 4096: wraps around the memory end, push+pop while full keeps count, drains in order', () => {
    const f = new Fifo(null, 'big', { width: 16, depth: 4096 });
    const sim = new Simulator(f, { mode });
    const v = (k: number): number => (k * 40503 + 17) & 0xffff;
    // move the head to 3000
    sim.poke(f.push, 1);
    for (let k = 0; k < 3000; k++) {
      sim.poke(f.din, k & 0xffff);
      sim.step();
    }
    sim.poke(f.push, 0);
    sim.poke(f.pop, 1);
    for (let k = 0; k < 3000; k++) {
      expect(sim.peek(f.dout)).toBe(k & 0xffff);
      sim.step();
    }
    expect([sim.peek(f.empty), sim.peek(f.head)]).toEqual([1, 3000]);
    // fill all 4096 entries: the tail wraps past the memory end
    sim.poke(f.pop, 0);
    sim.poke(f.push, 1);
    for (let k = 0; k < 4096; k++) {
      sim.poke(f.din, v(k));
      sim.step();
    }
    expect([sim.peek(f.full), sim.peek(f.count)]).toEqual([1, 4096]);
    // push+pop while full: the freed slot takes the new word
    sim.poke(f.pop, 1);
    for (let k = 4096; k < 4106; k++) {
      expect(sim.peek(f.dout)).toBe(v(k - 4096));
      sim.poke(f.din, v(k));
      sim.step();
      expect(sim.peek(f.count)).toBe(4096);
    }
    sim.poke(f.push, 0);
    for (let k = 10; k < 4106; k++) {
      expect(sim.peek(f.dout)).toBe(v(k));
      sim.step();
    }
    expect([sim.peek(f.empty), sim.peek(f.count)]).toEqual([1, 0]);
  });

  it("'drop' policies: an overflowing push is lost, an underflowing pop is ignored but its push happens", () => {
    const f = new Fifo(null, 'f', { width: 4, depth: 2, onOverflow: 'drop', onUnderflow: 'drop' });
    const sim = new Simulator(f, { mode });
    sim.poke(f.pop, 1);
    sim.step(3); // pops of an empty FIFO: nothing happens
    expect([sim.peek(f.count), sim.peek(f.head)]).toEqual([0, 0]);
    sim.poke(f.push, 1);
    sim.poke(f.din, 7);
    sim.step(); // pop of empty with push: the push lands
    expect([sim.peek(f.count), sim.peek(f.dout)]).toEqual([1, 7]);
    sim.poke(f.pop, 0);
    sim.poke(f.din, 8);
    sim.step();
    sim.poke(f.din, 9);
    sim.step(); // full: 9 is dropped
    expect([sim.peek(f.count), sim.peek(f.full)]).toEqual([2, 1]);
    sim.poke(f.push, 0);
    sim.poke(f.pop, 1);
    const out: number[] = [];
    for (let k = 0; k < 3; k++) {
      out.push(sim.peek(f.dout));
      sim.step();
    }
    expect(out).toEqual([7, 8, 0]);
  });
});

describe('Fifo: errors and configuration', () => {
  it('names the unit by path and cycle when popped empty', () => {
    const top = new Module(null, 'top');
    const f = new Fifo(top, 'rxq', { width: 8, depth: 4 });
    for (const s of [f.push, f.din, f.pop]) top.connect(top.input(s.name, s.width), s);
    const sim = new Simulator(top);
    sim.step(5);
    sim.poke('pop', 1);
    expect(() => sim.step()).toThrow('cycle 5: rxq: pop from an empty FIFO');
  });

  const bad: [string, Partial<FifoConfig>, string][] = [
    ['depth 0', { depth: 0 }, 'fifo.depth: 0 is outside 1..4096'],
    ['depth 4097', { depth: 4097 }, 'fifo.depth: 4097 is outside 1..4096'],
    ['width 0', { width: 0 }, 'fifo.width: 0 is outside 1..32'],
    ['width 33', { width: 33 }, 'fifo.width: 33 is outside 1..32'],
    ['bad overflow policy', { onOverflow: 'wrap' as FifoViolationPolicy }, "fifo.onOverflow: 'wrap' is not one of 'error', 'drop'"],
    ['bad underflow policy', { onUnderflow: 'zero' as FifoViolationPolicy }, "fifo.onUnderflow: 'zero' is not one of 'error', 'drop'"],
  ];
  it.each(bad)('rejects %s', (_, patch, msg) => {
    expect(() => new Fifo(null, 'f', { width: 8, depth: 4, ...patch })).toThrow(msg);
  });
});
