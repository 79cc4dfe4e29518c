/**
 * c104-starvation (Figs 5.6–5.9), c104-policies (Fig. 4.11) and c104-buffers
 * (Figs 4.5, 4.7): the rule functions with negative controls, the 8×8 runs
 * (one of the seed's sizes) in CI, and the full runs behind ICEMU_FULL=1.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { ExperimentResult } from '../../harness/experiments/output.ts';
import { ACK_PILE, ackPileHolds, centreBusiestHolds, CURED, deadZoneHolds, edgeShare, rotatedHolds, sensitiveHolds, spread, STARVED, starvedLines, UNIFORM, uniformHolds } from '../../harness/experiments/c104-starvation.ts';
import { ackHelpsHolds, policyOrdering } from '../../harness/experiments/c104-policies.ts';
import { noGainBeyond4, stepRule, width1Worse } from '../../harness/experiments/c104-buffers.ts';
import { check, checkPlots, checkStructure, icemuExperiment, readResult, removeDir, runExperimentIn, tempDir } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe('starvation rules', () => {
  const lines = (edge: number) => [edge, 40, 60, 70, 75, 80, 80, 80, 80, 80, 75, 70, 60, 40, 30, edge];
  it('edge share = larger edge line / mean of lines 6..9; starved below 5%, cured at 80% or more', () => {
    expect(edgeShare(lines(3.9))).toBeCloseTo(3.9 / 80, 12);
    expect(edgeShare(lines(3.99)) < STARVED).toBe(true);
    expect(edgeShare(lines(4.01)) < STARVED).toBe(false); // negative control: just above 5%
    expect(edgeShare(lines(64)) >= CURED).toBe(true);
    expect(edgeShare(lines(63.9)) >= CURED).toBe(false);
    expect(spread([10, 10.9, 10])).toBeCloseTo(1.09, 12);
  });
  // Middle lines 6 and 9 at 80: a line is starved below 4.
  const zone = (v: number) => [1, 1, 1, 1, 50, 70, 80, 80, 80, 80, 70, 50, 1, 1, 1, v];
  it('Fig. 5.6 dead zone: lines 0..3 and 12..15 below 5% of lines 6 and 9 hold; one of them at 5% fails', () => {
    expect(starvedLines(zone(3.99))).toEqual([0, 1, 2, 3, 12, 13, 14, 15]);
    expect(deadZoneHolds(starvedLines(zone(3.99)))).toBe(true);
    expect(deadZoneHolds(starvedLines(zone(4)))).toBe(false);
  });
  it(`Fig. 5.6 uniform at low load: max/min at most ${UNIFORM} in columns and rows; just past it in either fails`, () => {
    const flat = Array(16).fill(10);
    const edge = (v: number) => [v, ...Array(15).fill(10)];
    expect(uniformHolds(edge(11), flat)).toBe(true);
    expect(uniformHolds(edge(11.001), flat)).toBe(false);
    expect(uniformHolds(flat, edge(9.09))).toBe(false); // 10 / 9.09 = 1.1001
  });
  it('Fig. 5.6 ack queues on the starved nodes: starved columns owing 10× the middle\'s holds, 9.99× fails; no starved column, no verdict', () => {
    expect(ACK_PILE).toBe(10);
    const owed = (edge: number) => [edge, edge, 5, 5, 5, 5, 2, 2, 2, 2, 5, 5, 5, 5, edge, edge];
    expect(ackPileHolds(owed(20), [0, 1, 14, 15])).toBe(true);
    expect(ackPileHolds(owed(19.98), [0, 1, 14, 15])).toBe(false);
    expect(ackPileHolds(owed(20), [])).toBeNull();
  });
  it('Fig. 5.6 routing load highest in the centre: the busiest C104 at (6..9, 6..9) holds; at x = 5 or y = 10 fails; no map, no verdict', () => {
    const at = (x: number, y: number) => Array.from({ length: 256 }, (_, i) => (i === y * 16 + x ? 2 : 1));
    expect(centreBusiestHolds(at(6, 9))).toBe(true);
    expect(centreBusiestHolds(at(9, 6))).toBe(true);
    expect(centreBusiestHolds(at(5, 8))).toBe(false);
    expect(centreBusiestHolds(at(8, 10))).toBe(false);
    expect(centreBusiestHolds([])).toBeNull();
  });
  it('Fig. 5.7 rotated: edge rows below 5% and edge columns above 80% hold; either just past its bound fails', () => {
    expect(rotatedHolds(lines(3.99), lines(64.1))).toBe(true);
    expect(rotatedHolds(lines(4.01), lines(64.1))).toBe(false);
    expect(rotatedHolds(lines(3.99), lines(64))).toBe(false);
  });
  it('Fig. 5.8 sensitive: the limit-16 edge share more than twice the limit-128 one holds; exactly twice fails', () => {
    expect(sensitiveHolds(0.2001, 0.1)).toBe(true);
    expect(sensitiveHolds(0.2, 0.1)).toBe(false);
  });
});

describe('c104-starvation --quick (16×16, the seed\'s size; 3 ms from an empty network)', () => {
  it('Figs 5.6, 5.7, 5.8 hold; Fig. 5.9 (noackpri cures) does not, as at full length (docs/thesis-model.md#fig-59)', async () => {
    const { d, res } = await runExperimentIn('c104-starvation', ['--quick', '--jobs', '1'], dirs);
    checkStructure(res, 'c104-starvation');
    checkPlots(d, res);
    for (const id of ['f5.6-starved-columns', 'f5.6-dead-zone', 'f5.6-uniform-low-load', 'f5.6-centre-routing', 'f5.6-ack-queues', 'f5.7-rotated', 'f5.8-sensitive', 'f5.8-returns']) expect(check(res, id).holds, `${id}: ${check(res, id).measured}`).toBe(true);
    expect(check(res, 'f5.9-cured').holds).toBe(false);
  }, 300_000);
});

describe('policy ordering rules', () => {
  const base = { fifo: 100, random: 101, 'net-first': 100.4, 'oldest-first': 110, 'hops-first': 109.6 };
  it('holds on a seed-shaped ordering; each rule fails when one rate moves just past its bound', () => {
    expect(policyOrdering(base)).toEqual({ topTwoBest: true, beatFifo: true, netFirstNotAbove: true });
    expect(policyOrdering({ ...base, random: 100 }).beatFifo).toBe(false);
    expect(policyOrdering({ ...base, 'net-first': 100.6 }).netFirstNotAbove).toBe(false);
    expect(policyOrdering({ ...base, 'hops-first': 109.4 }).topTwoBest).toBe(false);
  });
  it('ack priority helps every policy: every gain above 0 holds; one gain of 0 fails', () => {
    expect(ackHelpsHolds([0.044, 0.0001, 0.006])).toBe(true);
    expect(ackHelpsHolds([0.044, 0, 0.006])).toBe(false);
  });
});

describe('c104-policies --quick (8×8 mesh, 64 processors: one of Fig. 4.11\'s sizes)', () => {
  let r: ExperimentResult;
  it('runs', async () => {
    const d = tempDir('c104-policies');
    dirs.push(d);
    const run = await icemuExperiment(['c104-policies', '--quick', '--out', d, '--jobs', '1', '--quiet']);
    expect(run.code, run.err).toBe(0);
    r = readResult(d, 'c104-policies');
    checkStructure(r, 'c104-policies');
    checkPlots(d, r);
    expect(r.points).toHaveLength(10);
  });
  it('holds: C104 ack priority improves every policy; hops-first and oldest-first are best', () => {
    expect(check(r, 'f4.11-ack-helps').holds, check(r, 'f4.11-ack-helps').measured).toBe(true);
    expect(check(r, 'f4.11-top-two').holds, check(r, 'f4.11-top-two').measured).toBe(true);
  });
  it('does not hold (measured, 8×8): random does not beat FIFO and net-first does', () => {
    expect(check(r, 'f4.11-beat-fifo').holds).toBe(false);
    expect(check(r, 'f4.11-net-first').holds).toBe(false);
  });
});

describe('c104-buffers', () => {
  it('step rule: flat within whole-packet bands and a step up from one packet to two; negative controls', () => {
    const steps = new Map([[34, 100], [50, 100.5], [67, 100.9], [68, 110], [101, 110.2]]);
    expect(stepRule(steps)).toMatchObject({ flat: true, rises: true });
    expect(stepRule(new Map([...steps, [50, 101.1]])).flat).toBe(false);
    expect(stepRule(new Map([...steps, [68, 102.8], [101, 102.9]])).rises).toBe(false);
  });
  it('width rules: no width above 4 gains 1% (0.99% holds, 1% fails); width 1 below 90% of width 4 (89.9% holds, 90% fails)', () => {
    expect(noGainBeyond4([0.0099, -0.002])).toBe(true);
    expect(noGainBeyond4([0.01, -0.002])).toBe(false);
    expect(width1Worse(0.899)).toBe(true);
    expect(width1Worse(0.9)).toBe(false);
    expect([noGainBeyond4([]), width1Worse(null)]).toEqual([null, null]);
  });
  it('--quick on the 8×8 mesh: width 1 markedly worse and no gain beyond width 4 hold; the steps do not (acks use the space left over)', async () => {
    const { res: r } = await runExperimentIn('c104-buffers', ['--quick', '--jobs', '1'], dirs);
    checkStructure(r, 'c104-buffers');
    expect(check(r, 'f4.7-width-1').holds).toBe(true);
    expect(check(r, 'f4.5-width-4').holds).toBe(true);
    expect(check(r, 'f4.7-steps').holds).toBe(false);
  });
});

describe.skipIf(!process.env.ICEMU_FULL)('full runs (ICEMU_FULL=1)', () => {
  it('c104-starvation at 16×16: Figs 5.6, 5.7, 5.8 hold; Fig. 5.9 (noackpri cures) does not', async () => {
    const d = tempDir('c104-starvation');
    dirs.push(d);
    const run = await icemuExperiment(['c104-starvation', '--out', d, '--quiet']);
    expect(run.code, run.err).toBe(0);
    const res = readResult(d, 'c104-starvation');
    for (const id of ['f5.6-starved-columns', 'f5.6-dead-zone', 'f5.6-uniform-low-load', 'f5.6-centre-routing', 'f5.6-ack-queues', 'f5.7-rotated', 'f5.8-sensitive', 'f5.8-returns']) expect(check(res, id).holds, id).toBe(true);
    expect(check(res, 'f5.9-cured').holds).toBe(false);
  }, 3_600_000);
  it('c104-buffers (18 points, 8×8): width 1 markedly worse and no gain beyond width 4 hold; the whole-packet steps do not (docs/thesis-model.md#figs-45-47)', async () => {
    const { res } = await runExperimentIn('c104-buffers', ['--jobs', '1'], dirs);
    expect(res.points).toHaveLength(18);
    expect(['f4.7-width-1', 'f4.5-width-4', 'f4.7-steps'].map((id) => check(res, id).holds)).toEqual([true, true, false]);
    expect(check(res, 'f4.7-width-1').measured).toMatch(/width 1 at 62\.6% of width 4/);
  }, 3_600_000);
  it('c104-policies (8², 16², 24², 30 points): ack priority helps every policy; the three ordering statements do not hold (docs/thesis-model.md#fig-411)', async () => {
    const { res } = await runExperimentIn('c104-policies', ['--jobs', '1'], dirs);
    expect(res.points).toHaveLength(30);
    expect(['f4.11-ack-helps', 'f4.11-top-two', 'f4.11-beat-fifo', 'f4.11-net-first'].map((id) => check(res, id).holds)).toEqual([true, false, false, false]);
  }, 3_600_000);
});
