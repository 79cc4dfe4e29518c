/**
 * `icemu experiment`: run one named reproduction of a seed result
 * (harness/experiments/), print its table beside the seed's numbers and the
 * checks of the seed's statements, and write the result JSON and SVG plots.
 * Points run in parallel on worker threads; `--shard i/N` runs a slice for a
 * batch scheduler and `icemu experiment merge DIR` combines the slices.
 */
import chalk from 'chalk';
import { EXPERIMENTS, experimentNames, findExperiment } from '../experiments/registry.ts';
import { defaultJobs, parseShard, runPoints, shardIndices, type PointRun, type ShardSpec } from '../experiments/runner.ts';
import { buildResult, MergeError, readShards, shardFileName, writeResult, writeShard } from '../experiments/output.ts';
import { renderResult } from '../experiments/report.ts';
import type { AnyExperiment, ExperimentCliValues, ExperimentOptionName } from '../experiments/types.ts';
import { usageOf, type CommandSpec, type ParsedOptions } from '../cli/args.ts';
import { outputDir } from '../cli/output-path.ts';
import { PointProgress } from '../cli/progress.ts';
import { plural } from '../cli/text.ts';

const EXPERIMENT_OPTIONS: readonly ExperimentOptionName[] = ['messages-per-node', 'seed', 'delivery', 'model', 'rtl-reuse', 'trials', 'sizes'];

function listing(): string[] {
  const w = Math.max(...EXPERIMENTS.map((e) => e.name.length)) + 2;
  return EXPERIMENTS.map((e) => `  ${e.name.padEnd(w)}${e.summary}`);
}

const spec: CommandSpec = {
  name: 'experiment',
  summary: 'reproduce a seed figure or table: table beside the seed numbers, seed statements checked, JSON and SVG written',
  usage: 'icemu experiment <name> [options] | icemu experiment merge <dir> [options] | icemu experiment list',
  description: [
    'Experiments:',
    ...listing(),
    '',
    'Each experiment is a list of independent, deterministic points (one TLM run, RTL run',
    'or model evaluation each). They run in parallel on worker threads (--jobs, default all',
    'cores). The command prints the measured table beside the seed\'s own numbers and a',
    'verdict for each seed statement (holds / does not hold / reported), and writes into',
    '--out (default out/experiments/<name>/), each file atomically:',
    '  <name>.json         parameters, every point and result, tables, checks, plot data',
    '                      (deterministic: equal for any --jobs and for merged shards)',
    '  <name>[.<plot>].svg line plots',
    '  <name>.run.json     wall time, workers, host',
    '',
    'Batch schedulers: --shard i/N runs only points i, i+N, i+2N, ... and writes',
    '<name>.shard-<i>-of-<N>.json into --out; `icemu experiment merge DIR` (or',
    '`icemu experiment <name> --merge DIR`) checks that all N shards of one run are there,',
    'combines them and writes the same files an unsharded run writes (into --out, default',
    'DIR). A progress line goes to stderr when it is a terminal (not with --quiet or CI).',
  ].join('\n'),
  positionals: [
    { name: '<name>', description: `experiment to run (${experimentNames().join(', ')}), or merge, or list` },
    { name: '<dir>', description: 'with merge: directory holding the shard files' },
  ],
  options: [
    { name: 'quick', type: 'flag', description: 'small run (seconds; what the tests run): few messages, trials or small blocks' },
    { name: 'out', type: 'string', arg: 'DIR', description: 'output directory (default out/experiments/<name>; for merge: the shard directory)' },
    { name: 'jobs', short: 'j', type: 'int', default: defaultJobs(), min: 1, max: 1024, description: 'parallel worker threads (1: run in this process; default: all cores)' },
    { name: 'shard', type: 'string', arg: 'i/N', description: 'run only every N-th point starting at i (0 <= i < N) and write a shard file' },
    { name: 'merge', type: 'string', arg: 'DIR', description: "merge this experiment's shard files from DIR instead of running" },
    { name: 'messages-per-node', type: 'int', min: 1, max: 100_000, description: 'buzzard-fig5.*: messages generated per node (default 200 for exp(512), 100 for exp(2048); --quick 8 / 4); buzzard-ch5-light: the same (default 200, --quick 16); buzzard-ch4: per node and figure (default 40, --quick 4)' },
    { name: 'seed', type: 'int', min: 0, max: 2 ** 31 - 1, description: 'buzzard-fig5.*, buzzard-ch5-light, buzzard-ch4, buzzard-collisions, buzzard-sweep, c104-ch5, c104-ch6, c104-starvation, c104-saturation, c104-variability, c104-bursts: random seed of the workload (default 1)' },
    { name: 'delivery', type: 'string', arg: 'MODE', description: 'buzzard-fig5.*: per-link (the default: each link delivers on its own, docs/buzzard-ch5.md) or shared-port (one node input port per node), for both schemes, or wormhole=MODE,packet=MODE' },
    { name: 'model', type: 'string', arg: 'MODEL', description: 'buzzard-fig5.*: tlm (the seed-level TLM, default) or rtl (the RTL beside the RTL-calibrated and the seed-level TLM on the same workload; 16 / 8 messages per node by default, --quick 2 / 1; points the RTL cannot build, such as wormhole, use the calibrated TLM)' },
    { name: 'rtl-reuse', type: 'string', arg: 'DIR', description: "buzzard-fig5.* with --model rtl: take a point's RTL result from an earlier RTL-mode run's shard or result files in DIR (same seed, messages per node, workload, build and RTL version; a result of another RTL version runs again) instead of running the RTL again; the TLM columns always run" },
    { name: 'trials', type: 'int', min: 1, max: 100_000_000, description: 'buzzard-collisions: TLM message pairs per (n, routing) (default 100000; --quick 1500)' },
    { name: 'sizes', type: 'list', arg: 'S,S,...', description: "nbl-testjig: block sizes in doubles, increasing (default the seed's 60,120,300,600; --quick 6,12,30,60); dslink-bandwidth: message sizes in bytes, increasing (default 1..128); c104-transit: message sizes m in bytes, 0..256 (default 0..6)" },
    { name: 'quiet', short: 'q', type: 'flag', description: 'no progress line' },
  ],
  examples: [
    'icemu experiment list',
    'icemu experiment buzzard-fig5.12',
    'icemu experiment buzzard-fig5.13 --quick --out /tmp/f513',
    'icemu experiment buzzard-fig5.12 --delivery per-link --messages-per-node 500',
    'icemu experiment buzzard-fig5.12 --model rtl --jobs 2',
    'icemu experiment nbl-testjig --sizes 30,60,120,300,600,1200',
    'for i in 0 1 2 3; do icemu experiment buzzard-fig5.15 --shard $i/4 --out shards & done; wait; icemu experiment merge shards',
    'sbatch --array=0-7 --wrap \'icemu experiment buzzard-fig5.15 --shard $SLURM_ARRAY_TASK_ID/8 --out shards\'',
    'parallel icemu experiment buzzard-collisions --shard {}/8 --out shards ::: 0 1 2 3 4 5 6 7',
    '(Kubernetes indexed job: --shard $JOB_COMPLETION_INDEX/N)',
  ],
};

