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
import { packPackets, spanIntervals, type C104Topo, type HopRow, type MessageInfo, type PacketTrack, type ViewModel } from './model.ts';

export const SWITCH_PORTS = 32;
export const ENDPOINT_PORTS = 4;

/** The switch, input and packet number a switch event's unit names, or null (an endpoint event). */
export function switchUnit(unit: string | undefined): { input: number; packet: number; name: string } | null {
  const m = unit === undefined ? null : /^(.*)\.in(\d+) \(packet (\d+)\)$/.exec(unit);
  return m ? { name: `${m[1]}.in${m[2]}`, input: Number(m[2]), packet: Number(m[3]) } : null;
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
  for (const e of events) {
    if (times[times.length - 1] !== e.t) times.push(e.t);
    const su = switchUnit(e.unit);
    if (!su) {
      if (e.kind === 'message-queued') queued.set(e.msg, e.t);
      else if (e.kind === 'message-complete' && queued.has(e.msg)) latency.push(e.t - queued.get(e.msg)!);
      else if ((e.kind === 'head-arrives' && e.unit === 'rx') || e.kind === 'ack') {
        const j = topo.endpoints[e.node]!.links[e.port ?? 0];
        const p = j === undefined ? undefined : toEndpoint.get(switchLink(topo.endpoints[e.node]!.sw, j))?.shift();
        const q = p === undefined ? undefined : pk.get(p);
        if (q) q.end = q.info.complete = q.info.first = e.t;
      }
      continue;
    }
    const s = e.node;
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
  const none = spanIntervals(L, new Map());
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
    held: none,
    full: none,
    ...packPackets(list, tEnd),
    msgs: [...pk.values()].map((q) => q.info).sort((a, b) => a.id - b.id),
    deadlocks: [],
  };
}
