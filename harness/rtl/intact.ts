/**
 * The byte-exact "intact" check of a delivered message, shared by the
 * experiments and comparisons that report one: the bytes a receiver got
 * (a T9000Recorder delivery, a Buzzard posted receive) against the bytes
 * that were sent.
 */

/** True when `got` holds exactly `sent`: same length, every byte equal; false when nothing was sent (`sent` undefined). */
export function intactBytes(got: ArrayLike<number>, sent: ArrayLike<number> | undefined): boolean {
  if (sent === undefined || got.length !== sent.length) return false;
  for (let j = 0; j < got.length; j++) if (got[j] !== sent[j]) return false;
  return true;
}
