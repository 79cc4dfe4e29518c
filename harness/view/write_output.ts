/**
 * A minimal safe output path for `icemu view` (ARCHITECTURE.md
 * "Conventions"): checked before any work, written to a temporary file beside
 * it and renamed, never replacing a non-regular file (a device, a FIFO, a
 * directory); the temporary file goes on failure. Stand-in until the shared
 * harness/cli helper the `batch` branch is building lands in main.
 */
import { existsSync, lstatSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export class OutputPathError extends Error {
  override name = 'OutputPathError';
}

/** Throws an OutputPathError (one line) when `path` cannot take a regular file. */
export function checkOutputPath(path: string): void {
  const abs = resolve(path);
  const dir = dirname(abs);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new OutputPathError(`${path}: the directory ${dir} does not exist`);
  if (existsSync(abs)) {
    const st = lstatSync(abs);
    if (!st.isFile()) throw new OutputPathError(`${path}: exists and is not a regular file (never replaced)`);
  }
}

/** Write `text` to `path` via a temporary file beside it and a rename. */
export function writeOutput(path: string, text: string): void {
  checkOutputPath(path);
  const tmp = `${resolve(path)}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, text);
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      /* already gone */
    }
    throw new OutputPathError(`${path}: cannot write (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
}
