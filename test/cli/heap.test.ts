/**
 * Heap for big cubes (harness/cli/heap.ts): the CLI runs itself again with a
 * bigger heap only for 9- and 10-cubes, and only when the limit is too small.
 * (The 10-cube run itself takes minutes; it is in the README's Speed notes,
 * not in the tests.)
 */
import v8 from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { heapNeededMb, rerunWithHeap } from '../../harness/cli/heap.ts';

describe('CLI heap for big cubes', () => {
  afterEach(() => {
    delete process.env.ICEMU_HEAP_RERUN;
  });
  it('asks for more heap only from degree 9 on, more for 10', () => {
    expect(heapNeededMb(8)).toBe(0);
    expect(heapNeededMb(9)).toBeGreaterThan(v8.getHeapStatistics().heap_size_limit / 2 ** 20 / 2);
    expect(heapNeededMb(10)).toBeGreaterThan(heapNeededMb(9));
  });
  it('goes on in this process for small cubes, commands without --n, and inside the re-run', () => {
    expect(rerunWithHeap(['buzzard', '--n', '6'])).toBeUndefined();
    expect(rerunWithHeap(['buzzard', '--n=8', '--cycles', '1000'])).toBeUndefined();
    expect(rerunWithHeap(['demo'])).toBeUndefined();
    process.env.ICEMU_HEAP_RERUN = '1';
    expect(rerunWithHeap(['buzzard', '--n', '10'])).toBeUndefined();
  });
});
