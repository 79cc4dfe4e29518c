/** Shared by the REPL tests: run a command and insist on success, or on exactly one error line with nothing changed. */
import { expect } from 'vitest';
import type { ReplEngine } from '../../harness/repl/engine.ts';

export async function ok(eng: ReplEngine, cmd: string): Promise<string> {
  const r = await eng.exec(cmd);
  expect(r.error, `${cmd} -> ${r.error}`).toBeUndefined();
  return r.lines.join('\n');
}

/** What a failed command must leave as it was: cycle, state hash, scope, breakpoints, checkpoints, displays. */
export async function fingerprint(eng: ReplEngine): Promise<string> {
  const info = await eng.exec('info');
  const disp = await eng.exec('info display');
  return [eng.cycle, eng.sim.stateHash(), eng.prompt, ...info.lines, ...disp.lines].join('\n');
}

/** `cmd` fails with one error line matching `re` and changes nothing. */
export async function fails(eng: ReplEngine, cmd: string, re: RegExp): Promise<void> {
  const before = await fingerprint(eng);
  const r = await eng.exec(cmd);
  expect(r.error, cmd).toBeDefined();
  expect(r.error, cmd).toMatch(re);
  expect(r.error!.includes('\n'), cmd).toBe(false);
  expect(await fingerprint(eng), cmd).toBe(before);
}

// eslint-disable-next-line no-control-regex
export const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
