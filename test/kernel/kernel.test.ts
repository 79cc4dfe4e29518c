import { describe, expect, it } from 'vitest';
import { ElaborationError, Module, Signal, SimError, Simulator } from '../../rtl/kernel/index.ts';

/** Two registers that swap through wires each cycle: only two-phase clocking keeps both values. */
class SwapUnit extends Module {
  readonly mine: Signal;
  readonly other: Signal;
  readonly out: Signal;
  constructor(parent: Module, name: string, reset: number) {
    super(parent, name);
    this.mine = this.reg('v', 8, reset);
    this.other = this.input('other', 8);
    this.out = this.output('out', 8);
    this.comb(() => {
      this.s[this.out.i] = this.s[this.mine.i]!;
    }, { writes: [this.out], reads: [this.mine] }); // a Moore output: without `reads` the default (all inputs) would be a false loop
    this.seq(() => {
      this.s[this.mine.n] = this.s[this.other.i]!;
    });
  }
}

class SwapTop extends Module {
  readonly a: SwapUnit;
  readonly b: SwapUnit;
  constructor() {
    super(null, 'top');
    this.a = new SwapUnit(this, 'a', 11);
    this.b = new SwapUnit(this, 'b', 22);
    this.connect(this.a.out, this.b.other);
    this.connect(this.b.out, this.a.other);
  }
}

describe('two-phase clocking', () => {
  for (const mode of ['plain', 'activity'] as const) {
    it(`swaps two registers through wires without losing a value (${mode})`, () => {
      const sim = new Simulator(new SwapTop(), { mode });
      expect([sim.peek('a.v'), sim.peek('b.v')]).toEqual([11, 22]);
      sim.step();
      expect([sim.peek('a.v'), sim.peek('b.v')]).toEqual([22, 11]);
      sim.step();
      expect([sim.peek('a.v'), sim.peek('b.v')]).toEqual([11, 22]);
      sim.step(7);
      expect([sim.peek('a.v'), sim.peek('b.v')]).toEqual([22, 11]);
      expect(sim.cycle).toBe(9);
      // an input aliases the net it is connected to
      expect(sim.peek('b.other')).toBe(sim.peek('a.out'));
    });
  }
});

describe('elaboration errors', () => {
  const expectError = (build: () => Module, kind: string, pattern: RegExp): void => {
    let err: unknown;
    try {
      new Simulator(build());
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ElaborationError);
    expect((err as ElaborationError).kind).toBe(kind);
    expect((err as Error).message).toMatch(pattern);
    expect((err as Error).message).not.toContain('\n');
  };

  it('reports a combinational loop as the ring of wire names', () => {
    class Inv extends Module {
      readonly i0 = this.input('i0');
      readonly o = this.output('o');
      constructor(p: Module, n: string) {
        super(p, n);
        this.comb(() => {
          this.s[this.o.i] = this.s[this.i0.i]! ^ 1;
        }, { writes: [this.o] });
      }
    }
    expectError(
      () => {
        const top = new Module(null, 'top');
        const x = new Inv(top, 'x');
        const y = new Inv(top, 'y');
        const z = new Inv(top, 'z');
        top.connect(x.o, y.i0);
        top.connect(y.o, z.i0);
        top.connect(z.o, x.i0);
        return top;
      },
      'comb-loop',
      /^combinational loop: ([xyz]\.o) -> [xyz]\.o -> [xyz]\.o -> \1$/,
    );
  });

  it('reports multiple drivers, naming both', () => {
    class Drv extends Module {
      readonly o = this.output('o', 4);
      constructor(p: Module, n: string) {
        super(p, n);
        this.comb(() => {
          this.s[this.o.i] = 1;
        }, { writes: [this.o] });
      }
    }
    expectError(
      () => {
        const top = new Module(null, 'top');
        const a = new Drv(top, 'a');
        const b = new Drv(top, 'b');
        top.connect(a.o, b.o);
        return top;
      },
      'multiple-drivers',
      /multiple drivers on net .*a\.o.*: comb a\.comb0, comb b\.comb0/,
    );
  });

  it('reports a register and a constant driving one net', () => {
    expectError(
      () => {
        const top = new Module(null, 'top');
        const r = top.reg('r', 2);
        top.tie(r, 1);
        return top;
      },
      'multiple-drivers',
      /register r, constant 1/,
    );
  });

  it('reports an undriven input', () => {
    expectError(
      () => {
        const top = new Module(null, 'top');
        const c = new Module(top, 'child');
        c.input('data', 8);
        return top;
      },
      'undriven-input',
      /^undriven input: child\.data /,
    );
  });

  it('reports a width mismatch at connect', () => {
    const top = new Module(null, 'top');
    const c = new Module(top, 'c');
    const a = top.reg('a', 8);
    const b = c.input('b', 4);
    expect(() => top.connect(a, b)).toThrow(/width mismatch: a is 8 bits, c\.b is 4 bits/);
  });

  it('reports duplicate names', () => {
    expectError(
      () => {
        const top = new Module(null, 'top');
        top.reg('x', 1);
        top.output('x', 1);
        return top;
      },
      'duplicate-name',
      /duplicate name 'x' in top: a register and a output port/,
    );
    expectError(
      () => {
        const top = new Module(null, 'top');
        new Module(top, 'u');
        new Module(top, 'u');
        return top;
      },
      'duplicate-name',
      /duplicate name 'u'/,
    );
  });

  it('rejects bad widths, bad names and writes to another module', () => {
    const top = new Module(null, 'top');
    expect(() => top.reg('r', 33)).toThrow(/width 33 outside 1\.\.32/);
    expect(() => top.reg('r', 4, 16)).toThrow(/reset value 16 does not fit 4 bits/);
    expect(() => top.reg('3x', 4)).toThrow(/bad name '3x'/);
    expect(() => new Module(top, 'a.b')).toThrow(/bad module name/);
    expectError(
      () => {
        const t = new Module(null, 'top');
        const c = new Module(t, 'c');
        const o = c.output('o');
        t.comb(() => {}, { writes: [o] });
        return t;
      },
      'bad-process',
      /writes c\.o, which belongs to another module/,
    );
  });
});

