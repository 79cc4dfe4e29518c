/**
 * Heap for big cubes (harness/cli/heap.ts): the CLI runs itself again with a
 * bigger heap only for 9- and 10-cubes, and only when the limit is too small.
 * (The 10-cube run itself takes minutes; it is in docs/speed.md,
 * not in the tests.)
 */
import v8 from 'node:v8';
import { afterEach, describe, expect, it } from 'vitest';
import { c104HeapNeededMb, heapNeededForArgs, heapNeededMb, rerunWithHeap } from '../../harness/cli/heap.ts';

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
  it('asks for more heap for C104 meshes beyond 16×16 (a 32×32 mesh peaked at 9.5 GB), none up to 16×16', () => {
    expect(c104HeapNeededMb(256)).toBe(0);
    expect(c104HeapNeededMb(257)).toBeGreaterThan(0);
    expect(c104HeapNeededMb(1024)).toBeGreaterThan(9_500);
    expect(heapNeededForArgs(['c104', 'mesh', '--width', '16', '--height', '16'])).toBe(0);
    expect(heapNeededForArgs(['c104', 'mesh', '--width', '32', '--height', '32', '--pattern', 'thesis'])).toBe(c104HeapNeededMb(1024));
    expect(heapNeededForArgs(['c104', 'mesh', '--width=32', '--height=17'])).toBe(c104HeapNeededMb(544));
    expect(heapNeededForArgs(['c104', 'mesh', '--width', '32'])).toBe(c104HeapNeededMb(96));
    expect(heapNeededForArgs(['buzzard', '--n', '10'])).toBe(heapNeededMb(10));
    process.env.ICEMU_HEAP_RERUN = '1';
    expect(rerunWithHeap(['c104', 'mesh', '--width', '32', '--height', '32'])).toBeUndefined();
  });
});
