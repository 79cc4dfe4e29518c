/**
 * Shift register (rtl/lib/shift_register.ts): serial out of a loaded word
 * reproduces it, serial in builds a word, load beats shift, in both bit
 * orders, all widths 1..32 and both simulator modes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Module, Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { ShiftRegister, type ShiftOrder, type ShiftRegisterConfig } from '../../rtl/lib/shift_register.ts';

const MODES: SimMode[] = ['plain', 'activity'];
const ORDERS: ShiftOrder[] = ['msb-first', 'lsb-first'];

/** A width and a word that fits it (biased to 32 bits and to bit 31 set). */
const widthWord = fc
  .oneof(fc.integer({ min: 1, max: 32 }), fc.constant(32))
  .chain((w) => fc.tuple(fc.constant(w), fc.oneof(fc.integer({ min: 0, max: 2 ** w - 1 }), fc.constant(2 ** w - 1), fc.constant(2 ** (w - 1)))));

/** The bits of `word` in `order`. */
function bitsOf(word: number, w: number, order: ShiftOrder): number[] {
  const bits = Array.from({ length: w }, (_, k) => Math.floor(word / 2 ** k) % 2); // LSB first
  return order === 'lsb-first' ? bits : bits.reverse();
}

describe('ShiftRegister', () => {
  it('shifting a loaded word out bit by bit reproduces it (both orders, both modes)', () => {
    fc.assert(
      fc.property(widthWord, fc.constantFrom(...ORDERS), fc.constantFrom(...MODES), ([w, word], order, mode) => {
        const r = new ShiftRegister(null, 'sr', { width: w, order });
        const sim = new Simulator(r, { mode });
        sim.poke(r.pdin, word);
        sim.poke(r.load, 1);
        sim.step();
        sim.poke(r.load, 0);
        expect(sim.peek(r.pdout)).toBe(word);
        sim.poke(r.shift, 1);
        const out: number[] = [];
        for (let k = 0; k < w; k++) {
          out.push(sim.peek(r.sout!));
          sim.step();
        }
        expect(out).toEqual(bitsOf(word, w, order));
        // sin was 0: the register is empty after w shifts
        expect(sim.peek(r.pdout)).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('serial in builds the word; a second register fed from the first receives it (both orders, both modes)', () => {
    fc.assert(
      fc.property(widthWord, fc.constantFrom(...ORDERS), fc.constantFrom(...MODES), ([w, word], order, mode) => {
        // Two registers chained through the wire a.sout -> b.sin, like a link.
        const top = new Module(null, 'top');
        const a = new ShiftRegister(top, 'a', { width: w, order });
        const b = new ShiftRegister(top, 'b', { width: w, order, reset: 2 ** w - 1 });
        for (const s of [a.load, a.pdin, a.sin]) top.connect(top.input(`a_${s.name}`, s.width), s);
        const shift = top.input('shift', 1);
        top.connect(shift, a.shift);
        top.connect(shift, b.shift);
        top.connect(a.sout!, b.sin);
        top.tie(b.load, 0);
        top.tie(b.pdin, 0);
        const sim = new Simulator(top, { mode });
        expect(sim.peek('b.pdout')).toBe(2 ** w - 1); // reset value
        // feed the word into a serially
        const bits = bitsOf(word, w, order);
        sim.poke('shift', 1);
        for (const bit of bits) {
          sim.poke('a_sin', bit);
          sim.step();
        }
        expect(sim.peek('a.pdout')).toBe(word);
        // shift it across to b
        sim.poke('a_sin', 0);
        sim.step(w);
        expect([sim.peek('a.pdout'), sim.peek('b.pdout')]).toEqual([0, word]);
      }),
      { numRuns: 300 },
    );
  });

  it('matches a model on random load/shift/sin/pdin sequences, controls held over several cycles (both modes)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 1, max: 32 }), fc.constant(32)),
        fc.constantFrom(...ORDERS),
        fc.constantFrom(...MODES),
        // each entry: keep (0) or flip (1) load / shift, new sin, new pdin
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 3 }), fc.boolean(), fc.nat(), fc.boolean()), { maxLength: 80, size: 'max' }),
        (w, order, mode, raw) => {
          const r = new ShiftRegister(null, 'sr', { width: w, order });
          const sim = new Simulator(r, { mode });
          let q = 0;
          let load = 0;
          let shift = 0;
          let pdin = 0;
          for (const [fl, fs, sin, d, newD] of raw) {
            if (fl === 0) load ^= 1; // flips 1 time in 4: levels persist across cycles
            if (fs === 0) shift ^= 1;
            if (newD) pdin = d % 2 ** w;
            sim.poke(r.load, load);
            sim.poke(r.shift, shift);
            sim.poke(r.sin, sin ? 1 : 0);
            sim.poke(r.pdin, pdin);
            expect(sim.peek(r.sout!)).toBe(order === 'msb-first' ? Math.floor(q / 2 ** (w - 1)) : q % 2);
            sim.step();
            if (load) q = pdin;
            else if (shift) q = order === 'msb-first' ? ((q * 2) % 2 ** w) + (sin ? 1 : 0) : Math.floor(q / 2) + (sin ? 2 ** (w - 1) : 0);
            expect(sim.peek(r.pdout)).toBe(q);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it.each(MODES)('load has priority over shift; no load and no shift holds (%s mode)', (mode) => {
    for (const order of ORDERS) {
      const r = new ShiftRegister(null, 'sr', { width: 8, order });
      const sim = new Simulator(r, { mode });
      sim.poke(r.pdin, 0b1011_0010);
      sim.poke(r.load, 1);
      sim.poke(r.shift, 1);
      sim.poke(r.sin, 1);
      sim.step();
      expect(sim.peek(r.pdout)).toBe(0b1011_0010);
      sim.poke(r.load, 0);
      sim.poke(r.shift, 0);
      sim.step(5);
      expect(sim.peek(r.pdout)).toBe(0b1011_0010);
      sim.poke(r.shift, 1);
      sim.step();
      expect(sim.peek(r.pdout)).toBe(order === 'msb-first' ? 0b0110_0101 : 0b1101_1001);
      expect(sim.peek(r.sout!)).toBe(order === 'msb-first' ? 0 : 1);
    }
  });

  it('width 1: sout follows sin one cycle later', () => {
    const r = new ShiftRegister(null, 'sr', { width: 1 });
    const sim = new Simulator(r);
    sim.poke(r.shift, 1);
    const seen: number[] = [];
    for (const b of [1, 0, 0, 1, 1]) {
      sim.poke(r.sin, b);
      sim.step();
      seen.push(sim.peek(r.sout!));
    }
    expect(seen).toEqual([1, 0, 0, 1, 1]);
  });

  it('serialOut: false builds no sout and no process for it; pdout is the register itself (no evaluation per shift)', () => {
    for (const serialOut of [true, false]) {
      const r = new ShiftRegister(null, 'sr', { width: 8, serialOut });
      const sim = new Simulator(r);
      expect(r.sout === undefined).toBe(!serialOut);
      sim.poke(r.shift, 1);
      sim.poke(r.sin, 1);
      sim.step();
      const e0 = sim.evaluations;
      for (let k = 0; k < 7; k++) sim.step();
      expect(sim.peek(r.pdout)).toBe(255);
      // per shift: the shift process, plus the sout process when it exists
      expect(sim.evaluations - e0).toBe(7 * (serialOut ? 2 : 1));
    }
  });

  const bad: [string, Partial<ShiftRegisterConfig>, string][] = [
    ['width 0', { width: 0 }, 'shift_register.width: 0 is outside 1..32'],
    ['width 33', { width: 33 }, 'shift_register.width: 33 is outside 1..32'],
    ['bad order', { order: 'middle-first' as ShiftOrder }, "shift_register.order: 'middle-first' is not one of 'msb-first', 'lsb-first'"],
    ['reset too wide', { width: 4, reset: 16 }, 'shift_register.reset: 16 is outside 0..15'],
  ];
  it.each(bad)('rejects %s', (_, patch, msg) => {
    expect(() => new ShiftRegister(null, 'sr', { width: 8, ...patch })).toThrow(msg);
  });
});
