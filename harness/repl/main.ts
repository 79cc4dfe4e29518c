/**
 * Stand-alone entry point of the debugger REPL, the same as `icemu repl`:
 *
 *   npx tsx harness/repl/main.ts [preset | config.json] [--script FILE] [options]
 *
 * (used by the pseudo-terminal test; `icemu repl --help` lists the options).
 */
import { formatHelp, parseArgs, UsageError } from '../cli/args.ts';
import { replCommand } from '../commands/repl.ts';

async function main(argv: string[]): Promise<number> {
  try {
    const { opts, positionals, help } = parseArgs(replCommand.spec, argv);
    if (help) {
      console.log(formatHelp(replCommand.spec));
      return 0;
    }
    return await replCommand.run(opts, positionals);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(e.message);
      return 2;
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exitCode = 1;
  },
);
