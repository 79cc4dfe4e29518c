/**
 * Stand-alone entry point of the debugger REPL, the same as `icemu repl`:
 *
 *   npx tsx harness/repl/main.ts [preset | config.json] [--script FILE] [options]
 *
 * (used by the pseudo-terminal test; `icemu repl --help` lists the options).
 */
import { runAsProcess } from '../cli.ts';

runAsProcess(['repl', ...process.argv.slice(2)]);
