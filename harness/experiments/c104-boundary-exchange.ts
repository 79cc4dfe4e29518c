/**
 * c104-boundary-exchange: seed 004 Table 4.3's token-level column (§4.2.3,
 * spec T-4.3) from the RTL: the torus boundary exchange (spec §8.1), 32-byte
 * messages, greedy x-first routing, CPU link widths 1–4, C104 buffers of
 * 198 + 2 tokens, application exchanges per ms (machine-wide).
 *
 * The RTL (harness/rtl/c104_exchange.ts: C104 switches, T9000 endpoints with
 * node addressing, real DS-links) runs the exchange on the seed's 8×8 mesh
 * (16×16 process torus) and on a 4×4 mesh; the TLM in its token-credit mode
 * (RTL-calibrated, with the RTL's per-channel links and virtual links) runs
 * both and is held against the RTL at each (±3%); each 8×8 column's shape
 * (each width relative to width 4) is compared with the seed's.
 * The RTL measures over a window after a warm-up (4×4: 5k + 20k cycles; 8×8:
 * 20k + 40k); the TLM
 * runs to the ±1% stopping rule. Quick: widths 1 and 4, the RTL at 4×4 only
 * (the 8×8 RTL takes minutes per width).
 */
import { runRtlExchange } from '../rtl/c104_exchange.ts';
import { PERIOD_NS } from './c104-exchange.ts';
import { absoluteCheck, rangeCheck } from './c104-verdicts.ts';
import { exchangeRate, TABLE_4_3, TOKEN_43_RTL, type ExchangeRate } from './c104-table43.ts';
import { defineExperiment, type ExperimentCliValues, type SeedCheck } from './types.ts';

export type BxLevel = 'rtl-4x4' | 'token-4x4' | 'rtl-8x8' | 'token-8x8';
export interface BxPoint {
  readonly width: number;
  readonly level: BxLevel;
}
export interface BxResult extends ExchangeRate {
  readonly wallSeconds?: number;
}
export interface BxParams {
  readonly quick: boolean;
  readonly widths: readonly number[];
  /** RTL warm-up and counted window, cycles, on the 4×4 mesh and on the 8×8 (whose start-up transient is longer). */
  readonly warmupCycles: number;
  readonly windowCycles: number;
  readonly warmupCycles8: number;
  readonly windowCycles8: number;
  /** Run the RTL on the 8×8 mesh too. */
  readonly rtl8: boolean;
}

/** The token-credit TLM stands in for the RTL if within this of it (relative). */
export const RTL_AGREEMENT = 0.03;
/** Shape: each width's rate relative to width 4 within this many points of the seed's. */
export const SHAPE_POINTS = 5;

export interface BxRow {
  readonly width: number;
  readonly rtl?: BxResult;
  readonly token4?: BxResult;
  readonly rtl8?: BxResult;
  readonly token8?: BxResult;
}

export function boundaryExchangeChecks(rows: readonly BxRow[]): SeedCheck[] {
  const checks: SeedCheck[] = [];
  const agree = (r: BxRow, size: string, rtl?: BxResult, tok?: BxResult): void => {
    if (!rtl || !tok) return;
    checks.push(
      rangeCheck(
        `rtl-token-${size === '4×4' ? '' : '8x8-'}w${r.width}`,
        `CPU link width ${r.width}, ${size} mesh: the token-credit TLM stands in for the RTL (within ±${100 * RTL_AGREEMENT}%)`,
        -100 * RTL_AGREEMENT,
        100 * RTL_AGREEMENT,
        100 * (tok.exchangesPerMs / rtl.exchangesPerMs - 1),
        '%',
        { converged: tok.converged, dropped: 0 },
        2,
      ),
    );
  };
  for (const r of rows) agree(r, '4×4', r.rtl, r.token4);
  for (const r of rows) agree(r, '8×8', r.rtl8, r.token8);
  for (const [key, label] of [['rtl8', 'RTL'], ['token8', 'token-credit TLM']] as const) {
    const w4 = rows.find((r) => r.width === 4)?.[key];
    for (const r of rows) {
      const x = r[key];
      if (r.width === 4 || !x || !w4) continue;
      const seed = (100 * TABLE_4_3[r.width]![0]) / TABLE_4_3[4]![0];
      const id = key === 'rtl8' ? `t4.3-rtl-shape-w${r.width}` : `t4.3-token-shape-w${r.width}`;
      checks.push(absoluteCheck(id, `Table 4.3 token column, 8×8, ${label}: width ${r.width} relative to width 4`, seed, (100 * x.exchangesPerMs) / w4.exchangesPerMs, SHAPE_POINTS, '%', { converged: x.converged && w4.converged, dropped: 0 }));
    }
  }
  return checks;
}

const LEVELS: readonly BxLevel[] = ['rtl-4x4', 'token-4x4', 'rtl-8x8', 'token-8x8'];

