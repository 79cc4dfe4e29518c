/**
 * Receive deserialiser of a DS-link end (the bit half of SpaceWire Light's
 * spwrecv): recovers bits from the Data and Strobe wires, finds the first
 * NULL, frames tokens and detects a disconnect (docs/dslink.md#data-and-strobe,
 * #synchronisation, #errors).
 *
 * Bit recovery: a bit arrives in a cycle where D xor S differs from the
 * previous cycle's (the receiver's bit clock is D xor S, spec §16 V1); its
 * value is D. A cycle in which both wires change carries no clock edge.
 * Synchronisation: until the first NULL, the last 7 bits are compared with a
 * NULL after its first bit (1 1 1 0 1 0 0, spec §16 V4); from then on tokens
 * are framed by their flag bit (4 or 10 bits).
 * Disconnect: once a bit has been seen since enable, no bit for
 * `disconnectCycles` cycles (spec §16 V6).
 *
 * This is the bit-by-bit reference mode of the receiver; tokens and their
 * parity/escape meaning are rx_decoder.ts's (docs/dslink.md#reference-mode).
 *
 * Flow-through (`flow`, the link's config flowThrough, docs/dslink.md#flow-through):
 * the token-level outputs are combinational, valid in the cycle the bit that
 * completes them is on the wires (computed from the wires and the registers
 * below by the same rules), instead of registers one cycle later. The
 * registers, `disc` and `gotBit` are as in the default.
 *
 * Ports:
 *  inputs   dIn, sIn    the wires;  enable (the link state machine)
 *  outputs (registers, one-cycle pulses unless noted)
 *           out: hdrV, hdrP, hdrF, tokV, tokCtl, tokPay[8], syncV
 *                              the token-level interface (rx_token_link.ts;
 *                              combinational with `flow`)
 *           disc               disconnect
 *           gotBit (level)     a bit has arrived since enable
 *  registers xPrev (D xor S last cycle, tracked even when disabled), synced,
 *           hist[7], cnt[4] (bits of the current token so far), pBit, flag,
 *           acc[8], discCnt
 */
import { bitsToHold } from '../lib/check.ts';
import { Module, type ProcessDecl, type Signal } from '../kernel/module.ts';
import type { DsNullTrain } from './null_train.ts';
import type { DsTokenTrain } from './token_train.ts';
import { declareRxTokenLink, type RxTokenLink } from './rx_token_link.ts';
import { NULL_SYNC_BITS, NULL_SYNC_MASK } from './tokens.ts';

export class DsRxDeserialiser extends Module {
  readonly dIn: Signal;
  readonly sIn: Signal;
  readonly enable: Signal;
  /** Outputs to the decoder (registers): rx_token_link.ts. */
  readonly out: RxTokenLink;
  readonly disc: Signal;
  readonly gotBit: Signal;
  readonly xPrev: Signal;
  readonly synced: Signal;
  readonly hist: Signal;
  readonly cnt: Signal;
  readonly pBit: Signal;
  readonly flag: Signal;
  readonly acc: Signal;
  readonly discCnt: Signal;
  readonly bitsProc: ProcessDecl;
  /** The NULL train of the incoming direction (null_train.ts): while it is on demand, nothing to do here. */
  rxTrain: DsNullTrain | null = null;
  /** The token train of the incoming direction (token_train.ts): while it runs, every value here is on demand (docs/dslink.md#token-trains). */
  tokTrain: DsTokenTrain | null = null;

