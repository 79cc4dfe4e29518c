/**
 * NULL trains on demand (rtl/dslink/null_train.ts, docs/dslink.md#null-trains):
 * the fast mode stops evaluating the bit-level units of an idle direction and
 * computes their registers on demand. Held against the bit-by-bit reference
 * mode ('plain') at every cycle: every wire and register of the design
 * (test/lib/lockstep_sim.ts), through start-up, idle stretches, bursts of
 * characters arriving at random cycles both ways (the train is left at a
 * token boundary), stalls, pokes into frozen registers and mode switches.
 * Negative control: reading the recorded period one cycle off
 * (DsNullTrain.skew) is seen.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Simulator } from '../../rtl/kernel/index.ts';
import { startVcd } from '../../traces/vcd/index.ts';
import { CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import { DsNullTrain } from '../../rtl/dslink/null_train.ts';
import { Lockstep } from '../lib/lockstep_sim.ts';
import { TrainBench } from './bench.ts';

const sendArb = fc.array(fc.record({ at: fc.integer({ min: 0, max: 5000 }), ch: fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constant(CHAR_EOP)) }), { maxLength: 40 }).map((xs) => xs.sort((x, y) => x.at - y.at));

function trains(b: TrainBench): DsNullTrain[] {
  return [b.pair.a.ser.txTrain!, b.pair.b.ser.txTrain!];
}

/** Run in lockstep; `poke` at some cycles (both copies). Returns the fast copy's train statistics. */
function run(aToB: { at: number; ch: number }[], bToA: { at: number; ch: number }[], popB: boolean[], handover: 'checked' | 'on-arrival', cycles: number, extra?: (ls: Lockstep<TrainBench>, c: number) => void) {
  const ls = new Lockstep(() => new TrainBench(aToB, bToA, popB, handover));
  for (let c = 0; c < cycles; c++) {
    extra?.(ls, c);
    ls.step();
  }
  const st = trains(ls.active).map((t) => t.stats);
  return { ls, entered: st[0]!.entered + st[1]!.entered, thawed: st[0]!.thawed + st[1]!.thawed };
}

const dir = mkdtempSync(join(tmpdir(), 'icemu-trains-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

afterEach(() => {
  DsNullTrain.skew = 0;
});

describe('DS-link NULL trains on demand = bit by bit', () => {
  it('property: random bursts both ways, stalls, both handovers: every value at every cycle', () => {
    let entered = 0;
    let thawed = 0;
    fc.assert(
      fc.property(sendArb, sendArb, fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), fc.constantFrom('checked' as const, 'on-arrival' as const), (aToB, bToA, pop, handover) => {
        const popB = pop.some((x) => x) ? pop : [true];
        const r = run(aToB, bToA, popB, handover, 6000);
        entered += r.entered;
        thawed += r.thawed;
      }),
      { numRuns: 8 },
    );
    // The trains were used and left: the property tested the fast path, not only the bit path.
    expect(entered).toBeGreaterThan(8);
    expect(thawed).toBeGreaterThan(4);
  }, 120_000);

  it('an idle link in Run costs no evaluation (the test bench\'s own only)', () => {
    const { ls } = run([], [], [true], 'checked', 3000);
    const e0 = ls.simA.evaluations;
    const p0 = ls.simP.evaluations;
    for (let c = 0; c < 800; c++) ls.step();
    const perCycle = (ls.simA.evaluations - e0) / 800;
    // The test bench itself: 2 sources and 2 sinks count cycles (2 evaluations a cycle each);
    // the link: nothing (a still train: `more` and `take` on demand too, test/dslink/still_train.test.ts;
    // before, 1 per direction: the serialiser's two wake-ups, `take`, the token choice and its register update, twice each).
    expect(perCycle).toBe(8);
    expect((ls.simP.evaluations - p0) / 800).toBeGreaterThan(30);
    expect(trains(ls.active).every((t) => t.dormant)).toBe(true);
  });

  it('a poke into a frozen register, a switch to the reference mode and back: still equal', () => {
    run([{ at: 4000, ch: 7 }], [], [true], 'checked', 5000, (ls, c) => {
      if (c === 3001) {
        expect(trains(ls.active).every((t) => t.dormant)).toBe(true);
        ls.poke((u) => u.pair.b.dec.prevPar, 1); // a frozen register: thawed first, then poked
      }
      if (c === 3500) ls.simA.setMode('plain');
      if (c === 3600) ls.simA.setMode('activity');
    });
  });

  it('the VCD of every signal is byte-identical (D/S wires, decoded-token twins, every register)', () => {
    const sends = [{ at: 3100, ch: 1 }, { at: 3101, ch: 2 }, { at: 3400, ch: CHAR_EOP }, { at: 3900, ch: 255 }];
    const vcdOf = (mode: 'plain' | 'activity'): string => {
      const b = new TrainBench(sends, [{ at: 3650, ch: 9 }], [true], 'checked');
      const sim = new Simulator(b, { mode });
      const path = join(dir, `all-${mode}.vcd`);
      const w = startVcd(sim, path, { date: '2026-01-01T00:00:00Z', handleExit: false });
      sim.step(4500);
      w.close();
      if (mode === 'activity') expect(trains(b).reduce((n, x) => n + x.stats.thawed, 0)).toBeGreaterThan(2);
      return readFileSync(path, 'utf8');
    };
    expect(vcdOf('activity')).toBe(vcdOf('plain'));
  });

  it('snapshots carry a train: restore in the middle of one and replay the same values', () => {
    const b = new TrainBench([{ at: 3300, ch: 42 }], [], [true], 'checked');
    const sim = new Simulator(b, { mode: 'activity' });
    sim.step(3003);
    expect(trains(b).every((x) => x.dormant)).toBe(true);
    const snap = sim.save();
    const after = (): string[] => Array.from({ length: 600 }, () => (sim.step(1), Array.from(sim.values()).join(',')));
    const a = after();
    sim.restore(snap);
    expect(after()).toEqual(a);
  });

  it('negative control: the recorded period read one cycle off is seen', () => {
    DsNullTrain.skew = 1;
    expect(() => run([{ at: 3500, ch: 7 }], [], [true], 'checked', 4000)).toThrow(/in plain mode but .* in activity mode/);
  });

  it('a link through the wire-fault injector stays bit by bit (no trains)', () => {
    const pair = new DsLinkPair(null, 'p', { faults: true });
    expect(pair.a.ser.txTrain).toBeNull();
    expect(pair.b.ser.txTrain).toBeNull();
  });

  it("a link whose idle transmitters hold their wires (runIdle 'one-null') has no trains; the default one has one per direction", () => {
    const quiet = new DsLinkPair(null, 'q', { a: { runIdle: 'one-null' }, b: { runIdle: 'one-null' } });
    expect(quiet.a.ser.txTrain).toBeNull();
    const plain = new DsLinkPair(null, 'p');
    expect(plain.a.ser.txTrain?.rx).toBe(plain.b);
    expect(plain.b.ser.txTrain?.rx).toBe(plain.a);
  });
});

