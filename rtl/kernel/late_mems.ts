/**
 * Late memory reads (docs/kernel.md "Exact sensitivity", "Stop 25:
 * Buzzard"): a seq process's late guard may name memories (`{ when, bits,
 * reads, late: true, mems: [m] }`): a change of a word of m (a write
 * committed at an edge, or a poke) queues the process on the late guards'
 * queue (late_guards.ts), and the edge wakes it only if `when & bits` holds
 * then; the memory is not among its plain reads. The case: a RAM's access
 * process reads its array only while a read grant is out at the edge
 * (rtl/lib/dual_port_ram.ts), and its own write at an edge woke it at the
 * next one for nothing.
 *
 * Exact by the late guards' argument: a seq process's result at an edge
 * depends on the values at that edge; a memory word that changed before it
 * is seen there when the guard holds (the process wakes), and is not read
 * when it does not. The guard itself must wake the process when it comes
 * to hold (a plain read or a rise guard of it), as for every late guard.
 */
import { ElaborationError } from './errors.ts';
import type { Memory, ProcessDecl } from './module.ts';

/** Negative control only (test/kernel/late_mems.test.ts): no memory queues its late readers. */
export const lateMemsFault = { drop: false };

export interface LateMems {
  /** Per memory (by id): the seq processes its changed words queue. */
  readers: Int32Array[];
  /** (seq process, guard slot, mask) triples of the guards that name memories: the late queue's tests. */
  guards: Int32Array;
}

/** The late memory readers of the seq processes (their readsWhen `mems`), checked. */
export function lateMems(seq: readonly ProcessDecl[], memories: readonly Memory[]): LateMems {
  const lists: number[][] = memories.map(() => []);
  const guards: number[] = [];
  seq.forEach((p, k) => {
    for (const g of p.readsWhen) {
      const ms = 'bits' in g ? g.mems : undefined;
      if (!ms || ms.length === 0) continue;
      if (!('bits' in g) || g.late !== true) throw new ElaborationError('bad-process', `${p.module.path}.${p.name}: readsWhen mems needs a late bits guard`);
      for (const m of ms) {
        if (m.module !== p.module || (p.reads ?? []).includes(m)) {
          throw new ElaborationError('bad-process', `${p.module.path}.${p.name}: readsWhen mems ${m.path} must be a memory of its module that is not in its reads`);
        }
        const l = lists[m.id]!;
        if (l.at(-1) !== k) l.push(k);
      }
      guards.push(k, g.when.i, g.bits | 0);
    }
  });
  if (lateMemsFault.drop) for (const l of lists) l.length = 0;
  return { readers: lists.map((l) => Int32Array.from(l)), guards: Int32Array.from(guards) };
}
