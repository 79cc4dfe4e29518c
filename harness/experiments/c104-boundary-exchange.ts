/**
 * c104-boundary-exchange: seed 004 Table 4.3's token-level column (§4.2.3,
 * spec T-4.3) from the RTL: the torus boundary exchange (spec §8.1), 32-byte
 * messages, greedy x-first routing, CPU link widths 1–4, C104 buffers of
 * 198 + 2 tokens, application exchanges per ms (machine-wide).
 *
 * The RTL (harness/rtl/c104_exchange.ts: C104 switches, T9000 endpoints,
 * real DS-links) runs the exchange on a 4×4 mesh (8×8 process torus): its
 * T9000 has at most 255 virtual link control blocks, and one virtual link
 * per channel needs 8 labels per node, 512 on the 8×8 mesh. The TLM in its
 * token-credit mode (RTL-calibrated) runs the same 4×4 exchange, and is
 * held against the RTL there (±3%); it then gives the 8×8 column, whose
 * shape (each width relative to width 4) is compared with the seed's.
 * The RTL measures over a window after a warm-up (5k + 20k cycles; quick:
 * widths 1 and 4 only); the TLM runs to the ±1% stopping rule.
 */
import { runRtlExchange } from '../rtl/c104_exchange.ts';
import { PERIOD_NS } from './c104-exchange.ts';
import { absoluteCheck, rangeCheck } from './c104-verdicts.ts';
import { exchangeRate, TABLE_4_3, TOKEN_43, type ExchangeRate } from './c104-table43.ts';
import { defineExperiment, type ExperimentCliValues, type SeedCheck } from './types.ts';

export type BxLevel = 'rtl-4x4' | 'token-4x4' | 'token-8x8';
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
  readonly warmupCycles: number;
  readonly windowCycles: number;
}

/** The token-credit TLM stands in for the RTL if within this of it (relative). */
export const RTL_AGREEMENT = 0.03;
/** Shape: each width's rate relative to width 4 within this many points of the seed's. */
export const SHAPE_POINTS = 5;

export function boundaryExchangeChecks(rows: readonly { width: number; rtl?: BxResult; token4?: BxResult; token8?: BxResult }[]): SeedCheck[] {
  const checks: SeedCheck[] = [];
  for (const r of rows) {
    if (!r.rtl || !r.token4) continue;
    checks.push(
      rangeCheck(
        `rtl-token-w${r.width}`,
        `CPU link width ${r.width}, 4×4 mesh: the token-credit TLM stands in for the RTL (within ±${100 * RTL_AGREEMENT}%)`,
        -100 * RTL_AGREEMENT,
        100 * RTL_AGREEMENT,
        100 * (r.token4.exchangesPerMs / r.rtl.exchangesPerMs - 1),
        '%',
        { converged: r.token4.converged, dropped: 0 },
        2,
      ),
    );
  }
  const w4 = rows.find((r) => r.width === 4)?.token8;
  for (const r of rows) {
    if (r.width === 4 || !r.token8 || !w4) continue;
    const seed = (100 * TABLE_4_3[r.width]![0]) / TABLE_4_3[4]![0];
    checks.push(absoluteCheck(`t4.3-token-shape-w${r.width}`, `Table 4.3 token column, 8×8: width ${r.width} relative to width 4`, seed, (100 * r.token8.exchangesPerMs) / w4.exchangesPerMs, SHAPE_POINTS, '%', { converged: r.token8.converged && w4.converged, dropped: 0 }));
  }
  return checks;
}

