import { describe, expect, it } from 'vitest';
import { intactBytes } from '../../harness/rtl/intact.ts';

describe('intactBytes (the byte-exact check of a delivered message)', () => {
  it('holds for the same bytes, and fails on one changed byte, a missing or extra byte, or nothing sent', () => {
    const sent = [1, 2, 3, 255];
    expect(intactBytes([1, 2, 3, 255], sent)).toBe(true);
    expect(intactBytes([], [])).toBe(true);
    expect(intactBytes([1, 2, 4, 255], sent)).toBe(false);
    expect(intactBytes([1, 2, 3], sent)).toBe(false);
    expect(intactBytes([1, 2, 3, 255, 0], sent)).toBe(false);
    expect(intactBytes([], undefined)).toBe(false);
  });
});
