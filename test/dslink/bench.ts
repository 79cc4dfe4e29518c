/**
 * Test bench for DS-link ends: a character source and a sink with a stall
 * pattern on the core side of each end, around a DsLinkPair.
 */
import { Module, Simulator, type Signal } from '../../rtl/kernel/index.ts';
import type { DsLinkConfig } from '../../rtl/dslink/config.ts';
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';

/**
 * Pushes `chars` in order into an end's transmit side whenever txReady and
 * `pattern[cycle mod length]` (default: always), so a pattern makes gaps;
 * with `at`, character k not before cycle at[k].
 */
export class CharSource extends Module {
  readonly idx: Signal;
  readonly cyc: Signal;
  constructor(parent: Module, name: string, end: DsLinkEnd, chars: readonly number[], pattern: readonly boolean[] = [true], at?: readonly number[]) {
    super(parent, name);
    const txValid = this.output('txValid');
    const txChar = this.output('txChar', 9);
    const txReady = this.input('txReady');
    const idx = (this.idx = this.reg('idx', 32));
    const cyc = (this.cyc = this.reg('cyc', 32));
    const n = pattern.length;
    const always = pattern.every((x) => x) && !at;
    const due = (k: number, c: number): boolean => (at ? at[k]! <= c : true) && pattern[c % n]!;
    parent.connect(txValid, end.txValid);
    parent.connect(txChar, end.txChar);
    parent.connect(end.txReady, txReady);
    this.comb(
      () => {
        const s = this.s;
        const k = s[idx.i]!;
        const on = k < chars.length && (always || due(k, s[cyc.i]!));
        s[txValid.i] = on ? 1 : 0;
        s[txChar.i] = on ? chars[k]! : 0;
      },
      { writes: [txValid, txChar], reads: [idx, cyc], name: 'out' },
    );
    this.seq(
      () => {
        const s = this.s;
        const k = s[idx.i]!;
        if (!always) s[cyc.n] = (s[cyc.i]! + 1) % 4294967296;
        if (k < chars.length && s[txReady.i] === 1 && (always || due(k, s[cyc.i]!))) s[idx.n] = k + 1;
      },
      { reads: [idx, txReady, cyc], name: 'next' },
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

/** Drives an end's linkStart input: 0 before cycle `at`, 1 from then on. */
export class Starter extends Module {
  constructor(parent: Module, name: string, end: DsLinkEnd, at: number) {
    super(parent, name);
    const start = this.output('start');
    const cyc = this.reg('cyc', 32);
    if (!end.linkStart) throw new Error(`${end.name}: config linkStart must be 'port' for a Starter`);
    parent.connect(start, end.linkStart);
    this.comb(
      () => {
        this.s[start.i] = this.s[cyc.i]! >= at ? 1 : 0;
      },
      { writes: [start], reads: [cyc], name: 'out' },
    );
    this.seq(
      () => {
        const c = this.s[cyc.i]!;
        if (c < at) this.s[cyc.n] = c + 1;
      },
      { reads: [cyc], name: 'count' },
    );
  }
}

export interface BenchOptions {
  /** Start cycles of a and b (then their config gets linkStart: 'port'). */
  startA?: number;
  startB?: number;
  a?: Partial<DsLinkConfig>;
  b?: Partial<DsLinkConfig>;
  faults?: boolean;
  /** Characters a sends to b, and b to a. */
  aToB?: readonly number[];
  bToA?: readonly number[];
  /** Push patterns of a's and b's sources (gaps in what the cores offer). */
  pushA?: readonly boolean[];
  pushB?: readonly boolean[];
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
    const a = opts.startA === undefined ? opts.a : { ...opts.a, linkStart: 'port' as const };
    const b = opts.startB === undefined ? opts.b : { ...opts.b, linkStart: 'port' as const };
    const pair = (this.pair = new DsLinkPair(this, 'link', { a, b, faults: opts.faults }));
    if (opts.startA !== undefined) new Starter(this, 'startA', pair.a, opts.startA);
    if (opts.startB !== undefined) new Starter(this, 'startB', pair.b, opts.startB);
    this.srcA = new CharSource(this, 'srcA', pair.a, opts.aToB ?? [], opts.pushA);
    this.srcB = new CharSource(this, 'srcB', pair.b, opts.bToA ?? [], opts.pushB);
    this.sinkA = new CharSink(this, 'sinkA', pair.a, opts.popA);
    this.sinkB = new CharSink(this, 'sinkB', pair.b, opts.popB);
  }
}

export function makeBench(opts: BenchOptions = {}, mode: 'plain' | 'activity' = 'activity'): { bench: Bench; sim: Simulator } {
  const bench = new Bench(opts);
  return { bench, sim: new Simulator(bench, { mode }) };
}

/** Two ends, a source (characters at given cycles) and a sink on each: the NULL-train tests' bench (null_train, still_train). */
export class TrainBench extends Module {
  readonly pair: DsLinkPair;
  constructor(aToB: { at: number; ch: number }[], bToA: { at: number; ch: number }[], popB: boolean[], handover: 'checked' | 'on-arrival', popA: boolean[] = [true]) {
    super(null, 'top');
    const pair = (this.pair = new DsLinkPair(this, 'link', { a: { rxHandover: handover }, b: { rxHandover: handover } }));
    new CharSource(this, 'srcA', pair.a, aToB.map((x) => x.ch), [true], aToB.map((x) => x.at));
    new CharSource(this, 'srcB', pair.b, bToA.map((x) => x.ch), [true], bToA.map((x) => x.at));
    new CharSink(this, 'sinkA', pair.a, popA);
    new CharSink(this, 'sinkB', pair.b, popB);
  }
}
