/**
 * Train handover (docs/dslink.md#train-handover, docs/kernel.md "Stop 20:
 * train handover"): a DS-link direction goes from its token train straight
 * into its NULL train when the link goes idle (the period computed from the
 * line's state and a period recorded earlier, rtl/dslink/null_train.ts
 * handFromTokens) and from a NULL train straight onto the token train's line
 * when another token is loaded (rtl/dslink/token_train.ts enterAfterNull),
 * with no bit-by-bit stretch between them.
 *
 * Held against the reference mode two ways: lock-step at every cycle and
 * every slot (test/lib/lockstep_sim.ts), and unobserved (the fast copy
 * looked at only every 40 to 600 cycles: the lock-step writes every
 * on-demand value every cycle, so a stale slot read by a unit would not be
 * seen there). Traffic: bursts of characters both ways separated by idle
 * gaps of random length, the cores popping with stalls, both receive
 * handovers. Negative controls: the handed-over period read one cycle off
 * (`DsNullTrain.handSkew`), and the passive registers not carried over (a
 * stale `char`, `DsNullTrain.stalePassive`).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Module, Simulator } from '../../rtl/kernel/index.ts';
import { CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import { DsNullTrain } from '../../rtl/dslink/null_train.ts';
import { Lockstep, firstSlotDiff } from '../lib/lockstep_sim.ts';
import { CharSink, CharSource } from './bench.ts';
import { countRuns } from './count_runs.ts';

type Handover = 'checked' | 'on-arrival';
interface Send {
  at: number;
  ch: number;
}

/** test/dslink/bench.ts's TrainBench, with its sinks kept (what each core received). */
class TrainBench extends Module {
  readonly pair: DsLinkPair;
  readonly sinks: CharSink[];
  constructor(aToB: Send[], bToA: Send[], popB: boolean[], handover: Handover, popA: boolean[] = [true]) {
    super(null, 'top');
    const pair = (this.pair = new DsLinkPair(this, 'link', { a: { rxHandover: handover }, b: { rxHandover: handover } }));
    new CharSource(this, 'srcA', pair.a, aToB.map((x) => x.ch), [true], aToB.map((x) => x.at));
    new CharSource(this, 'srcB', pair.b, bToA.map((x) => x.ch), [true], bToA.map((x) => x.at));
    this.sinks = [new CharSink(this, 'sinkA', pair.a, popA), new CharSink(this, 'sinkB', pair.b, popB)];
  }
}

/** Bursts of 1..6 characters, each after an idle gap of `gaps[k]` cycles (from cycle 3000, the link in Run). */
function bursts(sizes: number[], gaps: number[], seed: number): Send[] {
  const out: Send[] = [];
  let at = 3000;
  sizes.forEach((n, k) => {
    at += gaps[k % gaps.length]!;
    for (let j = 0; j < n; j++) out.push({ at, ch: (out.length + 1) % 9 === 0 ? CHAR_EOP : (out.length * seed) & 255 });
  });
  return out;
}

const burstArb = fc.tuple(fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 12 }), fc.array(fc.integer({ min: 20, max: 260 }), { minLength: 1, maxLength: 6 }));

const nullTrains = (b: TrainBench): DsNullTrain[] => [b.pair.a.ser.txTrain!, b.pair.b.ser.txTrain!];
const handovers = (b: TrainBench): { fromTokens: number; toTokens: number } =>
  nullTrains(b).reduce((m, t) => ({ fromTokens: m.fromTokens + t.stats.fromTokens, toTokens: m.toTokens + t.stats.toTokens }), { fromTokens: 0, toTokens: 0 });

afterEach(() => {
  DsNullTrain.handSkew = 0;
  DsNullTrain.stalePassive = false;
});

const fixed = (): TrainBench => new TrainBench(bursts([3, 1, 5, 2, 6, 1, 4], [90, 37, 150], 37), bursts([2, 4, 1, 3], [120, 61], 91), [true, false, true], 'checked', [true, true, false]);

