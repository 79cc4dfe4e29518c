/**
 * Buzzard's Chapter 3 execution-time model (seed 002 §3.4–§3.6; cost-models.md
 * §4.1, buzzard.md §11) against every total the seed prints. Where a printed
 * total does not follow from its steps, both are pinned and the test says so.
 * Times in µs.
 */
import { describe, expect, it } from 'vitest';
import {
  BUZZARD_TABLE_3_1,
  LINPACK_EXTENDED_VERTEX,
  LINPACK_MEASURED_477,
  LINPACK_PROPOSED,
  LINPACK_TABLE_3_9,
  SOBEL_EXTENDED_VERTEX,
  SOBEL_PRINTED,
  SOBEL_PROPOSED,
  SOBEL_STANDARD_VERTEX,
  type LinpackRow,
  type LinpackVars,
  basicMessageTimeUs,
  executionTime,
  linpackModel,
  osCallSavingUs,
  processorUtilisation,
  waitTimeUs,
} from '../../harness/models/buzzard-ch3.ts';

const P = SOBEL_PRINTED;

describe('seed 002 Eqs 3.2 and 3.3', () => {
  it('Eq 3.2 sums the three step classes', () => {
    expect(executionTime([{ param: 't_s1', kind: 's', timeUs: 5, comment: '' }, { param: 't_c2', kind: 'c', timeUs: 7, comment: '' }, { param: 't_w3', kind: 'w', timeUs: 11, comment: '' }])).toEqual({ T: 23, Tc: 7, Ts: 5, Tw: 11 });
  });
  it('Eq 3.3 for the (3.1) example: t^5_w7 = m·r − t_c6, floored at 0', () => {
    expect(waitTimeUs({ mBytes: 100, rUsPerByte: 1.29, overlappedUs: 50 })).toBeCloseTo(129 - 50, 9);
    expect(waitTimeUs({ mBytes: 100, rUsPerByte: 1.29, overlappedUs: 500 })).toBe(0);
    expect(waitTimeUs({ tdUs: 20, mBytes: 0, rUsPerByte: 1, overlappedUs: 5 })).toBe(15);
  });
  it('§3.5.2: Sobel edges (m = 8, r = 1.29) never wait: m·r = 10.32 µs is below any send-to-receive gap (t_c18 = 10036)', () => {
    expect(P.edgeBytes * P.rUsPerByte).toBeCloseTo(10.32, 2);
    expect(waitTimeUs({ mBytes: P.edgeBytes, rUsPerByte: P.rUsPerByte, overlappedUs: 10036 })).toBe(0);
  });
  it('U = T_c/T (§3.6.1) validates its range', () => {
    expect(processorUtilisation({ TcUs: 1, TUs: 4 })).toBe(0.25);
    expect(() => processorUtilisation({ TcUs: 5, TUs: 4 })).toThrow(/TcUs: 5 is outside 0\.\.4/);
    expect(() => processorUtilisation({ TcUs: 0, TUs: 0 })).toThrow(/TUs: 0 is outside >0/);
  });
});

describe('seed 002 Table 3.1 (t = a·x + b)', () => {
  const ext = BUZZARD_TABLE_3_1[0]!;
  const std = BUZZARD_TABLE_3_1[1]!;
  it('§3.5.1: bandwidth gain 3.14/1.29 = 2.43 (2 decimals)', () => {
    expect(std.inverseBandwidthUsPerByte / ext.inverseBandwidthUsPerByte).toBeCloseTo(2.43, 2);
  });
  it('§3.5.1: latency speedup printed 5.60; 466/83 = 5.61 (pinned: matches to 1 decimal, not to 2)', () => {
    const r = std.latencyUs / ext.latencyUs;
    expect(r).toBeCloseTo(5.6, 1);
    expect(r).toBeCloseTo(5.61, 2);
    expect(Math.abs(r - 5.6)).toBeGreaterThan(0.005);
  });
  it('Extended Vertex 8-byte message: 1.29·8 + 83 = 93.32 µs (2 decimals)', () => {
    expect(basicMessageTimeUs({ aUsPerByte: ext.inverseBandwidthUsPerByte, bUs: ext.latencyUs, xBytes: 8 })).toBeCloseTo(93.32, 2);
  });
});

