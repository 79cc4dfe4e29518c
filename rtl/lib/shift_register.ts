/**
 * Shift register with serial in/out and parallel load/out.
 *
 * Generic unit (ARCHITECTURE.md, rtl/lib). Seed users: the Buzzard packet
 * buffer unit's incoming packet shift register and output shift register,
 * and the node output port's buffer-slot shift register (seed 002 §5.4.2,
 * §5.4.4): bits arrive and leave serially on the link bit clock while the
 * controllers load and latch words in parallel.
 *
 * Ports (N = width):
 *  inputs   sin       serial data in
 *           shift     shift one place at the clock edge
 *           load      load `pdin` at the clock edge (priority over shift: a
 *                     load and a shift in the same cycle load, as a controller
 *                     refilling the register must not lose the new word)
 *           pdin[N]   parallel data in
 *  outputs  sout      serial data out (combinational from the register): the
 *                     MSB for 'msb-first', the LSB for 'lsb-first'; absent
 *                     with `serialOut: false` (a serial-in, parallel-out
 *                     register, as the Buzzard node input port's)
 *           pdout[N]  parallel data out: the register itself (joined to q,
 *                     no process: docs/kernel.md "Exact sensitivity")
 *  register q[N]
 *
 * Order 'msb-first': shift makes q := (q << 1 | sin) mod 2^N, so sout shows
 * q's bits from the MSB down, and sin bits fed in order build a word MSB
 * first. 'lsb-first': q := (q >> 1) | sin << (N-1); sout shows the LSB first
 * and sin fills from the top, so a word fed LSB first ends up in place after
 * N shifts. Either way shifting out and shifting in use the same bit order.
 */
import { Module, type Signal } from '../kernel/module.ts';

export type ShiftOrder = 'msb-first' | 'lsb-first';

export interface ShiftRegisterConfig {
  /** Width in bits, 1..32. */
  width: number;
  /** Serial bit order, default 'msb-first'. */
  order?: ShiftOrder;
  /** Reset value, default 0. */
  reset?: number;
  /** Build the serial output `sout` (default true); false for a serial-in, parallel-out register. */
  serialOut?: boolean;
}

export class ShiftRegister extends Module {
  readonly config: Readonly<Required<ShiftRegisterConfig>>;
  readonly sin: Signal;
  readonly shift: Signal;
  readonly load: Signal;
  readonly pdin: Signal;
  /** Undefined with `serialOut: false`. */
  readonly sout: Signal | undefined;
  readonly pdout: Signal;
  readonly q: Signal;

  constructor(parent: Module | null, name: string, config: ShiftRegisterConfig) {
    super(parent, name);
    const N = config.width;
    if (typeof N !== 'number' || !Number.isInteger(N) || N < 1 || N > 32) {
      throw new RangeError(`shift_register.width: ${String(N)} is outside 1..32`);
    }
    const mask = N === 32 ? 0xffffffff : 2 ** N - 1;
    const order = config.order ?? 'msb-first';
    if (order !== 'msb-first' && order !== 'lsb-first') {
      throw new RangeError(`shift_register.order: '${String(order)}' is not one of 'msb-first', 'lsb-first'`);
    }
    const reset = config.reset ?? 0;
    if (typeof reset !== 'number' || !Number.isInteger(reset) || reset < 0 || reset > mask) {
      throw new RangeError(`shift_register.reset: ${String(reset)} is outside 0..${mask}`);
    }
    const serialOut = config.serialOut ?? true;
    this.config = { width: N, order, reset, serialOut };

    const sin = (this.sin = this.input('sin', 1));
    const shift = (this.shift = this.input('shift', 1));
    const load = (this.load = this.input('load', 1));
    const pdin = (this.pdin = this.input('pdin', N));
    const sout = (this.sout = serialOut ? this.output('sout', 1) : undefined);
    const pdout = (this.pdout = this.output('pdout', N));
    const q = (this.q = this.reg('q', N, reset));
    const msb = order === 'msb-first';
    const top = N - 1;
    const topWeight = 2 ** top;

    // The parallel output is the register: a net, not a process that would
    // run on every shift (docs/kernel.md "Exact sensitivity").
    this.connect(q, pdout);
    if (sout) {
      this.comb(
        () => {
          const s = this.s;
          const v = s[q.i]!;
          s[sout.i] = msb ? (v >>> top) & 1 : v & 1;
        },
        { writes: [sout], reads: [q], name: 'out' },
      );
    }

    this.seq(
      () => {
        const s = this.s;
        if (s[load.i]! !== 0) {
          s[q.n] = s[pdin.i]!;
        } else if (s[shift.i]! !== 0) {
          const v = s[q.i]!;
          const b = s[sin.i]!;
          // Arithmetic rather than 32-bit shifts where bit 31 may be involved.
          s[q.n] = msb ? ((v * 2) % (mask + 1)) + b : Math.floor(v / 2) + b * topWeight;
        }
      },
      { reads: [sin, shift, load, pdin, q], name: 'shift' },
    );
  }
}
