/**
 * Test bench for DS-link ends: a character source and a sink with a stall
 * pattern on the core side of each end, around a DsLinkPair.
 */
import { Module, Simulator, type Signal } from '../../rtl/kernel/index.ts';
import type { DsLinkConfig } from '../../rtl/dslink/config.ts';
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';

/** Pushes `chars` in order into an end's transmit side whenever txReady. */
export class CharSource extends Module {
  readonly idx: Signal;
  constructor(parent: Module, name: string, end: DsLinkEnd, chars: readonly number[]) {
    super(parent, name);
    const txValid = this.output('txValid');
    const txChar = this.output('txChar', 9);
    const txReady = this.input('txReady');
    const idx = (this.idx = this.reg('idx', 32));
    parent.connect(txValid, end.txValid);
    parent.connect(txChar, end.txChar);
    parent.connect(end.txReady, txReady);
    this.comb(
      () => {
        const s = this.s;
        const k = s[idx.i]!;
        s[txValid.i] = k < chars.length ? 1 : 0;
        s[txChar.i] = k < chars.length ? chars[k]! : 0;
      },
      { writes: [txValid, txChar], reads: [idx], name: 'out' },
    );
    this.seq(
      () => {
        const s = this.s;
        const k = s[idx.i]!;
        if (k < chars.length && s[txReady.i] === 1) s[idx.n] = k + 1;
      },
      { reads: [idx, txReady], name: 'next' },
    );
  }
}

/**
 * Pops an end's receive side when `pattern[cycle mod length]` is true (true
 * everywhere = never stalls) and records what it popped.
 */
export class CharSink extends Module {
  readonly got: { ch: number; cycle: number }[] = [];
  readonly cyc: Signal;
  constructor(parent: Module, name: string, end: DsLinkEnd, pattern: readonly boolean[] = [true]) {
    super(parent, name);
    const rxPop = this.output('rxPop');
    const rxValid = this.input('rxValid');
    const rxChar = this.input('rxChar', 9);
    const cyc = (this.cyc = this.reg('cyc', 32));
    parent.connect(rxPop, end.rxPop);
    parent.connect(end.rxValid, rxValid);
    parent.connect(end.rxChar, rxChar);
    const n = pattern.length;
    this.comb(
      () => {
        const s = this.s;
        s[rxPop.i] = s[rxValid.i] === 1 && pattern[s[cyc.i]! % n] ? 1 : 0;
      },
      { writes: [rxPop], reads: [rxValid, cyc], name: 'pop' },
    );
    this.seq(
      () => {
        const s = this.s;
        s[cyc.n] = (s[cyc.i]! + 1) % 4294967296;
        if (s[rxValid.i] === 1 && pattern[s[cyc.i]! % n]) this.got.push({ ch: s[rxChar.i]!, cycle: s[cyc.i]! });
      },
      { reads: [cyc, rxValid, rxChar], name: 'take' },
    );
  }
}

export interface BenchOptions {
  a?: Partial<DsLinkConfig>;
  b?: Partial<DsLinkConfig>;
  faults?: boolean;
  /** Characters a sends to b, and b to a. */
  aToB?: readonly number[];
  bToA?: readonly number[];
  /** Pop patterns of a's and b's sinks. */
  popA?: readonly boolean[];
  popB?: readonly boolean[];
}

export class Bench extends Module {
  readonly pair: DsLinkPair;
  readonly srcA: CharSource;
  readonly srcB: CharSource;
  readonly sinkA: CharSink;
  readonly sinkB: CharSink;
  constructor(opts: BenchOptions = {}) {
    super(null, 'top');
    const pair = (this.pair = new DsLinkPair(this, 'link', { a: opts.a, b: opts.b, faults: opts.faults }));
    this.srcA = new CharSource(this, 'srcA', pair.a, opts.aToB ?? []);
    this.srcB = new CharSource(this, 'srcB', pair.b, opts.bToA ?? []);
    this.sinkA = new CharSink(this, 'sinkA', pair.a, opts.popA);
    this.sinkB = new CharSink(this, 'sinkB', pair.b, opts.popB);
  }
}

export function makeBench(opts: BenchOptions = {}, mode: 'plain' | 'activity' = 'activity'): { bench: Bench; sim: Simulator } {
  const bench = new Bench(opts);
  return { bench, sim: new Simulator(bench, { mode }) };
}
