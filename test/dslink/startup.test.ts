/**
 * DS-link start-up and characters both ways (rtl/dslink/end.ts): two ends
 * reach Run after ErrorReset (6.4 µs) and ErrorWait (12.8 µs) and pass
 * data, EOP and EOM in order, in both simulator modes.
 */
import { describe, expect, it } from 'vitest';
import { CHAR_EOM, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { S_RUN } from '../../rtl/dslink/link_fsm.ts';
import { makeBench } from './bench.ts';

describe('DsLinkEnd: start-up and first characters', () => {
  for (const mode of ['plain', 'activity'] as const) {
    it(`two ends reach Run and pass characters both ways (${mode})`, () => {
      const aToB = [0x41, 0x42, CHAR_EOP, 0x43, CHAR_EOM];
      const bToA = [1, 2, 3, CHAR_EOP];
      const { bench, sim } = makeBench({ aToB, bToA }, mode);
      const { a, b } = bench.pair;
      const r = sim.runUntil((x) => x.peek(a.running) === 1 && x.peek(b.running) === 1, 5000);
      expect(r.reached).toBe(true);
      // 640 cycles ErrorReset + 1280 ErrorWait, then NULL/FCT exchange
      expect(r.cycles).toBeGreaterThan(640 + 1280);
      expect(r.cycles).toBeLessThan(640 + 1280 + 60);
      expect(sim.peek(a.linkState)).toBe(S_RUN);
      sim.step(400);
      expect(bench.sinkB.got.map((g) => g.ch)).toEqual(aToB);
      expect(bench.sinkA.got.map((g) => g.ch)).toEqual(bToA);
      expect(sim.peek(a.errCount)).toBe(0);
      expect(sim.peek(b.errCount)).toBe(0);
      expect(sim.peek(a.txCredit)).toBe(56 - aToB.length);
      expect(sim.peek(b.txCredit)).toBe(56 - bToA.length);
    });
  }
});
