/**
 * The token layer's runs per token on a loaded token train (docs/kernel.md
 * "Stop 21: token layer"): a pair in the fast mode, a sending data
 * characters back to back to b (b's sink never stalls, so b's direction
 * carries an FCT every 8 characters between NULLs), each process's runs in a
 * window of the stream counted and divided by the characters a sent in it.
 * Printed as the table of docs/kernel.md (ICEMU_PRINT=1), and bounded here so
 * that a lever undone is seen: `advance` once a token (woken by take's rise
 * only), the credit count once a pulse, the link state machine's outputs not
 * at all while both ends run; the serialiser not at the edge before a load
 * and the decoder not at the edge after a pulse (timed register writes,
 * stop 22), and all of them together. Controls: `advance` and the credit
 * count woken by the pulses' falls too (DsTxTokens.advanceOnFall,
 * DsCredit.countOnFall: the behaviour before stop 21), the serialiser and
 * the decoder run where the timed writes are (DsTokenTrain.moreByRun,
 * DsRxDecoder.clearByRun: before stop 22) and the credit flags computed by
 * the comb status (DsCredit.flagsComb: before stop 23) and the decoder's
 * run at tokV (DsRxDecoder.tokvByRun: before stop 24) and b's status woken
 * by every change of its counters (DsCredit.statusPlain: before stop 25)
 * and the transmit buffer's push woken at its rise whatever its enable
 * (FIFO_OPTIONS.pushAtRise: before stop 25) exceed the bounds.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Module, Simulator } from '../../rtl/kernel/index.ts';
import { DsCredit } from '../../rtl/dslink/credit.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import { DsTxTokens } from '../../rtl/dslink/tx_tokens.ts';
import { DsRxDecoder } from '../../rtl/dslink/rx_decoder.ts';
import { DsTokenTrain } from '../../rtl/dslink/token_train.ts';
import { FIFO_OPTIONS } from '../../rtl/lib/fifo.ts';
import { CharSink, CharSource } from './bench.ts';

const CHARS = 600;
const FROM = 3500; // the link has started (≈ 2,600 cycles) and the stream runs
const WINDOW = 3000; // < 600 characters × 10 bits: the stream covers the window

class Stream extends Module {
  readonly pair: DsLinkPair;
  constructor() {
    super(null, 'top');
    const pair = (this.pair = new DsLinkPair(this, 'link'));
    new CharSource(this, 'srcA', pair.a, Array.from({ length: CHARS }, (_, k) => k & 255), [true], Array.from({ length: CHARS }, () => FROM - 500));
    new CharSource(this, 'srcB', pair.b, []);
    new CharSink(this, 'sinkA', pair.a);
    new CharSink(this, 'sinkB', pair.b);
  }
}

/** Runs per character a sends, by end (a, b) and unit process ("DsCredit.count"), over the window. */
function runsPerChar(): { perChar: Map<string, number>; chars: number } {
  const top = new Stream();
  const sim = new Simulator(top, { mode: 'activity' });
  sim.step(FROM);
  const inner = sim as unknown as { net: { seq: { module: Module; name: string }[]; comb: { module: Module; name: string }[] }; seqFns: (() => void)[]; combFns: (() => void)[] };
  const counts = new Map<string, number>();
  const wrap = (fns: (() => void)[], decls: { module: Module; name: string }[]): void =>
    decls.forEach((d, p) => {
      const end = d.module.path.match(/^(?:top\.)?link\.([ab])\./)?.[1];
      if (end === undefined) return; // the bench's source and sinks
      const key = `${end} ${d.module.constructor.name}.${d.name}`;
      const f = fns[p]!;
      fns[p] = () => {
        counts.set(key, (counts.get(key) ?? 0) + 1);
        f();
      };
    });
  wrap(inner.seqFns, inner.net.seq);
  wrap(inner.combFns, inner.net.comb);
  const sent0 = top.pair.a.ser.tokTrain!.stats.tokens;
  sim.step(WINDOW);
  // Tokens a posted in the window: CHARS/WINDOW data tokens and nothing else (b owes the FCTs, a receives them).
  const chars = top.pair.a.ser.tokTrain!.stats.tokens - sent0;
  const perChar = new Map([...counts].sort((x, y) => y[1] - x[1]).map(([k, n]) => [k, n / chars]));
  return { perChar, chars };
}

// These tests measure stop 24's timed writes at tokV (DsRxDecoder.tokvByRun = false, the default since stop 25).
beforeEach(() => {
  DsRxDecoder.tokvByRun = false;
});

afterEach(() => {
  DsTxTokens.advanceOnFall = false;
  DsCredit.countOnFall = false;
  DsTokenTrain.moreByRun = false;
  DsRxDecoder.clearByRun = false;
  DsCredit.flagsComb = false;
  DsCredit.statusPlain = false;
  FIFO_OPTIONS.pushAtRise = false;
  DsRxDecoder.tokvByRun = false; // the default (since stop 25)
});

/**
 * All DS-link and FIFO runs per character: 19.08 at stop 25 (b's status
 * guarded: 20.08; a's push with its enable: 19.08), 21.83 at stop 24 (23.21 before
 * it, with s23-fifo's FIFO; 24.21 at stop 23, 25.28 before it with
 * s22-fifo's FIFO; 29.28 at stop 22, 32.04 at stop 21; docs/kernel.md
 * "Stop 24: token layer").
 */
