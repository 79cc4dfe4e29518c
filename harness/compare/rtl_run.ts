/**
 * Run a workload on the Buzzard RTL cube for a comparison: build the cube,
 * schedule the workload (harness/rtl/run_workload.ts: send at round(t ·
 * cyclesPerTick), receives posted at cycle 0), record events
 * (harness/rtl/events.ts), and step until every message is complete (its
 * message-complete event was seen) or a cycle limit is reached.
 */
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { checkConfig, type BuzzardConfig } from '../../rtl/buzzard/config.ts';
import type { TraceEvent, TraceHeader } from '../../traces/events/vocabulary.ts';
import { CubeDriver } from '../rtl/cube_driver.ts';
import { attachEvents } from '../rtl/events.ts';
import { scheduleWorkload } from '../rtl/run_workload.ts';
import type { Workload } from '../workloads/types.ts';
import { Progress } from '../cli/progress.ts';

export interface RtlRunOptions {
  readonly cyclesPerTick: number;
  /** RTL configuration (n is taken from the workload). */
  readonly config?: Partial<BuzzardConfig>;
  /** Stop after this many cycles even if messages are outstanding. */
  readonly maxCycles: number;
  /** Cycles per step between completion checks. */
  readonly chunk?: number;
  /** Progress line on stderr (when it is a terminal). */
  readonly quiet?: boolean;
  readonly label?: string;
}

export interface RtlRun {
  readonly events: TraceEvent[];
  readonly header: TraceHeader;
  readonly anomalies: readonly string[];
  /** Generation cycle per message id (round(t · cyclesPerTick)). */
  readonly generation: Map<number, number>;
  /** Σ busy cycles of every outgoing link (flow control units), for link utilisation. */
  readonly linkBusyCycles: number;
  readonly cyclesRun: number;
  readonly complete: number;
  readonly messages: number;
  readonly wallSeconds: number;
  readonly config: BuzzardConfig;
}

function countComplete(events: readonly TraceEvent[]): number {
  let c = 0;
  for (const e of events) if (e.kind === 'message-complete') c++;
  return c;
}

export function runRtlWorkload(w: Workload, o: RtlRunOptions): RtlRun {
  const cfg = checkConfig({ ...o.config, n: w.cubeDegree });
  const t0 = performance.now();
  const cube = new BuzzardCube(cfg);
  const sim = new Simulator(cube);
  const driver = new CubeDriver(sim, cube);
  const sched = scheduleWorkload(driver, w, { cyclesPerTick: o.cyclesPerTick });
  const rec = attachEvents(sim, cube, driver);
  const generation = new Map(sched.map((s) => [s.id, s.cycle] as const));
  const total = w.messages.length;
  const chunk = o.chunk ?? 2000;
  const progress = new Progress({ label: o.label ?? `rtl ${w.cubeDegree}-cube`, total: o.maxCycles, quiet: o.quiet });
  let done = 0;
  let complete = countComplete(rec.events);
  while (complete < total && done < o.maxCycles) {
    const k = Math.min(chunk, o.maxCycles - done);
    sim.step(k);
    done += k;
    complete = countComplete(rec.events);
    progress.update(done);
  }
  progress.finish();
  let busy = 0;
  for (const node of cube.nodes) for (const f of node.fcus) busy += sim.peek(f.busyCycles);
  return {
    events: rec.events,
    header: rec.header,
    anomalies: rec.anomalies,
    generation,
    linkBusyCycles: busy,
    cyclesRun: done,
    complete,
    messages: total,
    wallSeconds: (performance.now() - t0) / 1000,
    config: cfg,
  };
}
