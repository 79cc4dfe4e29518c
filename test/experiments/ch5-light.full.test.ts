/**
 * buzzard-ch5-light at the size where §5.7 states its light-load end points
 * (200 messages per node at 9216 ticks, 6-cube, seed 1; 70 s on one worker
 * on a loaded 2-core machine):
 *
 *   ICEMU_FULL=1 npx vitest run test/experiments/ch5-light.full.test.ts
 *
 * The asserted figures are the measured ones (docs/buzzard-ch5.md
 * "Full-run figures"): with the default choices the four ratios do not all
 * fall within ±10 pp of the seed's (fixed latency 62% vs 87%); two of the 32
 * swept combinations do, both with packets forwarding after 12 bytes and
 * per-link delivery for packets. The ±10 pp rule itself is pinned by
 * ch5-rules.test.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { check, icemuExperiment, readResult, removeDir, tempDir } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

interface Combo {
  readonly wormhole: { readonly slotFree: string; readonly delivery: string };
  readonly packet: { readonly forwardStart: number | string; readonly delivery: string };
  readonly fixedLat: number;
  readonly quasiLat: number;
  readonly fixedBw: number;
  readonly quasiBw: number;
  readonly worst: number;
}

describe.skipIf(!process.env.ICEMU_FULL)('buzzard-ch5-light at full size (ICEMU_FULL=1)', () => {
  it('defaults: 62% / 52% / 76% / 75% (seed 87 / 77 / 81 / 81): does not hold; 2 of 32 combinations within ±10 pp, both 12-byte forwarding with per-link packet delivery', async () => {
    const dir = tempDir('ch5-light-full');
    dirs.push(dir);
    const run = await icemuExperiment(['buzzard-ch5-light', '--out', dir, '--jobs', '2', '--quiet']);
    expect(run.code, run.err).toBe(0);
    const r = readResult(dir, 'buzzard-ch5-light');
    expect((r.params as { messagesPerNode: number }).messagesPerNode).toBe(200);
    const def = check(r, 'default-light-ends');
    expect(def.holds).toBe(false);
    expect(def.measured).toMatch(/latency fixed 62% quasi 52%, bandwidth fixed 76% quasi 75%/);
    const combos = (r.report.data as unknown as { combos: Combo[] }).combos;
    expect(combos).toHaveLength(32);
    const inside = combos.filter((c) => c.worst <= 0.1 + 1e-12);
    expect(inside).toHaveLength(2);
    for (const c of inside) expect([c.packet.forwardStart, c.packet.delivery]).toEqual([12, 'per-link']);
    // The closest is 5.5 points from the seed at its worst ratio (quasi-adaptive bandwidth 75% vs 81%).
    expect(Math.min(...combos.map((c) => c.worst))).toBeCloseTo(0.0552, 3);
  }, 900_000);
});
