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
  IDLE: number;
  ARB: number;
  S1: number;
  S0: number;
  PY1: number;
  PY0: number;
  Y1: number;
  Y0: number;
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
  pfAvail: Signal;
  words: Signal;
  pktDone: Signal;
  refused: Signal;
}

/**
 * Negative controls only (test/buzzard/slot_events.test.ts): 'noLastEvent'
 * skips the counts 18 and 2 of a packet's last word (its release comes an
 * edge late); 'noRefillEvent' skips the count 24 with the prefetch empty
 * (the refill request comes late); 'noAvWake' does not wake the slot at the
 * next edge when its prefetch flag changes in IDLE or Y1; 'noZeroPost' does
 * not post the field behind a 0 at the 0's start.
 */
export const SLOT_FAULT = { mode: '' as '' | 'noLastEvent' | 'noRefillEvent' | 'noAvWake' | 'noZeroPost' };

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
  private pfAvailI = 0;
  private pfAvailN = 0;
  private wordsI = 0;
  private wordsN = 0;
  private pktDoneN = 0;
  private refusedN = 0;

  constructor(
    m: Module,
    name: string,
    links: LinkSet,
    private readonly tap: LinkTap,
    r: SlotRegs,
    private readonly st: SlotStates,
    /**
     * The slot's events only (docs/kernel.md "Stop 25: Buzzard"; node.ts
     * `BuzzardNodeOptions.slotEvents`): the slot does not read its own
     * registers; this end asks for the edges where the step list acts (the
     * counts 24, 18 and 2 only where they do something), and the edge of a
     * sync's or start's 0 (S0, PY0, Y0: always left at the next edge for the
     * field behind it) is applied by the catch-up, not by a run.
     */
    private readonly events = false,
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
      this.pfAvailI = r.pfAvail.i;
      this.pfAvailN = r.pfAvail.n;
      this.wordsI = r.words.i;
      this.wordsN = r.words.n;
      this.pktDoneN = r.pktDone.n;
      this.refusedN = r.refused.n;
    });
  }

  private shiftingState(x: number): boolean {
    return x === this.st.PRE || x === this.st.DEST || x === this.st.DATA;
  }

  /** S0, PY0, Y0: the 0 before a field, whose edge the catch-up applies (events only). */
  private zeroState(x: number): boolean {
    return x === this.st.S0 || x === this.st.PY0 || x === this.st.Y0;
  }

  /** The shifting state a 0 leads to (S0 → PRE, PY0 → DEST, Y0 → DATA). */
  private afterZero(x: number): number {
    return x === this.st.S0 ? this.st.PRE : x === this.st.PY0 ? this.st.DEST : this.st.DATA;
  }

  /**
   * The first count at or below c (state x, prefetch flag av, words left)
   * whose edge is not a pure shift. With `events`, the counts where the step
   * list acts (node_output_port.ts): 24 only with the prefetch empty (the
   * refill request at 23, step 4; the flag changes only at a run), 18 in the
   * preheader (the refusal point's atRef) and before a packet's last word's
   * count 17 (lastR), 17 and 1 (a field's end), 2 before the packet's last
   * bit (lastR: a destination with L = 0, the last word). Without: 24, 18,
   * 17, 2, 1 in every field.
   */
  private eventAt(x: number, c: number, av: number, words: number): number {
    if (!this.events) return nextEvent(c);
    const f = SLOT_FAULT.mode;
    if (c >= 24 && av === 0 && f !== 'noRefillEvent') return 24;
    if (x === this.st.PRE) return c >= 18 ? 18 : 17;
    const last = f !== 'noLastEvent' && (x === this.st.DEST ? words === 0 : words === 1);
    if (c >= 17) return c >= 18 && last ? 18 : 17;
    return c >= 2 && last ? 2 : 1;
  }

  shifting(): boolean {
    const x = this.m.s[this.stateI]!;
    return this.shiftingState(x) || (this.events && this.zeroState(x));
  }

  catchUp(now: number): void {
    let k = now - this.done;
    if (k <= 0) return;
    this.done = now;
    const s = this.m.s;
    let x = s[this.stateI]!;
    if (this.events && this.zeroState(x)) {
      // The 0's edge: the state enters the field (nothing else changes:
      // no pulse stands, the line bit becomes sr's MSB); then its shifts.
      x = this.afterZero(x);
      s[this.stateI] = s[this.stateN] = x;
      k--;
      if (k === 0) {
        s[this.xoutRI] = s[this.xoutRN] = s[this.srI]! >= 2147483648 ? 1 : 0;
        return;
      }
    } else if (!this.shiftingState(x)) return;
    const c = s[this.cntI]!;
    // Every skipped edge (counts c down to c-k+1) must be a pure shift.
    const ev = this.eventAt(x, c, s[this.pfAvailI]!, s[this.wordsI]!);
    if (ev > c - k) {
      throw new SimError('unit-assertion', `${this.m.path}: ${this.sender.line.name} missed its wake-up at count ${ev} (caught up ${k} edges from count ${c})`, now);
    }
    const v = (s[this.srI]! * 2 ** k) % TWO32;
    s[this.srI] = s[this.srN] = v;
    s[this.cntI] = s[this.cntN] = c - k;
    s[this.xoutRI] = s[this.xoutRN] = v >= 2147483648 ? 1 : 0;
  }

  /** After the step of cycle `now`: connection, posts, silence of the line bit, the next wake-up. */
  after(now: number): void {
    const s = this.m.s;
    const cur = s[this.stateI]!;
    const nx = s[this.stateN]!;
    const from = now + 1;
    if (s[this.xreleaseI] === 1) this.sender.release(from);
    if (cur === this.st.ARB && nx === this.st.S1) this.sender.connect(this.tap, from);
    const c = s[this.cntI]!;
    const nc = s[this.cntN]!;
    const nsr = s[this.srN]!;
    // Unchanged (a pure shift, or the same level): what is posted stands.
    const unchanged = cur === nx && (this.shiftingState(cur) ? nc === c - 1 && nsr === (s[this.srI]! * 2) % TWO32 : nc === c && nsr === s[this.srI]);
    if (!unchanged) {
      if (this.shiftingState(nx)) {
        const k = nc > 16 ? nc - 16 : nc; // to the end of the field (count 17 or 1)
        this.sender.send(from, Math.floor(nsr / 2 ** (32 - k)), k);
      } else {
        this.sender.level(from, nx === this.st.S1 || nx === this.st.PY1 || nx === this.st.Y1 ? 1 : 0);
        // The field behind a 0 is known now (its edge is the catch-up's): posted
        // in both modes, so either can take over; a run at the 0 posts it again, the same.
        if (this.events && this.zeroState(nx) && SLOT_FAULT.mode !== 'noZeroPost') {
          const k = nc > 16 ? nc - 16 : nc;
          this.sender.send(from + 1, Math.floor(nsr / 2 ** (32 - k)), k);
        }
      }
    }
    this.done = from;
    if (!this.links.fast) return;
    // The line bit is computed on demand: no commit of it wakes the crossbar's data path.
    s[this.xoutRI] = s[this.xoutRN]!;
    if (this.shiftingState(nx)) {
      this.waker.at(from + nc - this.eventAt(nx, nc, s[this.pfAvailN]!, s[this.wordsN]!));
    }
    if (!this.events) return;
    // What the reads of its own registers woke it for, where the step list acts at the next edge:
    const st = this.st;
    if (this.zeroState(nx)) this.waker.at(from + 1 + nc - this.eventAt(this.afterZero(nx), nc, s[this.pfAvailN]!, s[this.wordsN]!));
    else if (
      // a one-cycle pulse falls;
      s[this.pktDoneN] === 1 ||
      s[this.refusedN] === 1 ||
      // S1, PY1, Y1 entered: left at the first edge with hold 0 (hold's changes wake it while it stays);
      (nx !== cur && (nx === st.S1 || nx === st.PY1 || nx === st.Y1)) ||
      // the prefetch loaded or taken in IDLE or a Y1 (step 1; a chunk moved in, or the Y1 left).
      ((nx === st.IDLE || nx === st.Y1) && s[this.pfAvailN] !== s[this.pfAvailI] && SLOT_FAULT.mode !== 'noAvWake')
    ) {
      this.waker.at(from);
    }
  }
}