describe('seed 002 Table 3.4 (Sobel, standard Vertex)', () => {
  const t = executionTime(SOBEL_STANDARD_VERTEX);
  it('T_c: the steps sum to the printed 17715 µs (exact)', () => {
    expect(t.Tc).toBe(P.standard.Tc);
  });
  it('pinned mismatch: the t_s steps sum to 5443 µs; printed T_s = 5168 = 5443 − 275 (the data gather t_s1 excluded)', () => {
    expect(t.Ts).toBe(5443);
    expect(P.standard.Ts).toBe(5168);
    expect(t.Ts - P.standard.Ts).toBe(SOBEL_STANDARD_VERTEX[0]!.timeUs);
  });
  it('measured T = 25017 µs is ≈ 2 ms above the table total 23158 (1859 µs, "approximately 2 milliseconds")', () => {
    expect(t.T).toBe(23158);
    expect(P.standard.T - t.T).toBe(1859);
    expect((P.standard.T - t.T) / 1000).toBeCloseTo(2, 0);
    expect(t.Tw).toBe(0);
  });
});

describe('seed 002 Table 3.5 (Sobel, Extended Vertex)', () => {
  const t = executionTime(SOBEL_EXTENDED_VERTEX);
  it('the steps sum to the printed T_s = 1779 and T_c = 17948 µs (exact)', () => {
    expect([t.Ts, t.Tc, t.Tw]).toEqual([P.extended.Ts, P.extended.Tc, 0]);
  });
  it('model total 19727 µs is within 100 µs of the measured 19783', () => {
    expect(t.T).toBe(19727);
    expect(Math.abs(P.extended.T - t.T)).toBeLessThan(P.extended.modelWithinUs);
  });
  it('§3.5.2: 1.26× faster overall (25017/19783, 2 decimals)', () => {
    expect(P.standard.T / P.extended.T).toBeCloseTo(P.extendedSpeedupTotal, 2);
  });
  it('§3.5.2: 3.06× faster in communication follows from the Table 3.4 sum 5443/1779, not from the printed 5168/1779 = 2.91 (pinned)', () => {
    const fromSum = executionTime(SOBEL_STANDARD_VERTEX).Ts / t.Ts;
    expect(fromSum).toBeCloseTo(P.extendedSpeedupCommunication, 2);
    expect(P.standard.Ts / P.extended.Ts).toBeCloseTo(2.91, 2);
  });
  it('§3.5.2: coalescing 12 OS calls × 26 µs = 312 µs = 17.5% of 1779 (printed "17%", truncated); speedup printed 1.29', () => {
    const saving = osCallSavingUs({ callsRemoved: 12 });
    expect(saving).toBe(312);
    expect(saving / P.extended.Ts).toBeCloseTo(0.175, 3);
    expect(Math.floor(100 * (saving / P.extended.Ts))).toBe(100 * P.coalescingImprovement); // pinned: nearest rounding would print 18%
    // pinned: from the measured 19783 the speedup is 25017/19471 = 1.285 (nearest: 1.28); the printed 1.29
    // follows from the model total 19727 − 312 = 19415 (1.2885).
    expect(P.standard.T / (P.extended.T - saving)).toBeCloseTo(1.285, 3);
    expect(P.standard.T / (executionTime(SOBEL_EXTENDED_VERTEX).T - saving)).toBeCloseTo(P.coalescingSpeedup, 2);
    // The seed's steps t_s1–t_s8 and t_s10–t_s13 are 12 calls; merging them "into just two calls" would
    // remove only 10 (260 µs, 15%, speedup 1.28): the printed numbers follow the 12-call reading.
    expect(osCallSavingUs({ callsRemoved: 10 }) / P.extended.Ts).toBeCloseTo(0.146, 3);
  });
});

describe('seed 002 Table 3.7 (Sobel, proposed scheme)', () => {
  const t = executionTime(SOBEL_PROPOSED);
  it('the steps give exactly the predicted T = 18327 µs, T_s = 379 ("T_c" in the text, A17), T_c = 17948', () => {
    expect([t.T, t.Ts, t.Tc]).toEqual([P.proposed.T, P.proposed.Ts, 17948]);
  });
  it('T_s with strided DMA = 379 − 275 (no data gather) = 104 µs', () => {
    const noGather = executionTime(SOBEL_PROPOSED.filter((s) => s.comment !== 'data gather'));
    expect(noGather.Ts).toBe(P.proposed.TsWithStridedDma);
  });
  it('about 80% of standard (18327/(17715 + 5168) = 0.80) and 93% of extended (18327/19727 = 0.93), both as predicted (2 decimals)', () => {
    expect(P.proposed.T / (P.standard.Tc + P.standard.Ts)).toBeCloseTo(P.proposedVsStandard, 2);
    expect(P.proposed.T / executionTime(SOBEL_EXTENDED_VERTEX).T).toBeCloseTo(P.proposedVsExtended, 2);
    // Against the Table 3.4 step total (23158) the ratio is 0.79 (pinned alternative reading).
    expect(P.proposed.T / executionTime(SOBEL_STANDARD_VERTEX).T).toBeCloseTo(0.79, 2);
  });
  it('communication share (T − T_c)/T: 2% proposed, 29% standard, 9% extended (2 decimals)', () => {
    expect(P.proposed.Ts / P.proposed.T).toBeCloseTo(P.communicationShare.proposed, 2);
    expect((P.standard.T - P.standard.Tc) / P.standard.T).toBeCloseTo(P.communicationShare.standard, 2);
    expect((P.extended.T - P.extended.Tc) / P.extended.T).toBeCloseTo(P.communicationShare.extended, 2);
  });
});