  constructor(parent: Module | null, name: string, opts: { disconnectCycles: number; flow?: boolean }) {
    super(parent, name);
    const discMax = opts.disconnectCycles;
    const flow = opts.flow === true;
    const dIn = (this.dIn = this.input('dIn'));
    const sIn = (this.sIn = this.input('sIn'));
    const enable = (this.enable = this.input('enable'));
    const out = (this.out = declareRxTokenLink((n, w) => (flow ? this.output(n, w) : this.reg(n, w))));
    const { hdrV, hdrP, hdrF, tokV, tokCtl, tokPay, syncV } = out;
    const disc = (this.disc = this.reg('disc'));
    const gotBit = (this.gotBit = this.reg('gotBit'));
    const xPrev = (this.xPrev = this.reg('xPrev'));
    const synced = (this.synced = this.reg('synced'));
    const hist = (this.hist = this.reg('hist', 7));
    const cnt = (this.cnt = this.reg('cnt', 4));
    const pBit = (this.pBit = this.reg('pBit'));
    const flag = (this.flag = this.reg('flag'));
    const acc = (this.acc = this.reg('acc', 8));
    const discCnt = (this.discCnt = this.reg('discCnt', bitsToHold(discMax)));
    const state = [...(flow ? [] : [hdrV, tokV, syncV]), disc, gotBit, synced, hist, cnt, pBit, flag, acc, discCnt];
    /**
     * The token-level outputs of the bit on the wires now (x the clock, d its
     * value), written to slot `at` of each: their next value (registers) or
     * their value now (flow-through's comb process).
     */
    const emit = (s: Float64Array, at: (sig: Signal) => number, x: number, d: number): void => {
      s[at(hdrV)] = 0;
      s[at(tokV)] = 0;
      s[at(syncV)] = 0;
      if (s[enable.i] !== 1 || x === s[xPrev.i]) return;
      if (s[synced.i] !== 1) {
        if ((((s[hist.i]! >>> 1) | (d << 6)) & NULL_SYNC_MASK) === NULL_SYNC_BITS) s[at(syncV)] = 1;
        return;
      }
      const c = s[cnt.i]!;
      if (c === 1) {
        s[at(hdrV)] = 1;
        s[at(hdrP)] = s[pBit.i]!;
        s[at(hdrF)] = d;
      } else if (c >= 2 && c + 1 === (s[flag.i] === 1 ? 4 : 10)) {
        s[at(tokV)] = 1;
        s[at(tokCtl)] = s[flag.i]!;
        s[at(tokPay)] = s[acc.i]! | (d << (c - 2));
      }
    };
    if (flow) {
      this.comb(
        () => {
          const s = this.s;
          const d = s[dIn.i]!;
          emit(s, (sig) => sig.i, d ^ s[sIn.i]!, d);
        },
        { writes: [hdrV, hdrP, hdrF, tokV, tokCtl, tokPay, syncV], reads: [dIn, sIn, enable, xPrev, synced, hist, cnt, pBit, flag, acc], name: 'frame' },
      );
    }

    this.bitsProc = this.seq(
      () => {
        if (this.tokTrain?.onBits()) return;
        if (this.rxTrain?.dormant) return;
        const s = this.s;
        const d = s[dIn.i]!;
        const x = d ^ s[sIn.i]!;
        if (!flow) emit(s, (sig) => sig.n, x, d);
        s[xPrev.n] = x;
        s[disc.n] = 0;
        if (s[enable.i] !== 1) {
          for (const r of state) s[r.n] = 0;
          return;
        }
        if (x === s[xPrev.i]) {
          if (s[gotBit.i] === 1) {
            const dc = s[discCnt.i]! + 1;
            if (dc >= discMax) s[disc.n] = 1;
            else s[discCnt.n] = dc;
          }
          return;
        }
        s[discCnt.n] = 0;
        s[gotBit.n] = 1;
        if (s[synced.i] !== 1) {
          const h = (s[hist.i]! >>> 1) | (d << 6);
          s[hist.n] = h;
          if ((h & NULL_SYNC_MASK) === NULL_SYNC_BITS) {
            s[synced.n] = 1;
            s[cnt.n] = 0;
          }
          return;
        }
        const c = s[cnt.i]!;
        if (c === 0) {
          s[pBit.n] = d;
          s[cnt.n] = 1;
        } else if (c === 1) {
          s[flag.n] = d;
          s[acc.n] = 0;
          s[cnt.n] = 2;
        } else if (c + 1 === (s[flag.i] === 1 ? 4 : 10)) {
          s[cnt.n] = 0;
          s[acc.n] = 0;
        } else {
          s[acc.n] = s[acc.i]! | (d << (c - 2));
          s[cnt.n] = c + 1;
        }
      },
      { name: 'bits' },
    );
  }
}
