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
import type { C104Topo } from '../model.ts';

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
  const pad = 40;
  const pos = place(raw, pad);
  const links = new Map<number, [Pt, Pt, Pt]>();
  for (const x of nodes) {
    for (let p = 1; p <= d; p++) {
      const y = x ^ (1 << (p - 1));
      const a = pos.get(x)!;
      const b = pos.get(y)!;
      // bowed to the right of the travel direction, plus a common bow for long links
      const bow = p >= 4 ? 0.12 * (Math.hypot(b.x - a.x, b.y - a.y) || 1) * (x < y ? 1 : -1) : 0;
      links.set(x * n + p - 1, curve(a, b, 7 + bow));
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

/** Where each C104 node is drawn (ids: switches 0..S-1, endpoints S..S+E-1) and its label. */
export interface C104Places {
  pos: Map<number, Pt>;
  names: Map<number, string>;
}

/**
 * A C104 network: a mesh (the header's `grid`) as a grid, row y = 0 at the
 * bottom, each node's T9000 up and to the right of its switch; any other
 * network (pair, chain, PUMA) with its switches on a circle and each
 * endpoint outside its switch. Directed links are curves bowed to their
 * right, parallel links (a hunt group) fanned out side by side.
 */
export function c104Layout(t: C104Topo): Layout & C104Places {
  const S = t.switches.length;
  const raw = new Map<number, Pt>();
  const names = new Map<number, string>();
  t.switches.forEach((name, s) => names.set(s, name));
  t.endpoints.forEach((e, k) => names.set(S + k, e.name));
  if (t.grid && t.places) {
    const G = 1.6;
    t.places.forEach(([x, y], s) => raw.set(s, { x: x * G, y: (t.grid!.h - 1 - y) * G }));
    t.endpoints.forEach((e, k) => {
      const q = raw.get(e.sw)!;
      raw.set(S + k, { x: q.x + 0.6, y: q.y - 0.6 });
    });
  } else {
    const R = Math.max(1, (S * 0.9) / Math.PI);
    t.switches.forEach((_n, s) => raw.set(s, { x: R * Math.cos((2 * Math.PI * s) / S), y: R * Math.sin((2 * Math.PI * s) / S) }));
    const per = new Map<number, number>();
    t.endpoints.forEach((e, k) => {
      const r = per.get(e.sw) ?? 0;
      per.set(e.sw, r + 1);
      const a = (2 * Math.PI * e.sw) / S + (r % 2 ? 1 : -1) * 0.25 * Math.ceil(r / 2);
      raw.set(S + k, { x: (R + 0.9) * Math.cos(a), y: (R + 0.9) * Math.sin(a) });
    });
  }
  const pos = place(raw, 50);
  const links = new Map<number, [Pt, Pt, Pt]>();
  const rank = new Map<string, number>();
  const add = (id: number, from: number, to: number): void => {
    if (from === to) return; // a loopback cable: not drawn
    const key = `${from}>${to}`;
    const r = rank.get(key) ?? 0;
    rank.set(key, r + 1);
    links.set(id, curve(pos.get(from)!, pos.get(to)!, 4 + 5 * r));
  };
  for (const [a, la, b, lb] of t.cables) {
    add(a * 32 + la, a, b);
    add(b * 32 + lb, b, a);
  }
  t.endpoints.forEach((e, k) =>
    e.links.forEach((j, m) => {
      add(S * 32 + k * 4 + m, S + k, e.sw);
      add(e.sw * 32 + j, e.sw, S + k);
    }),
  );
  const ids = [...pos.keys()].sort((a, b) => a - b);
  return { nodes: ids, pos, names, links, width: Math.max(...[...pos.values()].map((q) => q.x)) + 50, height: Math.max(...[...pos.values()].map((q) => q.y)) + 50 };
}

/** Unit positions scaled by SCALE and moved to start at (pad, pad). */
function place(raw: Map<number, Pt>, pad: number): Map<number, Pt> {
  const x0 = Math.min(...[...raw.values()].map((p) => p.x));
  const y0 = Math.min(...[...raw.values()].map((p) => p.y));
  const pos = new Map<number, Pt>();
  for (const [k, p] of raw) pos.set(k, { x: pad + (p.x - x0) * SCALE, y: pad + (p.y - y0) * SCALE });
  return pos;
}

/** A directed link a → b as a quadratic curve bowed `off` to the right of its travel, its ends nudged the same way. */
function curve(a: Pt, b: Pt, off: number): [Pt, Pt, Pt] {
  const len = Math.hypot(b.x - a.x, b.y - a.y) || 1;
  const nx = -(b.y - a.y) / len;
  const ny = (b.x - a.x) / len;
  return [
    { x: a.x + nx * 3, y: a.y + ny * 3 },
    { x: (a.x + b.x) / 2 + nx * off, y: (a.y + b.y) / 2 + ny * off },
    { x: b.x + nx * 3, y: b.y + ny * 3 },
  ];
}
