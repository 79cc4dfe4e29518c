/**
 * `icemu`: the command-line entry point. Each command lives in
 * harness/commands/ and declares its options once (harness/cli/args.ts), so
 * `icemu <command> --help` always describes what the command accepts.
 */
import { readFileSync } from 'node:fs';
import { ElaborationError, SimError } from '../rtl/kernel/index.ts';
import { formatHelp, parseArgs, UsageError, type CommandSpec, type ParsedOptions } from './cli/args.ts';
import { rerunWithHeap } from './cli/heap.ts';
import { nearestNames } from '../rtl/kernel/names.ts';
import { abortOutputs, finishOutputs, OutputPathError } from '../traces/files.ts';
import { demoCommand } from './commands/demo.ts';
import { buzzardCommand } from './commands/buzzard.ts';
import { c104Command } from './commands/c104.ts';
import { compareCommand } from './commands/compare.ts';
import { experimentCommand } from './commands/experiment.ts';
import { replCommand } from './commands/repl.ts';
import { sweepCommand } from './commands/sweep.ts';
import { viewCommand } from './commands/view.ts';

export interface Command {
  spec: CommandSpec;
  /** `given`: the options the command line set (the others hold their defaults). */
  run(opts: ParsedOptions, positionals: string[], given: ReadonlySet<string>): Promise<number> | number;
}

export const commands: Command[] = [
  buzzardCommand,
  c104Command,
  sweepCommand,
  compareCommand,
  experimentCommand,
  replCommand,
  viewCommand,
  demoCommand,
];

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

export function topHelp(): string {
  const width = Math.max(...commands.map((c) => c.spec.name.length)) + 2;
  return [
    'Usage: icemu <command> [options]',
    '',
    'icemu, an interconnect cycle emulator: multicomputer communication hardware',
    'modelled clock by clock as wired functional units: the Buzzard hypercube',
    'communication processor (icemu buzzard), and the INMOS DS-link, T9000-style',
    'endpoints and C104 routing switch in chains, meshes and PUMA networks (icemu c104).',
    '',
    'Commands:',
    ...commands.map((c) => `  ${c.spec.name.padEnd(width)}${c.spec.summary}`),
    `  ${'help'.padEnd(width)}show help for a command (icemu help <command>)`,
    '',
    'Options:',
    '  -h, --help     show this help',
    '  -V, --version  print the version',
    '',
    "Run 'icemu <command> --help' for a command's options.",
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h') {
    console.log(topHelp());
    return 0;
  }
  if (name === '--version' || name === '-V') {
    console.log(version());
    return 0;
  }
  if (name === 'help') {
    if (!rest[0]) {
      console.log(topHelp());
      return 0;
    }
    const c = commands.find((x) => x.spec.name === rest[0]);
    if (!c) return unknownCommand(rest[0]);
    console.log(formatHelp(c.spec));
    return 0;
  }
  const cmd = commands.find((c) => c.spec.name === name);
  if (!cmd) return unknownCommand(name);
  try {
    const { opts, positionals, help, given } = parseArgs(cmd.spec, rest);
    if (help) {
      console.log(formatHelp(cmd.spec));
      return 0;
    }
    const code = await cmd.run(opts, positionals, given);
    finishOutputs();
    return code;
  } catch (e) {
    abortOutputs();
    if (e instanceof OutputPathError) {
      console.error(`icemu ${name}: ${e.message}`);
      return 2;
    }
    if (e instanceof UsageError) {
      console.error(e.message);
      return 2;
    }
    if (e instanceof SimError || e instanceof ElaborationError) {
      console.error(`icemu ${name}: ${e.message}`);
      return 1;
    }
    throw e;
  }
}

function unknownCommand(name: string): number {
  const near = nearestNames(name, [...commands.map((c) => c.spec.name), 'help']);
  console.error(`icemu: unknown command '${name}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; run 'icemu --help'`);
  return 2;
}

/** Run `main` as the process: its result becomes the exit status; an unexpected error prints its stack and exits 1. */
export function runAsProcess(argv: string[]): void {
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
      process.exitCode = 1;
    },
  );
}

// Run when executed directly (tsx harness/cli.ts, or bin/icemu.mjs), not when imported by tests.
const invoked = process.argv[1] ?? '';
if (invoked.endsWith('cli.ts') || invoked.endsWith('icemu.mjs') || invoked.endsWith('icemu')) {
  // A 9- or 10-cube needs a bigger heap than Node's default: run again with one (harness/cli/heap.ts).
  const status = rerunWithHeap(process.argv.slice(2));
  if (status === undefined) runAsProcess(process.argv.slice(2));
  else process.exitCode = status;
}
