/**
 * Review of the transmit side's still NULL trains (rtl/dslink/null_train.ts,
 * docs/dslink.md#still-trains, docs/kernel.md "Stop 20: transmit side"),
 * a second pair of eyes beside test/dslink/still_train.test.ts:
 *  - lock-step (every value at every cycle) with pokes of every input and
 *    output of the token choice and of the serialiser's token interface, at
 *    each of 16 phases of a NULL. Found: a poke of `tokBits` or `tokLen`
 *    (comb wires, forced until after the next edge) in a boundary cycle
 *    was ignored by a still train (`choose` does not run for a force, so
 *    `offered` saw nothing, and the serialiser's run returned at once);
 *    the reference mode loads the forced token there. Fixed in onShift.
 *  - unobserved (the lock-step compare writes every on-demand value into
 *    the state vector each cycle, so a reader of a stale `take` or `more`
 *    slot would still read right values there): the fast copy runs
 *    stretches of 40 to 600 cycles with nobody looking and is compared
 *    with the reference only at each stretch's end (every wire and
 *    register, the characters received), with random bursts after long
 *    idle gaps both ways, cores popping with stalls (so FCTs fall owed at
 *    every phase of a NULL, boundary cycles included), either end's link
 *    state machine knocked to ErrorReset, snapshots saved in a quiet train
 *    and restored later, and the fast copy switched to the reference mode
 *    and back.
 *  - the VCD of every signal byte-identical over still stretches and
 *    hand-backs.
 * Negative control: the hand-back one cycle late (`lateHandBack`) is seen
 * unobserved.
 * The C104 networks: test/c104/still_train_review.test.ts; the REPL:
 * test/repl/still_train_review.test.ts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Module, SimError, Simulator, type Signal } from '../../rtl/kernel/index.ts';
import { CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { S_ERROR_RESET } from '../../rtl/dslink/link_fsm.ts';
import { DsNullTrain, type NullTrainStats } from '../../rtl/dslink/null_train.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import { CTL_FCT, LEN_CTL, LEN_DATA, tokenBits } from '../../rtl/dslink/tokens.ts';
import { startVcd } from '../../traces/vcd/index.ts';
import { Lockstep, firstSlotDiff } from '../lib/lockstep_sim.ts';
import { CharSink, CharSource } from './bench.ts';

type Send = { at: number; ch: number };
/** By this cycle both directions of an idle link are in still trains (asserted where it matters). */
const T0 = 3000;

class StillBench extends Module {
  readonly pair: DsLinkPair;
  readonly sinkA: CharSink;
  readonly sinkB: CharSink;
  constructor(aToB: Send[], bToA: Send[], popA: boolean[], popB: boolean[]) {
    super(null, 'top');
    const pair = (this.pair = new DsLinkPair(this, 'link', {}));
    new CharSource(this, 'srcA', pair.a, aToB.map((x) => x.ch), [true], aToB.map((x) => x.at));
    new CharSource(this, 'srcB', pair.b, bToA.map((x) => x.ch), [true], bToA.map((x) => x.at));
    this.sinkA = new CharSink(this, 'sinkA', pair.a, popA);
    this.sinkB = new CharSink(this, 'sinkB', pair.b, popB);
  }
}

const trains = (b: StillBench): DsNullTrain[] => [b.pair.a.ser.txTrain!, b.pair.b.ser.txTrain!];
const sum = (b: StillBench, k: keyof NullTrainStats): number => trains(b).reduce((n, t) => n + t.stats[k], 0);

/** Lock-step run of an idle pair with `act` before each step; a model error must be the same in both copies (Lockstep.step). */
function lockstep(cycles: number, act: (ls: Lockstep<StillBench>, c: number) => void, aToB: Send[] = [], bToA: Send[] = []): Lockstep<StillBench> {
  const ls = new Lockstep(() => new StillBench(aToB, bToA, [true], [true]));
  for (let c = 0; c < cycles; c++) {
    if (c === T0) expect(trains(ls.active).map((t) => t.still)).toEqual([true, true]);
    act(ls, c);
    try {
      ls.step();
    } catch (e) {
      if (e instanceof SimError) return ls; // the same model error in both (a poke broke the protocol)
      throw e;
    }
  }
  return ls;
}

afterEach(() => {
  DsNullTrain.lateHandBack = 0;
});

