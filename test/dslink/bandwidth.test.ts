/**
 * Steady bandwidth of a DS-link pair (docs/dslink.md#bandwidth): a stream of
 * 32-byte packets, each followed by EOP, with cores that never stall.
 *  - One way: the a → b wires carry nothing but the packets: 8·32 data bits
 *    per 10·32 + 4 = 324 bit times (79.01 Mbit/s at 100 Mbit/s); the FCTs
 *    that pay for them go b → a, one per 8 normal tokens.
 *  - Both ways: each direction also carries the FCTs for the other's 33
 *    tokens per packet, 4 bits per FCT: 50 packets take 50·324 bit times
 *    plus 4 bits for each FCT sent in the window (⌊1650/8⌋ or ⌈1650/8⌉).
 * Measured between the 10th and the 60th EOP popped at the far end.
 */
import { describe, expect, it } from 'vitest';
import { CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { makeBench } from './bench.ts';

const PACKET = [...Array.from({ length: 32 }, (_, k) => (k * 37 + 5) & 0xff), CHAR_EOP];
const stream = (n: number): number[] => Array.from({ length: n }, () => PACKET).flat();

function eopCycles(got: readonly { ch: number; cycle: number }[]): number[] {
  return got.filter((g) => g.ch === CHAR_EOP).map((g) => g.cycle);
}

describe('DS-link steady bandwidth', () => {
  it('one way: exactly 324 bit times per 32-byte packet + EOP, FCTs only on the reverse wires', () => {
    const { bench, sim } = makeBench({ aToB: stream(70) });
    const { b } = bench.pair;
    let fctsBack = 0;
    sim.observe({ onCycle: (x) => void (fctsBack += x.peek(b.tokens.sendFct)) });
    sim.runUntil(() => eopCycles(bench.sinkB.got).length >= 60, 100000);
    const e = eopCycles(bench.sinkB.got);
    expect(e[59]! - e[9]!).toBe(50 * 324);
    const mbps = (50 * 32 * 8 * 100) / (e[59]! - e[9]!);
    expect(mbps).toBeCloseTo(79.01, 2);
    // the FCTs that paid for it: ⌊(56 + received)/8⌋ at every point
    const received = bench.sinkB.got.length;
    expect(Math.abs(fctsBack - Math.floor((56 + received) / 8))).toBeLessThanOrEqual(1);
  });

  it('both ways: 324 bit times per packet plus 4 per FCT for the other direction', () => {
    const { bench, sim } = makeBench({ aToB: stream(70), bToA: stream(70) });
    const { a } = bench.pair;
    let e10 = -1;
    let fcts = 0;
    sim.observe({
      onCycle: (x) => {
        const n = eopCycles(bench.sinkB.got).length;
        if (n >= 10 && e10 < 0) e10 = x.cycle;
        if (e10 >= 0 && n < 60) fcts += x.peek(a.tokens.sendFct);
      },
    });
    sim.runUntil(() => eopCycles(bench.sinkB.got).length >= 60, 100000);
    const e = eopCycles(bench.sinkB.got);
    const span = e[59]! - e[9]!;
    expect(fcts).toBeGreaterThanOrEqual(Math.floor(1650 / 8) - 1);
    expect(fcts).toBeLessThanOrEqual(Math.ceil(1650 / 8) + 1);
    expect(Math.abs(span - (50 * 324 + 4 * fcts))).toBeLessThanOrEqual(10);
    const mbps = (50 * 32 * 8 * 100) / span;
    expect(mbps).toBeCloseTo((256 * 100) / (324 + (33 / 8) * 4), 0); // ≈ 75.2
  });
});