/** A counter that counts while `run` is set, and a comb "is odd" output. */
class Counter extends Module {
  readonly run = this.input('run');
  readonly q = this.reg('q', 8, 0);
  readonly odd = this.output('odd');
  constructor() {
    super(null, 'top');
    this.comb(() => {
      this.s[this.odd.i] = this.s[this.q.i]! & 1;
    }, { writes: [this.odd] });
    this.seq(() => {
      const s = this.s;
      if (s[this.run.i]) s[this.q.n] = (s[this.q.i]! + 1) & 0xff;
    });
  }
}

describe('peek and poke', () => {
  for (const mode of ['plain', 'activity'] as const) {
    it(`external inputs hold, registers take the poke as current value (${mode})`, () => {
      const sim = new Simulator(new Counter(), { mode });
      sim.step(3);
      expect(sim.peek('q')).toBe(0);
      sim.poke('run', 1);
      sim.step(3);
      expect(sim.peek('q')).toBe(3);
      expect(sim.peek('odd')).toBe(1);
      sim.poke('q', 10);
      expect(sim.peek('q')).toBe(10);
      expect(sim.peek('odd')).toBe(0); // comb settles from the poked register
      sim.step();
      expect(sim.peek('q')).toBe(11);
      sim.poke('run', 0);
      sim.step(100);
      expect(sim.peek('q')).toBe(11);
    });

    it(`a poked comb wire is forced through the next clock edge, then released (${mode})`, () => {
      class Top extends Module {
        readonly q = this.reg('q', 4, 0);
        readonly w = this.wire('w', 4);
        constructor() {
          super(null, 'top');
          this.comb(() => {
            this.s[this.w.i] = 5;
          }, { writes: [this.w] });
          this.seq(() => {
            this.s[this.q.n] = this.s[this.w.i]!;
          });
        }
      }
      const sim = new Simulator(new Top(), { mode });
      sim.poke('w', 9);
      expect(sim.peek('w')).toBe(9);
      sim.step();
      expect(sim.peek('q')).toBe(9); // the register sampled the forced value
      expect(sim.peek('w')).toBe(5); // released to its driver
      sim.step();
      expect(sim.peek('q')).toBe(5);
    });
  }

  it('rejects values that do not fit, constants, and unknown names with suggestions', () => {
    const top = new Counter();
    const sim = new Simulator(top);
    expect(() => sim.poke('q', 256)).toThrow(/value 256 does not fit 8 bits/);
    expect(() => sim.poke('q', -1)).toThrow(SimError);
    expect(() => sim.peek('qq')).toThrow(/no signal or memory named 'qq'; did you mean q/);
    const t2 = new Module(null, 't');
    const c = new Module(t2, 'c');
    const i = c.input('i', 2);
    t2.tie(i, 2);
    const s2 = new Simulator(t2);
    expect(s2.peek('c.i')).toBe(2);
    expect(() => s2.poke('c.i', 1)).toThrow(/tied to a constant/);
  });

  it('a value wider than its register is an error, not a truncation', () => {
    class Bad extends Module {
      readonly q = this.reg('q', 4, 0);
      constructor() {
        super(null, 'bad');
        this.seq(() => {
          this.s[this.q.n] = this.s[this.q.i]! + 7;
        });
      }
    }
    for (const mode of ['plain', 'activity'] as const) {
      const sim = new Simulator(new Bad(), { mode });
      sim.step(2);
      expect(sim.peek('q')).toBe(14);
      expect(() => sim.step()).toThrow(/cycle 2: value 21 does not fit 4-bit reg q \(allowed 0\.\.15\)/);
    }
  });

  it('a comb output wider than its wire is an error', () => {
    class Bad extends Module {
      readonly o = this.output('o', 3);
      readonly x = this.input('x', 4);
      constructor() {
        super(null, 'bad');
        this.comb(() => {
          this.s[this.o.i] = this.s[this.x.i]!;
        }, { writes: [this.o] });
      }
    }
    for (const mode of ['plain', 'activity'] as const) {
      const sim = new Simulator(new Bad(), { mode });
      sim.poke('x', 7);
      expect(sim.peek('o')).toBe(7);
      sim.poke('x', 8);
      expect(() => sim.peek('o')).toThrow(/value 8 does not fit 3-bit out o/);
    }
  });
});

