/**
 * Littlefield's NBL model and the Tree/Snake/Fence models (seed 001;
 * cost-models.md §3) against every number the seed prints or the spec derives
 * from them, plus properties. Times in µs, sizes in doubles.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  F_FITTED_NBL,
  F_FITTED_VALUES,
  F_NOMINAL_NBL,
  F_STANDARD,
  LITTLEFIELD_DELTA_DEFAULTS,
  LITTLEFIELD_TABLE1,
  LITTLEFIELD_TABLE1_PRINTED,
  type OverlapFunction,
  type TimelineRow,
  blockCount,
  compareTable1,
  fenceOptimalBlockSize,
  fenceStepCount,
  fenceTimeUs,
  fenceTimeline,
  nblTimeUs,
  optimiseBlockSize,
  recomputeTable1,
  snakeOptimalBlockSizeCorrected,
  snakeOptimalBlockSizePrinted,
  snakeStepCount,
  snakeTimeUs,
  snakeTimeline,
  standardMessageTimeUs,
  treeTimeUs,
} from '../../harness/models/littlefield.ts';

const D = LITTLEFIELD_DELTA_DEFAULTS;

describe('seed 001 §7.2 DELTA parameters', () => {
  it('α = 54 µs, β = 1.54 µs/double, c2 = .25 µs, c3 = .27 µs', () => {
    expect([D.alphaUs, D.betaUsPerDouble, D.c2UsPerElement, D.c3UsPerElement]).toEqual([54, 1.54, 0.25, 0.27]);
  });
  it('[derived] 8 bytes / 1.54 µs = 5.2 Mbytes/s as printed (1 decimal); c2 → 4.0 MFLOPS (1 decimal)', () => {
    expect(8 / D.betaUsPerDouble).toBeCloseTo(5.2, 1);
    expect(1 / D.c2UsPerElement).toBeCloseTo(4.0, 1);
  });
  it('[derived] mismatch: c3 = .27 µs is printed as "5.3 MFLOPS"; 2 flops/.27 µs = 7.4, 1 flop = 3.7 (1 decimal)', () => {
    expect(2 / D.c3UsPerElement).toBeCloseTo(7.4, 1);
    expect(1 / D.c3UsPerElement).toBeCloseTo(3.7, 1);
    expect(2 / 5.3).toBeCloseTo(0.377, 3); // c3 that would give the printed 5.3 MFLOPS at 2 flops
  });
  it('fitted NBL model f(2) = 1.1, f(3) = 1.3, f(4) = 3.9, f(6) = 5.1 (seed 001 §4.2)', () => {
    expect([2, 3, 4, 6].map(F_FITTED_NBL)).toEqual([1.1, 1.3, 3.9, 5.1]);
    expect(F_FITTED_VALUES[1]).toBe(1);
    expect(() => F_FITTED_NBL(5)).toThrow(/defined for L ∈ \{1, 2, 3, 4, 6\}/);
  });
});

describe('seed 001 §2 NBL model', () => {
  it('T = α + βS and T(L) = Lα + f(L)βS (exact); f(1) = 1 recovers the standard model', () => {
    expect(standardMessageTimeUs({ S: 100 })).toBeCloseTo(54 + 154, 9);
    expect(nblTimeUs({ L: 4, S: 100 })).toBeCloseTo(4 * 54 + 4 * 1.54 * 100, 9);
    expect(nblTimeUs({ L: 4, S: 100, fOfL: F_STANDARD })).toBeCloseTo(4 * 54 + 1.54 * 100, 9);
    expect(nblTimeUs({ L: 1, S: 100 })).toBeCloseTo(standardMessageTimeUs({ S: 100 }), 9);
  });
  it('rejects f(1) ≠ 1', () => {
    expect(() => nblTimeUs({ L: 2, S: 10, fOfL: (L) => L + 1 })).toThrow(/f\(1\) = 2; seed 001 §2 requires f\(1\) = 1/);
  });
  it('property: T(L) is monotone in S, and 1 ≤ f ≤ L orders the standard ≤ NBL times', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.double({ min: 0, max: 1e4, noNaN: true }), fc.double({ min: 0, max: 1e4, noNaN: true }), (L, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(nblTimeUs({ L, S: lo })).toBeLessThanOrEqual(nblTimeUs({ L, S: hi }));
        expect(nblTimeUs({ L, S: hi, fOfL: F_STANDARD })).toBeLessThanOrEqual(nblTimeUs({ L, S: hi, fOfL: F_NOMINAL_NBL }) + 1e-9);
      }),
    );
  });
});

describe('seed 001 Table 1 (testjig)', () => {
  const re = recomputeTable1();
  it('every printed dT follows from the T columns (exact)', () => {
    expect(re.dT).toEqual(LITTLEFIELD_TABLE1_PRINTED.dT);
  });
  it('recomputed f(L) = dT(L)/dT(1), pinned to 2 decimals', () => {
    const f2 = re.f[2].map((v) => Number(v.toFixed(2)));
    const f4 = re.f[4].map((v) => Number(v.toFixed(2)));
    const f6 = re.f[6].map((v) => Number(v.toFixed(2)));
    expect(f2).toEqual([1.63, 1.73, 1.9]);
    expect(f4).toEqual([2.14, 2.82, 3.88]);
    expect(f6).toEqual([3.54, 4.2, 5.84]);
  });
  it('printed f values (1 decimal) that follow from the times: f(2), f(4) all, f(6) 120→300', () => {
    LITTLEFIELD_TABLE1_PRINTED.f[2].forEach((v, i) => expect(re.f[2][i]).toBeCloseTo(v, 1));
    LITTLEFIELD_TABLE1_PRINTED.f[4].forEach((v, i) => expect(re.f[4][i]).toBeCloseTo(v, 1));
    expect(re.f[6][1]).toBeCloseTo(LITTLEFIELD_TABLE1_PRINTED.f[6][1]!, 1);
  });
  it('pinned mismatches: first f(6) printed 3.8 vs 230/65 = 3.54; last printed ".8" (OCR) vs 1356/232 = 5.84 → 5.8', () => {
    expect(LITTLEFIELD_TABLE1_PRINTED.f[6][0]).toBe(3.8);
    expect(re.f[6][0]).toBeCloseTo(3.54, 2);
    expect(Math.abs(re.f[6][0]! - 3.8)).toBeGreaterThan(0.2);
    expect(LITTLEFIELD_TABLE1_PRINTED.f[6][2]).toBe(0.8);
    expect(re.f[6][2]).toBeCloseTo(5.8, 1);
    expect(LITTLEFIELD_TABLE1_PRINTED.inconsistent.map((x) => x.L)).toEqual([6, 6]);
  });
  it('compareTable1 reports printed beside recomputed; exactly the two f(6) cells are inconsistent', () => {
    const cells = compareTable1();
    expect(cells).toHaveLength(9);
    expect(cells.filter((c) => !c.consistent).map((c) => [c.L, c.interval, c.printed])).toEqual([
      [6, '60→120', 3.8],
      [6, '300→600', 0.8],
    ]);
  });
  it('[derived] L = 1 large-S slope 232/300 = 0.773 µs per double ≈ β/2 (3 decimals)', () => {
    const slope = re.dT[1][2]! / (LITTLEFIELD_TABLE1.S[3]! - LITTLEFIELD_TABLE1.S[2]!);
    expect(slope).toBeCloseTo(0.773, 3);
    expect(slope / D.betaUsPerDouble).toBeCloseTo(0.5, 1);
  });
  it('seed 001 §4.2: long messages almost perfectly NBL-constrained (f(L) → L), short ones overlap (f < L)', () => {
    for (const L of [2, 4, 6] as const) {
      expect(re.f[L][0]).toBeLessThan(L);
      expect(re.f[L][2]).toBeGreaterThan(re.f[L][0]!);
      expect(re.f[L][2]! / L).toBeGreaterThan(0.9);
    }
  });
});

describe('seed 001 §7.1 timelines', () => {
  it('Snake rows as printed (B ≥ 3); [derived] step count 2P + B − 3 (the spec prints 2P + B − 1)', () => {
    const rows = snakeTimeline({ P: 16, N: 1e5, S: 500 });
    expect(rows.map((r) => [r.steps, r.links])).toEqual([[1, 1], [14, 2], [1, 3], [197, 4], [1, 3], [14, 2], [1, 1]]);
    expect(snakeStepCount({ P: 16, N: 1e5, S: 500 })).toBe(2 * 16 + 200 - 3);
  });
  it('Fence rows as printed; [derived] step count 2H + 2W + B − 5', () => {
    const rows = fenceTimeline({ W: 4, H: 4, N: 1e5, S: 500 });
    expect(rows.map((r) => [r.steps, r.links])).toEqual([[1, 1], [3, 2], [2, 3], [1, 4], [197, 6], [1, 4], [2, 3], [3, 2], [1, 1]]);
    expect(fenceStepCount({ W: 4, H: 4, N: 1e5, S: 500 })).toBe(2 * 4 + 2 * 4 + 200 - 5);
  });
  it('B = ⌈N/S⌉ and the B ≥ 3 assumption is enforced', () => {
    expect(blockCount({ N: 1000, S: 300 })).toBe(4);
    expect(() => snakeTimeUs({ P: 16, N: 100, S: 50 })).toThrow(/B = ⌈N\/S⌉ = 2 blocks; the seed's timeline assumes B ≥ 3/);
    expect(() => fenceTimeUs({ W: 4, H: 4, N: 100, S: 0 })).toThrow(/littlefield\.fence\.S: 0 is outside 1\.\.∞/);
  });
  it('the Snake sixth term: table reading (f(2)) vs printed f(3) differ by (P−2)·β·S·(f(3) − f(2))', () => {
    const a = snakeTimeUs({ P: 16, N: 1e5, S: 463 });
    const b = snakeTimeUs({ P: 16, N: 1e5, S: 463, snakeSixthTermF: 'printed' });
    expect(b - a).toBeCloseTo(14 * 1.54 * 463 * (3 - 2), 6);
    expect(snakeTimeUs({ P: 16, N: 1e5, S: 463, fOfL: F_STANDARD, snakeSixthTermF: 'printed' })).toBeCloseTo(snakeTimeUs({ P: 16, N: 1e5, S: 463, fOfL: F_STANDARD }), 9);
  });
});

/** Continuous-B total from a timeline (B = N/S real), for checking the dT/dS = 0 formulas. */
function continuousTotal(rows: TimelineRow[], bRow: number, N: number, S: number, f: OverlapFunction, reading: 'nbl' | 'literal'): number {
  let t = 0;
  rows.forEach((r, i) => {
    const steps = i === bRow ? N / S - 3 : r.steps;
    const comm = reading === 'nbl' ? r.links * D.alphaUs + f(r.fLinks) * D.betaUsPerDouble * S : r.links * (D.alphaUs + f(r.fLinks) * D.betaUsPerDouble * S);
    t += steps * (comm + r.combineUsPerElement * S);
  });
  return t;
}
const dTdS = (g: (S: number) => number, S: number) => (g(S + 1e-3) - g(S - 1e-3)) / 2e-3;

