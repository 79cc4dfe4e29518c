/**
 * Labellings: network specs with interval tables for the topologies the
 * seeds use. Readings: docs/c104.md#mesh-labelling, docs/c104.md#two-phase,
 * docs/c104.md#puma, docs/c104.md#ring.
 *
 * Mesh node link layout (every switch): links 0..c-1 the hunt group to its
 * T9000 (c = cpuLinks, seed 004 §3.2: 4); then west, east, south, north
 * (c, c+1, c+2, c+3); two-phase adds the phase-2 set at c+4..c+7 and a
 * loopback cable c+8 → c+9 whose input deletes the random header.
 */
import { C104_LINKS, C104ConfigError, emptyTable, type Interval, type SwitchTable } from './interval_table.ts';
import type { LinkRef, NetworkSpec, Terminal } from './topology.ts';

export type MeshRouting = 'x-first' | 'y-first' | 'two-phase';
export const MESH_ROUTINGS: readonly MeshRouting[] = ['x-first', 'y-first', 'two-phase'];

export interface MeshOptions {
  /** Columns W (x) and rows H (y). */
  w: number;
  h: number;
  routing: MeshRouting;
  /** Links in each T9000's hunt group, 1..4 (seed 004 §3.2, §4.2.2: 4). */
  cpuLinks?: number;
  /** Header bytes; default 1 when the labels fit a byte, else 2. */
  headerBytes?: 1 | 2;
  /** Labels per node k (a T9000's virtual links, docs/c104.md#t9000-labels): node i owns i·k..i·k+k-1; default 1. */
  labelsPerNode?: number;
}

const W_ = 0;
const E_ = 1;
const S_ = 2;
const N_ = 3;

/** Label of node (x, y): column-major x·H + y for x-first (and two-phase), row-major y·W + x for y-first. */
export function meshLabel(o: { w: number; h: number; routing: MeshRouting }, x: number, y: number): number {
  return o.routing === 'y-first' ? y * o.w + x : x * o.h + y;
}

/** Intervals of dimension-order routing at (x, y) over node indices scaled by k labels each, offset by `base`, onto groups west/east/south/north/local. */
function dimensionOrderIntervals(o: MeshOptions, x: number, y: number, base: number, k: number, g: { dir: number[]; local: number }): Interval[] {
  const out: Interval[] = [];
  const add = (lo: number, hi: number, group: number): void => {
    if (lo <= hi) out.push({ lo: base + lo * k, hi: base + hi * k + k - 1, group });
  };
  // The dimension routed first is the major one: labels of other major coordinates lie wholly below or above.
  const yFirst = o.routing === 'y-first';
  const [a, b, na, nb] = yFirst ? [y, x, o.h, o.w] : [x, y, o.w, o.h];
  const [lowMajor, highMajor, lowMinor, highMinor] = yFirst ? [S_, N_, W_, E_] : [W_, E_, S_, N_];
  const c = a * nb;
  add(0, c - 1, g.dir[lowMajor]!);
  add(c, c + b - 1, g.dir[lowMinor]!);
  add(c + b, c + b, g.local);
  add(c + b + 1, c + nb - 1, g.dir[highMinor]!);
  add(c + nb, na * nb - 1, g.dir[highMajor]!);
  return out;
}