export const c104BoundaryExchange = defineExperiment<BxPoint, BxResult, BxParams>({
  name: 'c104-boundary-exchange',
  summary: 'seed 004 Table 4.3 token column: boundary exchange on the RTL C104 mesh and the token-credit TLM (8×8 and 4×4), CPU link widths 1–4',
  source: 'seed 004 §4.2.1, §4.2.3, Table 4.3 (docs/sources.md, c104-t9000 §8.1, T-4.3)',
  method: 'RTL C104 mesh with T9000 endpoints (node addressing) and DS-links (harness/rtl/c104_exchange.ts) and the T9000/C104 TLM in token-credit mode; 198 + 2 token C104 buffers, 32 B, x-first, 1 µs compute',
  options: [],
  // The quick run keeps the full window (shorter ones bias the RTL's rate by several %: 10k cycles +3…+5%) on fewer widths.
  params: (cli: ExperimentCliValues) => ({ quick: cli.quick, widths: cli.quick ? [1, 4] : [1, 2, 3, 4], warmupCycles: 5000, windowCycles: 20_000, warmupCycles8: 20_000, windowCycles8: 40_000, rtl8: !cli.quick }),
  points: (q) => q.widths.flatMap((width) => (q.rtl8 ? LEVELS : LEVELS.filter((l) => l !== 'rtl-8x8')).map((level) => ({ width, level }))),
  runPoint(p, q) {
    const side = p.level.endsWith('8x8') ? 8 : 4;
    if (p.level.startsWith('rtl')) {
      const big = side === 8;
      const r = runRtlExchange({ N: 2 * side, bytes: 32, periodNs: PERIOD_NS, cpuLinks: p.width, inputBufferTokens: 198, outputBufferTokens: 2, warmupCycles: big ? q.warmupCycles8 : q.warmupCycles, windowCycles: big ? q.windowCycles8 : q.windowCycles });
      return { exchangesPerMs: r.exchangesPerMs, converged: true, wallSeconds: r.wallSeconds };
    }
    return exchangeRate(side, p.width, TOKEN_43_RTL);
  },
  assemble(q, pts, res) {
    const get = (width: number, level: BxLevel): BxResult | undefined => res[pts.findIndex((p) => p.width === width && p.level === level)];
    const rows: BxRow[] = q.widths.map((width) => ({ width, rtl: get(width, 'rtl-4x4'), token4: get(width, 'token-4x4'), rtl8: get(width, 'rtl-8x8'), token8: get(width, 'token-8x8') }));
    const t8w4 = rows.find((r) => r.width === 4)?.token8?.exchangesPerMs;
    const r8w4 = rows.find((r) => r.width === 4)?.rtl8?.exchangesPerMs;
    const dev = (a?: BxResult, b?: BxResult): number | null => (a && b ? 100 * (b.exchangesPerMs / a.exchangesPerMs - 1) : null);
    return {
      tables: [
        {
          title: 'Table 4.3 token column: application exchanges per ms (machine-wide)',
          columns: ['width', 'RTL 8×8', 'token TLM 8×8', 'TLM − RTL %', 'RTL 8×8 / width 4', 'TLM 8×8 / width 4', 'seed / width 4', 'seed token 8×8', 'RTL 4×4', 'token TLM 4×4', 'TLM − RTL % (4×4)'],
          rows: rows.map((r) => [
            r.width,
            r.rtl8?.exchangesPerMs ?? null,
            r.token8?.exchangesPerMs ?? null,
            dev(r.rtl8, r.token8),
            r.rtl8 && r8w4 ? r.rtl8.exchangesPerMs / r8w4 : null,
            r.token8 && t8w4 ? r.token8.exchangesPerMs / t8w4 : null,
            TABLE_4_3[r.width]![0] / TABLE_4_3[4]![0],
            TABLE_4_3[r.width]![0],
            r.rtl?.exchangesPerMs ?? null,
            r.token4?.exchangesPerMs ?? null,
            dev(r.rtl, r.token4),
          ]),
          digits: [0, 0, 0, 2, 3, 3, 3, 0, 0, 0, 2],
        },
      ],
      checks: boundaryExchangeChecks(rows),
      plots: [
        {
          id: 'table4.3-token',
          title: 'Table 4.3 token column: exchanges per ms vs CPU link width',
          xLabel: 'CPU link width',
          yLabel: 'exchanges per ms',
          series: [
            { name: 'RTL 8×8', points: rows.filter((r) => r.rtl8).map((r) => [r.width, r.rtl8!.exchangesPerMs] as const) },
            { name: 'token-credit TLM 8×8', points: rows.filter((r) => r.token8).map((r) => [r.width, r.token8!.exchangesPerMs] as const) },
            { name: 'RTL 4×4', points: rows.filter((r) => r.rtl).map((r) => [r.width, r.rtl!.exchangesPerMs] as const) },
            { name: 'token-credit TLM 4×4', points: rows.filter((r) => r.token4).map((r) => [r.width, r.token4!.exchangesPerMs] as const) },
          ],
        },
      ],
      notes: [
        `RTL window: 4×4 ${q.warmupCycles} cycles of warm-up, then ${q.windowCycles} cycles (${(q.windowCycles / 100).toFixed(0)} µs) counted; 8×8 ${q.warmupCycles8} then ${q.windowCycles8} (with 5k + 20k the 8×8 rate at width 2 read 5% high: the start-up transient is longer); RTL wall time per width: 4×4 ${rows.map((r) => (r.rtl?.wallSeconds ?? NaN).toFixed(0)).join(', ')} s; 8×8 ${rows.map((r) => (r.rtl8?.wallSeconds ?? NaN).toFixed(0)).join(', ')} s.`,
        q.rtl8 ? 'The RTL T9000s use node addressing (8 control blocks per node), so the seed\'s 8×8 mesh builds.' : 'Quick: the RTL on the 4×4 mesh only (the 8×8 RTL runs in the full run).',
        'Both levels: one virtual link per channel, on T9000 link (channel end number) mod width (docs/thesis-model.md#t9000-links).',
        'Compute period 1 µs (not given by the seed): absolute rates are not the seed\'s; the shape columns compare each width with width 4.',
      ],
    };
  },
});
