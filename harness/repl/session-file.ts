/**
 * `checkpoint save FILE` / `checkpoint load FILE`: a REPL session on disk.
 * The file holds the cube's configuration, every stimulus command typed
 * (send, receive, load, poke, ...) with the cycle it was typed at, the
 * cycle reached and the state hash there. Loading replays the commands on a
 * fresh session of the same cube (the model is deterministic) and checks
 * that it arrives at the same state hash, so a file that does not reproduce
 * its state is reported, never silently accepted.
 */
import { readFileSync } from 'node:fs';
import type { BuzzardConfig } from '../../rtl/buzzard/config.ts';

export const SESSION_FORMAT = 'icemu-repl-session/1';

export interface SessionFile {
  readonly format: typeof SESSION_FORMAT;
  readonly configName: string;
  readonly config: BuzzardConfig;
  readonly cycle: number;
  readonly stateHash: string;
  readonly commands: readonly { readonly cycle: number; readonly text: string }[];
}

export function formatSession(s: Omit<SessionFile, 'format'>): string {
  return JSON.stringify({ format: SESSION_FORMAT, ...s }, null, 1) + '\n';
}

/** Read and check a session file; throws an Error with one line naming the file and the problem. */
export function readSession(file: string): SessionFile {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(`cannot read ${file}: ${code ?? (e as Error).message.split('\n')[0]}`);
  }
  const s = raw as Partial<SessionFile>;
  if (!s || typeof s !== 'object' || s.format !== SESSION_FORMAT) throw new Error(`${file}: not an icemu session file (format ${SESSION_FORMAT})`);
  if (!Number.isSafeInteger(s.cycle) || (s.cycle as number) < 0) throw new Error(`${file}: field 'cycle' must be a whole number`);
  if (typeof s.stateHash !== 'string' || typeof s.configName !== 'string' || !s.config || typeof s.config !== 'object') throw new Error(`${file}: fields 'stateHash', 'configName' and 'config' are required`);
  if (!Array.isArray(s.commands)) throw new Error(`${file}: field 'commands' must be a list`);
  let last = 0;
  for (const [k, c] of s.commands.entries()) {
    if (!c || !Number.isSafeInteger(c.cycle) || c.cycle < last || c.cycle > (s.cycle as number) || typeof c.text !== 'string') {
      throw new Error(`${file}: command ${k} must be {cycle, text} with cycles in order, at most ${s.cycle}`);
    }
    last = c.cycle;
  }
  return s as SessionFile;
}
