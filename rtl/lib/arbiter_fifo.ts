/**
 * FifoOrder: grant in order of request arrival, the C104 crossbar policy
 * ("the real C104 uses simple FIFO ordering between contending input links",
 * seed 004 §4.2.4; digest docs/sources.md, c104-t9000 §3 and §7.7, where FIFO is
 * the default of the crossbar queue-ordering parameter).
 *
 * Arrival is the first cycle a request is visible (req rises, or req stays
 * high in the cycle after a grant: a new request). Requests arriving in the
 * same cycle are ordered by lowest index (a tie-break the seed does not give;
 * documented here as the emulator's choice). The grant goes to the oldest
 * eligible requester; with one latency L for all, the oldest waiting
 * requester is always eligible when any is, so grants follow arrival order
 * exactly. Ports, latency and the commit rule: see arbiter_base.ts.
 *
 * State: per requester a `w{k}` flag (the request is queued) and a `rank{k}`
 * (its position in the queue, dense 0..queued-1). At the clock edge, queued
 * requesters that were granted or dropped their request leave the queue
 * (those behind them move up), then the cycle's arrivals join at the tail in
 * index order. A requester that arrives and is granted in the same cycle
 * (L = 0) never joins. The queue changes only for grants that were output.
 *
 * Fairness bound: M − 1 other grants. Once k is queued, every later arrival
 * ranks behind k, and a requester ahead of k that is granted and asks again
 * re-arrives behind k; so at most the M − 1 requesters ahead of k are granted
 * before it, once each.
 */
import { Module, type Signal } from '../kernel/module.ts';
import { Arbiter, bitsFor, type ArbiterOptions } from './arbiter_base.ts';

export class FifoArbiter extends Arbiter {
  /** Queued flags. */
  readonly queued: readonly Signal[];
  /** Queue positions (0 = oldest); meaningful while queued. */
  readonly rank: readonly Signal[];

  constructor(parent: Module | null, name: string, opts: ArbiterOptions) {
    super(parent, name, opts, 'fifo');
    const M = this.size;
    const { req, blocked, gnt, any, idx, ereq } = this;
    const w = (this.queued = this.regs('w', M, 1, 0));
    const rank = (this.rank = this.regs('rank', M, bitsFor(M), 0));
    // Ranks of the requesters leaving the queue this cycle (scratch, reused).
    const leaving = new Int32Array(M);

    this.comb(
      () => {
        const s = this.s;
        for (let k = 0; k < M; k++) s[gnt[k]!.i] = 0;
        let best = -1;
        let bestKey = Infinity;
        if (s[blocked.i] === 0) {
          for (let k = 0; k < M; k++) {
            if (s[ereq[k]!.i] !== 1) continue;
            // Queued requesters by rank, then this cycle's arrivals by index.
            const key = s[w[k]!.i] === 1 ? s[rank[k]!.i]! : M + k;
            if (key < bestKey) {
              bestKey = key;
              best = k;
            }
          }
        }
        if (best >= 0) s[gnt[best]!.i] = 1;
        s[any.i] = best >= 0 ? 1 : 0;
        s[idx.i] = best >= 0 ? best : 0;
      },
      { writes: [...gnt, any, idx], reads: [...ereq, blocked, ...w, ...rank], name: 'decide' },
    );

    this.seq(
      () => {
        const s = this.s;
        let nLeave = 0;
        for (let k = 0; k < M; k++) {
          if (s[w[k]!.i] === 1 && (s[req[k]!.i] === 0 || s[gnt[k]!.i] === 1)) leaving[nLeave++] = s[rank[k]!.i]!;
        }
        let tail = 0;
        for (let k = 0; k < M; k++) {
          if (s[w[k]!.i] === 1 && s[req[k]!.i] === 1 && s[gnt[k]!.i] === 0) {
            const r = s[rank[k]!.i]!;
            let ahead = 0;
            for (let q = 0; q < nLeave; q++) if (leaving[q]! < r) ahead++;
            s[rank[k]!.n] = r - ahead;
            tail++;
          }
        }
        for (let k = 0; k < M; k++) {
          const queued = s[w[k]!.i] === 1;
          const asking = s[req[k]!.i] === 1 && s[gnt[k]!.i] === 0;
          if (!queued && asking) {
            s[w[k]!.n] = 1;
            s[rank[k]!.n] = tail++;
          } else if (queued && !asking) {
            s[w[k]!.n] = 0;
            s[rank[k]!.n] = 0;
          }
        }
      },
      { reads: [...req, ...gnt, ...w, ...rank], name: 'commit' },
    );
  }

  fairnessBound(): number {
    return this.size - 1;
  }
}
