/**
 * Table 4.3 experiments (c104-boundary-exchange, c104-token-vs-packet):
 * every verdict rule with a control just outside its bound (synthetic
 * results through the experiments' own check functions), and the quick
 * c104-boundary-exchange run: the RTL 4×4 mesh running the boundary
 * exchange and the token-credit TLM beside it; the quick
 * c104-token-vs-packet run (8×8, widths 1 and 4). The full runs (8×8 token
 * and packet columns, RTL at widths 1–4) are behind ICEMU_FULL=1; their
 * figures are in docs/thesis-model.md#table-43.
 */
import { describe, expect, it } from 'vitest';
import { boundaryExchangeChecks, c104BoundaryExchange, RTL_AGREEMENT } from '../../harness/experiments/c104-boundary-exchange.ts';
import { c104TokenVsPacket, RESIDUAL_BOUND_PCT, tokenVsPacketChecks } from '../../harness/experiments/c104-token-vs-packet.ts';
import { FCT_ADJUSTMENT, residualPct, TABLE_4_3 } from '../../harness/experiments/c104-table43.ts';

const ok = (x: number) => ({ exchangesPerMs: x, converged: true });
const FULL = Boolean(process.env.ICEMU_FULL);

describe('Table 4.3 verdict rules and their controls', () => {
  it('the seed table recomputes: adjusted = token × 1.05, residual = (adjusted − packet)/packet', () => {
    for (const [w, [tok, pk, adj, res]] of Object.entries(TABLE_4_3)) {
      expect(Math.floor(tok * FCT_ADJUSTMENT), `width ${w}`).toBe(adj);
      expect(Math.abs((100 * (adj - pk)) / pk - res), `width ${w}`).toBeLessThan(0.005);
    }
  });

  it('the declared bounds: residual ±3.5 points (the seed\'s 2.00–3.34% "within about 3%"), TLM vs RTL ±3%', () => {
    expect(RESIDUAL_BOUND_PCT).toBe(3.5);
    expect(RTL_AGREEMENT).toBe(0.03);
  });
  it('residual within ±3.5 points holds; 0.01 point outside fails, either side', () => {
    const packet = 1000;
    const tokenFor = (r: number) => (packet * (1 + r / 100)) / FCT_ADJUSTMENT;
    const verdict = (r: number) => tokenVsPacketChecks([{ width: 1, token: ok(tokenFor(r)), packet: ok(packet) }])[0]!.holds;
    expect(residualPct(tokenFor(2), packet)).toBeCloseTo(2, 9);
    expect(verdict(RESIDUAL_BOUND_PCT)).toBe(true);
    expect(verdict(-RESIDUAL_BOUND_PCT)).toBe(true);
    expect(verdict(RESIDUAL_BOUND_PCT + 0.01)).toBe(false);
    expect(verdict(-RESIDUAL_BOUND_PCT - 0.01)).toBe(false);
    expect(tokenVsPacketChecks([{ width: 1, token: { exchangesPerMs: tokenFor(0), converged: false }, packet: ok(packet) }])[0]!.holds).toBe(null);
  });

  it('token below packet at every width holds; one width equal fails', () => {
    const below = (rows: [number, number][]) => tokenVsPacketChecks(rows.map(([t, p], k) => ({ width: k + 1, token: ok(t), packet: ok(p) }))).at(-1)!.holds;
    expect(below([[99, 100], [98, 100]])).toBe(true);
    expect(below([[99, 100], [100, 100]])).toBe(false);
  });

  it(`TLM vs RTL within ±${100 * RTL_AGREEMENT}% holds; 0.01% outside fails`, () => {
    const v = (dev: number) => boundaryExchangeChecks([{ width: 4, rtl: ok(1000), token4: ok(1000 * (1 + dev / 100)) }])[0]!.holds;
    expect(v(100 * RTL_AGREEMENT)).toBe(true);
    expect(v(-100 * RTL_AGREEMENT)).toBe(true);
    expect(v(100 * RTL_AGREEMENT + 0.01)).toBe(false);
    expect(v(-100 * RTL_AGREEMENT - 0.01)).toBe(false);
  });

  it(`8×8: TLM vs RTL within ±${100 * RTL_AGREEMENT}% holds; 0.01% outside fails`, () => {
    const v = (dev: number) => boundaryExchangeChecks([{ width: 2, rtl8: ok(1000), token8: ok(1000 * (1 + dev / 100)) }]).find((c) => c.id === 'rtl-token-8x8-w2')!.holds;
    expect(v(100 * RTL_AGREEMENT)).toBe(true);
    expect(v(-100 * RTL_AGREEMENT)).toBe(true);
    expect(v(100 * RTL_AGREEMENT + 0.01)).toBe(false);
    expect(v(-100 * RTL_AGREEMENT - 0.01)).toBe(false);
  });

  it('8×8 shape (RTL and TLM) within 5 points of the seed holds; 0.01 point outside fails', () => {
    const seed1 = (100 * TABLE_4_3[1]![0]) / TABLE_4_3[4]![0];
    for (const key of ['token8', 'rtl8'] as const) {
      const v = (pts: number) => boundaryExchangeChecks([{ width: 1, [key]: ok(seed1 + pts) }, { width: 4, [key]: ok(100) }])[0]!.holds;
      expect(v(5), key).toBe(true);
      expect(v(-5), key).toBe(true);
      expect(v(5.01), key).toBe(false);
      expect(v(-5.01), key).toBe(false);
    }
  });
});

