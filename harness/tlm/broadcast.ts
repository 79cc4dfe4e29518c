/**
 * Broadcast in the TLM (seed 002 §4.1, §5.1; spec buzzard.md A11):
 *
 * - Hardware broadcast (workload message kind 'broadcast', src == dst): the
 *   source sends the message on all n slots at once (a binomial spanning
 *   tree); a PBU i that receives a broadcast packet hands a copy to its own
 *   node input port (O_0) first, then to O_{i+1} … O_n, one copy at a time,
 *   holding the buffer until the last copy has left. Packet transports only
 *   (buzzard-tlm.ts: legs, deliverBroadcast); per-destination times are in
 *   TlmResult.broadcasts.
 * - Near-neighbour broadcast (Fig. 4.3): "ordinary unicast packets, one per
 *   listed neighbour, sharing one memory fetch" (A11) — in the TLM, unicast
 *   messages to the listed neighbours queued at the same time
 *   (`nearNeighbourBroadcast`); the shared fetch is a control-unit saving the
 *   TLM does not model.
 */
import type { DraftMessage } from '../workloads/types.ts';

/** The unicasts of a near-neighbour broadcast from `src` to its neighbours across `dims` (1..n, distinct). */
export function nearNeighbourBroadcast(p: { readonly t: number; readonly src: number; readonly dims: readonly number[]; readonly bytes: number; readonly n: number }): DraftMessage[] {
  const seen = new Set<number>();
  for (const d of p.dims) {
    if (!Number.isInteger(d) || d < 1 || d > p.n) throw new RangeError(`nearNeighbourBroadcast.dims: ${d} is outside 1..${p.n}`);
    if (seen.has(d)) throw new RangeError(`nearNeighbourBroadcast.dims: ${d} is listed twice`);
    seen.add(d);
  }
  return p.dims.map((d) => ({ t: p.t, src: p.src, dst: p.src ^ (1 << (d - 1)), bytes: p.bytes, kind: 'unicast' as const }));
}