describe('seed 001 §7.1 optimum block sizes', () => {
  const N = 1e5;
  it('[derived] Fence Eq 1 = 1118 (NBL) and 1334 (standard) for 4×4, N = 10^5 (0 decimals)', () => {
    expect(fenceOptimalBlockSize({ W: 4, H: 4, N })).toBeCloseTo(1118, 0);
    expect(fenceOptimalBlockSize({ W: 4, H: 4, N, fOfL: F_STANDARD })).toBeCloseTo(1334, 0);
  });
  it('[derived] Fence Eq 1 is exactly dT/dS = 0 of the total with step cost Lα + f(L)βS, not with L(α + f(L)βS)', () => {
    const rows = fenceTimeline({ W: 4, H: 4, N, S: 100 });
    const Sopt = fenceOptimalBlockSize({ W: 4, H: 4, N });
    const slopeNbl = dTdS((S) => continuousTotal(rows, 4, N, S, F_NOMINAL_NBL, 'nbl'), Sopt);
    const slopeLit = dTdS((S) => continuousTotal(rows, 4, N, S, F_NOMINAL_NBL, 'literal'), Sopt);
    expect(Math.abs(slopeNbl)).toBeLessThan(1e-3);
    expect(Math.abs(slopeLit)).toBeGreaterThan(1);
    // and the continuous total matches the model where S divides N
    expect(continuousTotal(rows, 4, N, 500, F_NOMINAL_NBL, 'nbl')).toBeCloseTo(fenceTimeUs({ W: 4, H: 4, N, S: 500 }), 6);
  });
  it('[derived] printed Snake S_opt = 259 (NBL), 346 (standard); corrected 508, 670 (0 decimals)', () => {
    expect(snakeOptimalBlockSizePrinted({ P: 16, N })).toBeCloseTo(259, 0);
    expect(snakeOptimalBlockSizePrinted({ P: 16, N, fOfL: F_STANDARD })).toBeCloseTo(346, 0);
    expect(snakeOptimalBlockSizeCorrected({ P: 16, N })).toBeCloseTo(508, 0);
    expect(snakeOptimalBlockSizeCorrected({ P: 16, N, fOfL: F_STANDARD })).toBeCloseTo(670, 0);
  });
  it('pinned mismatch: the printed Snake S_opt is not a stationary point of the Snake total; the corrected one is', () => {
    const rows = snakeTimeline({ P: 16, N, S: 100 });
    const total = (S: number) => continuousTotal(rows, 3, N, S, F_NOMINAL_NBL, 'nbl');
    expect(Math.abs(dTdS(total, snakeOptimalBlockSizeCorrected({ P: 16, N })))).toBeLessThan(1e-3);
    expect(Math.abs(dTdS(total, snakeOptimalBlockSizePrinted({ P: 16, N })))).toBeGreaterThan(1);
  });
  it('[derived] numerical optima: Snake 500 (NBL) / 685 (standard), Fence 1087 / 1316 (exact integers)', () => {
    expect(optimiseBlockSize('snake', { P: 16, N }).S).toBe(500);
    expect(optimiseBlockSize('snake', { P: 16, N, fOfL: F_STANDARD }).S).toBe(685);
    expect(optimiseBlockSize('fence', { W: 4, H: 4, N }).S).toBe(1087);
    expect(optimiseBlockSize('fence', { W: 4, H: 4, N, fOfL: F_STANDARD }).S).toBe(1316);
  });
  it('[derived] with the printed f(3) in the Snake sixth term: 739195 µs at S = 463 (4×4, N = 10^5, NBL)', () => {
    const o = optimiseBlockSize('snake', { P: 16, N, snakeSixthTermF: 'printed' });
    expect(o.S).toBe(463);
    expect(Math.abs(o.timeUs - 739195)).toBeLessThanOrEqual(0.5);
  });
});

