/**
 * Still NULL trains (rtl/dslink/null_train.ts, docs/dslink.md#still-trains):
 * an idle direction's serialiser `more` and its `take` are on demand too, and
 * the token choice hands the token it offers to the train before it reads
 * `take`. Held against the bit-by-bit reference mode ('plain') at every cycle
 * and every wire and register (test/lib/lockstep_sim.ts) where the hand-back
 * matters: a character offered and an FCT owed at every phase of a NULL
 * (so some land exactly in a boundary cycle, asserted), either end's enable
 * dropping, pokes of `take`, `more` and the choice's registers, a mode
 * switch, a snapshot restored in a still train. Negative control: the
 * hand-back one cycle late (DsNullTrain.lateHandBack) is seen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Signal } from '../../rtl/kernel/index.ts';
import { S_ERROR_RESET } from '../../rtl/dslink/link_fsm.ts';
import { DsNullTrain, type NullTrainStats } from '../../rtl/dslink/null_train.ts';
import { TOK_FCT } from '../../rtl/dslink/tokens.ts';
import { Lockstep } from '../lib/lockstep_sim.ts';
import { TrainBench } from './bench.ts';

type Send = { at: number; ch: number };
/** By this cycle both directions of an idle link are in still trains (asserted). */
const T0 = 3000;

const trains = (b: TrainBench): DsNullTrain[] => [b.pair.a.ser.txTrain!, b.pair.b.ser.txTrain!];

/** Lock-step run to `cycles`; `extra` runs before each step (pokes, switches). Checks the trains are still at T0. */
function run(aToB: Send[], bToA: Send[], cycles: number, extra?: (ls: Lockstep<TrainBench>, c: number) => void, popA: boolean[] = [true]): Lockstep<TrainBench> {
  const ls = new Lockstep(() => new TrainBench(aToB, bToA, [true], 'checked', popA));
  for (let c = 0; c < cycles; c++) {
    if (c === T0) expect(trains(ls.active).map((t) => t.still)).toEqual([true, true]);
    extra?.(ls, c);
    ls.step();
  }
  return ls;
}

function total(runs: Lockstep<TrainBench>[], k: keyof NullTrainStats, dir?: 0 | 1): number {
  return runs.reduce((n, ls) => n + trains(ls.active).reduce((m, t, j) => m + (dir === undefined || dir === j ? t.stats[k] : 0), 0), 0);
}

const phases = Array.from({ length: 16 }, (_, k) => k);
const chars = (at: number, n: number): Send[] => Array.from({ length: n }, (_, k) => ({ at, ch: (k * 37) & 0xff }));

afterEach(() => {
  DsNullTrain.lateHandBack = 0;
});

describe('DS-link still NULL trains = bit by bit', () => {
  it('a character offered at every phase of a NULL: handed back in the boundary cycle too, equal at every cycle', () => {
    const runs = phases.map((k) => run(chars(T0 + k, 1), [], T0 + 300));
    // Every run met a still train that the character ended, and some did so in a boundary cycle.
    expect(total(runs, 'handedBack', 0)).toBeGreaterThanOrEqual(phases.length);
    expect(total(runs, 'atBoundary', 0)).toBeGreaterThanOrEqual(2);
  });

  it('an FCT owed at every phase of a NULL (characters the other way, popped): equal at every cycle', () => {
    // a→b stays idle; b→a's characters, popped by a's core, make a owe FCTs.
    // Every token has an even length, so b's characters arrive at one parity of a's NULL phase: a's core pops with
    // stalls of 0 to 2 cycles to reach every phase.
    const pops = [[true], [false, true], [false, false, true]];
    const runs = pops.flatMap((popA) => phases.slice(0, 8).map((k) => run([], chars(T0 + k, 24), T0 + 900, undefined, popA)));
    for (const ls of runs) {
      // a sends nothing but NULLs and FCTs here: its still train was ended by an FCT owed.
      expect(ls.active.pair.a.tokens.nullTrain!.stats.handedBack).toBeGreaterThan(0);
    }
    expect(total(runs, 'atBoundary', 0)).toBeGreaterThanOrEqual(2);
  });

  it("either end's enable dropping in a still train, at every phase: equal at every cycle", () => {
    for (const end of ['a', 'b'] as const) {
      for (const k of phases.slice(0, 8)) {
        run([], [], T0 + 200, (ls, c) => {
          if (c === T0 + k) ls.poke((u) => u.pair[end].fsm.state, S_ERROR_RESET);
        });
      }
    }
  });

  it('pokes of take, more and the token choice registers in a still train, and a mode switch: equal at every cycle', () => {
    const pokes: [string, (u: TrainBench) => Signal, number][] = [
      ['take 1', (u) => u.pair.a.ser.take, 1],
      ['take 0', (u) => u.pair.a.ser.take, 0],
      ['more 0', (u) => u.pair.a.ser.more, 0],
      ['more 1', (u) => u.pair.a.ser.more, 1],
      ['nullSent 0', (u) => u.pair.a.tokens.nullSent, 0],
      ['normalOnWire 1', (u) => u.pair.a.tokens.normalOnWire, 1],
      ['tok FCT', (u) => u.pair.a.tokens.tok, TOK_FCT],
      ['prevPar 1', (u) => u.pair.a.tokens.prevPar, 1],
    ];
    for (const [, sel, v] of pokes) {
      for (const k of phases.slice(0, 8)) {
        run(chars(T0 + 100, 2), [], T0 + 250, (ls, c) => {
          if (c === T0 + k) ls.poke(sel, v);
        });
      }
    }
    for (const k of phases.slice(0, 8)) {
      run(chars(T0 + 60, 1), [], T0 + 200, (ls, c) => {
        if (c === T0 + k) ls.simA.setMode('plain');
        if (c === T0 + k + 9) ls.simA.setMode('activity');
      });
    }
  });

  it('a snapshot saved in a still train and restored: the same values as the reference mode again', () => {
    const ls = run(chars(T0 + 40, 3), chars(T0 + 90, 2), T0 + 5);
    expect(trains(ls.active).every((t) => t.still)).toBe(true);
    const snapP = ls.simP.save();
    const snapA = ls.simA.save();
    for (let c = 0; c < 300; c++) ls.step();
    expect(total([ls], 'handedBack')).toBeGreaterThan(0);
    ls.simP.restore(snapP);
    ls.simA.restore(snapA);
    ls.compare();
    for (let c = 0; c < 300; c++) ls.step();
  });

  it('negative control: `more` and `take` handed back one cycle late is seen', () => {
    DsNullTrain.lateHandBack = 1;
    expect(() => phases.forEach((k) => run(chars(T0 + k, 1), [], T0 + 300))).toThrow(/in plain mode but .* in activity mode/);
    // The FCT-owed sweep alone sees it too (a's core popping with stalls of 1 and 2 cycles).
    for (const popA of [[false, true], [false, false, true]]) {
      expect(() => phases.slice(0, 8).forEach((k) => run([], chars(T0 + k, 24), T0 + 900, undefined, popA))).toThrow(/in plain mode but .* in activity mode/);
    }
  });
});
