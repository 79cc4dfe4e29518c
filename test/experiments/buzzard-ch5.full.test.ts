/**
 * The §5.7 statements at the size where the seed makes them (full runs: 200
 * messages per node for exp(512), 100 for exp(2048), 6-cube, seed 1, default
 * per-link delivery). Too long for CI (~1 min on 2 cores; Figs 5.14 / 5.15
 * 4 / 10 min on one worker at load 12): run with
 *   ICEMU_FULL=1 npx vitest run test/experiments/buzzard-ch5.full.test.ts
 * The asserted verdicts are the measured ones (docs/buzzard-ch5.md
 * "Full-run figures"); a change of model or rule that moves one fails here.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ExperimentResult } from '../../harness/experiments/output.ts';
import { check, icemuExperiment, readResult, removeDir, tempDir } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

async function full(name: string): Promise<ExperimentResult> {
  const dir = tempDir('full');
  dirs.push(dir);
  const r = await icemuExperiment([name, '--out', dir, '--jobs', '2', '--quiet']);
  expect(r.code, r.err).toBe(0);
  return readResult(dir, name);
}

function verdicts(r: ExperimentResult): Record<string, string> {
  return Object.fromEntries(r.report.checks.map((c) => [c.id, c.comparable === false ? 'not comparable' : c.holds === null ? 'reported' : c.holds ? 'holds' : 'does not hold']));
}

describe.skipIf(!process.env.ICEMU_FULL)('chapter 5 at full size (ICEMU_FULL=1)', () => {
  it('Fig. 5.12: unstable at the two heaviest loads; the light-load bandwidths hold (76%, 75% vs 81%), the light-load fixed latency does not (62% vs 87%); the rest is not comparable', async () => {
    const r = await full('buzzard-fig5.12');
    const data = r.report.data as { unstable: Record<string, boolean[]> };
    expect(data.unstable.wormhole.slice(0, 3)).toEqual([true, true, false]);
    expect(data.unstable.fixed.slice(0, 3)).toEqual([true, true, false]);
    expect(data.unstable.quasi.slice(0, 2)).toEqual([true, false]);
    const v = verdicts(r);
    expect(Object.entries(v).filter(([, x]) => x !== 'not comparable')).toEqual([
      ['fixed-latency-lightest', 'does not hold'],
      ['fixed-bandwidth-lighter', 'holds'],
      ['quasi-bandwidth-lightest', 'holds'],
    ]);
    expect(check(r, 'fixed-latency-lightest').measured).toMatch(/^62% at 9216/);
  }, 900_000);
  it('Fig. 5.13: unstable at the two heaviest loads; the latency gain vs exp(512) and the light quasi bandwidth hold; the rest is not comparable', async () => {
    const r = await full('buzzard-fig5.13');
    const v = verdicts(r);
    expect(Object.entries(v).filter(([, x]) => x !== 'not comparable')).toEqual([
      ['fixed-latency-gain-vs-short', 'holds'],
      ['quasi-bandwidth-lightest', 'holds'],
    ]);
  }, 900_000);
  it('Fig. 5.14: bigger packets beat more buffers (quasi, 9 of 9 loads) and lower the first time only at the two heaviest loads; "adequate buffers" does not hold (4 at 2560 ticks, rule 6..9); first time grows with packet size at light load; the rest is not comparable', async () => {
    const r = await full('buzzard-fig5.14');
    expect(verdicts(r)).toEqual({
      'quasi-bigger-packets-beat-more-buffers': 'holds',
      'fixed-bigger-packets-beat-more-buffers': 'not comparable',
      'quasi-bigger-packets-first-only-at-high-load': 'holds',
      'adequate-buffers': 'does not hold',
      'packet-size-last-improves': 'not comparable',
      'packet-size-first-grows-light': 'holds',
      'packet-size-ten-percent': 'not comparable',
    });
    expect(check(r, 'adequate-buffers').measured).toMatch(/: 26 at 1024 ticks, 4 at 2560 ticks, 2 at 9216 ticks/);
    expect(check(r, 'quasi-bigger-packets-first-only-at-high-load').measured).toMatch(/at 1024, 1280 ticks$/);
  }, 1_800_000);
  it('Fig. 5.15: "adequate buffers" does not hold (2 at 10240 ticks, rule 6..9); the first time grows with packet size at light load; every statement using the two heaviest loads is not comparable', async () => {
    const r = await full('buzzard-fig5.15');
    expect(verdicts(r)).toEqual({
      'quasi-bigger-packets-beat-more-buffers': 'not comparable',
      'fixed-bigger-packets-beat-more-buffers': 'not comparable',
      'quasi-bigger-packets-first-only-at-high-load': 'not comparable',
      'adequate-buffers': 'does not hold',
      'packet-size-last-improves': 'not comparable',
      'packet-size-first-grows-light': 'holds',
      'packet-size-ten-percent': 'not comparable',
    });
    expect(check(r, 'adequate-buffers').measured).toMatch(/: 26 at 4096 ticks, 2 at 10240 ticks, 2 at 36864 ticks/);
    // The bigger-packets trend itself is there at all nine loads; only the unstable heavy points keep it from a verdict.
    expect(check(r, 'quasi-bigger-packets-beat-more-buffers').measured).toMatch(/^at 9 of 9 loads/);
  }, 3_600_000);
});
