/**
 * The chapter-5 verdict rules (harness/experiments/buzzard-ch5.ts) pinned by
 * negative controls just outside them, on synthetic results (no model run):
 * a printed percentage holds within ±10 percentage points (9 pp off holds,
 * 11 pp off does not); a range holds when both ends are within ±10 pp; a "for
 * the k heaviest loads" statement holds only for exactly that set.
 */
import { describe, expect, it } from 'vitest';
import { buzzardFig512, buzzardFig513, type Ch5Pt, type Ch5Res } from '../../harness/experiments/buzzard-ch5.ts';
import type { SeedCheck } from '../../harness/experiments/types.ts';

const BASE_RES: Ch5Res = {
  idealU: 0.1,
  measuredU: 0.1,
  nipLoad: 0.1,
  meanFirst: 1000,
  meanLast: 5000,
  meanLastMinusFirst: 4000,
  maxFirst: 1000,
  maxLast: 5000,
  messages: 100,
  delivered: 100,
  contraryMessages: 0,
  orderViolations: 0,
  deadlock: false,
  lastGeneration: 1e5,
  makespan: 1.1e5,
  half: { messagesPerNode: 4, meanFirst: 1000, meanLast: 5000 },
  growth: { first: 0, last: 0 },
  stable: true,
  resources: { sourceWaitBySlot: [], meanSourceWait: 0, meanInNetworkFirst: 0, pbuFullFraction: [], linkBusyFraction: [] },
};

/**
 * Results in which, at load index i, scheme t has first = 1000·lat(t, i) and last − first = 4000 / bw(t, i)
 * (wormhole: 1000 and 4000), so the latency ratio is lat and the bandwidth ratio bw exactly.
 */
function synthetic(exp: typeof buzzardFig512, lat: (t: string, i: number) => number, bw: (t: string, i: number) => number, lastBelowWh: (t: string, i: number) => boolean = () => false) {
  const q = exp.params({ quick: true });
  const points: Ch5Pt[] = exp.points(q);
  const results = points.map((p): Ch5Res => {
    const i = q.rates.indexOf(p.meanGapTicks);
    if (p.transport === 'wormhole' || i < 0) return { ...BASE_RES, idealU: 0.05 + 0.01 * Math.max(i, 0) };
    const first = 1000 * lat(p.transport, i);
    const lmf = 4000 / bw(p.transport, i);
    const last = lastBelowWh(p.transport, i) ? 4999 : first + lmf;
    return { ...BASE_RES, idealU: 0.05 + 0.01 * i, meanFirst: first, meanLastMinusFirst: lmf, meanLast: Math.max(last, first + 1) };
  });
  return exp.assemble(q, points, results);
}

const check = (checks: readonly SeedCheck[], id: string): SeedCheck => {
  const c = checks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id}`);
  return c;
};

describe('chapter-5 verdict rules: ±10 percentage points, ranges, sets', () => {
  it('an endpoint percentage holds 9 pp off and fails 11 pp off (fixed latency heaviest 35%, lightest 87%; bandwidths 37% / 81%)', () => {
    for (const [off, holds] of [[0.09, true], [-0.09, true], [0.11, false], [-0.11, false]] as const) {
      const r = synthetic(buzzardFig512, (t, i) => (t === 'fixed-packet' ? (i === 0 ? 0.35 : i === 8 ? 0.87 : 0.6) + off : 0.3), (t, i) => (t === 'fixed-packet' ? (i === 0 ? 0.37 : i === 8 ? 0.81 : 0.6) + off : 0.5));
      for (const id of ['fixed-latency-heaviest', 'fixed-latency-lightest', 'fixed-bandwidth-heavier', 'fixed-bandwidth-lighter']) expect(check(r.checks, id).holds, `${id} off by ${off}`).toBe(holds);
    }
  });
  it('a range holds when both ends are within ±10 pp (quasi latency 10%…77%; exp(2048) fixed 47%…69%)', () => {
    for (const [lo, hi, holds] of [[0.19, 0.68, true], [0.01, 0.86, true], [0.21, 0.77, false], [0.1, 0.88, false], [-0.01, 0.77, false]] as const) {
      const r = synthetic(buzzardFig512, (t, i) => (t === 'quasi-adaptive' ? lo + ((hi - lo) * i) / 8 : 0.9), () => 0.5);
      expect(check(r.checks, 'quasi-latency-range').holds, `${lo}…${hi}`).toBe(holds);
    }
    for (const [lo, hi, holds] of [[0.56, 0.78, true], [0.58, 0.69, false], [0.47, 0.8, false]] as const) {
      const r = synthetic(buzzardFig513, (t, i) => (t === 'fixed-packet' ? hi - ((hi - lo) * i) / 8 : 0.2), () => 0.5);
      expect(check(r.checks, 'fixed-latency-range').holds, `${lo}…${hi}`).toBe(holds);
    }
  });
  it('"below 50% at the four heaviest loads" holds for exactly loads 0–3, not for 0–2 or 0–4', () => {
    for (const [k, holds] of [[4, true], [3, false], [5, false]] as const) {
      const r = synthetic(buzzardFig512, (t, i) => (t === 'fixed-packet' ? (i < k ? 0.4 : 0.6) : 0.3), () => 0.5);
      expect(check(r.checks, 'fixed-latency-below-half').holds, `below at ${k} heaviest`).toBe(holds);
    }
  });
});

describe('delivery per scheme', () => {
  it('defaults to per-link for both schemes (docs/buzzard-ch5.md#delivery-at-the-destination); one mode or wormhole=…,packet=… per scheme; bad text is one clear error', async () => {
    const { parseCh5Delivery, CH5_DELIVERY_DEFAULT } = await import('../../harness/experiments/buzzard-ch5-common.ts');
    expect(parseCh5Delivery(undefined)).toEqual({ wormhole: 'per-link', packet: 'per-link' });
    expect(CH5_DELIVERY_DEFAULT).toEqual({ wormhole: 'per-link', packet: 'per-link' });
    expect(parseCh5Delivery('shared-port')).toEqual({ wormhole: 'shared-port', packet: 'shared-port' });
    expect(parseCh5Delivery('packet=shared-port')).toEqual({ wormhole: 'per-link', packet: 'shared-port' });
    expect(parseCh5Delivery('wormhole=shared-port,packet=per-link')).toEqual({ wormhole: 'shared-port', packet: 'per-link' });
    for (const bad of ['bogus', 'wormhole=x', 'packets=per-link', '']) expect(() => parseCh5Delivery(bad), bad).toThrow(/^--delivery must be/);
    // the point runs each scheme with its own mode
    const q = buzzardFig512.params({ quick: true, delivery: 'wormhole=shared-port,packet=per-link' });
    expect(q.delivery).toEqual({ wormhole: 'shared-port', packet: 'per-link' });
  });
});
