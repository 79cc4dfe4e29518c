/**
 * c104-buffer-split: seed 004 Fig. 4.8 (§4.2.3; docs/thesis-model.md
 * #buffer-split) and the token-passing statement of Fig. 4.7: the 16×16
 * torus boundary exchange on the 8×8 mesh (32 B, x-first, CPU link width 4,
 * 1 µs compute) with 200 bytes of C104 buffer per link moved between the
 * input and the output, in the TLM's token-credit mode (RTL-calibrated,
 * the only one of icemu's models with an output buffer), beside packet
 * passing with all 200 on the input.
 * Statements: drop-off at both extremes; best when input and output each
 * hold at least one packet (34 tokens); all on the input (198/2)
 * approaches packet passing (Table 4.3); packet passing noticeably worse
 * than token passing with the buffer split equally.
 */
import { predicateCheck, rangeCheck } from './c104-verdicts.ts';
import { exchangeRate, PACKET_43, THESIS_T9000, type ExchangeRate } from './c104-table43.ts';
import { TOKEN_CREDIT_PRESET } from '../tlm/t9000-c104/index.ts';
import { defineExperiment, type ExperimentCliValues, type SeedCheck } from './types.ts';

const TOTAL = 200;
const PACKET_TOKENS = 34;

export interface SplitPoint {
  /** Input buffer tokens (output = 200 − input); 0 marks the packet-passing reference (200 on the input). */
  readonly input: number;
}
export interface SplitParams {
  readonly quick: boolean;
  readonly inputs: readonly number[];
}

/** Bounds of the verdicts: a drop-off is more than 1% below the best; "approaches" is within 2%; "noticeably worse" more than 2%. */
export const DROP = 0.01;
export const APPROACH = 0.02;
export const NOTICEABLE = 0.02;

export function splitChecks(byInput: ReadonlyMap<number, ExchangeRate>, packet: ExchangeRate | undefined): SeedCheck[] {
  const xs = [...byInput.keys()].sort((a, b) => a - b);
  const rate = (i: number) => byInput.get(i)!.exchangesPerMs;
  const best = Math.max(...xs.map(rate));
  const lo = xs[0]!;
  const hi = xs[xs.length - 1]!;
  const bestAt = xs.find((i) => rate(i) === best)!;
  const bal = byInput.get(TOTAL / 2);
  const cond = { converged: [...byInput.values()].every((r) => r.converged) && (packet?.converged ?? true), dropped: 0 };
  const checks: SeedCheck[] = [
    predicateCheck('f4.8-extremes', 'Fig. 4.8: throughput drops off at both extremes of the input/output split', `both ends > ${100 * DROP}% below the best`, `input ${lo}: ${(100 * (rate(lo) / best - 1)).toFixed(2)}%, input ${hi}: ${(100 * (rate(hi) / best - 1)).toFixed(2)}% (best at input ${bestAt})`, `holds if both extremes are more than ${100 * DROP}% below the best split`, rate(lo) < best * (1 - DROP) && rate(hi) < best * (1 - DROP)),
    predicateCheck('f4.8-best', 'Fig. 4.8: best when input and output each hold at least one packet', `best split has input ≥ ${PACKET_TOKENS} and output ≥ ${PACKET_TOKENS}`, `best at input ${bestAt} / output ${TOTAL - bestAt}`, `holds if the best split has at least ${PACKET_TOKENS} tokens on each side`, bestAt >= PACKET_TOKENS && TOTAL - bestAt >= PACKET_TOKENS),
  ];
  if (packet && byInput.has(198)) checks.push(rangeCheck('f4.8-198-packet', 'Fig. 4.8 / Table 4.3: with all buffering on the input (198/2) token passing approaches packet passing (200)', -100 * APPROACH, 100 * APPROACH, 100 * (rate(198) / packet.exchangesPerMs - 1), '%', cond, 2));
  if (packet && bal) checks.push(predicateCheck('f4.7-balanced', 'Fig. 4.7: packet passing is noticeably worse than token passing with the buffer split equally', `packet > ${100 * NOTICEABLE}% below token 100/100`, `packet ${(100 * (packet.exchangesPerMs / bal.exchangesPerMs - 1)).toFixed(2)}% vs token 100/100`, `holds if packet passing is more than ${100 * NOTICEABLE}% below`, packet.exchangesPerMs < bal.exchangesPerMs * (1 - NOTICEABLE)));
  return checks;
}

export const c104BufferSplit = defineExperiment<SplitPoint, ExchangeRate, SplitParams>({
  name: 'c104-buffer-split',
  summary: 'seed 004 Fig. 4.8: 200 tokens of C104 buffer moved between input and output (token-credit TLM, 8×8 boundary exchange)',
  source: 'seed 004 §4.2.3, Figs 4.7, 4.8 (docs/sources.md, c104-t9000 §11)',
  method: 'T9000/C104 TLM in token-credit mode (input + output = 200 tokens) and packet passing (200 on the input); 16×16 torus boundary exchange on the 8×8 mesh, 32 B, x-first, width 4, 1 µs compute, ±1% rule',
  options: [],
  params: (cli: ExperimentCliValues) => ({ quick: cli.quick, inputs: cli.quick ? [8, 100, 198] : [8, 17, 34, 50, 67, 100, 134, 166, 183, 192, 198] }),
  points: (q) => [...q.inputs.map((input) => ({ input })), { input: 0 }],
  runPoint: (p) => exchangeRate(8, 4, p.input === 0 ? PACKET_43 : { ...TOKEN_CREDIT_PRESET, ...THESIS_T9000, inputBufferTokens: p.input, outputBufferTokens: TOTAL - p.input }),
  assemble(q, pts, res) {
    const byInput = new Map<number, ExchangeRate>();
    pts.forEach((p, k) => {
      if (p.input > 0) byInput.set(p.input, res[k]!);
    });
    const packet = res[pts.findIndex((p) => p.input === 0)];
    const rows = [...byInput.entries()].sort((a, b) => a[0] - b[0]);
    return {
      tables: [{ title: 'Fig. 4.8: exchanges per ms (machine-wide) vs C104 input / output buffer (200 tokens in all), width 4', columns: ['input', 'output', 'exchanges/ms', 'vs packet 200'], rows: [...rows.map(([i, r]) => [i, TOTAL - i, r.exchangesPerMs, packet ? r.exchangesPerMs / packet.exchangesPerMs : null]), ['packet 200', 0, packet?.exchangesPerMs ?? null, 1]], digits: [0, 0, 0, 3] }],
      checks: splitChecks(byInput, packet),
      plots: [{ id: 'fig4.8', title: 'Fig. 4.8: token passing, buffer moved between input and output', xLabel: 'C104 input buffer (tokens; output = 200 − input)', yLabel: 'exchanges per ms', series: [{ name: 'token-credit TLM', points: rows.map(([i, r]) => [i, r.exchangesPerMs] as const) }, ...(packet ? [{ name: 'packet passing (200 on input)', points: [[8, packet.exchangesPerMs], [198, packet.exchangesPerMs]] as const }] : [])] }],
      notes: [`Input at least 8 tokens (one FCT), output at least 2 (the seed's 198/2). ${res.filter((r) => !r.converged).length} of ${res.length} runs did not converge to ±1%.`],
    };
  },
});
