/**
 * ArbiterTree: a 1-of-M arbiter built structurally from Arbiter2 modules, as
 * in Buzzard's crossbar (seed 002 §5.4.3, Fig. 5.6: a 1-of-8 from seven 1-of-2
 * modules; digest docs/sources.md, buzzard §8.3, §15 A10).
 *
 * Structure: a balanced binary tree over requesters 0..M-1 (M in 1..64, not
 * necessarily a power of two). A node covering n requesters gives the first
 * ⌈n/2⌉ to its side 0 and the rest to side 1, so the depth is ⌈log2 M⌉ and
 * the tree has M−1 Arbiter2 children (none for M = 1, where the grant is just
 * ereq0 & !blocked). Children are named by their path from the root: `a` is
 * the root, `a0`/`a1` its side-0/side-1 children, `a01` the side-1 child of
 * `a0`, and so on. Leaves are the arbiter's (latency-gated) requests; the
 * root's enable is `en = !blocked`, so no grant comes down while the output
 * is blocked (§5.4.3).
 *
 * Ports, latency and commit rule: see arbiter_base.ts. Each Arbiter2 toggles
 * its priority only when it passes a grant down, so the tree's state is
 * committed exactly for the grant that was delivered.
 *
 * Fairness bound (proved here, checked by test/lib/arbiter.test.ts): let a
 * leaf k at depth d hold its (eligible) request. Let W(e) be the most grants
 * to other leaves that can pass through the depth-e node on k's path before k
 * is granted. At the leaf, W(d) = 0. A node on the path whose side towards k
 * requests continuously (k holds) alternates: after it grants the other side,
 * its next grant goes towards k. So between consecutive grants towards k
 * (and before the first) at most one grant goes to the other side, and
 * W(e) ≤ W(e+1) + (W(e+1) + 1) = 2·W(e+1) + 1, giving W(0) = 2^d − 1. Every
 * grant passes the root, so k waits at most 2^d − 1 other grants. With
 * d ≤ ⌈log2 M⌉ that is < 2M, and exactly M − 1 for M a power of two (the
 * same as round-robin). The bound is tight: with every requester holding,
 * some leaf waits exactly 2^d − 1 grants.
 */
import { Module, NO_SLOTS, slotsOf, type Signal } from '../kernel/module.ts';
import { Arbiter2 } from './arbiter2.ts';
import { Arbiter, type ArbiterOptions } from './arbiter_base.ts';

/** Depth of each leaf in the balanced tree of M leaves (the root is depth 0). */
export function treeLeafDepths(M: number): number[] {
  const depth = new Array<number>(M).fill(0);
  const walk = (lo: number, n: number, d: number): void => {
    if (n <= 1) {
      if (n === 1) depth[lo] = d;
      return;
    }
    const nl = Math.ceil(n / 2);
    walk(lo, nl, d + 1);
    walk(lo + nl, n - nl, d + 1);
  };
  walk(0, M, 0);
  return depth;
}

export class ArbiterTree extends Arbiter {
  /** The Arbiter2 modules, root first (depth-first, side 0 before side 1). */
  readonly nodes: readonly Arbiter2[];
  /** Depth of each requester's leaf. */
  readonly depth: readonly number[];

  constructor(parent: Module | null, name: string, opts: ArbiterOptions) {
    super(parent, name, opts, 'tree');
    const M = this.size;
    const { blocked, gnt, any, idx, ereq } = this;
    const nodes: Arbiter2[] = [];
    this.depth = treeLeafDepths(M);

    if (M === 1) {
      const g = gnt[0]!;
      const r = ereq[0]!;
      this.comb(
        () => {
          const s = this.s;
          s[g.i] = s[r.i] === 1 && s[blocked.i] === 0 ? 1 : 0;
        },
        { writes: [g], reads: [r, blocked], name: 'grant' },
      );
    } else {
      // Root enable: the output's flow-control status (§5.4.3).
      const en = this.wire('en');
      this.comb(
        () => {
          const s = this.s;
          s[en.i] = s[blocked.i] === 0 ? 1 : 0;
        },
        { writes: [en], reads: [blocked], name: 'enable' },
      );
      // Returns the subtree's request line (up) and its enable line (down).
      const build = (lo: number, n: number, path: string): { up: Signal; down: Signal } => {
        if (n === 1) return { up: ereq[lo]!, down: gnt[lo]! };
        const node = new Arbiter2(this, `a${path}`);
        nodes.push(node);
        const nl = Math.ceil(n / 2);
        const side0 = build(lo, nl, `${path}0`);
        const side1 = build(lo + nl, n - nl, `${path}1`);
        this.connect(side0.up, node.req0);
        this.connect(node.gnt0, side0.down);
        this.connect(side1.up, node.req1);
        this.connect(node.gnt1, side1.down);
        return { up: node.req, down: node.en };
      };
      const root = build(0, M, '');
      this.connect(en, root.down);
    }
    // Slot indices in the closures (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
    let anyI = 0, idxI = 0;
    let gntIs = NO_SLOTS;
    this.whenSlots(() => {
      [anyI, idxI] = [any.i, idx.i];
      gntIs = slotsOf(gnt, 'i');
    });
    this.nodes = nodes;

    this.comb(
      () => {
        const s = this.s;
        let a = 0;
        let w = 0;
        for (let k = 0; k < M; k++) {
          if (s[gntIs[k]!] === 1) {
            a = 1;
            w = k;
            break;
          }
        }
        s[anyI] = a;
        s[idxI] = w;
      },
      { writes: [any, idx], reads: gnt, name: 'encode' },
    );
  }

  fairnessBound(k: number): number {
    return 2 ** this.depth[k]! - 1;
  }
}
