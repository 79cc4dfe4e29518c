/**
 * A poked register holds until the next clock edge, where it takes what its
 * seq logic computes (Simulator.poke). The fast (activity) mode must then run
 * the process that computes it even when that process does not read it, as
 * the reference mode does every cycle (docs/kernel.md#poke).
 */
import { describe, expect, it } from 'vitest';
import { Module, Signal, Simulator } from '../../rtl/kernel/index.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import { CharSink, CharSource } from '../dslink/bench.ts';

/** A DS-link pair with nothing to send (as in the review's reproduction): no trains (faults on). */
class IdlePair extends Module {
  constructor() {
    super(null, 'p');
    const pair = new DsLinkPair(this, 'link', { faults: true });
    new CharSource(this, 'srcA', pair.a, [], [true], []);
    new CharSource(this, 'srcB', pair.b, [], [true], []);
    new CharSink(this, 'sinkA', pair.a);
    new CharSink(this, 'sinkB', pair.b);
  }
}

/** x <= a every edge: the process reads only a, never x. */
class Follower extends Module {
  readonly a: Signal;
  readonly x: Signal;
  constructor() {
    super(null, 'top');
    this.a = this.input('a', 4);
    this.x = this.reg('x', 4, 0);
    this.seq(() => {
      this.s[this.x.n] = this.s[this.a.i]!;
    }, { reads: [this.a] });
  }
}

function afterPoke(mode: 'plain' | 'activity'): number[] {
  const top = new Follower();
  const sim = new Simulator(top, { mode });
  sim.poke(top.a, 3);
  sim.step(3);
  sim.poke(top.x, 9);
  const seen = [sim.peek(top.x)];
  sim.step(1);
  seen.push(sim.peek(top.x));
  sim.step(1);
  seen.push(sim.peek(top.x));
  return seen;
}

describe('poke of a register its process computes but does not read', () => {
  it('holds for the cycle, then takes the seq logic value at the edge, in both modes', () => {
    expect(afterPoke('plain')).toEqual([9, 3, 3]);
    expect(afterPoke('activity')).toEqual(afterPoke('plain'));
  });

  it('DS-link serialiser busy poked after a flipped data bit: fast equals reference the cycle after (review reproduction)', () => {
    const run = (mode: 'plain' | 'activity'): number[] => {
      const sim = new Simulator(new IdlePair(), { mode });
      const data = sim.signal('link.a.ser.data');
      const busy = sim.signal('link.a.ser.busy');
      sim.step(2600);
      sim.poke(data, sim.peek(data) ^ 1);
      sim.step(100);
      sim.poke(busy, 1);
      const seen: number[] = [];
      for (let k = 0; k < 20; k++) {
        sim.step(1);
        seen.push(sim.peek(busy), sim.peek(sim.signal('link.a.ser.more')));
      }
      return seen;
    };
    expect(run('activity')).toEqual(run('plain'));
  });
});
