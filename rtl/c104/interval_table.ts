/**
 * One C104's routing configuration: the interval table, the hunt groups and
 * the per-link header operations (random header generation, header
 * deletion). Pure data plus the build-time checks; the RTL routing logic of
 * every input reads the compiled form (`CompiledTable`).
 *
 * Readings: docs/c104.md#interval-labelling, docs/c104.md#hunt-groups,
 * docs/c104.md#header-operations. Sources: docs/sources.md, c104-t9000 §16 V8, V9,
 * V12 (configuration as data), seed 004 §2.2.2, §3.2.
 */

/** Links per C104 (seed 004 §3.1.1.3; spec §16 V7). */
export const C104_LINKS = 32;

/** A configuration error: one line, naming the switch and the offending entry. */
export class C104ConfigError extends RangeError {
  constructor(message: string) {
    super(message);
    this.name = 'C104ConfigError';
  }
}

/** Header values lo..hi (inclusive) leave on hunt group `group`. */
export interface Interval {
  lo: number;
  hi: number;
  group: number;
}

/** Random header generation on a link: the new header is uniform in lo..hi. */
export interface RandomHeader {
  lo: number;
  hi: number;
}

/** Where random header generation and header deletion act (spec §16 V9): on the input link (the chip) or the output link. */
export type HeaderOpPlace = 'input' | 'output';

export interface SwitchTable {
  /** Switch name, used in every message (e.g. `sw3` or `c104_2_1`). */
  name: string;
  /** Header length in bytes: 1 or 2 (spec §16 V8). A 2-byte header is read high byte first. */
  headerBytes: 1 | 2;
  /** Header values the table must cover: 0..labels-1, with no gap and no overlap. */
  labels: number;
  /** Hunt groups: group g is the list of links a packet routed to g may leave on (one link = a group of one). */
  groups: readonly (readonly number[])[];
  /** Interval table, any order; compiled sorted. */
  intervals: readonly Interval[];
  /** Links that are wired to something (a cable or an endpoint). */
  connected: readonly boolean[];
  /** Per link: random header generation (null = off). */
  randomHeader: readonly (RandomHeader | null)[];
  /** Per link: header deletion. */
  deleteHeader: readonly boolean[];
  /** Where the two header operations act; default 'input' (the chip, spec §16 V9). */
  place: HeaderOpPlace;
}

/** The checked, sorted table the routing logic reads. */
export interface CompiledTable {
  readonly name: string;
  readonly headerBytes: 1 | 2;
  readonly labels: number;
  /** Interval upper bounds, ascending (interval i covers (his[i-1], his[i]]). */
  readonly his: Int32Array;
  /** Hunt group of interval i. */
  readonly groupOf: Int32Array;
  /** Per group, the bit mask of its links. */
  readonly groupMask: Uint32Array;
  readonly groups: readonly (readonly number[])[];
  readonly randomHeader: readonly (RandomHeader | null)[];
  readonly deleteHeader: readonly boolean[];
  readonly place: HeaderOpPlace;
}

/** An empty table of the given name: no groups, nothing connected, no header operations. */
export function emptyTable(name: string, labels: number, headerBytes: 1 | 2 = 1): SwitchTable {
  return {
    name,
    headerBytes,
    labels,
    groups: [],
    intervals: [],
    connected: new Array<boolean>(C104_LINKS).fill(false),
    randomHeader: new Array<RandomHeader | null>(C104_LINKS).fill(null),
    deleteHeader: new Array<boolean>(C104_LINKS).fill(false),
    place: 'input',
  };
}

function range(lo: number, hi: number): string {
  return lo === hi ? `header ${lo}` : `headers ${lo}..${hi}`;
}

/**
 * Check a table and compile it. Every problem is one line naming the switch:
 * a gap, an overlap, an interval naming an unconnected link, a bad hunt group,
 * a header range that does not fit the header length.
 */
