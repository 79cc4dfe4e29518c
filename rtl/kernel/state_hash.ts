/**
 * The simulator's state hash (Simulator.stateHash): a 64-bit hash, as 16 hex
 * digits, of the cycle, every current value, every memory word and every
 * state provider's hash, in that order. Equal states give equal hashes; a
 * pure function of what it is given, so the fast and reference modes hash
 * alike (docs/kernel.md#fast-and-reference-mode).
 */

/** Hash `cycle`, then `values[0..count)`, then each memory's words `data[0..depth)`, then each provider's `hash()` (those that have one, called in order). */
export function stateHash(
  cycle: number,
  values: ArrayLike<number>,
  count: number,
  memories: readonly { readonly depth: number; readonly data: ArrayLike<number> }[],
  providers: readonly { hash?(): number }[],
): string {
  let h1 = 0x811c9dc5 ^ cycle;
  let h2 = 0x01000193 ^ Math.floor(cycle / 0x100000000);
  const mix = (v: number): void => {
    const lo = v >>> 0;
    const hi = Math.floor(v / 0x100000000) >>> 0;
    h1 = Math.imul(h1 ^ lo, 0x01000193);
    h1 = Math.imul(h1 ^ hi, 0x01000193);
    h2 = Math.imul(h2 ^ lo, 0x5bd1e995);
    h2 ^= h2 >>> 15;
    h2 = Math.imul(h2 ^ hi, 0x5bd1e995);
  };
  for (let k = 0; k < count; k++) mix(values[k]!);
  for (const m of memories) for (let a = 0; a < m.depth; a++) mix(m.data[a]!);
  for (const p of providers) if (p.hash) mix(p.hash() >>> 0);
  return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
}
