/**
 * `icemu buzzard`: the main job. A Buzzard n-cube (every unit of every node,
 * clock by clock) under Buzzard's chapter-5 workload (seed 002 §5.6–5.7:
 * uniform destinations, exponential lengths, normal inter-generation times),
 * a trace file (--workload) or a synthetic pattern (--pattern, --rate), on
 * the default cube or one from --config; with a progress line. Then a table
 * of mean message times, per-hop head latency and link utilisation, the
 * statistics of the measurement window (harness/batch/), optionally the JSON
 * summary and per-link CSV, and a VCD of one node where it carries traffic.
 */
import chalk from 'chalk';
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { CubeDriver } from '../rtl/cube_driver.ts';
import { attachEvents } from '../rtl/events.ts';
import { attachViewEvents } from '../rtl/view_events.ts';
import { attachNodeTrace } from '../rtl/node_trace.ts';
import { scheduleWorkload } from '../rtl/run_workload.ts';
import { hops } from '../workloads/index.ts';
import { idealLinkUtilisation } from '../models/buzzard.ts';
import { UsageError, type CommandSpec, type ParsedOptions } from '../cli/args.ts';
import { distinctOutputs, INTERRUPTED, outputFile, writeText } from '../cli/output-path.ts';
import { interruptedLine, runChunked, simulatedLine } from '../cli/run-loop.ts';
import { checkGlobs } from '../cli/signals.ts';
import { plural, quantityRow } from '../cli/text.ts';
import { mean } from '../compare/stats.ts';
import { planRunOutputs } from '../cli/run-outputs.ts';
import { startVcdOutput, type VcdOutput } from '../cli/vcd-output.ts';
import { PATTERNS } from '../batch/patterns.ts';
import { csvPathFor, formatSummary, linksCsv } from '../batch/report.ts';
import { defaultWindow, resolveCube, resolveWorkload } from '../batch/setup.ts';
import { linkCounters, summarise } from '../batch/stats.ts';
import { toJson } from '../experiments/types.ts';

