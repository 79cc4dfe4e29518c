/**
 * The replay model of a C104 network trace (`icemu c104 --events`): the same
 * ViewModel as the cube (model.ts), so the page's timeline, message following
 * and heat map work unchanged.
 *
 * Link ids: output link j of switch s is s·32 + j; link m (the m-th link of
 * its hunt group) of endpoint e, towards its switch, is S·32 + e·4 + m.
 *
 * Packets are the switch-level packets of harness/rtl/c104_events.ts (data
 * packets and acknowledgements alike: the hardware carries no message ids;
 * the trace names them `(packet P)` in `unit`, msg 0). Packet P:
 *  - enters the network on the endpoint link whose head arrives at its first
 *    switch (hop at that head-arrives cycle);
 *  - takes a hop onto output link j of switch s at each packet-forwarded;
 *  - ends when the endpoint at the far end of its last link sees a packet
 *    head on that link (the T9000 recorder's head-arrives `rx` for data, `ack`
 *    for an acknowledgement), matched in link order; never seen: still in
 *    flight at the end of the trace.
 * A link is busy while a packet's head has crossed it and not yet left the
 * switch (or endpoint) at its end (the spans of all its packets, merged).
 * The followed "message" is a switch-level packet: its rows are the switches
 * it crossed. The latency histogram is of the T9000 messages (queued → complete).
 */
import type { TraceEvent, TraceHeader } from '../../traces/events/vocabulary.ts';
import { onOffIntervals, packPackets, spanIntervals, type C104Topo, type HopRow, type MessageInfo, type PacketTrack, type ViewModel } from './model.ts';

export const SWITCH_PORTS = 32;
export const ENDPOINT_PORTS = 4;

/** The switch, input and packet number a switch packet event's unit names (and `data`/`ack` when linked to its T9000 packet), or null. */
export function switchUnit(unit: string | undefined): { input: number; packet: number; name: string; kind?: 'data' | 'ack' } | null {
  const m = unit === undefined ? null : /^(.*)\.in(\d+) \(packet (\d+)(?:: (data|ack))?\)$/.exec(unit);
  if (!m) return null;
  const r = { name: `${m[1]}.in${m[2]}`, input: Number(m[2]), packet: Number(m[3]) };
  return m[4] ? { ...r, kind: m[4] as 'data' | 'ack' } : r;
}

/** A switch unit of any C104 event: `name.inK` (an input: packets, its buffer) or `name.linkJ` (an output link: held), with an optional packet suffix; null for an endpoint's unit. */
export function switchPart(unit: string | undefined): { name: string; io: 'in' | 'link'; index: number } | null {
  const m = unit === undefined ? null : /^(.*)\.(in|link)(\d+)(?: \(packet \d+(?:: (?:data|ack))?\))?$/.exec(unit);
  return m ? { name: m[1]!, io: m[2] as 'in' | 'link', index: Number(m[3]) } : null;
}

/** A deadlock ring member `name.linkJ`: [switch index, link], or null. */
export function ringLink(t: C104Topo, u: string): [number, number] | null {
  const m = /^(.*)\.link(\d+)$/.exec(u);
  const s = m ? t.switches.indexOf(m[1]!) : -1;
  return m && s >= 0 && Number(m[2]) < SWITCH_PORTS ? [s, Number(m[2])] : null;
}

export const switchLink = (s: number, j: number): number => s * SWITCH_PORTS + j;
export const endpointLink = (t: C104Topo, e: number, m: number): number => t.switches.length * SWITCH_PORTS + e * ENDPOINT_PORTS + m;

export type Peer = { sw: number; link: number } | { ep: number; m: number };

/** What each switch link is wired to (peer[s][j]). */
export function peers(t: C104Topo): (Peer | undefined)[][] {
  const p: (Peer | undefined)[][] = t.switches.map(() => new Array<Peer | undefined>(SWITCH_PORTS));
  for (const [a, la, b, lb] of t.cables) {
    p[a]![la] = { sw: b, link: lb };
    p[b]![lb] = { sw: a, link: la };
  }
  t.endpoints.forEach((e, k) => e.links.forEach((j, m) => (p[e.sw]![j] = { ep: k, m })));
  return p;
}

