/**
 * `icemu sweep`: a latency–load curve on the Buzzard RTL (harness/batch/sweep.ts):
 * one batch run per offered rate of a traffic pattern, run in parallel on
 * worker threads, written as JSON and SVG; `--shard i/N` runs a slice for a
 * batch engine (GNU parallel, a Slurm job array) and `icemu sweep merge DIR`
 * combines the slices.
 */
import { usageOf, type CommandSpec, type ParsedOptions } from '../cli/args.ts';
import { defaultJobs, parseShard, type ShardSpec } from '../experiments/runner.ts';
import { buzzardSweep, checkSweep, DEFAULT_RATES, QUICK_SWEEP } from '../batch/sweep.ts';
import { PATTERNS, type PatternName } from '../batch/patterns.ts';
import { parseRate, resolveCube } from '../batch/setup.ts';
import { merge, runExperiment } from './experiment.ts';

const spec: CommandSpec = {
  name: 'sweep',
  summary: 'latency-load curve of a traffic pattern on the Buzzard RTL: JSON and SVG, sharded for batch engines',
  usage: 'icemu sweep [options] | icemu sweep merge <dir> [--out DIR]',
  description: [
    'Runs the Buzzard RTL once per offered rate (--rates) under a traffic pattern and measures',
    'each run over its window, as icemu buzzard --pattern does; prints the table and writes',
    '<out>/buzzard-sweep.json (parameters and every point), buzzard-sweep.latency.svg (mean',
    'and p99 latency against offered load), buzzard-sweep.throughput.svg (delivered against',
    'offered) and buzzard-sweep.run.json (wall time). Points run on worker threads (--jobs).',
    '--shard i/N runs every N-th rate from i and writes a shard file; icemu sweep merge DIR',
    'combines the shard files of one sweep into the same outputs (see the README for GNU',
    'parallel and a Slurm job array).',
  ].join('\n'),
  positionals: [{ name: 'merge <dir>', description: 'merge the shard files in <dir> instead of running' }],
  options: [
    { name: 'pattern', type: 'string', default: 'uniform', arg: 'NAME', description: `traffic pattern: ${PATTERNS.join(', ')}` },
    { name: 'rates', type: 'list', default: DEFAULT_RATES.map(String), arg: 'R,R,...', description: 'offered loads per node, link bandwidths (one link = 1 byte per 9 cycles)' },
    { name: 'n', type: 'int', min: 1, max: 10, description: "cube degree (default 3, or the --config file's)" },
    { name: 'config', type: 'string', arg: 'FILE', description: 'cube configuration: JSON file of BuzzardConfig fields or a REPL preset' },
    { name: 'routing', type: 'string', arg: 'MODE', description: 'first-hop routing: quasi-adaptive or e-cube' },
    { name: 'strict-framing', type: 'flag', description: 'send the "10" sync after the preheader (A2)' },
    { name: 'cycles', type: 'int', default: 60_000, min: 1000, max: 1_000_000_000, description: 'cycles per run (generation until 80%, the rest drains)' },
    { name: 'warmup', type: 'int', min: 0, max: 1_000_000_000, description: 'cycles before the measurement window (default 10% of --cycles)' },
    { name: 'mean-bytes', type: 'int', default: 128, min: 1, max: 65536, description: 'mean message length (exponential), bytes' },
    { name: 'hotspot', type: 'string', arg: 'F', description: 'with --pattern hotspot: fraction of messages sent to node 0 (default 0.2)' },
    { name: 'seed', type: 'int', default: 1, min: 0, max: 2 ** 31 - 1, description: 'workload seed' },
    { name: 'quick', type: 'flag', description: `a small sweep (what the tests run): ${QUICK_SWEEP.n}-cube, rates ${QUICK_SWEEP.rates.join(',')}, ${QUICK_SWEEP.cycles} cycles, mean ${QUICK_SWEEP.meanBytes} B (each unless --n, --rates, --cycles or --mean-bytes is given)` },
    { name: 'out', type: 'string', default: 'out/sweep', arg: 'DIR', description: 'output directory (for merge: default the shard directory)' },
    { name: 'jobs', short: 'j', type: 'int', default: defaultJobs(), min: 1, max: 1024, description: 'parallel worker threads (1: run in this process)' },
    { name: 'shard', type: 'string', arg: 'i/N', description: 'run only every N-th rate starting at i and write a shard file' },
    { name: 'quiet', short: 'q', type: 'flag', description: 'no progress line' },
  ],
  examples: [
    'icemu sweep --pattern transpose --rates 0.05,0.1,0.2,0.3 --n 3',
    'icemu sweep --quick --out /tmp/sw',
    'parallel icemu sweep --shard {}/4 --out shards ::: 0 1 2 3 && icemu sweep merge shards',
    "sbatch --array=0-7 --wrap 'icemu sweep --shard $SLURM_ARRAY_TASK_ID/8 --out shards'",
  ],
};

