/**
 * Errors raised by the kernel. Each carries a `kind` so tests and the CLI can
 * tell them apart, and a one-line message that names the culprit.
 */
export type ElaborationErrorKind =
  | 'comb-loop'
  | 'multiple-drivers'
  | 'undriven-input'
  | 'width-mismatch'
  | 'duplicate-name'
  | 'bad-name'
  | 'bad-width'
  | 'bad-process'
  | 'already-elaborated';

export class ElaborationError extends Error {
  constructor(readonly kind: ElaborationErrorKind, message: string) {
    super(message);
    this.name = 'ElaborationError';
  }
}

export type SimErrorKind = 'value-too-wide' | 'unit-assertion' | 'bad-poke' | 'unknown-name' | 'bad-argument';

/** A run-time error: an illegal value, a unit's protocol assertion, a bad poke. */
export class SimError extends Error {
  constructor(readonly kind: SimErrorKind, message: string, readonly cycle?: number) {
    super(cycle === undefined ? message : `cycle ${cycle}: ${message}`);
    this.name = 'SimError';
  }
}
