/**
 * Synthetic designs for kernel benchmarks (and reused by tests that need a
 * nontrivial design). They exercise the kernel, not any seed's hardware.
 */
import { Module, Signal } from '../rtl/kernel/index.ts';
import { makeArbiter } from '../rtl/lib/arbiter.ts';
import { Requester } from '../rtl/demo/contention.ts';

/**
 * A cell with four registers of mixed widths, a Moore output from its
 * registers, and an internal comb wire that mixes its input with its state:
 * "a design of 1,000 registers with mixed comb logic" is 250 of these in a ring.
 */
class MixCell extends Module {
  readonly inp: Signal;
  readonly out: Signal;
  constructor(parent: Module, name: string, seed: number) {
    super(parent, name);
    const a = this.reg('a', 16, (seed * 7919) & 0xffff);
    const b = this.reg('b', 12, (seed * 31) & 0xfff);
    const c = this.reg('c', 8, seed & 0xff);
    const d = this.reg('d', 1, seed & 1);
    this.inp = this.input('inp', 16);
    this.out = this.output('out', 16);
    const mix = this.wire('mix', 16);
    this.comb(() => {
      const s = this.s;
      s[this.out.i] = (s[a.i]! ^ (s[b.i]! << 4)) & 0xffff;
    }, { writes: [this.out], reads: [a, b] });
    this.comb(() => {
      const s = this.s;
      s[mix.i] = (s[this.inp.i]! + s[c.i]! * 3 + s[d.i]!) & 0xffff;
    }, { writes: [mix], reads: [this.inp, c, d] });
    this.seq(() => {
      const s = this.s;
      const m = s[mix.i]!;
      const av = s[a.i]!;
      s[a.n] = ((av >>> 1) ^ (av & 1 ? 0xb400 : 0) ^ (m & 0xff)) & 0xffff;
      s[b.n] = (s[b.i]! + (m >>> 4)) & 0xfff;
      s[c.n] = (s[c.i]! + 1) & 0xff;
      s[d.n] = (m & 1) ^ s[d.i]!;
    });
  }
}

export function mixedLogicDesign(cells = 250): Module {
  const top = new Module(null, 'top');
  const list = Array.from({ length: cells }, (_, k) => new MixCell(top, `cell${k}`, k + 1));
  list.forEach((c, k) => top.connect(list[(k + cells - 1) % cells]!.out, c.inp));
  return top;
}

/** A small unit: one 8-bit register and one comb output, fed by its neighbour. */
class TinyUnit extends Module {
  readonly inp: Signal;
  readonly out: Signal;
  constructor(parent: Module, name: string, seed: number) {
    super(parent, name);
    const q = this.reg('q', 8, seed & 0xff);
    this.inp = this.input('inp', 8);
    this.out = this.output('out', 8);
    this.connect(q, this.out);
    this.seq(() => {
      const s = this.s;
      s[q.n] = (s[q.i]! + s[this.inp.i]! + 1) & 0xff;
    });
  }
}

/** `count` small units in a ring: the "~2,000 small units" kernel-overhead target. */
export function smallUnitsDesign(count = 2000): Module {
  const top = new Module(null, 'top');
  const list = Array.from({ length: count }, (_, k) => new TinyUnit(top, `u${k}`, k));
  list.forEach((u, k) => top.connect(list[(k + count - 1) % count]!.out, u.inp));
  return top;
}

/**
 * `trees` arbiter trees of `inputs` requesters each (latency 2, never blocked),
 * driven by random requesters that hold their request until granted: the
 * "64 arbiter trees of 7 inputs under random requests" benchmark.
 */
export function arbiterTreesDesign(trees = 64, inputs = 7, rate = 64): Module {
  const top = new Module(null, 'top');
  for (let t = 0; t < trees; t++) {
    const group = new Module(top, `g${t}`);
    const arb = makeArbiter(group, 'arb', { size: inputs, latency: 2, policy: 'tree' });
    group.tie(arb.blocked, 0);
    for (let k = 0; k < inputs; k++) {
      const r = new Requester(group, `r${k}`, k, rate, t + 1);
      group.connect(r.req, arb.req[k]!);
      group.connect(arb.gnt[k]!, r.gnt);
    }
  }
  return top;
}
