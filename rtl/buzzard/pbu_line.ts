/**
 * A packet buffer unit's two link ends on serial lines (docs/kernel.md
 * "Buzzard links on serial lines" and "Stop 19: PBU"; the PBU itself:
 * packet_buffer_unit.ts, seed 002 §5.4.2 and the framing of §5.4.8). Each
 * end belongs to one controller's process and has its own catch-up cursor
 * and wake-ups, so a run of one controller neither catches up nor wakes the
 * other.
 *
 * Input end (the input controller, pbu_input_controller.ts): inside the
 * preheader, the destination and a word an edge only shifts the line bit
 * into inShift and counts inCnt up; in a start or sync it only waits (a 1 in
 * a sync sets inCnt to 1, "1 seen"). The controller acts at the preheader's
 * first bit (step 4: refusal or freeRows-1) and last bit (step 5), the
 * destination's last bit (step 6/7), a word's last bit (step 8) and the
 * awaited bits (the S1, the 0 of a start or sync, the 0 that ends a refused
 * packet).
 * Output end (the output controller and framing, pbu_output_controller.ts):
 * inside the head and a word an edge only counts txCnt down and shows the
 * next bit (txBit); it acts at the field's last bit, at the strict
 * post-preheader sync (txCnt 17) and, in the packet's last word only, one
 * bit before the word's end (the release register txRel: 1 when no word is
 * left to read or latch; in any other word that edge leaves txRel 0, a pure
 * edge, and only a run of the controller, which then asks again, can make
 * the word the last).
 * Everything else the controllers do is driven by registers and inputs that
 * wake them anyway. In the fast mode each runs at those points (timed
 * wake-ups, and lineChanged when a sender's post shows an awaited bit) and
 * `catchUp` applies the pure edges between, with the bits the tap of the
 * neighbour's crossbar output carried.
 */
import type { Module, Signal } from '../kernel/module.ts';
import { SimError } from '../kernel/errors.ts';
import { ReceiverEnd, SenderEnd, type LinkSet, type LinkTap } from './link_lines.ts';
import {
  IN_DEST, IN_LATCH, IN_LOAD, IN_PRE, IN_PSYNC, IN_REF, IN_REFD, IN_SBIT, IN_START, IN_SYNC, IN_WAIT, IN_WORD, OUT_FETCH, OUT_IDLE,
  T_HEAD, T_PY0, T_PY1, T_S0, T_S1, T_WORD, T_Y0, T_Y1, WRONG_ARRIVAL, lineBit,
} from './pbu_kit.ts';

export interface PbuInRegs {
  inBit: Signal;
  inState: Signal;
  inCnt: Signal;
  inShift: Signal;
  wpend: Signal;
  wgnt: Signal;
}

export interface PbuOutRegs {
  txPhase: Signal;
  txCnt: Signal;
  txShift: Signal;
  txBit: Signal;
  xrelease: Signal;
  outState: Signal;
  xgnt: Signal;
  xgidx: Signal;
  outLen: Signal;
  outDataValid: Signal;
  rpend: Signal;
}

/** Framing sizes of the PBU's packets (framing.ts geometry). */
export interface PbuFraming {
  preBits: number;
  headLen: number;
  strict: boolean;
}

function missed(m: Module, now: number, c: number, side: string): never {
  throw new SimError('unit-assertion', `${m.path}: serial line: the ${side} controller missed an event at cycle ${c}`, now);
}

/** The input controller's end: it receives from the neighbour's O_i (its tap set by the cube). */
export class PbuInputEnd extends ReceiverEnd {
  // Slot indices on the instance (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
  private inCntI = 0;
  private inCntN = 0;
  private inShiftI = 0;
  private inShiftN = 0;
  private inStateI = 0;
  private inStateN = 0;
  private wgntI = 0;
  private wpendI = 0;
  private wpendN = 0;
  private readonly headMod: number;

