/**
 * `icemu c104 [preset]`: a network of INMOS C104 switches with T9000-style
 * endpoints and real DS-links, clock by clock (harness/rtl/c104_system.ts),
 * under a uniform random workload: every endpoint opens `--vls` virtual
 * links to random other endpoints and sends `--messages` messages of
 * `--bytes` bytes on each. Prints message times (queued to complete),
 * switch transit and per-hop head latency, and the delivery count.
 * Presets: pair-c104, chain, mesh, puma (docs/c104.md#networks).
 */
import chalk from 'chalk';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { chainNetwork, meshNetwork, pumaNetwork, MESH_ROUTINGS, type MeshRouting } from '../../rtl/c104/labelling.ts';
import { C104_POLICIES, C104_TIMINGS, C104_BUFFERS, type C104Policy, type C104Timing, type C104Buffers } from '../../rtl/c104/config.ts';
import type { NetworkSpec } from '../../rtl/c104/topology.ts';
import { makeC104System } from '../rtl/c104_system.ts';
import { Rng } from '../workloads/rng.ts';
import { attachC104Events } from '../rtl/c104_events.ts';
import type { ChannelEnd } from '../rtl/t9000_driver.ts';
import { writeTrace } from '../../traces/events/vocabulary.ts';
import { startVcd } from '../../traces/vcd/index.ts';
import { UsageError, type CommandSpec, type ParsedOptions } from '../cli/args.ts';
import { formatRate, Progress } from '../cli/progress.ts';

const PRESETS = ['pair-c104', 'chain', 'mesh', 'puma'] as const;

const spec: CommandSpec = {
  name: 'c104',
  summary: 'run a network of C104 switches and T9000 endpoints over DS-links, clock by clock',
  usage: 'icemu c104 [pair-c104|chain|mesh|puma] [options]',
  description: [
    'Builds C104 switches (32 links, interval routing, hunt groups, FIFO crossbar) joined by',
    'DS-links to each other and to T9000-style endpoints (seed 004 ch. 3-4; seed 000 for puma),',
    'and runs a uniform random workload: each endpoint opens --vls virtual links to random',
    'endpoints and sends --messages messages of --bytes bytes on each, receives posted.',
    'Presets: pair-c104 (two T9000s through one C104), chain (--switches C104s in a line),',
    'mesh (--width x --height nodes of T9000 + C104, hunt group of 4), puma (--dim cube of',
    'C104s with 4 processors each; seed 000: 6, i.e. 64 switches and 256 processors).',
  ].join('\n'),
  options: [
    { name: 'width', type: 'int', default: 3, min: 1, max: 16, description: 'mesh columns' },
    { name: 'height', type: 'int', default: 3, min: 1, max: 16, description: 'mesh rows' },
    { name: 'routing', type: 'string', default: 'x-first', arg: 'MODE', description: `mesh routing: ${MESH_ROUTINGS.join(', ')}` },
    { name: 'switches', type: 'int', default: 2, min: 1, max: 64, description: 'chain length' },
    { name: 'dim', type: 'int', default: 6, min: 1, max: 6, description: 'puma cube dimension' },
    { name: 'vls', type: 'int', default: 2, min: 1, max: 8, description: 'virtual links opened per endpoint' },
    { name: 'messages', type: 'int', default: 4, min: 1, max: 1000, description: 'messages per virtual link and direction' },
    { name: 'bytes', type: 'int', default: 64, min: 0, max: 256, description: 'message length in bytes' },
    { name: 'policy', type: 'string', default: 'fifo', arg: 'P', description: `crossbar arbitration: ${C104_POLICIES.filter((p) => p !== 'fixed-priority').join(', ')}` },
    { name: 'timing', type: 'string', default: 'thesis', arg: 'T', description: `C104 routing delay preset: ${C104_TIMINGS.join(', ')}` },
    { name: 'buffers', type: 'string', default: 'stc104', arg: 'B', description: `buffer preset: ${C104_BUFFERS.join(', ')}` },
    { name: 'cycles', type: 'int', default: 2_000_000, min: 1000, max: 1_000_000_000, description: 'cycle limit' },
    { name: 'seed', type: 'int', default: 1, min: 0, max: 2 ** 31 - 1, description: 'workload seed' },
    { name: 'events', type: 'string', arg: 'FILE', description: 'write the event trace (JSON lines) to FILE' },
    { name: 'vcd', type: 'string', arg: 'FILE', description: 'VCD of switch 0 (its routers, crossbar and link ends)' },
    { name: 'vcd-cycles', type: 'int', default: 5000, min: 1, max: 10_000_000, description: 'cycles dumped to the VCD, from cycle 0' },
    { name: 'quiet', short: 'q', type: 'flag', description: 'no progress line' },
  ],
  positionals: [{ name: 'preset', description: `network: ${PRESETS.join(', ')} (default mesh)` }],
  examples: ['icemu c104', 'icemu c104 mesh --width 4 --height 4 --bytes 32', 'icemu c104 pair-c104 --messages 20 --bytes 6', 'icemu c104 puma --dim 3'],
};

