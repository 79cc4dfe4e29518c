/**
 * `icemu demo`: the foundation demo design (rtl/demo/contention.ts) run for a
 * number of cycles, printing a line-per-cycle trace excerpt and a summary, and
 * writing a VCD with a GTKWave save file beside it.
 */
import chalk from 'chalk';
import { Simulator } from '../../rtl/kernel/index.ts';
import { ContentionDemo, DEFAULT_CONTENTION } from '../../rtl/demo/contention.ts';
import { ARBITER_POLICIES, type ArbiterPolicy } from '../../rtl/lib/arbiter.ts';
import { bitString, LineTracer } from '../../traces/text/line_trace.ts';
import { UsageError, type CommandSpec, type ParsedOptions } from '../cli/args.ts';
import { INTERRUPTED } from '../cli/output-path.ts';
import { interruptedLine, runChunked, simulatedLine } from '../cli/run-loop.ts';
import { planVcd, startVcdOutput } from '../cli/vcd-output.ts';
import { checkGlobs } from '../cli/signals.ts';

const spec: CommandSpec = {
  name: 'demo',
  summary: 'the foundation demo: four requesters contend through an arbiter tree into a FIFO',
  usage: 'icemu demo [options]',
  description: [
    'Four requesters raise requests at random (seeded LFSRs), a 1-of-4 arbiter',
    '(a tree of 1-of-2 modules by default, request-to-grant latency 2 cycles as in',
    'Buzzard §5.4.3) grants one at a time into an 8-entry FIFO, and a consumer',
    'drains one entry every 3 cycles, so the FIFO fills and holds the arbiter back.',
    'Prints a one-line-per-cycle trace excerpt and a summary; writes a VCD and a',
    'GTKWave save file.',
  ].join('\n'),
  options: [
    { name: 'cycles', type: 'int', default: 1000, min: 1, max: 100_000_000, description: 'cycles to simulate' },
    { name: 'seed', type: 'int', default: 1, min: 0, max: 2 ** 31 - 1, description: 'random seed of the requesters' },
    { name: 'policy', type: 'string', default: 'tree', arg: 'NAME', description: `arbitration policy: ${ARBITER_POLICIES.join(', ')}` },
    { name: 'latency', type: 'int', default: 2, min: 0, max: 8, description: 'request-to-grant latency in cycles' },
    { name: 'vcd', type: 'string', default: 'out/demo.vcd', arg: 'FILE', description: 'VCD file to write (a .gtkw save file is written beside it)' },
    { name: 'no-vcd', type: 'flag', description: 'do not write a VCD' },
    { name: 'no-vcd-strings', type: 'flag', description: 'plain IEEE 1364 VCD: no FSM state-name string twins (a GTKWave extension)' },
    { name: 'signals', type: 'list', default: [], arg: 'GLOBS', description: 'comma-separated globs of signals to dump (default: all)' },
    { name: 'trace', type: 'int', default: 24, min: 0, max: 1_000_000, description: 'lines of the per-cycle trace to print' },
    { name: 'trace-from', type: 'int', default: 0, min: 0, description: 'first cycle of the trace excerpt' },
    { name: 'mode', type: 'string', default: 'activity', arg: 'MODE', description: 'simulator mode: activity or plain' },
    { name: 'quiet', short: 'q', type: 'flag', description: 'no progress line' },
  ],
  examples: ['icemu demo', 'icemu demo --cycles 100000 --policy round-robin --no-vcd', 'icemu demo --signals "arb.*,fifo.*" --vcd out/arb.vcd'],
};

