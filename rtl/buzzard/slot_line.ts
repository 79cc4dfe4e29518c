/**
 * A node output port slot's link end on a serial line (docs/kernel.md
 * "Buzzard links on serial lines"; the slot itself: node_output_port.ts,
 * seed 002 §5.4.4).
 *
 * Inside a head or word (states PRE, DEST, DATA) a slot's edge only shifts
 * sr and counts cnt down, and the line bit (xoutR) is sr's MSB: a "pure"
 * edge. The slot's process acts at every other edge: a state change, and the
 * counts where the step list does something besides shifting: 24 (the
 * refill request at 23, §8.4 step 4), 18 and 17 (the refusal point and the
 * end of a chunk's first word), 2 and 1 (the release and the end of a word).
 * In the fast mode the process runs at those counts (timed wake-ups) and the
 * pure edges between are applied by `catchUp` (when the process runs next,
 * or when someone looks). Whenever the slot starts a field it posts it on
 * its line (the rest of the field, or the level of a sync or start bit).
 */
import type { Module, Signal } from '../kernel/module.ts';
import { SimError } from '../kernel/errors.ts';
import { SenderEnd, type LinkSet, type LinkTap } from './link_lines.ts';

const TWO32 = 4294967296;

/** Slot state numbers used here (node_output_port.ts SLOT_STATES). */
export interface SlotStates {
  ARB: number;
  S1: number;
  PY1: number;
  Y1: number;
  PRE: number;
  DEST: number;
  DATA: number;
}

export interface SlotRegs {
  state: Signal;
  cnt: Signal;
  sr: Signal;
  xoutR: Signal;
  xrelease: Signal;
}

/** The first count at or below c whose edge is not a pure shift: 24, 18, 17, 2, 1 (see the header). */
function nextEvent(c: number): number {
  return c >= 24 ? 24 : c >= 17 ? (c >= 18 ? 18 : 17) : c >= 2 ? 2 : 1;
}

export class SlotLine extends SenderEnd {
  // Slot numbers of the slot's registers (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation", "Stop 21: Buzzard units").
  private stateI = 0;
  private stateN = 0;
  private cntI = 0;
  private cntN = 0;
  private srI = 0;
  private srN = 0;
  private xoutRI = 0;
  private xoutRN = 0;
  private xreleaseI = 0;

  constructor(
    m: Module,
    name: string,
    links: LinkSet,
    private readonly tap: LinkTap,
    r: SlotRegs,
    private readonly st: SlotStates,
  ) {
    super(m, name, links);
    m.whenSlots(() => {
      this.stateI = r.state.i;
      this.stateN = r.state.n;
      this.cntI = r.cnt.i;
      this.cntN = r.cnt.n;
      this.srI = r.sr.i;
      this.srN = r.sr.n;
      this.xoutRI = r.xoutR.i;
      this.xoutRN = r.xoutR.n;
      this.xreleaseI = r.xrelease.i;
    });
  }

  private shiftingState(x: number): boolean {
    return x === this.st.PRE || x === this.st.DEST || x === this.st.DATA;
  }

  shifting(): boolean {
    return this.shiftingState(this.m.s[this.stateI]!);
  }

  catchUp(now: number): void {
    const k = now - this.done;
    if (k <= 0) return;
    this.done = now;
    const s = this.m.s;
    if (!this.shiftingState(s[this.stateI]!)) return;
    const c = s[this.cntI]!;
    // Every skipped edge (counts c down to c-k+1) must be a pure shift.
    if (nextEvent(c) > c - k) {
      throw new SimError('unit-assertion', `${this.m.path}: ${this.sender.line.name} missed its wake-up at count ${nextEvent(c)} (caught up ${k} edges from count ${c})`, now);
    }
    const v = (s[this.srI]! * 2 ** k) % TWO32;
    s[this.srI] = s[this.srN] = v;
    s[this.cntI] = s[this.cntN] = c - k;
    s[this.xoutRI] = s[this.xoutRN] = v >= 2147483648 ? 1 : 0;
  }

  /** After the step of cycle `now`: connection, posts, silence of the line bit, the next wake-up. */
  after(now: number): void {
    const s = this.m.s;
    const st = s[this.stateI]!;
    const nx = s[this.stateN]!;
    const from = now + 1;
    if (s[this.xreleaseI] === 1) this.sender.release(from);
    if (st === this.st.ARB && nx === this.st.S1) this.sender.connect(this.tap, from);
    const c = s[this.cntI]!;
    const nc = s[this.cntN]!;
    const nsr = s[this.srN]!;
    // Unchanged (a pure shift, or the same level): what is posted stands.
    const unchanged = st === nx && (this.shiftingState(st) ? nc === c - 1 && nsr === (s[this.srI]! * 2) % TWO32 : nc === c && nsr === s[this.srI]);
    if (!unchanged) {
      if (this.shiftingState(nx)) {
        const k = nc > 16 ? nc - 16 : nc; // to the end of the field (count 17 or 1)
        this.sender.send(from, Math.floor(nsr / 2 ** (32 - k)), k);
      } else {
        this.sender.level(from, nx === this.st.S1 || nx === this.st.PY1 || nx === this.st.Y1 ? 1 : 0);
      }
    }
    this.done = from;
    if (!this.links.fast) return;
    // The line bit is computed on demand: no commit of it wakes the crossbar's data path.
    s[this.xoutRI] = s[this.xoutRN]!;
    if (this.shiftingState(nx)) {
      this.waker.at(from + nc - nextEvent(nc));
    }
  }
}
