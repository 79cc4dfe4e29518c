/**
 * `icemu repl [preset | config.json] [--script FILE]`: the debugger REPL over
 * a running Buzzard RTL cube (harness/repl/): step the hardware cycle by
 * cycle, look at any register, break on conditions and events, draw
 * waveforms, go back in time. Interactive on a terminal; with --script (or
 * commands piped into stdin) it runs the commands and exits non-zero at the
 * first error.
 */
import { existsSync, readFileSync } from 'node:fs';
import chalk from 'chalk';
import { UsageError, type CommandSpec, type ParsedOptions } from '../cli/args.ts';
import { ReplEngine } from '../repl/engine.ts';
import { ConfigError, DEFAULT_PRESET, PRESETS } from '../repl/presets.ts';
import { runScript } from '../repl/script.ts';
import { NETWORK_PRESETS } from '../repl/targets.ts';
import { nearestNames } from '../../rtl/kernel/names.ts';
import { runTerminal } from '../repl/terminal.ts';

/** Every preset the REPL opens: Buzzard cubes, then the T9000 / C104 networks. */
const ALL_PRESETS = [...Object.keys(PRESETS), ...Object.keys(NETWORK_PRESETS)];

const spec: CommandSpec = {
  name: 'repl',
  summary: 'debugger REPL: step a Buzzard cube, a DS-link pair or a C104 network cycle by cycle, breakpoints, waveforms, reverse steps',
  usage: 'icemu repl [preset | config.json] [options]',
  description: [
    'Opens an interactive debugger over a running Buzzard RTL cube (every unit of every node;',
    'presets dslink-pair(-node), pair-c104(-node), chain, mesh, ring-deadlock: T9000s over DS-links and C104s),',
    'in the habits of gdb and vvp: step/run/continue, break on signal conditions or trace events,',
    'watch, print (hex, binary, decoded), cam/queues/links/deadlock views, ASCII waves, VCD,',
    'send/receive/load/poke stimulus, checkpoints and back (reverse step). Type help inside.',
    'With --script FILE (or commands piped into stdin) the commands run without a terminal and',
    'the exit status is 1 at the first failing command.',
  ].join('\n'),
  options: [
    { name: 'script', type: 'string', arg: 'FILE', description: "run the commands in FILE ('-' = stdin) and exit; status 1 at the first error" },
    { name: 'quiet', short: 'q', type: 'flag', description: 'with --script: do not echo the commands' },
    { name: 'checkpoint-every', type: 'int', default: 1000, min: 10, max: 1_000_000_000, description: 'cycles between automatic checkpoints (back replays at most about this many)' },
    { name: 'run-limit', type: 'int', default: 1_000_000, min: 1, max: Number.MAX_SAFE_INTEGER, description: 'cycles a continue / run until may take before it gives up' },
    { name: 'history', type: 'string', arg: 'FILE', description: "history file (default $ICEMU_HISTORY or ~/.icemu_history; '' for none)" },
  ],
  positionals: [
    {
      name: 'preset | config.json',
      description: `${ALL_PRESETS.join(', ')} (default ${DEFAULT_PRESET}), or a JSON file of BuzzardConfig fields`,
    },
  ],
  examples: ['icemu repl', 'icemu repl cube2', 'icemu repl my-cube.json', 'icemu repl cube3 --script session.txt'],
};

async function run(opts: ParsedOptions, positionals: string[]): Promise<number> {
  if (positionals.length > 1) throw new UsageError(`icemu repl: one preset or config file, got ${positionals.length} (${positionals.join(' ')})`);
  const arg = positionals[0];
  // Checked here, not by resolveConfig (whose list is the Buzzard cubes only, as icemu buzzard --config takes).
  if (arg !== undefined && !ALL_PRESETS.includes(arg) && !arg.endsWith('.json') && !existsSync(arg)) {
    const near = nearestNames(arg, ALL_PRESETS);
    throw new UsageError(`icemu repl: unknown preset '${arg}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; presets: ${ALL_PRESETS.join(', ')}; or give a JSON config file`);
  }
  const script = opts.script as string | undefined;
  const interactive = script === undefined && Boolean(process.stdin.isTTY);
  let text: string | undefined;
  if (script !== undefined) {
    try {
      text = readFileSync(script === '-' ? 0 : script, 'utf8');
    } catch (e) {
      throw new UsageError(`icemu repl: cannot read script ${script} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  let engine: ReplEngine;
  try {
    engine = new ReplEngine({
      preset: positionals[0],
      color: Boolean(process.stdout.isTTY) && chalk.level > 0,
      width: process.stdout.columns || 120,
      checkpointEvery: opts['checkpoint-every'] as number,
      runLimit: opts['run-limit'] as number,
    });
  } catch (e) {
    if (e instanceof ConfigError || e instanceof RangeError) throw new UsageError(`icemu repl: ${e.message}`);
    throw e;
  }
  try {
    if (interactive) {
      const what = engine.bz ? `Buzzard ${engine.bz.cfg.n}-cube (${engine.configName}), ${engine.bz.cube.nodes.length} nodes` : `${engine.target.title} (${engine.configName})`;
      return await runTerminal(engine, {
        historyFile: opts.history === undefined ? undefined : (opts.history as string) || null,
        banner: [
          chalk.bold('icemu repl') +
            `: ${what}, ${engine.sim.net.signals.length.toLocaleString('en-US')} signals, at cycle 0.`,
          'help lists the commands; Tab completes; Ctrl-C stops a run; quit or Ctrl-D leaves.',
        ],
      });
    }
    if (text === undefined) text = readFileSync(0, 'utf8');
    return await runScript(engine, text, { file: script === undefined || script === '-' ? '<stdin>' : script, echo: !opts.quiet });
  } finally {
    // an event trace still being recorded (events start) is written as the session ends
    try {
      for (const l of engine.close()) console.log(l);
    } catch (e) {
      console.error(`icemu repl: ${(e as Error).message}`);
    }
  }
}

export const replCommand = { spec, run };
