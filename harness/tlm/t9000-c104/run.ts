/**
 * runC104: one run of a process program on the T9000/C104 TLM, under one
 * contention model, until the primary response's 95% confidence interval is
 * within ±precision (seed 004 §5.4: ±1%) or the simulated-time cap
 * (reported as not converged). docs/thesis-model.md#statistics.
 *
 * Random streams (§3.5.2): the workload's own (inside the program, per
 * process and iteration) and the network's (networkSeed: random
 * arbitration, two-phase intermediates) are separate, so every model sees
 * the same workload.
 */
import type { TraceEvent } from '../../../traces/events/vocabulary.ts';
import { integerIn, checkNumber } from '../../models/validate.ts';
import type { ProcessProgram } from '../../workloads/process-program.ts';
import { Rng } from '../../workloads/rng.ts';
import { EventQueue } from '../event-queue.ts';
import { resolveC104Config, type C104Config } from './config.ts';
import { ENDPOINT_EVENT_BASE, EV_CHECKPOINT, PacketPool, type SimContext, type Transport } from './core.ts';
import { Endpoints } from './endpoint.ts';
import { DirectLink } from './direct-link.ts';
import { IdealNetwork } from './ideal-network.ts';
import { Metrics, type Summary } from './metrics.ts';
import { PacketNetwork } from './packet-network.ts';
import { TokenNetwork } from './token-network.ts';

export interface RunControl {
  /** Checkpoint interval, ns (the batch-means samples). Default max(20 µs, 2 × mean compute). */
  readonly checkpointNs?: number;
  /** Minimum simulated ns before the stopping rule is tried. Default max(2 ms, 40 checkpoints). */
  readonly minNs?: number;
  /** Simulated-time cap, ns (default 50 ms); a run stopped here is reported as not converged. */
  readonly maxNs?: number;
  /** Relative 95% CI half-width that stops the run (default 0.01, §5.4). */
  readonly precision?: number;
  /** Batches for the CI (default 20). */
  readonly batches?: number;
  /** Run exactly this long (no stopping rule), ns. */
  readonly fixedNs?: number;
  /** Cut the start-up transient (default true); false measures the whole run. */
  readonly truncate?: boolean;
}

export interface C104Result {
  readonly config: C104Config;
  readonly program: { readonly name: string; readonly params: Readonly<Record<string, unknown>> };
  readonly summary: Summary;
  readonly simulatedNs: number;
  readonly eventsDispatched: number;
  /** Data packets delivered per ms per source processor over the whole run (load map, Figs 5.6–5.9). */
  readonly loadMap: number[];
  /** Packets (data and acks) forwarded per ms by each C104 over the whole run (Figs 5.6–5.9); null without C104s or contention. */
  readonly switchLoadMap: number[] | null;
  /**
   * Per node at the end of the run: acknowledgements it has created and not yet delivered (queued in its T9000 or in
   * flight; Fig. 5.6's "ack queues grow unboundedly on the starved nodes").
   */
  readonly ackBacklog: number[];
  /** Per process over the whole run: CPU time (ns) and iterations completed (Fig. 4.1's per-process shares). */
  readonly processWork: { readonly cpuNs: number[]; readonly iterations: number[] };
  readonly events: TraceEvent[] | null;
}

export function runC104(program: ProcessProgram, config: Partial<C104Config> = {}, control: RunControl = {}): C104Result {
  const c = resolveC104Config(config);
  if (program.side !== c.side) throw new RangeError(`c104.side: ${c.side} does not match the workload's grid side ${program.side} (allowed ${program.side})`);
  const meanCompute = program.plan(0, 0).computeNs;
  const checkpointNs = control.checkpointNs ?? Math.max(20_000, 2 * meanCompute);
  integerIn('c104.run', 'checkpointNs', checkpointNs, 1, 1e12, 'ns');
  const minNs = control.minNs ?? Math.max(2_000_000, 40 * checkpointNs);
  const maxNs = control.maxNs ?? 50_000_000;
  checkNumber('c104.run', 'maxNs', maxNs, { min: checkpointNs, max: 1e13, what: 'ns' });
  const precision = checkNumber('c104.run', 'precision', control.precision ?? 0.01, { min: 0, minExclusive: true, max: 1 });
  const batches = integerIn('c104.run', 'batches', control.batches ?? 20, 2, 1000);
  if (control.fixedNs !== undefined) checkNumber('c104.run', 'fixedNs', control.fixedNs, { min: 1, max: 1e13, what: 'ns' });

  const queue = new EventQueue(1 << 16);
  const ctx: SimContext = { queue, pool: new PacketPool(), events: c.recordEvents ? [] : null };
  const N = c.side * c.side;
  let transport: Transport | null = null;
  const metrics = new Metrics(N, N, () => transport!.internalBusy(queue.time), batches, precision, control.truncate ?? true);
  const ep = new Endpoints(c, ctx, program, metrics);
  const rng = new Rng(c.networkSeed);
  if (c.topology === 'direct' && c.mode !== 'full') throw new RangeError(`c104.mode: the direct link models contention only as 'full' (got '${c.mode}')`);
  if (c.topology === 'direct') transport = new DirectLink(c, ctx, ep);
  else if (c.linkModel === 'token-credit') transport = new TokenNetwork(c, ctx, ep, rng);
  else transport = c.mode === 'full' ? new PacketNetwork(c, ctx, ep, rng) : new IdealNetwork(c, ctx, ep, rng);
  ep.transport = transport;
  ep.start(0);
  queue.push(checkpointNs, EV_CHECKPOINT, 0);
  const end = control.fixedNs ?? maxNs;
  let events = 0;
  let now = 0;
  while (queue.pop()) {
    now = queue.time;
    const type = queue.type;
    events++;
    if (type === EV_CHECKPOINT) {
      metrics.checkpoint(now);
      if (now >= end) break;
      if (control.fixedNs === undefined && now >= minNs && metrics.converged()) break;
      queue.push(Math.min(end, now + checkpointNs), EV_CHECKPOINT, 0);
    } else if (type >= ENDPOINT_EVENT_BASE) ep.handle(type, queue.arg, now);
    else transport.handle(type, queue.arg, now);
  }
  const summary = metrics.summary();
  const loadMap = Array.from(metrics.deliveredBySource, (x) => (now > 0 ? (x * 1e6) / now : 0));
  return {
    config: c,
    program: { name: program.name, params: program.params },
    summary,
    simulatedNs: now,
    eventsDispatched: events,
    loadMap,
    ackBacklog: Array.from(metrics.acksCreated, (n, i) => n - metrics.acksDelivered[i]!),
    switchLoadMap: transport.routedBySwitch ? Array.from(transport.routedBySwitch, (x) => (now > 0 ? (x * 1e6) / now : 0)) : null,
    events: ctx.events,
    processWork: ep.processWork(now),
  };
}