describe('seed 002 Tables 3.6 and 3.8 (Linpack step expressions)', () => {
  const v: LinpackVars = { d: 6, x: 6, y: 10, z: 100, tcPivotUs: 2406, tsBroadcastUs: 153 };
  const val = (tab: typeof LINPACK_PROPOSED, p: string) => tab.find((s) => s.param === p)!.timeUs(v);
  it('Table 3.6 at d = 6, x = 6, y = 10, z = 100 (exact or 1e-9)', () => {
    expect(val(LINPACK_EXTENDED_VERTEX, 't_s1')).toBeCloseTo(2 * (72 + 11 + 63.5) + 529, 9);
    expect(val(LINPACK_EXTENDED_VERTEX, 't_s2')).toBeCloseTo(17.4 * 6 + 111.8, 9);
    expect(val(LINPACK_EXTENDED_VERTEX, 't_c3')).toBeCloseTo(2126 + 280, 9);
    expect(val(LINPACK_EXTENDED_VERTEX, 't_s5')).toBe(14.5 * 6 + 66);
    expect(val(LINPACK_EXTENDED_VERTEX, 't_c7')).toBe(10 * (1650 + 92) + 3);
    expect(val(LINPACK_EXTENDED_VERTEX, 't_w10')).toBeCloseTo(2406 + 3.5 * (153 + 25 + 520), 9);
    expect(val(LINPACK_EXTENDED_VERTEX, 't_s12')).toBe(72 + 278.5);
    expect(LINPACK_EXTENDED_VERTEX.find((s) => s.param === 't_s11')!.timeUs({ ...v, x: 0 })).toBe(15);
    expect(LINPACK_EXTENDED_VERTEX.map((s) => s.param)).toHaveLength(13);
  });
  it('Table 3.8 (two fewer entries) at the same point; t_w9 per-hop term (3(d+1)/4)·7·5.2 (1e-9)', () => {
    expect(LINPACK_PROPOSED).toHaveLength(LINPACK_EXTENDED_VERTEX.length - 2);
    expect(val(LINPACK_PROPOSED, 't_s1')).toBe(537);
    expect(val(LINPACK_PROPOSED, 't_s5')).toBe(14);
    expect(val(LINPACK_PROPOSED, 't_w9')).toBeCloseTo(2406 + 5.25 * 36.4, 9);
    expect(val(LINPACK_PROPOSED, 't_s10')).toBe(104);
  });
});

const rows = (v: LinpackRow['version']) => LINPACK_TABLE_3_9.filter((r) => r.version === v);
const standardOf = (r: LinpackRow) => LINPACK_TABLE_3_9.find((s) => s.version === 'standard' && s.d === r.d && s.m === r.m)!;
const misprinted = (r: LinpackRow) => r.d === 4 && r.m === 100 && r.version !== 'standard';