describe('observers', () => {
  it('onStimulus reports a poke before the next edge even when a peek settled it first', () => {
    for (const mode of ['plain', 'activity'] as const) {
      const sim = new Simulator(new Counter(), { mode });
      const seen: string[] = [];
      sim.observe({ onStimulus: (x) => seen.push(`stim@${x.cycle}:run=${x.peek('run')}`), onCycle: (x) => seen.push(`cycle${x.cycle}`) });
      sim.step();
      sim.poke('run', 1);
      expect(sim.peek('run')).toBe(1);
      sim.step(2);
      sim.poke('q', 40);
      sim.step();
      expect(seen).toEqual(['cycle1', 'stim@1:run=1', 'cycle2', 'cycle3', 'stim@3:run=1', 'cycle4']);
    }
  });
});

describe('names', () => {
  it('finds signals by hierarchical name and by glob', () => {
    const top = new Module(null, 'top');
    for (let n = 0; n < 3; n++) {
      const node = new Module(top, `node${n}`);
      for (let p = 0; p < 2; p++) {
        const pbu = new Module(node, `pbu${p}`);
        pbu.reg('free', 4);
        pbu.reg('count', 4);
      }
    }
    const sim = new Simulator(top);
    const names = (g: string): string[] => sim.glob(g).map((x) => x.path);
    expect(names('node*.pbu1.*')).toEqual(['node0.pbu1.free', 'node0.pbu1.count', 'node1.pbu1.free', 'node1.pbu1.count', 'node2.pbu1.free', 'node2.pbu1.count']);
    expect(names('node?.pbu0.free')).toEqual(['node0.pbu0.free', 'node1.pbu0.free', 'node2.pbu0.free']);
    expect(names('**.count')).toHaveLength(6);
    expect(names('node1.**')).toHaveLength(4);
    expect(names('node{0,2}.pbu0.count')).toEqual(['node0.pbu0.count', 'node2.pbu0.count']);
    expect(names('*.free')).toEqual([]); // `*` does not cross a dot
    expect(sim.find('node2.pbu1.count').path).toBe('node2.pbu1.count');
  });
});

describe('snapshots', () => {
  it('restore gives an identical future, including scheduled stimulus and memories', () => {
    class Top extends Module {
      readonly lfsr = this.reg('lfsr', 16, 0xace1);
      readonly addr = this.reg('addr', 4, 0);
      readonly mem = this.memory('mem', 16, 16);
      readonly inp = this.input('inp', 16);
      readonly acc = this.reg('acc', 16, 0);
      constructor() {
        super(null, 'top');
        this.seq(() => {
          const s = this.s;
          const l = s[this.lfsr.i]!;
          const bit = ((l >> 0) ^ (l >> 2) ^ (l >> 3) ^ (l >> 5)) & 1;
          s[this.lfsr.n] = (l >> 1) | (bit << 15);
          s[this.addr.n] = (s[this.addr.i]! + 1) & 15;
          this.mem.write(s[this.addr.i]!, l ^ s[this.inp.i]!);
          s[this.acc.n] = (s[this.acc.i]! + this.mem.read((s[this.addr.i]! + 5) & 15)) & 0xffff;
        });
      }
    }
    const sim = new Simulator(new Top());
    sim.step(37);
    for (let c = 40; c < 200; c += 17) sim.schedule(c, (x) => x.poke('inp', c * 13));
    const snap = sim.save();
    const hashes = (): string[] => Array.from({ length: 40 }, () => (sim.step(5), sim.stateHash()));
    const first = hashes();
    expect(new Set(first).size).toBeGreaterThan(30);
    sim.restore(snap);
    expect(sim.cycle).toBe(37);
    expect(hashes()).toEqual(first);
  });

  it('stateHash distinguishes states and agrees for equal ones', () => {
    const a = new Simulator(new Counter());
    const b = new Simulator(new Counter());
    expect(a.stateHash()).toBe(b.stateHash());
    a.poke('run', 1);
    b.poke('run', 1);
    a.step(5);
    b.step(5);
    expect(a.stateHash()).toBe(b.stateHash());
    b.step();
    expect(a.stateHash()).not.toBe(b.stateHash());
  });
});

