/**
 * gdb's `display` for the REPL: names (or globs, or memory words) whose
 * values are printed after every command that moves time (step, run,
 * continue, back, ...). `display NAME` adds one and prints it at once,
 * `display` prints them all, `undisplay [n]` removes one or all.
 */
import { witness, type Ref } from './expr.ts';

interface Display {
  readonly id: number;
  readonly text: string;
  readonly refs: readonly Ref[];
}

/** At most this many values per display line (a wide glob is summarised). */
const MAX_VALUES = 16;

export class DisplayList {
  private readonly list: Display[] = [];
  private next = 1;

  get size(): number {
    return this.list.length;
  }

  add(text: string, refs: readonly Ref[]): number {
    const id = this.next++;
    this.list.push({ id, text, refs });
    return id;
  }

  /** Remove display `id`, or all; returns how many went. */
  remove(id?: number): number {
    if (id === undefined) {
      const n = this.list.length;
      this.list.length = 0;
      return n;
    }
    const k = this.list.findIndex((d) => d.id === id);
    if (k < 0) return 0;
    this.list.splice(k, 1);
    return 1;
  }

  /** One line per display: `1: node3.nip.count = 2`, several values of a glob separated by commas. */
  lines(only?: number): string[] {
    return this.list
      .filter((d) => only === undefined || d.id === only)
      .map((d) => {
        const shown = d.refs.slice(0, MAX_VALUES).map((r) => witness(r, r.read()));
        const more = d.refs.length > MAX_VALUES ? `, ... ${d.refs.length - MAX_VALUES} more` : '';
        return `${d.id}: ${shown.join(', ')}${more}`;
      });
  }
}
