/**
 * c104-variability (Figs 6.6–6.9): the rules with negative controls and the
 * --quick run at the seed's light load (16×16 standard setup, c = 100 µs,
 * where Figs 6.8/6.9's light-load statements are made). The full sweep
 * (c = 2, 10, 30, 100 µs) runs behind ICEMU_FULL=1.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { absoluteCheck } from '../../harness/experiments/c104-verdicts.ts';
import { computeLaw, fallsWithSigma, relSpread, SAME, THETA_R_LIGHT, THETA_R_TOL } from '../../harness/experiments/c104-variability.ts';
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
  it('"falls as σ rises": a rise of 1% is allowed, 1.1% is not; the last must be below the first', () => {
    expect(fallsWithSigma([9.1, 8.8, 8.88, 4.1])).toBe(true);
    expect(fallsWithSigma([9.1, 8.8, 8.89, 4.1])).toBe(false);
    expect(fallsWithSigma([9.1, 9.1, 9.1, 9.1])).toBe(false);
  });
  it('θ_r ≈ 90 ± 5 points; 95.1 fails', () => {
    expect(absoluteCheck('t', 's', THETA_R_LIGHT, 94.9, THETA_R_TOL, ' pts').holds).toBe(true);
    expect(absoluteCheck('t', 's', THETA_R_LIGHT, 95.1, THETA_R_TOL, ' pts').holds).toBe(false);
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
  it('6.7, 6.8, 6.9 hold; 6.6 does not: at c = 2 µs the four laws are within 3.2% and unordered, and σ = 10% is 3.3% below σ = 0 at c = 100', async () => {
    const { res } = await run([]);
    for (const id of ['f6.7-no-difference', 'f6.8-theta-t-cap', 'f6.9-theta-r-sigma0', 'f6.9-theta-r-others']) expect(check(res, id).holds, `${id}: ${check(res, id).measured}`).toBe(true);
    for (const id of ['f6.6-falls', 'f6.6-same-rate-different-life']) expect(check(res, id).holds, id).toBe(false);
  }, 1_800_000);
});
