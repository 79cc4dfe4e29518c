/**
 * FixedPriority: the lowest-indexed eligible requester wins, always.
 *
 * Deliberately unfair: a requester can starve while lower-indexed ones keep
 * requesting. It exists as a negative control for the fairness tests (the
 * same property that the tree, round-robin and FIFO arbiters pass must find a
 * counterexample here) and as a simple priority encoder where priority is
 * intended (e.g. the fixed priority encoder of §15 A9). No state; ports and
 * latency: see arbiter_base.ts.
 */
import { Module } from '../kernel/module.ts';
import { Arbiter, type ArbiterOptions } from './arbiter_base.ts';

export class FixedPriorityArbiter extends Arbiter {
  constructor(parent: Module | null, name: string, opts: ArbiterOptions) {
    super(parent, name, opts, 'fixed-priority');
    const M = this.size;
    const { blocked, gnt, any, idx, ereq } = this;
    this.comb(
      () => {
        const s = this.s;
        for (let k = 0; k < M; k++) s[gnt[k]!.i] = 0;
        let w = -1;
        if (s[blocked.i] === 0) {
          for (let k = 0; k < M; k++) {
            if (s[ereq[k]!.i] === 1) {
              w = k;
              break;
            }
          }
        }
        if (w >= 0) s[gnt[w]!.i] = 1;
        s[any.i] = w >= 0 ? 1 : 0;
        s[idx.i] = w >= 0 ? w : 0;
      },
      { writes: [...gnt, any, idx], reads: [...ereq, blocked], name: 'decide' },
    );
  }

  /** No bound for k > 0: requester k starves while lower ones keep asking. */
  fairnessBound(k: number): number {
    return k === 0 ? 0 : Infinity;
  }
}
