/**
 * `checkpoint save FILE` / `checkpoint load FILE`: a session's state in a
 * file, for a later session. The file (JSON) holds the configuration, the
 * cycle, the state hash and the stimulus commands typed since cycle 0 with
 * their cycles (the replay log of travel.ts): the model is deterministic, so
 * replaying them from cycle 0 rebuilds the exact state, which the hash
 * confirms. (A `load` of a trace file is replayed by reading that file
 * again: if it changed, the hash differs and the load is refused.)
 *
 * Saving checks the path first and writes a temporary file renamed into
 * place (traces/files.ts): a device or FIFO is never replaced. Loading
 * reads only a regular file, checks everything before touching the model,
 * and on any failure puts the session back as it was. Errors are one line.
 */
import { readFileSync, statSync } from 'node:fs';
import { OutputPathError, reasonOf, writeOutput } from '../../traces/files.ts';
import { errorText, ReplError } from './common.ts';
import type { ReplEngine } from './engine.ts';
import { restoreCheckpoint, stepSafe, takeCheckpoint } from './travel.ts';

const FORMAT = 'icemu-repl-checkpoint';
const MAX_BYTES = 64 << 20;
/** The commands that log stimulus (stimulus.ts): the only ones a file may replay. */
const REPLAYABLE = new Set(['send', 'receive', 'load', 'poke']);

interface CheckpointFile {
  format: typeof FORMAT;
  version: 1;
  config: unknown;
  cycle: number;
  hash: string;
  commands: { cycle: number; text: string }[];
}

export function saveCheckpointFile(e: ReplEngine, path: string): void {
  const body: CheckpointFile = {
    format: FORMAT,
    version: 1,
    config: e.target.config,
    cycle: e.sim.cycle,
    hash: String(e.sim.stateHash()),
    commands: e.log.map((l) => ({ cycle: l.cycle, text: l.text })),
  };
  try {
    writeOutput(path, JSON.stringify(body, null, 1) + '\n');
  } catch (err) {
    throw new ReplError(`checkpoint save: ${err instanceof OutputPathError ? err.message : `${path}: ${reasonOf(err)}`}`);
  }
  e.emit(`checkpoint saved to ${path}: cycle ${body.cycle}, ${body.commands.length} stimulus command(s) to replay`);
}

function readCheckpointFile(e: ReplEngine, path: string): CheckpointFile {
  const bad = (why: string): ReplError => new ReplError(`checkpoint load: ${path}: ${why}`);
  let text: string;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw bad(st.isDirectory() ? 'is a directory' : 'not a regular file');
    if (st.size > MAX_BYTES) throw bad(`${st.size} bytes: too big for a checkpoint file`);
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if (err instanceof ReplError) throw err;
    throw bad(reasonOf(err));
  }
  let f: Partial<CheckpointFile>;
  try {
    f = JSON.parse(text) as Partial<CheckpointFile>;
  } catch {
    throw bad('not JSON (not a checkpoint file?)');
  }
  if (f === null || typeof f !== 'object' || f.format !== FORMAT) throw bad(`not an icemu checkpoint file (no "format": "${FORMAT}")`);
  if (f.version !== 1) throw bad(`version ${String(f.version)}: this icemu reads version 1`);
  if (JSON.stringify(f.config) !== JSON.stringify(e.target.config)) throw bad(`made with another configuration (${JSON.stringify(f.config)}); start the REPL with that configuration`);
  if (!Number.isSafeInteger(f.cycle) || f.cycle! < 0) throw bad('bad "cycle"');
  if (typeof f.hash !== 'string') throw bad('bad "hash"');
  if (!Array.isArray(f.commands)) throw bad('bad "commands"');
  let last = 0;
  f.commands.forEach((c: unknown, k) => {
    const o = c as { cycle?: unknown; text?: unknown };
    if (o === null || typeof o !== 'object' || !Number.isSafeInteger(o.cycle) || typeof o.text !== 'string') throw bad(`command ${k + 1}: expected {"cycle": n, "text": "..."}`);
    const cyc = o.cycle as number;
    if (cyc < last || cyc > f.cycle!) throw bad(`command ${k + 1}: cycle ${cyc} is out of order`);
    last = cyc;
    if (!REPLAYABLE.has(o.text.split(/\s+/)[0]!)) throw bad(`command ${k + 1}: '${o.text}' is not a stimulus command (${[...REPLAYABLE].join(', ')})`);
  });
  return f as CheckpointFile;
}

export async function loadCheckpointFile(e: ReplEngine, path: string): Promise<void> {
  const f = readCheckpointFile(e, path);
  const back = takeCheckpoint(e, '(before load)');
  const scope = e.scope;
  const out = e.out;
  const from = e.sim.cycle;
  try {
    // cycle 0 before any command: the first automatic checkpoint (travel.ts)
    restoreCheckpoint(e, { ...back, snap: e.autos[0]!.snap, autos: [e.autos[0]!], log: [], events: [] });
    e.scope = '';
    e.out = [];
    const stepTo = (c: number): void => {
      while (e.sim.cycle < c) stepSafe(e, Math.min(c, Math.max(e.nextAutoAt, e.sim.cycle + 1)) - e.sim.cycle);
    };
    for (const c of f.commands) {
      stepTo(c.cycle);
      const words = c.text.split(/\s+/);
      await e.byName.get(words[0]!)!.run(words.slice(1), words.slice(1).join(' '));
    }
    stepTo(f.cycle);
    const hash = String(e.sim.stateHash());
    if (hash !== f.hash) throw new ReplError(`the replay reached state ${hash}, not the saved ${f.hash} (did a loaded trace file change?)`);
  } catch (err) {
    e.out = out;
    e.scope = scope;
    restoreCheckpoint(e, back);
    throw new ReplError(`checkpoint load: ${path}: ${errorText(err)}; nothing changed`);
  }
  e.out = out;
  e.scope = scope;
  e.emit(`checkpoint loaded from ${path}: cycle ${e.sim.cycle} (was ${from}), ${f.commands.length} stimulus command(s) replayed, state ${f.hash}`);
}
