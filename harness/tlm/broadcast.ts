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
 *   TLM does not model. Passed to runTlm as `nnBroadcasts` groups (message
 *   ids of one instruction), the unicasts start late by the instruction's own
 *   cost (config.nnBroadcastTicks …, RTL-calibrated; `nnBroadcastDelays`).
 */
import type { DraftMessage, Workload } from '../workloads/types.ts';
import type { TlmConfig } from './config.ts';

/** One near-neighbour broadcast instruction: the ids of its unicasts in the workload. */
export type NnBroadcastGroup = readonly number[];

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

/**
 * Per message, the extra ticks before it joins its send queue because it is part of a
 * near-neighbour broadcast instruction (config.nnBroadcastTicks, nnBroadcastPerDestTicks,
 * nnBroadcastSlotStaggerTicks; k is the rank in slot order, the order in which the RTL's
 * control unit loads the started slots). Null when no group adds anything.
 * Throws a RangeError naming the group when it is not one instruction's unicasts.
 */
export function nnBroadcastDelays(w: Workload, groups: readonly NnBroadcastGroup[], cfg: TlmConfig): Float64Array | null {
  const where = (g: number): string => `tlm: nnBroadcasts[${g}]`;
  const seen = new Set<number>();
  const extra = new Float64Array(w.messages.length);
  let any = false;
  groups.forEach((ids, g) => {
    if (ids.length < 1 || ids.length > w.cubeDegree) throw new RangeError(`${where(g)}: ${ids.length} messages is outside 1..${w.cubeDegree}`);
    const m0 = w.messages[ids[0]!];
    const dims: number[] = [];
    for (const id of ids) {
      const m = Number.isInteger(id) ? w.messages[id] : undefined;
      if (!m) throw new RangeError(`${where(g)}: message ${id} is not in the workload`);
      if (seen.has(id)) throw new RangeError(`${where(g)}: message ${id} is in two groups`);
      seen.add(id);
      const x = m.src ^ m.dst;
      if (m.kind !== 'unicast' || x === 0 || (x & (x - 1)) !== 0) throw new RangeError(`${where(g)}: message ${id} is not a unicast to a neighbour`);
      if (m.src !== m0!.src || m.t !== m0!.t || m.bytes !== m0!.bytes) throw new RangeError(`${where(g)}: message ${id} differs from message ${ids[0]} in source, time or length`);
      if (dims.includes(x)) throw new RangeError(`${where(g)}: message ${id} repeats a neighbour`);
      dims.push(x);
    }
    const c = ids.length;
    for (const id of ids) {
      const k = dims.filter((x) => x < (w.messages[id]!.src ^ w.messages[id]!.dst)).length;
      extra[id] = cfg.nnBroadcastTicks + (c - 1) * cfg.nnBroadcastPerDestTicks + k * cfg.nnBroadcastSlotStaggerTicks;
      if (extra[id]! > 0) any = true;
    }
  });
  return any ? extra : null;
}
