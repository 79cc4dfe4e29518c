/**
 * The run loop every long-running command shares (ARCHITECTURE.md,
 * conventions): step the design in chunks so the progress line redraws and a
 * Ctrl-C is seen between chunks, end a chunk on every cycle the caller must
 * act at (warm-up end, VCD window edges), and close with the same two lines.
 */
import chalk from 'chalk';
import { formatRate, Progress } from './progress.ts';
import { Interrupt, yieldToEvents } from './output-path.ts';

export interface ChunkedRunOptions {
  /** Progress-line label (the command's name). */
  label: string;
  /** Cycles asked for. */
  total: number;
  quiet: boolean;
  /** Cycles per chunk when no mark is nearer. */
  chunk: number;
  /** Cycles at which a chunk must end, so `before`/`after` see them exactly. */
  marks?: readonly number[];
  /** Advance the design by k cycles. */
  step(k: number): void;
  /** At cycle `done`, before the next chunk (open a window that starts here). */
  before?(done: number): void;
  /** At cycle `done`, after a chunk (close a window that ended here). */
  after?(done: number): void;
  /** Stop early, before the cycles run out (e.g. every message delivered). */
  finished?(): boolean;
}

export interface ChunkedRunResult {
  /** Cycles simulated. */
  done: number;
  /** Wall-clock seconds spent stepping. */
  seconds: number;
  /** Ctrl-C stopped the run before it ended. */
  interrupted: boolean;
}

export async function runChunked(o: ChunkedRunOptions): Promise<ChunkedRunResult> {
  const progress = new Progress({ label: o.label, total: o.total, quiet: o.quiet });
  const interrupt = new Interrupt();
  const t0 = performance.now();
  const marks = o.marks ?? [];
  let done = 0;
  try {
    while (done < o.total && !interrupt.requested && !o.finished?.()) {
      o.before?.(done);
      const next = Math.min(o.total, done + o.chunk, ...marks.filter((m) => m > done));
      o.step(next - done);
      done = next;
      o.after?.(done);
      progress.update(done);
      await yieldToEvents();
    }
  } finally {
    interrupt.dispose();
    progress.finish();
  }
  return { done, seconds: (performance.now() - t0) / 1000, interrupted: interrupt.requested };
}

/** "Simulated N cycles in S s (rate)", with `digits` decimals and an optional note inside the brackets. */
export function simulatedLine(run: ChunkedRunResult, digits = 1, note?: string): string {
  const rate = formatRate(run.done / Math.max(run.seconds, 1e-9));
  return `Simulated ${run.done.toLocaleString('en-US')} cycles in ${run.seconds.toFixed(digits)} s (${rate}${note ? `, ${note}` : ''})`;
}

/** The warning after a Ctrl-C: where the run stopped and that what was printed is partial. */
export function interruptedLine(run: ChunkedRunResult, total: number, partial = 'the figures above are partial'): string {
  return chalk.yellow(`Interrupted at cycle ${run.done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}: ${partial}.`);
}