export function compileTable(t: SwitchTable): CompiledTable {
  const sw = `c104 ${t.name}`;
  if (t.headerBytes !== 1 && t.headerBytes !== 2) throw new C104ConfigError(`${sw}: headerBytes ${String(t.headerBytes)} is not 1 or 2`);
  const maxLabels = t.headerBytes === 1 ? 256 : 65536;
  if (!Number.isInteger(t.labels) || t.labels < 1 || t.labels > maxLabels) {
    throw new C104ConfigError(`${sw}: labels ${t.labels} is outside 1..${maxLabels} for ${t.headerBytes}-byte headers`);
  }
  for (const [name, arr] of [['connected', t.connected], ['randomHeader', t.randomHeader], ['deleteHeader', t.deleteHeader]] as const) {
    if (arr.length !== C104_LINKS) throw new C104ConfigError(`${sw}: ${name} has ${arr.length} entries, expected one per link (${C104_LINKS})`);
  }
  if (t.place !== 'input' && t.place !== 'output') throw new C104ConfigError(`${sw}: place '${String(t.place)}' is not 'input' or 'output'`);
  const owner = new Int32Array(C104_LINKS).fill(-1);
  const groupMask = new Uint32Array(t.groups.length);
  t.groups.forEach((links, g) => {
    if (links.length === 0) throw new C104ConfigError(`${sw}: hunt group ${g} has no links`);
    for (const k of links) {
      if (!Number.isInteger(k) || k < 0 || k >= C104_LINKS) throw new C104ConfigError(`${sw}: hunt group ${g} names link ${k}, outside 0..${C104_LINKS - 1}`);
      if (owner[k] !== -1) throw new C104ConfigError(`${sw}: link ${k} is in hunt groups ${owner[k]} and ${g}; a link belongs to one group`);
      owner[k] = g;
      groupMask[g]! |= 1 << k;
    }
  });
  const sorted = [...t.intervals].sort((a, b) => a.lo - b.lo || a.hi - b.hi);
  let next = 0;
  for (const iv of sorted) {
    if (!Number.isInteger(iv.lo) || !Number.isInteger(iv.hi) || iv.lo > iv.hi || iv.lo < 0) {
      throw new C104ConfigError(`${sw}: interval ${iv.lo}..${iv.hi} is not a range of header values`);
    }
    if (iv.hi >= t.labels) throw new C104ConfigError(`${sw}: interval ${iv.lo}..${iv.hi} goes past the last label ${t.labels - 1}`);
    if (!Number.isInteger(iv.group) || iv.group < 0 || iv.group >= t.groups.length) {
      throw new C104ConfigError(`${sw}: interval ${iv.lo}..${iv.hi} names hunt group ${iv.group}, but groups are 0..${t.groups.length - 1}`);
    }
    if (iv.lo < next) throw new C104ConfigError(`${sw}: overlap: ${range(iv.lo, Math.min(iv.hi, next - 1))} are in two intervals`);
    if (iv.lo > next) throw new C104ConfigError(`${sw}: gap: ${range(next, iv.lo - 1)} route nowhere`);
    const unconnected = t.groups[iv.group]!.filter((k) => !t.connected[k]);
    if (unconnected.length > 0) {
      throw new C104ConfigError(`${sw}: interval ${iv.lo}..${iv.hi} routes to link ${unconnected[0]}, which is not connected`);
    }
    next = iv.hi + 1;
  }
  if (next < t.labels) throw new C104ConfigError(`${sw}: gap: ${range(next, t.labels - 1)} route nowhere`);
  const headerMax = maxLabels - 1;
  t.randomHeader.forEach((r, k) => {
    if (r === null) return;
    if (!Number.isInteger(r.lo) || !Number.isInteger(r.hi) || r.lo < 0 || r.lo > r.hi || r.hi > headerMax) {
      throw new C104ConfigError(`${sw}: link ${k} random header range ${r.lo}..${r.hi} is not within 0..${headerMax}`);
    }
  });
  return {
    name: t.name,
    headerBytes: t.headerBytes,
    labels: t.labels,
    his: Int32Array.from(sorted.map((iv) => iv.hi)),
    groupOf: Int32Array.from(sorted.map((iv) => iv.group)),
    groupMask,
    groups: t.groups.map((g) => [...g]),
    randomHeader: [...t.randomHeader],
    deleteHeader: [...t.deleteHeader],
    place: t.place,
  };
}

/** The hunt group a header routes to, or -1 when it is past the last label (the routing logic's error case). */
export function lookupGroup(c: CompiledTable, header: number): number {
  if (header < 0 || header >= c.labels) return -1;
  let lo = 0;
  let hi = c.his.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c.his[mid]! >= header) hi = mid;
    else lo = mid + 1;
  }
  return c.groupOf[lo]!;
}
