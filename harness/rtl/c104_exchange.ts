/**
 * Seed 004 Chapter 4's toroidal boundary exchange (spec §8.1,
 * harness/workloads/boundary-exchange.ts) on the RTL C104 mesh with T9000
 * endpoints and real DS-links: the BoundaryExchangeProgram the TLM runs,
 * played by the closed-loop process driver (c104_processes.ts, mode
 * 'exchange', whose file header gives the exchange's rules;
 * docs/c104.md#thesis-processes).
 *
 * Processes P(i, j) of an N×N torus, four per processor (⌊i/2⌋, ⌊j/2⌋) of the
 * (N/2)×(N/2) mesh; a channel inside one processor is a memory copy, every
 * other one a virtual link pair of its own. The T9000s use node addressing
 * (docs/t9000.md#addressing), so a node needs a control block per channel
 * end (8), not a label each, and the seed's 8×8 mesh (N = 16) builds.
 * Control blocks are the workload's channel end numbers
 * (BoundaryExchangeProgram.channelEnds), block v on link v mod links, as the
 * TLM's 'per-channel' link choice.
 *
 * Measured: application exchanges (process iterations) per ms, machine-wide,
 * over a window after a warm-up: each process's rate from its first to its
 * last iteration end in the window, summed.
 */
import { NS_PER_CYCLE } from './c104_thesis_workload.ts';
import { PROCESS_START, runRtlProcesses } from './c104_processes.ts';
import { BoundaryExchangeProgram } from '../workloads/boundary-exchange.ts';

export interface RtlExchangeOptions {
  /** Torus side N (even); the mesh is (N/2)×(N/2). */
  readonly N: number;
  readonly bytes: number;
  readonly periodNs: number;
  readonly cpuLinks: number;
  /** C104 input / output buffer tokens (Table 4.3's token-passing model: 198 / 2). */
  readonly inputBufferTokens: number;
  readonly outputBufferTokens: number;
  readonly warmupCycles: number;
  readonly windowCycles: number;
}

export interface RtlExchangeResult {
  readonly exchangesPerMs: number;
  readonly iterations: number;
  readonly wallSeconds: number;
  readonly cycles: number;
}

export function runRtlExchange(o: RtlExchangeOptions): RtlExchangeResult {
  const t0 = performance.now();
  const N = o.N;
  if (!(Number.isInteger(N) && N >= 4 && N % 2 === 0)) throw new RangeError(`rtl exchange: N ${N} must be an even whole number ≥ 4`);
  const prog = new BoundaryExchangeProgram({ N, bytes: o.bytes, periodNs: o.periodNs });
  const r = runRtlProcesses(prog, {
    warmupCycles: o.warmupCycles,
    windowCycles: o.windowCycles,
    cpuLinks: o.cpuLinks,
    c104: { inputBufferTokens: o.inputBufferTokens, outputBufferTokens: o.outputBufferTokens },
  });
  const end0 = PROCESS_START + o.warmupCycles;
  const end1 = end0 + o.windowCycles;
  // An iteration ends where the next begins. Each process's rate from its first to its last iteration end in
  // the window (no quantisation at the window's edges, where up to one iteration per process would be cut), summed.
  let perMs = 0;
  let counted = 0;
  for (const b of r.began) {
    let first = -1;
    let firstK = 0;
    let last = -1;
    let lastK = 0;
    for (let k = 1; k < b.length; k++) {
      const t = b[k]!;
      if (t < end0 || t >= end1) continue;
      counted++;
      if (first < 0) [first, firstK] = [t, k];
      [last, lastK] = [t, k];
    }
    if (last > first) perMs += ((lastK - firstK) * 1e6) / ((last - first) * NS_PER_CYCLE);
  }
  return { exchangesPerMs: perMs, iterations: counted, wallSeconds: (performance.now() - t0) / 1000, cycles: r.cycles };
}
