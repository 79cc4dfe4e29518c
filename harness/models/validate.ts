/**
 * Input validation shared by the analytic models (harness/models).
 *
 * Every model function checks its parameter object before computing and
 * throws one `RangeError` naming the model, the field and the allowed range,
 * in the project's style (`counter.width: 40 is outside 1..32`):
 *
 *   oliver.s: -1 is outside 0..∞
 *   littlefield.snake.S: 0 is outside 1..∞ (block size in doubles)
 *
 * No I/O, no state.
 */

export interface NumberRule {
  /** Smallest allowed value (inclusive unless `minExclusive`). Default −∞. */
  readonly min?: number;
  /** The minimum itself is not allowed (e.g. bandwidths, periods: > 0). */
  readonly minExclusive?: boolean;
  /** Largest allowed value (inclusive). Default +∞. */
  readonly max?: number;
  /** Must be an integer (counts: hops, packets, channels, cube degree). */
  readonly integer?: boolean;
  /** Short unit or meaning appended to the message, e.g. "ns per byte". */
  readonly what?: string;
}

function fmt(v: number): string {
  if (v === Infinity) return '∞';
  if (v === -Infinity) return '-∞';
  return String(v);
}

function rangeText(rule: NumberRule): string {
  const lo = rule.min ?? -Infinity;
  const hi = rule.max ?? Infinity;
  const left = rule.minExclusive ? `>${fmt(lo)}` : fmt(lo);
  const kind = rule.integer ? ' (integer)' : '';
  const what = rule.what ? ` (${rule.what})` : '';
  return rule.minExclusive && hi === Infinity ? `${left}${kind}${what}` : `${left}..${fmt(hi)}${kind}${what}`;
}

/**
 * Check one numeric field; returns the value so it can be used inline.
 * `scope` is the model name (e.g. "oliver", "textbook.cutThrough").
 */
export function checkNumber(scope: string, field: string, value: unknown, rule: NumberRule = {}): number {
  const where = `${scope}.${field}`;
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw new RangeError(`${where}: ${String(value)} is not a number; allowed ${rangeText(rule)}`);
  }
  const lo = rule.min ?? -Infinity;
  const hi = rule.max ?? Infinity;
  const belowMin = rule.minExclusive ? value <= lo : value < lo;
  if (!Number.isFinite(value) || belowMin || value > hi || (rule.integer === true && !Number.isInteger(value))) {
    throw new RangeError(`${where}: ${fmt(value)} is outside ${rangeText(rule)}`);
  }
  return value;
}

/** value ≥ 0 (sizes, times, counts that may be zero). */
export function nonNegative(scope: string, field: string, value: unknown, what?: string): number {
  return checkNumber(scope, field, value, { min: 0, what });
}

/** value > 0 (bandwidths, per-unit times that divide, packet sizes). */
export function positive(scope: string, field: string, value: unknown, what?: string): number {
  return checkNumber(scope, field, value, { min: 0, minExclusive: true, what });
}

/** Integer in [min, max] (counts). */
export function integerIn(scope: string, field: string, value: unknown, min: number, max = Infinity, what?: string): number {
  return checkNumber(scope, field, value, { min, max, integer: true, what });
}

/** Check that `value` is one of `allowed` (string options). */
export function oneOf<T extends string>(scope: string, field: string, value: unknown, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new RangeError(`${scope}.${field}: '${String(value)}' is not one of ${allowed.map((a) => `'${a}'`).join(', ')}`);
}

/** Check a boolean option. */
export function bool(scope: string, field: string, value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  throw new RangeError(`${scope}.${field}: ${String(value)} is not one of true, false`);
}
