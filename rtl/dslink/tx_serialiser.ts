/**
 * Transmit serialiser of a DS-link end (docs/dslink.md#data-and-strobe): shifts a
 * token out one bit per cycle and drives the Data and Strobe wires, Strobe
 * toggling whenever Data does not (spec §16 V1).
 *
 * This is the bit-by-bit **reference mode** of the transmitter. Everything
 * above the bits (what to send next, credit, parity) is in tx_tokens.ts, so a
 * kernel serial line can replace this unit alone (docs/dslink.md#reference-mode).
 *
 * Ports:
 *  inputs   enable      the link state machine lets the transmitter run
 *           tokBits[10] next token's bits, bit 0 first on the wire (tx_tokens)
 *           tokLen[4]   its length: 4, 8 (NULL) or 10
 *  outputs  take        (comb) the next token is loaded at this clock edge:
 *                       enabled and the bit on the wire now is the current
 *                       token's last (or the wire is idle). Tokens follow
 *                       each other with no gap.
 *           data, strobe  the wires (registers)
 *  registers sh[10]     bits still to send after the one on the wire
 *           left[4]     how many
 *           more        left > 0: `take` reads it instead of `left`, so it
 *                       is evaluated twice a token, not every cycle
 *           busy        a token is on the wire
 * No token (tokLen 0, only with config runIdle 'one-null'/'silent',
 * docs/dslink.md#run-idle): the wires hold their values (no transition, so
 * the receiver sees no bit) and `take` stays 1 until a token comes.
 * Disabled: the wires go to 0 at the next edge and stay there (SpaceWire
 * "silence"; the far end sees a disconnect).
 */
import { Module, type ProcessDecl, type Signal } from '../kernel/module.ts';
import type { DsNullTrain } from './null_train.ts';
import type { DsTokenTrain } from './token_train.ts';

export class DsTxSerialiser extends Module {
  readonly enable: Signal;
  readonly tokBits: Signal;
  readonly tokLen: Signal;
  readonly take: Signal;
  readonly data: Signal;
  readonly strobe: Signal;
  readonly sh: Signal;
  readonly left: Signal;
  readonly busy: Signal;
  readonly more: Signal;
  readonly shiftProc: ProcessDecl;
  private readonly bindSlots: () => void;
  /** The NULL train of this direction (null_train.ts), set when the link is joined to a DsLinkEnd. */
  txTrain: DsNullTrain | null = null;
  /** The token train of this direction (token_train.ts): tokens posted on a serial line in the fast mode. */
  tokTrain: DsTokenTrain | null = null;
  /**
   * Processes woken on `take`'s rise only (the token choice's `advance`, the
   * credit count: wake on rise, docs/kernel.md "Stop 21: token layer"),
   * set by the link end. `take` 1 at two edges in a row is no rise: this
   * process wakes them at the second (holdEdge).
   */
  readonly holdWake: ProcessDecl[] = [];
  /** Negative control only (tests): no wake-up of holdWake when `take` stays 1. */
  static noHoldWake = false;
  /** Negative control only (tests): the shift process not woken by take's rise. */
  static noTakeRead = false;

