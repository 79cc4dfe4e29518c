/**
 * `icemu buzzard`: the main job. A Buzzard n-cube (every unit of every node,
 * clock by clock) under Buzzard's chapter-5 workload (seed 002 §5.6–5.7:
 * uniform destinations, exponential lengths, normal inter-generation times),
 * with a progress line; then a table of mean message times (first packet and
 * last byte, from queueing), per-hop head latency and link utilisation, and a
 * VCD of one node's first cycles.
 */
import chalk from 'chalk';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { checkConfig } from '../../rtl/buzzard/config.ts';
import { CubeDriver } from '../rtl/cube_driver.ts';
import { attachEvents } from '../rtl/events.ts';
import { attachViewEvents } from '../rtl/view_events.ts';
import { attachNodeTrace } from '../rtl/node_trace.ts';
import { DEFAULT_CYCLES_PER_TICK, scheduleWorkload } from '../rtl/run_workload.ts';
import { buzzardCh5Workload, hops } from '../workloads/index.ts';
import { idealLinkUtilisation } from '../models/buzzard.ts';
import { startVcd, gtkwSignals, writeGtkw } from '../../traces/vcd/index.ts';
import { UsageError, type CommandSpec, type ParsedOptions } from '../cli/args.ts';
import { formatRate, Progress } from '../cli/progress.ts';

const spec: CommandSpec = {
  name: 'buzzard',
  summary: 'run a Buzzard n-cube, clock by clock, under the chapter-5 workload (the default job of npm start)',
  usage: 'icemu buzzard [options]',
  description: [
    'Builds a Buzzard hypercube (seed 002 ch. 5: packet buffer units, buffer RAM, crossbar,',
    'node output/input ports, arrival tracking unit, control unit, flow control units) and',
    "runs Buzzard's chapter-5 workload on it: uniform destinations, exponential message",
    'lengths, normal inter-generation times with sigma = mean/2. Time base: 1 tick = 4.5',
    'cycles (spec A1: 2 ticks per byte; 9 bit-cycles per byte on the wire).',
    'Prints mean first-packet and last-byte times from queueing, per-hop head latency and',
    'link utilisation, and writes a VCD of one node.',
  ].join('\n'),
  options: [
    { name: 'n', type: 'int', default: 6, min: 1, max: 10, description: 'cube degree' },
    { name: 'cycles', type: 'int', default: 300_000, min: 1000, max: 1_000_000_000, description: 'cycles to simulate' },
    { name: 'mean-bytes', type: 'int', default: 512, min: 1, max: 65536, description: 'mean message length (exponential), bytes' },
    { name: 'gap-ticks', type: 'int', default: 5120, min: 1, max: 100_000_000, description: 'mean inter-generation time per node, ticks (seed rates 1024..9216; 5120 is moderate)' },
    { name: 'seed', type: 'int', default: 1, min: 0, max: 2 ** 31 - 1, description: 'workload seed' },
    { name: 'routing', type: 'string', default: 'quasi-adaptive', arg: 'MODE', description: 'first-hop routing: quasi-adaptive or e-cube' },
    { name: 'strict-framing', type: 'flag', description: 'send the "10" sync after the preheader (A2: 33-cycle head latency instead of 31)' },
    { name: 'vcd', type: 'string', default: 'out/buzzard.vcd', arg: 'FILE', description: 'VCD of one node (a .gtkw save file is written beside it)' },
    { name: 'vcd-node', type: 'int', default: 0, min: 0, max: 1023, description: 'node dumped to the VCD' },
    { name: 'vcd-cycles', type: 'int', default: 2000, min: 1, max: 10_000_000, description: 'cycles dumped to the VCD, from cycle 0' },
    { name: 'no-vcd', type: 'flag', description: 'do not write a VCD' },
    { name: 'events', type: 'string', arg: 'FILE', description: 'write the event trace (JSON lines) to FILE' },
    { name: 'trace', type: 'int', default: 0, min: 0, max: 1_000_000, description: 'print this many lines of the one-line-per-cycle trace of one node' },
    { name: 'trace-node', type: 'int', default: 0, min: 0, max: 1023, description: 'node shown by --trace' },
    { name: 'trace-from', type: 'int', default: 0, min: 0, description: 'first cycle shown by --trace' },
    { name: 'quiet', short: 'q', type: 'flag', description: 'no progress line' },
  ],
  examples: ['icemu buzzard', 'icemu buzzard --n 4 --cycles 50000 --gap-ticks 1024', 'icemu buzzard --events out/run.jsonl --no-vcd'],
};

function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