describe('runUntil and schedule', () => {
  it('stops at the first cycle the predicate holds, or after maxCycles', () => {
    const sim = new Simulator(new Counter());
    sim.schedule(10, (x) => x.poke('run', 1));
    const r = sim.runUntil((x) => x.peek('q') === 5, 1000);
    expect(r).toEqual({ reached: true, cycles: 15 });
    expect(sim.cycle).toBe(15);
    const r2 = sim.runUntil((x) => x.peek('q') === 0, 20);
    expect(r2).toEqual({ reached: false, cycles: 20 });
    expect(() => sim.schedule(3, () => {})).toThrow(/in the past/);
  });
});

/**
 * Direct two-phase clocking: a register wired straight into another module's
 * input (no comb process between), read by that module's seq process. A
 * counter feeds a shift chain of four stages, and two stages swap their
 * values; every register is checked against its exact expected value after
 * every cycle, in plain and in activity mode. A kernel that commits a register
 * before every seq process has read the old value shifts a stage early (the
 * chain collapses) and the swap copies one value into both.
 */
class CounterSrc extends Module {
  readonly v: Signal;
  constructor(parent: Module, name: string) {
    super(parent, name);
    this.v = this.reg('v', 8, 0);
    this.seq(() => {
      this.s[this.v.n] = (this.s[this.v.i]! + 1) & 0xff;
    });
  }
}

/** v ← d every cycle; d is an input wired straight to another module's register. */
class Stage extends Module {
  readonly v: Signal;
  readonly d: Signal;
  constructor(parent: Module, name: string, reset: number) {
    super(parent, name);
    this.v = this.reg('v', 8, reset);
    this.d = this.input('d', 8);
    this.seq(() => {
      this.s[this.v.n] = this.s[this.d.i]!;
    });
  }
}

class DirectTop extends Module {
  readonly src = new CounterSrc(this, 'src');
  readonly chain: Stage[];
  readonly x: Stage;
  readonly y: Stage;
  constructor() {
    super(null, 'top');
    this.chain = [0, 1, 2, 3].map((k) => new Stage(this, `s${k}`, 100 + k));
    this.connect(this.src.v, this.chain[0]!.d);
    for (let k = 1; k < 4; k++) this.connect(this.chain[k - 1]!.v, this.chain[k]!.d);
    this.x = new Stage(this, 'x', 7);
    this.y = new Stage(this, 'y', 9);
    this.connect(this.x.v, this.y.d);
    this.connect(this.y.v, this.x.d);
  }
}

describe('two-phase clocking, registers wired straight into clocked inputs (no comb between)', () => {
  for (const mode of ['plain', 'activity'] as const) {
    it(`a shift chain and a swap hold their exact values every cycle (${mode})`, () => {
      const sim = new Simulator(new DirectTop(), { mode });
      // expected: src = t; stage k = src at cycle t − k − 1 (its reset 100 + j while t − k − 1 < 0 …), x/y swap
      const expected = (t: number): number[] => {
        const chain = [0, 1, 2, 3].map((k) => (t - k - 1 >= 0 ? (t - k - 1) & 0xff : 100 + k - t));
        return [t & 0xff, ...chain, t % 2 ? 9 : 7, t % 2 ? 7 : 9];
      };
      const read = (): number[] => ['src.v', 's0.v', 's1.v', 's2.v', 's3.v', 'x.v', 'y.v'].map((p) => sim.peek(p));
      expect(read()).toEqual(expected(0));
      for (let t = 1; t <= 300; t++) {
        sim.step();
        expect(sim.cycle).toBe(t);
        expect(read(), `cycle ${t}`).toEqual(expected(t));
      }
    });
  }
});
