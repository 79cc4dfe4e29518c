/**
 * Buzzard's closed forms (seed 002; cost-models.md §4.2–4.5, buzzard.md §5,
 * §8.2, §8.3, §9, §10.3, §15) against every number the seed prints or the spec
 * derives from them, plus properties.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BUZZARD_CH5_DEFAULTS,
  BUZZARD_HW_DEFAULTS,
  P_ADAPTIVE_LIMIT,
  P_FIXED_LIMIT,
  arbiterTiming,
  bufferRamMaxLinkRateMbps,
  collisionProbabilityAdaptive,
  collisionProbabilityFixed,
  cyclesToMicroseconds,
  expectedLinkUtilisation,
  fig428Example,
  generationTimeSchedule,
  headCriticalPath,
  idealLinkUtilisation,
  meanHypercubeDistance,
  packetMessageTime,
  packetWireBits,
  packetWords,
  wormholeMessageTime,
  zeroLoadLatency,
} from '../../harness/models/buzzard.ts';
import { cutThroughTime, ecubePath, hypercubeDistance } from '../../harness/models/textbook.ts';

describe('seed 002 Eqs 5.1 and 5.2 (first-link collisions)', () => {
  const table: [number, number, number][] = [
    [2, 0.5556, 0.4444],
    [3, 0.4286, 0.1633],
    [4, 0.3778, 0.0711],
    [5, 0.3548, 0.0333],
    [6, 0.3439, 0.0161],
    [8, 0.3359, 0.0039],
    [10, 0.334, 0.001],
  ];
  it('[derived] cost-models.md §4.3 table, n = 2..10 (4 decimals)', () => {
    for (const [n, pf, pa] of table) {
      expect(collisionProbabilityFixed({ n })).toBeCloseTo(pf, 4);
      expect(collisionProbabilityAdaptive({ n })).toBeCloseTo(pa, 4);
    }
  });
  it('seed 002 §5.2: lim P_f = 1/3, lim P_a = 0 (n = 40: within 1e-12 of the limits)', () => {
    expect(P_FIXED_LIMIT).toBe(1 / 3);
    expect(P_ADAPTIVE_LIMIT).toBe(0);
    expect(Math.abs(collisionProbabilityFixed({ n: 40 }) - P_FIXED_LIMIT)).toBeLessThan(1e-12);
    expect(collisionProbabilityAdaptive({ n: 40 })).toBeLessThan(1e-10);
  });
  it('property: P_a decreases monotonically to 0, P_f approaches 1/3 from above, P_f > P_a for n ≥ 2', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 60 }), (n) => {
        expect(collisionProbabilityAdaptive({ n: n + 1 })).toBeLessThan(collisionProbabilityAdaptive({ n }));
        expect(Math.abs(collisionProbabilityFixed({ n: n + 1 }) - 1 / 3)).toBeLessThanOrEqual(Math.abs(collisionProbabilityFixed({ n }) - 1 / 3));
        expect(collisionProbabilityFixed({ n })).toBeGreaterThanOrEqual(1 / 3);
        expect(collisionProbabilityFixed({ n })).toBeGreaterThan(collisionProbabilityAdaptive({ n }));
      }),
    );
  });
  it('Eq 5.1 is the exact collision probability of fixed e-cube first hops (enumeration, n = 1..8, 1e-12)', () => {
    for (let n = 1; n <= 8; n++) {
      const N = 2 ** n;
      const count = new Array<number>(n).fill(0);
      for (let d = 1; d < N; d++) count[Math.log2(d & -d)]!++; // first link = lowest differing bit from node 0
      const exact = count.reduce((a, c) => a + (c / (N - 1)) ** 2, 0);
      expect(Math.abs(collisionProbabilityFixed({ n }) - exact)).toBeLessThan(1e-12);
    }
  });
  it('n = 1: P_f = 1 (one link); P_a rejected (the printed expression gives 2)', () => {
    expect(collisionProbabilityFixed({ n: 1 })).toBe(1);
    expect(() => collisionProbabilityAdaptive({ n: 1 })).toThrow(/buzzard\.eq5_2\.n: 1 is outside 2\.\.1000 \(integer\)/);
  });
});

describe('seed 002 §5.4.2 head critical path', () => {
  it('31 cycles = 27 (25 bits + 2 start bits) + 1 (CAM load) + 2 (arbitrate) + 1 (CAM unload); output shifts on the 32nd', () => {
    expect(headCriticalPath()).toEqual({ shiftInCycles: 27, camLoadCycles: 1, arbitrationCycles: 2, camUnloadCycles: 1, totalCycles: 31, outputShiftStartsOnCycle: 32 });
  });
  it('[interp] A2: counting the post-preheader "10" gives 33 cycles (shift on the 34th)', () => {
    const h = headCriticalPath({ countPostPreheaderSync: true });
    expect([h.shiftInCycles, h.totalCycles, h.outputShiftStartsOnCycle]).toEqual([29, 33, 34]);
  });
});

describe('seed 002 §5.4.3 arbiter and §5.4.1 RAM', () => {
  it('degree-10 cube: 1-of-11 arbiter, 12 gate delays, clock period > 6 gate delays fits 2 cycles', () => {
    const a = arbiterTiming({ cubeDegree: 10 });
    expect(a).toEqual({ inputs: 11, modules: 10, levels: 4, gateDelays: 12, minClockPeriodGateDelays: 6 });
  });
  it('Fig. 5.6: a 1-of-8 arbiter from seven 1-of-2 modules; 3Δ·log2 8 = 9 gate delays', () => {
    const a = arbiterTiming({ inputs: 8 });
    expect([a.modules, a.gateDelays]).toEqual([7, 9]);
  });
  it('[derived] 16 bits per 10 × 35 ns = 45.7 Mbit/s (1 decimal); the seed rounds to "below 45 MHz" (pinned)', () => {
    expect(bufferRamMaxLinkRateMbps()).toBeCloseTo(45.7, 1);
    expect(bufferRamMaxLinkRateMbps()).toBeGreaterThan(45);
  });
  it('rejects ambiguous arbiter input', () => {
    expect(() => arbiterTiming({})).toThrow(/exactly one of inputs/);
    expect(() => arbiterTiming({ inputs: 1 })).toThrow(/buzzard\.arbiter\.inputs: 1 is outside 2\.\./);
  });
});

describe('seed 002 §5.4.8 framing', () => {
  it('[derived] buzzard.md §5: 11 + 18W bits; full packet (W = 16) = 299 bit-times for 28 data bytes = 10.68 per byte (2 decimals)', () => {
    expect(packetWireBits({ words: 16 })).toBe(299);
    expect(packetWireBits({ words: 1 })).toBe(29);
    expect(packetWireBits({ words: 16 }) / 28).toBeCloseTo(10.68, 2);
    expect(packetWords({ payloadBytes: 28 })).toBe(16);
  });
  it('[derived] buzzard.md §9: an 8-byte edge is W = 6 (119 bits), a 1-byte corner W = 3 (65 bits)', () => {
    expect(packetWireBits({ words: packetWords({ payloadBytes: 8 }) })).toBe(119);
    expect(packetWireBits({ words: packetWords({ payloadBytes: 1 }) })).toBe(65);
  });
});

describe('seed 002 §5.7 ideal link utilisation', () => {
  it('[derived] mean distance n·2^(n−1)/(2^n − 1) = 3.0476 at n = 6 (4 decimals)', () => {
    expect(meanHypercubeDistance({ n: 6 })).toBeCloseTo(3.0476, 4);
  });
  it('[derived] exact mean distance equals the all-pairs average of popcount (n = 1..8)', () => {
    for (let n = 1; n <= 8; n++) {
      let sum = 0;
      for (let d = 1; d < 2 ** n; d++) sum += hypercubeDistance({ src: 0, dst: d });
      expect(meanHypercubeDistance({ n })).toBeCloseTo(sum / (2 ** n - 1), 12);
    }
  });
  it('[derived] buzzard.md §10.3: U ≈ 520.1/T̄_gen; .51 .41 .34 .25 .20 .17 .10 .073 .056 for the nine 512-byte rates', () => {
    expect(expectedLinkUtilisation({ n: 6, meanLengthBytes: 512, meanGenerationTicks: 1 })).toBeCloseTo(520.1, 1);
    const printed = [0.51, 0.41, 0.34, 0.25, 0.2, 0.17, 0.1, 0.073, 0.056];
    BUZZARD_CH5_DEFAULTS.generationTimes512.forEach((T, i) => {
      const digits = printed[i]! < 0.1 ? 3 : 2;
      expect(expectedLinkUtilisation({ n: 6, meanLengthBytes: 512, meanGenerationTicks: T })).toBeCloseTo(printed[i]!, digits);
      // "The 2048-byte set gives the same U values at 4× the T̄_gen"
      expect(expectedLinkUtilisation({ n: 6, meanLengthBytes: 2048, meanGenerationTicks: BUZZARD_CH5_DEFAULTS.generationTimes2048[i]! })).toBeCloseTo(
        expectedLinkUtilisation({ n: 6, meanLengthBytes: 512, meanGenerationTicks: T }),
        12,
      );
    });
  });
  it('the §5.7 sum over explicit messages: 2M·L link ticks / (links × last generation time) (exact)', () => {
    const u = idealLinkUtilisation({ n: 3, lastGenerationTicks: 100, messages: [{ lengthBytes: 10, hops: 2 }, { lengthBytes: 4, hops: 3 }] });
    expect(u).toBeCloseTo((2 * 10 * 2 + 2 * 4 * 3) / (24 * 100), 12);
  });
  it('the sum over an all-pairs workload equals the expected-value form exactly (n = 6)', () => {
    const n = 6;
    const N = 2 ** n;
    const messages = [];
    for (let s = 0; s < N; s++) for (let d = 0; d < N; d++) if (d !== s) messages.push({ lengthBytes: 512, hops: ecubePath({ src: s, dst: d, d: n }).length - 1 });
    const T = 5000;
    const u = idealLinkUtilisation({ n, lastGenerationTicks: T, messages });
    expect(u).toBeCloseTo(expectedLinkUtilisation({ n, meanLengthBytes: 512, meanGenerationTicks: T / (N - 1) }), 12);
  });
  it('seed 002 §5.7 generation rates from the prose: 1024 +256 ×2, +512 ×3, +2048 ×3 → 9216', () => {
    expect(generationTimeSchedule({ startTicks: 1024, increments: [{ count: 2, ticks: 256 }, { count: 3, ticks: 512 }, { count: 3, ticks: 2048 }] })).toEqual([...BUZZARD_CH5_DEFAULTS.generationTimes512]);
  });
  it('pinned: the 2048-byte set ends at 36864 by the stated pattern; the seed prints "36846" (A17)', () => {
    const s = generationTimeSchedule({ startTicks: 4096, increments: [{ count: 2, ticks: 1024 }, { count: 3, ticks: 2048 }, { count: 3, ticks: 8192 }] });
    expect(s).toEqual([...BUZZARD_CH5_DEFAULTS.generationTimes2048]);
    expect(s.at(-1)).toBe(36864);
    expect(s.at(-1)).not.toBe(36846);
  });
  it('validates hop counts against the cube', () => {
    expect(() => idealLinkUtilisation({ n: 3, lastGenerationTicks: 1, messages: [{ lengthBytes: 1, hops: 4 }] })).toThrow(/messages\[0\]\.hops: 4 is outside 0\.\.3/);
    expect(() => idealLinkUtilisation({ n: 3, lastGenerationTicks: 0, messages: [] })).toThrow(/lastGenerationTicks: 0 is outside >0/);
  });
});

describe('seed 002 §4.5 wormhole vs packet', () => {
  it('(M/p)(p + hα) = M + (M/p)hα; pipelining reduces it to M + hα', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 0, max: 10 }), fc.double({ min: 0, max: 5, noNaN: true }), (p, k, h, a) => {
        const M = p * k;
        const full = packetMessageTime({ M, p, h, alpha: a, pipelined: false });
        expect(full).toBeCloseTo(M + (M / p) * h * a, 6);
        expect(packetMessageTime({ M, p, h, alpha: a })).toBeLessThanOrEqual(full + 1e-9);
      }),
    );
    expect(wormholeMessageTime({ M: 100, h: 3, beta: 5 })).toBe(115);
  });
  it('exact values (by hand): pipelined M + hα, not pipelined (M/p)(p + hα)', () => {
    expect(packetMessageTime({ M: 512, p: 32, h: 3, alpha: 2 })).toBe(518);
    expect(packetMessageTime({ M: 512, p: 32, h: 3, alpha: 2, pipelined: false })).toBe(608); // 16 · 38
    expect(packetMessageTime({ M: 100, p: 10, h: 0, alpha: 7 })).toBe(100);
    expect(packetMessageTime({ M: 96, p: 32, h: 6, alpha: 0.5, pipelined: false })).toBe(105); // 3 · 35
    expect(packetMessageTime({ M: 0, p: 32, h: 4, alpha: 3 })).toBe(12);
  });
  it('Fig. 4.28: wormhole t_s = M_s + h·t_l grows with the long message; packet t_s = M_s + 2h does not', () => {
    const a = fig428Example({ Ml: 1000, Ms: 10, h: 3 });
    expect(a).toEqual({ wormhole: { tl: 1003, ts: 10 + 3 * 1003 }, packet: { tl: 1003, ts: 16 } });
    expect(fig428Example({ Ml: 5000, Ms: 10, h: 3 }).packet.ts).toBe(16);
  });
});

describe('zero-load latency of the Buzzard hardware (closed form as far as buzzard.md determines it)', () => {
  const edge = { hops: 1, messageBytes: 8, firstPacketPrefixBytes: 0 };
  it('[derived] buzzard.md §9: 8-byte edge, one hop: 2 + 31 + 119 = 152 cycles = 21.7 µs at 7 MHz (1 decimal), under the seed\'s 22 µs', () => {
    const r = zeroLoadLatency(edge);
    expect(r.messageCompleteCycles).toBe(152);
    expect(r.messageCompleteUs).toBeCloseTo(21.7, 1);
    expect(r.messageCompleteUs).toBeLessThan(22); // seed 002 §3.6.1
  });
  it('[derived] buzzard.md §9: 1-byte corner behind the edge, two hops: 2 + 119 + 2 + 65 + 2·31 = 250 cycles = 35.7 µs (< 37 µs)', () => {
    const edgeBusy = zeroLoadLatency(edge).firstPacketStartCycles + 119;
    const r = zeroLoadLatency({ hops: 2, messageBytes: 1, firstPacketPrefixBytes: 0, sourceBusyCycles: edgeBusy });
    expect(r.messageCompleteCycles).toBe(250);
    expect(r.messageCompleteUs).toBeCloseTo(35.7, 1);
    expect(r.messageCompleteUs).toBeLessThan(37); // seed 002 §3.6.1
  });
  it('[derived] buzzard.md §9 / A7: with the default 6-byte first-packet prefix the edge takes 206 cycles ≈ 29 µs, over the 22 µs bound (pinned)', () => {
    const r = zeroLoadLatency({ hops: 1, messageBytes: 8 });
    expect(BUZZARD_HW_DEFAULTS.firstPacketPrefixBytes).toBe(6);
    expect(r.packetWireBits).toEqual([173]);
    expect(r.messageCompleteCycles).toBe(206);
    expect(r.messageCompleteUs).toBeCloseTo(29.4, 1);
    expect(r.messageCompleteUs).toBeGreaterThan(22);
  });
  it('[interp] A2 strict head latency: the edge takes 154 cycles = 22.0 µs, exactly at (not below) the seed\'s bound (pinned)', () => {
    const r = zeroLoadLatency({ ...edge, countPostPreheaderSync: true });
    expect(r.headLatencyPerHopCycles).toBe(33);
    expect(r.messageCompleteCycles).toBe(154);
    expect(r.messageCompleteUs).toBeCloseTo(22.0, 9);
  });
  it('one packet is the textbook cut-through form t_s + l·t_h + t_w·m with t_s = 2 (arbitration), t_h = 31, t_w·m = wire bits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 28 }), fc.boolean(), (hops, bytes, strict) => {
        const r = zeroLoadLatency({ hops, messageBytes: bytes, firstPacketPrefixBytes: 0, countPostPreheaderSync: strict });
        expect(r.packets).toBe(1);
        expect(r.messageCompleteCycles).toBe(cutThroughTime({ ts: 2, th: strict ? 33 : 31, tw: 1, m: r.packetWireBits[0]!, l: hops }));
      }),
    );
  });
  it('multi-packet: 28 data bytes per packet (A6), packets back to back with re-arbitration (A12) and placeholders added once', () => {
    const r = zeroLoadLatency({ hops: 3, messageBytes: 100, firstPacketPrefixBytes: 0 });
    expect(r.packets).toBe(4);
    expect(r.packetWireBits).toEqual([299, 299, 299, packetWireBits({ words: packetWords({ payloadBytes: 16 }) })]);
    expect(r.firstHeadAtDestinationCycles).toBe(2 + 3 * 31);
    expect(r.firstPacketCompleteCycles).toBe(2 + 3 * 31 + 299);
    expect(r.lastBitCycles).toBe(2 + 3 * (299 + 2) + 3 * 31 + 191);
    const withPlaceholders = zeroLoadLatency({ hops: 3, messageBytes: 100, firstPacketPrefixBytes: 0, injectionCycles: 10, interPacketGapCycles: 5, deliveryCycles: 7 });
    expect(withPlaceholders.messageCompleteCycles - r.messageCompleteCycles).toBe(10 + 3 * 5 + 7);
  });
  it('property: latency is linear in hops with slope = head latency, and monotone in message size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 4096 }), fc.integer({ min: 0, max: 4096 }), fc.boolean(), (hops, a, b, strict) => {
        const x = zeroLoadLatency({ hops, messageBytes: a, countPostPreheaderSync: strict });
        const y = zeroLoadLatency({ hops: hops + 1, messageBytes: a, countPostPreheaderSync: strict });
        expect(y.messageCompleteCycles - x.messageCompleteCycles).toBe(x.headLatencyPerHopCycles);
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(zeroLoadLatency({ hops, messageBytes: lo }).messageCompleteCycles).toBeLessThanOrEqual(zeroLoadLatency({ hops, messageBytes: hi }).messageCompleteCycles);
      }),
    );
  });
  it('validates inputs', () => {
    expect(() => zeroLoadLatency({ hops: 0, messageBytes: 8 })).toThrow(/buzzard\.zeroLoadLatency\.hops: 0 is outside 1\.\.64/);
    expect(() => zeroLoadLatency({ hops: 1, messageBytes: -1 })).toThrow(/messageBytes: -1/);
    expect(() => zeroLoadLatency({ hops: 1, messageBytes: 8, packetBytes: 4 })).toThrow(/packetBytes: 4 is outside 5\.\./);
    expect(() => zeroLoadLatency({ hops: 1, messageBytes: 8, clockMHz: 0 })).toThrow(/clockMHz: 0 is outside >0/);
    expect(() => zeroLoadLatency({ hops: 1, messageBytes: 8, injectionCycles: -3 })).toThrow(/injectionCycles: -3/);
  });
  it('cycles → µs at the NCUBE 7 MHz (A1): 154 cycles = 22.0 µs, 259 cycles = 37.0 µs (1 decimal)', () => {
    expect(cyclesToMicroseconds({ cycles: 154 })).toBeCloseTo(22.0, 1);
    expect(cyclesToMicroseconds({ cycles: 259 })).toBeCloseTo(37.0, 1);
  });
});
