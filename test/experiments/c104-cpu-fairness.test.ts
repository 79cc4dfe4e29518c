/**
 * c104-cpu-fairness (seed 004 Fig. 4.1, §4.1.3): the rules with controls
 * just outside them, the contrast that shows the measurement sees unequal
 * shares (a short and a long loop: FIFO fails the CPU-share rule, time
 * slicing the iteration rule), and the full run (every period and k; under
 * a second) with every statement holding.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { equalShares, FULL_LOAD, fullLoad, MIXED, QUANTUM_NS, schedulingUnit, shares, totalWorkConstant } from '../../harness/experiments/c104-cpu-fairness.ts';
import { runC104 } from '../../harness/tlm/t9000-c104/index.ts';
import { ComputeLoops } from '../../harness/workloads/compute-loops.ts';
import { check, checkPlots, checkStructure, removeDir, runExperimentIn } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
const WINDOW = 10_000_000;

describe('Fig. 4.1 rules and their controls', () => {
  it('equal shares: iterations 1 apart and CPU one scheduling unit apart hold; 2 iterations or unit + 1 ns fail', () => {
    const unit = schedulingUnit(10_000, QUANTUM_NS);
    expect(unit).toBe(QUANTUM_NS);
    expect(schedulingUnit(100, QUANTUM_NS)).toBe(100);
    expect(schedulingUnit(1000, 0)).toBe(1000);
    expect(equalShares({ iterationSpread: 1, cpuSpreadNs: unit }, unit)).toBe(true);
    expect(equalShares({ iterationSpread: 2, cpuSpreadNs: 0 }, unit)).toBe(false);
    expect(equalShares({ iterationSpread: 0, cpuSpreadNs: unit + 1 }, unit)).toBe(false);
  });
  it('full load: idle 1 ns per ms holds, 2 ns per ms fails', () => {
    const total = (idleNs: number) => shares({ cpuNs: [WINDOW / 2, WINDOW / 2 - idleNs], iterations: [1, 1] }, WINDOW).total;
    expect(fullLoad(total(10))).toBe(true);
    expect(fullLoad(total(20))).toBe(false);
    expect(FULL_LOAD).toBe(1 - 1e-6);
  });
  it('total work: the window\'s iterations less at most k in progress hold; one more missing, or one too many, fails', () => {
    // 10 ms of 1000 ns iterations: 10,000; 3 loops may each have one in progress
    expect(totalWorkConstant(10_000, 3, 1000, WINDOW)).toBe(true);
    expect(totalWorkConstant(9_997, 3, 1000, WINDOW)).toBe(true);
    expect(totalWorkConstant(9_996, 3, 1000, WINDOW)).toBe(false);
    expect(totalWorkConstant(10_001, 3, 1000, WINDOW)).toBe(false);
  });
});

describe('per-process shares: the measurement sees unequal shares where there are some', () => {
  const run = (quantum: number) => {
    const r = runC104(new ComputeLoops(MIXED), { side: 2, timeSliceNs: quantum }, { fixedNs: WINDOW, truncate: false }).processWork;
    return { r, s: shares(r, WINDOW) };
  };
  it(`a ${MIXED[0]} ns and a ${MIXED[1]} ns loop without time slicing: equal iterations, CPU 1:10 (the CPU-share rule fails)`, () => {
    const { r, s } = run(0);
    expect(s.total).toBeGreaterThanOrEqual(FULL_LOAD);
    expect(s.iterationSpread).toBeLessThanOrEqual(1);
    expect(r.cpuNs[1]! / r.cpuNs[0]!).toBeCloseTo(10, 1);
    expect(equalShares(s, schedulingUnit(MIXED[0]!, 0))).toBe(false);
  });
  it(`with a ${QUANTUM_NS} ns quantum: equal CPU, iterations 10:1 (the iteration rule fails)`, () => {
    const { r, s } = run(QUANTUM_NS);
    expect(s.cpuSpreadNs).toBeLessThanOrEqual(QUANTUM_NS);
    expect(r.iterations[0]! / r.iterations[1]!).toBeCloseTo(10, 1);
    expect(equalShares(s, QUANTUM_NS)).toBe(false);
  });
  it('per-process work adds up to the run\'s CPU time (4 CPUs, 2 loops each)', () => {
    const r = runC104(new ComputeLoops([300, 700], true), { side: 2, timeSliceNs: 200 }, { fixedNs: 1_000_000, truncate: false });
    expect(r.processWork.cpuNs).toHaveLength(8);
    expect(r.processWork.cpuNs.reduce((a, x) => a + x, 0)).toBe(4_000_000);
  });
});

describe('c104-cpu-fairness, full run (k = 1..16, periods 100..10000 ns, with and without slicing)', () => {
  it('every Fig. 4.1 statement holds; JSON and plot written', async () => {
    const { d, res } = await runExperimentIn('c104-cpu-fairness', ['--jobs', '1'], dirs);
    checkStructure(res, 'c104-cpu-fairness');
    checkPlots(d, res);
    expect(res.report.checks).toHaveLength(12);
    for (const c of res.report.checks) expect(c.holds, `${c.id}: ${c.measured}`).toBe(true);
    expect(check(res, 'f4.1-equal-p1000-q0').holds).toBe(true);
  }, 120_000);
});
