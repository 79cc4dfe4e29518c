/**
 * buzzard-fig5.12 … buzzard-fig5.15 (seed 002 §5.7 on the TLM), --quick runs:
 * JSON structure, SVGs well formed and plotting the data, shards 0/2 + 1/2
 * merged equal to the unsharded run, and the seed statements that the quick
 * run measures to hold (the others are reported in the JSON, not asserted;
 * full runs are outside the tests).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ExperimentResult } from '../../harness/experiments/output.ts';
import { check, checkPlots, checkStructure, quickAndShards, removeDir } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

type Row = Record<string, number | null>;
function points(r: ExperimentResult): { point: Record<string, unknown>; result: Row }[] {
  return r.points as unknown as { point: Record<string, unknown>; result: Row }[];
}

describe('buzzard-fig5.12 (exp(512), three transports)', () => {
  let r: ExperimentResult;
  it('quick run: structure, plots, 27 TLM points, sharded + merged = unsharded', async () => {
    const q = await quickAndShards('buzzard-fig5.12');
    dirs.push(q.dir);
    r = q.result;
    checkStructure(r, 'buzzard-fig5.12');
    checkPlots(q.dir, r);
    expect(r.points).toHaveLength(27);
    expect(r.report.plots.map((p) => p.id)).toEqual(['part1', 'part2', 'all', 'ratios']);
    // every message delivered, in order, no deadlock
    for (const p of points(r)) {
      expect(p.result.delivered).toBe(p.result.messages);
      expect(p.result.deadlock).toBe(false);
      expect(p.result.orderViolations).toBe(0);
    }
    // the table beside the seed: the ratio table carries the seed's ends at the heaviest and lightest loads
    const ratios = r.report.tables[1]!;
    expect(ratios.rows[0]).toContain('35%');
    expect(ratios.rows[8]).toContain('87%');
    expect(q.run.out).toMatch(/Seed statements vs measured/);
  });

  it('holds (quick): fixed packet latency at the heaviest load ≈ 35% of wormhole (seed 35%, ±10 pp)', () => {
    expect(check(r, 'fixed-latency-heaviest').holds).toBe(true);
  });
  it('holds (quick): bandwidth at the heaviest load, fixed ≈ 37% and quasi-adaptive ≈ 28% of wormhole (±10 pp)', () => {
    expect(check(r, 'fixed-bandwidth-heavier').holds).toBe(true);
    expect(check(r, 'quasi-bandwidth-heaviest').holds).toBe(true);
  });
  it('holds (quick): shape — packet "first" well below wormhole at heavy load, lower bandwidth at every load, quasi-adaptive ≤ fixed latency at every load', () => {
    for (const id of ['shape-packet-latency-heavy', 'shape-packet-bandwidth-lower', 'shape-quasi-beats-fixed']) expect(check(r, id).holds, id).toBe(true);
  });
  it('reports every §5.7 exp(512) statement with the seed numbers beside the measured ones', () => {
    const ids = r.report.checks.map((c) => c.id);
    for (const id of ['fixed-latency-lightest', 'fixed-latency-below-half', 'fixed-bandwidth-lighter', 'fixed-whole-message-sooner', 'quasi-latency-range', 'quasi-latency-below-half', 'quasi-bandwidth-lightest', 'quasi-whole-message-sooner']) {
      expect(ids).toContain(id);
    }
    expect(check(r, 'fixed-latency-lightest').seed).toBe('87%');
    expect(check(r, 'quasi-latency-range').seed).toBe('10% … 77%');
  });
});

describe('buzzard-fig5.13 (exp(2048), three transports)', () => {
  let r: ExperimentResult;
  it('quick run: structure, plots, 27 + 2 cross points, sharded + merged = unsharded', async () => {
    const q = await quickAndShards('buzzard-fig5.13');
    dirs.push(q.dir);
    r = q.result;
    checkStructure(r, 'buzzard-fig5.13');
    checkPlots(q.dir, r);
    expect(r.points).toHaveLength(29);
    expect(points(r).filter((p) => p.point.role === 'cross').map((p) => p.point.meanBytes)).toEqual([512, 512]);
  });
  it('holds (quick): fixed packet bandwidth 39%…72% of wormhole; quasi-adaptive bandwidth ≈31% heaviest, ≈72% lightest (±10 pp)', () => {
    for (const id of ['fixed-bandwidth-range', 'quasi-bandwidth-heaviest', 'quasi-bandwidth-lightest']) expect(check(r, id).holds, id).toBe(true);
  });
  it('holds (quick): quasi-adaptive latency 14%…31% of wormhole across the loads (±10 pp)', () => {
    expect(check(r, 'quasi-latency-range').holds).toBe(true);
  });
  it('holds (quick): at light load the latency gain is larger for exp(2048) than for exp(512)', () => {
    expect(check(r, 'fixed-latency-gain-vs-short').holds).toBe(true);
  });
  it('holds (quick): shape checks', () => {
    for (const id of ['shape-packet-latency-heavy', 'shape-packet-bandwidth-lower', 'shape-quasi-beats-fixed']) expect(check(r, id).holds, id).toBe(true);
  });
});

describe('buzzard-fig5.14 (buffer/packet tradeoff, exp(512))', () => {
  let r: ExperimentResult;
  it('quick run: structure, plots, variants and sweeps, sharded + merged = unsharded', async () => {
    const q = await quickAndShards('buzzard-fig5.14');
    dirs.push(q.dir);
    r = q.result;
    checkStructure(r, 'buzzard-fig5.14');
    checkPlots(q.dir, r);
    const pts = points(r);
    expect(pts.filter((p) => p.point.role === 'main')).toHaveLength(54);
    expect(new Set(pts.filter((p) => p.point.role === 'main').map((p) => `${p.point.buffersPerPbu}x${p.point.packetBytes}`))).toEqual(new Set(['13x32', '26x32', '13x64']));
    expect(pts.filter((p) => p.point.role === 'buffers')).toHaveLength(21);
    expect(pts.filter((p) => p.point.role === 'packets')).toHaveLength(18);
  });
  it('holds (quick): 13 × 64 B beats 26 × 32 B on last-byte time at every load, both packet schemes (seed: "preferable to increase the length of packets")', () => {
    expect(check(r, 'quasi-bigger-packets-beat-more-buffers').holds).toBe(true);
    expect(check(r, 'fixed-bigger-packets-beat-more-buffers').holds).toBe(true);
  });
  it('holds (quick): adequate buffers at the middle load within 1–1½ × n = 6–9; last time falls with packet size up to mean/4; first time grows with packet size at light load', () => {
    for (const id of ['adequate-buffers', 'packet-size-last-improves', 'packet-size-first-grows-light']) expect(check(r, id).holds, id).toBe(true);
  });
});

describe('buzzard-fig5.15 (buffer/packet tradeoff, exp(2048))', () => {
  let r: ExperimentResult;
  it('quick run on 2 worker threads: structure, plots, sharded (in process) + merged = unsharded', async () => {
    const q = await quickAndShards('buzzard-fig5.15', [], 2);
    dirs.push(q.dir);
    r = q.result;
    checkStructure(r, 'buzzard-fig5.15');
    checkPlots(q.dir, r);
    expect(q.run.out).toMatch(/on 2 workers/);
    expect(check(r, 'quasi-bigger-packets-first-only-at-high-load').holds).toBeNull(); // the seed says it of exp(512) only
  });
  it('holds (quick): bigger packets beat more buffers; last falls with packet size; first grows with it at light load; ≈10% of the mean (128–256 B) best on first + last', () => {
    for (const id of ['quasi-bigger-packets-beat-more-buffers', 'fixed-bigger-packets-beat-more-buffers', 'packet-size-last-improves', 'packet-size-first-grows-light', 'packet-size-ten-percent']) {
      expect(check(r, id).holds, id).toBe(true);
    }
  });
});
