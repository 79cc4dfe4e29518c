/**
 * c104-variability (Figs 6.6–6.9): the rules with negative controls and the
 * --quick run at the seed's light load (16×16 standard setup, c = 100 µs,
 * where Figs 6.8/6.9's light-load statements are made). The full sweep
 * (c = 2, 10, 30, 100 µs) runs behind ICEMU_FULL=1.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { absoluteCheck } from '../../harness/experiments/c104-verdicts.ts';
import { computeLaw, diffCI, fallsWithSigma, othersNearFull, relSpread, SAME, sameRateDifferentLife, THETA_R_LIGHT, THETA_R_TOL, thetaTCapHolds } from '../../harness/experiments/c104-variability.ts';
import { check, checkPlots, checkStructure, removeDir, runExperimentIn } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('variability rules', () => {
  it('laws have mean c; σ is 10% / 50% of c', () => {
    expect(computeLaw('normal-50', 30)).toEqual({ law: 'normal', mean: 30, sd: 15 });
    expect(computeLaw('exp', 30)).toEqual({ law: 'exp', mean: 30 });
    expect(computeLaw('constant', 30)).toEqual({ law: 'constant', value: 30 });
  });
  it('"no difference": spread within 3%; just outside fails', () => {
    expect(relSpread([10, 10.29, 10.1]) <= SAME).toBe(true);
    expect(relSpread([10, 10.31, 10.1]) <= SAME).toBe(false);
  });
  it('"falls as σ rises": a rise within the 95% interval of the difference (√(h₁² + h₂²)) is allowed, just past it is not; exp. must be below σ = 0 by more than it', () => {
    const r = (rate: number, ci: number) => ({ rate, ci });
    expect(diffCI(r(1, 0.03), r(2, 0.04))).toBeCloseTo(0.05, 12);
    // c = 2 µs as measured: σ = 50% is 0.47 above σ = 10% with a 0.65 interval.
    expect(fallsWithSigma([r(47.56, 0.47), r(46.59, 0.46), r(47.06, 0.46), r(46.14, 0.44)])).toBe(true);
    expect(fallsWithSigma([r(9.1, 0.03), r(8.8, 0.03), r(8.849, 0.04), r(4.1, 0.04)])).toBe(true);
    expect(fallsWithSigma([r(9.1, 0.03), r(8.8, 0.03), r(8.851, 0.04), r(4.1, 0.04)])).toBe(false); // rise just past the interval
    expect(fallsWithSigma([r(9.1, 0.03), r(9.08, 0.03), r(9.06, 0.04), r(9.049, 0.04)])).toBe(true);
    expect(fallsWithSigma([r(9.1, 0.03), r(9.08, 0.03), r(9.06, 0.04), r(9.051, 0.04)])).toBe(false); // exp. not clearly below σ = 0
    expect(fallsWithSigma([r(9.1, 0), r(9.1, 0), r(9.1, 0), r(9.1, 0)])).toBe(false);
  });
  it('θ_r ≈ 90 ± 5 points; 95.1 fails', () => {
    expect(absoluteCheck('t', 's', THETA_R_LIGHT, 94.9, THETA_R_TOL, ' pts').holds).toBe(true);
    expect(absoluteCheck('t', 's', THETA_R_LIGHT, 95.1, THETA_R_TOL, ' pts').holds).toBe(false);
  });
  it('Fig. 6.6 "same rate, different lifetimes": rates within 3% and lifetimes 20% apart hold; 3.01% or 19.9% fails', () => {
    expect(sameRateDifferentLife(0.03, 0.2)).toBe(true);
    expect(sameRateDifferentLife(0.0301, 0.2)).toBe(false);
    expect(sameRateDifferentLife(0.03, 0.199)).toBe(false);
  });
  it('Fig. 6.8 θ_t at most 63 + 5 = 68% at every c (68.1 fails); Fig. 6.9 other laws θ_r ≥ 95% (94.9 fails)', () => {
    expect(thetaTCapHolds([42, 64, 68])).toBe(true);
    expect(thetaTCapHolds([42, 64, 68.1])).toBe(false);
    expect(othersNearFull([95, 99.8, 100])).toBe(true);
    expect(othersNearFull([94.9, 99.8, 100])).toBe(false);
  });
});

const run = (args: string[]) => runExperimentIn('c104-variability', args, dirs);

describe('c104-variability --quick (16×16, c = 100 µs)', () => {
  it('Figs 6.6 (falls), 6.7, 6.8, 6.9 hold at light load; 6.6 "same rate for σ = 0 and 10%" does not (3.3% apart, bound 3%)', async () => {
    const { d, res } = await run(['--quick', '--jobs', '1']);
    checkStructure(res, 'c104-variability');
    checkPlots(d, res);
    for (const id of ['f6.6-falls', 'f6.7-no-difference', 'f6.8-theta-t-cap', 'f6.9-theta-r-sigma0', 'f6.9-theta-r-others']) expect(check(res, id).holds, `${id}: ${check(res, id).measured}`).toBe(true);
    expect(check(res, 'f6.6-same-rate-different-life').holds).toBe(false);
  }, 180_000);
});

describe.skipIf(!process.env.ICEMU_FULL)('full run (ICEMU_FULL=1, c = 2..100 µs)', () => {
  it('6.6 "falls", 6.7, 6.8, 6.9 hold (at c = 2 µs the fall is 3.0%, beyond the points\' intervals); 6.6 "same rate for σ = 0 and 10%" does not (3.3% apart at c = 100)', async () => {
    const { res } = await run([]);
    for (const id of ['f6.6-falls', 'f6.7-no-difference', 'f6.8-theta-t-cap', 'f6.9-theta-r-sigma0', 'f6.9-theta-r-others']) expect(check(res, id).holds, `${id}: ${check(res, id).measured}`).toBe(true);
    expect(check(res, 'f6.6-same-rate-different-life').holds).toBe(false);
  }, 1_800_000);
});
