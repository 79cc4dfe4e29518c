/**
 * Oliver's H1/C104 model (seed 000; cost-models.md §2) against every number
 * the seed prints or the spec derives from it ([derived] labels), plus
 * properties. Times in ns unless stated.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  OLIVER_EXAMPLE_MACHINE,
  OLIVER_H1_DEFAULTS,
  oliverChannelsToSaturate,
  oliverCrossoverSwitches,
  oliverFirstSwitchCountDependingOnS,
  oliverMessageTimeNs,
  oliverMinChannelsToSaturate,
  oliverMultiChannelTimeNs,
  oliverMultiLinkTimeNs,
  oliverPacketAckNs,
  oliverPacketOutputNs,
  oliverPacketTimeNs,
  oliverSimpleCoefficients,
  oliverSimpleMultiChannelNs,
  oliverSimpleSingleChannelNs,
  oliverVcpSustainsLinks,
} from '../../harness/models/oliver.ts';

describe('seed 000 §2 parameters', () => {
  it('h = 3, b = 32, α = 100 ns, β = 200 ns, γ = 500 ns, δ = 1 µs', () => {
    expect(OLIVER_H1_DEFAULTS).toEqual({ h: 3, b: 32, alphaNs: 100, betaNs: 200, gammaNs: 500, deltaNs: 1000 });
    expect(Object.isFrozen(OLIVER_H1_DEFAULTS)).toBe(true);
  });
});

describe('seed 000 Eq 1 (T_p) and Eq 2 (crossover)', () => {
  it('[derived] first branch β + (h+b+1)α = 3800 ns; second 1100 + 2000 s ns (exact)', () => {
    expect(oliverPacketOutputNs()).toBe(3800);
    for (let s = 0; s <= 10; s++) expect(oliverPacketAckNs({ s })).toBe(1100 + 2000 * s);
  });
  it('[derived] cost-models.md §2.4 T_p row for s = 0..10 (exact ns)', () => {
    const printed = [3800, 3800, 5100, 7100, 9100, 11100, 13100, 15100, 17100, 19100, 21100];
    expect(printed.map((_, s) => oliverPacketTimeNs({ s }))).toEqual(printed);
  });
  it('[derived] Eq 2: s ≥ (2900 − 200)/2000 = 1.35 (2 decimals); T_p depends on s from s = 2 chips', () => {
    expect(oliverCrossoverSwitches()).toBeCloseTo(1.35, 2);
    expect(oliverFirstSwitchCountDependingOnS()).toBe(2);
    // seed 000 §4: "best utilisation … only when at most a single switch chip is traversed"
    expect(oliverPacketTimeNs({ s: 1 })).toBe(oliverPacketOutputNs());
    expect(oliverPacketTimeNs({ s: 2 })).toBeGreaterThan(oliverPacketOutputNs());
  });
  it('Eq 2 is where the two branches of Eq 1 meet (1e-9)', () => {
    fc.assert(
      fc.property(
        fc.record({ h: fc.integer({ min: 0, max: 8 }), b: fc.integer({ min: 8, max: 128 }), alphaNs: fc.double({ min: 1, max: 1000, noNaN: true }), betaNs: fc.double({ min: 0, max: 1000, noNaN: true }), deltaNs: fc.double({ min: 1, max: 5000, noNaN: true }) }),
        (p) => {
          const s = oliverCrossoverSwitches(p);
          fc.pre(s >= 0);
          expect(Math.abs(oliverPacketAckNs({ ...p, s }) - oliverPacketOutputNs(p))).toBeLessThanOrEqual(1e-9 * oliverPacketOutputNs(p));
        },
      ),
    );
  });
  it('[derived] cost-models.md §2.7: with δ = 150 ns, Eq 2 gives s ≥ 9 (exact)', () => {
    expect(oliverCrossoverSwitches({ deltaNs: 150 })).toBeCloseTo(9, 12);
  });
  it('property: T_p is non-decreasing in s', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), fc.double({ min: 0, max: 100, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(oliverPacketTimeNs({ s: lo })).toBeLessThanOrEqual(oliverPacketTimeNs({ s: hi }));
      }),
    );
  });
});

describe('seed 000 Eq 4 (channels to saturate)', () => {
  it('[derived] cost-models.md §2.4 thresholds for s = 0..10 (3 decimals)', () => {
    const printed = [0.289, 0.816, 1.342, 1.868, 2.395, 2.921, 3.447, 3.974, 4.5, 5.026, 5.553];
    printed.forEach((c, s) => expect(oliverChannelsToSaturate({ s })).toBeCloseTo(c, 3));
  });
  it('seed 000 §4: s = 6 suggests "about 3 channels"; [derived] Eq 4 strictly needs 4 (3.447)', () => {
    const s = OLIVER_EXAMPLE_MACHINE.maxSwitchesTraversed;
    expect(oliverChannelsToSaturate({ s })).toBeCloseTo(3.447, 3);
    expect(Math.round(oliverChannelsToSaturate({ s }))).toBe(OLIVER_EXAMPLE_MACHINE.channelsSuggested); // the seed's rounding
    expect(oliverMinChannelsToSaturate({ s })).toBe(4); // mismatch with "about 3": rounding, not a formula difference
  });
  it('seed 000 §4: with s = 0 one channel saturates the link', () => {
    expect(oliverMinChannelsToSaturate({ s: 0 })).toBe(1);
  });
  it('[derived] a worst-case 6-cube path through 7 chips needs c ≥ 3.974 → still 4 (3 decimals)', () => {
    expect(oliverChannelsToSaturate({ s: 7 })).toBeCloseTo(3.974, 3);
    expect(oliverMinChannelsToSaturate({ s: 7 })).toBe(4);
  });
  it('[derived] cost-models.md §2.7: δ = 150 ns, s = 6 gives c ≥ 0.763 (3 decimals)', () => {
    expect(oliverChannelsToSaturate({ s: 6, deltaNs: 150 })).toBeCloseTo(0.763, 3);
  });
});

describe('seed 000 §4 example machine', () => {
  it('256 H1 and 64 C104; [derived] 64 = 2^6, 4 per switch, 16 + 12 + 4 = 32 links', () => {
    const m = OLIVER_EXAMPLE_MACHINE;
    expect(2 ** m.cubeDimension).toBe(m.switches);
    expect(m.processors / m.switches).toBe(m.processorsPerSwitch);
    expect(m.processorLinksPerSwitch).toBe(4 * m.processorsPerSwitch);
    expect(m.processorLinksPerSwitch + m.networkLinksPerSwitch + m.spareLinksPerSwitch).toBe(m.linksPerC104);
    expect(m.networkLinksPerSwitch).toBe(2 * m.cubeDimension); // double hypercube
  });
});

describe('seed 000 Eq 3 (T_m)', () => {
  it('[derived] cost-models.md §2.5: n = 4096: 486.9 / 653.3 / 1677.3 µs for s ≤ 1 / 2 / 6 (1 decimal)', () => {
    expect(oliverMessageTimeNs({ n: 4096, s: 0 }) / 1000).toBeCloseTo(486.9, 1);
    expect(oliverMessageTimeNs({ n: 4096, s: 1 }) / 1000).toBeCloseTo(486.9, 1);
    expect(oliverMessageTimeNs({ n: 4096, s: 2 }) / 1000).toBeCloseTo(653.3, 1);
    expect(oliverMessageTimeNs({ n: 4096, s: 6 }) / 1000).toBeCloseTo(1677.3, 1);
  });
  it('[derived] n = 1024: 122.1 / 163.7 / 419.7 µs (1 decimal)', () => {
    expect(oliverMessageTimeNs({ n: 1024, s: 1 }) / 1000).toBeCloseTo(122.1, 1);
    expect(oliverMessageTimeNs({ n: 1024, s: 2 }) / 1000).toBeCloseTo(163.7, 1);
    expect(oliverMessageTimeNs({ n: 1024, s: 6 }) / 1000).toBeCloseTo(419.7, 1);
  });
  it('[derived] n = 32: 4.3 / 5.6 / 13.6 µs (1 decimal)', () => {
    expect(oliverMessageTimeNs({ n: 32, s: 1 }) / 1000).toBeCloseTo(4.3, 1);
    expect(oliverMessageTimeNs({ n: 32, s: 2 }) / 1000).toBeCloseTo(5.6, 1);
    expect(oliverMessageTimeNs({ n: 32, s: 6 }) / 1000).toBeCloseTo(13.6, 1);
  });
  it('property: T_m is monotone in n and s', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 0, max: 12 }), (a, b, s) => {
        const [lo, hi] = a <= b ? [a * 32, b * 32] : [b * 32, a * 32];
        expect(oliverMessageTimeNs({ n: lo, s })).toBeLessThanOrEqual(oliverMessageTimeNs({ n: hi, s }));
        expect(oliverMessageTimeNs({ n: hi, s })).toBeLessThanOrEqual(oliverMessageTimeNs({ n: hi, s: s + 1 }));
      }),
    );
  });
});

describe('seed 000 Eqs 5 and 6 (multi-channel, multi-link)', () => {
  it('[derived] T_mc, n = 4096, c = 4, s = 6 (saturating): 4·500 + 128·3800 = 488.4 µs (1 decimal)', () => {
    expect(oliverMultiChannelTimeNs({ n: 4096, c: 4, s: 6 })).toBe(4 * 500 + 128 * 3800);
    expect(oliverMultiChannelTimeNs({ n: 4096, c: 4, s: 6 }) / 1000).toBeCloseTo(488.4, 1);
  });
  it('Eq 5 first case (c below the Eq 4 threshold), term by term: c = 2, s = 6 (exact)', () => {
    expect(oliverMultiChannelTimeNs({ n: 4096, c: 2, s: 6 })).toBe(2 * 500 + (4096 / 64) * 13100 + 1 * 3800);
  });
  it('[derived] T_ml, n = 4096, l = 4, c = 4 (saturating): 16·500 + 32·3800 = 129.6 µs (1 decimal)', () => {
    expect(oliverMultiLinkTimeNs({ n: 4096, c: 4, l: 4, s: 6 })).toBe(16 * 500 + 32 * 3800);
    expect(oliverMultiLinkTimeNs({ n: 4096, c: 4, l: 4, s: 6 }) / 1000).toBeCloseTo(129.6, 1);
  });
  it('Eq 6 first case keeps the (c − 1) term unscaled by l, as printed (exact)', () => {
    expect(oliverMultiLinkTimeNs({ n: 4096, c: 2, l: 4, s: 6 })).toBe(4 * 2 * 500 + (4096 / (4 * 2 * 32)) * 13100 + 1 * 3800);
  });
  it('property: one channel is the single-channel message (T_mc(c=1) = T_m), one link is multi-channel (T_ml(l=1) = T_mc)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 512 }), fc.double({ min: 0, max: 20, noNaN: true }), fc.integer({ min: 1, max: 8 }), (k, s, c) => {
        const n = 32 * k;
        expect(oliverMultiChannelTimeNs({ n, s, c: 1 })).toBeCloseTo(oliverMessageTimeNs({ n, s }), 6);
        expect(oliverMultiLinkTimeNs({ n, s, c, l: 1 })).toBeCloseTo(oliverMultiChannelTimeNs({ n, s, c }), 6);
      }),
    );
  });
  it('seed 000 §4: with enough channels the cost is independent of s (Graph 4)', () => {
    const c = 6;
    const t = [0, 1, 2, 3, 4].map((s) => oliverMultiChannelTimeNs({ n: 4096, c, s }));
    expect(new Set(t).size).toBe(1);
  });
  it('seed 000 §4 prose "for n ≤ 32 the single channel is better" holds in Eq 3/5 only up to s = 2 (pinned mismatch)', () => {
    // Eq 5 spreads one packet over c channels (n/(cb) = 1/4 packet each) and its saturating
    // branch drops the ACK wait, so for s ≥ 3 it predicts c = 4 beats one channel even for n = 32.
    for (const s of [0, 1, 2]) expect(oliverMessageTimeNs({ n: 32, s })).toBeLessThan(oliverMultiChannelTimeNs({ n: 32, c: 4, s }));
    expect(oliverMessageTimeNs({ n: 32, s: 2 })).toBe(5600);
    expect(oliverMultiChannelTimeNs({ n: 32, c: 4, s: 2 })).toBe(5800);
    expect(oliverMessageTimeNs({ n: 32, s: 3 })).toBe(7600);
    expect(oliverMultiChannelTimeNs({ n: 32, c: 4, s: 3 })).toBe(5800);
  });
  it('[derived] multi-link condition 4β ≤ (b+h+1)α: 800 ns ≤ 3600 ns (exact)', () => {
    expect(oliverVcpSustainsLinks()).toEqual({ vcpNs: 800, packetNs: 3600, holds: true });
    expect(oliverVcpSustainsLinks({ betaNs: 1000 }).holds).toBe(false);
  });
});

describe('seed 000 Eq 7 and the simple models', () => {
  it('[derived] k2 = 3800/32 = 118.75 ns per byte (2 decimals); k1 = cγ = 2000 ns for c = 4 (exact)', () => {
    const k = oliverSimpleCoefficients();
    expect(k.k2NsPerByte).toBeCloseTo(118.75, 2);
    expect(k.k1Ns).toBe(2000);
  });
  it('T = k1 + k2 n reproduces saturated Eq 5 exactly', () => {
    for (const n of [32, 1024, 4096]) {
      expect(oliverSimpleMultiChannelNs({ ...oliverSimpleCoefficients({ c: 4 }), n })).toBeCloseTo(oliverMultiChannelTimeNs({ n, c: 4, s: 6 }), 9);
    }
  });
  it('Eq 7: k1 + k2 n + k3 s n (exact)', () => {
    expect(oliverSimpleSingleChannelNs({ k1Ns: 500, k2NsPerByte: 118.75, k3NsPerByteSwitch: 62.5, n: 64, s: 3 })).toBe(500 + 118.75 * 64 + 62.5 * 3 * 64);
  });
});

describe('validation', () => {
  it('names the field and the allowed range', () => {
    expect(() => oliverPacketTimeNs({ s: -1 })).toThrow(/oliver\.packetAck\.s: -1 is outside 0\.\.∞/);
    expect(() => oliverPacketTimeNs({ s: 1, alphaNs: 0 })).toThrow(/alphaNs: 0 is outside >0/);
    expect(() => oliverMessageTimeNs({ s: 1, n: -32 })).toThrow(/oliver\.message\.n: -32/);
    expect(() => oliverMultiChannelTimeNs({ s: 1, n: 64, c: 0 })).toThrow(/oliver\.multiChannel\.c: 0 is outside 1\.\.∞ \(integer\)/);
    expect(() => oliverMultiLinkTimeNs({ s: 1, n: 64, c: 1, l: 2.5 })).toThrow(/oliver\.multiLink\.l: 2\.5/);
    expect(() => oliverCrossoverSwitches({ deltaNs: 0 })).toThrow(/deltaNs: 0 is outside >0/);
    expect(() => oliverPacketTimeNs({ s: 1, b: 0 })).toThrow(/\.b: 0 is outside 1\.\.∞/);
  });
});
