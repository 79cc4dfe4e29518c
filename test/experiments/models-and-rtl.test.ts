/**
 * buzzard-collisions, oliver-graphs and nbl-testjig, --quick runs: JSON
 * structure, SVGs, shards merged = unsharded, and the seed statements the
 * quick runs measure to hold (seed numbers alongside).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { collisionProbabilityAdaptive, collisionProbabilityFixed } from '../../harness/models/buzzard.ts';
import { adaptiveFirstDim, exactCollisions } from '../../harness/experiments/collisions.ts';
import type { ExperimentResult } from '../../harness/experiments/output.ts';
import { check, checkPlots, checkStructure, quickAndShards, removeDir } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('buzzard-collisions (Eqs 5.1/5.2)', () => {
  let r: ExperimentResult;
  it('quick run on 2 worker threads: structure, plot, sharded + merged = unsharded', async () => {
    const q = await quickAndShards('buzzard-collisions', [], 2);
    dirs.push(q.dir);
    r = q.result;
    checkStructure(r, 'buzzard-collisions');
    checkPlots(q.dir, r);
    expect(r.points).toHaveLength(21); // n = 2..8 × (exact, TLM fixed, TLM adaptive)
    // the Monte Carlo estimates carry ±1.96 SE error bars (one per TLM point, both routings); the title says --quick
    const svg = readFileSync(join(q.dir, 'buzzard-collisions.svg'), 'utf8');
    expect([...svg.matchAll(/class="errorbar"/g)].length).toBe(14);
    expect(r.report.plots[0]!.title).toMatch(/\[--quick\]$/);
  });

  it('the exact enumeration equals Eq 5.1 and 1/(2^n − 1) for adaptive, so Eq 5.2 is high by 2^n/(2^n − 1) (seed n = 6: 0.3439, 0.0161)', () => {
    for (const n of [2, 3, 6, 9]) {
      const e = exactCollisions(n);
      expect(e.fixedCollisions / e.pairs).toBeCloseTo(collisionProbabilityFixed({ n }), 12);
      expect(e.adaptiveCollisions / e.pairs).toBeCloseTo(1 / (2 ** n - 1), 12);
      expect(collisionProbabilityAdaptive({ n }) / (e.adaptiveCollisions / e.pairs)).toBeCloseTo(2 ** n / (2 ** n - 1), 12);
    }
    expect(check(r, 'eq5.1-exact').holds).toBe(true);
    expect(check(r, 'eq5.2-exact').holds).toBe(false);
    expect(check(r, 'eq5.2-approx').holds).toBe(true); // within 2% at n = 6 (1.59%)
  });

  it('the adaptive rule: shortest queue among the dimensions that bring the message closer, ties to e-cube then the lowest (A13)', () => {
    expect(adaptiveFirstDim(0b1010, [0, 0, 0, 0])).toBe(1);
    expect(adaptiveFirstDim(0b1010, [0, 1, 0, 0])).toBe(3);
    expect(adaptiveFirstDim(0b1110, [0, 1, 1, 0])).toBe(3);
    expect(adaptiveFirstDim(0b0010, [0, 1, 0, 0])).toBe(1);
  });

  it('holds (quick): the TLM agrees with the enumeration within 4 SE on a quiescent cube; limits 1/3 and 0 (n = 8: 0.3359, 0.0039); a random first step collides more', () => {
    for (const id of ['tlm-matches-exact', 'limits', 'random-inferior']) expect(check(r, id).holds, id).toBe(true);
    expect(check(r, 'pf-much-greater').holds).toBe(false); // "P_f ≫ P_a for n ≥ 2": only 1.7× at n = 2 (≥ 10× from n = 5)
  });
});

describe('oliver-graphs (Graphs 1–5)', () => {
  let r: ExperimentResult;
  it('quick run: structure, five SVGs, sharded + merged = unsharded', async () => {
    const q = await quickAndShards('oliver-graphs');
    dirs.push(q.dir);
    r = q.result;
    checkStructure(r, 'oliver-graphs');
    checkPlots(q.dir, r);
    expect(r.report.plots.map((p) => p.id)).toEqual(['graph1', 'graph2', 'graph3', 'graph4', 'graph5']);
    // Graph 1 at s = 0 and s = 6 (seed estimates: 3.8 µs; 2β + 7α + 12δ = 13.1 µs)
    const g1 = r.report.plots[0]!.series[0]!.points;
    expect(g1[0]).toEqual([0, 3.8]);
    expect(g1[6]![1]).toBeCloseTo(13.1, 9);
  });
  it('holds: crossover at 1.35 switches, "about 3 channels" at s = 6 (3.447), one channel direct, Graph 4 flat with c = 4, Graph 5 ordering for s ≥ 2, 4β ≤ (b+h+1)α, s dominates at 10, derived 488.4 / 129.6 µs', () => {
    for (const id of ['eq2-crossover', 'eq4-about-3-channels', 'eq4-one-channel-direct', 'graph4-independent-of-s', 'graph5-multi-better', 'vcp-four-links', 's-dominates', 'derived-examples']) {
      expect(check(r, id).holds, id).toBe(true);
    }
  });
  it('does not hold from the equations: "n ≤ 32: the single channel is better" (Eq 5 makes c = 4 cheaper at s = 3..7 and 9..10)', () => {
    expect(check(r, 'small-message-single-channel').holds).toBe(false);
  });
});

describe('nbl-testjig (Littlefield Table 1 on the RTL Buzzard node)', () => {
  let r: ExperimentResult;
  it('quick run on 2 worker threads: structure, plots, sharded + merged = unsharded', async () => {
    const q = await quickAndShards('nbl-testjig', [], 2);
    dirs.push(q.dir);
    r = q.result;
    checkStructure(r, 'nbl-testjig');
    checkPlots(q.dir, r);
    expect(r.points).toHaveLength(16);
    // the DELTA table is printed beside the measured one
    expect(r.report.tables[1]!.rows[0]).toEqual([60, 74, null, 129, null, null, 259, null, null, 345, null, null]);
  });
  it('holds (quick): every block intact; 1 ≤ f(L) ≤ L; f(L) ≈ L/2 (one node input port, sends in parallel)', () => {
    for (const id of ['intact', 'nbl-range', 'buzzard-half-nbl']) expect(check(r, id).holds, id).toBe(true);
    const f = (r.report.data as { f: Record<string, number[]> }).f;
    for (const L of [2, 4, 6]) for (const x of f[L]!) expect(x).toBeCloseTo(L / 2, 1);
  });
  it('does not hold on this node: "long messages almost perfectly NBL constrained, f(L) = L" (DELTA 300→600: 1.90, 3.88, 5.84)', () => {
    expect(check(r, 'long-messages-nbl').holds).toBe(false);
    expect(check(r, 'long-messages-nbl').seed).toMatch(/1\.90.*3\.88.*5\.84/);
  });
});
