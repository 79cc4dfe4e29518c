/**
 * The crossbar's data path guarded on the connection (rtl/lib/crossbar.ts,
 * option dataGuard 'connection'; docs/kernel.md "Stop 22: FIFOs and C104"):
 *  - against the default ('source'): the same stimulus into both crossbars,
 *    every output (dout, valid, src, gnt, gidx, conn, fc) equal at every
 *    cycle, wide and not, FIFO and tree arbiters;
 *  - fast ('activity') = reference ('plain') at every cycle, the whole state
 *    (test/lib/lockstep_sim.ts), which is what the one-hot guard must keep;
 *  - negative control: the guard of input k under bit k ^ 1
 *    (CROSSBAR_FAULT.guardSwap) is seen by that lock-step.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Module, Simulator, type Signal } from '../../rtl/kernel/index.ts';
import { Crossbar, CROSSBAR_FAULT } from '../../rtl/lib/crossbar.ts';
import { Lockstep, rng } from './lockstep_sim.ts';

const N = 5;
const M = 4;

/** Registers the test pokes: requests, data, releases, downstream status. */
class Drive extends Module {
  readonly req = this.regs('req', N, M, 0);
  readonly din = this.regs('din', N, 4, 0);
  readonly release = this.regs('release', N, 1, 0);
  readonly blocked = this.regs('blocked', M, 1, 0);
}

/** Both guards behind one drive. */
class Pair extends Module {
  readonly d = new Drive(this, 'd');
  readonly src: Crossbar;
  readonly conn: Crossbar;
  /** No data path (dataPath false, the C104's direct data path): oh{j} in place of dout{j}. */
  readonly bare: Crossbar;
  constructor(wide: boolean, policy: 'fifo' | 'tree') {
    super(null, 'top');
    const cfg = { inputs: N, outputs: M, width: 4, policy, latency: policy === 'fifo' ? 0 : 1, wide };
    this.src = new Crossbar(this, 'src', cfg);
    this.conn = new Crossbar(this, 'conn', { ...cfg, dataGuard: 'connection' });
    this.bare = new Crossbar(this, 'bare', { ...cfg, dataGuard: 'connection', dataPath: false });
    for (const x of [this.src, this.conn, this.bare]) {
      for (let i = 0; i < N; i++) {
        this.connect(this.d.req[i]!, x.req[i]!);
        this.connect(this.d.din[i]!, x.din[i]!);
        this.connect(this.d.release[i]!, x.release[i]!);
      }
      for (let j = 0; j < M; j++) this.connect(this.d.blocked[j]!, x.blocked[j]!);
    }
  }
}

/** Every output of a crossbar, as numbers; without a data path, dout{j} as its parent takes it (din of the input oh{j} names, 0 when idle). */
function outputs(peek: (s: Signal) => number, x: Crossbar): number[] {
  const dout = x.oh.length ? x.oh.map((o) => (peek(o) !== 0 ? peek(x.din[31 - Math.clz32(peek(o))]!) : 0)) : x.dout.map(peek);
  return [...dout, ...[...x.valid, ...x.src, ...x.gnt, ...x.gidx, ...x.conn, ...x.fc].map(peek)];
}

/** A protocol-valid random drive for `cycles` cycles: release only while connected. */
function drive(seed: number, cycles: number, poke: (sel: (p: Pair) => Signal, v: number) => void, peek: (sel: (p: Pair) => Signal) => number, step: () => void): void {
  const r = rng(seed);
  for (let c = 0; c < cycles; c++) {
    for (let i = 0; i < N; i++) {
      if (r() < 0.3) poke((p) => p.d.din[i]!, Math.floor(r() * 16));
      if (r() < 0.1) poke((p) => p.d.req[i]!, r() < 0.5 ? 0 : 1 << Math.floor(r() * M));
      poke((p) => p.d.release[i]!, peek((p) => p.src.conn[i]!) === 1 && r() < 0.15 ? 1 : 0);
    }
    for (let j = 0; j < M; j++) if (r() < 0.1) poke((p) => p.d.blocked[j]!, r() < 0.3 ? 1 : 0);
    step();
  }
}

const cases = fc.record({ seed: fc.nat(), wide: fc.boolean(), policy: fc.constantFrom('fifo' as const, 'tree' as const) });

function lockstep(seed: number, wide: boolean, policy: 'fifo' | 'tree'): void {
  const ls = new Lockstep(() => new Pair(wide, policy));
  drive(seed, 300, (sel, v) => ls.poke(sel, v), (sel) => ls.peek(sel), () => ls.step());
}

describe("Crossbar dataGuard 'connection'", () => {
  it("equals 'source' at every cycle, every output (both modes)", () => {
    fc.assert(
      fc.property(cases, fc.constantFrom('plain' as const, 'activity' as const), ({ seed, wide, policy }, mode) => {
        const top = new Pair(wide, policy);
        const sim = new Simulator(top, { mode });
        let grants = 0;
        drive(seed, 300, (sel, v) => sim.poke(sel(top), v), (sel) => sim.peek(sel(top)), () => {
          sim.step();
          const peek = (s: Signal): number => sim.peek(s);
          expect(outputs(peek, top.conn)).toEqual(outputs(peek, top.src));
          expect(outputs(peek, top.bare)).toEqual(outputs(peek, top.src));
          grants += top.src.gnt.reduce((a, g) => a + peek(g), 0);
        });
        expect(grants).toBeGreaterThan(0);
      }),
      { numRuns: 40 },
    );
  });

  it('fast = reference at every cycle', () => {
    fc.assert(fc.property(cases, ({ seed, wide, policy }) => lockstep(seed, wide, policy)), { numRuns: 40 });
  });

  it('negative control: the data guarded under the wrong input bit is seen by the lock-step', () => {
    CROSSBAR_FAULT.guardSwap = true;
    try {
      for (const wide of [false, true]) expect(() => lockstep(1, wide, 'fifo')).toThrow(/plain mode but .* in activity mode/);
    } finally {
      CROSSBAR_FAULT.guardSwap = false;
    }
  });

  it('rejects a bad dataGuard and more than 32 inputs under it', () => {
    class Top extends Module {}
    expect(() => new Crossbar(new Top(null, 't'), 'x', { inputs: 2, outputs: 2, dataGuard: 'both' as never })).toThrow(/dataGuard must be 'source' or 'connection'/);
    expect(() => new Crossbar(new Top(null, 't'), 'x', { inputs: 33, outputs: 2, dataGuard: 'connection' })).toThrow(/at most 32 inputs/);
  });

  it('dataPath false: no dout and no data process, oh{j} instead; needs the connection guard', () => {
    class Top extends Module {}
    const x = new Crossbar(new Top(null, 't'), 'x', { inputs: 2, outputs: 2, dataGuard: 'connection', dataPath: false });
    expect(x.dout).toEqual([]);
    expect(x.oh.map((o) => o.name)).toEqual(['oh0', 'oh1']);
    expect(() => new Crossbar(new Top(null, 't'), 'x', { inputs: 2, outputs: 2, dataPath: false })).toThrow(/dataPath false needs dataGuard 'connection'/);
    expect(() => new Crossbar(new Top(null, 't'), 'x', { inputs: 2, outputs: 2, dataGuard: 'connection', dataPath: 0 as never })).toThrow(/dataPath must be true or false/);
  });
});
