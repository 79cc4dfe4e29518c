/**
 * Test helper: counts the runs of one seq process of a simulator from now on,
 * by wrapping its entry in the simulator's function table (a test may look
 * inside; the wrapper calls the same function).
 */
import { expect } from 'vitest';
import type { Simulator } from '../../rtl/kernel/index.ts';

export function countRuns(sim: Simulator, proc: { fn: () => void }): () => number {
  const inner = sim as unknown as { net: { seq: { fn: () => void }[] }; seqFns: (() => void)[] };
  const p = inner.net.seq.findIndex((d) => d === proc);
  expect(p).toBeGreaterThanOrEqual(0);
  let n = 0;
  const fn = inner.seqFns[p]!;
  inner.seqFns[p] = () => {
    n++;
    fn();
  };
  return () => n;
}