describe('c104-boundary-exchange --quick: the RTL 4×4 mesh runs the exchange', () => {
  const q = c104BoundaryExchange.params({ quick: true });
  const pts = c104BoundaryExchange.points(q).filter((p) => p.level !== 'token-8x8');

  it('quick: no RTL 8×8 point (it runs at full size only)', () => expect(pts.some((p) => p.level === 'rtl-8x8')).toBe(false));
  const res = pts.map((p) => c104BoundaryExchange.runPoint(p, q));
  const rep = c104BoundaryExchange.assemble(q, pts, res);

  it('every point exchanges, width 1 well below width 4 on both levels', () => {
    for (const r of res) expect(r.exchangesPerMs).toBeGreaterThan(500);
    const at = (w: number, level: string) => res[pts.findIndex((p) => p.width === w && p.level === level)]!.exchangesPerMs;
    expect(at(1, 'rtl-4x4') / at(4, 'rtl-4x4')).toBeLessThan(0.9);
    expect(at(1, 'token-4x4') / at(4, 'token-4x4')).toBeLessThan(0.9);
  });

  it('the RTL rates are the ones of the exchange loop before it was folded into the process driver (c104_processes.ts, stop 19), exactly', () => {
    const at = (w: number) => res[pts.findIndex((p) => p.width === w && p.level === 'rtl-4x4')]!.exchangesPerMs;
    expect([at(1), at(4)]).toEqual([2002.6127917202843, 3223.137508579355]);
  });

  it('the token-credit TLM stands in for the RTL: within ±3% at widths 1 and 4 (the full window; measured −2.47% and −1.37%)', () => {
    const checks = rep.checks.filter((x) => x.id.startsWith('rtl-token'));
    expect(checks).toHaveLength(2);
    for (const c of checks) expect(c.holds, `${c.id}: ${c.measured}`).toBe(true);
  });
}, 900_000);

describe('c104-token-vs-packet --quick (the seed\'s 8×8 mesh, widths 1 and 4)', () => {
  it('width 4 holds (residual 2.22%), width 1 does not (4.34%, bound 3.5), the token column below the packet one at both, as at full size (docs/thesis-model.md#table-43)', () => {
    const q = c104TokenVsPacket.params({ quick: true });
    const pts = c104TokenVsPacket.points(q);
    const rep = c104TokenVsPacket.assemble(q, pts, pts.map((p) => c104TokenVsPacket.runPoint(p, q)));
    expect(rep.checks.map((c) => [c.id, c.holds, c.measured])).toEqual([
      ['t4.3-residual-w1', false, '4.34%'],
      ['t4.3-residual-w4', true, '2.22%'],
      ['t4.3-token-below', true, 'w1 -0.63%, w4 -2.65%'],
    ]);
  }, 300_000);
});

describe.skipIf(!FULL)('Table 4.3 at full size (ICEMU_FULL=1)', () => {
  it('c104-token-vs-packet: the residual verdicts as reported', () => {
    const q = c104TokenVsPacket.params({ quick: false });
    const pts = c104TokenVsPacket.points(q);
    const rep = c104TokenVsPacket.assemble(q, pts, pts.map((p) => c104TokenVsPacket.runPoint(p, q)));
    // As recorded in docs/thesis-model.md#table-43 (the model is deterministic): residuals 4.34, 6.74, 5.00, 2.22%,
    // so only width 4 holds; before the adjustment the token model is above the packet model at width 2.
    expect(rep.checks.map((c) => [c.id, c.holds])).toEqual([
      ['t4.3-residual-w1', false],
      ['t4.3-residual-w2', false],
      ['t4.3-residual-w3', false],
      ['t4.3-residual-w4', true],
      ['t4.3-token-below', false],
    ]);
  }, 3_600_000);

  it('c104-boundary-exchange: the RTL on the 8×8 and 4×4 meshes; the token-credit TLM within ±3% of it at every width, both shapes the seed\'s, as reported', () => {
    const q = c104BoundaryExchange.params({ quick: false });
    const pts = c104BoundaryExchange.points(q);
    expect(pts.filter((p) => p.level === 'rtl-8x8')).toHaveLength(4);
    const rep = c104BoundaryExchange.assemble(q, pts, pts.map((p) => c104BoundaryExchange.runPoint(p, q)));
    // As recorded in docs/thesis-model.md#table-43: 8×8 +1.72 / +0.10 / +0.60 / −0.67%, 4×4 −2.47 / +2.25 / −2.31 / −1.37%.
    expect(rep.checks.map((c) => [c.id, c.holds])).toEqual([
      ...[1, 2, 3, 4].map((w) => [`rtl-token-w${w}`, true]),
      ...[1, 2, 3, 4].map((w) => [`rtl-token-8x8-w${w}`, true]),
      ...[1, 2, 3].map((w) => [`t4.3-rtl-shape-w${w}`, true]),
      ...[1, 2, 3].map((w) => [`t4.3-token-shape-w${w}`, true]),
    ]);
  }, 7_200_000);
});
