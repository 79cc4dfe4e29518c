/**
 * Geometry and routing of the thesis's D×D mesh of T9000 + C104 nodes
 * (seed 004 §3.2, §4.2.1, §5.4.4.1, §2.2.2; docs/thesis-model.md#routing).
 * Pure functions; the TLM's own code (the TLM never calls RTL routing
 * helpers, ARCHITECTURE.md).
 *
 * Node index = y·D + x. Directions: 0 = +x (east), 1 = −x (west), 2 = +y
 * (north), 3 = −y (south). One link per direction between neighbouring
 * C104s (§6.2); two-phase routing uses a second, separate plane of internal
 * links for phase 2 (§2.2.2: "reserving separate physical communication
 * channels for the first and second phases").
 */

export const EAST = 0;
export const WEST = 1;
export const NORTH = 2;
export const SOUTH = 3;

export function nodeX(node: number, side: number): number {
  return node % side;
}

export function nodeY(node: number, side: number): number {
  return (node / side) | 0;
}

/** The neighbour of `node` in direction `dir`, or −1 at the mesh edge. */
export function neighbour(node: number, dir: number, side: number): number {
  const x = node % side;
  const y = (node / side) | 0;
  switch (dir) {
    case EAST:
      return x + 1 < side ? node + 1 : -1;
    case WEST:
      return x > 0 ? node - 1 : -1;
    case NORTH:
      return y + 1 < side ? node + side : -1;
    default:
      return y > 0 ? node - side : -1;
  }
}

/**
 * Dimension-order next direction from `node` towards `target` (a different
 * node): x first (`xFirst`, the thesis default "x before y", Ch. 5; "first by
 * column and then by row", Ch. 4) or y first (Fig. 5.7).
 */
export function dorDirection(node: number, target: number, side: number, xFirst: boolean): number {
  const x = node % side;
  const y = (node / side) | 0;
  const tx = target % side;
  const ty = (target / side) | 0;
  if (xFirst) {
    if (tx !== x) return tx > x ? EAST : WEST;
    return ty > y ? NORTH : SOUTH;
  }
  if (ty !== y) return ty > y ? NORTH : SOUTH;
  return tx > x ? EAST : WEST;
}

/** Manhattan distance (internal C104→C104 hops under dimension-order routing). */
export function manhattan(a: number, b: number, side: number): number {
  return Math.abs((a % side) - (b % side)) + Math.abs(((a / side) | 0) - ((b / side) | 0));
}

/**
 * DS-links a packet crosses from source T9000 to destination T9000:
 * injection + internal + delivery (docs/thesis-model.md#hops, spec §14 item 2).
 * Two-phase: via the intermediate node's C104 (no delivery there).
 */
export function pathLinks(src: number, dst: number, side: number, intermediate = -1): number {
  if (intermediate < 0) return manhattan(src, dst, side) + 2;
  return manhattan(src, intermediate, side) + manhattan(intermediate, dst, side) + 2;
}
