/**
 * The workload description shared by the RTL, the TLM and the analytic models
 * (ARCHITECTURE.md "Three levels, one workload, one trace vocabulary").
 *
 * A workload is an explicit list of messages, each with its generation time,
 * source, destination and length, plus metadata saying how it was made
 * (generator name, seed, parameters, time unit). Generators in this folder
 * draw everything from one seeded `Rng` passed in explicitly, so the same
 * seed gives the same list bit for bit; `workloadHash` checks that cheaply.
 *
 * Conventions:
 * - `messages[k].id === k`: the id is the index in the list, which is sorted
 *   by generation time (ties keep generation order). The event vocabulary's
 *   `msg` field is this id (traces/events/vocabulary.ts).
 * - Nodes are numbered 0..2^n − 1 of a binary n-cube (`cubeDegree` n).
 * - A broadcast has `dst === src` (the on-wire convention of seed 002 §5.4:
 *   "broadcast packets have source == destination").
 * - `bytes` is the message length (data bytes, without packet headers); 0 is
 *   allowed (one header-only packet).
 */
import type { TimeUnit } from '../../traces/events/vocabulary.ts';
import { fnv1aNumber, fnv1aWord, type RngState } from './rng.ts';

export type MessageKind = 'unicast' | 'broadcast';

export interface WorkloadMessage {
  /** Index in `Workload.messages`. */
  readonly id: number;
  /** Generation time (the message is queued at its source), in the workload's unit. */
  readonly t: number;
  readonly src: number;
  /** Destination node (equal to src for a broadcast). */
  readonly dst: number;
  /** Message length in bytes (≥ 0). */
  readonly bytes: number;
  readonly kind: MessageKind;
}

export interface Workload {
  /** Generator name, e.g. `buzzard-ch5`, `buzzard-ch4`, `littlefield-jig`, `trace-file`. */
  readonly name: string;
  /** Seed of the generator's Rng, or null for deterministic generators and files without one. */
  readonly seed: number | null;
  /** The Rng state the generator started from (reproduces the run even from a forked generator). */
  readonly rngStart?: RngState;
  /** The generator's parameters after defaults were applied. */
  readonly params: Readonly<Record<string, unknown>>;
  /** Unit of `t` (the Buzzard generators use the seed's simulation ticks). */
  readonly unit: TimeUnit;
  /** Cube degree n (2^n nodes). */
  readonly cubeDegree: number;
  readonly messages: readonly WorkloadMessage[];
}

/** One message before ids are assigned. */
export interface DraftMessage {
  t: number;
  src: number;
  dst: number;
  bytes: number;
  kind: MessageKind;
}

/**
 * Sort drafts by time (stable: equal times keep draft order) and assign ids.
 * Every generator finishes with this, so ids are always list indices.
 */
export function finalizeMessages(drafts: readonly DraftMessage[]): WorkloadMessage[] {
  const order = drafts.map((_, i) => i);
  order.sort((i, j) => drafts[i]!.t - drafts[j]!.t || i - j);
  return order.map((i, id) => {
    const d = drafts[i]!;
    return Object.freeze({ id, t: d.t, src: d.src, dst: d.dst, bytes: d.bytes, kind: d.kind });
  });
}

/**
 * Check a workload's internal consistency; throws a RangeError naming the
 * message and field. Used by the TLM on entry and by tests.
 */
export function validateWorkload(w: Workload): void {
  const n = w.cubeDegree;
  if (!Number.isInteger(n) || n < 1 || n > 16) throw new RangeError(`workload.cubeDegree: ${n} is outside 1..16 (integer)`);
  const N = 2 ** n;
  let prevT = -Infinity;
  w.messages.forEach((m, k) => {
    const where = `workload.messages[${k}]`;
    if (m.id !== k) throw new RangeError(`${where}.id: ${m.id} is not the message's index ${k}`);
    if (typeof m.t !== 'number' || !Number.isFinite(m.t) || m.t < 0) throw new RangeError(`${where}.t: ${m.t} is outside 0..∞`);
    if (m.t < prevT) throw new RangeError(`${where}.t: ${m.t} is before the previous message's time ${prevT} (messages must be sorted by time)`);
    prevT = m.t;
    for (const f of ['src', 'dst'] as const) {
      if (!Number.isInteger(m[f]) || m[f] < 0 || m[f] >= N) throw new RangeError(`${where}.${f}: ${m[f]} is outside 0..${N - 1} (node of the ${n}-cube)`);
    }
    if (!Number.isInteger(m.bytes) || m.bytes < 0 || m.bytes > 2 ** 31 - 1) throw new RangeError(`${where}.bytes: ${m.bytes} is outside 0..2147483647 (integer)`);
    if (m.kind === 'unicast') {
      if (m.dst === m.src) throw new RangeError(`${where}.dst: ${m.dst} equals the source (a unicast needs another node)`);
    } else if (m.kind === 'broadcast') {
      if (m.dst !== m.src) throw new RangeError(`${where}.dst: ${m.dst} must equal the source ${m.src} for a broadcast`);
    } else {
      throw new RangeError(`${where}.kind: '${String(m.kind)}' is not one of 'unicast', 'broadcast'`);
    }
  });
}

/** 32-bit FNV-1a hash over every message field (exact float bits of t): equal hashes ⇔ (almost surely) equal workloads. */
export function workloadHash(w: Workload): number {
  let h = 0x811c9dc5;
  h = fnv1aWord(h, w.cubeDegree);
  h = fnv1aWord(h, w.messages.length);
  for (const m of w.messages) {
    h = fnv1aNumber(h, m.t);
    h = fnv1aWord(h, m.src);
    h = fnv1aWord(h, m.dst);
    h = fnv1aNumber(h, m.bytes);
    h = fnv1aWord(h, m.kind === 'broadcast' ? 1 : 0);
  }
  return h >>> 0;
}

/** The metadata part of a workload, for a trace header (`TraceHeader.workload`). */
export function describeWorkload(w: Workload): Record<string, unknown> {
  return { name: w.name, seed: w.seed, unit: w.unit, cubeDegree: w.cubeDegree, messages: w.messages.length, hash: workloadHash(w), params: w.params };
}

/** Hamming distance: e-cube (and any minimal) route length between two nodes. */
export function hops(a: number, b: number): number {
  let x = (a ^ b) >>> 0;
  let c = 0;
  while (x) {
    x &= x - 1;
    c++;
  }
  return c;
}
