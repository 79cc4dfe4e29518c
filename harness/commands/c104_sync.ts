/**
 * `icemu c104 mesh --pattern thesis --sync MODE`: Definition 5.1's processes
 * closed loop on the RTL (harness/rtl/c104_processes.ts,
 * docs/c104.md#thesis-processes): --processes (default 1) processes per
 * endpoint sharing its CPU, each computing
 * --interval cycles, one --bytes message per iteration to a destination
 * within ±--window, in the synchronisation mode MODE; prints the window's
 * throughput (data packets per CPU per ms, the TLM's primary response),
 * sends attempted and dropped, iterations, messages delivered.
 */
import chalk from 'chalk';
import type { C104Buffers, C104Policy, C104Timing } from '../../rtl/c104/config.ts';
import { UsageError, type ParsedOptions } from '../cli/args.ts';
import { outputFile, writeText } from '../cli/output-path.ts';
import { runRtlProcesses, PROCESS_START, type RtlProcessResult } from '../rtl/c104_processes.ts';
import { SyntheticProgram } from '../workloads/thesis-synthetic.ts';
import type { SyncMode } from '../workloads/process-program.ts';
import { toJson } from '../experiments/types.ts';

export const SYNC_CHOICES = ['loosely', 'async-blocking', 'async'] as const;

export interface SyncRunSetup {
  readonly preset: string;
  readonly policy: C104Policy;
  readonly timing: C104Timing;
  readonly buffers: C104Buffers;
  readonly routing: string;
  readonly warmup: number;
  readonly cycles: number;
}

/** Refusals first (one line each), then the run. */
export function runThesisSync(opts: ParsedOptions, given: ReadonlySet<string>, s: SyncRunSetup): number {
  const mode = opts.sync as string;
  if (!(SYNC_CHOICES as readonly string[]).includes(mode)) throw new UsageError(`icemu c104: --sync must be one of ${SYNC_CHOICES.join(', ')} (got '${mode}')`);
  if (opts.pattern !== 'thesis') throw new UsageError('icemu c104: --sync goes with --pattern thesis');
  const w = opts.width as number;
  if (s.preset !== 'mesh' || w !== opts.height) throw new UsageError('icemu c104: --pattern thesis runs on a square mesh (mesh --width N --height N)');
  if (s.routing !== 'x-first') throw new UsageError('icemu c104: --sync runs x-first routing only (the TLM\'s xy)');
  for (const o of ['events', 'vcd', 'rate', 'hotspot'] as const) if (opts[o] !== undefined) throw new UsageError(`icemu c104: --${o} does not go with --sync`);
  const bytes = given.has('bytes') || opts.bytes !== 64 ? (opts.bytes as number) : 32;
  const window = (opts.window as number | undefined) ?? 16;
  const interval = (opts.interval as number | undefined) ?? 100;
  const n = (opts.processes as number | undefined) ?? 1;
  const warmup = Math.max(0, s.warmup - PROCESS_START);
  const windowCycles = s.cycles - PROCESS_START - warmup;
  if (windowCycles < 1000) throw new UsageError(`icemu c104: --cycles ${s.cycles} leaves ${windowCycles} cycles after --warmup and link start-up; --sync needs 1000 or more`);
  const jsonTarget = opts.json === undefined ? undefined : outputFile('json', opts.json as string);
  const program = new SyntheticProgram({
    D: w,
    d: window,
    n,
    c: { law: 'constant', value: (interval * 10) / 1000 },
    m: { law: 'constant', value: 1 },
    M: { law: 'constant', value: bytes },
    mode: mode as SyncMode,
    window: 'pm-d',
    startPhase: 'random',
    seed: opts.seed as number,
  });
  console.log(
    chalk.bold('icemu c104') +
      `: ${w}x${w} mesh, x-first, policy ${s.policy}, timing ${s.timing}, buffers ${s.buffers}; Def. 5.1 processes closed loop, ${mode}, ${n} per endpoint: compute ${interval} cycles, one ${bytes} B message per iteration within +-${window}, seed ${opts.seed}`,
  );
  const t0 = performance.now();
  const r = runRtlProcesses(program, { warmupCycles: warmup, windowCycles, c104: { policy: s.policy, timing: s.timing, buffers: s.buffers } });
  const check = checkDeliveries(r);
  const summary = {
    mode,
    processesPerEndpoint: n,
    window: { fromCycle: PROCESS_START + warmup, cycles: windowCycles },
    throughputPacketsPerCpuPerMs: r.throughput,
    sendsAttempted: r.sendsAttempted,
    sendsDropped: r.sendsDropped,
    iterations: r.iterations,
    messagesSent: r.sent,
    messagesDelivered: r.delivered,
    messagesWrongBytes: check.wrong,
    messagesDeliveredTwice: check.twice,
    anomalies: r.sys.rec.anomalies.length,
  };
  console.log(`Window: cycles ${summary.window.fromCycle}..${summary.window.fromCycle + windowCycles}`);
  console.log(`Throughput: ${r.throughput.toFixed(2)} data packets per CPU per ms`);
  console.log(`Sends: ${r.sendsAttempted} attempted, ${r.sendsDropped} dropped (outstanding limit 16); iterations ${r.iterations}`);
  console.log(`Messages: ${r.sent} sent, ${r.delivered} delivered, ${r.completed} acknowledged by cycle ${r.cycles} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  console.log(`Deliveries: ${check.wrong} with wrong bytes or no message, ${check.twice} delivered twice`);
  if (r.sys.rec.anomalies.length > 0) console.log(chalk.red(`Anomalies: ${r.sys.rec.anomalies.length} (first: ${r.sys.rec.anomalies[0]})`));
  if (jsonTarget) {
    writeText(jsonTarget, JSON.stringify(toJson({ command: 'c104', sync: summary }), null, 1) + '\n', 'json');
    console.log(`Summary: ${jsonTarget.path}`);
  }
  return r.sys.rec.anomalies.length > 0 || check.wrong > 0 || check.twice > 0 ? 1 : 0;
}

/** Each delivery against the message the driver sent: bytes equal, at most once. */
export function checkDeliveries(r: RtlProcessResult): { wrong: number; twice: number } {
  const { driver, rec } = r.sys;
  const seen = new Set<number>();
  let wrong = 0;
  let twice = 0;
  for (const d of rec.deliveries) {
    const m = driver.messages[d.msg];
    if (!m || d.bytes.length !== m.data.length || d.bytes.some((b, j) => b !== m.data[j])) wrong++;
    if (seen.has(d.msg)) twice++;
    seen.add(d.msg);
  }
  return { wrong, twice };
}
