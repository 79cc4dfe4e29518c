/**
 * A fault injector on one direction of a DS-link (docs/dslink.md#single-bit-faults):
 * passes Data and Strobe through unchanged, except in a cycle where a test
 * pokes `flipD` or `flipS` to 1: that cycle the wire shows the inverted
 * value (a glitch one bit time long). Poking both inverts the bit value
 * while keeping the encoding (exactly one wire still changes per bit).
 * The flip registers clear themselves at the next clock edge. `cut` (held
 * until poked back to 0) cuts the direction: both wires read 0.
 *
 * Ports: dIn, sIn (from the sender), dOut, sOut (to the receiver, comb);
 * registers flipD, flipS, cut.
 */
import { Module, type Signal } from '../kernel/module.ts';

export class DsWireFault extends Module {
  readonly dIn: Signal;
  readonly sIn: Signal;
  readonly dOut: Signal;
  readonly sOut: Signal;
  readonly flipD: Signal;
  readonly flipS: Signal;
  readonly cut: Signal;

  constructor(parent: Module | null, name: string) {
    super(parent, name);
    const dIn = (this.dIn = this.input('dIn'));
    const sIn = (this.sIn = this.input('sIn'));
    const dOut = (this.dOut = this.output('dOut'));
    const sOut = (this.sOut = this.output('sOut'));
    const flipD = (this.flipD = this.reg('flipD'));
    const flipS = (this.flipS = this.reg('flipS'));
    const cut = (this.cut = this.reg('cut'));
    this.comb(
      () => {
        const s = this.s;
        const on = s[cut.i] === 1 ? 0 : 1;
        s[dOut.i] = (s[dIn.i]! ^ s[flipD.i]!) & on;
        s[sOut.i] = (s[sIn.i]! ^ s[flipS.i]!) & on;
      },
      { writes: [dOut, sOut], reads: [dIn, sIn, flipD, flipS, cut], name: 'pass' },
    );
    this.seq(
      () => {
        const s = this.s;
        s[flipD.n] = 0;
        s[flipS.n] = 0;
      },
      { reads: [flipD, flipS], name: 'clear' },
    );
  }
}
