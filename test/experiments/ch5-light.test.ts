/**
 * buzzard-ch5-light --quick: the sweep of the TLM's undetermined choices
 * against §5.7's light-load end points runs, pairs every wormhole with every
 * packet configuration, and shows what the choices do at quick size (16
 * messages per node): forwarding later raises the packet latency ratio
 * monotonically, bandwidth does not depend on it. The full-size figures
 * (83% / 73% / 76% / 75% closest, at 12 bytes) are in docs/buzzard-ch5.md.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FORWARD_STARTS, lightCombos, type LightPt, type LightRes } from '../../harness/experiments/buzzard-ch5-light.ts';
import { check, checkPlots, checkStructure, quickAndShards, removeDir } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('buzzard-ch5-light (quick)', () => {
  it('runs 20 points, 32 combinations; forwarding later raises the latency ratios and leaves the bandwidth ratios alone', async () => {
    const q = await quickAndShards('buzzard-ch5-light');
    dirs.push(q.dir);
    checkStructure(q.result, 'buzzard-ch5-light');
    checkPlots(q.dir, q.result);
    const pts = q.result.points as unknown as { point: LightPt; result: LightRes }[];
    expect(pts).toHaveLength(20);
    const combos = lightCombos(pts.map((p) => p.point), pts.map((p) => p.result));
    expect(combos).toHaveLength(32);
    const line = FORWARD_STARTS.map((f) => combos.find((c) => c.wormhole.slotFree === 'tail-sent' && c.wormhole.delivery === 'per-link' && c.packet.delivery === 'per-link' && c.packet.forwardStart === f)!);
    for (let k = 1; k < line.length; k++) {
      expect(line[k]!.fixedLat!).toBeGreaterThan(line[k - 1]!.fixedLat!);
      expect(line[k]!.quasiLat!).toBeGreaterThan(line[k - 1]!.quasiLat!);
      expect(line[k]!.fixedBw!).toBeCloseTo(line[0]!.fixedBw!, 1);
    }
    expect(check(q.result, 'default-light-ends').holds).not.toBeNull();
    expect(check(q.result, 'some-choice-matches').holds).toBeNull();
    expect(q.result.report.plots[0]!.title).toMatch(/\[--quick\]$/);
  });
});
