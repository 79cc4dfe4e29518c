/**
 * A pair with a loaded token train a → b (data, EOP every 9th, EOM every 13th
 * character: 10- and 4-bit tokens) and characters b → a; b's sink stalls
 * from STALL to REFILL (a's credit runs out) and then pops in bursts (FCTs
 * owed and sent). Shared by the token layer's lock-step tests
 * (token_writes.test.ts, credit_flags.test.ts).
 */
import { Module } from '../../rtl/kernel/index.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import type { RxHandover } from '../../rtl/dslink/rx_decoder.ts';
import { CHAR_EOM, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { CharSink, CharSource } from './bench.ts';

export const START = 2700; // the link is in Run from ≈ 2,600
export const STALL = 2650;
export const REFILL = 3250;

export class WriteBench extends Module {
  readonly pair: DsLinkPair;
  constructor(rxHandover: RxHandover) {
    super(null, 'top');
    const pair = (this.pair = new DsLinkPair(this, 'link', { a: { rxHandover }, b: { rxHandover } }));
    // Data with an EOP every 9th and an EOM every 13th token: 10- and 4-bit tokens.
    const chars = Array.from({ length: 140 }, (_, k) => (k % 9 === 8 ? CHAR_EOP : k % 13 === 12 ? CHAR_EOM : (k * 53) & 255));
    new CharSource(this, 'srcA', pair.a, chars, [true], Array.from({ length: chars.length }, () => START));
    new CharSource(this, 'srcB', pair.b, Array.from({ length: 24 }, (_, k) => k), [true], Array.from({ length: 24 }, (_, k) => START + 30 * k));
    new CharSink(this, 'sinkA', pair.a);
    // b pops nothing from STALL to REFILL (a's credit runs out in the window), then in bursts.
    new CharSink(this, 'sinkB', pair.b, Array.from({ length: 3400 }, (_, c) => !(c >= STALL && c < REFILL) && c % 7 !== 0));
  }
}
