/**
 * Up/down counter (rtl/lib/counter.ts) against a model: random up/down/load
 * sequences on random widths (1..32), both limit modes, both simulator modes;
 * plus explicit limit and priority cases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { Counter, type CounterConfig, type CounterMode } from '../../rtl/lib/counter.ts';

const MODES: SimMode[] = ['plain', 'activity'];

/** Reference: load first; up and down together cancel; wrap modulo 2^w or clamp. */
function model(q: number, w: number, mode: CounterMode, op: { up: boolean; down: boolean; load: boolean; din: number }): number {
  if (op.load) return op.din;
  const delta = (op.up ? 1 : 0) - (op.down ? 1 : 0);
  const m = 2 ** w;
  const next = q + delta;
  if (mode === 'wrap') return ((next % m) + m) % m;
  return Math.min(m - 1, Math.max(0, next));
}

describe('Counter', () => {
  it('matches the model on random up/down/load sequences (both limit modes, both simulator modes)', () => {
    let atLimit = 0;
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 1, max: 32 }), fc.integer({ min: 1, max: 3 }), fc.constant(32)),
        fc.constantFrom<CounterMode>('wrap', 'saturate'),
        fc.constantFrom(...MODES),
        fc.nat(),
        fc.array(fc.record({ up: fc.boolean(), down: fc.boolean(), load: fc.integer({ min: 0, max: 9 }), din: fc.nat(), edge: fc.boolean() }), { maxLength: 100, size: 'max' }),
        (w, mode, simMode, resetRaw, raw) => {
          const max = 2 ** w - 1;
          const reset = resetRaw % 2 ** w;
          const c = new Counter(null, 'ctr', { width: w, mode, reset });
          const sim = new Simulator(c, { mode: simMode });
          let q = reset;
          expect([sim.peek(c.q), sim.peek(c.zero)]).toEqual([q, q === 0 ? 1 : 0]);
          for (const r of raw) {
            // loads are rare and often to a limit so the limits get exercised
            const din = r.edge ? (r.din % 2 === 0 ? 0 : max) : r.din % 2 ** w;
            const op = { up: r.up, down: r.down, load: r.load === 0, din };
            if ((q === 0 && op.down) || (q === max && op.up)) atLimit++;
            sim.poke(c.up, op.up ? 1 : 0);
            sim.poke(c.down, op.down ? 1 : 0);
            sim.poke(c.load, op.load ? 1 : 0);
            sim.poke(c.din, op.din);
            sim.step();
            q = model(q, w, mode, op);
            expect([sim.peek(c.q), sim.peek(c.zero)]).toEqual([q, q === 0 ? 1 : 0]);
          }
        },
      ),
      { numRuns: 300 },
    );
    expect(atLimit).toBeGreaterThan(100);
  });

  it.each(MODES)('wraps and saturates at both ends, 32 bits included (%s mode)', (simMode) => {
    for (const w of [4, 32]) {
      const max = 2 ** w - 1;
      const wrap = new Counter(null, 'c', { width: w, reset: max });
      let sim = new Simulator(wrap, { mode: simMode });
      sim.poke(wrap.up, 1);
      sim.step();
      expect([sim.peek(wrap.q), sim.peek(wrap.zero)]).toEqual([0, 1]);
      sim.poke(wrap.up, 0);
      sim.poke(wrap.down, 1);
      sim.step();
      expect([sim.peek(wrap.q), sim.peek(wrap.zero)]).toEqual([max, 0]);

      const sat = new Counter(null, 'c', { width: w, mode: 'saturate', reset: max - 1 });
      sim = new Simulator(sat, { mode: simMode });
      sim.poke(sat.up, 1);
      sim.step(3);
      expect(sim.peek(sat.q)).toBe(max);
      sim.poke(sat.up, 0);
      sim.poke(sat.load, 1);
      sim.poke(sat.din, 1);
      sim.step();
      sim.poke(sat.load, 0);
      sim.poke(sat.down, 1);
      sim.step(4);
      expect([sim.peek(sat.q), sim.peek(sat.zero)]).toEqual([0, 1]);
    }
  });

  it('up and down together hold; load beats up and down', () => {
    const c = new Counter(null, 'c', { width: 8, reset: 5 });
    const sim = new Simulator(c);
    sim.poke(c.up, 1);
    sim.poke(c.down, 1);
    sim.step(10);
    expect(sim.peek(c.q)).toBe(5);
    sim.poke(c.load, 1);
    sim.poke(c.din, 200);
    sim.step();
    expect(sim.peek(c.q)).toBe(200);
    sim.poke(c.down, 0);
    sim.poke(c.din, 0);
    sim.step();
    expect([sim.peek(c.q), sim.peek(c.zero)]).toEqual([0, 1]);
  });

  const bad: [string, Partial<CounterConfig>, string][] = [
    ['width 0', { width: 0 }, 'counter.width: 0 is outside 1..32'],
    ['width 33', { width: 33 }, 'counter.width: 33 is outside 1..32'],
    ['bad mode', { mode: 'clamp' as CounterMode }, "counter.mode: 'clamp' is not one of 'wrap', 'saturate'"],
    ['reset too wide', { width: 3, reset: 8 }, 'counter.reset: 8 is outside 0..7'],
    ['negative reset', { reset: -1 }, 'counter.reset: -1 is outside 0..255'],
  ];
  it.each(bad)('rejects %s', (_, patch, msg) => {
    expect(() => new Counter(null, 'c', { width: 8, ...patch })).toThrow(msg);
  });
});
