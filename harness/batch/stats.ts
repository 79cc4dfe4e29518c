/**
 * Statistics of a batch run on the Buzzard RTL: a warm-up, then a
 * measurement window. Only messages generated inside the window count
 * towards the latencies, and the links are measured over the window only
 * (counter differences), so start-up transients do not bias the figures.
 *
 *   latency         generation to last byte delivered (message-complete), cycles:
 *                   mean, p50/p95/p99 (nearest rank), max and a histogram
 *   first packet    generation to first packet delivered, cycles (mean, p50, p99)
 *   links           per directed link (node, dimension): utilisation = busy cycles
 *                   / window; blocked = cycles the receiver held the sender / window
 *   throughput      offered and delivered bytes per node per cycle, in link bandwidths
 *   warnings        offered load not delivered (some window messages unfinished at
 *                   the end of the run, or delivered < 95% of offered), or means still
 *                   growing (the last quarter of the window's messages waited more than
 *                   1.5 x the first quarter): the network is past saturation and the
 *                   means depend on the run length.
 */
import type { Simulator } from '../../rtl/kernel/index.ts';
import type { BuzzardCube } from '../../rtl/buzzard/network.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';
import { CYCLES_PER_LINK_BYTE } from './patterns.ts';

export interface LatencyStats {
  readonly count: number;
  readonly mean: number | null;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
  readonly max: number | null;
  /** Bins [k·binWidth, (k+1)·binWidth). */
  readonly histogram: { readonly binWidth: number; readonly counts: readonly number[] };
}

export interface LinkStats {
  readonly node: number;
  readonly dimension: number;
  readonly neighbour: number;
  readonly utilisation: number;
  readonly blocked: number;
  readonly packets: number;
}

export interface BatchSummary {
  readonly window: { readonly from: number; readonly to: number; readonly runEnd: number };
  readonly messages: { readonly generated: number; readonly inWindow: number; readonly deliveredInWindow: number; readonly completeInRun: number };
  readonly latency: LatencyStats;
  readonly firstPacket: LatencyStats;
  readonly throughput: { readonly offered: number; readonly delivered: number; readonly unit: string };
  readonly links: readonly LinkStats[];
  readonly linkSummary: { readonly meanUtilisation: number; readonly maxUtilisation: number; readonly meanBlocked: number; readonly maxBlocked: number };
  readonly warnings: readonly string[];
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (!sorted.length) return null;
  const k = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[k]!;
}

export function latencyStats(values: readonly number[], bins = 12): LatencyStats {
  const s = [...values].sort((a, b) => a - b);
  const max = s.length ? s[s.length - 1]! : null;
  const binWidth = max === null ? 1 : Math.max(1, Math.ceil((max + 1) / bins));
  const counts = new Array<number>(max === null ? 0 : Math.ceil((max + 1) / binWidth)).fill(0);
  for (const v of s) counts[Math.floor(v / binWidth)]!++;
  return {
    count: s.length,
    mean: s.length ? s.reduce((a, b) => a + b, 0) / s.length : null,
    p50: percentile(s, 50),
    p95: percentile(s, 95),
    p99: percentile(s, 99),
    max,
    histogram: { binWidth, counts },
  };
}

/** The link counters of every flow-control unit (busy, hold, packets), to difference over a window. */
export function linkCounters(sim: Simulator, cube: BuzzardCube): Float64Array {
  const out: number[] = [];
  for (const node of cube.nodes) for (const f of node.fcus) out.push(sim.peek(f.busyCycles), sim.peek(f.holdCycles), sim.peek(f.packets));
  return Float64Array.from(out);
}

function counterDiff(a: number, b: number): number {
  return (b - a + 2 ** 32) % 2 ** 32; // 32-bit counters wrap
}

/** The message side of a window, for any network: latencies, throughput and the saturation warnings. */
export interface MessageWindow {
  readonly window: BatchSummary['window'];
  readonly messages: BatchSummary['messages'];
  readonly latency: LatencyStats;
  readonly firstPacket: LatencyStats;
  readonly throughput: BatchSummary['throughput'];
  readonly warnings: readonly string[];
}

export interface MessageWindowInput {
  /** Number of sending nodes (endpoints) the offered load is shared by. */
  readonly nodes: number;
  /** Cycles one byte takes on a link: the link bandwidth that throughput is given in. */
  readonly cyclesPerLinkByte: number;
  /** Generation cycle of every scheduled message, by id. */
  readonly scheduled: readonly { readonly id: number; readonly cycle: number; readonly bytes: number }[];
  readonly events: readonly TraceEvent[];
  readonly from: number;
  readonly to: number;
  readonly runEnd: number;
}

