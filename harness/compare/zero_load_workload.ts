/**
 * The zero-load workload of the 'zero-load' preset: one message at a time,
 * each length at every distance 1..n, sources and destinations drawn from
 * the seeded generator, every message generated after the previous one has
 * been delivered (with a margin), so no two messages ever meet.
 *
 * The first message is generated at `startTicks` (default 400 ticks = 1800
 * cycles), after the RTL has posted every receive (harness/rtl/run_workload.ts
 * posts them at cycle 0; a send issued while its control unit is still
 * posting receives waits for it, which is load, not zero-load behaviour).
 */
import { checkSeed, Rng } from '../workloads/rng.ts';
import { finalizeMessages, type DraftMessage, type Workload } from '../workloads/types.ts';
import { rtlZeroLoad } from './analytic.ts';

export interface ZeroLoadWorkloadParams {
  readonly cubeDegree: number;
  /** Message lengths, bytes (each sent once at every distance 1..n). */
  readonly lengths: readonly number[];
  readonly seed: number;
  readonly cyclesPerTick: number;
  /** Generation time of the first message, ticks. */
  readonly startTicks?: number;
  /** Idle margin after a message's closed-form completion before the next one, cycles. */
  readonly marginCycles?: number;
}

export function zeroLoadWorkload(p: ZeroLoadWorkloadParams): Workload {
  const n = p.cubeDegree;
  if (!Number.isInteger(n) || n < 1 || n > 10) throw new RangeError(`zeroLoadWorkload.cubeDegree: ${n} is outside 1..10`);
  p.lengths.forEach((len, i) => {
    if (!Number.isInteger(len) || len < 1 || len > 65536) throw new RangeError(`zeroLoadWorkload.lengths[${i}]: ${len} is outside 1..65536 (bytes)`);
  });
  const rng = new Rng(checkSeed(p.seed, 'zeroLoadWorkload.seed'));
  const rngStart = rng.save();
  const N = 2 ** n;
  const margin = p.marginCycles ?? 300;
  let t = p.startTicks ?? 400;
  const drafts: DraftMessage[] = [];
  for (const bytes of p.lengths) {
    for (let d = 1; d <= n; d++) {
      const src = rng.nextInt(N);
      let dst = src;
      for (const b of rng.sample(n, d)) dst ^= 1 << b;
      drafts.push({ t, src, dst, bytes, kind: 'unicast' });
      const z = rtlZeroLoad({ bytes, hops: d });
      t += Math.ceil((z.last + margin) / p.cyclesPerTick);
    }
  }
  return {
    name: 'zero-load',
    seed: p.seed,
    rngStart,
    params: { cubeDegree: n, lengths: [...p.lengths], distances: `1..${n}`, startTicks: p.startTicks ?? 400, marginCycles: margin, spacing: 'one message at a time' },
    unit: 'ticks',
    cubeDegree: n,
    messages: finalizeMessages(drafts),
  };
}
