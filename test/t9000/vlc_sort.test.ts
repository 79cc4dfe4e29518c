/**
 * vlc.visited()'s allocation-free sort (rtl/t9000/vlc.ts sortInPlace;
 * docs/kernel.md "Stop 21: allocation and layout") orders the first n
 * entries as Array.prototype.sort does, on both of its branches (insertion
 * sort up to 24, heapsort beyond), and leaves the entries past n alone.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sortInPlace } from '../../rtl/t9000/vlc_sort.ts';

describe('sortInPlace', () => {
  it('sorts a[0..n) ascending like Array.prototype.sort and leaves the rest', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 4094 }), { maxLength: 120 }), fc.array(fc.integer(), { maxLength: 3 }), (vls, tail) => {
        const a = [...vls, ...tail];
        sortInPlace(a, vls.length);
        expect(a).toEqual([...[...vls].sort((x, y) => x - y), ...tail]);
      }),
      { numRuns: 400 },
    );
  });

  it('control: a sort that stops one pass short fails the same check on some list', () => {
    const shortSort = (a: number[], n: number): void => sortInPlace(a, n - 1);
    const fails = fc.check(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 4094 }), { minLength: 2, maxLength: 60 }), (vls) => {
        const a = [...vls];
        shortSort(a, a.length);
        expect(a).toEqual([...vls].sort((x, y) => x - y));
      }),
    );
    expect(fails.failed).toBe(true);
  });
});
