/**
 * Verdict rules of the seed 004 reproductions (issue 11 targets;
 * docs/thesis-model.md#verdicts). Each returns a SeedCheck whose `rule`
 * states the bound, so the JSON says how every verdict was reached.
 *
 * A measurement that is past saturation (sends dropped at the outstanding
 * limit) or did not converge is "not comparable": `holds` is null and the
 * deviation is still printed.
 */
import type { SeedCheck } from './types.ts';

export interface Condition {
  /** The run met the ±1% stopping rule (§5.4). */
  readonly converged: boolean;
  /** Share of sends dropped as saturation failures (§5.3.2); > 0 means past saturation. */
  readonly dropped: number;
}

const OK: Condition = { converged: true, dropped: 0 };

function comparable(cond: Condition): string | null {
  if (cond.dropped > 0) return `not comparable: past saturation (${(100 * cond.dropped).toFixed(1)}% of sends dropped)`;
  if (!cond.converged) return 'not comparable: the run did not converge to ±1% before the cap';
  return null;
}

/** Relative rule: |measured / seed − 1| ≤ tol. */
export function relativeCheck(id: string, statement: string, seed: number, measured: number | null, tol: number, cond: Condition = OK, digits = 1): SeedCheck {
  const dev = measured === null ? null : measured / seed - 1;
  const why = comparable(cond);
  return {
    id,
    statement,
    seed: seed.toFixed(digits),
    measured: measured === null ? 'n/a' : `${measured.toFixed(digits)} (${dev! >= 0 ? '+' : ''}${(100 * dev!).toFixed(1)}%)${why ? `; ${why}` : ''}`,
    rule: `holds if within ±${(100 * tol).toFixed(0)}% of the seed's value`,
    holds: why || dev === null ? null : Math.abs(dev) <= tol + 1e-12,
  };
}

/** Absolute rule in the value's own unit (percentage points, hops): |measured − seed| ≤ tol. */
export function absoluteCheck(id: string, statement: string, seed: number, measured: number | null, tol: number, unit: string, cond: Condition = OK, digits = 1): SeedCheck {
  const why = comparable(cond);
  const dev = measured === null ? null : measured - seed;
  return {
    id,
    statement,
    seed: `${seed.toFixed(digits)}${unit}`,
    measured: measured === null ? 'n/a' : `${measured.toFixed(digits)}${unit} (${dev! >= 0 ? '+' : ''}${dev!.toFixed(digits + 1)})${why ? `; ${why}` : ''}`,
    rule: `holds if within ±${tol}${unit} of the seed's value`,
    holds: why || dev === null ? null : Math.abs(dev) <= tol + 1e-12,
  };
}

/** Range rule: lo ≤ measured ≤ hi. */
export function rangeCheck(id: string, statement: string, lo: number, hi: number, measured: number | null, unit: string, cond: Condition = OK, digits = 1): SeedCheck {
  const why = comparable(cond);
  return {
    id,
    statement,
    seed: `${lo}–${hi}${unit}`,
    measured: measured === null ? 'n/a' : `${measured.toFixed(digits)}${unit}${why ? `; ${why}` : ''}`,
    rule: `holds if within ${lo}–${hi}${unit}`,
    holds: why || measured === null ? null : measured >= lo - 1e-12 && measured <= hi + 1e-12,
  };
}

/** A qualitative statement decided by a predicate over measured numbers. */
export function predicateCheck(id: string, statement: string, seed: string, measured: string, rule: string, holds: boolean | null): SeedCheck {
  return { id, statement, seed, measured, rule, holds };
}
