/**
 * c104-fig4.12: seed 004 Fig. 4.12 (§4.2.4, spec §11): "the 16-processor
 * experiment" repeated — the boundary exchange on the 4×4 mesh (8×8
 * process torus, 32 B, x-first, width 4, 1 µs compute) with packet passing,
 * token passing with the buffer balanced between input and output, and
 * token passing with it all on the input (the output keeps 2 tokens, as
 * Table 4.3's 198/2), each at the default 70 bytes per link and double
 * (140). Token passing: the TLM's token-credit mode (RTL-calibrated).
 * Statement: the token/packet difference vanishes when the output buffer is
 * removed from the token model.
 */
import { predicateCheck } from './c104-verdicts.ts';
import { exchangeRate, THESIS_T9000, type ExchangeRate } from './c104-table43.ts';
import { TOKEN_CREDIT_PRESET } from '../tlm/t9000-c104/index.ts';
import { defineExperiment, type SeedCheck } from './types.ts';

export type Fig412Model = 'packet' | 'token-balanced' | 'token-input';
export interface Fig412Point {
  readonly model: Fig412Model;
  readonly total: 70 | 140;
}

/** "Vanishes": all-input token passing within 2% of packet passing, and closer to it than the balanced split. */
export const VANISH = 0.02;

function config(p: Fig412Point) {
  if (p.model === 'packet') return { linkModel: 'packet' as const, inputBufferTokens: p.total };
  const input = p.model === 'token-balanced' ? p.total / 2 : p.total - 2;
  return { ...TOKEN_CREDIT_PRESET, ...THESIS_T9000, inputBufferTokens: input, outputBufferTokens: p.total - input };
}

export function fig412Checks(rate: (model: Fig412Model, total: 70 | 140) => number | undefined): SeedCheck[] {
  return ([70, 140] as const).map((total) => {
    const pk = rate('packet', total);
    const bal = rate('token-balanced', total);
    const inp = rate('token-input', total);
    const ok = pk !== undefined && bal !== undefined && inp !== undefined;
    const dIn = ok ? inp / pk - 1 : NaN;
    const dBal = ok ? bal / pk - 1 : NaN;
    return predicateCheck(
      `f4.12-vanish-${total}`,
      `Fig. 4.12, ${total} bytes per link: the token/packet difference vanishes when the output buffer is removed from the token model`,
      `token all-input ≈ packet (within ${100 * VANISH}%), closer than token balanced`,
      ok ? `token all-input ${(100 * dIn).toFixed(2)}%, token balanced ${(100 * dBal).toFixed(2)}% vs packet` : 'n/a',
      `holds if |all-input − packet| ≤ ${100 * VANISH}% and < |balanced − packet|`,
      ok ? Math.abs(dIn) <= VANISH + 1e-12 && Math.abs(dIn) < Math.abs(dBal) : null,
    );
  });
}

export const c104Fig412 = defineExperiment<Fig412Point, ExchangeRate, { quick: boolean }>({
  name: 'c104-fig4.12',
  summary: 'seed 004 Fig. 4.12: 16-processor boundary exchange, packet vs token passing (balanced / all-input buffers) at 70 and 140 bytes',
  source: 'seed 004 §4.2.4, Fig. 4.12 (docs/sources.md, c104-t9000 §11)',
  method: 'T9000/C104 TLM: packet passing and token-credit mode (input/output split); 8×8 torus boundary exchange on the 4×4 mesh, 32 B, x-first, width 4, 1 µs compute, ±1% rule',
  options: [],
  params: (cli) => ({ quick: cli.quick }),
  points: () => (['packet', 'token-balanced', 'token-input'] as const).flatMap((model) => ([70, 140] as const).map((total) => ({ model, total }))),
  runPoint: (p) => exchangeRate(4, 4, config(p)),
  assemble(_q, pts, res) {
    const rate = (model: Fig412Model, total: 70 | 140) => res[pts.findIndex((p) => p.model === model && p.total === total)]?.exchangesPerMs;
    return {
      tables: [
        {
          title: 'Fig. 4.12: exchanges per ms (machine-wide), 4×4 mesh',
          columns: ['bytes per link', 'packet (all input)', 'token balanced', 'token all-input', 'balanced vs packet', 'all-input vs packet'],
          rows: ([70, 140] as const).map((t) => [t, rate('packet', t) ?? null, rate('token-balanced', t) ?? null, rate('token-input', t) ?? null, rate('token-balanced', t)! / rate('packet', t)!, rate('token-input', t)! / rate('packet', t)!]),
          digits: [0, 0, 0, 0, 3, 3],
        },
      ],
      checks: fig412Checks(rate),
      plots: [],
      notes: [`Token balanced: input = output = half; token all-input: output 2 tokens. ${res.filter((r) => !r.converged).length} of ${res.length} runs did not converge to ±1%.`],
    };
  },
});
