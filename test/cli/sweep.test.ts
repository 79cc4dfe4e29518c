/**
 * `icemu sweep`: a latency–load curve on the RTL, sharded and merged, and
 * spread over processes by GNU parallel (skipped, with a message, when
 * `parallel` is not installed; .ci/run installs it).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { icemu } from './helpers.ts';

const dir = fs.mkdtempSync(join(tmpdir(), 'icemu-sweep-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = icemu;

const hasParallel = spawnSync('parallel', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasParallel) console.warn('sweep.test.ts: GNU parallel not on PATH (install the parallel package): skipping the GNU parallel test');

describe('icemu sweep', () => {
  it('writes the curve (JSON + SVG); two shards merged give the same JSON bytes as one run', async () => {
    const full = join(dir, 'full');
    const r = await run(['sweep', '--quick', '--jobs', '1', '--quiet', '--out', full]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/uniform traffic on a Buzzard 2-cube/);
    expect(fs.readdirSync(full).sort()).toEqual(['buzzard-sweep.json', 'buzzard-sweep.latency.svg', 'buzzard-sweep.run.json', 'buzzard-sweep.throughput.svg']);
    const doc = JSON.parse(fs.readFileSync(join(full, 'buzzard-sweep.json'), 'utf8'));
    expect(doc.points.map((p: { point: { rate: number } }) => p.point.rate)).toEqual([0.1, 0.3]);
    const [lo, hi] = doc.points.map((p: { result: { offered: number; mean: number } }) => p.result);
    expect(hi.offered).toBeGreaterThan(lo.offered); // more offered load at the higher rate
    expect(fs.readFileSync(join(full, 'buzzard-sweep.latency.svg'), 'utf8')).toMatch(/^<\?xml[\s\S]*<svg[\s\S]*mean[\s\S]*p99/);
    const shards = join(dir, 'shards');
    for (const i of [0, 1]) expect((await run(['sweep', '--quick', '--jobs', '1', '--quiet', '--shard', `${i}/2`, '--out', shards])).code).toBe(0);
    const m = await run(['sweep', 'merge', shards]);
    expect(m.code, m.err).toBe(0);
    expect(fs.readFileSync(join(shards, 'buzzard-sweep.json'), 'utf8')).toBe(fs.readFileSync(join(full, 'buzzard-sweep.json'), 'utf8'));
  }, 120_000);

  it('bad options: one line, exit 2', async () => {
    for (const [argv, re] of [
      [['sweep', '--rates', '0.1,lots'], /--rates: each rate must be a number/],
      [['sweep', '--pattern', 'zigzag'], /--pattern must be one of/],
      [['sweep', '--shard', '3/2'], /shard/],
      [['sweep', 'merge'], /usage: icemu sweep/],
      [['sweep', 'merge', join(dir, 'none')], /cannot read directory/],
    ] as [string[], RegExp][]) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(re);
      expect(r.err.split('\n')).toHaveLength(1);
    }
  });

  it.skipIf(!hasParallel)('GNU parallel runs the shards as separate processes; merge combines them', () => {
    const out = join(dir, 'parallel');
    execFileSync('parallel', ['--halt', 'now,fail=1', process.execPath, 'bin/icemu.mjs', 'sweep', '--quick', '--jobs', '1', '--quiet', '--shard', '{}/2', '--out', out, ':::', '0', '1'], { stdio: 'pipe' });
    expect(fs.readdirSync(out).sort()).toEqual(['buzzard-sweep.shard-0-of-2.json', 'buzzard-sweep.shard-1-of-2.json']);
    const merged = spawnSync(process.execPath, ['bin/icemu.mjs', 'sweep', 'merge', out], { encoding: 'utf8' });
    expect(merged.status, merged.stderr).toBe(0);
    const doc = JSON.parse(fs.readFileSync(join(out, 'buzzard-sweep.json'), 'utf8'));
    expect(doc.points).toHaveLength(2);
  }, 120_000);
});
