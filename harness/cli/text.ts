/** Small text helpers for command output. */

/** `1 message`, `3 messages`, `0 messages`. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? word : many}`;
}

/** `ids 4..6`, `id 4`, or `no ids` for a run of `count` ids from `first`. */
export function idRange(first: number, count: number): string {
  if (count <= 0) return 'no ids';
  return count === 1 ? `id ${first}` : `ids ${first}..${first + count - 1}`;
}

/**
 * One row of a run's results table: the label padded to `width`, the value in
 * cycles (one decimal, `n/a` when there is none), an optional second unit
 * column (`second(v)`, already padded), then a note.
 */
export function quantityRow(width: number, label: string, cycles: number, note = '', second?: (v: number) => string): string {
  const ok = Number.isFinite(cycles);
  return `  ${label.padEnd(width)}${ok ? cycles.toFixed(1).padStart(10) : '       n/a'}${ok && second ? second(cycles) : ''}  ${note}`;
}
