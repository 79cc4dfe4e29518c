/**
 * DS-link bandwidth models (seed 004 Eqs 4.1–4.3) against every number of the
 * spec's §6 table (c104-t9000.md, [derived] from the seed's equations), plus
 * the closed forms B = 10m + 15n / 10.5m + 30n and input checks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TABLE_4_1,
  deviationPercent,
  dslinkBandwidth,
  dslinkBandwidthTerms,
  dslinkPacketPassingBandwidth,
  dslinkPackets,
} from '../../harness/models/index.ts';

// m, n, Eq 4.1 uni, (ceil), Eq 4.2 bi, (ceil), Eq 4.3 uni, Eq 4.3 bi — spec §6, as printed (2 decimals).
const SPEC_6: readonly (readonly number[])[] = [
  [1, 1, 32.0, 28.57, 19.75, 19.05, 33.33, 21.05],
  [2, 1, 45.71, 42.11, 31.37, 30.77, 47.06, 33.33],
  [4, 1, 58.18, 55.17, 44.44, 44.44, 59.26, 47.06],
  [8, 1, 67.37, 65.31, 56.14, 55.17, 68.09, 59.26],
  [16, 1, 73.14, 71.91, 64.65, 64.0, 73.56, 68.09],
  [32, 1, 76.42, 75.74, 69.95, 69.57, 76.65, 73.56],
  [33, 2, 73.33, 72.93, 64.94, 64.39, 73.74, 68.39],
  [64, 2, 76.42, 76.19, 69.95, 69.95, 76.65, 73.56],
  [65, 3, 74.82, 74.71, 67.31, 67.18, 75.14, 70.84],
  [128, 4, 76.42, 76.42, 69.95, 69.95, 76.65, 73.56],
];

describe('spec §6 table (seed 004 Eqs 4.1–4.3, s = 1)', () => {
  for (const [m, n, uni, uniC, bi, biC, ppUni, ppBi] of SPEC_6) {
    it(`m = ${m}`, () => {
      expect(dslinkPackets({ m: m! })).toBe(n);
      expect(dslinkBandwidth({ m: m!, direction: 'uni' })).toBeCloseTo(uni!, 2);
      expect(dslinkBandwidth({ m: m!, direction: 'uni', rounding: 'ceil' })).toBeCloseTo(uniC!, 2);
      expect(dslinkBandwidth({ m: m!, direction: 'bi' })).toBeCloseTo(bi!, 2);
      expect(dslinkBandwidth({ m: m!, direction: 'bi', rounding: 'ceil' })).toBeCloseTo(biC!, 2);
      expect(dslinkPacketPassingBandwidth({ m: m!, direction: 'uni' })).toBeCloseTo(ppUni!, 2);
      expect(dslinkPacketPassingBandwidth({ m: m!, direction: 'bi' })).toBeCloseTo(ppBi!, 2);
    });
  }
  it('the 32-byte boundary drop: uni 76.42 → 73.33 Mbit/s from 32 to 33 bytes (seed Fig. 4.2, issue 9)', () => {
    expect(dslinkBandwidth({ m: 32, direction: 'uni' })).toBeCloseTo(76.42, 2);
    expect(dslinkBandwidth({ m: 33, direction: 'uni' })).toBeCloseTo(73.33, 2);
  });
});

describe('closed forms', () => {
  it('s = 1: uni B = 10m + 15n, bi B = 10.5m + 30n; terms b_d, d_t as in the seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4096 }), (m) => {
        const n = Math.max(1, Math.ceil(m / 32));
        const u = dslinkBandwidthTerms({ m, direction: 'uni' });
        const b = dslinkBandwidthTerms({ m, direction: 'bi' });
        expect(u.bd).toBe(10 * m + 14 * n);
        expect(u.dt).toBe(2 * n);
        expect(u.B).toBeCloseTo(10 * m + 15 * n, 9);
        expect(b.bd).toBe(10 * m + 28 * n);
        expect(b.dt).toBe(m + 4 * n);
        expect(b.B).toBeCloseTo(10.5 * m + 30 * n, 9);
      }),
      { numRuns: 100 },
    );
  });
  it('header size s = 2: a packet costs 24 bits and an ack 3 tokens', () => {
    const t = dslinkBandwidthTerms({ m: 32, direction: 'uni', s: 2 });
    expect(t.bd).toBe(320 + 24);
    expect(t.dt).toBe(3);
  });
  it('ceil rounding never predicts more than the exact fraction; 0-byte messages carry no data', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.constantFrom('uni' as const, 'bi' as const), (m, direction) => {
        expect(dslinkBandwidth({ m, direction, rounding: 'ceil' })).toBeLessThanOrEqual(dslinkBandwidth({ m, direction }) + 1e-12);
      }),
      { numRuns: 50 },
    );
    expect(dslinkBandwidth({ m: 0, direction: 'uni' })).toBe(0);
  });
  it('deviation is signed, in percent', () => {
    expect(deviationPercent(101, 100)).toBeCloseTo(1, 12);
    expect(deviationPercent(99, 100)).toBeCloseTo(-1, 12);
  });
  it('Table 4.1 transcribed as printed (staggered max 0.64 % uni, 0.79 % bi; lock-step bi 1.38 %)', () => {
    expect(TABLE_4_1.staggered.uni.max).toBe(0.64);
    expect(TABLE_4_1.staggered.bi.max).toBe(0.79);
    expect(TABLE_4_1.lockstep.bi.max).toBe(1.38);
  });
});

describe('bad input: one RangeError naming the field', () => {
  it('rejects m, s, direction, rounding', () => {
    expect(() => dslinkBandwidth({ m: -1, direction: 'uni' })).toThrow(/dslink\.eq4_1_2\.m: -1 is outside 0\.\.∞/);
    expect(() => dslinkBandwidth({ m: 1.5, direction: 'uni' })).toThrow(/\.m: 1\.5/);
    expect(() => dslinkBandwidth({ m: 4, direction: 'uni', s: 3 })).toThrow(/\.s: 3 is outside 1\.\.2/);
    expect(() => dslinkBandwidth({ m: 4, direction: 'both' as 'uni' })).toThrow(/direction: 'both' is not one of 'uni', 'bi'/);
    expect(() => dslinkBandwidth({ m: 4, direction: 'bi', rounding: 'floor' as 'ceil' })).toThrow(/rounding/);
    expect(() => dslinkPacketPassingBandwidth({ m: 4, direction: 'uni', linkMbps: 0 })).toThrow(/linkMbps/);
  });
});
