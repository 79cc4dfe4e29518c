/**
 * buzzard-ch4 --quick (4 messages per node): the run completes with every
 * message delivered, the table has 22 figures × 12 configurations, the
 * statements carry their rules, and what holds at quick size: the §4.5
 * relations (exact, size-independent) and the fixed-vs-normal-length
 * relation. The full-size verdicts (40 messages per node) are in
 * docs/buzzard-ch4.md; the other quick verdicts are not asserted (noise).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { plotFileName } from '../../harness/experiments/output.ts';
import { check, checkPlots, checkStructure, quickAndShards, removeDir } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('buzzard-ch4 (quick)', () => {
  it('runs 1 + (22 figures + 4 exponential-gap controls of the bursty ones) × 12 points; §4.5 M + hβ and M + hα hold exactly; fixed vs normal lengths about the same', async () => {
    const q = await quickAndShards('buzzard-ch4');
    dirs.push(q.dir);
    checkStructure(q.result, 'buzzard-ch4');
    checkPlots(q.dir, q.result);
    expect(q.result.points).toHaveLength(1 + (22 + 4) * 12);
    expect(q.result.report.tables[0]!.rows).toHaveLength(22 * 12);
    expect(q.result.report.notes[0]).toMatch(/delivered every message: true/);
    for (const id of ['sec4.5-wormhole-M-plus-h-beta', 'sec4.5-packet-M-plus-h-alpha', 'flooded-fixed-vs-normal-lengths']) expect(check(q.result, id).holds, id).toBe(true);
    expect(check(q.result, 'bidirectional-doubles').rule).toMatch(/\[1\.6, 2\.6\]/);
    expect(q.result.report.checks).toHaveLength(13);
    // error bars (batch means) on the means plot, the half-widths in the plot data
    expect(readFileSync(join(q.dir, plotFileName('buzzard-ch4', 'means')), 'utf8')).toContain('class="errorbar"');
    expect(q.result.report.plots[0]!.series.some((s) => (s.errors ?? []).some((e) => e > 0))).toBe(true);
  });
});
