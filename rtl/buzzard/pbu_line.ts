/**
 * A packet buffer unit's two link ends on serial lines (docs/kernel.md
 * "Buzzard links on serial lines"; the PBU itself: packet_buffer_unit.ts,
 * seed 002 §5.4.2 and the framing of §5.4.8).
 *
 * Input controller: inside the preheader, the destination and a word an
 * edge only shifts the line bit into inShift and counts inCnt up; in a start
 * or sync it only waits (a 1 in a sync sets inCnt to 1, "1 seen"). It acts at
 * the preheader's first bit (step 4: refusal or freeRows-1) and last bit
 * (step 5), the destination's last bit (step 6/7), a word's last bit (step 8)
 * and the awaited bits (the S1, the 0 of a start or sync, the 0 that ends a
 * refused packet).
 * Output framing: inside the head and a word an edge only counts txCnt down
 * and shows the next bit (txBit); it acts at the field's last bit, at the
 * strict post-preheader sync (txCnt 17) and one bit before a word's end (the
 * release register txRel).
 * Everything else the PBU's one process does is driven by registers and
 * inputs that wake it anyway. In the fast mode the process runs at those
 * points (timed wake-ups, and lineChanged when a sender's post shows an
 * awaited bit) and `catchUp` applies the pure edges between, with the bits
 * the tap of the neighbour's crossbar output carried.
 */
import type { Module, Signal } from '../kernel/module.ts';
import { SimError } from '../kernel/errors.ts';
import { ReceiverEnd, SenderLine, type LinkSet, type LinkTap } from './link_lines.ts';

export interface PbuRegs {
  inBit: Signal;
  inState: Signal;
  inCnt: Signal;
  inShift: Signal;
  txPhase: Signal;
  txCnt: Signal;
  txShift: Signal;
  txBit: Signal;
  xrelease: Signal;
  outState: Signal;
  xgnt: Signal;
  xgidx: Signal;
}

/** State numbers (packet_buffer_unit.ts PBU_IN_STATES, PBU_TX_PHASES), framing sizes and the PBU's line bit. */
export interface PbuConsts {
  IN_WAIT: number;
  IN_SBIT: number;
  IN_PRE: number;
  IN_REF: number;
  IN_REFD: number;
  IN_PSYNC: number;
  IN_DEST: number;
  IN_SYNC: number;
  IN_WORD: number;
  T_S1: number;
  T_HEAD: number;
  T_PY1: number;
  T_Y1: number;
  T_WORD: number;
  OUT_IDLE: number;
  preBits: number;
  headLen: number;
  strict: boolean;
  /** The line bit for phase ph with c bits left of shift register sh (packet_buffer_unit.ts lineBit). */
  lineBit: (ph: number, c: number, sh: number) => number;
}

/** Both ends of a PBU: it receives from the neighbour's O_i (its tap set by the cube) and sends on its own line. */
export class PbuLine extends ReceiverEnd {
  readonly sender: SenderLine;
  private readonly headMod: number;

  constructor(
    m: Module,
    name: string,
    links: LinkSet,
    /** This node's crossbar output taps (O_0..O_n). */
    private readonly taps: readonly LinkTap[],
    private readonly r: PbuRegs,
    private readonly k: PbuConsts,
  ) {
    super(m, links, r.inBit);
    this.sender = new SenderLine(name);
    this.headMod = 2 ** k.headLen;
    links.lines.push(this.sender);
  }

  shifting(): boolean {
    const s = this.m.s;
    const k = this.k;
    const ist = s[this.r.inState.i]!;
    const ph = s[this.r.txPhase.i]!;
    return ist === k.IN_PRE || ist === k.IN_REF || ist === k.IN_DEST || ist === k.IN_WORD || ist === k.IN_SYNC || ist === k.IN_PSYNC || ph === k.T_HEAD || ph === k.T_WORD;
  }

