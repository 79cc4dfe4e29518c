/**
 * The thesis's windowed random workload on a square C104 mesh (seed 004
 * Def. 5.1 with n = 1, m = 1, async; the Table 3.1 run: one process per CPU
 * sending a message every `intervalCycles` to a destination drawn uniformly
 * among the processors within ±window in x and y, truncated at the edge;
 * docs/c104.md#thesis-workload, docs/thesis-model.md#destination-window).
 *
 * The draws are SyntheticProgram's (harness/workloads/thesis-synthetic.ts),
 * so the RTL sees the same destinations, start phases and sizes as the
 * packet-level model for the same seed. Times: process p issues its k-th
 * send at start(p) + Σ compute(p, j<k), in cycles of 10 ns, from `start`.
 * Node numbering: the workload's y·D + x becomes the mesh's terminal
 * x·H + y (rtl/c104/labelling.ts meshNetwork).
 */
import { meshLabel } from '../../rtl/c104/labelling.ts';
import { SyntheticProgram } from '../workloads/thesis-synthetic.ts';

/** One cycle is one DS-link bit time, 10 ns (docs/c104.md#timing). */
export const NS_PER_CYCLE = 10;

export interface ThesisWorkloadOptions {
  /** Mesh side D (D×D endpoints). */
  side: number;
  /** ±window processors in x and y (the thesis's Table 3.1: 16). */
  window: number;
  /** Cycles between a process's sends (1 µs = 100). */
  intervalCycles: number;
  bytes: number;
  /** First cycle of traffic and first cycle after it (sends issued in [start, end)). */
  start: number;
  end: number;
  seed: number;
}

export interface ThesisMessage {
  id: number;
  t: number;
  src: number;
  dst: number;
  bytes: number;
}

function thesisProgram(o: ThesisWorkloadOptions): SyntheticProgram {
  return new SyntheticProgram({
    D: o.side,
    d: o.window,
    n: 1,
    c: { law: 'constant', value: (o.intervalCycles * NS_PER_CYCLE) / 1000 },
    m: { law: 'constant', value: 1 },
    M: { law: 'constant', value: o.bytes },
    mode: 'async',
    window: 'pm-d',
    startPhase: 'random',
    seed: o.seed,
  });
}

/** The eager list: every message of [start, end), sorted by (t, src), ids in that order (the reference of thesisWindowStream). */
export function thesisWindowWorkload(o: ThesisWorkloadOptions): ThesisMessage[] {
  const D = o.side;
  const prog = thesisProgram(o);
  const terminal = (node: number): number => meshLabel({ w: D, h: D, routing: 'x-first' }, node % D, Math.floor(node / D));
  const out: ThesisMessage[] = [];
  for (let p = 0; p < D * D; p++) {
    let t = o.start + Math.round(prog.startNs(p) / NS_PER_CYCLE);
    for (let k = 0; t < o.end; k++) {
      for (const s of prog.plan(p, k).sends) out.push({ id: 0, t, src: terminal(p), dst: terminal(s.dest), bytes: s.bytes });
      t += Math.max(1, Math.round(prog.computeNs(p, k) / NS_PER_CYCLE));
    }
  }
  out.sort((a, b) => a.t - b.t || a.src - b.src);
  out.forEach((m, i) => (m.id = i));
  return out;
}

/**
 * The same messages as thesisWindowWorkload, in the same order with the same
 * ids, drawn lazily: one cursor per process (its next send time and
 * iteration) in a binary heap keyed by (t, src terminal), so memory is one
 * entry per process whatever the length of the run (the full Table 3.1 run
 * draws ~20 million messages: docs/c104.md#lazy-workload). With m = 1 a
 * process sends once per iteration, so (t, src) is a total order and the
 * merge equals the eager list's stable sort.
 */
export function* thesisWindowStream(o: ThesisWorkloadOptions): Generator<ThesisMessage> {
  const D = o.side;
  const prog = thesisProgram(o);
  const terminal = (node: number): number => meshLabel({ w: D, h: D, routing: 'x-first' }, node % D, Math.floor(node / D));
  const cur = Array.from({ length: D * D }, (_, p) => ({ p, src: terminal(p), k: 0, t: o.start + Math.round(prog.startNs(p) / NS_PER_CYCLE) }));
  const before = (a: (typeof cur)[number], b: (typeof cur)[number]): boolean => a.t < b.t || (a.t === b.t && a.src < b.src);
  const heap = cur.filter((c) => c.t < o.end);
  const down = (i: number): void => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && before(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && before(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  let id = 0;
  while (heap.length) {
    const c = heap[0]!;
    for (const s of prog.plan(c.p, c.k).sends) yield { id: id++, t: c.t, src: c.src, dst: terminal(s.dest), bytes: s.bytes };
    c.t += Math.max(1, Math.round(prog.computeNs(c.p, c.k) / NS_PER_CYCLE));
    c.k++;
    if (c.t >= o.end) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    down(0);
  }
}

/** One channel (a virtual link each way) per unordered pair that talks, in first-use order, and the labels an endpoint needs (its most partners). */
export function channelPairs(messages: Iterable<{ readonly src: number; readonly dst: number }>, T: number): { pairs: [number, number][]; labels: number } {
  const seen = new Set<number>();
  const pairs: [number, number][] = [];
  const partners = Array.from({ length: T }, () => 0);
  for (const m of messages) {
    const a = Math.min(m.src, m.dst);
    const b = Math.max(m.src, m.dst);
    if (seen.has(a * T + b)) continue;
    seen.add(a * T + b);
    pairs.push([a, b]);
    partners[a]!++;
    partners[b]!++;
  }
  return { pairs, labels: Math.max(1, ...partners) };
}
