/**
 * `icemu c104 [preset]`: a network of INMOS C104 switches with T9000-style
 * endpoints and real DS-links, clock by clock (harness/rtl/c104_system.ts),
 * under a uniform random workload: every endpoint opens `--vls` virtual
 * links to random other endpoints and sends `--messages` messages of
 * `--bytes` bytes on each. Prints message times (queued to complete),
 * switch transit and per-hop head latency, and the delivery count.
 * Presets: pair-c104, chain, mesh, puma (docs/c104.md#networks).
 *
 * Batch options (issue 13, as for `icemu buzzard`): `--config FILE` (the
 * options as JSON, harness/cli/options-file.ts), `--pattern NAME --rate R`
 * (harness/batch/patterns.ts on the endpoint addresses, rate in DS-link
 * bandwidths: one data token of 10 bits, i.e. 1 byte per 10 cycles) with the
 * measurement window statistics of harness/batch/stats.ts, and `--json FILE`.
 * `--workload FILE` reads a trace file (harness/workloads/trace-file.ts, as
 * the REPL's `load`): trace node i is endpoint i, each pair that talks gets
 * one channel (a virtual link each way, as for --pattern), times in ticks
 * become cycles by `--cycles-per-tick` (default that of `icemu buzzard`),
 * times in cycles are taken as given; both count from the end of DS-link
 * start-up. Refused with one line: nodes beyond the endpoints, broadcasts
 * (a Buzzard feature), a message longer than a virtual link's receive area,
 * and unit 'us'.
 */
import chalk from 'chalk';
import { chainNetwork, meshNetwork, pumaNetwork, MESH_ROUTINGS, type MeshRouting } from '../../rtl/c104/labelling.ts';
import { C104_POLICIES, C104_TIMINGS, C104_BUFFERS, type C104Policy, type C104Timing, type C104Buffers } from '../../rtl/c104/config.ts';
import type { NetworkSpec } from '../../rtl/c104/topology.ts';
import { defaultRxSlots, makeC104System, nodeChannels } from '../rtl/c104_system.ts';
import { MAX_VLS } from '../../rtl/t9000/config.ts';
import { Rng } from '../workloads/rng.ts';
import { attachC104Events, switchTraceEvents } from '../rtl/c104_events.ts';
import { T9000PacketSource } from '../rtl/c104_packet_source.ts';
import type { ChannelEnd } from '../rtl/t9000_driver.ts';
import { writeTrace } from '../../traces/events/vocabulary.ts';
import { UsageError, type CommandSpec, type ParsedOptions } from '../cli/args.ts';
import { distinctOutputs, INTERRUPTED, outputFile, writeText } from '../cli/output-path.ts';
import { interruptedLine, runChunked, simulatedLine } from '../cli/run-loop.ts';
import { quantityRow } from '../cli/text.ts';
import { applyOptionsFile } from '../cli/options-file.ts';
import { planRunOutputs } from '../cli/run-outputs.ts';
import { startVcdOutput, type VcdOutput } from '../cli/vcd-output.ts';
import { patternWorkload, PATTERNS, type PatternName } from '../batch/patterns.ts';
import { csvPathFor, formatLinkSummary, formatMessageWindow } from '../batch/report.ts';
import { defaultWindow, parseFraction, parseRate } from '../batch/setup.ts';
import { linkSummary, messageWindow } from '../batch/stats.ts';
import { listFigures, RunningFigures, type ScheduledMessage } from '../rtl/c104_run_summary.ts';
import { attachC104LinkMeter, c104LinksCsv } from '../rtl/c104_links.ts';
import { toJson } from '../experiments/types.ts';
import { readFileSync } from 'node:fs';
import { parseWorkloadFile, WorkloadFileError } from '../workloads/trace-file.ts';
import { DEFAULT_CYCLES_PER_TICK } from '../rtl/run_workload.ts';
import { channelPairs as pairsOf, thesisWindowStream } from '../rtl/c104_thesis_workload.ts';
import { feedMessages } from '../rtl/c104_feed.ts';
import { runThesisSync, SYNC_CHOICES } from './c104_sync.ts';

/** Cycles a byte takes on a DS-link: one data token, 10 bits at one bit per cycle (docs/dslink.md#bit-clock). */
const DSLINK_CYCLES_PER_BYTE = 10;
/** Cycles before traffic starts: DS-link start-up (ErrorReset 6.4 µs + ErrorWait 12.8 µs). */
const START = 2500;