  constructor(
    m: Module,
    links: LinkSet,
    r: PbuInRegs,
    private readonly k: PbuFraming,
    /** Stop 24 (docs/kernel.md "Stop 24: Buzzard"): the sync's 0 before a word is applied by the catch-up, not a run. */
    private readonly foldSync = false,
  ) {
    super(m, links, r.inBit);
    this.headMod = 2 ** k.headLen;
    m.whenSlots(() => {
      this.inCntI = r.inCnt.i;
      this.inCntN = r.inCnt.n;
      this.inShiftI = r.inShift.i;
      this.inShiftN = r.inShift.n;
      this.inStateI = r.inState.i;
      this.inStateN = r.inState.n;
      this.wgntI = r.wgnt.i;
      this.wpendI = r.wpend.i;
      this.wpendN = r.wpend.n;
    });
  }

  shifting(): boolean {
    const ist = this.m.s[this.inStateI]!;
    return ist === IN_PRE || ist === IN_REF || ist === IN_DEST || ist === IN_WORD || ist === IN_SYNC || ist === IN_PSYNC;
  }

  catchUp(now: number): void {
    const from = this.done;
    if (now <= from) return;
    this.done = now;
    const s = this.m.s;
    const ist = s[this.inStateI]!;
    if (ist === IN_PRE || ist === IN_REF || ist === IN_DEST || ist === IN_WORD) {
      let cnt = s[this.inCntI]!;
      let sh = s[this.inShiftI]!;
      const last = ist === IN_PRE || ist === IN_REF ? this.k.preBits - 1 : 15;
      const mod = ist === IN_WORD ? 65536 : this.headMod;
      // Every skipped edge must be a pure shift: no event count among cnt..cnt+n-1.
      const n = now - from;
      if ((ist === IN_PRE && cnt === 0) || cnt + n - 1 >= last) this.missed(now, from + Math.max(0, last - cnt));
      if (ist !== IN_REF) sh = (sh * 2 ** n + this.src!.bits(from, now)) % mod;
      cnt += n;
      s[this.inCntI] = s[this.inCntN] = cnt;
      s[this.inShiftI] = s[this.inShiftN] = sh;
    } else if (ist === IN_SYNC || ist === IN_PSYNC) {
      let cnt = s[this.inCntI]!;
      for (let c = from; c < now; c++) {
        if (this.src!.bitAt(c) === 1) {
          cnt = 1;
          continue;
        }
        if (ist === IN_PSYNC || cnt === 0 || !this.foldSync) this.missed(now, c);
        // The sync's 0 before a word (foldSync): the edge only enters the
        // word (inState := word, inCnt := 0); the word's bits from c+1 on
        // shift as in a word, up to its last bit (the event).
        const n = now - (c + 1);
        if (n >= 16) this.missed(now, c + 16);
        s[this.inStateI] = s[this.inStateN] = IN_WORD;
        this.awaiting = -1;
        s[this.inCntI] = s[this.inCntN] = n;
        if (n > 0) s[this.inShiftI] = s[this.inShiftN] = (s[this.inShiftI]! * 2 ** n + this.src!.bits(c + 1, now)) % 65536;
        return;
      }
      s[this.inCntI] = s[this.inCntN] = cnt;
    } else {
      this.checkAwaited(from, now);
    }
  }

  protected missed(now: number, c: number): never {
    return missed(this.m, now, c, 'input');
  }

  /**
   * foldSync: in a sync before a word the edge of its 0 is no event (the
   * catch-up enters the word): the next event is the word's last bit, 16
   * edges after the 0; unless the 0 comes at once with no 1 before it (a
   * framing error, which the step reports there).
   */
  protected override wakeFor(z: number, from: number, cnt?: number): number {
    const s = this.m.s;
    if (!this.foldSync || z === Infinity || s[this.inStateN] !== IN_SYNC || (z === from && (cnt ?? s[this.inCntI]) === 0)) return z;
    return z + (WRONG_ARRIVAL.mode === 'syncLate' ? 17 : 16);
  }

