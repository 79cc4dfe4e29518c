/**
 * Shared helpers for the generic units' configuration: one error style
 * (`unit.field: value is outside lo..hi`) and register sizing.
 */

/** Bits needed to hold every value 0..max (at least 1). */
export function bitsToHold(max: number): number {
  return max <= 1 ? 1 : 32 - Math.clz32(max);
}

/** Validate a whole-number config field; the message names the unit, the field and the range. */
export function checkInt(unit: string, field: string, v: unknown, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
    throw new RangeError(`${unit}.${field}: ${String(v)} is outside ${lo}..${hi}`);
  }
  return v;
}
