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

export function thesisWindowWorkload(o: ThesisWorkloadOptions): ThesisMessage[] {
  const D = o.side;
  const prog = new SyntheticProgram({
    D,
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

/** One channel (a virtual link each way) per unordered pair that talks, in first-use order, and the labels an endpoint needs (its most partners). */
export function channelPairs(messages: readonly { readonly src: number; readonly dst: number }[], T: number): { pairs: [number, number][]; labels: number } {
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
