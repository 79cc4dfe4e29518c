/**
 * The node input port's receiving end on a serial line (docs/kernel.md
 * "Buzzard links on serial lines"; the port itself: node_input_port.ts,
 * seed 002 §5.4.5).
 *
 * The controller acts where its step list does: the 1 that starts a packet
 * (IDLE), the 0 that ends a start or sync (START, Y1), the last preheader bit
 * (PRE, bits = 1: the L field), a word's last two bits (WORD, bits = 2: the
 * lastBit register; bits = 1: the push) and YWAIT (entered by a state
 * change). In between, an edge only shifts the line bit into isr and counts
 * bits down (PRE, WORD), or waits (IDLE, START, Y1): pure edges, applied by
 * `catchUp` from the bits the tap of crossbar output O_0 carried. Timed
 * wake-ups at the counts; at an awaited bit as soon as the sender's post
 * shows it (lineChanged).
 */
import type { Module, Signal } from '../kernel/module.ts';
import { SimError } from '../kernel/errors.ts';
import { ReceiverEnd, type LinkSet } from './link_lines.ts';

export interface NipStates {
  IDLE: number;
  START: number;
  PRE: number;
  YWAIT: number;
  Y1: number;
  WORD: number;
}

export interface NipRegs {
  state: Signal;
  bits: Signal;
  isr: Signal;
  inBit: Signal;
}

/** The node input port's end; its tap is crossbar output O_0's (set by the node). */
export class NipLine extends ReceiverEnd {
  // Slot numbers of the port's registers (Module.whenSlots; docs/kernel.md "Stop 21: Buzzard units").
  private stateI = 0;
  private stateN = 0;
  private bitsI = 0;
  private bitsN = 0;
  private isrI = 0;
  private isrN = 0;
  private inBitSlot = 0;

  constructor(
    m: Module,
    links: LinkSet,
    r: NipRegs,
    private readonly st: NipStates,
  ) {
    super(m, links, r.inBit);
    m.whenSlots(() => {
      this.stateI = r.state.i;
      this.stateN = r.state.n;
      this.bitsI = r.bits.i;
      this.bitsN = r.bits.n;
      this.isrI = r.isr.i;
      this.isrN = r.isr.n;
      this.inBitSlot = r.inBit.i;
    });
  }

  /**
   * The bit on inBit in the cycle the controller's registers are at: the
   * tap's in the fast mode, the wire's in the reference mode. For the
   * datapath's comb, which settles right after a clock edge, before the
   * simulator's cycle count moves on, so it cannot ask the clock.
   */
  bitNow(): number {
    return this.links.fast ? this.src!.bitAt(this.done) : this.m.s[this.inBitSlot]!;
  }

  shifting(): boolean {
    const x = this.m.s[this.stateI]!;
    return x === this.st.PRE || x === this.st.WORD;
  }

  catchUp(now: number): void {
    const from = this.done;
    if (now <= from) return;
    this.done = now;
    const s = this.m.s;
    const x = s[this.stateI]!;
    const st = this.st;
    if (x === st.PRE || x === st.WORD) {
      const k = s[this.bitsI]!;
      const n = now - from;
      const stop = x === st.PRE ? 1 : 2;
      // Every skipped edge must be a pure shift: no event count among k..k-n+1.
      if (k - n + 1 <= stop) this.missed(now, from + k - stop);
      s[this.isrI] = s[this.isrN] = (s[this.isrI]! * 2 ** n + this.src!.bits(from, now)) % 65536;
      s[this.bitsI] = s[this.bitsN] = k - n;
    } else if (x === st.YWAIT) {
      this.missed(now, from);
    } else {
      this.checkAwaited(from, now);
    }
  }

  protected missed(now: number, c: number): never {
    throw new SimError('unit-assertion', `${this.m.path}: serial line: the controller missed its event at cycle ${c}`, now);
  }

  after(now: number): void {
    this.done = now + 1;
    if (!this.links.fast) return;
    const s = this.m.s;
    const st = this.st;
    const x = s[this.stateN]!;
    const k = s[this.bitsN]!;
    const from = now + 1;
    this.awaiting = x === st.IDLE ? 1 : x === st.START || x === st.Y1 ? 0 : -1;
    if (x === st.PRE) this.waker.at(from + k - 1);
    else if (x === st.WORD) this.waker.at(from + k - (k >= 2 ? 2 : 1));
    else if (this.awaiting >= 0) this.waker.at(this.src!.nextWith(from, this.awaiting));
  }

}