  /** After the input step of cycle `now`: the next input event. */
  after(now: number): void {
    const from = now + 1;
    this.done = from;
    if (!this.links.fast) return;
    const s = this.m.s;
    const k = this.k;
    let t = Infinity;
    const nist = s[this.inStateN]!;
    const ncnt = s[this.inCntN]!;
    this.awaiting = -1;
    if (nist === IN_PRE) t = ncnt === 0 ? from : from + k.preBits - 1 - ncnt;
    else if (nist === IN_REF) t = from + k.preBits - 1 - ncnt;
    else if (nist === IN_DEST || nist === IN_WORD) t = from + 15 - ncnt;
    else {
      this.awaiting = nist === IN_WAIT ? 1 : nist === IN_SBIT || nist === IN_REFD || nist === IN_SYNC || nist === IN_PSYNC ? 0 : -1;
      if (this.awaiting >= 0) t = this.wakeFor(this.src!.nextWith(from, this.awaiting), from, ncnt);
    }
    // The controller does not read its own state registers (a change of
    // them would wake it at every field's first bit, a pure shift): it asks
    // for the next edge itself on entering the states it leaves or checks
    // there whatever the line does (steps 1, 2, 7; step 1 then waits for a
    // change of the free row register, a read), and when a word was written
    // in the cycle the next one was latched (wpend stays 1 and the RAM's
    // grant may stay 1: no read changes, yet the write is due).
    const ist = s[this.inStateI]!;
    if ((nist !== ist && (nist === IN_START || nist === IN_LATCH || nist === IN_LOAD)) || (s[this.wpendI] === 1 && s[this.wgntI] === 1 && s[this.wpendN] === 1)) t = from;
    this.waker.at(t);
  }
}

/** The output controller's end: it sends on its own line, connected to a crossbar output's tap from a grant to a release. */
export class PbuOutputEnd extends SenderEnd {
  // Slot indices on the instance (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
  private outDataValidI = 0;
  private outDataValidN = 0;
  private outLenI = 0;
  private outLenN = 0;
  private outStateI = 0;
  private outStateN = 0;
  private rpendI = 0;
  private rpendN = 0;
  private txBitI = 0;
  private txBitN = 0;
  private txCntI = 0;
  private txCntN = 0;
  private txPhaseI = 0;
  private txPhaseN = 0;
  private txShiftI = 0;
  private txShiftN = 0;
  private xgidxI = 0;
  private xgntI = 0;
  private xreleaseI = 0;
  constructor(
    m: Module,
    name: string,
    links: LinkSet,
    /** This node's crossbar output taps (O_0..O_n). */
    private readonly taps: readonly LinkTap[],
    r: PbuOutRegs,
    private readonly k: PbuFraming,
    /**
     * The timed word arrival (docs/kernel.md "Stop 24: Buzzard"): the
     * controller does not read outState, outLen, outAddr, outData,
     * outDataValid or rpend (its own registers, which change at the read
     * grant and the word's arrival, where it has nothing else to do); this
     * end asks for the edges where a change of them makes it act.
     */
    private selfWakes = false,
  ) {
    super(m, name, links);
    if (WRONG_ARRIVAL.mode === 'noSelfWakes') this.selfWakes = false; // negative control only
    m.whenSlots(() => {
      this.outDataValidI = r.outDataValid.i;
      this.outDataValidN = r.outDataValid.n;
      this.outLenI = r.outLen.i;
      this.outLenN = r.outLen.n;
      this.outStateI = r.outState.i;
      this.outStateN = r.outState.n;
      this.rpendI = r.rpend.i;
      this.rpendN = r.rpend.n;
      this.txBitI = r.txBit.i;
      this.txBitN = r.txBit.n;
      this.txCntI = r.txCnt.i;
      this.txCntN = r.txCnt.n;
      this.txPhaseI = r.txPhase.i;
      this.txPhaseN = r.txPhase.n;
      this.txShiftI = r.txShift.i;
      this.txShiftN = r.txShift.n;
      this.xgidxI = r.xgidx.i;
      this.xgntI = r.xgnt.i;
      this.xreleaseI = r.xrelease.i;
    });
  }

  shifting(): boolean {
    const ph = this.m.s[this.txPhaseI]!;
    return ph === T_HEAD || ph === T_WORD;
  }

  /** The fast mode (the controller posts timed writes only there). */
  get fast(): boolean {
    return this.links.fast;
  }

