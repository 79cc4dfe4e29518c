/**
 * The standard setup of seed 004 chapters 5–6, (16, 8, 1, c, 1, 32) under
 * the three synchronisation modes and the full / throttled / contention-free
 * models (§5.4, §6.2), as experiment points shared by c104-ch5 and c104-ch6.
 * Every point is one runC104 to the ±1% stopping rule (or the cap).
 */
import { runC104, type C104Config, type ContentionMode } from '../tlm/t9000-c104/index.ts';
import type { SyncMode } from '../workloads/process-program.ts';
import { SyntheticProgram, standardSetup, type SyntheticSpec } from '../workloads/thesis-synthetic.ts';
import type { Condition } from './c104-verdicts.ts';
import type { ExperimentCliValues } from './types.ts';

export interface StdPoint {
  readonly mode: SyncMode;
  readonly model: ContentionMode;
  /** Compute period c, µs. */
  readonly cUs: number;
}

export interface StdParams {
  readonly quick: boolean;
  readonly seed: number;
  /** Simulated-time cap per point, ns. */
  readonly maxNs: number;
  readonly precision: number;
}

export interface StdResult {
  readonly throughput: number;
  readonly ciHalfWidth: number;
  readonly converged: boolean;
  readonly routedAll: number | null;
  readonly dataRouted: number | null;
  readonly ackRouted: number | null;
  readonly dataTransport: number | null;
  readonly ackTransport: number | null;
  readonly dataQueue: number | null;
  readonly dataLifetime: number | null;
  /**
   * Means over data and ack packets together (docs/thesis-model.md#table-53):
   * from creation, from first T9000 output, from first C104 output (routed).
   */
  readonly allTransport: number | null;
  readonly allLifetime: number | null;
  readonly allRouted: number | null;
  readonly meanHops: number | null;
  /** Throttling (Def. 5.2): mean wait for the first internal link, µs. */
  readonly firstHopWait: number | null;
  readonly cpuUtilisation: number;
  readonly networkUtilisation: number;
  /** Internal links counted busy from crossbar connection to tail (Fig. 5.1's second reading). */
  readonly networkConnectedUtilisation: number;
  readonly dropped: number;
  readonly simulatedNs: number;
  readonly events: number;
}

export const SYNC_LABEL: Record<string, string> = { loosely: 'Loosely sync.', 'async-blocking': 'Async, blocking', async: 'Async' };
export const STD_MODES: readonly SyncMode[] = ['loosely', 'async-blocking', 'async'];

export function stdParams(cli: ExperimentCliValues): StdParams {
  return { quick: cli.quick, seed: cli.seed ?? 1, maxNs: 50_000_000, precision: 0.01 };
}

/** Mean over two groups of packets (data and acks) given each group's count and mean. */
export function bothMean(n1: number, m1: number | null, n2: number, m2: number | null): number | null {
  if (m1 === null || m2 === null || n1 + n2 === 0) return null;
  return (n1 * m1 + n2 * m2) / (n1 + n2);
}

export function runStdPoint(p: StdPoint, q: StdParams): StdResult {
  return runStdSpec(standardSetup(p.cUs, p.mode, q.seed), p.model, q);
}

/** One run of a Def. 5.1 workload (the standard setup or a variant of it) to the stopping rule; `tlm` overrides TLM options (a named reading). */
export function runStdSpec(spec: SyntheticSpec, model: ContentionMode, q: Pick<StdParams, 'maxNs' | 'precision'>, tlm: Partial<C104Config> = {}): StdResult {
  const r = runC104(new SyntheticProgram(spec), { ...tlm, mode: model }, { maxNs: q.maxNs, precision: q.precision });
  const s = r.summary;
  return {
    throughput: s.throughput,
    ciHalfWidth: s.ciHalfWidth,
    converged: s.converged,
    routedAll: s.routedAll,
    dataRouted: s.data.routed,
    ackRouted: s.ack.routed,
    dataTransport: s.data.transport,
    ackTransport: s.ack.transport,
    dataQueue: s.data.queue,
    dataLifetime: s.data.lifetime,
    allTransport: bothMean(s.data.count, s.data.transport, s.ack.count, s.ack.transport),
    allLifetime: bothMean(s.data.count, s.data.lifetime, s.ack.count, s.ack.lifetime),
    allRouted: bothMean(s.data.count, s.data.routed, s.ack.count, s.ack.routed),
    meanHops: s.meanHops,
    firstHopWait: s.firstHopWait,
    cpuUtilisation: s.cpuUtilisation,
    networkUtilisation: s.networkUtilisation,
    networkConnectedUtilisation: s.networkConnectedUtilisation,
    dropped: s.sendsAttempted > 0 ? s.saturationFailures / s.sendsAttempted : 0,
    simulatedNs: r.simulatedNs,
    events: r.eventsDispatched,
  };
}

/** Relative cost: heavier load and the full model cost more events. */
export function stdCost(p: Pick<StdPoint, 'model' | 'cUs'>): number {
  return (p.model === 'full' ? 3 : 1) * (1 + 30 / p.cUs);
}

export function condition(r: StdResult): Condition {
  return { converged: r.converged, dropped: r.dropped };
}

/** Result lookup by (mode, model, c). */
export function stdLookup(points: readonly StdPoint[], results: readonly StdResult[]): (mode: SyncMode, model: ContentionMode, cUs: number) => StdResult | undefined {
  const m = new Map<string, StdResult>();
  points.forEach((p, k) => m.set(`${p.mode}/${p.model}/${p.cUs}`, results[k]!));
  return (mode, model, cUs) => m.get(`${mode}/${model}/${cUs}`);
}