const usage = usageOf('experiment');

function cliValues(exp: AnyExperiment, opts: ParsedOptions): ExperimentCliValues {
  for (const o of EXPERIMENT_OPTIONS) {
    const v = opts[o];
    const given = Array.isArray(v) ? v.length > 0 : v !== undefined;
    if (given && !exp.options.includes(o)) {
      const takers = EXPERIMENTS.filter((e) => e.options.includes(o)).map((e) => e.name);
      throw usage(`--${o} does not apply to ${exp.name} (it applies to ${takers.join(', ')})`);
    }
  }
  const sizesRaw = opts.sizes as string[] | undefined;
  let sizes: number[] | undefined;
  if (sizesRaw && sizesRaw.length) {
    sizes = sizesRaw.map((s) => {
      if (!/^\d+$/.test(s)) throw usage(`--sizes must be whole numbers separated by commas (got '${sizesRaw.join(',')}')`);
      return Number(s);
    });
  }
  return {
    quick: Boolean(opts.quick),
    messagesPerNode: opts['messages-per-node'] as number | undefined,
    seed: opts.seed as number | undefined,
    delivery: opts.delivery as string | undefined,
    model: opts.model as string | undefined,
    rtlReuse: opts['rtl-reuse'] as string | undefined,
    trials: opts.trials as number | undefined,
    sizes,
  };
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function summarise(runs: readonly PointRun[]): { pointWallMs: number; slowestPointMs: number } {
  return { pointWallMs: runs.reduce((a, r) => a + r.wallMs, 0), slowestPointMs: runs.reduce((a, r) => Math.max(a, r.wallMs), 0) };
}

/** Merge the shard files in dir (optionally one experiment's) and write the results into out (default dir). */
export function merge(dir: string, only: string | undefined, out: string | undefined, command = 'icemu experiment merge'): number {
  let merged;
  try {
    merged = readShards(dir, only);
  } catch (e) {
    if (e instanceof MergeError) {
      console.error(`${command}: ${e.message}`);
      return e.usage ? 2 : 1;
    }
    throw e;
  }
  const target = outputDir('out', out ?? dir);
  for (const m of merged) {
    const result = buildResult(m.exp, m.params, m.runs);
    console.log(renderResult(result));
    const files = writeResult(target, result, { wallMs: m.slowestShardMs, jobs: m.jobs, shards: m.shardFiles.length, ...summarise(m.runs) });
    console.log('');
    console.log(`Merged ${m.shardFiles.length} shard files (${m.runs.length} points; shards took ${secs(m.shardWallMs)} in total, the slowest ${secs(m.slowestShardMs)}).`);
    console.log(`Wrote ${files.join(', ')}`);
  }
  return 0;
}

async function run(opts: ParsedOptions, positionals: string[]): Promise<number> {
  const [name, ...rest] = positionals;
  if (name === undefined) throw usage(`name an experiment (experiments: ${experimentNames().join(', ')}; or merge DIR, list)`);
  if (name === 'list') {
    if (rest.length) throw usage(`list takes no arguments (got '${rest.join(' ')}')`);
    console.log(['Experiments:', ...listing()].join('\n'));
    return 0;
  }
  const out = opts.out as string | undefined;
  if (name === 'merge') {
    if (rest.length !== 1) throw usage(`merge needs one directory (usage: icemu experiment merge <dir> [--out DIR])`);
    if (opts.shard !== undefined || opts.merge !== undefined) throw usage('merge takes no --shard or --merge');
    return merge(rest[0]!, undefined, out);
  }
  const exp = findExperiment(name);
  if (!exp) throw usage(`unknown experiment '${name}' (experiments: ${experimentNames().join(', ')})`);
  if (rest.length) throw usage(`unexpected argument '${rest[0]}' after ${name}`);
  const cli = cliValues(exp, opts);
  if (opts.merge !== undefined) {
    if (opts.shard !== undefined) throw usage('--merge and --shard cannot be combined');
    return merge(opts.merge as string, exp.name, out);
  }
  let shard: ShardSpec | undefined;
  let params: unknown;
  try {
    if (opts.shard !== undefined) shard = parseShard(opts.shard as string);
    params = exp.params(cli);
  } catch (e) {
    if (e instanceof RangeError) throw usage(`${exp.name}: ${e.message}`);
    throw e;
  }
  return runExperiment(exp, params, { out: out ?? `out/experiments/${exp.name}`, jobs: opts.jobs as number, shard, quiet: Boolean(opts.quiet), command: 'icemu experiment' });
}

export interface ExperimentRunOptions {
  readonly out: string;
  readonly jobs: number;
  readonly shard: ShardSpec | undefined;
  readonly quiet: boolean;
  /** How the command is called, for the merge hint (`icemu experiment`, `icemu sweep`). */
  readonly command: string;
}

/** Run an experiment's points (all, or one shard) on worker threads and write the result or the shard file. */
export async function runExperiment(exp: AnyExperiment, params: unknown, o: ExperimentRunOptions): Promise<number> {
  const { jobs, shard } = o;
  const dir = outputDir('out', o.out);
  const total = exp.points(params).length;
  const indices = shardIndices(total, shard);
  const t0 = performance.now();
  const progress = new PointProgress(shard ? `${exp.name} shard ${shard.index}/${shard.count}` : exp.name, o.quiet);
  const runs = await runPoints(exp, params, indices, { jobs, onPoint: (done, n) => progress.update(done, n) });
  progress.finish();
  const wallMs = performance.now() - t0;
  const used = Math.max(1, Math.min(jobs, indices.length));
  if (shard) {
    const file = writeShard(dir, exp, params, shard, runs, { wallMs, jobs: used });
    console.log(`${chalk.bold(`${o.command} ${exp.name}`)} shard ${shard.index}/${shard.count}: ${runs.length} of ${total} points in ${secs(wallMs)} on ${used} worker${used === 1 ? '' : 's'}`);
    console.log(`Wrote ${file} (${shardFileName(exp.name, shard)}); when all ${shard.count} shards are done: ${o.command} merge ${dir}`);
    return 0;
  }
  const result = buildResult(exp, params, runs);
  console.log(renderResult(result));
  const info = { wallMs, jobs: used, ...summarise(runs) };
  const files = writeResult(dir, result, info);
  console.log('');
  console.log(
    `${plural(total, 'point')} in ${secs(wallMs)} on ${used} worker${used === 1 ? '' : 's'} (points took ${secs(info.pointWallMs)} in total, the slowest ${secs(info.slowestPointMs)}).`,
  );
  console.log(`Wrote ${files.join(', ')}`);
  return 0;
}

export const experimentCommand = { spec, run };