const PRESETS = ['pair-c104', 'chain', 'mesh', 'puma'] as const;
/** The thesis's windowed random destinations (harness/rtl/c104_thesis_workload.ts), a --pattern of this command only. */
const THESIS = 'thesis';

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
    '',
    'Batch runs: --config FILE takes these options as a JSON object ({"preset": "mesh",',
    '"width": 4, "policy": "random"}; outputs stay on the command line, which wins).',
    '--pattern with --rate replaces the workload by a traffic pattern on the endpoint',
    'addresses (a power-of-two number of endpoints; one virtual link per pair that talks;',
    'lengths exponential with mean --bytes, capped at the receive area), generated from',
    `cycle ${START} to 80% of --cycles, measured after --warmup; it prints latency mean,`,
    'p50/p95/p99, max, a histogram, throughput and saturation warnings; --json FILE saves them.',
    "--workload FILE runs a trace file (the format the REPL's load reads): trace node i is",
    'endpoint i, one virtual link per pair that talks, times from cycle 2500 (after link',
    'start-up), in ticks times --cycles-per-tick (default 4.5, as icemu buzzard) or in cycles as',
    "given; refused: nodes beyond the endpoints, broadcasts, unit 'us', and a message longer",
    "than a virtual link's receive area. Deliveries are checked byte-exact.",
    `--pattern ${THESIS} (square meshes): seed 004's Table 3.1 workload, one process per endpoint`,
    'sending a --bytes message (default 32) every --interval cycles (default 100 = 1 us) to a random',
    'endpoint within +-(--window) nodes in x and y (default 16), from a random start phase.',
    'A send that finds its virtual link\'s 16-entry send queue full waits (the sender is held)',
    'and enters the queue when a send of that virtual link completes; the summary counts them.',
    "A queued message keeps its buffer in its endpoint's 4,096-byte send area until its send is",
    'done (deliveries byte-exact at any load): a send that finds no free buffer waits too, until a',
    'send of its endpoint completes (counted apart in the summary). --width, --height and --routing',
    'go with mesh, --switches with chain, --dim with puma (refused with another preset); --events,',
    '--json (and its CSV) and --vcd must name distinct files.',
    `--pattern ${THESIS} --sync MODE runs Def. 5.1's processes closed loop instead (--processes per endpoint,`,
    'compute --interval cycles, then one message; MODE loosely, async-blocking or async, as the',
    'packet-level model: docs/c104.md#thesis-processes) and prints data packets per CPU per ms in',
    'the window after --warmup, sends attempted and dropped (async: 16 outstanding), iterations,',
    'and checks every delivery against its message (byte-exact, at most once; exit 1 otherwise).',
    '--processes N (with --sync) runs N processes per endpoint (Def. 5.1\'s n, default 1): each draws',
    'its own compute start, destinations and sizes; they share their CPU first come first served.',
    'Every run prints per-link figures over the run (with --pattern: the measurement window):',
    'for each directed DS-link, utilisation = cycles with a normal character (data, EOP, EOM;',
    'not NULL or FCT) on the wire, blocked = cycles its transmitter held a character but had',
    'no credit; one line of mean and max, and with --json the per-link CSV FILE.links.csv.',
    'Without --events no event is kept: the summary is gathered as the run goes (integer',
    'histograms for the percentiles) and waiting messages are packed, so a long run needs',
    'little more memory than its network; with --events every event is kept, as it is written.',
    'Ctrl-C stops the run at the next 2,000-cycle boundary: the partial summary and valid',
    'output files, exit 130 (a second Ctrl-C abandons the run).',
  ].join('\n'),
  options: [
    { name: 'width', type: 'int', default: 3, min: 1, max: 64, description: 'mesh columns' },
    { name: 'height', type: 'int', default: 3, min: 1, max: 64, description: 'mesh rows' },
    { name: 'routing', type: 'string', default: 'x-first', arg: 'MODE', description: `mesh routing: ${MESH_ROUTINGS.join(', ')}` },
    { name: 'switches', type: 'int', default: 2, min: 1, max: 64, description: 'chain length' },
    { name: 'dim', type: 'int', default: 6, min: 1, max: 6, description: 'puma cube dimension' },
    { name: 'vls', type: 'int', default: 2, min: 1, max: 8, description: 'virtual links opened per endpoint' },
    { name: 'messages', type: 'int', default: 4, min: 1, max: 1000, description: 'messages per virtual link and direction' },
    { name: 'bytes', type: 'int', default: 64, min: 0, max: 256, description: 'message length in bytes' },
    {
      name: 'addressing',
      type: 'string',
      arg: 'A',
      description:
        "T9000 headers: virtual-link (a header names the receiving virtual link's label; at most 255 labels in all), node (a header names the destination endpoint, the virtual link travels as a side-band tag; docs/t9000.md#addressing) or auto (default: node only when the labels do not fit)",
    },
    { name: 'policy', type: 'string', default: 'fifo', arg: 'P', description: `crossbar arbitration: ${C104_POLICIES.filter((p) => p !== 'fixed-priority').join(', ')}` },
    { name: 'timing', type: 'string', default: 'thesis', arg: 'T', description: `C104 routing delay preset: ${C104_TIMINGS.join(', ')}` },
    { name: 'buffers', type: 'string', default: 'stc104', arg: 'B', description: `buffer preset: ${C104_BUFFERS.join(', ')}` },
    { name: 'cycles', type: 'int', default: 2_000_000, min: 1000, max: 1_000_000_000, description: 'cycle limit' },
    { name: 'seed', type: 'int', default: 1, min: 0, max: 2 ** 31 - 1, description: 'workload seed' },
    { name: 'config', type: 'string', arg: 'FILE', description: 'the options as a JSON object (keys: option names and "preset"); the command line wins' },
    { name: 'workload', type: 'string', arg: 'FILE', description: "a workload trace file (as the REPL's load reads) instead of --vls/--messages/--bytes: trace node i = endpoint i, one virtual link per pair that talks; unicast only" },
    { name: 'cycles-per-tick', type: 'string', arg: 'C', description: `with --workload: cycles per tick for a trace in ticks (default ${DEFAULT_CYCLES_PER_TICK}, as icemu buzzard); a trace in cycles is taken as given` },
    { name: 'pattern', type: 'string', arg: 'NAME', description: `traffic pattern instead of --vls/--messages: ${[...PATTERNS, THESIS].join(', ')}` },
    { name: 'window', type: 'int', min: 1, max: 64, description: `with --pattern ${THESIS}: destinations within +-N nodes in x and y (default 16)` },
    { name: 'interval', type: 'int', min: 1, max: 1_000_000, description: `with --pattern ${THESIS}: cycles between a process's sends (default 100, 1 us)` },
    { name: 'sync', type: 'string', arg: 'MODE', description: `with --pattern ${THESIS}: closed-loop processes in synchronisation mode ${SYNC_CHOICES.join(', ')}` },
    { name: 'processes', type: 'int', min: 1, max: 64, description: 'with --sync: processes per endpoint (Def. 5.1\'s n, default 1)' },
    { name: 'rate', type: 'string', arg: 'R', description: 'with --pattern: offered load per endpoint, DS-link bandwidths of 1 byte per 10 cycles (default 0.1)' },
    { name: 'hotspot', type: 'string', arg: 'F', description: 'with --pattern hotspot: fraction of messages sent to endpoint 0 (default 0.2)' },
    { name: 'warmup', type: 'int', min: 0, max: 1_000_000_000, description: 'with --pattern: cycles before the measurement window (default 10% of --cycles)' },
    { name: 'json', type: 'string', arg: 'FILE', description: 'write the run summary (with --pattern the window statistics too) and the per-link figures as JSON to FILE, and the per-link CSV beside it (FILE.links.csv)' },
    { name: 'events', type: 'string', arg: 'FILE', description: 'write the event trace (JSON lines) to FILE' },
    { name: 'vcd', type: 'string', arg: 'FILE', description: 'VCD of switch 0 (its routers, crossbar and link ends)' },
    { name: 'vcd-cycles', type: 'int', default: 5000, min: 1, max: 10_000_000, description: 'cycles dumped to the VCD, from cycle 0' },
    { name: 'quiet', short: 'q', type: 'flag', description: 'no progress line' },
  ],
  positionals: [{ name: 'preset', description: `network: ${PRESETS.join(', ')} (default mesh)` }],
  examples: [
    'icemu c104',
    'icemu c104 mesh --width 4 --height 4 --bytes 32',
    'icemu c104 pair-c104 --messages 16 --bytes 6',
    'icemu c104 puma --dim 3',
    'icemu c104 mesh --width 4 --height 4 --pattern transpose --rate 0.05 --cycles 60000 --json out/t.json',
    'icemu c104 mesh --width 4 --height 4 --pattern thesis --window 2 --cycles 40000',
    'icemu c104 mesh --width 4 --height 4 --pattern thesis --window 2 --interval 500 --sync loosely --cycles 30000',
    'icemu c104 mesh --width 3 --height 3 --pattern thesis --window 1 --interval 600 --sync async-blocking --processes 2 --cycles 20000',
    'icemu c104 --config mesh.json --seed 2',
    'icemu c104 mesh --width 2 --height 2 --workload msgs.txt --cycles-per-tick 10 --json out/w.json',
  ],
};

