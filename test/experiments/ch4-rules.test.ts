/**
 * buzzard-ch4 at full size (40 messages per node, seed 1; about 7 s) — the
 * §4.4 statements asserted where the seed makes them — and the verdict
 * rules pinned by synthetic results just inside and just outside each bound
 * (docs/buzzard-ch4.md#full-run-figures).
 */
import { describe, expect, it } from 'vitest';
import { BURSTY, buzzardCh4, type Ch4Params, type Ch4Pt, type Ch4Res } from '../../harness/experiments/buzzard-ch4.ts';
import { runPoints } from '../../harness/experiments/runner.ts';
import type { Ch4Links, Ch4Routing, Ch4Transport } from '../../harness/tlm/ch4.ts';

const q = buzzardCh4.params({ quick: false }) as Ch4Params;
const points = buzzardCh4.points(q) as Ch4Pt[];

describe('buzzard-ch4 full size (40 messages per node)', () => {
  it('10 of 13 statements hold; light-load adaptive, small-message adaptive circuits and bursty circuits do not', async () => {
    expect(q.messagesPerNode).toBe(40);
    const runs = await runPoints(buzzardCh4, q, undefined, { jobs: 1 });
    const rep = buzzardCh4.assemble(q, points, runs.map((r) => r.result as Ch4Res));
    const verdict = Object.fromEntries(rep.checks.map((c) => [c.id, c.holds]));
    expect(verdict).toEqual({
      'flooded-datagram-like-cut-through': true,
      'flooded-circuit-worst': true,
      'flooded-fixed-vs-normal-lengths': true,
      'bidirectional-doubles': true,
      'adaptive-marginal': true,
      'locality-small-circuit-better': true,
      'light-circuit-approaches-cut-through': true,
      'light-adaptive-useful-small': false,
      'small-adaptive-circuit-hurts': false,
      'bursty-circuit-most-sensitive': false,
      'datagram-buffers': true,
      'sec4.5-wormhole-M-plus-h-beta': true,
      'sec4.5-packet-M-plus-h-alpha': true,
    });
  }, 120_000);
  it("sensitivity: with adaptiveHops 'first' (adaptive only at the source) the small-message adaptive circuits statement holds, the lighter-load adaptive one still does not", async () => {
    const qf: Ch4Params = { ...q, adaptiveHops: 'first' };
    const runs = await runPoints(buzzardCh4, qf, undefined, { jobs: 1 });
    const rep = buzzardCh4.assemble(qf, points, runs.map((r) => r.result as Ch4Res));
    const verdict = Object.fromEntries(rep.checks.map((c) => [c.id, c.holds]));
    expect(verdict['small-adaptive-circuit-hurts']).toBe(true);
    expect(verdict['adaptive-marginal']).toBe(true);
    expect(verdict['light-adaptive-useful-small']).toBe(false);
    expect(verdict['bursty-circuit-most-sensitive']).toBe(false);
  }, 120_000);
});

type Mean = (fig: string, t: Ch4Transport, r: Ch4Routing, l: Ch4Links) => number;

/** The verdict of one check on synthetic means. */
function verdict(id: string, mean: Mean): boolean | null {
  const zeroLoad = ['wormhole', 'fixed-packet'].flatMap((transport) => [64, 256, 1024].flatMap((M) => [1, 2, 3, 4, 5, 6].map((h) => ({ transport, M, h, t: M + 12 * h }))));
  const results: Ch4Res[] = points.map((p) => (p.kind === 'sec4.5' ? { zeroLoad } : { min: 1, mean: mean(p.fig, p.transport, p.routing, p.links), meanPlusSd: 1, max: 1, delivered: 1, messages: 1, maxBufferBytes: 1, preemptions: 0 }));
  return buzzardCh4.assemble(q, points, results).checks.find((c) => c.id === id)!.holds;
}