async function run(opts: ParsedOptions): Promise<number> {
  const cycles = opts.cycles as number;
  const policy = opts.policy as string;
  if (!(ARBITER_POLICIES as readonly string[]).includes(policy)) {
    throw new UsageError(`icemu demo: --policy must be one of ${ARBITER_POLICIES.join(', ')} (got '${policy}')`);
  }
  const mode = opts.mode as string;
  if (mode !== 'activity' && mode !== 'plain') throw new UsageError(`icemu demo: --mode must be activity or plain (got '${mode}')`);
  if ((opts.trace as number) > 0 && (opts['trace-from'] as number) >= cycles) throw new UsageError(`icemu demo: --trace-from must be below --cycles (${cycles}) (got ${opts['trace-from']})`);
  // Outputs are checked before anything runs (one line naming the option, exit 2).
  const vcdPlan = opts['no-vcd'] ? undefined : planVcd('vcd', opts.vcd as string);
  const cfg = { ...DEFAULT_CONTENTION, seed: opts.seed as number, policy: policy as ArbiterPolicy, latency: opts.latency as number };
  const design = new ContentionDemo(cfg);
  const sim = new Simulator(design, { mode });
  const globs = opts.signals as string[];
  checkGlobs(sim, 'demo', 'signals', globs);
  const n = cfg.requesters;

  console.log(
    chalk.bold('icemu demo') +
      `: ${n} requesters -> 1-of-${n} ${policy} arbiter (latency ${cfg.latency}) -> FIFO of ${cfg.fifoDepth}, drained every ${cfg.drainPeriod} cycles; ${cycles.toLocaleString('en-US')} cycles, seed ${cfg.seed}`,
  );

  // Trace excerpt.
  const reqs = design.requesters;
  const from = opts['trace-from'] as number;
  const tracer = new LineTracer(
    [
      { header: `req${n - 1}..0`, width: n, value: (x) => bitString(reqs.reduce((v, r, k) => v | (x.s[r.req.i]! << k), 0), n) },
      { header: `gnt${n - 1}..0`, width: n, value: (x) => bitString(reqs.reduce((v, r, k) => v | (x.s[r.gnt.i]! << k), 0), n, 'G') },
      { header: 'push', width: 7, value: (x) => (x.s[design.mux.push.i] ? `r${x.s[design.mux.dout.i]! >> 8}#${x.s[design.mux.dout.i]! & 0xff}` : '') },
      { header: 'fifo', width: 5, value: (x) => `${x.s[design.fifo.count.i]}/${cfg.fifoDepth}` },
      { header: 'blk', width: 3, value: (x) => (x.s[design.gate.blocked.i] ? 'B' : '.') },
      { header: 'pop', width: 7, value: (x) => (x.s[design.consumer.pop.i] ? `r${x.s[design.fifo.dout.i]! >> 8}#${x.s[design.fifo.dout.i]! & 0xff}` : '') },
    ],
    (line) => console.log(line),
    { from, to: from + (opts.trace as number) - 1 },
  );
  if ((opts.trace as number) > 0) {
    if (from === 0) tracer.onCycle(sim);
    sim.observe(tracer);
  }

  let blockedCycles = 0;
  sim.observe({
    onCycle: (x) => {
      if (x.s[design.gate.blocked.i]) blockedCycles++;
    },
  });

  // The save file shows the arbitration at a glance: requests, grants, FIFO fill, back-pressure.
  const view = globs.length ? globs : ['req*.req', 'arb.gnt*', 'fifo.count', 'gate.blocked', 'consumer.pop', 'mux.dout'];
  const vcd = vcdPlan
    ? startVcdOutput(sim, vcdPlan, { signals: globs.length ? globs : undefined, stateStrings: !opts['no-vcd-strings'], comment: `icemu demo, policy ${policy}, latency ${cfg.latency}, seed ${cfg.seed}` }, view)
    : undefined;

  const run = await runChunked({ label: 'demo', total: cycles, quiet: opts.quiet as boolean, chunk: 10_000, step: (k) => sim.step(k) });
  const done = run.done;
  vcd?.close();

  console.log('');
  console.log(chalk.bold('requester  rate/256  sent  share   max wait (cycles)'));
  const total = reqs.reduce((a, r) => a + sim.peek(r.sent), 0);
  reqs.forEach((r, k) => {
    const sent = sim.peek(r.sent);
    console.log(
      `req${k}`.padEnd(11) +
        String(cfg.rates[k]).padStart(8) +
        String(sent).padStart(6) +
        `${total ? ((100 * sent) / total).toFixed(1) : '0.0'}%`.padStart(7) +
        String(sim.peek(r.maxWait)).padStart(11),
    );
  });
  console.log(
    `FIFO: ${total} pushed, ${sim.peek(design.consumer.taken)} popped, ${sim.peek(design.fifo.count)} left; arbiter held back (FIFO nearly full) ${blockedCycles} of ${done} cycles`,
  );
  if (run.interrupted) console.log(interruptedLine(run, cycles, 'the summary above is partial'));
  console.log(simulatedLine(run, 3, `${mode} mode`));
  if (vcd) console.log(`Waveform: ${vcd.path} (open with: ${vcd.openHint()})`);
  return run.interrupted ? INTERRUPTED : 0;
}

export const demoCommand = { spec, run };