describe('still NULL trains, review: lock-step with pokes of the choice and the serialiser interface', () => {
  it('a forced tokBits / tokLen at every phase of a NULL (boundary cycles included): the serialiser loads it in both modes', () => {
    const forced: [string, (u: StillBench) => Signal, number][] = [
      ['tokBits FCT', (u) => u.pair.a.tokens.tokBits, tokenBits(1, CTL_FCT, 0)],
      ['tokLen 4', (u) => u.pair.a.tokens.tokLen, LEN_CTL],
      ['tokLen 10', (u) => u.pair.a.tokens.tokLen, LEN_DATA],
      ['tokBits 0', (u) => u.pair.a.tokens.tokBits, 0],
    ];
    let thawedAtBoundary = 0;
    for (const [, sel, v] of forced) {
      for (let k = 0; k < 16; k++) {
        const ls = lockstep(T0 + 120, (l, c) => {
          if (c === T0 + k) l.poke(sel, v);
        });
        thawedAtBoundary += ls.active.pair.a.ser.txTrain!.stats.handedBack === 0 && ls.active.pair.a.ser.txTrain!.stats.thawed > 0 ? 1 : 0;
      }
    }
    // Two boundary cycles in 16 phases, four forces: at least one thaw each (the rest re-entered later).
    expect(thawedAtBoundary).toBeGreaterThanOrEqual(8);
  });

  it("pokes of each input and output of the token choice (fctOwed, creditOk, txEmpty, txChar, run, fctAllowed, sendFct, sendNormal) and of the serialiser's enable, at 16 phases", () => {
    const pokes: [string, (u: StillBench) => Signal, number][] = [
      ['fctOwed 1', (u) => u.pair.a.tokens.fctOwed, 1],
      ['creditOk 0', (u) => u.pair.a.tokens.creditOk, 0],
      ['txEmpty 0', (u) => u.pair.a.tokens.txEmpty, 0],
      ['txChar 0x41', (u) => u.pair.a.tokens.txChar, 0x41],
      ['run 0', (u) => u.pair.a.tokens.run, 0],
      ['fctAllowed 0', (u) => u.pair.a.tokens.fctAllowed, 0],
      ['sendFct 1', (u) => u.pair.a.tokens.sendFct, 1],
      ['sendNormal 1', (u) => u.pair.a.tokens.sendNormal, 1],
      ['ser.enable 0', (u) => u.pair.a.ser.enable, 0],
      ['b rx enable 0', (u) => u.pair.b.deser.enable, 0],
    ];
    for (const [, sel, v] of pokes) {
      for (let k = 0; k < 16; k++) {
        lockstep(T0 + 100, (l, c) => {
          if (c === T0 + k) l.poke(sel, v);
        });
      }
    }
  });
});

// ------------------------------------------------------------------ unobserved

interface Burst {
  gap: number;
  n: number;
}
interface Case {
  a: Burst[];
  b: Burst[];
  popA: boolean[];
  popB: boolean[];
  /** Cycles (from T0) of: ErrorReset poked into end a or b, a snapshot saved, restored, the fast copy to 'plain' and back. */
  knock: { at: number; end: 'a' | 'b' } | null;
  save: number;
  restoreAfter: number;
  plainAt: number | null;
  looks: number[];
}

const sends = (bursts: Burst[], seed: number): Send[] => {
  const out: Send[] = [];
  let at = T0;
  for (const x of bursts) {
    at += x.gap;
    for (let k = 0; k < x.n; k++) out.push({ at, ch: k % 9 === 8 ? CHAR_EOP : (k * seed + at) & 255 });
  }
  return out;
};

const burstArb = fc.array(fc.record({ gap: fc.integer({ min: 30, max: 900 }), n: fc.integer({ min: 1, max: 30 }) }), { minLength: 1, maxLength: 5 });
const popArb = fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }).map((p) => (p.some((x) => x) ? p : [true]));
const caseArb: fc.Arbitrary<Case> = fc.record({
  a: burstArb,
  b: burstArb,
  popA: popArb,
  popB: popArb,
  knock: fc.option(fc.record({ at: fc.integer({ min: 0, max: 2500 }), end: fc.constantFrom<'a' | 'b'>('a', 'b') }), { freq: 3 }),
  save: fc.integer({ min: -200, max: 2000 }),
  restoreAfter: fc.integer({ min: 50, max: 1500 }),
  plainAt: fc.option(fc.integer({ min: 0, max: 2500 }), { freq: 3 }),
  looks: fc.array(fc.integer({ min: 40, max: 600 }), { minLength: 1, maxLength: 6 }),
});

