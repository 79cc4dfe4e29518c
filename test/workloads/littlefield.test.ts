/**
 * Littlefield's f(L) test jig (seed 001 Table 1; cost-models.md §3.2, §3.6):
 * a centre node receiving from one neighbour (L = 1) or exchanging with L/2
 * neighbours.
 */
import { describe, expect, it } from 'vitest';
import { littlefieldJigWorkload, validateWorkload } from '../../harness/workloads/index.ts';

describe('Littlefield test jig', () => {
  it('L = 1: one neighbour sends one block of S doubles to the centre', () => {
    const w = littlefieldJigWorkload({ L: 1, S: 60 });
    expect(w.messages).toEqual([{ id: 0, t: 0, src: 1, dst: 0, bytes: 480, kind: 'unicast' }]);
    expect(w.seed).toBeNull();
    expect(w.cubeDegree).toBe(3);
  });

  it('L = 2k: the centre sends to and receives from k neighbours across dimensions 1..k', () => {
    for (const [L, k] of [[2, 1], [4, 2], [6, 3]] as const) {
      const w = littlefieldJigWorkload({ L, S: 600, centre: 5 });
      validateWorkload(w);
      expect(w.messages.length).toBe(2 * k);
      const nb = Array.from({ length: k }, (_, i) => 5 ^ (1 << i));
      expect(w.messages.filter((m) => m.src === 5).map((m) => m.dst)).toEqual(nb);
      expect(w.messages.filter((m) => m.dst === 5).map((m) => m.src)).toEqual(nb);
      expect(w.messages.every((m) => m.bytes === 4800 && m.t === 0)).toBe(true);
    }
  });

  it('rounds repeat the exchange at the round interval', () => {
    const w = littlefieldJigWorkload({ L: 2, S: 10, bytesPerElement: 4, rounds: 3, roundIntervalTicks: 1000 });
    expect(w.messages.map((m) => m.t)).toEqual([0, 0, 1000, 1000, 2000, 2000]);
    expect(w.messages.every((m) => m.bytes === 40)).toBe(true);
  });

  it('rejects an L the jig cannot realise, naming the field and range', () => {
    expect(() => littlefieldJigWorkload({ L: 3, S: 1 })).toThrow('littlefieldJig.L: 3 is not 1 or an even number 2..6 (links nominally active)');
    expect(() => littlefieldJigWorkload({ L: 8, S: 1 })).toThrow('littlefieldJig.L: 8 is outside 1..6 (integer) (links: 1 or an even number ≤ 2n)');
    expect(() => littlefieldJigWorkload({ L: 2, S: 1, centre: 8 })).toThrow(/littlefieldJig.centre: 8 is outside 0..7/);
  });
});
