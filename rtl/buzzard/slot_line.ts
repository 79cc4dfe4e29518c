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
  constructor(
    m: Module,
    name: string,
    links: LinkSet,
    private readonly tap: LinkTap,
    private readonly r: SlotRegs,
    private readonly st: SlotStates,
  ) {
    super(m, name, links);
  }

  private shiftingState(x: number): boolean {
    return x === this.st.PRE || x === this.st.DEST || x === this.st.DATA;
  }

  shifting(): boolean {
    return this.shiftingState(this.m.s[this.r.state.i]!);
  }

  catchUp(now: number): void {
    const k = now - this.done;
    if (k <= 0) return;
    this.done = now;
    const s = this.m.s;
    const { state, cnt, sr, xoutR } = this.r;
    if (!this.shiftingState(s[state.i]!)) return;
    const c = s[cnt.i]!;
    // Every skipped edge (counts c down to c-k+1) must be a pure shift.
    if (nextEvent(c) > c - k) {
      throw new SimError('unit-assertion', `${this.m.path}: ${this.sender.line.name} missed its wake-up at count ${nextEvent(c)} (caught up ${k} edges from count ${c})`, now);
    }
    const v = (s[sr.i]! * 2 ** k) % TWO32;
    s[sr.i] = s[sr.n] = v;
    s[cnt.i] = s[cnt.n] = c - k;
    s[xoutR.i] = s[xoutR.n] = v >= 2147483648 ? 1 : 0;
  }

  /** After the step of cycle `now`: connection, posts, silence of the line bit, the next wake-up. */
  after(now: number): void {
    const s = this.m.s;
    const { state, cnt, sr, xoutR, xrelease } = this.r;
    const st = s[state.i]!;
    const nx = s[state.n]!;
    const from = now + 1;
    if (s[xrelease.i] === 1) this.sender.release(from);
    if (st === this.st.ARB && nx === this.st.S1) this.sender.connect(this.tap, from);
    const c = s[cnt.i]!;
    const nc = s[cnt.n]!;
    const nsr = s[sr.n]!;
    // Unchanged (a pure shift, or the same level): what is posted stands.
    const unchanged = st === nx && (this.shiftingState(st) ? nc === c - 1 && nsr === (s[sr.i]! * 2) % TWO32 : nc === c && nsr === s[sr.i]);
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
    s[xoutR.i] = s[xoutR.n]!;
    if (this.shiftingState(nx)) {
      this.waker.at(from + nc - nextEvent(nc));
    }
  }
}
