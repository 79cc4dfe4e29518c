/**
 * Compute loops: seed 004's CPU fairness check (§4.1.3, Fig. 4.1): k
 * processes on one processor, each looping forever on `compute(period)`
 * and sending nothing (docs/thesis-model.md#time-slicing). The T9000/C104
 * TLM's smallest grid is 2×2, so the loops sit on processor 0 and the other
 * three processors stay idle; per-process figures come from the run's
 * `processWork` (harness/tlm/t9000-c104/run.ts).
 */
import type { IterationPlan, ProcessProgram } from './process-program.ts';

export class ComputeLoops implements ProcessProgram {
  readonly name = 'compute-loops';
  readonly mode = 'async' as const;
  readonly side = 2;
  readonly processes: number;
  readonly params: Readonly<Record<string, unknown>>;
  /** Loop i computes `periodsNs[i]` per iteration; with `perNode`, every processor runs the same loops. */
  constructor(
    private readonly periodsNs: readonly number[],
    private readonly perNode = false,
  ) {
    if (periodsNs.length < 1 || periodsNs.some((x) => !Number.isInteger(x) || x < 1)) throw new RangeError(`compute-loops: periods must be whole ns ≥ 1 (got ${periodsNs.join(', ')})`);
    this.processes = (perNode ? 4 : 1) * periodsNs.length;
    this.params = { periodsNs: [...periodsNs], perNode };
  }
  nodeOf(p: number): number {
    return this.perNode ? Math.floor(p / this.periodsNs.length) : 0;
  }
  plan(p: number): IterationPlan {
    return { computeNs: this.periodsNs[p % this.periodsNs.length]!, sends: [] };
  }
  startNs(): number {
    return 0;
  }
  incoming(): number {
    return 0;
  }
}