export function messageWindow(x: MessageWindowInput): MessageWindow {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  for (const e of x.events) {
    if (e.kind === 'first-packet-delivered' && !first.has(e.msg)) first.set(e.msg, e.t);
    else if (e.kind === 'message-complete') last.set(e.msg, e.t);
  }
  const inWindow = x.scheduled.filter((m) => m.cycle >= x.from && m.cycle < x.to);
  const done = inWindow.filter((m) => last.has(m.id));
  const lat = done.map((m) => last.get(m.id)! - m.cycle);
  const fp = inWindow.filter((m) => first.has(m.id)).map((m) => first.get(m.id)! - m.cycle);
  const throughput = windowThroughput(
    inWindow.reduce((a, m) => a + m.bytes, 0),
    done.reduce((a, m) => a + m.bytes, 0),
    x,
  );
  const ordered = done.map((m) => [m.cycle, last.get(m.id)! - m.cycle] as const).sort((p, q) => p[0] - q[0]);
  const q = Math.floor(ordered.length / 4);
  const quarters: [number, number] | null = q >= 10 ? [avg(ordered.slice(0, q).map((p) => p[1])), avg(ordered.slice(-q).map((p) => p[1]))] : null;
  const warnings = windowWarnings(inWindow.length, done.length, x.runEnd, throughput, quarters);
  return {
    window: { from: x.from, to: x.to, runEnd: x.runEnd },
    messages: { generated: x.scheduled.length, inWindow: inWindow.length, deliveredInWindow: done.length, completeInRun: last.size },
    latency: latencyStats(lat),
    firstPacket: latencyStats(fp),
    throughput,
    warnings,
  };
}

/** Offered and delivered bytes of a window in link bandwidths per node. */
export function windowThroughput(offeredBytes: number, deliveredBytes: number, x: { readonly nodes: number; readonly cyclesPerLinkByte: number; readonly from: number; readonly to: number }): MessageWindow['throughput'] {
  const windowCycles = Math.max(1, x.to - x.from);
  const linkBw = 1 / x.cyclesPerLinkByte;
  return { offered: offeredBytes / x.nodes / windowCycles / linkBw, delivered: deliveredBytes / x.nodes / windowCycles / linkBw, unit: `link bandwidths per node (1 byte per ${x.cyclesPerLinkByte} cycles)` };
}

/**
 * The saturation warnings: window messages not complete by the run's end, or
 * delivered below 95% of offered; and `quarters` = mean latency of the first
 * and last quarter of the delivered window messages by generation (when a
 * quarter has 10 or more), the means still growing when late > 1.5 × early.
 */
export function windowWarnings(inWindow: number, done: number, runEnd: number, t: { readonly offered: number; readonly delivered: number }, quarters: readonly [number, number] | null): string[] {
  const warnings: string[] = [];
  if (inWindow && done < inWindow) {
    warnings.push(`offered load not delivered: ${inWindow - done} of ${inWindow} messages generated in the window were not complete at the end of the run (cycle ${runEnd}); latencies count only the delivered ones`);
  } else if (t.offered > 0 && t.delivered < 0.95 * t.offered) {
    warnings.push(`offered load not delivered: ${t.delivered.toFixed(3)} of ${t.offered.toFixed(3)} link bandwidths per node`);
  }
  if (quarters) {
    const [early, late] = quarters;
    if (late > 1.5 * early) warnings.push(`means still grow: messages generated late in the window waited ${late.toFixed(0)} cycles, early ones ${early.toFixed(0)} (past saturation: the means depend on the run length)`);
  }
  return warnings;
}

function avg(v: readonly number[]): number {
  return v.length ? v.reduce((p, q) => p + q, 0) / v.length : 0;
}

export type LinkSummary = BatchSummary['linkSummary'];

/** Mean and max of the links' utilisation and blocked fractions (any network). */
export function linkSummary(links: readonly { readonly utilisation: number; readonly blocked: number }[]): LinkSummary {
  const u = links.map((l) => l.utilisation);
  const b = links.map((l) => l.blocked);
  return { meanUtilisation: avg(u), maxUtilisation: Math.max(0, ...u), meanBlocked: avg(b), maxBlocked: Math.max(0, ...b) };
}

/** A Buzzard cube's window: the messages (nodes and link bandwidth follow from n) and the link counters. */
export interface SummaryInput extends Omit<MessageWindowInput, 'nodes' | 'cyclesPerLinkByte'> {
  readonly n: number;
  readonly countersAtFrom: Float64Array;
  readonly countersAtEnd: Float64Array;
}

/** The window of a Buzzard cube run: the message side and every directed link's counters. */
export function summarise(x: SummaryInput): BatchSummary {
  const N = 1 << x.n;
  const msgs = messageWindow({ ...x, nodes: N, cyclesPerLinkByte: CYCLES_PER_LINK_BYTE });
  const links: LinkStats[] = [];
  const measured = Math.max(1, x.runEnd - x.from);
  for (let node = 0, k = 0; node < N; node++) {
    for (let d = 0; d < x.n; d++, k += 3) {
      links.push({
        node,
        dimension: d,
        neighbour: node ^ (1 << d),
        utilisation: counterDiff(x.countersAtFrom[k]!, x.countersAtEnd[k]!) / measured,
        blocked: counterDiff(x.countersAtFrom[k + 1]!, x.countersAtEnd[k + 1]!) / measured,
        packets: counterDiff(x.countersAtFrom[k + 2]!, x.countersAtEnd[k + 2]!),
      });
    }
  }
  return {
    window: msgs.window,
    messages: msgs.messages,
    latency: msgs.latency,
    firstPacket: msgs.firstPacket,
    throughput: msgs.throughput,
    links,
    linkSummary: linkSummary(links),
    warnings: msgs.warnings,
  };
}
