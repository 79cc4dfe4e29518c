/**
 * A one-line-per-cycle text trace, in the manner of PyMTL's line traces: each
 * cycle prints the cycle number and a fixed-width column per chosen view, so
 * a run reads like a pipeline diagram.
 */
import type { Observer, Simulator } from '../../rtl/kernel/index.ts';

export interface TraceColumn {
  header: string;
  /** Text for the current (committed, settled) cycle; padded/cut to the header's width or `width`. */
  value(sim: Simulator): string;
  width?: number;
}

export interface LineTraceOptions {
  /** First and last cycle printed (inclusive). */
  from?: number;
  to?: number;
  /** Print the header line before the first row. */
  header?: boolean;
}

export class LineTracer implements Observer {
  private headerDone = false;
  readonly lines: string[] = [];
  private readonly widths: number[];
  constructor(
    private readonly columns: TraceColumn[],
    private readonly sink: (line: string) => void = (l) => this.lines.push(l),
    private readonly opts: LineTraceOptions = {},
  ) {
    this.widths = columns.map((c) => Math.max(c.width ?? 0, c.header.length));
  }

  headerLine(): string {
    return `${'cycle'.padStart(7)} | ${this.columns.map((c, k) => c.header.padEnd(this.widths[k]!)).join(' | ')}`;
  }

  line(sim: Simulator): string {
    const cells = this.columns.map((c, k) => {
      const v = c.value(sim);
      const w = this.widths[k]!;
      // a cell too long for its column ends in '~', so a cut label never reads as another value (2→5#733 is not 2→5#73)
      return v.length > w ? (w > 1 ? v.slice(0, w - 1) + '~' : '~') : v.padEnd(w);
    });
    return `${String(sim.cycle).padStart(7)} | ${cells.join(' | ')}`;
  }

  onCycle(sim: Simulator): void {
    const c = sim.cycle;
    if (c < (this.opts.from ?? 0) || c > (this.opts.to ?? Infinity)) return;
    if (!this.headerDone && (this.opts.header ?? true)) {
      this.sink(this.headerLine());
      this.headerDone = true;
    }
    this.sink(this.line(sim));
  }
}

/** Render bits of `value` (width w) msb first, '.' for 0: handy for request/grant vectors. */
export function bitString(value: number, width: number, one = '1'): string {
  let s = '';
  for (let b = width - 1; b >= 0; b--) s += (value >>> b) & 1 ? one : '.';
  return s;
}
