/**
 * Chapter 4 runs shared by c104-policies and c104-buffers: the boundary
 * exchange (harness/workloads/boundary-exchange.ts) on a side×side mesh with
 * an N = 2·side torus, 32-byte messages and a 1 µs compute period (not
 * given by the seed; docs/thesis-model.md#chapter-4-runs), run to the ±1%
 * stopping rule; meshes above 256 nodes use 2-byte headers.
 */
import { runC104, type C104Config } from '../tlm/t9000-c104/index.ts';
import { BoundaryExchangeProgram } from '../workloads/boundary-exchange.ts';

export const PERIOD_NS = 1000;

export interface ExchangeResult {
  /** Application exchanges per ms, machine-wide (§4.2.1). */
  readonly exchangesPerMs: number;
  readonly converged: boolean;
}

export function runExchange(side: number, config: Partial<C104Config>): ExchangeResult {
  const r = runC104(new BoundaryExchangeProgram({ N: 2 * side, bytes: 32, periodNs: PERIOD_NS }), { side, headerBytes: side > 16 ? 2 : 1, ...config });
  return { exchangesPerMs: r.summary.iterationsPerCpuPerMs * side * side, converged: r.summary.converged };
}

export function exchangeNote(res: readonly ExchangeResult[]): string {
  return `Compute period ${PERIOD_NS} ns (not given by the seed). ${res.filter((r) => !r.converged).length} of ${res.length} runs did not converge to ±1%.`;
}