/** The model of a checked C104 trace (topology valid, events sorted, nodes and ports in range). */
export function buildC104Model(header: TraceHeader, events: readonly TraceEvent[], topo: C104Topo, title: string): ViewModel {
  const S = topo.switches.length;
  const E = topo.endpoints.length;
  const L = S * SWITCH_PORTS + E * ENDPOINT_PORTS;
  const tEnd = events.length ? events[events.length - 1]!.t : 0;
  const peer = peers(topo);
  const times: number[] = [];
  const pk = new Map<number, PacketTrack & { info: MessageInfo }>();
  /** Switch-level packets on each switch → endpoint link, oldest first. */
  const toEndpoint = new Map<number, number[]>();
  const queued = new Map<number, number>();
  const latency: number[] = [];
  /** T9000 messages (message-level events) and the switch-level packets linked to each. */
  const tmsgs = new Map<number, MessageInfo>();
  const tmsg = (id: number): MessageInfo => {
    let q = tmsgs.get(id);
    if (!q) tmsgs.set(id, (q = { id, src: -1, dest: -1, queued: -1, first: -1, complete: -1, packets: 0, rows: [] }));
    return q;
  };
  const linked = new Map<number, { msg: number; packet: number; ack: boolean }>();
  const on = { held: new Map<number, number[]>(), full: new Map<number, number[]>() };
  const off = { held: new Map<number, number[]>(), full: new Map<number, number[]>() };
  const deadlocks: { t: number; ring: string[] }[] = [];
  /** The link a state event is about: an output link (held), or the link into a switch input (its buffer). */
  const stateLink = (e: TraceEvent): number => {
    const sp = switchPart(e.unit);
    if (!sp) return endpointLink(topo, e.node, e.port ?? 0);
    if (sp.io === 'link') return switchLink(e.node, sp.index);
    const from = peer[e.node]![sp.index];
    return !from ? -1 : 'ep' in from ? endpointLink(topo, from.ep, from.m) : switchLink(from.sw, from.link);
  };
  const mark = (m: Map<number, number[]>, e: TraceEvent): void => {
    const l = stateLink(e);
    if (l < 0) return;
    if (!m.has(l)) m.set(l, []);
    m.get(l)!.push(e.t);
  };
  for (const e of events) {
    if (times[times.length - 1] !== e.t) times.push(e.t);
    if (e.kind === 'link-held' || e.kind === 'buffer-full') {
      mark(e.kind === 'link-held' ? on.held : on.full, e);
      continue;
    }
    if (e.kind === 'link-released' || e.kind === 'buffer-free') {
      mark(e.kind === 'link-released' ? off.held : off.full, e);
      continue;
    }
    if (e.kind === 'deadlock') {
      deadlocks.push({ t: e.t, ring: e.ring ?? [] });
      continue;
    }
    const su = switchUnit(e.unit);
    if (!su) {
      if (e.kind === 'message-queued') {
        queued.set(e.msg, e.t);
        Object.assign(tmsg(e.msg), { queued: e.t, src: e.node });
      } else if (e.kind === 'first-packet-delivered') tmsg(e.msg).first = e.t;
      else if (e.kind === 'message-complete') Object.assign(tmsg(e.msg), { complete: e.t, dest: e.node });
      if (e.kind === 'message-complete' && queued.has(e.msg)) latency.push(e.t - queued.get(e.msg)!);
      else if ((e.kind === 'head-arrives' && e.unit === 'rx') || e.kind === 'ack') {
        const j = topo.endpoints[e.node]!.links[e.port ?? 0];
        const p = j === undefined ? undefined : toEndpoint.get(switchLink(topo.endpoints[e.node]!.sw, j))?.shift();
        const q = p === undefined ? undefined : pk.get(p);
        if (q) q.end = q.info.complete = q.info.first = e.t;
      }
      continue;
    }
    const s = e.node;
    if (su.kind && !linked.has(su.packet)) linked.set(su.packet, { msg: e.msg, packet: e.packet ?? 0, ack: su.kind === 'ack' });
    let q = pk.get(su.packet);
    if (!q) {
      const info: MessageInfo = { id: su.packet, src: -1, dest: -1, queued: e.t, first: -1, complete: -1, packets: 1, rows: [] };
      pk.set(su.packet, (q = { msg: su.packet, idx: 0, start: e.t, end: tEnd + 1, hops: [], info }));
    }
    let r: HopRow | undefined = q.info.rows.find((x) => x.node === s && x.unit === su.name);
    if (!r) q.info.rows.push((r = { node: s, unit: su.name, arrive: -1, grant: -1, forward: -1 }));
    if (e.kind === 'head-arrives') {
      r.arrive = e.t;
      const from = peer[s]![su.input];
      if (from && 'ep' in from) {
        q.info.src = from.ep;
        q.hops.push([e.t, endpointLink(topo, from.ep, from.m)]);
      }
    } else if (e.kind === 'grant') r.grant = e.t;
    else if (e.kind === 'packet-forwarded') {
      r.forward = e.t;
      const j = e.port ?? 0;
      q.hops.push([e.t, switchLink(s, j)]);
      const to = peer[s]![j];
      if (to && 'ep' in to) {
        q.info.dest = to.ep;
        const l = switchLink(s, j);
        if (!toEndpoint.has(l)) toEndpoint.set(l, []);
        toEndpoint.get(l)!.push(su.packet);
      }
    }
  }
  const list = [...pk.values()].filter((q) => q.hops.length > 0).sort((a, b) => a.start - b.start || a.msg - b.msg);
  const spans = new Map<number, [number, number][]>();
  for (const q of list) {
    q.start = q.hops[0]![0];
    q.hops.forEach(([t, l], k) => {
      const until = k + 1 < q.hops.length ? q.hops[k + 1]![0] : q.end;
      if (!spans.has(l)) spans.set(l, []);
      spans.get(l)!.push([t, Math.max(until, t + 1)]);
    });
  }
  // Each T9000 message's rows: the switches every one of its linked packets crossed, labelled by packet.
  const tm = Int32Array.from(list.map((q) => linked.get(q.msg)?.msg ?? -1));
  for (const q of list) {
    const id = linked.get(q.msg);
    if (!id) continue;
    const info = tmsg(id.msg);
    if (!id.ack) info.packets++;
    for (const r of q.info.rows) info.rows.push({ ...r, pkt: `${id.ack ? 'ack' : 'data'} ${id.packet} (#${q.msg})` });
  }
  return {
    title,
    unit: header.unit,
    n: 0,
    nodes: S + E,
    links: L,
    c104: topo,
    latency: Int32Array.from(latency),
    tEnd,
    times: Int32Array.from(times),
    busy: spanIntervals(L, spans),
    held: onOffIntervals(L, on.held, off.held, tEnd),
    full: onOffIntervals(L, on.full, off.full, tEnd),
    ...packPackets(list, tEnd),
    msgs: [...pk.values()].map((q) => q.info).sort((a, b) => a.id - b.id),
    deadlocks,
    ...(linked.size ? { tmsg: tm, messages: [...tmsgs.values()].sort((a, b) => a.id - b.id) } : {}),
  };
}