describe('train handover: token train <-> NULL train with no bit-by-bit stretch = bit by bit', () => {
  it('property: bursts both ways with idle gaps, stalls, both receive handovers: every value at every cycle', () => {
    let from = 0;
    let to = 0;
    fc.assert(
      fc.property(burstArb, burstArb, fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), fc.constantFrom<Handover>('checked', 'on-arrival'), ([sa, ga], [sb, gb], pop, handover) => {
        const popB = pop.some((x) => x) ? pop : [true];
        const ls = new Lockstep(() => new TrainBench(bursts(sa, ga, 37), bursts(sb, gb, 91), popB, handover));
        for (let c = 0; c < 5200; c++) ls.step();
        const h = handovers(ls.active);
        from += h.fromTokens;
        to += h.toTokens;
      }),
      { numRuns: 20 },
    );
    // Both handovers ran, many times: the property tested them, not only the old paths.
    expect(from).toBeGreaterThan(40);
    expect(to).toBeGreaterThan(40);
  }, 300_000);

  it('property: unobserved stretches (looked at every 40 to 600 cycles), the same traffic: equal to the reference at each look (state, characters received)', () => {
    let from = 0;
    let received = 0;
    fc.assert(
      fc.property(burstArb, burstArb, fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }), fc.constantFrom<Handover>('checked', 'on-arrival'), fc.array(fc.integer({ min: 40, max: 600 }), { minLength: 1, maxLength: 8 }), ([sa, ga], [sb, gb], pop, handover, looks) => {
        const popB = pop.some((x) => x) ? pop : [true];
        const mk = (): TrainBench => new TrainBench(bursts(sa, ga, 37), bursts(sb, gb, 91), popB, handover);
        const pb = mk();
        const fb = mk();
        const p = new Simulator(pb, { mode: 'plain' });
        const f = new Simulator(fb, { mode: 'activity' });
        for (let c = 0, k = 0; c < 5500; k++) {
          const n = looks[k % looks.length]!;
          p.step(n);
          f.step(n);
          c += n;
          expect(firstSlotDiff(p, f), `after cycle ${c}`).toBeNull();
        }
        expect(fb.sinks.map((x) => x.got)).toEqual(pb.sinks.map((x) => x.got));
        from += handovers(fb).fromTokens;
        received += fb.sinks[0]!.got.length + fb.sinks[1]!.got.length;
      }),
      { numRuns: 25 },
    );
    expect(from).toBeGreaterThan(50);
    expect(received).toBeGreaterThan(500);
  }, 300_000);

  it('after the first recorded period, every idle gap is entered from the token train: the receiver\'s deserialiser does not run at all', () => {
    const b = fixed();
    const sim = new Simulator(b, { mode: 'activity' });
    sim.step(3050); // both directions have recorded a NULL period
    expect(nullTrains(b).every((t) => t.dormant)).toBe(true);
    const runs = [b.pair.a, b.pair.b].map((e) => countRuns(sim, e.deser.bitsProc));
    const h0 = handovers(b);
    sim.step(2300);
    const h = handovers(b);
    expect(h.fromTokens - h0.fromTokens).toBeGreaterThanOrEqual(9);
    expect(h.toTokens - h0.toTokens).toBeGreaterThanOrEqual(9);
    expect(runs.map((r) => r())).toEqual([0, 0]);
  });

  it('a snapshot taken in a NULL train entered from a token train, restored later and in the reference: the same values', () => {
    const f = fixed();
    const sim = new Simulator(f, { mode: 'activity' });
    sim.step(3050);
    const t0 = handovers(f).fromTokens;
    while (!(handovers(f).fromTokens > t0 && nullTrains(f).some((x) => x.dormant && x.stats.fromTokens > 0))) sim.step(1);
    sim.step(3);
    const snap = sim.save();
    const after = (): string[] => Array.from({ length: 400 }, () => (sim.step(1), Array.from(sim.values()).join(',')));
    const a = after();
    sim.restore(snap);
    expect(after()).toEqual(a);
    const ref = new Simulator(fixed(), { mode: 'plain' });
    ref.restore(snap);
    sim.restore(snap);
    for (let k = 0; k < 400; k++) {
      sim.step(1);
      ref.step(1);
      expect(firstSlotDiff(ref, sim), `${k} cycles after the snapshot`).toBeNull();
    }
  });

  it('negative control: the handed-over period read one cycle off is seen', () => {
    DsNullTrain.handSkew = 1;
    const ls = new Lockstep(fixed);
    expect(() => {
      for (let c = 0; c < 4000; c++) ls.step();
    }).toThrow(/in plain mode but .* in activity mode/);
  });

  it('negative control: the handed-over period one cycle off is seen unobserved too', () => {
    DsNullTrain.handSkew = 1;
    const p = new Simulator(fixed(), { mode: 'plain' });
    const f = new Simulator(fixed(), { mode: 'activity' });
    p.step(4000);
    f.step(4000);
    expect(firstSlotDiff(p, f)).not.toBeNull();
  });

  it('negative control: the passive registers not carried into the period (a stale `char`) are seen', () => {
    DsNullTrain.stalePassive = true;
    const ls = new Lockstep(fixed);
    expect(() => {
      for (let c = 0; c < 4000; c++) ls.step();
    }).toThrow(/dec\.char.* in plain mode but .* in activity mode/);
  });
});