const usage = usageOf('sweep');

/** One rate of --rates (parseRate's check, its message naming --rates). */
function rateOf(text: string): number {
  try {
    return parseRate('sweep', text);
  } catch (e) {
    throw usage(`--rates: each ${(e as Error).message.replace(/^icemu sweep: --rate /, 'rate ')}`);
  }
}

async function run(opts: ParsedOptions, positionals: string[], given: ReadonlySet<string> = new Set()): Promise<number> {
  if (positionals.length) {
    if (positionals[0] === 'merge' && positionals.length === 1) throw usage('merge needs the directory of the shard files (usage: icemu sweep merge <dir> [--out DIR])');
    if (positionals[0] !== 'merge' || positionals.length !== 2) throw usage(`unexpected argument '${positionals.join(' ')}' (usage: icemu sweep [options] | icemu sweep merge <dir>)`);
    return merge(positionals[1]!, buzzardSweep.name, opts.out === spec.options.find((o) => o.name === 'out')!.default ? undefined : (opts.out as string), 'icemu sweep merge');
  }
  const quick = Boolean(opts.quick);
  const pattern = opts.pattern as string;
  if (!(PATTERNS as readonly string[]).includes(pattern)) throw usage(`--pattern must be one of ${PATTERNS.join(', ')} (got '${pattern}')`);
  const ratesGiven = (opts.rates as string[]).join(',') !== DEFAULT_RATES.join(',');
  const rates = quick && !ratesGiven ? QUICK_SWEEP.rates : (opts.rates as string[]).map(rateOf);
  if (new Set(rates).size !== rates.length) throw usage(`--rates names a rate twice (got ${(opts.rates as string[]).join(',')})`);
  if (opts.hotspot !== undefined && pattern !== 'hotspot') throw usage('--hotspot goes with --pattern hotspot');
  const { cfg } = resolveCube('sweep', { ...opts, n: (opts.n as number | undefined) ?? (opts.config === undefined ? (quick ? QUICK_SWEEP.n : 3) : undefined) });
  // --quick sets the sizes it names unless the command line gives them (as --n and --rates).
  const cycles = quick && !given.has('cycles') ? QUICK_SWEEP.cycles : (opts.cycles as number);
  let shard: ShardSpec | undefined;
  let params;
  try {
    if (opts.shard !== undefined) shard = parseShard(opts.shard as string);
    const hotspot = opts.hotspot === undefined ? 0.2 : Number(opts.hotspot);
    if (!(hotspot >= 0 && hotspot <= 1)) throw new RangeError(`--hotspot must be a fraction in 0..1 (got '${String(opts.hotspot)}')`);
    params = checkSweep({
      config: cfg,
      pattern: pattern as PatternName,
      rates,
      cycles,
      warmup: (opts.warmup as number | undefined) ?? Math.floor(cycles * 0.1),
      meanBytes: quick && !given.has('mean-bytes') ? QUICK_SWEEP.meanBytes : (opts['mean-bytes'] as number),
      seed: opts.seed as number,
      hotspot,
    });
  } catch (e) {
    if (e instanceof RangeError) throw usage(e.message);
    throw e;
  }
  return runExperiment(buzzardSweep, params, { out: opts.out as string, jobs: opts.jobs as number, shard, quiet: Boolean(opts.quiet), command: 'icemu sweep' });
}

export const sweepCommand = { spec, run };
