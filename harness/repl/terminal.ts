/**
 * The interactive front end of the debugger REPL: node:readline with a
 * prompt showing the cycle and scope, history (kept in a file between
 * sessions), tab completion of commands, arguments and hierarchical signal
 * names (ReplEngine.complete), and Ctrl-C handling:
 *  - during a run, Ctrl-C sets the engine's stop flag; the run, which works
 *    in slices and yields to the event loop, stops at the next cycle
 *    boundary and the prompt comes back;
 *  - at the prompt, Ctrl-C clears the line (as in a shell); Ctrl-D or
 *    `quit` leaves.
 * Commands typed while one is running are queued and run in order.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as readline from 'node:readline';
import type { ReplEngine } from './engine.ts';

export interface TerminalOptions {
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
  /** History file; null for none. Default: $ICEMU_HISTORY, else ~/.icemu_history. */
  historyFile?: string | null;
  /** First lines printed (banner). */
  banner?: string[];
}

const HISTORY_SIZE = 1000;

export function defaultHistoryFile(): string | null {
  const env = process.env.ICEMU_HISTORY;
  if (env !== undefined) return env === '' ? null : env;
  try {
    return join(homedir(), '.icemu_history');
  } catch {
    return null;
  }
}

function loadHistory(file: string | null): string[] {
  if (!file) return [];
  try {
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
    return lines.slice(-HISTORY_SIZE).reverse();
  } catch {
    return [];
  }
}

/** Run the interactive REPL until quit / Ctrl-D; resolves to the exit status. */
export function runTerminal(engine: ReplEngine, opts: TerminalOptions = {}): Promise<number> {
  const input = opts.input ?? process.stdin;
  const output = opts.output ?? process.stdout;
  const historyFile = opts.historyFile === undefined ? defaultHistoryFile() : opts.historyFile;
  const c = engine.c;
  const say = (l: string): void => {
    output.write(l + '\n');
  };

  const rl = readline.createInterface({
    input,
    output,
    terminal: true,
    history: loadHistory(historyFile),
    historySize: HISTORY_SIZE,
    removeHistoryDuplicates: true,
    completer: (line: string): [string[], string] => {
      try {
        return engine.complete(line);
      } catch {
        return [[], line];
      }
    },
  });

  for (const l of opts.banner ?? []) say(l);
  const queue: string[] = [];
  let processing = false;
  let closed = false;
  // `quit N`'s status, the session's exit status once the terminal closes.
  let status = 0;
  let finish: (code: number) => void = () => undefined;
  const done = new Promise<number>((resolve) => {
    finish = resolve;
  });

  const prompt = (): void => {
    if (closed) return;
    rl.setPrompt(engine.prompt);
    rl.prompt();
  };

  const pump = async (): Promise<void> => {
    if (processing) return;
    processing = true;
    while (queue.length) {
      const line = queue.shift()!;
      if (historyFile && line.trim()) {
        try {
          appendFileSync(historyFile, line.replace(/\n/g, ' ') + '\n');
        } catch {
          /* history is a convenience */
        }
      }
      const cols = (output as NodeJS.WriteStream).columns;
      if (cols) engine.width = cols;
      engine.traceSink = say;
      const r = await engine.exec(line);
      for (const l of r.lines) say(l);
      if (r.error !== undefined) say(c.red(`error: ${r.error}`));
      if (r.quit) {
        status = r.status ?? 0;
        queue.length = 0;
        processing = false;
        rl.close();
        return;
      }
    }
    processing = false;
    if (closed) finish(status);
    else prompt();
  };

  rl.on('line', (line: string) => {
    queue.push(line);
    void pump();
  });

  const onInterrupt = (): void => {
    if (engine.interrupt()) {
      say(c.yellow('^C (stopping at the next cycle boundary)'));
      return;
    }
    // At the prompt: drop the line being typed.
    output.write('^C\n');
    rl.write(null, { ctrl: true, name: 'e' });
    rl.write(null, { ctrl: true, name: 'u' });
    prompt();
  };
  rl.on('SIGINT', onInterrupt);
  // A SIGINT that reaches the process (not through the terminal's raw mode, e.g. kill -INT).
  const onSignal = (): void => onInterrupt();
  process.on('SIGINT', onSignal);

  rl.on('close', () => {
    closed = true;
    process.removeListener('SIGINT', onSignal);
    if (processing) engine.interrupt();
    else finish(status);
  });

  prompt();
  return done.then((code) => {
    say('');
    return code;
  });
}