export const c104BoundaryExchange = defineExperiment<BxPoint, BxResult, BxParams>({
  name: 'c104-boundary-exchange',
  summary: 'seed 004 Table 4.3 token column: boundary exchange on the RTL C104 mesh (4×4) and the token-credit TLM (4×4, 8×8), CPU link widths 1–4',
  source: 'seed 004 §4.2.1, §4.2.3, Table 4.3 (docs/sources.md, c104-t9000 §8.1, T-4.3)',
  method: 'RTL C104 mesh with T9000 endpoints and DS-links (harness/rtl/c104_exchange.ts) and the T9000/C104 TLM in token-credit mode; 198 + 2 token C104 buffers, 32 B, x-first, 1 µs compute',
  options: [],
  // The quick run keeps the full window (shorter ones bias the RTL's rate by several %: 10k cycles +3…+5%) on fewer widths.
  params: (cli: ExperimentCliValues) => ({ quick: cli.quick, widths: cli.quick ? [1, 4] : [1, 2, 3, 4], warmupCycles: 5000, windowCycles: 20_000 }),
  points: (q) => q.widths.flatMap((width) => (['rtl-4x4', 'token-4x4', 'token-8x8'] as const).map((level) => ({ width, level }))),
  runPoint(p, q) {
    if (p.level === 'rtl-4x4') {
      const r = runRtlExchange({ N: 8, bytes: 32, periodNs: PERIOD_NS, cpuLinks: p.width, inputBufferTokens: 198, outputBufferTokens: 2, warmupCycles: q.warmupCycles, windowCycles: q.windowCycles });
      return { exchangesPerMs: r.exchangesPerMs, converged: true, wallSeconds: r.wallSeconds };
    }
    return exchangeRate(p.level === 'token-4x4' ? 4 : 8, p.width, TOKEN_43);
  },
  assemble(q, pts, res) {
    const get = (width: number, level: BxLevel): BxResult | undefined => res[pts.findIndex((p) => p.width === width && p.level === level)];
    const rows = q.widths.map((width) => ({ width, rtl: get(width, 'rtl-4x4'), token4: get(width, 'token-4x4'), token8: get(width, 'token-8x8') }));
    const t8w4 = rows.find((r) => r.width === 4)?.token8?.exchangesPerMs;
    return {
      tables: [
        {
          title: 'Table 4.3 token column: application exchanges per ms (machine-wide)',
          columns: ['width', 'RTL 4×4', 'token TLM 4×4', 'TLM − RTL %', 'token TLM 8×8', '8×8 / width 4', 'seed token 8×8', 'seed / width 4'],
          rows: rows.map((r) => [
            r.width,
            r.rtl?.exchangesPerMs ?? null,
            r.token4?.exchangesPerMs ?? null,
            r.rtl && r.token4 ? 100 * (r.token4.exchangesPerMs / r.rtl.exchangesPerMs - 1) : null,
            r.token8?.exchangesPerMs ?? null,
            r.token8 && t8w4 ? r.token8.exchangesPerMs / t8w4 : null,
            TABLE_4_3[r.width]![0],
            TABLE_4_3[r.width]![0] / TABLE_4_3[4]![0],
          ]),
          digits: [0, 0, 0, 2, 0, 3, 0, 3],
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
            { name: 'RTL 4×4', points: rows.filter((r) => r.rtl).map((r) => [r.width, r.rtl!.exchangesPerMs] as const) },
            { name: 'token-credit TLM 4×4', points: rows.filter((r) => r.token4).map((r) => [r.width, r.token4!.exchangesPerMs] as const) },
            { name: 'token-credit TLM 8×8', points: rows.filter((r) => r.token8).map((r) => [r.width, r.token8!.exchangesPerMs] as const) },
          ],
        },
      ],
      notes: [
        `RTL window: ${q.warmupCycles} cycles of warm-up, then ${q.windowCycles} cycles (${(q.windowCycles / 100).toFixed(0)} µs) counted; RTL wall time per width: ${rows.map((r) => (r.rtl?.wallSeconds ?? NaN).toFixed(0)).join(', ')} s.`,
        'The 8×8 exchange is beyond the RTL (255 virtual link control blocks per T9000; 512 labels needed): its column is the token-credit TLM, which the 4×4 rows hold against the RTL.',
        'Compute period 1 µs (not given by the seed): absolute rates are not the seed\'s; the shape column compares each width with width 4.',
      ],
    };
  },
});
