/**
 * Non-interactive REPL sessions (`icemu repl --script FILE`, or commands
 * piped into stdin): run the commands of a file one by one, print their
 * output, and stop with exit status 1 at the first command that fails, so
 * sessions can be replayed and used as tests. Blank lines and `#` comments
 * are skipped; `quit [status]` ends the script early with that status (0 when none).
 */
import type { ReplEngine } from './engine.ts';
import { stripComment } from './engine.ts';

export interface ScriptOptions {
  /** Name used in error messages. Default '<script>'. */
  file?: string;
  /** Print each command after the prompt before its output. Default true. */
  echo?: boolean;
  /** Where output lines go. Default console.log. */
  write?: (line: string) => void;
  /** Where the error line goes. Default console.error. */
  writeError?: (line: string) => void;
}

/** Run a script; resolves to the exit status (0 ok, 1 = a command failed). */
export async function runScript(engine: ReplEngine, text: string, opts: ScriptOptions = {}): Promise<number> {
  const file = opts.file ?? '<script>';
  const echo = opts.echo ?? true;
  const write = opts.write ?? ((l: string) => console.log(l));
  const writeError = opts.writeError ?? ((l: string) => console.error(l));
  const lines = text.split(/\r?\n/);
  for (let k = 0; k < lines.length; k++) {
    const raw = lines[k]!;
    if (!stripComment(raw).trim()) continue;
    if (echo) write(`${engine.prompt}${raw.trim()}`);
    const r = await engine.exec(raw);
    for (const l of r.lines) write(l);
    if (r.error !== undefined) {
      writeError(`${file}:${k + 1}: error: ${r.error}`);
      return 1;
    }
    if (r.quit) return r.status ?? 0;
  }
  return 0;
}
