/**
 * The foundation demo: four requesters contend through an arbiter tree for a
 * FIFO that a slow consumer drains. It exercises the generic units before the
 * Buzzard model exists: tree arbitration with its request-to-grant latency
 * (seed 002 §5.4.3, default 2 cycles), the root grant held back while the
 * output is flow-blocked (here: the FIFO nearly full), and FIFO back-pressure.
 *
 * Everything random comes from per-requester LFSR registers seeded from one
 * seed, so a run is reproducible bit for bit and snapshots capture it.
 */
import { Module, type Signal } from '../kernel/index.ts';
import { makeArbiter, type ArbiterPolicy } from '../lib/arbiter.ts';
import { Fifo } from '../lib/fifo.ts';

export interface ContentionConfig {
  requesters: number;
  /** Per-requester probability of wanting to send in an idle cycle, in 1/256ths. */
  rates: number[];
  fifoDepth: number;
  /** The consumer pops one entry every `drainPeriod` cycles. */
  drainPeriod: number;
  latency: number;
  policy: ArbiterPolicy;
  seed: number;
}

export const DEFAULT_CONTENTION: ContentionConfig = {
  requesters: 4,
  rates: [96, 64, 48, 32],
  fifoDepth: 8,
  drainPeriod: 3,
  latency: 2,
  policy: 'tree',
  seed: 1,
};

/** A requester: raises `req` at random, holds it until granted, then counts the item sent. */
export class Requester extends Module {
  readonly req: Signal;
  readonly data: Signal;
  readonly gnt: Signal;
  readonly lfsr: Signal;
  readonly sent: Signal;
  readonly wait: Signal;
  readonly maxWait: Signal;
  constructor(parent: Module, name: string, id: number, rate: number, seed: number) {
    super(parent, name);
    this.gnt = this.input('gnt');
    this.req = this.reg('req', 1, 0);
    this.lfsr = this.reg('lfsr', 16, ((seed * 0x9e37 + id * 0x3c6f) & 0xffff) || 0xace1);
    this.sent = this.reg('sent', 16, 0);
    this.wait = this.reg('wait', 16, 0);
    this.maxWait = this.reg('max_wait', 16, 0);
    this.data = this.output('data', 16);
    this.comb(() => {
      const s = this.s;
      s[this.data.i] = (id << 8) | (s[this.sent.i]! & 0xff); // item: requester id, sequence number
    }, { writes: [this.data], reads: [this.sent] });
    this.seq(() => {
      const s = this.s;
      const l = s[this.lfsr.i]!;
      // 16-bit Galois LFSR, taps 0xB400 (maximal length)
      s[this.lfsr.n] = (l >>> 1) ^ (l & 1 ? 0xb400 : 0);
      if (s[this.req.i]) {
        if (s[this.gnt.i]) {
          s[this.req.n] = 0;
          s[this.sent.n] = (s[this.sent.i]! + 1) & 0xffff;
          const w = s[this.wait.i]!;
          if (w > s[this.maxWait.i]!) s[this.maxWait.n] = w;
          s[this.wait.n] = 0;
        } else {
          s[this.wait.n] = Math.min(s[this.wait.i]! + 1, 0xffff);
        }
      } else if ((l & 0xff) < rate) {
        s[this.req.n] = 1;
      }
    });
  }
}

/** Pops the FIFO every `period` cycles when it has data. */
export class Consumer extends Module {
  readonly empty: Signal;
  readonly pop: Signal;
  readonly phase: Signal;
  readonly taken: Signal;
  constructor(parent: Module, name: string, period: number) {
    super(parent, name);
    this.empty = this.input('empty');
    this.pop = this.output('pop');
    const bits = Math.max(1, 32 - Math.clz32(period));
    this.phase = this.reg('phase', bits, 0);
    this.taken = this.reg('taken', 16, 0);
    this.comb(() => {
      const s = this.s;
      s[this.pop.i] = s[this.phase.i] === period - 1 && !s[this.empty.i] ? 1 : 0;
    }, { writes: [this.pop] });
    this.seq(() => {
      const s = this.s;
      const p = s[this.phase.i]!;
      s[this.phase.n] = p + 1 === period ? 0 : p + 1;
      if (s[this.pop.i]) s[this.taken.n] = (s[this.taken.i]! + 1) & 0xffff;
    });
  }
}

/** Selects the granted requester's data into the FIFO (grants are one-hot). */
export class GrantMux extends Module {
  readonly gnt: Signal[];
  readonly data: Signal[];
  readonly push: Signal;
  readonly dout: Signal;
  constructor(parent: Module, name: string, n: number, width: number) {
    super(parent, name);
    this.gnt = this.inputs('gnt', n);
    this.data = this.inputs('data', n, width);
    this.push = this.output('push');
    this.dout = this.output('dout', width);
    this.comb(() => {
      const s = this.s;
      let push = 0;
      let dout = 0;
      for (let k = 0; k < n; k++) {
        if (s[this.gnt[k]!.i]) {
          push = 1;
          dout = s[this.data[k]!.i]!;
        }
      }
      s[this.push.i] = push;
      s[this.dout.i] = dout;
    }, { writes: [this.push, this.dout] });
  }
}

/**
 * Flow control into the FIFO: the arbiter decides a grant one cycle before
 * the push lands, so one grant can be in flight; block while fewer than two
 * slots are free.
 */
export class Backpressure extends Module {
  readonly count: Signal;
  readonly blocked: Signal;
  constructor(parent: Module, name: string, depth: number, countWidth: number) {
    super(parent, name);
    this.count = this.input('count', countWidth);
    this.blocked = this.output('blocked');
    this.comb(() => {
      this.s[this.blocked.i] = this.s[this.count.i]! >= depth - 1 ? 1 : 0;
    }, { writes: [this.blocked] });
  }
}

export class ContentionDemo extends Module {
  readonly requesters: Requester[];
  readonly fifo: Fifo;
  readonly consumer: Consumer;
  readonly mux: GrantMux;
  readonly gate: Backpressure;
  constructor(cfg: ContentionConfig = DEFAULT_CONTENTION) {
    super(null, 'demo');
    const n = cfg.requesters;
    if (!(Number.isInteger(n) && n >= 2 && n <= 32)) throw new RangeError(`requesters: ${n} is outside 2..32`);
    if (cfg.rates.length !== n) throw new RangeError(`rates: ${cfg.rates.length} rates given for ${n} requesters`);
    this.requesters = cfg.rates.map((r, k) => new Requester(this, `req${k}`, k, r, cfg.seed));
    const arb = makeArbiter(this, 'arb', { size: n, latency: cfg.latency, policy: cfg.policy });
    this.mux = new GrantMux(this, 'mux', n, 16);
    this.fifo = new Fifo(this, 'fifo', { width: 16, depth: cfg.fifoDepth });
    this.gate = new Backpressure(this, 'gate', cfg.fifoDepth, this.fifo.count.width);
    this.consumer = new Consumer(this, 'consumer', cfg.drainPeriod);
    this.requesters.forEach((r, k) => {
      this.connect(r.req, arb.req[k]!);
      this.connect(arb.gnt[k]!, r.gnt);
      this.connect(arb.gnt[k]!, this.mux.gnt[k]!);
      this.connect(r.data, this.mux.data[k]!);
    });
    this.connect(this.mux.push, this.fifo.push);
    this.connect(this.mux.dout, this.fifo.din);
    this.connect(this.fifo.count, this.gate.count);
    this.connect(this.gate.blocked, arb.blocked);
    this.connect(this.consumer.pop, this.fifo.pop);
    this.connect(this.fifo.empty, this.consumer.empty);
  }
}
