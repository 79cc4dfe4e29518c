/**
 * A progress line on stderr for long runs (ARCHITECTURE.md, conventions):
 * cycles done, simulated time and rate, redrawn at most every 250 ms, only
 * when stderr is a terminal and neither --quiet nor CI is set.
 */
export interface ProgressOptions {
  label: string;
  total: number;
  quiet?: boolean;
  /** Nanoseconds of simulated time per cycle, for the simulated-time column (optional). */
  nsPerCycle?: number;
}

export class Progress {
  readonly enabled: boolean;
  private readonly t0 = performance.now();
  private last = 0;
  private drawn = false;
  constructor(private readonly o: ProgressOptions) {
    this.enabled = !o.quiet && !process.env.CI && Boolean(process.stderr.isTTY);
  }
  update(done: number): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (now - this.last < 250 && done < this.o.total) return;
    this.last = now;
    const secs = (now - this.t0) / 1000;
    const rate = secs > 0 ? done / secs : 0;
    const pct = this.o.total ? ((100 * done) / this.o.total).toFixed(1) : '?';
    const sim = this.o.nsPerCycle ? `  sim ${formatNs(done * this.o.nsPerCycle)}` : '';
    this.drawn = drawLine(`${this.o.label}: cycle ${done.toLocaleString('en-US')}/${this.o.total.toLocaleString('en-US')} (${pct}%)${sim}  ${formatRate(rate)}`);
  }
  finish(): void {
    if (this.drawn) process.stderr.write('\n');
    this.drawn = false;
  }
  elapsedSeconds(): number {
    return (performance.now() - this.t0) / 1000;
  }
}

/** Redraw the progress line: carriage return, the text, then erase the rest of the old line (no stale text). */
function drawLine(text: string): true {
  process.stderr.write(`\r${text}\x1b[K`);
  return true;
}

/** A progress line over points (experiments, sweeps): done/total, elapsed and the time left. */
export class PointProgress {
  private readonly enabled: boolean;
  private readonly t0 = performance.now();
  private last = 0;
  private drawn = false;
  constructor(
    private readonly label: string,
    quiet: boolean,
  ) {
    this.enabled = !quiet && !process.env.CI && Boolean(process.stderr.isTTY);
  }
  update(done: number, total: number): void {
    if (!this.enabled) return;
    const now = performance.now();
    if (now - this.last < 250 && done < total) return;
    this.last = now;
    const secs = (now - this.t0) / 1000;
    const eta = done > 0 && done < total ? `, about ${((secs * (total - done)) / done).toFixed(0)} s left` : '';
    this.drawn = drawLine(`${this.label}: ${done}/${total} points (${((100 * done) / total).toFixed(0)}%), ${secs.toFixed(1)} s${eta}`);
  }
  finish(): void {
    if (this.drawn) process.stderr.write('\n');
    this.drawn = false;
  }
}

export function formatRate(cyclesPerSecond: number): string {
  if (cyclesPerSecond >= 1e6) return `${(cyclesPerSecond / 1e6).toFixed(2)} Mcycles/s`;
  if (cyclesPerSecond >= 1e3) return `${(cyclesPerSecond / 1e3).toFixed(1)} kcycles/s`;
  return `${cyclesPerSecond.toFixed(0)} cycles/s`;
}

function formatNs(ns: number): string {
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(3)} ms`;
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(3)} us`;
  return `${ns.toFixed(0)} ns`;
}