/** Options that shape one preset's network only. */
const PRESET_OPTIONS: readonly (readonly [option: string, preset: string])[] = [
  ['width', 'mesh'],
  ['height', 'mesh'],
  ['routing', 'mesh'],
  ['switches', 'chain'],
  ['dim', 'puma'],
];

function oneOf<T extends string>(flag: string, v: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`icemu c104: --${flag} must be one of ${allowed.join(', ')} (got '${v}')`);
  return v as T;
}

/** Where the pattern's messages go: one channel (a virtual link each way) per pair of endpoints that talk. */
type PlannedMessage = { readonly id: number; readonly t: number; readonly src: number; readonly dst: number; readonly bytes: number };
interface PatternPlan {
  readonly messages: readonly PlannedMessage[];
  /** --pattern thesis: the messages drawn lazily as the run goes (harness/rtl/c104_feed.ts), `count` of them; `messages` is then empty. */
  readonly lazy?: { readonly stream: () => Iterator<PlannedMessage>; readonly count: number };
  /** Unordered pairs [a, b], a < b, in first-use order. */
  readonly pairs: readonly (readonly [number, number])[];
  /** Virtual link labels each endpoint needs (its number of partners). */
  readonly labels: number;
  readonly rate: number;
  readonly hotspot: number;
  readonly description: string;
  /** --workload: the trace file, and cycles per unit of its times. */
  readonly file?: string;
  readonly cyclesPerTick?: number;
}

