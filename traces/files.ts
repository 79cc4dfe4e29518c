/**
 * Output files that respect the user's file system: the one place every
 * icemu writer (VCD and .gtkw, event traces, reports, experiment results,
 * CSV/JSON summaries) opens what it writes.
 *
 *  - A path is checked before anything is written (`checkOutputPath`): an
 *    existing regular file, or a new file in a directory that exists or can
 *    be created, is written to a temporary file beside it and renamed into
 *    place on `commit()`; a symlink is followed, so the link stays and its
 *    target gets the new content; a character device (`/dev/null`,
 *    `/dev/stdout`, a terminal) or a FIFO with a reader (`>(gzip > x)`) is
 *    written in place and never replaced; a FIFO without a reader, a socket,
 *    a block device or a directory is refused.
 *  - Missing directories are created one level at a time (not Node's
 *    recursive mkdir, which loops for ever under /proc) and remembered: when
 *    a run fails or is interrupted, `abortOutputs()` removes every temporary
 *    file still open and every directory this process created that is still
 *    empty; `finishOutputs()` (a run that ended) removes only the created
 *    directories that stayed empty.
 *  - Errors are `OutputPathError`s: one line naming the path and the reason
 *    (`no space left on device`, `permission denied`, ...), never a stack.
 *
 * While an output is open, one `exit` and one `SIGINT` listener are
 * installed (and removed with the last output). On exit, each open output
 * is finished its own way (`onExit`: a VCD writer closes its dump validly;
 * a plain file is aborted). On SIGINT, when no other listener exists, the
 * same happens and the signal is re-raised so the process dies of it (exit
 * status 130); when another listener exists (a command or REPL that stops a
 * run at a cycle boundary on Ctrl-C), that listener decides.
 */
import * as fs from 'node:fs';
import * as nodePath from 'node:path';

/** A bad or failed output path: `message` is one line, `label` the option (e.g. `--vcd`) when known. */
export class OutputPathError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
    readonly label?: string,
  ) {
    super(`${label ? `${label} ` : ''}${path}: ${reason}`);
    this.name = 'OutputPathError';
  }
}

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOTDIR: 'a component of the path is not a directory',
  ENOENT: 'no such file or directory (cannot be created here)',
  EISDIR: 'is a directory',
  EEXIST: 'already exists',
  EIO: 'input/output error',
  ENAMETOOLONG: 'name too long',
  ELOOP: 'too many levels of symbolic links',
  EFBIG: 'file too large',
  ENXIO: 'no such device or address',
  EPIPE: 'the reader went away (broken pipe)',
  EINVAL: 'invalid argument',
};

/** One line for a failed file operation. */
export function reasonOf(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (code && REASONS[code]) return REASONS[code]!;
  const msg = e instanceof Error ? e.message : String(e);
  return (msg.split('\n')[0] ?? msg).replace(/^[A-Z]+: /, '');
}

export interface OutputTarget {
  /** The path as given. */
  readonly path: string;
  /** Where the bytes go: the path itself, or a symlink's target. */
  readonly target: string;
  /** A character device or a FIFO with a reader: written in place, never replaced. */
  readonly inPlace: boolean;
  /** A FIFO is opened (without blocking) when checked, to know a reader is there; its descriptor is kept for writing. */
  readonly fd?: number;
}

// ------------------------------------------------------------ bookkeeping

/** Directories created by this process, outermost first, not yet kept. */
const createdDirs: string[] = [];
const openFiles = new Set<OutputFile>();
let handlersInstalled = false;

function onExit(): void {
  for (const f of [...openFiles]) f.finishOnExit();
  removeCreatedDirs();
}

function onSigint(): void {
  if (process.listenerCount('SIGINT') > 1) return;
  onExit();
  uninstall();
  process.kill(process.pid, 'SIGINT');
}

function install(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', onExit);
  process.on('SIGINT', onSigint);
}

function uninstall(): void {
  if (!handlersInstalled) return;
  handlersInstalled = false;
  process.removeListener('exit', onExit);
  process.removeListener('SIGINT', onSigint);
}