/** cost-models.md §3.5 [derived] model table: Tree, then [T, S] for Snake/Fence under std, NBL, fitted. */
const SPEC_TABLE: readonly [string, number, number, ...[number, number][]][] = [
  ['4x4', 1e2, 1764, [5030, 20], [2640, 34], [6179, 17], [3687, 34], [5298, 25], [3038, 34]],
  ['4x4', 1e3, 13752, [11074, 67], [7542, 125], [17717, 50], [16205, 125], [14958, 77], [12781, 167]],
  ['4x4', 1e4, 133632, [41138, 213], [34346, 435], [93817, 164], [114347, 345], [84008, 250], [94070, 500]],
  ['4x4', 1e5, 1332432, [246352, 685], [230481, 1316], [728798, 500], [1009874, 1087], [687261, 730], [851018, 1695]],
  ['4x4', 5e5, 6660432, [1042097, 1462], [1014521, 2924], [3397964, 1139], [4885439, 2500], [3262286, 1634], [4147220, 3876]],
  ['16x16', 1e2, 3528, [63384, 5], [11112, 20], [67177, 4], [13704, 10], [64159, 5], [11895, 20]],
  ['16x16', 1e3, 27504, [83592, 17], [20471, 59], [98562, 11], [33632, 40], [89104, 15], [27244, 50]],
  ['16x16', 1e4, 267264, [158116, 50], [61185, 182], [237239, 36], [155483, 125], [206064, 50], [125751, 164]],
  ['16x16', 1e5, 2664864, [504226, 160], [301280, 565], [1070124, 113], [1126124, 400], [961256, 157], [936975, 565]],
  ['16x16', 5e5, 13320864, [1554793, 360], [1164833, 1292], [4096752, 258], [5137643, 885], [3810751, 342], [4331339, 1250]],
];

