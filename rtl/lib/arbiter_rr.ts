/**
 * RoundRobin: a flat 1-of-M round-robin arbiter with a pointer register.
 *
 * The pointer names the requester with the highest priority; the grant goes
 * to the first eligible requester at or after the pointer (cyclically), and
 * after a grant to k the pointer moves to k+1, so k has the lowest priority
 * next. Ports, latency and the commit rule: see arbiter_base.ts (the pointer
 * moves only for a grant that was output).
 *
 * Fairness bound: M − 1 other grants. While k holds its (eligible) request,
 * a grant to j ≠ k moves the pointer just past j, and from then until k is
 * granted every grant goes to a requester strictly between the pointer and k
 * in cyclic order, a set that only shrinks; so each other requester is
 * granted at most once before k.
 */
import { Module, type Signal } from '../kernel/module.ts';
import { Arbiter, bitsFor, type ArbiterOptions } from './arbiter_base.ts';

/** The round-robin decision: the first requester (slots `reqI`, value 1) at or after `p`, cyclically, or -1. */
export function roundRobinWinner(s: Float64Array, reqI: Int32Array, M: number, p: number): number {
  for (let n = 0; n < M; n++) {
    const k = p + n < M ? p + n : p + n - M;
    if (s[reqI[k]!] === 1) return k;
  }
  return -1;
}

export class RoundRobinArbiter extends Arbiter {
  /** Requester with the highest priority in the next decision. */
  readonly ptr: Signal;
  /** Negative control only: the commit's rise guard without idx (a wrong read list the lock-step tests must catch). */
  static wrongNoIdx = false;

  constructor(parent: Module | null, name: string, opts: ArbiterOptions) {
    super(parent, name, opts, 'round-robin');
    const M = this.size;
    const { blocked, gnt, any, idx, ereq } = this;
    const ptr = (this.ptr = this.reg('ptr', bitsFor(M), 0));

    // Slot indices in the closures (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
    const gntI = new Int32Array(M);
    const ereqI = new Int32Array(M);
    let blockedI = 0, ptrI = 0, ptrN = 0, anyI = 0, idxI = 0;
    this.whenSlots(() => {
      for (let k = 0; k < M; k++) {
        gntI[k] = gnt[k]!.i;
        ereqI[k] = ereq[k]!.i;
      }
      [blockedI, ptrI, ptrN, anyI, idxI] = [blocked.i, ptr.i, ptr.n, any.i, idx.i];
    });

    this.comb(
      () => {
        const s = this.s;
        for (let k = 0; k < M; k++) s[gntI[k]!] = 0;
        const w = s[blockedI] === 0 ? roundRobinWinner(s, ereqI, M, s[ptrI]!) : -1;
        if (w >= 0) s[gntI[w]!] = 1;
        s[anyI] = w >= 0 ? 1 : 0;
        s[idxI] = w >= 0 ? w : 0;
      },
      { writes: [...gnt, any, idx], reads: [...ereq, blocked, ptr], name: 'decide' },
    );
    this.seq(
      () => {
        const s = this.s;
        if (s[anyI] === 1) {
          const w = s[idxI]! + 1;
          s[ptrN] = w === M ? 0 : w;
        }
      },
      // Not ptr: the commit writes it but never reads it, so ptr's own change
      // woke a run that wrote the same value again (docs/kernel.md "Stop 21:
      // Buzzard units"; a poke runs the writers anyway). With any = 0 it does
      // nothing, so `any` wakes it on its rise only and idx only while any is
      // 1; a grant held over edges to the same requester wrote the same ptr
      // again (wake on rise; docs/kernel.md "Stop 22: Buzzard").
      { reads: [], readsWhen: [{ when: any, bits: 1, reads: RoundRobinArbiter.wrongNoIdx ? [] : [idx], rise: true }], name: 'commit' },
    );
  }

  fairnessBound(): number {
    return this.size - 1;
  }
}
