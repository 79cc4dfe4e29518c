/**
 * Which of a C104's 32 link slices are elaborated (option `slices`,
 * docs/c104.md#compact-slices):
 *  - 'all' (default): every slice; links the table does not mark connected
 *    are tied off (nothing arrives, nothing may leave), as the chip has them.
 *  - 'connected': only the connected links' slices; the crossbar and the
 *    policy selector get one input and one output per connected link, in
 *    link order. A named simplification of the elaboration, not of the
 *    behaviour: a tied-off slice never requests, is never requested (the
 *    tables name only connected links, topology.ts) and never moves, so every
 *    observable of a connected link is the same (test/c104/slices.test.ts).
 * Crossbar indices keep link order, so every rule that orders by index (the
 * FIFO tie rule, the crossbar's resolution chain, the selector's ties) orders
 * the same inputs and outputs the same way; what computes with an index
 * (the random policy's hash, random headers, header deletion per output, the
 * side band) uses the link through `linkOf`.
 */
import { C104ConfigError, C104_LINKS } from './interval_table.ts';

export const C104_SLICES = ['all', 'connected'] as const;
export type C104Slices = (typeof C104_SLICES)[number];

/**
 * Faults for the negative controls of test/c104/slices.test.ts only (read
 * when a switch is built with slices 'connected'): `swapOutputs` joins the
 * first two connected links' output stages to each other's crossbar outputs;
 * `hashByIndex` makes the random policy hash with the crossbar index instead
 * of the link. Both false in every other use.
 */
export const SLICES_FAULT = { swapOutputs: false, hashByIndex: false };

export interface SliceMap {
  /** Crossbar index -> link, ascending. */
  linkOf: readonly number[];
  /** Link -> crossbar index, or -1 for a slice not elaborated. */
  xOf: Int8Array;
}

/** The slices to elaborate; with none connected, 'connected' keeps link 0 (tied off): a crossbar has at least one port. */
export function sliceMap(connected: readonly boolean[], slices: C104Slices): SliceMap {
  if (!(C104_SLICES as readonly string[]).includes(slices)) throw new C104ConfigError(`c104.slices: '${String(slices)}' is not one of ${C104_SLICES.join(', ')}`);
  const linkOf: number[] = [];
  for (let k = 0; k < C104_LINKS; k++) if (slices === 'all' || connected[k]) linkOf.push(k);
  if (linkOf.length === 0) linkOf.push(0);
  const xOf = new Int8Array(C104_LINKS).fill(-1);
  linkOf.forEach((k, x) => (xOf[k] = x));
  return { linkOf, xOf };
}

/** A mask of links as a mask of crossbar indices (links not elaborated dropped). */
export function maskToCrossbar(mask: number, xOf: Int8Array): number {
  let m = 0;
  for (let k = 0; k < C104_LINKS; k++) if ((mask >>> k) & 1 && xOf[k]! >= 0) m |= 1 << xOf[k]!;
  return m >>> 0;
}

/** A mask of crossbar indices as a mask of links. */
export function maskToLinks(mask: number, linkOf: readonly number[]): number {
  let m = 0;
  for (let x = 0; x < linkOf.length; x++) if ((mask >>> x) & 1) m |= 1 << linkOf[x]!;
  return m >>> 0;
}
