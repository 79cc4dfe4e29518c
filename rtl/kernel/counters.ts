/**
 * Statistics counters kept as edge time stamps (docs/kernel.md "Counters";
 * ARCHITECTURE.md "statistics are kept as edge time stamps, not as counters
 * that tick every cycle").
 *
 * A counter register (`Module.statCounter`) is a register like any other to every
 * observer (peek, VCD, REPL, snapshots, hashes): at every cycle it holds the
 * number of edges at which its process called `Module.tally(reg, true)`,
 * modulo 2^width. Its seq process calls `tally(reg, on)`; the meaning is the
 * same in both modes, but the work is not:
 *  - reference ('plain') mode: `tally(reg, true)` adds 1 at this edge, as a
 *    process writing `next = current + 1` would. The process runs every cycle.
 *  - fast ('activity') mode: the process runs only when what it reads
 *    changes, i.e. when `on` may change. `tally(reg, true)` starts a ramp (the
 *    value grows by one per edge from this edge on: value(c) = base + c - since)
 *    and `tally(reg, false)` ends it. Nothing ticks in between; the value is
 *    written into the state vector on demand (`materialize`, before observers
 *    and in peek / values / hashes / snapshots).
 * Hence the rule: the process must read (be woken by) everything `on` depends
 * on, and no process may read a counter register (its changes wake nobody in
 * the fast mode); elaboration rejects such a reader.
 */
import { SimError } from './errors.ts';
import type { Signal } from './module.ts';

export interface CounterState {
  active: Uint8Array;
  since: Float64Array;
  base: Float64Array;
}

export class CounterSet {
  readonly n: number;
  /** Current-value and next-value slots of each counter. */
  private readonly cur: Int32Array;
  private readonly nxt: Int32Array;
  private readonly mod: Float64Array;
  private readonly active: Uint8Array;
  private readonly since: Float64Array;
  private readonly base: Float64Array;
  /** Active counters, for materialize (unordered; pos[k] = index in list or -1). */
  private readonly list: Int32Array;
  private readonly pos: Int32Array;
  private nActive = 0;
  /** Cycle at which the state vector last received the ramps' values (-1: stale). */
  private doneAt = -1;
  /** Reference mode: count every cycle, no ramps. */
  perCycle = false;

  constructor(
    regs: readonly Signal[],
    private readonly s: Float64Array,
    private readonly clock: { cycle: number },
  ) {
    this.n = regs.length;
    this.cur = Int32Array.from(regs.map((r) => r.i));
    this.nxt = Int32Array.from(regs.map((r) => r.n));
    this.mod = Float64Array.from(regs.map((r) => r.mask + 1));
    this.active = new Uint8Array(this.n);
    this.since = new Float64Array(this.n);
    this.base = new Float64Array(this.n);
    this.list = new Int32Array(this.n);
    this.pos = new Int32Array(this.n).fill(-1);
  }

  get anyActive(): boolean {
    return this.nActive > 0;
  }

  /** `tally(reg, on)` from a seq process at the current cycle's edge. */
  count(k: number, on: boolean): void {
    const s = this.s;
    if (this.perCycle) {
      if (on) s[this.nxt[k]!] = (s[this.cur[k]!]! + 1) % this.mod[k]!;
      return;
    }
    if (on === (this.active[k] === 1)) return;
    const t = this.clock.cycle;
    if (on) {
      this.base[k] = s[this.cur[k]!]!;
      this.since[k] = t;
      this.active[k] = 1;
      this.pos[k] = this.nActive;
      this.list[this.nActive++] = k;
    } else {
      this.write(k, this.valueAt(k, t));
      this.active[k] = 0;
      const at = this.pos[k]!;
      const last = this.list[--this.nActive]!;
      this.list[at] = last;
      this.pos[last] = at;
      this.pos[k] = -1;
    }
    this.doneAt = -1;
  }

  private valueAt(k: number, cycle: number): number {
    return (this.base[k]! + cycle - this.since[k]!) % this.mod[k]!;
  }

  private write(k: number, v: number): void {
    this.s[this.cur[k]!] = v;
    this.s[this.nxt[k]!] = v;
  }

  /** Bring the active counters' values into the state vector (current and next). */
  materialize(): void {
    const t = this.clock.cycle;
    if (this.nActive === 0 || this.doneAt === t) return;
    for (let j = 0; j < this.nActive; j++) {
      const k = this.list[j]!;
      this.write(k, this.valueAt(k, t));
    }
    this.doneAt = t;
  }

  /** A poke of a counter register: it holds `value` now and keeps counting from it. */
  poked(slot: number, value: number): void {
    for (let k = 0; k < this.n; k++) {
      if (this.cur[k] !== slot) continue;
      if (this.active[k] === 1) {
        this.base[k] = value;
        this.since[k] = this.clock.cycle;
      }
      this.doneAt = -1;
    }
  }

  /** Stop every ramp (values written first): reset, or the switch to the reference mode. */
  stopAll(write: boolean): void {
    if (write) this.materialize();
    for (let j = 0; j < this.nActive; j++) {
      const k = this.list[j]!;
      this.active[k] = 0;
      this.pos[k] = -1;
    }
    this.nActive = 0;
    this.doneAt = -1;
  }

  save(): CounterState {
    return { active: this.active.slice(), since: this.since.slice(), base: this.base.slice() };
  }

  restore(st: CounterState): void {
    if (st.active.length !== this.n) throw new SimError('bad-argument', 'restore: snapshot is from a different design (counters)');
    this.stopAll(false);
    this.since.set(st.since);
    this.base.set(st.base);
    for (let k = 0; k < this.n; k++) {
      if (st.active[k] === 1) {
        this.active[k] = 1;
        this.pos[k] = this.nActive;
        this.list[this.nActive++] = k;
      }
    }
  }
}