const spec: CommandSpec = {
  name: 'buzzard',
  summary: 'the main job (npm start): a Buzzard n-cube, clock by clock, under the chapter-5 workload, a trace file or a traffic pattern',
  usage: 'icemu buzzard [options]',
  description: [
    'Builds a Buzzard hypercube (seed 002 ch. 5: packet buffer units, buffer RAM, crossbar,',
    'node output/input ports, arrival tracking unit, control unit, flow control units) and',
    "runs a workload on it: by default Buzzard's chapter-5 workload (uniform destinations,",
    'exponential message lengths, normal inter-generation times with sigma = mean/2; time',
    'base 1 tick = 4.5 cycles, docs/readings.md A1); or a trace file (--workload, the format',
    "the REPL's load reads); or a pattern (--pattern with --rate: offered load per node in",
    'link bandwidths, one link = 1 byte per 9 cycles; Poisson generation, exponential lengths).',
    'The cube: the defaults, or --config FILE (a JSON file of BuzzardConfig fields, or a REPL',
    'preset name), with --n, --routing and --strict-framing applied on top.',
    'Messages are generated until 80% of --cycles (the rest drains). Statistics cover the',
    'measurement window from --warmup to the end of generation: latency mean, p50/p95/p99,',
    'max and a histogram; first-packet latency; offered and delivered load; per-link',
    'utilisation and blocked fractions; warnings when the offered load is not delivered or',
    'the means still grow. --json FILE saves all of it, and the per-link CSV beside it.',
    'The VCD shows one node from where it first carries traffic (or --vcd-from).',
  ].join('\n'),
  options: [
    { name: 'n', type: 'int', min: 1, max: 10, description: 'cube degree (default 6, or the --config file\'s)' },
    { name: 'config', type: 'string', arg: 'FILE', description: 'cube configuration: JSON file of BuzzardConfig fields or a preset (as icemu repl takes)' },
    { name: 'cycles', type: 'int', default: 300_000, min: 1000, max: 1_000_000_000, description: 'cycles to simulate' },
    { name: 'warmup', type: 'int', min: 0, max: 1_000_000_000, description: 'cycles before the measurement window (default 10% of --cycles)' },
    { name: 'workload', type: 'string', arg: 'FILE', description: 'a workload trace file (as the REPL\'s load reads) instead of the chapter-5 workload' },
    { name: 'pattern', type: 'string', arg: 'NAME', description: `traffic pattern instead of the chapter-5 workload: ${PATTERNS.join(', ')}` },
    { name: 'rate', type: 'string', arg: 'R', description: 'with --pattern: offered load per node, link bandwidths (default 0.1)' },
    { name: 'hotspot', type: 'string', arg: 'F', description: 'with --pattern hotspot: fraction of messages sent to node 0 (default 0.2)' },
    { name: 'mean-bytes', type: 'int', default: 512, min: 1, max: 65536, description: 'mean message length (exponential), bytes' },
    { name: 'gap-ticks', type: 'int', default: 5120, min: 1, max: 100_000_000, description: 'chapter-5 workload: mean inter-generation time per node, ticks (seed rates 1024..9216)' },
    { name: 'seed', type: 'int', default: 1, min: 0, max: 2 ** 31 - 1, description: 'workload seed' },
    { name: 'routing', type: 'string', arg: 'MODE', description: 'first-hop routing: quasi-adaptive or e-cube (default quasi-adaptive, or the config\'s)' },
    { name: 'strict-framing', type: 'flag', description: 'send the "10" sync after the preheader (A2: 33-cycle head latency instead of 31)' },
    { name: 'json', type: 'string', arg: 'FILE', description: 'write the whole summary as JSON to FILE and the per-link CSV beside it (FILE.links.csv)' },
    { name: 'vcd', type: 'string', default: 'out/buzzard.vcd', arg: 'FILE', description: 'VCD of one node (a .gtkw save file is written beside it)' },
    { name: 'vcd-node', type: 'int', default: 0, min: 0, max: 1023, description: 'node dumped to the VCD' },
    { name: 'vcd-from', type: 'int', min: 0, description: 'first cycle dumped (default: where the first message from or to the node starts)' },
    { name: 'vcd-cycles', type: 'int', default: 2000, min: 1, max: 10_000_000, description: 'cycles dumped to the VCD' },
    { name: 'signals', type: 'list', default: [], arg: 'GLOBS', description: 'signals dumped, comma-separated globs over full names (default node<vcd-node>.**)' },
    { name: 'no-vcd', type: 'flag', description: 'do not write a VCD' },
    { name: 'no-vcd-strings', type: 'flag', description: 'plain IEEE 1364 VCD: no FSM state-name string twins (a GTKWave extension)' },
    { name: 'events', type: 'string', arg: 'FILE', description: 'write the event trace (JSON lines) to FILE' },
    { name: 'trace', type: 'int', default: 0, min: 0, max: 1_000_000, description: 'print this many lines of the one-line-per-cycle trace of one node' },
    { name: 'trace-node', type: 'int', default: 0, min: 0, max: 1023, description: 'node shown by --trace' },
    { name: 'trace-from', type: 'int', default: 0, min: 0, description: 'first cycle shown by --trace' },
    { name: 'quiet', short: 'q', type: 'flag', description: 'no progress line' },
  ],
  examples: [
    'icemu buzzard',
    'icemu buzzard --n 4 --cycles 50000 --gap-ticks 1024',
    'icemu buzzard --n 4 --pattern transpose --rate 0.2 --json out/t.json --no-vcd',
    'icemu buzzard --config my-cube.json --workload msgs.txt --events out/run.jsonl',
  ],
};