/** A W×H mesh of C104s, one T9000 per node (seed 004 §3.2, Fig. 3.1; spec §4). */
export function meshNetwork(o: MeshOptions): NetworkSpec {
  const { w, h, routing } = o;
  if (!Number.isInteger(w) || !Number.isInteger(h) || w < 1 || h < 1 || w * h > 4096) throw new C104ConfigError(`mesh: size ${w}×${h} must be whole numbers ≥ 1 with at most 4096 nodes`);
  if (!MESH_ROUTINGS.includes(routing)) throw new C104ConfigError(`mesh: routing '${String(routing)}' is not one of ${MESH_ROUTINGS.join(', ')}`);
  const c = o.cpuLinks ?? 4;
  if (!Number.isInteger(c) || c < 1 || c > 4) throw new C104ConfigError(`mesh: cpuLinks ${c} is outside 1..4`);
  const n = w * h;
  const k = o.labelsPerNode ?? 1;
  if (!Number.isInteger(k) || k < 1 || k > 255) throw new C104ConfigError(`mesh: labelsPerNode ${k} is outside 1..255`);
  const labels = routing === 'two-phase' ? n * k + n : n * k;
  const headerBytes = o.headerBytes ?? (labels <= 256 ? 1 : 2);
  if (labels > (headerBytes === 1 ? 256 : 65536)) throw new C104ConfigError(`mesh: ${labels} labels do not fit ${headerBytes}-byte headers`);
  const at = (x: number, y: number): number => x * h + y;
  const switches: SwitchTable[] = [];
  const cables: [LinkRef, LinkRef][] = [];
  const terminals: Terminal[] = [];
  const cpu = Array.from({ length: c }, (_, k) => k);
  const sets = routing === 'two-phase' ? [c, c + 4] : [c];
  for (let x = 0; x < w; x++) {
    for (let y = 0; y < h; y++) {
      const t = emptyTable(`c104_${x}_${y}`, labels, headerBytes);
      const connected = [...t.connected];
      const groups: number[][] = [cpu];
      for (const c1 of cpu) connected[c1] = true;
      const intervals: Interval[] = [];
      // Phase 2 (or the only phase) routes labels 0..n-1 on the last link set; phase 1 labels n..2n-1 on the first.
      sets.forEach((first, phase) => {
        const dir = [W_, E_, S_, N_].map((d) => {
          groups.push([first + d]);
          return groups.length - 1;
        });
        const neighbour = [x > 0, x < w - 1, y > 0, y < h - 1];
        neighbour.forEach((has, d) => {
          if (has) connected[first + d] = true;
        });
        const twoPhase = sets.length === 2;
        let local = 0;
        if (twoPhase && phase === 0) {
          groups.push([c + 8]);
          local = groups.length - 1;
        }
        // Phase 1 routes on intermediate-node labels n·k..n·k+n-1 (one per node), phase 2 on destination labels.
        const base = twoPhase && phase === 0 ? n * k : 0;
        intervals.push(...dimensionOrderIntervals({ ...o, routing: routing === 'two-phase' ? 'x-first' : routing }, x, y, base, twoPhase && phase === 0 ? 1 : k, { dir, local }));
      });
      const randomHeader = [...t.randomHeader];
      const deleteHeader = [...t.deleteHeader];
      if (routing === 'two-phase') {
        for (const c1 of cpu) randomHeader[c1] = { lo: n * k, hi: n * k + n - 1 };
        connected[c + 8] = connected[c + 9] = true;
        deleteHeader[c + 9] = true;
        cables.push([{ sw: at(x, y), link: c + 8 }, { sw: at(x, y), link: c + 9 }]);
      }
      switches.push({ ...t, connected, groups, intervals, randomHeader, deleteHeader });
      terminals.push({ name: `t9000_${x}_${y}`, label: meshLabel(o, x, y) * k, labelCount: k, sw: at(x, y), links: cpu });
      for (const first of sets) {
        if (x < w - 1) cables.push([{ sw: at(x, y), link: first + E_ }, { sw: at(x + 1, y), link: first + W_ }]);
        if (y < h - 1) cables.push([{ sw: at(x, y), link: first + N_ }, { sw: at(x, y + 1), link: first + S_ }]);
      }
    }
  }
  return { headerBytes, switches, cables, terminals };
}

/**
 * A ring of n C104s, one endpoint each (link 0), neighbours joined link 1
 * (clockwise out) → link 2 (counter-clockwise in). `cyclic`: every packet
 * goes clockwise, the labelling whose channel dependencies form a ring (the
 * deadlock negative control). Otherwise: shortest way without crossing the
 * link from the last switch back to the first (a line with an unused cable),
 * which is acyclic.
 */
export function ringNetwork(n: number, cyclic: boolean): NetworkSpec {
  if (!Number.isInteger(n) || n < 2 || n > 256) throw new C104ConfigError(`ring: size ${n} is outside 2..256`);
  const switches: SwitchTable[] = [];
  const cables: [LinkRef, LinkRef][] = [];
  const terminals: Terminal[] = [];
  for (let s = 0; s < n; s++) {
    const t = emptyTable(`c104_${s}`, n, 1);
    const connected = [...t.connected];
    connected[0] = connected[1] = connected[2] = true;
    const groups = [[0], [1], [2]];
    const intervals: Interval[] = [];
    const add = (lo: number, hi: number, group: number): void => {
      if (lo <= hi) intervals.push({ lo, hi, group });
    };
    add(s, s, 0);
    if (cyclic) {
      add(s + 1, n - 1, 1);
      add(0, s - 1, 1);
    } else {
      add(s + 1, n - 1, 1);
      add(0, s - 1, 2);
    }
    switches.push({ ...t, connected, groups, intervals });
    terminals.push({ name: `t${s}`, label: s, sw: s, links: [0] });
    cables.push([{ sw: s, link: 1 }, { sw: (s + 1) % n, link: 2 }]);
  }
  return { headerBytes: 1, switches, cables, terminals };
}

/**
 * s C104s in a line with an endpoint at each end (seed 000 §3: the s switches
 * a packet passes through; s = 1 is the `pair-c104` set-up of seed 004
 * §4.1.5). Each endpoint owns `labelsPerEnd` labels (its virtual links).
 * `links` (1..4): each endpoint and each hop has that many parallel links,
 * a hunt group each way (seed 000 §4's multi-link messages, Eq 6).
 */
