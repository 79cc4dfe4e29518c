/**
 * c104-saturation (Figs 5.4, 5.5): the rules with negative controls just
 * outside them, and the --quick run at the seed's size (16×16 standard
 * setup, c = 1 µs: the very highest load, where Fig. 5.4's 20% is claimed).
 * The full sweep (every c) runs behind ICEMU_FULL=1.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { absoluteCheck } from '../../harness/experiments/c104-verdicts.ts';
import { LEVEL, levelRatio, QUEUE_DROP, QUEUE_DROP_TOL, sdGrowsHolds } from '../../harness/experiments/c104-saturation.ts';
import { check, checkPlots, checkStructure, removeDir, runExperimentIn } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('saturation rules', () => {
  it('Fig. 5.4 queue drop: 20 ± 5 points; just outside fails', () => {
    const rule = (x: number) => absoluteCheck('q', 's', QUEUE_DROP, x, QUEUE_DROP_TOL, ' pts').holds;
    expect(rule(24.9)).toBe(true);
    expect(rule(25.1)).toBe(false);
    expect(rule(14.9)).toBe(false);
  });
  it('Fig. 5.4 levels off: min/max of the c < 16 rates at least 90% (the seed\'s Table 5.1 async column: 0.902); a fall just past it fails', () => {
    expect(levelRatio([53.4, 57.1, 57.4, 52.4, 58.1, 56.5]) >= LEVEL).toBe(true);
    expect(levelRatio([54, 53, 48.7]) >= LEVEL).toBe(true);
    expect(levelRatio([54, 53, 48.5]) >= LEVEL).toBe(false);
  });
  it('Fig. 5.5 s.d. grows: at least ×2 from the lightest to the highest load holds; ×1.99 fails', () => {
    expect(sdGrowsHolds(2)).toBe(true);
    expect(sdGrowsHolds(1.99)).toBe(false);
  });
});

const run = (args: string[]) => runExperimentIn('c104-saturation', args, dirs);

describe('c104-saturation --quick (16×16, c = 1 and 30 µs)', () => {
  it('Fig. 5.4 (queue limit ≈ 20% lower at c = 1 µs) and Fig. 5.5 (s.d. grows) hold', async () => {
    const { d, res } = await run(['--quick', '--jobs', '1']);
    checkStructure(res, 'c104-saturation');
    checkPlots(d, res);
    expect(check(res, 'f5.4-queue-lower').holds, check(res, 'f5.4-queue-lower').measured).toBe(true);
    expect(check(res, 'f5.5-sd-grows').holds, check(res, 'f5.5-sd-grows').measured).toBe(true);
    expect(check(res, 'f5.4-levels-off').holds).toBeNull(); // needs the full sweep
  }, 120_000);
});

describe.skipIf(!process.env.ICEMU_FULL)('full run (ICEMU_FULL=1)', () => {
  it('every Fig. 5.4 / 5.5 statement holds over c = 1..60 µs', async () => {
    const { res } = await run([]);
    for (const id of ['f5.4-queue-lower', 'f5.4-levels-off', 'f5.5-sd-grows']) expect(check(res, id).holds, check(res, id).measured).toBe(true);
  }, 1_800_000);
});