function removeCreatedDirs(): void {
  for (let k = createdDirs.length - 1; k >= 0; k--) {
    try {
      fs.rmdirSync(createdDirs[k]!); // only if empty
    } catch {
      // not empty (a finished output lives there) or already gone
    }
  }
  createdDirs.length = 0;
}

/** A run failed or was interrupted: remove every temporary file still open and the empty directories created for it. */
export function abortOutputs(): void {
  for (const f of [...openFiles]) f.abort();
  removeCreatedDirs();
}

/** A run finished: finish what is still open (a VCD closes validly, a plain file is removed) and remove the directories it created that stayed empty. */
export function finishOutputs(): void {
  onExit();
}

/** Number of outputs open (for tests). */
export function openOutputCount(): number {
  return openFiles.size;
}

// ------------------------------------------------------------ checking

function statOrNull(p: string, follow: boolean): fs.Stats | null {
  try {
    return follow ? fs.statSync(p) : fs.lstatSync(p);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw e;
  }
}

/** `mkdir -p` one level at a time; records what it created. Throws OutputPathError. */
export function ensureDirectory(dir: string, label?: string): void {
  try {
    makeDirectories(dir, label);
  } catch (e) {
    if (e instanceof OutputPathError) throw e;
    throw new OutputPathError(dir, reasonOf(e), label);
  }
}

function makeDirectories(dir: string, label?: string): void {
  const abs = nodePath.resolve(dir);
  const missing: string[] = [];
  let p = abs;
  for (;;) {
    const st = statOrNull(p, true);
    if (st) {
      if (!st.isDirectory()) throw new OutputPathError(dir, `${p} is not a directory`, label);
      break;
    }
    missing.unshift(p);
    const up = nodePath.dirname(p);
    if (up === p) break;
    p = up;
  }
  for (const m of missing) {
    try {
      fs.mkdirSync(m);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && statOrNull(m, true)?.isDirectory()) continue;
      throw new OutputPathError(dir, `cannot create directory ${m}: ${reasonOf(e)}`, label);
    }
    createdDirs.push(m);
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));
let tmpCounter = 0;
function tmpName(target: string): string {
  return `${target}.${process.pid}-${++tmpCounter}.tmp`;
}

/**
 * Check that `path` can be written as an output and prepare its directory:
 * see the module comment for what is written where. Creates missing
 * directories and probes the final directory with a temporary file.
 */
export function checkOutputPath(path: string, label?: string): OutputTarget {
  if (path === '') throw new OutputPathError(path, 'empty path', label);
  try {
    let target = path;
    const l = statOrNull(path, false);
    if (l?.isSymbolicLink()) {
      const st = statOrNull(path, true);
      if (st === null) {
        // dangling: write the file the link names
        const link = fs.readlinkSync(path);
        target = nodePath.resolve(nodePath.dirname(path), link);
      } else if (st.isFile()) target = fs.realpathSync(path);
      else return special(path, st, label);
    } else if (l && !l.isFile()) return special(path, l, label);
    ensureDirectory(nodePath.dirname(target), label);
    if (l?.isFile() || statOrNull(target, false)?.isFile()) fs.accessSync(target, fs.constants.W_OK);
    const probe = tmpName(target);
    fs.closeSync(fs.openSync(probe, 'wx'));
    fs.rmSync(probe, { force: true });
    return { path, target, inPlace: false };
  } catch (e) {
    if (e instanceof OutputPathError) throw e;
    throw new OutputPathError(path, reasonOf(e), label);
  }
}

