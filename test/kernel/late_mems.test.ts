/**
 * Late memory reads (`readsWhen: [{ when, bits, reads, late: true, mems }]`;
 * rtl/kernel/late_mems.ts, docs/kernel.md "Exact sensitivity"): a changed
 * word of a memory wakes a seq reader at the next edge only if its guard
 * holds there. A RAM-like unit: a writer stores random words (random
 * stimuli), a reader latches m[ra] at every edge where its enable `re`
 * stands (held over several edges with the same address, so a write under
 * it must wake it), and the memory is also poked from outside. Fast mode
 * against the reference mode at every cycle, snapshots restored in either
 * mode; the reader's runs counted (fewer than with the memory as a plain
 * read); negative controls: the kernel without the memories' late queue
 * (`lateMemsFault.drop`), and a reader that also reads while `re` is 0.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Module, Simulator, type Memory, type Signal, type SimMode } from '../../rtl/kernel/index.ts';
import { lateMemsFault } from '../../rtl/kernel/late_mems.ts';

class Ram extends Module {
  readonly ins: Signal[];
  readonly q: Signal;
  readonly mem: Memory;
  runs = 0;
  constructor(late: boolean, readsAtZero = false) {
    super(null, 'top');
    const we = this.input('we');
    const wa = this.input('wa', 2);
    const wd = this.input('wd', 8);
    const re = this.input('re');
    const ra = this.input('ra', 2);
    this.ins = [we, wa, wd, re, ra];
    const mem = (this.mem = this.memory('m', 8, 4, { writePorts: 1 }));
    const q = (this.q = this.reg('q', 8));
    this.seq(
      () => {
        if (this.s[we.i] === 1) mem.write(this.s[wa.i]!, this.s[wd.i]!);
      },
      { reads: [we, wa, wd], writes: [], name: 'write' },
    );
    this.seq(
      () => {
        this.runs++;
        const s = this.s;
        if (s[re.i] === 1 || readsAtZero) s[q.n] = mem.data[s[ra.i]!]!;
      },
      late ? { reads: [re], writes: [q], readsWhen: [{ when: re, bits: 1, reads: [ra], late: true, mems: [mem] }], name: 'read' } : { reads: [re, ra, mem], writes: [q], name: 'read' },
    );
  }
}

/** Per cycle: we, wa, wd, re, ra, and a poke of word (poke & 3) with poke >> 2 when poke >= 4. */
type Stim = [number, number, number, number, number, number][];

function trace(mode: SimMode, stim: Stim, late = true, readsAtZero = false, snapAt = -1, restoreMode: SimMode = mode): { out: number[]; runs: number } {
  let top = new Ram(late, readsAtZero);
  let sim = new Simulator(top, { mode });
  let runs = 0;
  const out: number[] = [];
  stim.forEach(([we, wa, wd, re, ra, pk], k) => {
    if (k === snapAt) {
      const snap = sim.save();
      runs += top.runs;
      top = new Ram(late, readsAtZero);
      sim = new Simulator(top, { mode: restoreMode });
      sim.restore(snap);
    }
    [we, wa, wd, re, ra].forEach((v, j) => sim.poke(top.ins[j]!, v));
    if (pk >= 4) sim.pokeMem(top.mem, pk & 3, pk >> 2);
    sim.step();
    out.push(sim.peek(top.q));
  });
  return { out, runs: runs + top.runs };
}

// The read enable and address held for a few cycles at a time, so writes land under a held read.
const stimuli = fc.array(
  fc.tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 1023 }), fc.integer({ min: 1, max: 4 })),
  { minLength: 1, maxLength: 40 },
).map((rows) => rows.flatMap(([we, wa, wd, re, ra, pk, hold]) => Array.from({ length: hold }, (_, h) => [we, wa, (wd + h) & 255, re, ra, h === 0 ? pk : 0] as Stim[number])));

describe('late memory reads', () => {
  it('property: fast = reference at every cycle (writes and pokes under a held read)', () => {
    fc.assert(
      fc.property(stimuli, (stim) => {
        expect(trace('activity', stim).out).toEqual(trace('plain', stim).out);
      }),
      { numRuns: 200 },
    );
  });

  it('property: a snapshot saved with entries queued, restored in either mode, goes on as the reference', () => {
    fc.assert(
      fc.property(stimuli, fc.nat(), fc.constantFrom<SimMode>('activity', 'plain'), (stim, at, rm) => {
        expect(trace('activity', stim, true, false, at % stim.length, rm).out).toEqual(trace('plain', stim).out);
      }),
      { numRuns: 100 },
    );
  });

  it('writes with no read out do not run the reader (the memory as a plain read does)', () => {
    const stim: Stim = [];
    for (let k = 0; k < 20; k++) stim.push([1, k & 3, k, 0, 0, 0]);
    stim.push([0, 0, 0, 1, 2, 0], [1, 2, 99, 1, 2, 0], [0, 0, 0, 1, 2, 0], [0, 0, 0, 0, 0, 0]);
    const late = trace('activity', stim, true);
    const plain = trace('activity', stim, false);
    expect(late.out).toEqual(trace('plain', stim).out);
    expect(plain.out).toEqual(late.out);
    expect(late.out.at(-2)).toBe(99); // the write under the held read was seen
    expect(late.runs).toBeLessThan(plain.runs - 15);
  });

  it('negative control: without the memories\' late queue a write under a held read is missed', () => {
    lateMemsFault.drop = true;
    try {
      const stim: Stim = [
        [0, 0, 0, 1, 1, 0],
        [1, 1, 7, 1, 1, 0],
        [0, 0, 0, 1, 1, 0],
        [0, 0, 0, 1, 1, 0],
      ];
      expect(trace('activity', stim).out).not.toEqual(trace('plain', stim).out);
    } finally {
      lateMemsFault.drop = false;
    }
  });

  it('negative control: a reader that reads while the guard is 0 misses runs', () => {
    const stim: Stim = [
      [1, 0, 5, 0, 0, 0],
      [0, 0, 0, 0, 0, 0],
      [0, 0, 0, 0, 0, 0],
    ];
    expect(trace('activity', stim, true, true).out).not.toEqual(trace('plain', stim, true, true).out);
  });

  it('mems only under a late guard, and not also a plain read', () => {
    class Bad extends Module {
      constructor(late: boolean) {
        super(null, 'top');
        const g = this.input('g');
        const mem = this.memory('m', 8, 4);
        const q = this.reg('q', 8);
        this.seq(() => void (this.s[q.n] = mem.data[0]!), { reads: late ? [g, mem] : [g], writes: [q], readsWhen: [{ when: g, bits: 1, reads: [], late, mems: [mem] }], name: 'r' });
      }
    }
    expect(() => new Simulator(new Bad(false))).toThrow(/late bits guard/);
    expect(() => new Simulator(new Bad(true))).toThrow(/not in its reads/);
  });
});