describe('buzzard-ch4 verdict rules: controls just inside and just outside each bound', () => {
  it('bidirectional doubling: median in [1.6, 2.6] with ≥ 75% of Figs 4.7–4.10 inside, and Fig. 4.6 larger', () => {
    const at = (x: number, small = x + 1, outside = 0): Mean => {
      let k = 0;
      const seen = new Map<string, number>();
      return (f, t, r, l) => {
        if (l === 'bi') return 100;
        if (f === '4.6') return 100 * small;
        if (!['4.7', '4.8', '4.9', '4.10'].includes(f)) return 100;
        const key = `${f}/${t}/${r}`;
        if (!seen.has(key)) seen.set(key, k++);
        return 100 * (seen.get(key)! < outside ? 5 : x);
      };
    };
    expect(verdict('bidirectional-doubles', at(1.61))).toBe(true);
    expect(verdict('bidirectional-doubles', at(1.59))).toBe(false);
    expect(verdict('bidirectional-doubles', at(2.59))).toBe(true);
    expect(verdict('bidirectional-doubles', at(2.61))).toBe(false);
    expect(verdict('bidirectional-doubles', at(2, 1.99))).toBe(false); // small messages not better
    expect(verdict('bidirectional-doubles', at(2, 3, 6))).toBe(true); // 18 of 24 inside
    expect(verdict('bidirectional-doubles', at(2, 3, 7))).toBe(false); // 17 of 24
  });
  it('adaptive marginal (flooded): fixed/adaptive ≤ 1.1 in ≥ 75% and in every circuit case', () => {
    const at = (y: number, cs = y): Mean => (f, t, r) => (r === 'fixed' ? 100 * (t === 'circuit' ? cs : y) : 100);
    expect(verdict('adaptive-marginal', at(1.1))).toBe(true);
    expect(verdict('adaptive-marginal', at(1.11))).toBe(false);
    expect(verdict('adaptive-marginal', at(1.0, 1.11))).toBe(false);
  });
  it('bursty: CS has the largest constant/exponential-gap rise in ≥ 75% of cases, its median rise ≥ 0.1 above the next', () => {
    // rise per transport: constant-gap figure over its exponential-gap control ('<fig>e')
    const bursty = BURSTY;
    const at = (dt: number, dc: number, cs: number, csLosesIn = 0): Mean => (f, t, r, l) => {
      if (!bursty.includes(f)) return 100; // the exponential-gap controls '<fig>e' and every other figure
      const idx = bursty.indexOf(f) * 4 + ['fixed/uni', 'fixed/bi', 'adaptive/uni', 'adaptive/bi'].indexOf(`${r}/${l}`);
      return 100 * (t === 'circuit' ? (idx < csLosesIn ? 0.5 : cs) : t === 'datagram' ? dt : dc);
    };
    expect(verdict('bursty-circuit-most-sensitive', at(1.0, 1.05, 1.16))).toBe(true);
    expect(verdict('bursty-circuit-most-sensitive', at(1.0, 1.05, 1.14))).toBe(false); // margin 0.09
    expect(verdict('bursty-circuit-most-sensitive', at(1.0, 1.05, 1.3, 4))).toBe(true); // CS largest in 12 of 16
    expect(verdict('bursty-circuit-most-sensitive', at(1.0, 1.05, 1.3, 5))).toBe(false); // 11 of 16
  });
  it('adaptive at lighter loads: > 1 in ≥ 75% and ≤ 1.1 in ≥ half', () => {
    const at = (y: number): Mean => (f, t, r) => (r === 'fixed' ? 100 * y : 100);
    expect(verdict('light-adaptive-useful-small', at(1.05))).toBe(true);
    expect(verdict('light-adaptive-useful-small', at(1.0))).toBe(false);
    expect(verdict('light-adaptive-useful-small', at(1.11))).toBe(false);
  });
  it('flooded datagram ≈ cut-through within [0.8, 1.25]; circuits more than 10% slower than both', () => {
    const dt = (x: number): Mean => (f, t) => (t === 'datagram' ? 100 * x : t === 'circuit' ? 1000 : 100);
    expect(verdict('flooded-datagram-like-cut-through', dt(1.25))).toBe(true);
    expect(verdict('flooded-datagram-like-cut-through', dt(1.26))).toBe(false);
    expect(verdict('flooded-datagram-like-cut-through', dt(0.8))).toBe(true);
    expect(verdict('flooded-datagram-like-cut-through', dt(0.79))).toBe(false);
    const cs = (x: number): Mean => (f, t) => (t === 'circuit' ? 100 * x : 100);
    expect(verdict('flooded-circuit-worst', cs(1.11))).toBe(true);
    expect(verdict('flooded-circuit-worst', cs(1.09))).toBe(false);
  });
});
