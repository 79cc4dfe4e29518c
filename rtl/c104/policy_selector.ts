/**
 * The thesis simulator's crossbar queuing policies (seed 004 §4.2.4,
 * Fig. 4.11) and ack priority, in front of the crossbar: for every free
 * output, in index order, it picks one of the inputs waiting for it and
 * passes only that request on, so the crossbar's own arbiter (FIFO, latency
 * 0) grants exactly the choice. An input picked by a lower output is not
 * offered to a higher one in the same cycle (the crossbar's resolution
 * chain, rtl/lib/crossbar.ts), so a hunt group's free links are filled by
 * different inputs in one cycle.
 *
 * Choice, best first:
 *  1. priority class `prio >> 16`: bit 1 ack (set by the routers only under
 *     ack priority), bit 0 from the network (counted only for 'net-first');
 *  2. policy: 'hops-first' / 'oldest-first': the larger side-band tag
 *     (`prio & 0xffff`: hops so far, or an age); 'random': uniform among the
 *     inputs still tied (generator `rng` hashed with the output index,
 *     advanced on every cycle with a choice);
 *     'fifo', 'net-first': nothing more;
 *  3. arrival order: the order in which the inputs began waiting (an
 *     arrival book: an rtl/lib FifoArbiter whose grant is blocked for ever,
 *     so it only keeps ranks), ties by lowest input index.
 * Inputs and outputs are the crossbar's: one per link, or with slices
 * 'connected' one per connected link (`links[x]` is the link of index x;
 * ports keep the link's name, the request masks are crossbar indices, the
 * random choice hashes with the output's link: docs/c104.md#compact-slices).
 * Readings: docs/c104.md#arbitration.
 */
import { Module, type Signal } from '../kernel/module.ts';
import { FifoArbiter } from '../lib/arbiter_fifo.ts';
import { rngState, xorshift32, type C104Policy } from './config.ts';

export class PolicySelector extends Module {
  /** Requests from the input routers (bit j: output j). */
  readonly reqIn: readonly Signal[];
  readonly prio: readonly Signal[];
  /** Output j in use (the crossbar's valid) or blocked downstream. */
  readonly busy: readonly Signal[];
  readonly blocked: readonly Signal[];
  /** Requests passed to the crossbar. */
  readonly reqOut: readonly Signal[];
  readonly book: FifoArbiter;

  constructor(parent: Module, name: string, links: readonly number[], policy: C104Policy, seed: number, faultHashByIndex = false) {
    super(parent, name);
    const n = links.length;
    const reqIn = (this.reqIn = links.map((k) => this.input(`reqIn${k}`, n)));
    const prio = (this.prio = links.map((k) => this.input(`prio${k}`, 18)));
    const busy = (this.busy = links.map((k) => this.input(`busy${k}`)));
    const blocked = (this.blocked = links.map((k) => this.input(`blocked${k}`)));
    const reqOut = (this.reqOut = links.map((k) => this.output(`reqOut${k}`, n)));
    const rng = this.reg('rng', 32, rngState(seed, 1000));
    const granted = this.wire('granted');

    // The arrival book: waiting = any request bit.
    const book = (this.book = new FifoArbiter(this, 'book', { size: n, latency: 0 }));
    this.tie(book.blocked, 1);
    const waiting = links.map((k) => this.wire(`wait${k}`));
    for (let i = 0; i < n; i++) this.connect(waiting[i]!, book.req[i]!);
    const w = book.queued.map((q, i) => {
      const x = this.wire(`bw${links[i]!}`);
      this.connect(q, x);
      return x;
    });
    const rank = book.rank.map((r, i) => {
      const x = this.wire(`brank${links[i]!}`, r.width);
      this.connect(r, x);
      return x;
    });
    this.comb(
      () => {
        const s = this.s;
        for (let i = 0; i < n; i++) s[waiting[i]!.i] = s[reqIn[i]!.i] !== 0 ? 1 : 0;
      },
      { writes: waiting, reads: reqIn, name: 'waiting' },
    );

    const useTag = policy === 'hops-first' || policy === 'oldest-first';
    const random = policy === 'random';
    // Ack bit (set by the routers only under ack priority); the network bit counts only for net-first.
    const classMask = policy === 'net-first' ? 3 : 2;
    const claimed = new Uint8Array(n);
    // The random choice hashes with the output's link (as with every slice elaborated).
    // (faultHashByIndex: a negative control's fault, slices.ts SLICES_FAULT.)
    const hash = links.map((k, x) => Math.imul((faultHashByIndex ? x : k) + 1, 0x9e3779b9));
    const tied: number[] = [];
    this.comb(
      () => {
        const s = this.s;
        claimed.fill(0);
        for (let i = 0; i < n; i++) s[reqOut[i]!.i] = 0;
        let any = 0;
        const r = s[rng.i]!;
        for (let j = 0; j < n; j++) {
          if (s[busy[j]!.i] === 1 || s[blocked[j]!.i] === 1) continue;
          let best = -1;
          let bestKey = -1;
          let bestOrder = Infinity;
          tied.length = 0;
          for (let i = 0; i < n; i++) {
            if (claimed[i] === 1 || ((s[reqIn[i]!.i]! >>> j) & 1) === 0) continue;
            const p = s[prio[i]!.i]!;
            const cls = (p >>> 16) & classMask;
            const key = useTag ? cls * 65536 + (p & 0xffff) : cls;
            const order = s[w[i]!.i] === 1 ? s[rank[i]!.i]! : n + i;
            if (key > bestKey || (key === bestKey && order < bestOrder)) {
              if (key > bestKey) tied.length = 0;
              best = i;
              bestKey = key;
              bestOrder = order;
            }
            if (key === bestKey) tied.push(i);
          }
          if (best < 0) continue;
          if (random && tied.length > 1) best = tied[xorshift32((r ^ hash[j]!) >>> 0 || 1) % tied.length]!;
          claimed[best] = 1;
          s[reqOut[best]!.i] = 2 ** j;
          any = 1;
        }
        s[granted.i] = any;
      },
      { writes: [...reqOut, granted], reads: [...reqIn, ...prio, ...busy, ...blocked, ...w, ...rank, rng], name: 'select' },
    );
    // The generator advances once per cycle with a choice (each output hashes it with its index).
    this.seq(
      () => {
        const s = this.s;
        if (random && s[granted.i] === 1) s[rng.n] = xorshift32(s[rng.i]!);
      },
      { reads: [granted, rng], name: 'draw' },
    );
  }
}
