/**
 * Time slicing of the T9000 run queue (config timeSliceNs; seed 004
 * §3.5.3 / §4.1.3, docs/thesis-model.md#time-slicing): off by default;
 * a quantum no compute period reaches changes nothing; a short quantum
 * lets a short process run past a long one; Fig. 4.1's fairness (k
 * compute loops keep the CPU at 100%, equal shares) holds with slicing.
 * Per-process shares: test/experiments/c104-cpu-fairness.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { resolveC104Config, runC104 } from '../../harness/tlm/t9000-c104/index.ts';
import { ComputeLoops } from '../../harness/workloads/compute-loops.ts';
import { SyntheticProgram, standardSetup } from '../../harness/workloads/thesis-synthetic.ts';

const loops = (computeNs: number[], timeSliceNs: number) => runC104(new ComputeLoops(computeNs, true), { side: 2, timeSliceNs }, { fixedNs: 1_000_000, truncate: false }).summary;

describe('time slicing', () => {
  it('is off by default and validated', () => {
    expect(resolveC104Config().timeSliceNs).toBe(0);
    expect(() => resolveC104Config({ timeSliceNs: -1 })).toThrow(/timeSliceNs/);
  });
  it('a quantum longer than every compute period gives the identical run (loosely, 6×6, c = 4 µs)', () => {
    const run = (timeSliceNs: number) => runC104(new SyntheticProgram({ ...standardSetup(4, 'loosely'), D: 6, d: 3 }), { side: 6, timeSliceNs }, { fixedNs: 500_000, truncate: false }).summary;
    expect(run(4001)).toEqual(run(0));
  });
  it('a 10 µs and a 1 µs loop on one CPU: FIFO alternates (2 iterations per 11 µs); a 1 µs quantum round-robins (11 per 20 µs)', () => {
    // ±3 iterations: a 1 ms run counts whole iterations only
    const near = (x: number, y: number) => expect(Math.abs(x - y)).toBeLessThanOrEqual(3);
    near(loops([10_000, 1_000], 0).iterationsPerCpuPerMs, 2000 / 11);
    near(loops([10_000, 1_000], 1_000).iterationsPerCpuPerMs, 11_000 / 20);
    // negative control: a quantum of 10 µs never expires for either loop, so nothing changes
    near(loops([10_000, 1_000], 10_000).iterationsPerCpuPerMs, 2000 / 11);
  });
  it('Fig. 4.1 with slicing: k compute(1000 ns) loops keep the CPU at 100% for every k (quantum 300 ns)', () => {
    for (const k of [1, 2, 3, 5]) {
      const s = loops(Array(k).fill(1000), 300);
      // CPU time is counted at the end of each slice: the slice running at the end of the run is missing (≤ 300 ns of 1 ms)
      expect(s.cpuUtilisation).toBeGreaterThanOrEqual(0.9995);
      expect(Math.abs(s.iterationsPerCpuPerMs - 1000)).toBeLessThanOrEqual(k);
    }
  });
});