interface Outcome {
  diff: string | null;
  fast: StillBench;
}

/** Both copies to `end` cycles, the fast one looked at only at the end of each stretch of `looks`; acts at the case's cycles. */
function unobserved(c: Case, end = T0 + 3500): Outcome {
  const mk = (): StillBench => new StillBench(sends(c.a, 37), sends(c.b, 91), c.popA, c.popB);
  const pb = mk();
  const fb = mk();
  const p = new Simulator(pb, { mode: 'plain' });
  const f = new Simulator(fb, { mode: 'activity' });
  // The cycles where something is done to both copies, each a stretch's end (so no look in between is needed).
  const acts = new Map<number, () => void>();
  const at = (cy: number, fn: () => void): void => {
    const prev = acts.get(cy);
    acts.set(cy, prev ? () => (prev(), fn()) : fn);
  };
  if (c.knock) {
    const k = c.knock;
    at(T0 + k.at, () => {
      p.poke(pb.pair[k.end].fsm.state, S_ERROR_RESET);
      f.poke(fb.pair[k.end].fsm.state, S_ERROR_RESET);
    });
  }
  let snaps: [ReturnType<Simulator['save']>, ReturnType<Simulator['save']>] | null = null;
  at(T0 + c.save, () => {
    snaps = [p.save(), f.save()];
  });
  at(T0 + c.save + c.restoreAfter, () => {
    p.restore(snaps![0]);
    f.restore(snaps![1]);
  });
  if (c.plainAt !== null) {
    at(T0 + c.plainAt, () => f.setMode('plain'));
    at(T0 + c.plainAt + 1 + (c.plainAt % 17), () => f.setMode('activity'));
  }
  const stops = [...acts.keys()].filter((x) => x >= 0).sort((x, y) => x - y);
  let k = 0;
  let si = 0;
  while (p.cycle < end) {
    const next = si < stops.length ? stops[si]! : Infinity;
    const n = Math.min(c.looks[k++ % c.looks.length]!, next - p.cycle, end - p.cycle);
    p.step(n);
    f.step(n);
    const d = firstSlotDiff(p, f);
    if (d) return { diff: `cycle ${p.cycle}: ${d.path} reference ${d.a} fast ${d.b}`, fast: fb };
    if (p.cycle === next) acts.get(stops[si++]!)!();
  }
  for (const [x, y] of [[pb.sinkA, fb.sinkA], [pb.sinkB, fb.sinkB]] as const) {
    if (JSON.stringify(x.got) !== JSON.stringify(y.got)) return { diff: 'characters received differ', fast: fb };
  }
  return { diff: null, fast: fb };
}

/** A case that meets still trains with characters and FCTs at many phases. */
const fixed: Case = {
  a: [{ gap: 41, n: 3 }, { gap: 333, n: 1 }, { gap: 205, n: 7 }, { gap: 77, n: 1 }, { gap: 510, n: 2 }],
  b: [{ gap: 13, n: 20 }, { gap: 402, n: 5 }, { gap: 251, n: 1 }],
  popA: [false, true, true],
  popB: [true, false],
  knock: null,
  save: 10,
  restoreAfter: 1200,
  plainAt: null,
  looks: [211, 97, 389],
};

describe('still NULL trains, review: unobserved stretches equal the reference at each look', () => {
  it('property: bursts after long idle gaps both ways, stalling cores (FCTs owed at every phase), ErrorReset knocks, a snapshot saved in a quiet train and restored, mode switches', () => {
    let stilled = 0;
    let handedBack = 0;
    let atBoundary = 0;
    let received = 0;
    fc.assert(
      fc.property(caseArb, (c) => {
        const r = unobserved(c);
        expect(r.diff).toBeNull();
        stilled += sum(r.fast, 'stilled');
        handedBack += sum(r.fast, 'handedBack');
        atBoundary += sum(r.fast, 'atBoundary');
        received += r.fast.sinkA.got.length + r.fast.sinkB.got.length;
      }),
      { numRuns: 30 },
    );
    // The runs did what they are for: still stretches entered and ended by tokens offered, some in a boundary cycle.
    expect(stilled).toBeGreaterThan(100);
    expect(handedBack).toBeGreaterThan(60);
    expect(atBoundary).toBeGreaterThan(5);
    expect(received).toBeGreaterThan(300);
  }, 600_000);

  it('the fixed case passes (the controls below start from it)', () => {
    const r = unobserved(fixed);
    expect(r.diff).toBeNull();
    expect(sum(r.fast, 'handedBack')).toBeGreaterThan(10);
  });

  it('negative control: the hand-back one cycle late is seen unobserved', () => {
    DsNullTrain.lateHandBack = 1;
    expect(unobserved(fixed).diff).toMatch(/^cycle \d+: |differ/);
  });
});

