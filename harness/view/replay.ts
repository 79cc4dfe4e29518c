/**
 * Queries on the replay model (model.ts): the state of the network at cycle
 * c, answered by binary search and one alive-bucket scan (no replay from the
 * start). Shared by the page (bundled into it) and the unit tests.
 */
import type { Intervals, ViewModel } from './model.ts';

/** Index of the first element of a[lo..hi) greater than v. */
function upper(a: Int32Array, lo: number, hi: number, v: number): number {
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (a[m]! <= v) lo = m + 1;
    else hi = m;
  }
  return lo;
}

/** Length of id's intervals within cycles [0, c] (cycle c included). */
export function coveredUpTo(iv: Intervals, id: number, c: number): number {
  if (c < 0) return 0;
  const lo = iv.off[id]!;
  const k = upper(iv.start, lo, iv.off[id + 1]!, c) - 1;
  if (k < lo) return 0;
  return iv.cum[k]! + Math.min(iv.end[k]!, c + 1) - iv.start[k]!;
}

/** Whether cycle c is inside one of id's intervals. */
export function inside(iv: Intervals, id: number, c: number): boolean {
  const lo = iv.off[id]!;
  const k = upper(iv.start, lo, iv.off[id + 1]!, c) - 1;
  return k >= lo && c < iv.end[k]!;
}

/** Fraction of the window (c − w, c] in which link l carried a packet. */
export function occupancy(m: ViewModel, l: number, c: number, w: number): number {
  return (coveredUpTo(m.busy, l, c) - coveredUpTo(m.busy, l, c - w)) / w;
}

/** Whole-run utilisation of link l: busy cycles / (tEnd + 1). */
export function utilisation(m: ViewModel, l: number): number {
  return coveredUpTo(m.busy, l, m.tEnd) / (m.tEnd + 1);
}

export interface PacketAt {
  /** Index into m.pkt. */
  p: number;
  msg: number;
  packet: number;
  /** The link its head last entered. */
  link: number;
  /** Hop number (0 = the first link). */
  hop: number;
}

/** Packets in flight at cycle c (injected at or before c, head not yet at the destination's input port), with their links. */
export function packetsAt(m: ViewModel, c: number): PacketAt[] {
  const out: PacketAt[] = [];
  if (c < 0) return out;
  const b = Math.min(Math.floor(c / m.bucket), m.alive.off.length - 2);
  const { start, end, hopOff, hopT, hopLink } = m.pkt;
  for (let k = m.alive.off[b]!; k < m.alive.off[b + 1]!; k++) {
    const p = m.alive.list[k]!;
    if (start[p]! > c || c >= end[p]!) continue;
    const h = upper(hopT, hopOff[p]!, hopOff[p + 1]!, c) - 1;
    out.push({ p, msg: m.pkt.msg[p]!, packet: m.pkt.idx[p]!, link: hopLink[h]!, hop: h - hopOff[p]! });
  }
  return out;
}

/** Links of a message's path (the links every hop of its packets entered), sorted. */
export function pathOf(m: ViewModel, msg: number): number[] {
  const s = new Set<number>();
  const { hopOff, hopLink } = m.pkt;
  for (let p = 0; p < m.pkt.msg.length; p++) {
    if (m.pkt.msg[p] !== msg) continue;
    for (let h = hopOff[p]!; h < hopOff[p + 1]!; h++) s.add(hopLink[h]!);
  }
  return [...s].sort((a, b) => a - b);
}

/** C104: links of every switch-level packet (data and acks) linked to T9000 message `id`, sorted. */
export function pathOfMessage(m: ViewModel, id: number): number[] {
  const s = new Set<number>();
  const { hopOff, hopLink } = m.pkt;
  m.tmsg?.forEach((t, p) => {
    if (t === id) for (let h = hopOff[p]!; h < hopOff[p + 1]!; h++) s.add(hopLink[h]!);
  });
  return [...s].sort((a, b) => a - b);
}

/** The next event cycle after c (or c when there is none). */
export function nextEventTime(m: ViewModel, c: number): number {
  const k = upper(m.times, 0, m.times.length, c);
  return k < m.times.length ? m.times[k]! : c;
}

/** The last event cycle before c (or c when there is none). */
export function prevEventTime(m: ViewModel, c: number): number {
  const k = upper(m.times, 0, m.times.length, c - 1) - 1;
  return k >= 0 ? m.times[k]! : c;
}

export interface StateAt {
  cycle: number;
  packets: PacketAt[];
  occupancy: Float64Array;
  held: Uint8Array;
  full: Uint8Array;
  /** Deadlock rings recorded at or before c. */
  rings: string[][];
}

/** The whole network at cycle c, occupancy over the window (c − w, c]. */
export function stateAt(m: ViewModel, c: number, w: number): StateAt {
  const L = m.links;
  const occ = new Float64Array(L);
  const held = new Uint8Array(L);
  const full = new Uint8Array(L);
  for (let l = 0; l < L; l++) {
    occ[l] = occupancy(m, l, c, w);
    held[l] = inside(m.held, l, c) ? 1 : 0;
    full[l] = inside(m.full, l, c) ? 1 : 0;
  }
  return { cycle: c, packets: packetsAt(m, c), occupancy: occ, held, full, rings: m.deadlocks.filter((d) => d.t <= c).map((d) => d.ring) };
}