describe('[derived] cost-models.md §3.5 model values (T to ±0.5 µs as printed to integers; optimal S exact)', () => {
  const models: [string, OverlapFunction][] = [
    ['std', F_STANDARD],
    ['NBL', F_NOMINAL_NBL],
    ['fitted', F_FITTED_NBL],
  ];
  for (const [mesh, N, tree, ...cells] of SPEC_TABLE) {
    const side = mesh === '4x4' ? 4 : 16;
    it(`${mesh}, N = ${N}`, () => {
      expect(Math.abs(treeTimeUs({ W: side, H: side, N }) - tree)).toBeLessThanOrEqual(0.5);
      models.forEach(([, f], k) => {
        const snake = optimiseBlockSize('snake', { P: side * side, N, fOfL: f });
        const fence = optimiseBlockSize('fence', { W: side, H: side, N, fOfL: f });
        const [sT, sS] = cells[2 * k]!;
        const [fT, fS] = cells[2 * k + 1]!;
        expect([snake.S, fence.S]).toEqual([sS, fS]);
        expect(Math.abs(snake.timeUs - sT)).toBeLessThanOrEqual(0.5 + 1e-6);
        expect(Math.abs(fence.timeUs - fT)).toBeLessThanOrEqual(0.5 + 1e-6);
      });
    });
  }
  it('[derived] 4×4, N = 5×10^5: Fence/Snake = 1.44 (nominal NBL), 1.27 (fitted) vs the seed\'s measured "up to 33%" (2 decimals)', () => {
    const r = (f: OverlapFunction) => optimiseBlockSize('fence', { W: 4, H: 4, N: 5e5, fOfL: f }).timeUs / optimiseBlockSize('snake', { P: 16, N: 5e5, fOfL: f }).timeUs;
    expect(r(F_NOMINAL_NBL)).toBeCloseTo(1.44, 2);
    expect(r(F_FITTED_NBL)).toBeCloseTo(1.27, 2);
  });
  it('seed 001 §4.1 qualitative: Tree fastest at N = 10^2; Fence fastest for long vectors without NBL; Snake overtakes Fence under NBL', () => {
    for (const side of [4, 16]) {
      const tree = treeTimeUs({ W: side, H: side, N: 100 });
      expect(tree).toBeLessThan(optimiseBlockSize('fence', { W: side, H: side, N: 100, fOfL: F_STANDARD }).timeUs);
      expect(tree).toBeLessThan(optimiseBlockSize('fence', { W: side, H: side, N: 100 }).timeUs);
    }
    expect(optimiseBlockSize('fence', { W: 4, H: 4, N: 1e5, fOfL: F_STANDARD }).timeUs).toBeLessThan(optimiseBlockSize('snake', { P: 16, N: 1e5, fOfL: F_STANDARD }).timeUs);
    expect(optimiseBlockSize('snake', { P: 16, N: 1e5 }).timeUs).toBeLessThan(optimiseBlockSize('fence', { W: 4, H: 4, N: 1e5 }).timeUs);
  });
});