describe('still NULL trains, review: VCD', () => {
  it('the VCD of every signal is byte-identical over still stretches and hand-backs (FCTs owed, characters, a forced token)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'icemu-still-'));
    const vcdOf = (mode: 'plain' | 'activity'): string => {
      const b = new StillBench(sends(fixed.a, 37), sends(fixed.b, 91), fixed.popA, fixed.popB);
      const sim = new Simulator(b, { mode });
      const path = join(dir, `still-${mode}.vcd`);
      const w = startVcd(sim, path, { date: '2026-01-01T00:00:00Z', handleExit: false });
      sim.step(T0 + 5);
      sim.poke(b.pair.b.tokens.tokBits, tokenBits(1, CTL_FCT, 0)); // b's boundary or not: both modes alike
      sim.step(2500);
      w.close();
      if (mode === 'activity') {
        expect(sum(b, 'stilled')).toBeGreaterThan(2);
        expect(sum(b, 'thawed')).toBeGreaterThanOrEqual(2);
      }
      return readFileSync(path, 'utf8');
    };
    expect(vcdOf('activity')).toBe(vcdOf('plain'));
  });
});

/** Both copies restored to their snapshots, then equal at each of the next 100 cycles. */
function restoreAndCompare(p: Simulator, f: Simulator, snaps: readonly [ReturnType<Simulator['save']>, ReturnType<Simulator['save']>]): void {
  p.restore(snaps[0]);
  f.restore(snaps[1]);
  for (let k = 0; k < 100; k++) {
    p.step(1);
    f.step(1);
    expect(firstSlotDiff(p, f), `cycle ${p.cycle}`).toBeNull();
  }
}

describe('kernel, found by this review (not still trains: the same at 08acb6a)', () => {
  // Found by the property above (counterexample: plainAt 1, save 2,
  // restoreAfter 50): a snapshot saved while the simulator was switched to
  // 'plain' and restored after it went back to 'activity' differed from the
  // reference at the next cycle (cycle 3003: link.a.ser.data reference 1,
  // fast 0): the reference mode's empty dirty sets were restored into the
  // fast mode. The snapshot now carries its mode and the restore marks every
  // process (rtl/kernel/snapshots.ts); without that this test fails.
  it('a snapshot saved in the reference mode, restored in the fast mode: equal to the reference', () => {
    const mk = (): StillBench => new StillBench([{ at: 3030, ch: 7 }], [{ at: 3030, ch: 9 }], [true], [true]);
    const p = new Simulator(mk(), { mode: 'plain' });
    const f = new Simulator(mk(), { mode: 'activity' });
    p.step(3001);
    f.step(3001);
    f.setMode('plain');
    p.step(1);
    f.step(1);
    const snaps = [p.save(), f.save()] as const;
    p.step(1);
    f.step(1);
    f.setMode('activity');
    p.step(49);
    f.step(49);
    restoreAndCompare(p, f, snaps);
  });

  // The mirror case: saved in the fast mode (a still train frozen, its
  // values on demand), restored after the copy switched to the reference
  // mode, which runs every process every cycle and keeps no trains.
  it('a snapshot saved in the fast mode, restored in the reference mode: equal to the reference', () => {
    const mk = (): StillBench => new StillBench([{ at: 3030, ch: 7 }], [{ at: 3030, ch: 9 }], [true], [true]);
    const fb = mk();
    const p = new Simulator(mk(), { mode: 'plain' });
    const f = new Simulator(fb, { mode: 'activity' });
    p.step(3001);
    f.step(3001);
    expect(trains(fb).map((t) => t.still)).toEqual([true, true]);
    const snaps = [p.save(), f.save()] as const;
    p.step(7);
    f.step(7);
    f.setMode('plain');
    p.step(50);
    f.step(50);
    restoreAndCompare(p, f, snaps);
  });
});