export function chainNetwork(s: number, labelsPerEnd = 1, links = 1): NetworkSpec {
  if (!Number.isInteger(s) || s < 1 || s > 64) throw new C104ConfigError(`chain: switches ${s} is outside 1..64`);
  const k = labelsPerEnd;
  if (!Number.isInteger(k) || k < 1 || k > 128) throw new C104ConfigError(`chain: labelsPerEnd ${k} is outside 1..128`);
  if (!Number.isInteger(links) || links < 1 || links > 4) throw new C104ConfigError(`chain: links ${links} is outside 1..4 (a T9000 has 4)`);
  // Links 0..l-1 face t0 (or the previous switch), l..2l-1 face t1 (or the next): one hunt group each way.
  const back = Array.from({ length: links }, (_, i) => i);
  const fwd = back.map((i) => links + i);
  const switches: SwitchTable[] = [];
  const cables: [LinkRef, LinkRef][] = [];
  for (let j = 0; j < s; j++) {
    const t = emptyTable(`c104_${j}`, 2 * k, 1);
    const connected = [...t.connected];
    for (const i of [...back, ...fwd]) connected[i] = true;
    switches.push({ ...t, connected, groups: [back, fwd], intervals: [{ lo: 0, hi: k - 1, group: 0 }, { lo: k, hi: 2 * k - 1, group: 1 }] });
    if (j > 0) for (let i = 0; i < links; i++) cables.push([{ sw: j - 1, link: fwd[i]! }, { sw: j, link: back[i]! }]);
  }
  return {
    headerBytes: 1,
    switches,
    cables,
    terminals: [
      { name: 't0', label: 0, labelCount: k, sw: 0, links: back },
      { name: 't1', label: k, labelCount: k, sw: s - 1, links: fwd },
    ],
  };
}

/**
 * Seed 000's PUMA machine: 256 processors, 64 C104s; each switch has 4
 * processors on 16 links (a hunt group of 4 each) and 12 links forming a
 * double hypercube of dimension 6 (a hunt group of 2 per dimension). Labels
 * 4·switch + processor; routing: highest differing dimension first, which is
 * interval labelling (docs/c104.md#puma).
 */
export function pumaNetwork(dim = 6, procsPerSwitch = 4): NetworkSpec {
  if (!Number.isInteger(dim) || dim < 1 || dim > 6) throw new C104ConfigError(`puma: dimension ${dim} is outside 1..6`);
  if (!Number.isInteger(procsPerSwitch) || procsPerSwitch < 1 || procsPerSwitch * 4 + 2 * dim > C104_LINKS) throw new C104ConfigError(`puma: ${procsPerSwitch} processors of 4 links and ${dim} dimensions of 2 links exceed ${C104_LINKS} links`);
  const nsw = 1 << dim;
  const labels = nsw * procsPerSwitch;
  const headerBytes = labels <= 256 ? 1 : 2;
  const switches: SwitchTable[] = [];
  const cables: [LinkRef, LinkRef][] = [];
  const terminals: Terminal[] = [];
  const dimLink = (d: number, k: number): number => procsPerSwitch * 4 + 2 * d + k;
  for (let s = 0; s < nsw; s++) {
    const t = emptyTable(`c104_${s}`, labels, headerBytes);
    const connected = [...t.connected];
    const groups: number[][] = [];
    const intervals: Interval[] = [];
    for (let p = 0; p < procsPerSwitch; p++) {
      const links = [0, 1, 2, 3].map((k) => 4 * p + k);
      groups.push(links);
      for (const k of links) connected[k] = true;
      intervals.push({ lo: s * procsPerSwitch + p, hi: s * procsPerSwitch + p, group: p });
      terminals.push({ name: `h1_${s}_${p}`, label: s * procsPerSwitch + p, sw: s, links });
    }
    for (let d = 0; d < dim; d++) {
      groups.push([dimLink(d, 0), dimLink(d, 1)]);
      connected[dimLink(d, 0)] = connected[dimLink(d, 1)] = true;
      // Destinations whose highest bit differing from s is d: s's bits above d, bit d flipped, any below.
      const lo = ((s >> (d + 1)) << (d + 1)) | ((~s >> d) & 1) << d;
      intervals.push({ lo: lo * procsPerSwitch, hi: (lo + (1 << d)) * procsPerSwitch - 1, group: procsPerSwitch + d });
      const peer = s ^ (1 << d);
      if (s < peer) for (const k of [0, 1]) cables.push([{ sw: s, link: dimLink(d, k) }, { sw: peer, link: dimLink(d, k) }]);
    }
    switches.push({ ...t, connected, groups, intervals });
  }
  return { headerBytes, switches, cables, terminals };
}