async function run(opts: ParsedOptions): Promise<number> {
  const cycles = opts.cycles as number;
  const { cfg, source } = resolveCube('buzzard', opts);
  const n = cfg.n;
  const vcdNode = opts['vcd-node'] as number;
  if (vcdNode >= 1 << n) throw new UsageError(`icemu buzzard: --vcd-node must be in 0..${(1 << n) - 1} for a ${n}-cube (got ${vcdNode})`);
  const traceNode = opts['trace-node'] as number;
  if (traceNode >= 1 << n) throw new UsageError(`icemu buzzard: --trace-node must be in 0..${(1 << n) - 1} for a ${n}-cube (got ${traceNode})`);
  const win = defaultWindow(cycles, opts.warmup as number | undefined);
  if (win.warmup >= win.genEnd) throw new UsageError(`icemu buzzard: --warmup must be below ${win.genEnd} (80% of --cycles, where generation ends)`);
  // A window that starts past the run would give an empty trace or waveform after the whole run.
  if ((opts.trace as number) > 0 && (opts['trace-from'] as number) >= cycles) throw new UsageError(`icemu buzzard: --trace-from must be below --cycles (${cycles}) (got ${opts['trace-from']})`);
  if (!opts['no-vcd'] && opts['vcd-from'] !== undefined && (opts['vcd-from'] as number) >= cycles) throw new UsageError(`icemu buzzard: --vcd-from must be below --cycles (${cycles}) (got ${opts['vcd-from']})`);
  if (opts.hotspot !== undefined && opts.pattern !== 'hotspot') throw new UsageError('icemu buzzard: --hotspot goes with --pattern hotspot');
  const choice = resolveWorkload('buzzard', opts, n, win.genEnd);
  const w = choice.workload;
  const cpt = choice.cpt;
  // Outputs are checked before the run (one line naming the option, exit 2).
  const { vcdPlan, eventsTarget, jsonTarget, csvTarget } = planRunOutputs(opts['no-vcd'] ? undefined : (opts.vcd as string), opts.events as string | undefined, opts.json as string | undefined);
  const quiet = Boolean(opts.quiet);
  console.log(
    chalk.bold('icemu buzzard') +
      `: ${n}-cube (${1 << n} nodes, config ${source}), ${cfg.routing} routing, ${cfg.strictFraming ? 'strict' : 'seed'} framing; ${choice.description}; ${cycles.toLocaleString('en-US')} cycles${cpt !== 1 ? ` (1 tick = ${cpt} cycles)` : ''}`,
  );

  const t0 = performance.now();
  const cube = new BuzzardCube(cfg);
  const sim = new Simulator(cube);
  const driver = new CubeDriver(sim, cube);
  const sched = scheduleWorkload(driver, w, { cyclesPerTick: cpt });
  const rec = attachEvents(sim, cube, driver);
  if (opts.events) attachViewEvents(sim, cube, rec.events); // link/buffer/deadlock states for icemu view
  const traceLines = opts.trace as number;
  const trace = traceLines > 0 ? attachNodeTrace(sim, cube, traceNode, { events: rec, from: opts['trace-from'] as number, to: (opts['trace-from'] as number) + traceLines - 1 }) : undefined;

  // The VCD window: from --vcd-from, or from the first message that starts or ends at the node.
  const p = `node${vcdNode}`;
  const globs = (opts.signals as string[]).length ? (opts.signals as string[]) : [`${p}.**`];
  if (vcdPlan) checkGlobs(sim, 'buzzard', 'signals', globs);
  if (!quiet) console.error(`elaborated ${sim.net.signals.length.toLocaleString('en-US')} signals in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const firstAtNode = sched.find((m) => w.messages[m.id]!.src === vcdNode || w.messages[m.id]!.dst === vcdNode);
  const vcdFrom = (opts['vcd-from'] as number | undefined) ?? (firstAtNode ? Math.max(0, firstAtNode.cycle - 10) : 0);
  const vcdCycles = opts['vcd-cycles'] as number;
  const vcdTo = Math.min(cycles, vcdFrom + vcdCycles);
  const view = (opts.signals as string[]).length ? globs : [`${p}.pbu*.inState`, `${p}.pbu*.outState`, `${p}.pbu*.freeRows`, `${p}.fcu*.txBit*`, `${p}.fcu*.rxBit*`, `${p}.nop.state*`, `${p}.nip.count`];
  let vcd: VcdOutput | undefined;
  let vcdOut: VcdOutput | undefined;

  let atFrom: Float64Array | undefined;
  const run = await runChunked({
    label: 'buzzard',
    total: cycles,
    quiet,
    chunk: 2000,
    // Stop at every boundary that matters: the warm-up end, the VCD window's start and end.
    marks: [win.warmup, ...(vcdPlan ? [vcdFrom, vcdTo] : [])],
    step: (k) => sim.step(k),
    before: (ran) => {
      if (ran === win.warmup) atFrom = linkCounters(sim, cube);
      if (vcdPlan && !vcdOut && ran === vcdFrom && vcdFrom < cycles) {
        vcdOut = vcd = startVcdOutput(sim, vcdPlan, { signals: globs, stateStrings: !opts['no-vcd-strings'], comment: `icemu buzzard: node ${vcdNode} of a ${n}-cube, cycles ${vcdFrom}..${vcdTo}` }, view);
      }
    },
    after: (ran) => {
      if (vcd && ran >= vcdTo) {
        vcd.close();
        vcd = undefined;
      }
    },
  });
  const ran = run.done;
  if (trace) {
    console.log(chalk.bold(`\nNode ${traceNode}, cycles ${opts['trace-from']}..${(opts['trace-from'] as number) + traceLines - 1}:`));
    for (const l of trace.lines) console.log(l);
    console.log(chalk.dim(trace.legend()));
  }
  vcd?.close();

  // ---- the chapter-5 table
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const heads = new Map<string, number[]>();
  for (const e of rec.events) {
    if (e.kind === 'first-packet-delivered' && !first.has(e.msg)) first.set(e.msg, e.t);
    else if (e.kind === 'message-complete') last.set(e.msg, e.t);
    else if (e.kind === 'head-arrives' && e.unit?.startsWith('pbu')) {
      const key = `${e.msg}.${e.packet ?? 0}`;
      const l = heads.get(key);
      if (l) l.push(e.t);
      else heads.set(key, [e.t]);
    }
  }
  const done = sched.filter((m) => last.has(m.id));
  const firstTimes = done.filter((m) => first.has(m.id)).map((m) => first.get(m.id)! - m.cycle);
  const lastTimes = done.map((m) => last.get(m.id)! - m.cycle);
  const hopGaps: number[] = [];
  const firstHopGaps: number[] = [];
  for (const [key, l] of heads) {
    for (let k = 1; k < l.length; k++) {
      hopGaps.push(l[k]! - l[k - 1]!);
      if (key.endsWith('.0')) firstHopGaps.push(l[k]! - l[k - 1]!);
    }
  }
  let busy = 0;
  for (const node of cube.nodes) for (const f of node.fcus) busy += sim.peek(f.busyCycles);
  const links = n * (1 << n);
  const lastGen = w.messages.length ? w.messages[w.messages.length - 1]!.t : 0;
  const perHop = cfg.strictFraming ? 33 : 31;

  const row = (label: string, cyc: number, note = ''): string => quantityRow(34, label, cyc, note, cpt !== 1 ? (c) => (c / cpt).toFixed(1).padStart(10) : undefined);
  console.log('');
  console.log(chalk.bold(`  ${'quantity'.padEnd(34)}${'cycles'.padStart(10)}${cpt !== 1 ? 'ticks'.padStart(10) : ''}`));
  console.log(row('mean message time, first packet', mean(firstTimes), `(${plural(firstTimes.length, 'message')})`));
  console.log(row('mean message time, last byte', mean(lastTimes), `(${plural(lastTimes.length, 'message')})`));
  console.log(row('mean per-hop head latency, 1st pkts', mean(firstHopGaps), `(${plural(firstHopGaps.length, 'hop')}; zero load ${perHop})`));
  console.log(row('mean per-hop head latency, all pkts', mean(hopGaps), `(${plural(hopGaps.length, 'hop')}; later packets queue behind other messages' packets)`));
  console.log(`  ${'link utilisation, measured'.padEnd(34)}${((100 * busy) / (links * Math.max(ran, 1))).toFixed(2).padStart(9)}%  (busy cycles / (${links} links x ${ran} cycles))`);
  if (choice.kind === 'ch5' && lastGen > 0) {
    const ideal = idealLinkUtilisation({ messages: w.messages.map((m) => ({ lengthBytes: m.bytes, hops: hops(m.src, m.dst) })), n, lastGenerationTicks: lastGen });
    console.log(`  ${'link utilisation, ideal (§5.7)'.padEnd(34)}${(100 * ideal).toFixed(2).padStart(9)}%  (2ML link ticks / (links x last generation time))`);
  }
  console.log(`  messages: ${w.messages.length} generated, ${done.length} complete within the run${rec.anomalies.length ? chalk.yellow(`; ${plural(rec.anomalies.length, 'event-bookkeeping anomaly', 'event-bookkeeping anomalies')} (first: ${rec.anomalies[0]})`) : ''}`);

  // ---- the measurement window
  const summary = summarise({
    n,
    scheduled: sched.map((m) => ({ id: m.id, cycle: m.cycle, bytes: w.messages[m.id]!.bytes })),
    events: rec.events,
    from: win.warmup,
    to: Math.min(win.genEnd, ran),
    runEnd: ran,
    countersAtFrom: atFrom ?? linkCounters(sim, cube),
    countersAtEnd: linkCounters(sim, cube),
  });
  console.log('');
  if (atFrom) for (const l of formatSummary(summary)) console.log(l);
  else console.log(chalk.yellow(`  no measurement window: the run stopped before the warm-up ended (cycle ${win.warmup})`));
  if (run.interrupted) console.log(interruptedLine(run, cycles));
  console.log(simulatedLine(run));
  if (jsonTarget) {
    const doc = { format: 'icemu-buzzard-run/1', config: cfg, configSource: source, workload: { ...choice.workload.params, name: w.name, seed: w.seed, unit: w.unit, messages: w.messages.length }, cycles: ran, requestedCycles: cycles, interrupted: run.interrupted, cyclesPerTick: cpt, summary };
    writeText(jsonTarget, JSON.stringify(toJson(doc), null, 1) + '\n', 'json');
    if (csvTarget) writeText(csvTarget, linksCsv(summary), 'json');
    console.log(`Summary: ${jsonTarget.path}${csvTarget ? `, per-link CSV ${csvTarget.path}` : ''}`);
  }
  if (eventsTarget) {
    rec.write(eventsTarget, '--events');
    console.log(`Events: ${eventsTarget.path} (${plural(rec.events.length, 'event')})`);
  }
  if (vcdOut) console.log(`Waveform of node ${vcdNode}, cycles ${vcdFrom}..${Math.min(vcdTo, ran)}: ${vcdOut.path} (${vcdOut.openHint()})`);
  else if (vcdPlan) console.log(`No waveform: the run stopped before cycle ${vcdFrom} (--vcd-from)`);
  return run.interrupted ? INTERRUPTED : 0;
}

export const buzzardCommand = { spec, run };