describe('seed 002 Tables 3.9 and 3.10 (Linpack results)', () => {
  it('T_s + T_w + T_c = T within 0.4% in every row except d = 4, m = 100 extended and proposed', () => {
    for (const r of LINPACK_TABLE_3_9) {
      const dev = Math.abs(r.Ts + r.Tw + r.Tc - r.T) / r.T;
      if (misprinted(r)) expect(dev).toBeGreaterThan(0.1);
      else expect(dev).toBeLessThan(0.004);
    }
  });
  it('pinned mismatch d = 4, m = 100: sums 689.6e3 (extended) and 527.0e3 (proposed) vs printed T 772e3 and 655e3; T_w solved from T = 218e3, 136e3 (3 significant figures)', () => {
    const [ext, prop] = [rows('extended'), rows('proposed')].map((rs) => rs.find((r) => r.d === 4 && r.m === 100)!);
    expect((ext!.Ts + ext!.Tw + ext!.Tc) / 1e3).toBeCloseTo(689.6, 1);
    expect((prop!.Ts + prop!.Tw + prop!.Tc) / 1e3).toBeCloseTo(527.0, 1);
    expect(Math.round((ext!.T - ext!.Ts - ext!.Tc) / 1e3)).toBe(218);
    expect(Math.round((prop!.T - prop!.Ts - prop!.Tc) / 1e3)).toBe(136);
  });
  it('Speedup = T(standard)/T (2 decimals) in every row', () => {
    for (const r of LINPACK_TABLE_3_9) expect(standardOf(r).T / r.T).toBeCloseTo(r.speedup, 2);
  });
  it('Table 3.10: U = T_c/T of Table 3.9, rounded to 2 decimals, in every row', () => {
    for (const r of LINPACK_TABLE_3_9) expect(processorUtilisation({ TcUs: r.Tc, TUs: r.T })).toBeCloseTo(r.U, 2);
  });
  it('§3.6.1 text: extended 1.29–1.7×, proposed 1.53–2.23× faster', () => {
    const range = (v: LinpackRow['version']) => [Math.min(...rows(v).map((r) => r.speedup)), Math.max(...rows(v).map((r) => r.speedup))];
    expect(range('extended')).toEqual([1.29, 1.7]);
    expect(range('proposed')).toEqual([1.53, 2.23]);
  });
  it('§3.5.2: 477×477 measured: 10.951 s = 49% (standard), 5.262 s = 31% (extended), speedup 1.34, communication speedup > 2', () => {
    const m = LINPACK_MEASURED_477;
    expect(m.standard.T - m.standard.Tc).toBeCloseTo(m.standard.Ts_plus_Tw, 3);
    expect(m.extended.T - m.extended.Tc).toBeCloseTo(m.extended.Ts_plus_Tw, 3);
    expect(m.standard.Ts_plus_Tw / m.standard.T).toBeCloseTo(m.standard.communicationShare, 2);
    expect(m.extended.Ts_plus_Tw / m.extended.T).toBeCloseTo(m.extended.communicationShare, 2);
    expect(m.standard.T / m.extended.T).toBeCloseTo(m.speedup, 2);
    expect(m.standard.Ts_plus_Tw / m.extended.Ts_plus_Tw).toBeGreaterThan(2);
  });
});

describe('Linpack totals recomputed from the steps (linpackModel, [interp] bookkeeping): pinned deviations from Table 3.9', () => {
  const cases = LINPACK_TABLE_3_9.filter((r) => r.version !== 'standard').map((r) => ({ r, t: linpackModel({ version: r.version as 'extended' | 'proposed', d: r.d, m: r.m }) }));
  it('[derived] T_c comes out 13–24% low for d = 4 and 2–3% low for d = 7, 10 (cost-models.md §4.1)', () => {
    for (const { r, t } of cases) {
      const ratio = t.Tc / r.Tc;
      if (r.d === 4) {
        expect(ratio).toBeGreaterThan(0.75);
        expect(ratio).toBeLessThan(0.88);
      } else {
        expect(ratio).toBeGreaterThan(0.969);
        expect(ratio).toBeLessThan(0.981);
      }
    }
  });
  it('T_w agrees within 3% in every row whose printed T_w is consistent, and within 2% of the T_w solved from T in the two misprinted rows', () => {
    for (const { r, t } of cases) {
      const target = misprinted(r) ? r.T - r.Ts - r.Tc : r.Tw;
      expect(Math.abs(t.Tw / target - 1)).toBeLessThan(misprinted(r) ? 0.02 : 0.03);
    }
    // the printed cells themselves are far off (proposed: 8.12e3 printed vs ≈ 138e3 from the steps)
    const prop = cases.find(({ r }) => misprinted(r) && r.version === 'proposed')!;
    expect(prop.t.Tw / prop.r.Tw).toBeGreaterThan(15);
  });
  it('T_s comes out 6–8% low in every row (setup costs not fully itemised in Tables 3.6/3.8)', () => {
    for (const { r, t } of cases) {
      expect(t.Ts / r.Ts).toBeGreaterThan(0.92);
      expect(t.Ts / r.Ts).toBeLessThan(0.94);
    }
  });
  it('validates inputs', () => {
    expect(() => linpackModel({ version: 'extended', d: 0, m: 10 })).toThrow(/buzzard\.linpackModel\.d: 0 is outside 1\.\.20/);
    expect(() => linpackModel({ version: 'standard' as 'extended', d: 4, m: 10 })).toThrow(/version: 'standard' is not one of 'extended', 'proposed'/);
  });
});