const TOTAL_BOUND = 19.3;
const total = (perChar: Map<string, number>): number => [...perChar.values()].reduce((x, y) => x + y, 0);

describe('token layer: runs per token on a loaded token train', () => {
  it('the bounds of stop 21 hold (table in docs/kernel.md "Stop 21: token layer")', () => {
    const { perChar, chars } = runsPerChar();
    expect(chars).toBeGreaterThan(250); // a data token every 10 cycles, a few NULLs while credit comes back
    if (process.env.ICEMU_PRINT === '1') {
      let total = 0;
      for (const [k, v] of perChar) {
        total += v;
        console.log(`${k.padEnd(34)} ${v.toFixed(2)}`);
      }
      console.log(`total ${total.toFixed(2)} runs per character (${chars} characters)`);
    }
    const at = (k: string): number => perChar.get(k) ?? 0;
    expect(at('a DsTxSerialiser.shift')).toBeGreaterThan(1); // counted at all (two runs a token: docs/dslink.md#token-trains)
    // One take rise per token a posts (data tokens, and the odd NULL while waiting for credit).
    expect(at('a DsTxTokens.advance')).toBeLessThanOrEqual(1.05);
    // a: sendNormal per character, gotFct per 8; b: gotChar per character, sendFct per 8.
    expect(at('a DsCredit.count')).toBeLessThanOrEqual(1 + 1 / 8 + 0.05);
    expect(at('b DsCredit.count')).toBeLessThanOrEqual(1 + 1 / 8 + 0.05);
    expect(at('a DsLinkFsm.outputs') + at('b DsLinkFsm.outputs')).toBe(0);
    // Stop 22 (timed register writes): the serialiser at the load edge and the edge after (the choice changing), not before;
    // b's decoder at hdrV and tokV, not at the edge after hdrV to clear gotChar.
    expect(at('a DsTxSerialiser.shift')).toBeLessThanOrEqual(2.05);
    expect(at('b DsRxDecoder.decode')).toBeLessThanOrEqual(2.05);
    // Stop 23: the credit flags registered with the counters, so the sender's status does not run per character sent.
    expect(at('a DsCredit.status')).toBeLessThanOrEqual(0.05);
    // Stop 24: the decoder's tokV registers by timed writes from its hdrV run, so it runs once a token (b: data; a: b's FCTs and NULLs).
    expect(at('b DsRxDecoder.decode')).toBeLessThanOrEqual(1.05);
    expect(at('a DsRxDecoder.decode')).toBeLessThanOrEqual(1.1);
    // Stop 25: b's status reads its counters only while rxOut <= rxDepth - 8 (2.12 before).
    expect(at('b DsCredit.status')).toBeLessThanOrEqual(0.45);
    // Stop 25: a's transmit buffer not woken by the push rising while full (3.00 before).
    expect(at('a Fifo.ops')).toBeLessThanOrEqual(2.05);
    expect(total(perChar)).toBeLessThanOrEqual(TOTAL_BOUND);
  });

  it('control: the run at tokV (before stop 24) exceeds the decoder bounds and the total', () => {
    DsRxDecoder.tokvByRun = true;
    const { perChar } = runsPerChar();
    expect(perChar.get('b DsRxDecoder.decode')!).toBeGreaterThan(1.5);
    expect(perChar.get('a DsRxDecoder.decode')!).toBeGreaterThan(1.2);
    expect(total(perChar)).toBeGreaterThan(TOTAL_BOUND);
  });

  it('control: the status woken by every change of its counters (before stop 25) exceeds its bound and the total', () => {
    DsCredit.statusPlain = true;
    const { perChar } = runsPerChar();
    expect(perChar.get('b DsCredit.status')!).toBeGreaterThan(1.5);
    expect(total(perChar)).toBeGreaterThan(TOTAL_BOUND);
  });

  it('control: the push woken at its rise whatever its enable (before stop 25) exceeds its bound', () => {
    FIFO_OPTIONS.pushAtRise = true;
    const { perChar } = runsPerChar();
    expect(perChar.get('a Fifo.ops')!).toBeGreaterThan(2.5);
  });

  it('control: woken by the falls too (before stop 21), runs instead of timed writes (before stop 22), the comb credit flags (before stop 23): each exceeds its bound', () => {
    DsTxTokens.advanceOnFall = true;
    DsCredit.countOnFall = true;
    DsTokenTrain.moreByRun = true;
    DsRxDecoder.clearByRun = true;
    DsCredit.flagsComb = true;
    DsRxDecoder.tokvByRun = true;
    const { perChar } = runsPerChar();
    expect(perChar.get('a DsCredit.status')!).toBeGreaterThan(1);
    expect(perChar.get('a DsTxSerialiser.shift')!).toBeGreaterThan(2.5);
    expect(perChar.get('b DsRxDecoder.decode')!).toBeGreaterThan(2.5);
    expect(total(perChar)).toBeGreaterThan(TOTAL_BOUND);
    expect(perChar.get('a DsTxTokens.advance')!).toBeGreaterThan(1.5);
    expect(perChar.get('a DsCredit.count')!).toBeGreaterThan(1.8);
    expect(perChar.get('b DsCredit.count')!).toBeGreaterThan(1.8);
  });
});
