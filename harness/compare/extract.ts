/**
 * One side of a comparison: an event trace in the shared vocabulary
 * (traces/events/vocabulary.ts) digested per message and per packet.
 *
 * What is taken from the events (times in the trace's own unit):
 *  queued     the message-queued stamp
 *  first      the first-packet-delivered stamp
 *  last       the message-complete stamp
 *  per packet k:
 *   injected  the packet-injected stamp (the source slot's first bit on the link)
 *   heads     every head-arrives stamp of the packet, in time order: the PBUs
 *             along its path, then the destination's node input port ('nip')
 *   nip       the head-arrives stamp at the node input port
 * The generation time of a message (the §10.3 reference "queued at the
 * source") is not an event: the caller gives it per message in the side's
 * unit (the workload time mapped the way that side was driven); without it
 * the message-queued stamp is used.
 *
 * A repeated message-level event (two message-complete for one message) is a
 * bookkeeping error: it is listed in `problems` and the first stamp is kept.
 */
import type { TimeUnit, TraceEvent } from '../../traces/events/vocabulary.ts';

export interface PacketTimes {
  injected?: number;
  /** head-arrives stamps in time order (PBUs along the path, then the nip). */
  readonly heads: number[];
  nip?: number;
}

export interface MessageTimes {
  readonly id: number;
  /** Generation time (side unit), or undefined if neither given nor queued. */
  gen?: number;
  queued?: number;
  first?: number;
  last?: number;
  /** Packets by index. */
  readonly packets: Map<number, PacketTimes>;
}

/** Input of a comparison side. */
export interface SideTrace {
  /** Short name shown in tables, e.g. 'rtl', 'tlm', 'closed form'. */
  readonly label: string;
  /** Unit of every time of this side (events, generation, zero load, link busy). */
  readonly unit: TimeUnit;
  readonly events: readonly TraceEvent[];
  /** Generation time per message id (side unit). Default: the message-queued stamp. */
  readonly generation?: ReadonlyMap<number, number>;
  /**
   * This side's own zero-load prediction per message id (side unit, from
   * generation): enables the derived metrics first-wait / last-wait (time beyond
   * the side's zero-load value, i.e. the contention the side modelled).
   */
  readonly zeroLoad?: ReadonlyMap<number, { readonly first: number; readonly last: number }>;
  /** Total busy time of all directed links (side unit), for measured link utilisation. */
  readonly linkBusy?: number;
  /** Free-form facts about the run (config, cycles, wall time), copied into the JSON report. */
  readonly info?: Readonly<Record<string, unknown>>;
}

export interface DigestedSide {
  readonly trace: SideTrace;
  readonly messages: Map<number, MessageTimes>;
  readonly problems: string[];
}

function rec(map: Map<number, MessageTimes>, id: number): MessageTimes {
  let m = map.get(id);
  if (!m) {
    m = { id, packets: new Map() };
    map.set(id, m);
  }
  return m;
}

function pkt(m: MessageTimes, k: number): PacketTimes {
  let p = m.packets.get(k);
  if (!p) {
    p = { heads: [] };
    m.packets.set(k, p);
  }
  return p;
}

/** Digest a side's events per message and packet. */
export function digest(side: SideTrace): DigestedSide {
  const messages = new Map<number, MessageTimes>();
  const problems: string[] = [];
  const once = (m: MessageTimes, field: 'queued' | 'first' | 'last', e: TraceEvent): void => {
    if (m[field] !== undefined) {
      if (problems.length < 100) problems.push(`${side.label}: message ${m.id}: a second ${e.kind} at t = ${e.t} (first at ${m[field]})`);
      return;
    }
    m[field] = e.t;
  };
  // Stable sort by time, so head sequences are in path order whatever the emitter's order.
  const evs = side.events.map((e, i) => [e, i] as const).sort((x, y) => x[0].t - y[0].t || x[1] - y[1]);
  for (const [e] of evs) {
    const m = rec(messages, e.msg);
    switch (e.kind) {
      case 'message-queued':
        once(m, 'queued', e);
        break;
      case 'first-packet-delivered':
        once(m, 'first', e);
        break;
      case 'message-complete':
        once(m, 'last', e);
        break;
      case 'packet-injected': {
        const p = pkt(m, e.packet ?? 0);
        if (p.injected !== undefined) {
          if (problems.length < 100) problems.push(`${side.label}: message ${m.id} packet ${e.packet ?? 0}: a second packet-injected at t = ${e.t}`);
        } else p.injected = e.t;
        break;
      }
      case 'head-arrives': {
        const p = pkt(m, e.packet ?? 0);
        p.heads.push(e.t);
        if (e.unit === 'nip') {
          if (p.nip !== undefined && problems.length < 100) problems.push(`${side.label}: message ${m.id} packet ${e.packet ?? 0}: a second head-arrives at the node input port at t = ${e.t}`);
          else p.nip = e.t;
        }
        break;
      }
      default:
        break; // grant, packet-forwarded: not used by the metrics
    }
  }
  if (side.generation) {
    for (const [id, t] of side.generation) rec(messages, id).gen = t;
  } else {
    for (const m of messages.values()) m.gen = m.queued;
  }
  return { trace: side, messages, problems };
}