  catchUp(now: number): void {
    const from = this.done;
    if (now <= from) return;
    this.done = now;
    const s = this.m.s;
    const k = this.k;
    const r = this.r;
    // input controller
    const ist = s[r.inState.i]!;
    if (ist === k.IN_PRE || ist === k.IN_REF || ist === k.IN_DEST || ist === k.IN_WORD) {
      let cnt = s[r.inCnt.i]!;
      let sh = s[r.inShift.i]!;
      const last = ist === k.IN_PRE || ist === k.IN_REF ? k.preBits - 1 : 15;
      const mod = ist === k.IN_WORD ? 65536 : this.headMod;
      // Every skipped edge must be a pure shift: no event count among cnt..cnt+n-1.
      const n = now - from;
      if ((ist === k.IN_PRE && cnt === 0) || cnt + n - 1 >= last) this.missed(now, from + Math.max(0, last - cnt));
      if (ist !== k.IN_REF) sh = (sh * 2 ** n + this.src!.bits(from, now)) % mod;
      cnt += n;
      s[r.inCnt.i] = s[r.inCnt.n] = cnt;
      s[r.inShift.i] = s[r.inShift.n] = sh;
    } else if (ist === k.IN_SYNC || ist === k.IN_PSYNC) {
      let cnt = s[r.inCnt.i]!;
      for (let c = from; c < now; c++) {
        if (this.src!.bitAt(c) === 0) this.missed(now, c);
        cnt = 1;
      }
      s[r.inCnt.i] = s[r.inCnt.n] = cnt;
    } else {
      this.checkAwaited(from, now);
    }
    // output framing
    const ph = s[r.txPhase.i]!;
    if (ph === k.T_HEAD || ph === k.T_WORD) {
      let tc = s[r.txCnt.i]!;
      // No event count among tc..tc-n+1: the last bit (1), the strict sync (17), the release (2).
      const n = now - from;
      const ev = ph === k.T_WORD ? 2 : k.strict && tc >= 17 ? 17 : 1;
      if (tc - n + 1 <= ev) this.missed(now, from + tc - ev);
      tc -= n;
      s[r.txCnt.i] = s[r.txCnt.n] = tc;
      s[r.txBit.i] = s[r.txBit.n] = k.lineBit(ph, tc, s[r.txShift.i]!);
    }
  }

  protected missed(now: number, c: number): never {
    throw new SimError('unit-assertion', `${this.m.path}: serial line: the controllers missed an event at cycle ${c}`, now);
  }

  after(now: number): void {
    const s = this.m.s;
    const k = this.k;
    const r = this.r;
    const from = now + 1;
    // the connection: released at the last bit, made at a grant
    if (s[r.xrelease.i] === 1) this.sender.release(from);
    if (s[r.outState.i] === k.OUT_IDLE && s[r.xgnt.i] === 1) this.sender.connect(this.taps[s[r.xgidx.i]!]!, from);
    // a new field (or level) on the line
    const ph = s[r.txPhase.i]!;
    const nph = s[r.txPhase.n]!;
    const tc = s[r.txCnt.i]!;
    const nc = s[r.txCnt.n]!;
    const nsh = s[r.txShift.n]!;
    // Unchanged (a pure shift, or the same level): what is posted stands.
    const unchanged = ph === nph && nsh === s[r.txShift.i] && nc === (ph === k.T_HEAD || ph === k.T_WORD ? tc - 1 : tc);
    if (!unchanged) {
      if (nph === k.T_HEAD || nph === k.T_WORD) {
        const n = nph === k.T_HEAD && k.strict && nc > 16 ? nc - 16 : nc; // to the strict post-preheader sync, or the field's end
        this.sender.send(from, Math.floor(nsh / 2 ** (nc - n)) % 2 ** n, n);
      } else {
        this.sender.level(from, k.lineBit(nph, nc, nsh) as 0 | 1);
      }
    }
    this.done = from;
    if (!this.links.fast) return;
    // The line bit is computed on demand: no commit of it wakes the crossbar's data path.
    s[r.txBit.i] = s[r.txBit.n]!;
    // the next event of either side
    let t = Infinity;
    const nist = s[r.inState.n]!;
    const ncnt = s[r.inCnt.n]!;
    this.awaiting = -1;
    if (nist === k.IN_PRE) t = ncnt === 0 ? from : from + k.preBits - 1 - ncnt;
    else if (nist === k.IN_REF) t = from + k.preBits - 1 - ncnt;
    else if (nist === k.IN_DEST || nist === k.IN_WORD) t = from + 15 - ncnt;
    else {
      this.awaiting = nist === k.IN_WAIT ? 1 : nist === k.IN_SBIT || nist === k.IN_REFD || nist === k.IN_SYNC || nist === k.IN_PSYNC ? 0 : -1;
      if (this.awaiting >= 0) t = this.src!.nextWith(from, this.awaiting);
    }
    if (nph === k.T_HEAD) t = Math.min(t, from + nc - (k.strict && nc >= 17 ? 17 : 1));
    else if (nph === k.T_WORD) t = Math.min(t, from + nc - (nc >= 2 ? 2 : 1));
    this.waker.at(t);
  }

}