/** --workload FILE: the trace's messages on the endpoints (refusals: one line each). */
function planWorkload(opts: ParsedOptions, T: number): PatternPlan {
  const file = opts.workload as string;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`icemu c104: --workload: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let w;
  try {
    w = parseWorkloadFile(text, { file });
  } catch (e) {
    if (e instanceof WorkloadFileError || e instanceof RangeError) throw new UsageError(`icemu c104: --workload: ${e.message}`);
    throw e;
  }
  if (w.unit === 'us') throw new UsageError(`icemu c104: --workload ${file}: unit 'us' is not supported; use '# unit: cycles' or ticks (with --cycles-per-tick)`);
  const cptText = opts['cycles-per-tick'] as string | undefined;
  const cpt = cptText === undefined ? DEFAULT_CYCLES_PER_TICK : Number(cptText);
  if (cptText !== undefined && (!/^[0-9.eE+]+$/.test(cptText) || !(cpt > 0 && cpt <= 1e6))) throw new UsageError(`icemu c104: --cycles-per-tick must be a number in (0, 1000000] (got '${cptText}')`);
  const scale = w.unit === 'cycles' ? 1 : cpt;
  const bc = w.messages.find((m) => m.kind === 'broadcast');
  if (bc) throw new UsageError(`icemu c104: --workload ${file}: message ${bc.id} (from node ${bc.src} at time ${bc.t}) is a broadcast; broadcast is a Buzzard feature`);
  const far = w.messages.reduce((hi, m) => Math.max(hi, m.src, m.dst), -1);
  if (far >= T) throw new UsageError(`icemu c104: --workload ${file} names node ${far}, but this network has ${T} endpoints (0..${T - 1}); trace node i is endpoint i`);
  return {
    messages: w.messages.map((m) => ({ id: m.id, t: START + Math.round(m.t * scale), src: m.src, dst: m.dst, bytes: m.bytes })),
    ...pairsOf(w.messages, T),
    rate: NaN,
    hotspot: NaN,
    file,
    cyclesPerTick: scale,
    description: `trace file ${file}: ${w.messages.length} messages (unit ${w.unit}${w.unit === 'cycles' ? '' : `, 1 tick = ${cpt} cycles`}) from cycle ${START}`,
  };
}

/** --pattern thesis: seed 004's windowed random destinations on a square mesh. */
function planThesis(opts: ParsedOptions, preset: string, genEnd: number, given: ReadonlySet<string>): PatternPlan {
  const w = opts.width as number;
  if (preset !== 'mesh' || w !== opts.height) throw new UsageError(`icemu c104: --pattern ${THESIS} runs on a square mesh (mesh --width N --height N)`);
  if (opts.rate !== undefined || opts.hotspot !== undefined) throw new UsageError(`icemu c104: --pattern ${THESIS} sends every --interval cycles; --rate and --hotspot do not apply`);
  const bytes = given.has('bytes') || opts.bytes !== 64 ? (opts.bytes as number) : 32;
  const window = (opts.window as number | undefined) ?? 16;
  const interval = (opts.interval as number | undefined) ?? 100;
  // Drawn twice, never held whole (docs/c104.md#lazy-workload): a pass for the pairs that talk, then as the run goes.
  const o = { side: w, window, intervalCycles: interval, bytes, start: START, end: genEnd, seed: opts.seed as number };
  let count = 0;
  const pairs = pairsOf((function* () {
    for (const m of thesisWindowStream(o)) {
      count++;
      yield m;
    }
  })(), w * w);
  return {
    messages: [],
    lazy: { stream: () => thesisWindowStream(o), count },
    ...pairs,
    rate: (bytes * DSLINK_CYCLES_PER_BYTE) / interval,
    hotspot: NaN,
    description: `${THESIS} pattern: every endpoint sends ${bytes} B every ${interval} cycles to a random endpoint within +-${window}: ${count} messages, seed ${opts.seed}`,
  };
}

function planPattern(opts: ParsedOptions, T: number, genEnd: number): PatternPlan {
  const pattern = opts.pattern as string;
  if (!(PATTERNS as readonly string[]).includes(pattern)) throw new UsageError(`icemu c104: --pattern must be one of ${[...PATTERNS, THESIS].join(', ')} (got '${pattern}')`);
  const n = Math.log2(T);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`icemu c104: --pattern needs a power-of-two number of endpoints; this network has ${T} (e.g. a 4x4 or 4x2 mesh)`);
  const bytes = opts.bytes as number;
  if (bytes < 1) throw new UsageError('icemu c104: --bytes (the mean message length with --pattern) must be 1 or more');
  const rate = parseRate('c104', (opts.rate as string | undefined) ?? '0.1');
  const hotspotFraction = parseFraction('c104', 'hotspot', (opts.hotspot as string | undefined) ?? '0.2');
  const w = patternWorkload({ n, pattern: pattern as PatternName, rate, meanBytes: bytes, durationCycles: genEnd - START, seed: opts.seed as number, hotspotFraction, cyclesPerByte: DSLINK_CYCLES_PER_BYTE });
  return {
    messages: w.messages.map((m) => ({ id: m.id, t: m.t + START, src: m.src, dst: m.dst, bytes: m.bytes })),
    ...pairsOf(w.messages, T),
    rate,
    hotspot: hotspotFraction,
    description: `${pattern} pattern at ${rate} DS-link bandwidths per endpoint: ${w.messages.length} messages, mean ${bytes} B, seed ${opts.seed}`,
  };
}

async function run(cmdOpts: ParsedOptions, positional: string[] = [], given: ReadonlySet<string> = new Set()): Promise<number> {
  if (positional.length > 1) throw new UsageError(`icemu c104: one preset at most (got ${positional.join(' ')})`);
  let opts = cmdOpts;
  let presetArg = positional[0];
  const named = new Set(given);
  if (cmdOpts.config !== undefined) {
    const f = applyOptionsFile(spec, cmdOpts, given, cmdOpts.config as string, { exclude: ['events', 'vcd', 'json', 'quiet'], extra: ['preset'] });
    opts = f.opts;
    presetArg ??= f.extra.preset;
    for (const k of f.keys) named.add(k);
  }
  const preset = oneOf('preset', presetArg ?? 'mesh', PRESETS);
  // An option of another preset would be ignored: refused instead.
  for (const [o, p] of PRESET_OPTIONS) if (named.has(o) && p !== preset) throw new UsageError(`icemu c104: --${o} goes with the ${p} preset, not ${preset}`);
  const routing = oneOf<MeshRouting>('routing', opts.routing as string, MESH_ROUTINGS);
  const policy = oneOf<C104Policy>('policy', opts.policy as string, C104_POLICIES.filter((p) => p !== 'fixed-priority'));
  const timing = oneOf<C104Timing>('timing', opts.timing as string, C104_TIMINGS);
  const buffers = oneOf<C104Buffers>('buffers', opts.buffers as string, C104_BUFFERS);
  const patterned = opts.pattern !== undefined;
  const traced = opts.workload !== undefined;
  if (patterned && traced) throw new UsageError('icemu c104: --workload and --pattern cannot be combined');
  for (const o of ['rate', 'hotspot', 'warmup'] as const) if (!patterned && opts[o] !== undefined) throw new UsageError(`icemu c104: --${o} goes with --pattern`);
  for (const o of ['window', 'interval'] as const) if (opts.pattern !== THESIS && opts[o] !== undefined) throw new UsageError(`icemu c104: --${o} goes with --pattern ${THESIS}`);
  if (opts.processes !== undefined && opts.sync === undefined) throw new UsageError('icemu c104: --processes goes with --sync');
  if (!traced && opts['cycles-per-tick'] !== undefined) throw new UsageError('icemu c104: --cycles-per-tick goes with --workload');
  const cycles = opts.cycles as number;
  const win = defaultWindow(cycles, opts.warmup as number | undefined);
  if (patterned && win.genEnd <= START) throw new UsageError(`icemu c104: --cycles ${cycles} is too short for --pattern: generation runs from cycle ${START} to 80% of --cycles`);
  if (win.warmup >= win.genEnd) throw new UsageError(`icemu c104: --warmup must be below ${win.genEnd} (80% of --cycles, where generation ends)`);
  if (opts.sync !== undefined) return runThesisSync(opts, given, { preset, policy, timing, buffers, routing, warmup: win.warmup, cycles });

  const addressing = oneOf('addressing', (opts.addressing as string | undefined) ?? 'auto', ['auto', 'virtual-link', 'node'] as const);
  let node = addressing === 'node';
  /** The network with `vls` labels per endpoint ('virtual-link'), or one label each (`nodeMode`). */
  const network = (labelsPerEnd: number, nodeMode = node): { netSpec: NetworkSpec; what: string } => {
    const vls = nodeMode ? 1 : labelsPerEnd;
    if (preset === 'pair-c104') return { netSpec: chainNetwork(1, vls), what: 'two T9000s through one C104' };
    if (preset === 'chain') return { netSpec: chainNetwork(opts.switches as number, vls), what: `two T9000s through a chain of ${opts.switches} C104s` };
    if (preset === 'mesh') {
      const w = opts.width as number;
      const h = opts.height as number;
      if (!nodeMode && w * h * vls > 255) throw new UsageError(`icemu c104: a ${w}x${h} mesh with ${vls} virtual links per node needs ${w * h * vls} virtual link labels; virtual-link addressing allows at most 255 (--addressing node has no such limit)`);
      return { netSpec: meshNetwork({ w, h, routing, labelsPerNode: vls }), what: `${w}x${h} mesh of T9000 + C104 nodes, ${routing} routing, hunt groups of 4` };
    }
    const dim = opts.dim as number;
    if (nodeMode) return { netSpec: pumaNetwork(dim), what: `PUMA: ${1 << dim} C104s in a double ${dim}-cube, ${(1 << dim) * 4} processors` };
    if ((1 << dim) * 4 > 255) throw new UsageError(`icemu c104: puma --dim ${dim} has ${(1 << dim) * 4} processors; with one virtual link label each, virtual-link addressing allows at most 255 (use --dim 5 or less)`);
    if (vls > 1) throw new UsageError(`icemu c104: puma gives each processor one virtual link label; this workload needs ${vls} per processor (use a pattern whose pairs talk only to each other, e.g. bit-complement, or a mesh)`);
    return { netSpec: pumaNetwork(dim), what: `PUMA: ${1 << dim} C104s in a double ${dim}-cube, ${(1 << dim) * 4} processors` };
  };

  // The workload: channels (virtual link pairs) and what is sent on them.
  let netSpec: NetworkSpec;
  let what: string;
  let plan: PatternPlan | undefined;
  const rand = new Rng(opts.seed as number);
  const channels: [ChannelEnd, ChannelEnd][] = [];
  if (patterned || traced) {
    const T = network(1, true).netSpec.terminals.length;
    plan = opts.pattern === THESIS ? planThesis(opts, preset, win.genEnd, given) : patterned ? planPattern(opts, T, win.genEnd) : planWorkload(opts, T);
    if (addressing === 'auto') node = T * plan.labels > 255;
    ({ netSpec, what } = network(plan.labels));
    const next = netSpec.terminals.map((t) => t.label);
    for (const [a, b] of plan.pairs) channels.push([{ node: a, vl: next[a]!++ }, { node: b, vl: next[b]!++ }]);
  } else {
    const vls = opts.vls as number;
    ({ netSpec, what } = network(vls));
    // Each endpoint opens up to --vls channels to random other endpoints (labels permitting).
    const T = netSpec.terminals.length;
    const next = netSpec.terminals.map((t) => t.label);
    const end = netSpec.terminals.map((t) => (node ? Infinity : t.label + (t.labelCount ?? 1)));
    for (let a = 0; a < T; a++) {
      for (let tries = 0; tries < 4 * vls && next[a]! < end[a]!; tries++) {
        const b = rand.nextInt(T);
        if (b === a || next[b]! >= end[b]!) continue;
        channels.push([{ node: a, vl: next[a]!++ }, { node: b, vl: next[b]!++ }]);
      }
    }
  }

  // A message must fit its virtual link's receive area (--pattern caps lengths; a trace is refused).
  // Addressing 'node': each end numbered by its endpoint's control blocks (first use), not by labels.
  const blocks = node ? nodeChannels(channels.map(([a, b]) => [a.node, b.node] as const), netSpec.terminals.length) : null;
  if (blocks && blocks.blocks > MAX_VLS) {
    throw new UsageError(`icemu c104: with node addressing an endpoint of this workload talks to ${blocks.blocks} partners, but a T9000 here has at most ${MAX_VLS} virtual link control blocks (shorten --cycles or narrow --window)`);
  }
  if (blocks) channels.splice(0, channels.length, ...blocks.channels);
  const L = blocks ? blocks.blocks : Math.max(...netSpec.terminals.map((t) => t.label + (t.labelCount ?? 1)));
  const cap = defaultRxSlots(L) * 32;
  const long = traced ? plan!.messages.find((m) => m.bytes > cap) : undefined;
  if (long) throw new UsageError(`icemu c104: --workload ${plan!.file}: message ${long.id} (${long.src} -> ${long.dst}, ${long.bytes} bytes) is longer than a virtual link's receive area (${cap} bytes with ${L} ${blocks ? 'control blocks' : 'labels'})`);

  // Every output is checked before the run.
  const { vcdPlan, eventsTarget, jsonTarget, csvTarget } = planRunOutputs(opts.vcd as string | undefined, opts.events as string | undefined, opts.json as string | undefined);

  const quiet = Boolean(opts.quiet);
  const t0 = performance.now();
  const sys = makeC104System(netSpec, channels, { c104: { policy, timing, buffers }, ...(node ? { t9000: { addressing: 'node' as const } } : {}), workload: { preset, seed: opts.seed as number, ...(patterned ? { pattern: opts.pattern } : {}), ...(traced ? { workloadFile: opts.workload } : {}) } });
  // A send that finds its virtual link's queue full waits (docs/c104.md#held-sends).
  sys.driver.holdWhenFull = true;
  // Without --events nothing needs the events: the summary is kept as the run goes and messages wait packed (docs/c104.md#lazy-workload).
  const keep = eventsTarget !== undefined;
  const running = keep ? null : new RunningFigures(patterned ? win.warmup : 0, patterned ? win.genEnd : Infinity, (sw, port) => sys.net?.peer[sw]![port]?.kind !== 'switch');
  if (running) {
    sys.driver.retainMessages = false;
    sys.rec.keepEvents = false;
    sys.rec.onEvent = (e, m) => running.t9000(e, m.cycle, m.size);
  }
  const send = (src: ChannelEnd, data: number[], cycle: number): number => (keep ? sys.driver.send(src.node, src.vl, data, cycle).id : sys.driver.post(src.node, src.vl, data, cycle));
  const cfg = sys.network.configs[0]!;
  const load = plan ? plan.description : `${channels.length} virtual links, ${opts.messages} messages of ${opts.bytes} B each way; seed ${opts.seed}`;
  console.log(
    chalk.bold('icemu c104') +
      `: ${what}; policy ${policy}, timing ${cfg.timing} (routing delay ${cfg.routingDelay} cycles), buffers ${cfg.buffers} (${cfg.inputBufferTokens} in + ${cfg.outputBufferTokens} out tokens); addressing ${node ? 'node' : 'virtual-link'}; ${load}`,
  );
  // Per-link figures: over the measurement window with --pattern, else over the whole run.
  const linkFrom = patterned ? win.warmup : 0;
  const linkTo = patterned ? win.genEnd : Infinity;
  const meter = attachC104LinkMeter(sys, linkFrom, linkTo);
  // With --events: switch packets linked to their T9000 packets, held links, full buffers, deadlocks (icemu view).
  const numbering = eventsTarget ? new T9000PacketSource(sys.sim, sys.net, sys.driver, sys.rec).numbering() : undefined;
  let synthetic = 0;
  const c104rec = attachC104Events(
    sys.sim,
    sys.network.switches,
    sys.net,
    numbering?.source ?? (() => ({ msg: synthetic++, packet: 0 })),
    eventsTarget ? { switchEnds: sys.network.ends, endpointEnds: sys.endpoints.map((ep) => ep.links), deadlockEvery: 2000 } : { sink: (e) => running!.switchEvent(e) },
  );
  let sent = 0;
  const scheduled: ScheduledMessage[] = [];
  if (plan) {
    const endOf = new Map<string, ChannelEnd>();
    for (const [a, b] of channels) {
      endOf.set(`${a.node}>${b.node}`, a);
      endOf.set(`${b.node}>${a.node}`, b);
    }
    const issue = (m: PlannedMessage): void => {
      const src = endOf.get(`${m.src}>${m.dst}`)!;
      const dst = endOf.get(`${m.dst}>${m.src}`)!;
      const bytes = Math.min(m.bytes, cap);
      const data = Array.from({ length: bytes }, () => rand.nextInt(256));
      const sm = { id: send(src, data, m.t), cycle: m.t, bytes };
      if (running) running.scheduled(sm);
      else scheduled.push(sm);
      sys.driver.receive(dst.node, dst.vl, m.t);
    };
    if (plan.lazy) feedMessages(sys.sim, plan.lazy.stream(), issue, START);
    else plan.messages.forEach(issue);
    sent = plan.lazy ? plan.lazy.count : plan.messages.length;
  } else {
    const M = opts.messages as number;
    const bytes = opts.bytes as number;
    for (const [a, b] of channels) {
      for (const [src, dst] of [[a, b], [b, a]] as const) {
        for (let k = 0; k < M; k++) {
          const data = Array.from({ length: bytes }, () => rand.nextInt(256));
          send(src, data, START + k);
          sys.driver.receive(dst.node, dst.vl, START + k);
          sent++;
        }
      }
    }
  }
  if (!quiet) console.error(`elaborated ${sys.sim.net.signals.length.toLocaleString('en-US')} signals in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const vcdCycles = opts['vcd-cycles'] as number;
  const vcdOut: VcdOutput | undefined = vcdPlan
    ? startVcdOutput(sys.sim, vcdPlan, { signals: [`net.${netSpec.switches[0]!.name}.**`], stateStrings: true, comment: `icemu c104 ${preset}: switch ${netSpec.switches[0]!.name}, cycles 0..${vcdCycles}` })
    : undefined;
  let vcd = vcdOut;
  const run = await runChunked({
    label: 'c104',
    total: cycles,
    quiet,
    chunk: 2000,
    marks: vcd ? [vcdCycles] : [],
    step: (k) => sys.sim.step(k),
    after: (done) => {
      running?.pass(sys.sim.cycle);
      if (vcd && done >= vcdCycles) {
        vcd.close();
        vcd = undefined;
      }
    },
    finished: () => sys.rec.summary.delivered >= sent,
  });
  vcd?.close();
  const done = run.done;

  const { means, counts } = running ? running.figures() : listFigures(sys.rec.events, c104rec.events, new Map(sys.driver.messages.map((m) => [m.id, m.cycle])));
  const row = (label: string, v: number, note = ''): string => quantityRow(40, label, v, note, (c) => (c * 10).toFixed(0).padStart(10));
  console.log('');
  console.log(chalk.bold(`  ${'quantity'.padEnd(40)}${'cycles'.padStart(10)}${'ns'.padStart(10)}`));
  console.log(row('mean message time (queued to complete)', means.messageTime, `(${counts.messages} messages)`));
  console.log(row('mean switch transit (head to forwarded)', means.switchTransit, `(${counts.crossings} packet crossings)`));
  console.log(row('mean per-hop head latency (switch to switch)', means.perHopHead, `(${counts.hops} hops)`));
  // A delivery is byte-exact when the receive area holds the bytes its message was sent with (the recorder checks each: t9000_events.ts).
  const delivered = sys.rec.summary.delivered;
  const byteExact = sys.rec.summary.byteExact;
  console.log(`  messages: ${sent} sent, ${delivered} delivered (${byteExact} byte-exact), ${sys.driver.heldCount} held (the sender waited for room in its virtual link's 16-entry send queue${sys.driver.roomHeldCount ? `, or, ${sys.driver.roomHeldCount} times, for a free buffer in its endpoint's send area` : ''})${sys.rec.anomalies.length ? chalk.yellow(`; ${sys.rec.anomalies.length} bookkeeping anomalies (first: ${sys.rec.anomalies[0]})`) : ''}`);
  // --pattern: the measurement window; --workload: the whole run.
  const bounds = { nodes: netSpec.terminals.length, cyclesPerLinkByte: DSLINK_CYCLES_PER_BYTE, from: patterned ? win.warmup : 0, to: patterned ? Math.min(win.genEnd, done) : done, runEnd: done };
  const summary = plan ? (running ? running.window(bounds) : messageWindow({ ...bounds, scheduled, events: sys.rec.events })) : undefined;
  if (summary) {
    console.log('');
    for (const l of formatMessageWindow(summary)) console.log(l);
    for (const w of summary.warnings) console.log(chalk.yellow(`  warning: ${w}`));
  }
  const links = meter.stats();
  const linkFigures = linkSummary(links);
  console.log(`${formatLinkSummary(links.length, linkFigures)}, cycles ${linkFrom}..${Math.min(linkTo, done) - 1}`);
  console.log(simulatedLine(run));
  if (jsonTarget) {
    const options = Object.fromEntries(spec.options.filter((o) => !['config', 'events', 'vcd', 'json', 'quiet'].includes(o.name)).map((o) => [o.name, opts[o.name] ?? null]));
    if (plan && patterned) Object.assign(options, { rate: plan.rate, hotspot: opts.pattern === 'hotspot' ? plan.hotspot : null });
    const doc = { format: 'icemu-c104-run/1', preset, network: what, options, configFile: opts.config ?? null, virtualLinks: channels.length, cycles: done, requestedCycles: cycles, interrupted: run.interrupted, messages: { sent, delivered, byteExact, held: sys.driver.heldCount, heldForSendArea: sys.driver.roomHeldCount }, ...(traced ? { workload: { file: plan!.file, cyclesPerTick: plan!.cyclesPerTick, startCycle: START } } : {}), means, window: summary ?? null, links: { from: linkFrom, to: Math.min(linkTo, done), summary: linkFigures, perLink: links } };
    writeText(jsonTarget, JSON.stringify(toJson(doc), null, 1) + '\n', 'json');
    if (csvTarget) writeText(csvTarget, c104LinksCsv(links), 'json');
    console.log(`Summary: ${jsonTarget.path}${csvTarget ? `, per-link CSV ${csvTarget.path}` : ''}`);
  }
  if (eventsTarget) {
    if (delivered < sent) c104rec.checkDeadlock(200); // the detector needs quiet links (docs/c104.md#view-events)
    const all = [...sys.rec.events, ...switchTraceEvents(c104rec.events, numbering?.ids)].sort((x, y) => x.t - y.t);
    writeTrace(eventsTarget, sys.rec.header, all, '--events');
    console.log(`Events: ${eventsTarget.path} (${all.length} events; switch events carry the switch-level packet number in 'unit', and their T9000 message and packet)`);
  }
  if (run.interrupted) console.log(interruptedLine(run, cycles));
  if (vcdOut) console.log(`Waveform of switch ${netSpec.switches[0]!.name}, cycles 0..${Math.min(vcdCycles, done)}: ${vcdOut.path} (${vcdOut.openHint()})`);
  if (run.interrupted) return INTERRUPTED;
  if (patterned) return 0;
  return delivered === sent && byteExact === sent ? 0 : 1;
}

export const c104Command = { spec, run };
