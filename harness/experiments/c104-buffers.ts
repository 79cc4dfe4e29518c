/**
 * c104-buffers: seed 004 Figs 4.5 and 4.7 (§4.2.2, §4.2.3) on the T9000/C104
 * packet-passing TLM — Chapter 4's boundary exchange (16×16 process torus on
 * the 8×8 mesh, 32-byte messages, greedy x-first routing): application
 * exchanges per ms against the C104 input buffer size (34…204 tokens, i.e.
 * 1…6 whole data packets of 34 tokens, plus in-between sizes) and against
 * the CPU link width 1…6. The compute period is not given; icemu uses 1 µs
 * (docs/thesis-model.md#chapter-4-runs).
 * (The token-passing curve of Fig. 4.7 and Fig. 4.8: c104-buffer-split, on
 * the token-credit TLM; docs/thesis-model.md#figs-45-47 has this one's figures.)
 */
import { exchangeNote, runExchange, type ExchangeResult } from './c104-exchange.ts';
import { predicateCheck } from './c104-verdicts.ts';
import { defineExperiment, type ExperimentCliValues, type ReportTable } from './types.ts';

export const PACKET_TOKENS = 34;

export interface BufPoint {
  readonly bufferTokens: number;
  readonly width: number;
}
export type BufResult = ExchangeResult;
export interface BufParams {
  readonly quick: boolean;
  readonly buffers: readonly number[];
  readonly widths: readonly number[];
}

function params(cli: ExperimentCliValues): BufParams {
  return cli.quick ? { quick: true, buffers: [34, 50, 67, 68, 102], widths: [1, 4, 5] } : { quick: false, buffers: [34, 40, 50, 60, 67, 68, 80, 101, 102, 136, 170, 204], widths: [1, 2, 3, 4, 5, 6] };
}

function points(q: BufParams): BufPoint[] {
  return [...q.buffers.map((b) => ({ bufferTokens: b, width: 4 })), ...q.widths.filter((w) => w !== 4).map((w) => ({ bufferTokens: 70, width: w })), { bufferTokens: 70, width: 4 }];
}

function runPoint(p: BufPoint): BufResult {
  return runExchange(8, { inputBufferTokens: p.bufferTokens, cpuLinkWidth: p.width });
}

/** Step response: rates within one whole-packet band differ by less than `within`; the first step up is larger than `step`. */
export function stepRule(byBuffer: ReadonlyMap<number, number>, within = 0.01, step = 0.02, packetTokens = PACKET_TOKENS): { flat: boolean; rises: boolean; worstInBand: number; firstStep: number } {
  const bands = new Map<number, number[]>();
  for (const [b, r] of byBuffer) {
    const k = Math.floor(b / packetTokens);
    bands.set(k, [...(bands.get(k) ?? []), r]);
  }
  let worst = 0;
  for (const rs of bands.values()) worst = Math.max(worst, Math.max(...rs) / Math.min(...rs) - 1);
  const one = bands.get(1);
  const two = bands.get(2);
  const firstStep = one && two ? Math.min(...two) / Math.max(...one) - 1 : NaN;
  return { flat: worst < within, rises: firstStep > step, worstInBand: worst, firstStep };
}

/** Fig. 4.5 "no improvement beyond width 4": no width above 4 gains 1% or more over width 4 (none run: no verdict). */
export function noGainBeyond4(gains: readonly number[]): boolean | null {
  return gains.length ? gains.every((g) => g < 0.01) : null;
}
/** Fig. 4.7 "width 1 markedly worse": width 1 below 90% of width 4 (not run: no verdict). */
export function width1Worse(share: number | null): boolean | null {
  return share === null ? null : share < 0.9;
}

function assemble(q: BufParams, pts: readonly BufPoint[], res: readonly BufResult[]) {
  const byBuffer = new Map<number, number>();
  pts.forEach((p, k) => {
    if (p.width === 4) byBuffer.set(p.bufferTokens, res[k]!.exchangesPerMs);
  });
  const byWidth = new Map<number, number>();
  pts.forEach((p, k) => {
    if (p.bufferTokens === 70) byWidth.set(p.width, res[k]!.exchangesPerMs);
  });
  const s = stepRule(byBuffer);
  const w = [...byWidth.entries()].sort((a, b) => a[0] - b[0]);
  const w4 = byWidth.get(4)!;
  const beyond = w.filter(([k]) => k > 4).map(([, r]) => r / w4 - 1);
  const w1 = byWidth.get(1);
  const checks = [
    predicateCheck('f4.7-steps', 'Fig. 4.7: packet passing rises in steps, one per extra whole packet of input buffer', 'steps at whole packets', `largest difference within a whole-packet band ${(100 * s.worstInBand).toFixed(2)}%; 2 packets vs 1: ${(100 * s.firstStep).toFixed(1)}%`, 'holds if rates within a band differ by under 1% and the step from one to two packets is above 2%', s.flat && s.rises),
    predicateCheck('f4.5-width-4', 'Fig. 4.5: no improvement from CPU link width beyond 4', 'no gain beyond 4', beyond.length ? beyond.map((g, i) => `width ${w.filter(([k]) => k > 4)[i]![0]}: ${(100 * g).toFixed(2)}%`).join(', ') : 'n/a', 'holds if no width above 4 gains more than 1% over width 4', noGainBeyond4(beyond)),
    predicateCheck('f4.7-width-1', 'Fig. 4.7: CPU link width 1 is markedly worse', 'markedly worse', w1 ? `width 1 at ${(100 * (w1 / w4)).toFixed(1)}% of width 4` : 'n/a', 'holds if width 1 is below 90% of width 4', width1Worse(w1 ? w1 / w4 : null)),
  ];
  const tables: ReportTable[] = [
    { title: 'Fig. 4.7: exchanges per ms (machine-wide) vs C104 input buffer (width 4)', columns: ['buffer tokens', 'whole packets', 'exchanges/ms'], rows: [...byBuffer.entries()].sort((a, b) => a[0] - b[0]).map(([b, r]) => [b, Math.floor(b / PACKET_TOKENS), r]), digits: [0, 0, 0] },
    { title: 'Fig. 4.5: exchanges per ms vs CPU link width (70-token buffers)', columns: ['width', 'exchanges/ms'], rows: w.map(([k, r]) => [k, r]), digits: [0, 0] },
  ];
  return {
    tables,
    checks,
    plots: [{ id: 'buffers', title: 'Fig. 4.7: packet passing vs input buffer size', xLabel: 'C104 input buffer (tokens)', yLabel: 'exchanges per ms', series: [{ name: 'packet passing, width 4', points: [...byBuffer.entries()].sort((a, b) => a[0] - b[0]).map(([b, r]) => [b, r] as const) }] }],
    notes: [exchangeNote(res)],
  };
}

export const c104Buffers = defineExperiment<BufPoint, BufResult, BufParams>({
  name: 'c104-buffers',
  summary: 'seed 004 Figs 4.5, 4.7: packet passing vs input buffer size and CPU link width (T9000/C104 TLM, boundary exchange)',
  source: 'seed 004 §4.2.2–§4.2.3, Figs 4.5, 4.7 (docs/sources.md, c104-t9000 §11)',
  method: 'T9000/C104 packet-passing TLM; 16×16 torus boundary exchange on the 8×8 mesh, 1 µs compute',
  options: [],
  params,
  points,
  runPoint,
  assemble,
});
