/**
 * Shared pieces of the Table 4.3 experiments (c104-boundary-exchange,
 * c104-token-vs-packet): seed 004 §4.2.3's setup — the 16×16 process torus
 * boundary exchange on the 8×8 mesh (spec §8.1), 32-byte messages, greedy
 * x-first routing; the token-passing model with 198 + 2 bytes of C104
 * buffer (input + output), the packet-passing model with 200 on the input.
 * The compute period is not given; icemu uses 1 µs, as the other Chapter 4
 * runs (docs/thesis-model.md#chapter-4-runs), so absolute rates are not
 * comparable with the seed's and the verdicts use ratios and residuals.
 */
import { runC104, TOKEN_CREDIT_PRESET, type C104Config } from '../tlm/t9000-c104/index.ts';
import { BoundaryExchangeProgram } from '../workloads/boundary-exchange.ts';
import { PERIOD_NS } from './c104-exchange.ts';

/** Table 4.3 as printed (spec T-4.3): width → [token, packet, adjusted token, residual %]. */
export const TABLE_4_3: Readonly<Record<number, readonly [number, number, number, number]>> = {
  1: [1753, 1804, 1840, 2.0],
  2: [2569, 2625, 2697, 2.74],
  3: [2770, 2814, 2908, 3.34],
  4: [2780, 2835, 2919, 2.96],
};
/** §4.2.3: the token model's FCT overhead correction. */
export const FCT_ADJUSTMENT = 1.05;

/**
 * The thesis's T9000 layer (docs/thesis-model.md#t9000-links, #virtual-links): a message on any
 * idle link, a virtual link per message, as the packet model has it. The seed's token- and
 * packet-passing models share their T9000 layer and differ at the link level only, so the
 * token side of a token-vs-packet comparison takes this layer instead of the RTL's.
 */
export const THESIS_T9000: Partial<C104Config> = { t9000Links: 'hunt-group', virtualLinks: 'per-message' };
/** The token-passing buffers of Table 4.3 (198 input + 2 output bytes) in the token-credit TLM, with the RTL's T9000 layer (the RTL's stand-in). */
export const TOKEN_43_RTL: Partial<C104Config> = { ...TOKEN_CREDIT_PRESET, inputBufferTokens: 198, outputBufferTokens: 2 };
/** The same with the thesis's T9000 layer, for the comparison with packet passing. */
export const TOKEN_43: Partial<C104Config> = { ...TOKEN_43_RTL, ...THESIS_T9000 };
/** The packet-passing buffer of Table 4.3 (200 bytes, all on the input). */
export const PACKET_43: Partial<C104Config> = { linkModel: 'packet', inputBufferTokens: 200 };

export interface ExchangeRate {
  readonly exchangesPerMs: number;
  readonly converged: boolean;
}

/** Machine-wide application exchanges per ms of the boundary exchange on a side×side mesh (N = 2·side), run to the ±1% rule. */
export function exchangeRate(side: number, width: number, model: Partial<C104Config>): ExchangeRate {
  const prog = new BoundaryExchangeProgram({ N: 2 * side, bytes: 32, periodNs: PERIOD_NS });
  const r = runC104(prog, { side, cpuLinkWidth: width, ...model });
  return { exchangesPerMs: r.summary.iterationsPerCpuPerMs * side * side, converged: r.summary.converged };
}

/** (adjusted token − packet) / packet, %, the seed's residual. */
export function residualPct(token: number, packet: number): number {
  return (100 * (token * FCT_ADJUSTMENT - packet)) / packet;
}