function oneOf<T extends string>(flag: string, v: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`icemu c104: --${flag} must be one of ${allowed.join(', ')} (got '${v}')`);
  return v as T;
}

function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN;
}

function run(opts: ParsedOptions, positional: string[] = []): number {
  if (positional.length > 1) throw new UsageError(`icemu c104: one preset at most (got ${positional.join(' ')})`);
  const preset = oneOf('preset', positional[0] ?? 'mesh', PRESETS);
  const routing = oneOf<MeshRouting>('routing', opts.routing as string, MESH_ROUTINGS);
  const policy = oneOf<C104Policy>('policy', opts.policy as string, C104_POLICIES.filter((p) => p !== 'fixed-priority'));
  const timing = oneOf<C104Timing>('timing', opts.timing as string, C104_TIMINGS);
  const buffers = oneOf<C104Buffers>('buffers', opts.buffers as string, C104_BUFFERS);
  const vls = opts.vls as number;
  let netSpec: NetworkSpec;
  let what: string;
  if (preset === 'pair-c104') {
    netSpec = chainNetwork(1, vls);
    what = 'two T9000s through one C104';
  } else if (preset === 'chain') {
    netSpec = chainNetwork(opts.switches as number, vls);
    what = `two T9000s through a chain of ${opts.switches} C104s`;
  } else if (preset === 'mesh') {
    const w = opts.width as number;
    const h = opts.height as number;
    if (w * h * vls > 255) throw new UsageError(`icemu c104: a ${w}x${h} mesh with --vls ${vls} needs ${w * h * vls} virtual link labels; a T9000 has at most 255`);
    netSpec = meshNetwork({ w, h, routing, labelsPerNode: vls });
    what = `${w}x${h} mesh of T9000 + C104 nodes, ${routing} routing, hunt groups of 4`;
  } else {
    const dim = opts.dim as number;
    if ((1 << dim) * 4 > 255) throw new UsageError(`icemu c104: puma --dim ${dim} has ${(1 << dim) * 4} processors; with one virtual link label each a T9000 allows at most 255 (use --dim 5 or less)`);
    netSpec = pumaNetwork(dim);
    what = `PUMA: ${1 << dim} C104s in a double ${dim}-cube, ${(1 << dim) * 4} processors`;
  }
  const T = netSpec.terminals.length;
  // Workload: each endpoint opens up to --vls channels to random other endpoints (labels permitting).
  const rand = new Rng(opts.seed as number);
  const next = netSpec.terminals.map((t) => t.label);
  const end = netSpec.terminals.map((t) => t.label + (t.labelCount ?? 1));
  const channels: [ChannelEnd, ChannelEnd][] = [];
  for (let a = 0; a < T; a++) {
    for (let tries = 0; tries < 4 * vls && next[a]! < end[a]!; tries++) {
      const b = rand.nextInt(T);
      if (b === a || next[b]! >= end[b]!) continue;
      channels.push([{ node: a, vl: next[a]!++ }, { node: b, vl: next[b]!++ }]);
    }
  }
  const quiet = Boolean(opts.quiet);
  const t0 = performance.now();
  const sys = makeC104System(netSpec, channels, { c104: { policy, timing, buffers }, workload: { preset, seed: opts.seed as number } });
  const cfg = sys.network.configs[0]!;
  console.log(
    chalk.bold('icemu c104') +
      `: ${what}; policy ${policy}, timing ${cfg.timing} (routing delay ${cfg.routingDelay} cycles), buffers ${cfg.buffers} (${cfg.inputBufferTokens} in + ${cfg.outputBufferTokens} out tokens); ${channels.length} virtual links, ${opts.messages} messages of ${opts.bytes} B each way; seed ${opts.seed}`,
  );
  let synthetic = 0;
  const c104rec = attachC104Events(sys.sim, sys.network.switches, sys.net, () => ({ msg: synthetic++, packet: 0 }));
  const start = 2500; // after DS-link start-up (ErrorReset 6.4 µs + ErrorWait 12.8 µs)
  const M = opts.messages as number;
  const bytes = opts.bytes as number;
  let sent = 0;
  for (const [a, b] of channels) {
    for (const [src, dst] of [[a, b], [b, a]] as const) {
      for (let k = 0; k < M; k++) {
        const data = Array.from({ length: bytes }, () => rand.nextInt(256));
        sys.driver.send(src.node, src.vl, data, start + k);
        sys.driver.receive(dst.node, dst.vl, start + k);
        sent++;
      }
    }
  }
  if (!quiet) console.error(`elaborated ${sys.sim.net.signals.length.toLocaleString('en-US')} signals in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  let vcd: ReturnType<typeof startVcd> | undefined;
  const vcdPath = opts.vcd as string | undefined;
  const vcdCycles = opts['vcd-cycles'] as number;
  if (vcdPath) {
    mkdirSync(dirname(vcdPath), { recursive: true });
    vcd = startVcd(sys.sim, vcdPath, { signals: [`net.${netSpec.switches[0]!.name}.**`], stateStrings: true, comment: `icemu c104 ${preset}: switch ${netSpec.switches[0]!.name}, cycles 0..${vcdCycles}` });
  }
  const cycles = opts.cycles as number;
  const progress = new Progress({ label: 'c104', total: cycles, quiet });
  const t1 = performance.now();
  let done = 0;
  while (done < cycles && sys.rec.deliveries.length < sent) {
    const k = Math.min(2000, cycles - done, vcd && done < vcdCycles ? vcdCycles - done : 2000);
    sys.sim.step(k);
    done += k;
    if (vcd && done >= vcdCycles) {
      vcd.close();
      vcd = undefined;
    }
    progress.update(done);
  }
  progress.finish();
  vcd?.close();
  const secs = (performance.now() - t1) / 1000;

  const queued = new Map(sys.driver.messages.map((m) => [m.id, m.cycle]));
  const complete = sys.rec.events.filter((e) => e.kind === 'message-complete');
  const times = complete.map((e) => e.t - queued.get(e.msg)!);
  const heads = new Map<number, number[]>();
  const transit: number[] = [];
  const headAt = new Map<string, number>();
  for (const e of c104rec.events) {
    if (e.kind === 'head-arrives') {
      heads.set(e.msg, [...(heads.get(e.msg) ?? []), e.t]);
      headAt.set(`${e.msg}@${e.unit}`, e.t);
    } else if (e.kind === 'packet-forwarded') {
      const h = headAt.get(`${e.msg}@${e.unit}`);
      if (h !== undefined) transit.push(e.t - h);
    }
  }
  const hop: number[] = [];
  for (const l of heads.values()) for (let k = 1; k < l.length; k++) hop.push(l[k]! - l[k - 1]!);
  const row = (label: string, v: number, note = ''): string => `  ${label.padEnd(40)}${Number.isFinite(v) ? v.toFixed(1).padStart(10) : '       n/a'}${Number.isFinite(v) ? (v * 10).toFixed(0).padStart(10) : ''}  ${note}`;
  console.log('');
  console.log(chalk.bold(`  ${'quantity'.padEnd(40)}${'cycles'.padStart(10)}${'ns'.padStart(10)}`));
  console.log(row('mean message time (queued to complete)', mean(times), `(${times.length} messages)`));
  console.log(row('mean switch transit (head to forwarded)', mean(transit), `(${transit.length} packet crossings)`));
  console.log(row('mean per-hop head latency (switch to switch)', mean(hop), `(${hop.length} hops)`));
  console.log(`  messages: ${sent} sent, ${sys.rec.deliveries.length} delivered${sys.rec.anomalies.length ? chalk.yellow(`; ${sys.rec.anomalies.length} bookkeeping anomalies (first: ${sys.rec.anomalies[0]})`) : ''}`);
  console.log(`Simulated ${done.toLocaleString('en-US')} cycles in ${secs.toFixed(1)} s (${formatRate(done / Math.max(secs, 1e-9))})`);
  if (opts.events) {
    const path = opts.events as string;
    mkdirSync(dirname(path), { recursive: true });
    const all = [...sys.rec.events, ...c104rec.events.map((e) => ({ ...e, msg: 0, unit: `${e.unit} (packet ${e.msg})` }))].sort((x, y) => x.t - y.t);
    writeTrace(path, sys.rec.header, all);
    console.log(`Events: ${path} (${all.length} events; switch events carry the switch-level packet number in 'unit')`);
  }
  if (vcdPath) console.log(`Waveform of switch ${netSpec.switches[0]!.name}, cycles 0..${vcdCycles}: ${vcdPath}`);
  return sys.rec.deliveries.length === sent ? 0 : 1;
}

export const c104Command = { spec, run };
