/**
 * `icemu compare <preset>`: run two levels of the Buzzard model (or, for the
 * c104-* presets, of the C104/T9000 network) on one workload (RTL vs its
 * zero-load closed form, or RTL vs TLM), join their
 * event traces per message (harness/compare), print the deviation table and
 * the systematic differences, write the JSON report, and exit 1 when a
 * declared tolerance is exceeded.
 */
import { join } from 'node:path';
import { writeTrace } from '../../traces/events/vocabulary.ts';
import { UsageError, type CommandSpec, type ParsedOptions } from '../cli/args.ts';
import { findPreset, PRESETS, PRESET_NAMES, type Preset } from '../compare/presets.ts';
import { formatReport, toJson } from '../compare/report.ts';
import { outputDir, outputFile, writeText } from '../cli/output-path.ts';

const spec: CommandSpec = {
  name: 'compare',
  summary: 'join RTL and model event traces per message and check the deviations against declared tolerances',
  usage: 'icemu compare <preset> [options]',
  description: [
    'Runs a preset: one seeded workload on two sides (A = the RTL, clock by clock; B = a',
    'closed form or the transaction-level model), joins their event traces by message id',
    'and prints, per metric, the mean and percentiles of the deviation B − A in cycles',
    '(ticks are mapped at 1 tick = 4.5 cycles, spec A1): first packet and last byte from',
    'generation, per-hop head latency, fabric time, throughput and link utilisation',
    '(seed §5.7), then the systematic differences the closed forms predict next to the',
    'measured ones, and the tolerance checks. Writes the JSON report (atomically) to',
    'DIR/<preset>.json. Exit status: 0 all tolerances hold, 1 a tolerance is exceeded,',
    '2 bad usage. The c104-* presets hold the RTL C104 4x4 mesh (T9000 endpoints, DS-links)',
    'against the T9000/C104 TLM in its token-credit (RTL-calibrated) mode, both in cycles.',
  ].join('\n'),
  positionals: PRESETS.map((p) => ({ name: p.name, description: p.summary })),
  options: [
    { name: 'quick', type: 'flag', description: 'smaller workload (seconds instead of about a minute)' },
    { name: 'out', type: 'string', default: 'out/compare', arg: 'DIR', description: 'directory of the JSON report (DIR/<preset>.json)' },
    { name: 'seed', type: 'int', default: 1, min: 0, max: 2 ** 31 - 1, description: 'workload seed' },
    { name: 'traces', type: 'flag', description: 'also write both event traces as JSON lines (DIR/<preset>.a.jsonl, DIR/<preset>.b.jsonl)' },
    { name: 'quiet', short: 'q', type: 'flag', description: 'no progress line' },
  ],
  examples: ['icemu compare zero-load', 'icemu compare ch5-light --quick', 'icemu compare ch5-moderate --seed 2 --out out/cmp'],
};

function run(opts: ParsedOptions, positionals: string[] = []): number {
  const list = PRESET_NAMES.join(', ');
  if (positionals.length === 0) throw new UsageError(`icemu compare: name a preset (one of ${list})`);
  if (positionals.length > 1) throw new UsageError(`icemu compare: one preset at a time (got ${positionals.join(' ')}; presets: ${list})`);
  const name = positionals[0]!;
  const preset = findPreset(name);
  if (!preset) throw new UsageError(`icemu compare: unknown preset '${name}' (presets: ${list})`);
  return runPreset(preset, opts);
}

/**
 * Run one preset with parsed options: print the report, write the JSON (and
 * the traces with --traces), return the exit status (0 pass, 1 a tolerance
 * exceeded). Exported so that tests can run a preset of their own.
 */
export function runPreset(preset: Preset, opts: ParsedOptions): number {
  const dir = outputDir('out', opts.out as string);
  const jsonTarget = outputFile('out', join(dir, `${preset.name}.json`));
  const traceTargets = opts.traces ? ([outputFile('out', join(dir, `${preset.name}.a.jsonl`)), outputFile('out', join(dir, `${preset.name}.b.jsonl`))] as const) : undefined;
  const { result, traces } = preset.run({ quick: Boolean(opts.quick), seed: (opts.seed as number | undefined) ?? 1, quiet: Boolean(opts.quiet) });
  console.log(formatReport(result));
  writeText(jsonTarget, toJson(result), 'out');
  console.log(`JSON: ${jsonTarget.path}`);
  if (traceTargets) {
    const [pa, pb] = traceTargets;
    writeTrace(pa, traces.a.header, traces.a.events, '--out');
    writeTrace(pb, traces.b.header, traces.b.events, '--out');
    console.log(`Traces: ${pa.path} (${result.comparison.a.label}), ${pb.path} (${result.comparison.b.label})`);
  }
  if (!result.check.pass) console.error(`icemu compare ${preset.name}: ${result.check.failures.length} tolerance(s) exceeded: ${result.check.failures.map((f) => f.tolerance.metric).join(', ')}`);
  return result.check.pass ? 0 : 1;
}

export const compareCommand = { spec, run };