  catchUp(now: number): void {
    const from = this.done;
    if (now <= from) return;
    this.done = now;
    const s = this.m.s;
    const ph = s[this.txPhaseI]!;
    if (ph === T_HEAD || ph === T_WORD) {
      let tc = s[this.txCntI]!;
      // No event count among tc..tc-n+1: the last bit (1), the strict sync (17), the release (2, last word only).
      const n = now - from;
      const ev = ph === T_WORD ? (this.lastWord(this.outLenI, this.outDataValidI, this.rpendI) ? 2 : 1) : this.k.strict && tc >= 17 ? 17 : 1;
      if (tc - n + 1 <= ev) missed(this.m, now, from + tc - ev, 'output');
      tc -= n;
      s[this.txCntI] = s[this.txCntN] = tc;
      s[this.txBitI] = s[this.txBitN] = lineBit(ph, tc, s[this.txShiftI]!);
    }
  }

  /** The word on the line is the packet's last (no word left to read or latch: txRel's condition), from current or next values. */
  private lastWord(len: number, odv: number, rp: number): boolean {
    const s = this.m.s;
    return s[len] === 0 && s[odv] === 0 && s[rp] === 0;
  }

  /**
   * After the output step of cycle `now`: connection, posts, silence of the
   * line bit, the next output event. `arrivalNext`: the word read at this
   * edge arrives at the next one by timed writes (no run there).
   */
  after(now: number, arrivalNext = false): void {
    const s = this.m.s;
    const k = this.k;
    const from = now + 1;
    // the connection: released at the last bit, made at a grant
    if (s[this.xreleaseI] === 1) this.sender.release(from);
    if (s[this.outStateI] === OUT_IDLE && s[this.xgntI] === 1) this.sender.connect(this.taps[s[this.xgidxI]!]!, from);
    // a new field (or level) on the line
    const ph = s[this.txPhaseI]!;
    const nph = s[this.txPhaseN]!;
    const tc = s[this.txCntI]!;
    const nc = s[this.txCntN]!;
    const nsh = s[this.txShiftN]!;
    // Unchanged (a pure shift, or the same level): what is posted stands.
    const unchanged = ph === nph && nsh === s[this.txShiftI] && nc === (ph === T_HEAD || ph === T_WORD ? tc - 1 : tc);
    if (!unchanged) {
      if (nph === T_HEAD || nph === T_WORD) {
        const n = nph === T_HEAD && k.strict && nc > 16 ? nc - 16 : nc; // to the strict post-preheader sync, or the field's end
        this.sender.send(from, Math.floor(nsh / 2 ** (nc - n)) % 2 ** n, n);
      } else {
        this.sender.level(from, lineBit(nph, nc, nsh) as 0 | 1);
      }
    }
    this.done = from;
    if (!this.links.fast) return;
    // The line bit is computed on demand: no commit of it wakes the crossbar's data path.
    s[this.txBitI] = s[this.txBitN]!;
    if (nph === T_HEAD) this.waker.at(from + nc - (k.strict && nc >= 17 ? 17 : 1));
    else if (nph === T_WORD) this.waker.at(from + nc - (nc >= 2 && this.lastWord(this.outLenN, this.outDataValidN, this.rpendN) ? 2 : 1));
    // The framing phase is not among the controller's reads (entering a head
    // or word would wake it for a pure shift): it asks for the next edge
    // itself after S0, PY0, Y0 (always left at the next edge) and on
    // entering S1, PY1, Y1 (left at the first edge with hold 0 and, at a Y1,
    // the next word latched: changes of hold, outState and outDataValid
    // wake it while it stays).
    else if (nph === T_S0 || nph === T_PY0 || nph === T_Y0 || (nph !== ph && (nph === T_S1 || nph === T_PY1 || nph === T_Y1))) this.waker.at(from);
    if (!this.selfWakes) return;
    // What the reads of its own registers woke it for (selfWakes): step 4
    // with nothing left to read (to step 6 at the next edge), and a Y1
    // stretched until the word is there: the word came at this edge (the
    // framing latches it at the next), or comes at the next by timed writes.
    if (s[this.outStateN] === OUT_FETCH && s[this.outLenN] === 0) this.waker.at(from);
    else if (nph === T_Y1 && ph === T_Y1) {
      if (s[this.outDataValidN] === 1 && s[this.outDataValidI] === 0) this.waker.at(from);
      else if (arrivalNext) this.waker.at(from + 1);
    }
  }
}
