/**
 * Test helper for the FIFO option tests (fifo_glue, fifo_regout): the
 * registers a test pokes as a FIFO's raw pulses.
 */
import { Module } from '../../rtl/kernel/index.ts';

/** Registers the test pokes: the raw pulses. */
export class Drive extends Module {
  readonly push = this.reg('push');
  readonly pushEn = this.reg('pushEn');
  readonly pop = this.reg('pop');
  readonly pop2 = this.reg('pop2');
  readonly din = this.reg('din', 8);
}