function run(opts: ParsedOptions): number {
  const n = opts.n as number;
  const cycles = opts.cycles as number;
  const routing = opts.routing as string;
  if (routing !== 'quasi-adaptive' && routing !== 'e-cube') throw new UsageError(`icemu buzzard: --routing must be quasi-adaptive or e-cube (got '${routing}')`);
  const vcdNode = opts['vcd-node'] as number;
  if (vcdNode >= 1 << n) throw new UsageError(`icemu buzzard: --vcd-node must be in 0..${(1 << n) - 1} for a ${n}-cube (got ${vcdNode})`);
  const traceNode = opts['trace-node'] as number;
  if (traceNode >= 1 << n) throw new UsageError(`icemu buzzard: --trace-node must be in 0..${(1 << n) - 1} for a ${n}-cube (got ${traceNode})`);
  const cfg = checkConfig({ n, routing, strictFraming: Boolean(opts['strict-framing']) });
  const cpt = DEFAULT_CYCLES_PER_TICK;
  // Messages are generated during the first 80% of the run, so most can finish inside it.
  const genCycles = Math.floor(cycles * 0.8);
  const w = buzzardCh5Workload({ cubeDegree: n, meanBytes: opts['mean-bytes'] as number, meanGapTicks: opts['gap-ticks'] as number, durationTicks: genCycles / cpt, seed: opts.seed as number });
  const quiet = Boolean(opts.quiet);
  console.log(
    chalk.bold('icemu buzzard') +
      `: ${n}-cube (${1 << n} nodes), ${routing} routing, ${cfg.strictFraming ? 'strict' : 'seed'} framing; chapter-5 workload: ${w.messages.length} messages, mean ${opts['mean-bytes']} B, mean gap ${opts['gap-ticks']} ticks, seed ${opts.seed}; ${cycles.toLocaleString('en-US')} cycles (1 tick = ${cpt} cycles)`,
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
  if (!quiet) console.error(`elaborated ${sim.net.signals.length.toLocaleString('en-US')} signals in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  let vcd: ReturnType<typeof startVcd> | undefined;
  const vcdPath = opts['no-vcd'] ? undefined : (opts.vcd as string);
  const vcdCycles = opts['vcd-cycles'] as number;
  if (vcdPath) {
    mkdirSync(dirname(vcdPath), { recursive: true });
    vcd = startVcd(sim, vcdPath, { signals: [`node${vcdNode}.**`], stateStrings: true, comment: `icemu buzzard: node ${vcdNode} of a ${n}-cube, cycles 0..${vcdCycles}` });
    writeGtkw(vcdPath.replace(/\.vcd$/, '') + '.gtkw', {
      dumpfile: vcdPath,
      signals: gtkwSignals(vcd, [`node${vcdNode}.pbu*.inState`, `node${vcdNode}.pbu*.outState`, `node${vcdNode}.pbu*.freeRows`, `node${vcdNode}.fcu*.txBit*`, `node${vcdNode}.fcu*.rxBit*`, `node${vcdNode}.nop.state*`, `node${vcdNode}.nip.count`]),
    });
  }

  const progress = new Progress({ label: 'buzzard', total: cycles, quiet });
  const t1 = performance.now();
  const chunk = 2000;
  for (let done = 0; done < cycles; ) {
    const k = Math.min(chunk, cycles - done, vcd && done < vcdCycles ? vcdCycles - done : chunk);
    sim.step(k);
    done += k;
    if (vcd && done >= vcdCycles) {
      vcd.close();
      vcd = undefined;
    }
    progress.update(done);
  }
  progress.finish();
  const secs = (performance.now() - t1) / 1000;
  if (trace) {
    console.log(chalk.bold(`\nNode ${traceNode}, cycles ${opts['trace-from']}..${(opts['trace-from'] as number) + traceLines - 1}:`));
    for (const l of trace.lines) console.log(l);
    console.log(chalk.dim(trace.legend()));
  }
  vcd?.close();

  // ---- results
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
  const ideal = lastGen > 0 ? idealLinkUtilisation({ messages: w.messages.map((m) => ({ lengthBytes: m.bytes, hops: hops(m.src, m.dst) })), n, lastGenerationTicks: lastGen }) : NaN;
  const perHop = cfg.strictFraming ? 33 : 31;

  const row = (label: string, cyc: number, note = ''): string => `  ${label.padEnd(34)}${Number.isFinite(cyc) ? cyc.toFixed(1).padStart(10) : '       n/a'}${Number.isFinite(cyc) ? (cyc / cpt).toFixed(1).padStart(10) : ''}  ${note}`;
  console.log('');
  console.log(chalk.bold(`  ${'quantity'.padEnd(34)}${'cycles'.padStart(10)}${'ticks'.padStart(10)}`));
  console.log(row('mean message time, first packet', mean(firstTimes), `(${firstTimes.length} messages)`));
  console.log(row('mean message time, last byte', mean(lastTimes), `(${lastTimes.length} messages)`));
  console.log(row('mean per-hop head latency, 1st pkts', mean(firstHopGaps), `(${firstHopGaps.length} hops; zero load ${perHop})`));
  console.log(row('mean per-hop head latency, all pkts', mean(hopGaps), `(${hopGaps.length} hops; later packets queue behind other messages' packets)`));
  console.log(`  ${'link utilisation, measured'.padEnd(34)}${((100 * busy) / (links * cycles)).toFixed(2).padStart(9)}%  (busy cycles / (${links} links x ${cycles} cycles))`);
  console.log(`  ${'link utilisation, ideal (§5.7)'.padEnd(34)}${(100 * ideal).toFixed(2).padStart(9)}%  (2ML link ticks / (links x last generation time))`);
  console.log(`  messages: ${w.messages.length} generated, ${done.length} complete within the run${rec.anomalies.length ? chalk.yellow(`; ${rec.anomalies.length} event-bookkeeping anomalies (first: ${rec.anomalies[0]})`) : ''}`);
  console.log(`Simulated ${cycles.toLocaleString('en-US')} cycles in ${secs.toFixed(1)} s (${formatRate(cycles / Math.max(secs, 1e-9))})`);
  if (opts.events) {
    const path = opts.events as string;
    mkdirSync(dirname(path), { recursive: true });
    rec.write(path);
    console.log(`Events: ${path} (${rec.events.length} events)`);
  }
  if (vcdPath) console.log(`Waveform of node ${vcdNode}, cycles 0..${vcdCycles}: ${vcdPath} (gtkwave ${vcdPath} ${vcdPath.replace(/\.vcd$/, '')}.gtkw, or surfer ${vcdPath})`);
  return 0;
}

export const buzzardCommand = { spec, run };
