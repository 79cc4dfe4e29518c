/**
 * The n-cube as architects draw it: a square per two dimensions, the third
 * as the receding copy (the familiar 3-cube), and each further dimension a
 * copy of the whole drawing beside or below (a 4-cube is two 3-cubes side by
 * side, a 6-cube a 2x2 block of 4-cubes... laid out as 4 by 1). Cubes of
 * degree above 6 are projected: the 6-subcube `sub` (node bits 6.. equal to
 * sub) is drawn with its links in dimensions 1..6.
 *
 * Each directed link x → x^2^(d-1) is a quadratic curve, bowed to its right
 * so the two directions of a pair are both visible; links of dimensions 4..6
 * bow further so they do not run through other nodes.
 */
const DIM: [number, number][] = [
  [1, 0],
  [0, 1],
  [0.45, -0.38],
  [2.0, 0.25],
  [0, 2.2],
  [4.1, 0],
];
export const SCALE = 120;

export interface Pt {
  x: number;
  y: number;
}

export interface Layout {
  /** Nodes drawn (all of them for n ≤ 6). */
  nodes: number[];
  pos: Map<number, Pt>;
  /** Visible links: id → [from, control, to]. */
  links: Map<number, [Pt, Pt, Pt]>;
  width: number;
  height: number;
}

export function layout(n: number, sub = 0): Layout {
  const d = Math.min(n, 6);
  const nodes: number[] = [];
  for (let x = 0; x < 1 << d; x++) nodes.push(x + (sub << 6));
  const raw = new Map<number, Pt>();
  for (const x of nodes) {
    let px = 0;
    let py = 0;
    for (let b = 0; b < d; b++) if (x & (1 << b)) {
      px += DIM[b]![0];
      py += DIM[b]![1];
    }
    raw.set(x, { x: px, y: py });
  }
  const xs = [...raw.values()].map((p) => p.x);
  const ys = [...raw.values()].map((p) => p.y);
  const x0 = Math.min(...xs);
  const y0 = Math.min(...ys);
  const pad = 40;
  const pos = new Map<number, Pt>();
  for (const [k, p] of raw) pos.set(k, { x: pad + (p.x - x0) * SCALE, y: pad + (p.y - y0) * SCALE });
  const links = new Map<number, [Pt, Pt, Pt]>();
  for (const x of nodes) {
    for (let p = 1; p <= d; p++) {
      const y = x ^ (1 << (p - 1));
      const a = pos.get(x)!;
      const b = pos.get(y)!;
      const dx = b.x - a.x;
      const dy = b.y - a.y;
      const len = Math.hypot(dx, dy) || 1;
      // right-hand normal of the travel direction, plus a common bow for long links
      const nx = -dy / len;
      const ny = dx / len;
      const sign = x < y ? 1 : -1;
      const bow = p >= 4 ? 0.12 * len * sign : 0;
      const off = 7 + bow;
      const c = { x: (a.x + b.x) / 2 + nx * off * 1, y: (a.y + b.y) / 2 + ny * off };
      // start and end nudged to the same side so the pair does not overlap at the nodes
      links.set(x * n + p - 1, [
        { x: a.x + nx * 3, y: a.y + ny * 3 },
        c,
        { x: b.x + nx * 3, y: b.y + ny * 3 },
      ]);
    }
  }
  return {
    nodes,
    pos,
    links,
    width: Math.max(...[...pos.values()].map((q) => q.x)) + pad,
    height: Math.max(...[...pos.values()].map((q) => q.y)) + pad,
  };
}

/** Point at fraction f along a quadratic link curve. */
export function along(l: [Pt, Pt, Pt], f: number): Pt {
  const [a, c, b] = l;
  const u = 1 - f;
  return { x: u * u * a.x + 2 * u * f * c.x + f * f * b.x, y: u * u * a.y + 2 * u * f * c.y + f * f * b.y };
}

/** SVG path of a link curve. */
export function pathD(l: [Pt, Pt, Pt]): string {
  const [a, c, b] = l;
  return `M${a.x.toFixed(1)},${a.y.toFixed(1)} Q${c.x.toFixed(1)},${c.y.toFixed(1)} ${b.x.toFixed(1)},${b.y.toFixed(1)}`;
}

/** Occupancy 0..1 → colour (grey when idle, then blue → green → yellow → red). */
const STOPS: [number, number, number][] = [
  [208, 212, 218],
  [70, 130, 200],
  [60, 170, 90],
  [235, 200, 40],
  [215, 50, 40],
];
export function occColour(v: number): string {
  if (!(v > 0)) return 'rgb(208,212,218)';
  const x = Math.min(1, v) * (STOPS.length - 1);
  const k = Math.min(STOPS.length - 2, Math.floor(x));
  const f = x - k;
  const c = STOPS[k]!.map((s, i) => Math.round(s + (STOPS[k + 1]![i]! - s) * f));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}