function special(path: string, st: fs.Stats, label?: string): OutputTarget {
  if (st.isDirectory()) throw new OutputPathError(path, 'is a directory', label);
  if (st.isCharacterDevice()) {
    fs.accessSync(path, fs.constants.W_OK);
    return { path, target: path, inPlace: true };
  }
  if (st.isFIFO()) {
    // Writing to a FIFO nobody reads would block for ever: require a reader now,
    // and keep the descriptor (closing it would end the reader's input).
    try {
      return { path, target: path, inPlace: true, fd: fs.openSync(path, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENXIO') throw new OutputPathError(path, 'is a FIFO with no reader (icemu never replaces it)', label);
      throw e;
    }
  }
  const what = st.isSocket() ? 'a socket' : st.isBlockDevice() ? 'a block device' : 'not a regular file';
  throw new OutputPathError(path, `is ${what}; icemu writes only regular files, character devices and FIFOs`, label);
}

// ------------------------------------------------------------ writing

export interface OutputFileOptions {
  /** The option that named the file, for error lines (`--vcd`). */
  label?: string;
  /** What to do with the file if the process exits while it is open: 'abort' (default), 'commit', a function, or 'none' (its owner alone closes it; no handlers). */
  onExit?: 'abort' | 'commit' | 'none' | (() => void);
}

/**
 * One output being written: `write` goes to a temporary file beside the
 * target (or in place for a device or FIFO); `commit` renames it into place;
 * `abort` removes it. Errors are OutputPathErrors.
 */
export class OutputFile {
  readonly path: string;
  readonly target: OutputTarget;
  /** Where the bytes go while writing (the temporary file, or the device itself). */
  readonly writePath: string;
  private fd: number;
  private done = false;
  private readonly label: string | undefined;
  private readonly exitAction: OutputFileOptions['onExit'];

  constructor(pathOrTarget: string | OutputTarget, opts: OutputFileOptions = {}) {
    this.label = opts.label;
    this.exitAction = opts.onExit ?? 'abort';
    const t = typeof pathOrTarget === 'string' ? checkOutputPath(pathOrTarget, opts.label) : pathOrTarget;
    this.target = t;
    this.path = t.path;
    this.writePath = t.inPlace ? t.target : tmpName(t.target);
    try {
      this.fd = t.fd ?? fs.openSync(this.writePath, t.inPlace ? 'w' : 'wx');
    } catch (e) {
      throw new OutputPathError(this.path, reasonOf(e), this.label);
    }
    if (this.exitAction !== 'none') {
      openFiles.add(this);
      install();
    }
  }

  get isOpen(): boolean {
    return !this.done;
  }

  write(data: Uint8Array | string, offset = 0, length?: number): void {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    const end = length === undefined ? buf.length : offset + length;
    try {
      let p = offset;
      while (p < end) {
        try {
          p += fs.writeSync(this.fd, buf, p, end - p);
        } catch (e) {
          // a FIFO (opened without blocking) is full: wait for its reader
          if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
          Atomics.wait(PAUSE, 0, 0, 2);
        }
      }
    } catch (e) {
      const err = new OutputPathError(this.path, reasonOf(e), this.label);
      this.abort();
      throw err;
    }
  }

  /** Close and move the bytes into place. */
  commit(): void {
    if (this.done) return;
    this.release();
    try {
      fs.closeSync(this.fd);
      if (!this.target.inPlace) fs.renameSync(this.writePath, this.target.target);
    } catch (e) {
      if (!this.target.inPlace) fs.rmSync(this.writePath, { force: true });
      throw new OutputPathError(this.path, reasonOf(e), this.label);
    }
  }

  /** Close and remove what was written (a device or FIFO is only closed). */
  abort(): void {
    if (this.done) return;
    this.release();
    try {
      fs.closeSync(this.fd);
    } catch {
      // already failing
    }
    if (!this.target.inPlace) fs.rmSync(this.writePath, { force: true });
  }

  /** Called by the exit handler. */
  finishOnExit(): void {
    const a = this.exitAction;
    try {
      if (typeof a === 'function') a();
      else if (a === 'commit') this.commit();
      else if (a !== 'none') this.abort();
    } catch (e) {
      process.stderr.write(`icemu: could not finish ${this.path}: ${(e as Error).message}\n`);
      this.abort();
    }
  }

  private release(): void {
    this.done = true;
    if (openFiles.delete(this) && openFiles.size === 0) uninstall();
  }
}

/** Write a whole text output safely (checked, temporary file, rename; removed on failure). */
export function writeOutput(path: string | OutputTarget, text: string | Uint8Array, label?: string): void {
  const f = new OutputFile(path, { label });
  f.write(text);
  f.commit();
}
