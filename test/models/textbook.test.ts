/**
 * Textbook models (seed 003 §2.5–2.6; cost-models.md §1) against every number
 * the seed or the spec derives from them, plus properties.
 * The seed gives no machine constants; tests use small exact values so that
 * the formulas are checked term by term.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TEXTBOOK_PACKET_INSTANCES,
  cutThroughTime,
  ecubePath,
  effectivePerWordTimeLowerBound,
  hypercubeDistance,
  packetPerWordTime,
  packetRoutingFirstPacketTime,
  packetRoutingTime,
  randomMeshCongestion,
  randomMeshLowerBound,
  simplifiedTime,
  storeAndForwardTime,
  storeAndForwardTimeSimplified,
  xyPath,
} from '../../harness/models/textbook.ts';
import { packetWireBits } from '../../harness/models/buzzard.ts';

const bin = (s: string) => parseInt(s, 2);
const b6 = (n: number) => n.toString(2).padStart(6, '0');

describe('seed 003 Eq 2.2 store-and-forward', () => {
  it('t_s + (m t_w + t_h) l, term by term (exact)', () => {
    expect(storeAndForwardTime({ ts: 100, th: 3, tw: 2, m: 10, l: 4 })).toBe(100 + (10 * 2 + 3) * 4);
    expect(storeAndForwardTime({ ts: 0, th: 0, tw: 1, m: 5, l: 0 })).toBe(0);
  });
  it('simplified form t_s + m l t_w drops only the t_h term (exact)', () => {
    expect(storeAndForwardTimeSimplified({ ts: 100, tw: 2, m: 10, l: 4 })).toBe(180);
    expect(storeAndForwardTime({ ts: 100, th: 0, tw: 2, m: 10, l: 4 })).toBe(180);
  });
});

describe('seed 003 §2.5.1 packet routing', () => {
  it('t_w = t_w1 + t_w2 (1 + s/r) (exact)', () => {
    expect(packetPerWordTime({ tw1: 1, tw2: 2, s: 4, r: 16 })).toBe(1 + 2 * (1 + 4 / 16));
  });
  it('the derivation collapses to t_s + t_h l + t_w m (1e-9 relative)', () => {
    fc.assert(
      fc.property(
        fc.record({
          ts: fc.double({ min: 0, max: 1e4, noNaN: true }),
          th: fc.double({ min: 0, max: 1e3, noNaN: true }),
          tw1: fc.double({ min: 0, max: 10, noNaN: true }),
          tw2: fc.double({ min: 0, max: 10, noNaN: true }),
          s: fc.integer({ min: 0, max: 64 }),
          r: fc.integer({ min: 1, max: 256 }),
          packets: fc.integer({ min: 1, max: 100 }),
          l: fc.integer({ min: 0, max: 20 }),
        }),
        (v) => {
          const m = v.r * v.packets;
          const full = packetRoutingTime({ ...v, m });
          const collapsed = v.ts + v.th * v.l + packetPerWordTime(v) * m;
          expect(Math.abs(full - collapsed)).toBeLessThanOrEqual(1e-9 * Math.max(1, collapsed));
        },
      ),
    );
  });
  it('first packet arrives at t_s + t_w1 m + t_h l + t_w2 (r + s) (exact)', () => {
    expect(packetRoutingFirstPacketTime({ ts: 10, th: 5, tw1: 1, tw2: 2, s: 3, r: 8, m: 32, l: 4 })).toBe(10 + 32 + 20 + 2 * 11);
  });
  it('[derived] cost-models.md §1.10: Buzzard hardware t_w = 299/28 = 10.68 bit-times per data byte (2 decimals)', () => {
    const inst = TEXTBOOK_PACKET_INSTANCES.buzzardHardware;
    expect(inst.s + inst.r).toBe(packetWireBits({ words: 16 })); // 299 bits per full packet
    expect(inst.r).toBe(28 * 8);
    expect(8 * packetPerWordTime(inst)).toBeCloseTo(10.68, 2);
    expect(8 * packetPerWordTime(inst)).toBeCloseTo(299 / 28, 12);
  });
  it('[derived] cost-models.md §1.10: C104 t_w = 334/32 = 10.44 bit-times = 104.4 ns per data byte (2 decimals / 1 decimal)', () => {
    const inst = TEXTBOOK_PACKET_INSTANCES.c104;
    expect(inst.s + inst.r).toBe(32 * 10 + 14);
    expect(8 * packetPerWordTime(inst)).toBeCloseTo(10.44, 2);
    expect(8 * packetPerWordTime(inst) * 10).toBeCloseTo(104.4, 1); // 10 ns per bit at 100 Mbit/s
  });
  it('rejects r = 0 and messages shorter than one packet', () => {
    expect(() => packetPerWordTime({ tw1: 0, tw2: 1, s: 1, r: 0 })).toThrow(/textbook\.packetPerWordTime\.r: 0 is outside >0/);
    expect(() => packetRoutingTime({ ts: 0, th: 0, tw1: 0, tw2: 1, s: 1, r: 8, m: 4, l: 1 })).toThrow(/textbook\.packetRouting\.m: 4 is outside 8\.\.∞/);
  });
});

describe('seed 003 Eq 2.3 cut-through and Eq 2.4', () => {
  it('t_s + l t_h + t_w m (exact)', () => {
    expect(cutThroughTime({ ts: 100, th: 3, tw: 2, m: 10, l: 4 })).toBe(100 + 12 + 20);
    expect(simplifiedTime({ ts: 100, tw: 2, m: 10 })).toBe(120);
  });
  it('for l = 1 store-and-forward and cut-through coincide (seed 003 after Eq 2.3)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e4, noNaN: true }), fc.double({ min: 0, max: 1e3, noNaN: true }), fc.double({ min: 0, max: 10, noNaN: true }), fc.double({ min: 0, max: 1e5, noNaN: true }), (ts, th, tw, m) => {
        expect(cutThroughTime({ ts, th, tw, m, l: 1 })).toBeCloseTo(storeAndForwardTime({ ts, th, tw, m, l: 1 }), 6);
      }),
    );
  });
  it('property: simplified ≤ cut-through ≤ store-and-forward for l ≥ 1, all monotone in m', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e4, noNaN: true }),
        fc.double({ min: 0, max: 1e3, noNaN: true }),
        fc.double({ min: 0, max: 10, noNaN: true }),
        fc.double({ min: 0, max: 1e5, noNaN: true }),
        fc.double({ min: 0, max: 1e5, noNaN: true }),
        fc.integer({ min: 1, max: 64 }),
        (ts, th, tw, m1, m2, l) => {
          const eps = 1e-9 * (ts + th * l + tw * Math.max(m1, m2) * l + 1);
          const ct = cutThroughTime({ ts, th, tw, m: m1, l });
          expect(simplifiedTime({ ts, tw, m: m1 })).toBeLessThanOrEqual(ct + eps);
          expect(ct).toBeLessThanOrEqual(storeAndForwardTime({ ts, th, tw, m: m1, l }) + eps);
          const [lo, hi] = m1 <= m2 ? [m1, m2] : [m2, m1];
          expect(cutThroughTime({ ts, th, tw, m: lo, l })).toBeLessThanOrEqual(cutThroughTime({ ts, th, tw, m: hi, l }) + eps);
          expect(storeAndForwardTime({ ts, th, tw, m: lo, l })).toBeLessThanOrEqual(storeAndForwardTime({ ts, th, tw, m: hi, l }) + eps);
        },
      ),
    );
  });
  it('validates: negative size, non-integer hops, negative times', () => {
    expect(() => cutThroughTime({ ts: 0, th: 0, tw: 1, m: -1, l: 1 })).toThrow(RangeError);
    expect(() => cutThroughTime({ ts: 0, th: 0, tw: 1, m: -1, l: 1 })).toThrow(/textbook\.cutThrough\.m: -1 is outside 0\.\.∞ \(words\)/);
    expect(() => cutThroughTime({ ts: 0, th: 0, tw: 1, m: 1, l: 1.5 })).toThrow(/textbook\.cutThrough\.l: 1\.5 is outside 0\.\.∞ \(integer\)/);
    expect(() => storeAndForwardTime({ ts: -5, th: 0, tw: 1, m: 1, l: 1 })).toThrow(/\.ts: -5/);
    expect(() => simplifiedTime({ ts: 0, tw: Number.NaN, m: 1 })).toThrow(/\.tw: NaN is not a number/);
  });
});

describe('seed 003 Example 2.15 congestion', () => {
  it('some link carries at least (p/4)/√p = √p/4 messages (exact)', () => {
    expect(randomMeshCongestion({ p: 64 })).toBe(2);
    expect(randomMeshCongestion({ p: 256 })).toBe(4);
    expect(randomMeshCongestion({ p: 16 })).toBe(1);
  });
  it('lower bound t_s + t_w m √p/4 (exact)', () => {
    expect(randomMeshLowerBound({ ts: 10, tw: 2, m: 100, p: 64 })).toBe(10 + 2 * 100 * 2);
  });
  it('effective per-word time scaled by p/b (exact)', () => {
    expect(effectivePerWordTimeLowerBound({ tw: 1.5, p: 64, bisectionWidth: 8 })).toBe(12);
  });
  it('rejects a non-square mesh', () => {
    expect(() => randomMeshCongestion({ p: 8 })).toThrow(/p: 8 is not a perfect square/);
  });
});

describe('seed 003 §2.6 routing', () => {
  it('Example 2.16: e-cube 010 → 011 → 111', () => {
    expect(ecubePath({ src: bin('010'), dst: bin('111'), d: 3 })).toEqual([bin('010'), bin('011'), bin('111')]);
    expect(hypercubeDistance({ src: bin('010'), dst: bin('111') })).toBe(2);
  });
  it("seed 002 §4.3.1 NCUBE example: 011010 → 011000 → 011100 → 010100 → 110100", () => {
    expect(ecubePath({ src: bin('011010'), dst: bin('110100'), d: 6 }).map(b6)).toEqual(['011010', '011000', '011100', '010100', '110100']);
  });
  it('property: e-cube path length = popcount(src ⊕ dst), one bit per hop, ascending dimensions', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }).chain((d) => fc.tuple(fc.constant(d), fc.nat(2 ** d - 1), fc.nat(2 ** d - 1))), ([d, src, dst]) => {
        const path = ecubePath({ src, dst, d });
        expect(path.length - 1).toBe(hypercubeDistance({ src, dst }));
        let lastDim = -1;
        for (let i = 1; i < path.length; i++) {
          const diff = path[i - 1]! ^ path[i]!;
          expect(diff & (diff - 1)).toBe(0);
          const dim = Math.log2(diff);
          expect(dim).toBeGreaterThan(lastDim);
          lastDim = dim;
        }
        expect(path.at(-1)).toBe(dst);
      }),
    );
  });
  it('XY routing: X first to the destination column, then Y; length |Sx−Dx| + |Sy−Dy|', () => {
    const path = xyPath({ src: { x: 1, y: 2 }, dst: { x: 3, y: 4 } });
    expect(path).toEqual([
      { x: 1, y: 2 },
      { x: 2, y: 2 },
      { x: 3, y: 2 },
      { x: 3, y: 3 },
      { x: 3, y: 4 },
    ]);
    fc.assert(
      fc.property(fc.nat(20), fc.nat(20), fc.nat(20), fc.nat(20), (sx, sy, dx, dy) => {
        const p = xyPath({ src: { x: sx, y: sy }, dst: { x: dx, y: dy } });
        expect(p.length - 1).toBe(Math.abs(sx - dx) + Math.abs(sy - dy));
        const turn = p.findIndex((n) => n.x === dx);
        expect(p.slice(0, turn + 1).every((n) => n.y === sy)).toBe(true);
        expect(p.slice(turn).every((n) => n.x === dx)).toBe(true);
      }),
    );
  });
  it('rejects labels outside the cube', () => {
    expect(() => ecubePath({ src: 8, dst: 0, d: 3 })).toThrow(/textbook\.ecube\.src: 8 is outside 0\.\.7/);
  });
});
