/**
 * Up/down counter with parallel load and a zero flag.
 *
 * Generic unit (ARCHITECTURE.md, rtl/lib). Seed users: the Buzzard packet
 * buffer unit's length counter and RAM address low-order counter, the free
 * row register, and the node output port's bit counter (seed 002 §5.4.2,
 * §5.4.4): "The low order bits are implemented as a counter that is
 * incremented after each write", "load the counter with the value in the
 * counter load register ... Decrement the counter on each shift".
 *
 * Ports (N = width):
 *  inputs   up, down  count at the clock edge; both together: no change (the
 *                     increments cancel, as in an up/down counter fed by two
 *                     independent controllers, e.g. one allocating and one
 *                     releasing a resource in the same cycle)
 *           load      load `din` at the clock edge; priority over up/down
 *           din[N]
 *  outputs  q[N]      the count (a register, driving the net directly)
 *           zero      q == 0 (combinational)
 *
 * Limits: 'wrap' (default) counts modulo 2^N; 'saturate' holds at 0 when
 * counting down and at 2^N - 1 when counting up.
 */
import { Module, type Signal } from '../kernel/module.ts';

export type CounterMode = 'wrap' | 'saturate';

export interface CounterConfig {
  /** Width in bits, 1..32. */
  width: number;
  /** Behaviour at the limits, default 'wrap'. */
  mode?: CounterMode;
  /** Reset value, default 0. */
  reset?: number;
}

export class Counter extends Module {
  readonly config: Readonly<Required<CounterConfig>>;
  readonly up: Signal;
  readonly down: Signal;
  readonly load: Signal;
  readonly din: Signal;
  readonly q: Signal;
  readonly zero: Signal;

  constructor(parent: Module | null, name: string, config: CounterConfig) {
    super(parent, name);
    const N = config.width;
    if (typeof N !== 'number' || !Number.isInteger(N) || N < 1 || N > 32) {
      throw new RangeError(`counter.width: ${String(N)} is outside 1..32`);
    }
    const max = N === 32 ? 0xffffffff : 2 ** N - 1;
    const mode = config.mode ?? 'wrap';
    if (mode !== 'wrap' && mode !== 'saturate') {
      throw new RangeError(`counter.mode: '${String(mode)}' is not one of 'wrap', 'saturate'`);
    }
    const reset = config.reset ?? 0;
    if (typeof reset !== 'number' || !Number.isInteger(reset) || reset < 0 || reset > max) {
      throw new RangeError(`counter.reset: ${String(reset)} is outside 0..${max}`);
    }
    this.config = { width: N, mode, reset };

    const up = (this.up = this.input('up', 1));
    const down = (this.down = this.input('down', 1));
    const load = (this.load = this.input('load', 1));
    const din = (this.din = this.input('din', N));
    const q = (this.q = this.reg('q', N, reset));
    const zero = (this.zero = this.output('zero', 1));
    const wrap = mode === 'wrap';

    this.comb(
      () => {
        const s = this.s;
        s[zero.i] = s[q.i]! === 0 ? 1 : 0;
      },
      { writes: [zero], reads: [q], name: 'zero' },
    );

    this.seq(
      () => {
        const s = this.s;
        if (s[load.i]! !== 0) {
          s[q.n] = s[din.i]!;
          return;
        }
        const u = s[up.i]! !== 0;
        const d = s[down.i]! !== 0;
        if (u === d) return; // neither, or both: no change
        const v = s[q.i]!;
        if (u) s[q.n] = v < max ? v + 1 : wrap ? 0 : max;
        else s[q.n] = v > 0 ? v - 1 : wrap ? max : 0;
      },
      { reads: [up, down, load, din, q], name: 'count' },
    );
  }
}
