/**
 * The CLI side of traces/files.ts: every command checks all its output
 * paths before its run starts, so a bad `--vcd`, `--events`, `--json` or
 * `--out` costs one line and exit status 2 (main() prints
 * `icemu <command>: --option PATH: reason`), not a stack trace after the
 * whole run. Ctrl-C handling for long runs lives here too: the run stops at
 * the next cycle boundary, prints its partial summary and closes its files
 * validly; a second Ctrl-C abandons the run and removes what was half written.
 */
import * as nodePath from 'node:path';
import { abortOutputs, checkOutputPath, ensureDirectory, OutputPathError, writeOutput, type OutputTarget } from '../../traces/files.ts';

export { OutputPathError, type OutputTarget };

/**
 * Check one output file named by an option (`--events`); creates missing
 * directories (removed again on failure). `label` names it in errors: the
 * option by default, '' where a REPL command prefixes its own name.
 */
export function outputFile(option: string, path: string, label = `--${option}`): OutputTarget {
  return checkOutputPath(path, label);
}

/**
 * Two outputs of one run naming the same file (`--events x --json x`) would
 * leave only the one written last: refused before the run. Devices and
 * FIFOs written in place (`/dev/null` twice) are not files and may repeat.
 */
export function distinctOutputs(outputs: readonly (readonly [label: string, target: OutputTarget | undefined])[]): void {
  const seen = new Map<string, string>();
  for (const [label, t] of outputs) {
    if (!t || t.inPlace) continue;
    const key = nodePath.resolve(t.target);
    const other = seen.get(key);
    if (other !== undefined) throw new OutputPathError(t.path, `also named by ${other} (one run, one file each)`, label);
    seen.set(key, label);
  }
}

/** Check an output directory named by an option (`--out`): it exists or can be created, and files can be created in it. */
export function outputDir(option: string, dir: string): string {
  if (dir === '') throw new OutputPathError(dir, 'empty path', `--${option}`);
  ensureDirectory(dir, `--${option}`);
  checkOutputPath(nodePath.join(dir, `.icemu-probe-${process.pid}`), `--${option}`);
  return dir;
}

/**
 * The GTKWave save file beside a VCD (`x.vcd` -> `x.gtkw`), checked; none
 * when the VCD goes to a device or FIFO (a save file naming `/dev/null`
 * means nothing, and `/dev/x.gtkw` must not be created).
 */
export function companionGtkw(vcd: OutputTarget, label = '--vcd'): OutputTarget | undefined {
  if (vcd.inPlace) return undefined;
  return checkOutputPath(vcd.path.replace(/\.vcd$/, '') + '.gtkw', gtkwLabel(label));
}

/** How errors name a VCD's save file: `--vcd (its .gtkw)`, or `its .gtkw` unlabelled. */
export function gtkwLabel(label: string): string {
  return label ? `${label} (its .gtkw)` : 'its .gtkw';
}

/** Write a text output checked earlier with outputFile. */
export function writeText(target: OutputTarget, text: string, option: string): void {
  writeOutput(target, text, `--${option}`);
}

/** Let the event loop run (signal listeners, e.g. Ctrl-C) between slices of a long synchronous run. */
export function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Ctrl-C for a long run: the first sets `requested` (the run loop stops at
 * its next cycle boundary and finishes normally with a partial summary); a
 * second removes what was half written and exits 130 at once.
 */
export class Interrupt {
  requested = false;
  private readonly onSigint = (): void => {
    if (this.requested) {
      abortOutputs();
      process.stderr.write('\nabandoned\n');
      process.exit(130);
    }
    this.requested = true;
    process.stderr.write('\ninterrupted: stopping at the next cycle boundary (Ctrl-C again to abandon the run)\n');
  };
  constructor() {
    process.on('SIGINT', this.onSigint);
  }
  dispose(): void {
    process.removeListener('SIGINT', this.onSigint);
  }
}

/** Exit status of a run stopped by Ctrl-C (128 + SIGINT), as a shell reports it. */
export const INTERRUPTED = 130;