describe('validation and properties', () => {
  it('names field and range', () => {
    expect(() => treeTimeUs({ W: 0, H: 4, N: 10 })).toThrow(/littlefield\.tree\.W: 0 is outside 1\.\.∞ \(integer\)/);
    expect(() => nblTimeUs({ L: 2, S: -1 })).toThrow(/littlefield\.nbl\.S: -1 is outside 0\.\.∞ \(doubles\)/);
    expect(() => snakeTimeUs({ P: 2, N: 1000, S: 10 })).toThrow(/littlefield\.snake\.P: 2 is outside 3\.\.∞/);
    expect(() => nblTimeUs({ L: 2, S: 1, betaUsPerDouble: -1 })).toThrow(/betaUsPerDouble: -1/);
  });
  it('property: Snake and Fence totals grow with N at fixed S; NBL ≥ standard', () => {
    fc.assert(
      fc.property(fc.integer({ min: 300, max: 50000 }), fc.integer({ min: 300, max: 50000 }), fc.integer({ min: 10, max: 100 }), (a, b, S) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(snakeTimeUs({ P: 16, N: lo, S })).toBeLessThanOrEqual(snakeTimeUs({ P: 16, N: hi, S }));
        expect(fenceTimeUs({ W: 4, H: 4, N: lo, S })).toBeLessThanOrEqual(fenceTimeUs({ W: 4, H: 4, N: hi, S }));
        expect(fenceTimeUs({ W: 4, H: 4, N: hi, S, fOfL: F_STANDARD })).toBeLessThanOrEqual(fenceTimeUs({ W: 4, H: 4, N: hi, S }));
      }),
      { numRuns: 50 },
    );
  });
});