  constructor(parent: Module | null, name: string) {
    super(parent, name);
    const enable = (this.enable = this.input('enable'));
    const tokBits = (this.tokBits = this.input('tokBits', 10));
    const tokLen = (this.tokLen = this.input('tokLen', 4));
    const take = (this.take = this.output('take'));
    const d = (this.data = this.reg('data'));
    const s = (this.strobe = this.reg('strobe'));
    const sh = (this.sh = this.reg('sh', 10));
    const left = (this.left = this.reg('left', 4));
    const busy = (this.busy = this.reg('busy'));
    const more = (this.more = this.reg('more'));

    // Slot indices, read from this closure rather than through the Signal
    // objects (docs/kernel.md "Stop 19: C104 at scale"). Set by onElaborated.
    let en = 0, tb = 0, tl = 0, tk = 0, dI = 0, dN = 0, sI = 0, sN = 0, shI = 0, shN = 0, lI = 0, lN = 0, bN = 0, mI = 0, mN = 0;
    this.bindSlots = () => {
      [en, tb, tl, tk, dI, dN, sI, sN] = [enable.i, tokBits.i, tokLen.i, take.i, d.i, d.n, s.i, s.n];
      [shI, shN, lI, lN, bN, mI, mN] = [sh.i, sh.n, left.i, left.n, busy.n, more.i, more.n];
    };

    this.comb(
      () => {
        const st = this.s;
        st[tk] = st[en] === 1 && st[mI] === 0 ? 1 : 0;
      },
      { writes: [take], reads: [enable, more], name: 'take' },
    );

    const shift = (): void => {
      const tt = this.tokTrain;
      if (tt !== null && tt.onShift()) return; // tokens on a serial line (token_train.ts)
      const train = this.txTrain;
      if (train !== null && train.onShift()) return; // a NULL train on demand (null_train.ts)
      if (tt !== null && tt.tryEnter()) return;
      const st = this.s;
      if (st[en] !== 1) {
        st[dN] = 0;
        st[sN] = 0;
        st[shN] = 0;
        st[lN] = 0;
        st[mN] = 0;
        st[bN] = 0;
        return;
      }
      const l = st[lI]!;
      let bit: number;
      let nl: number;
      if (l === 0 && st[tl] === 0) {
        // nothing to send: hold the wires (docs/dslink.md#run-idle)
        st[bN] = 0;
        return;
      }
      if (l === 0) {
        const bits = st[tb]!;
        bit = bits & 1;
        st[shN] = bits >>> 1;
        nl = st[tl]! - 1;
      } else {
        const v = st[shI]!;
        bit = v & 1;
        st[shN] = v >>> 1;
        nl = l - 1;
      }
      st[lN] = nl;
      st[mN] = nl > 0 ? 1 : 0;
      st[bN] = 1;
      const pd = st[dI]!;
      st[dN] = bit;
      if (bit === pd) st[sN] = st[sI]! ^ 1;
    };
    this.shiftProc = this.seq(
      () => {
        shift();
        // `take` 1 now (a poked one too) and `more` 0 next: take stays 1 over the edge, no rise (holdWake).
        const st = this.s;
        if (st[tk] === 1 && st[mN] === 0) this.holdEdge();
      },
      // `take` read on its rise only (no guarded reads), for the holdWake
      // check above: in a token train `more` falls by a timed write
      // (token_train.ts post), so nothing else runs this process at the edge
      // before a load, where a poked `take` 1 stays 1 over the load edge
      // (docs/kernel.md "Stop 22: token layer"). Unpoked, take rises at load
      // edges, where the process runs anyway. `take` is a still NULL train's
      // on-demand slot (not marked when it changes): a guard there may miss
      // a rise, which only leaves this process as it was before it read take
      // (a poke of take thaws that train first); with no guarded reads it
      // hides nothing ("Exact sensitivity": why owned guards are refused).
      { reads: [enable, tokBits, tokLen, d, s, sh, left], readsWhen: DsTxSerialiser.noTakeRead ? [] : [{ when: take, bits: 1, reads: [], rise: true }], name: 'shift' },
    );
  }

  /**
   * At an edge where `take` is 1 and may stay 1 (`more` 0 next: no token
   * loaded, or one of at most one bit, which only a poked tokLen offers; or
   * a poked `take` in the cycle before a load edge): the processes that wake on take's rise run at the next edge as
   * the reference mode runs them (docs/kernel.md "Stop 21: token layer").
   */
  private holdEdge(): void {
    const w = this.holdWake;
    if (w.length === 0 || DsTxSerialiser.noHoldWake || this.wakeSink!.mode !== 'activity') return;
    const next = this.cycleRef.cycle + 1;
    for (const p of w) p.module.wakeAt(p, next);
  }

  override onElaborated(): void {
    this.bindSlots();
  }
}
