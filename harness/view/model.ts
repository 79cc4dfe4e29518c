/**
 * The replay model of `icemu view`: an event trace (traces/events/vocabulary.ts)
 * turned into arrays the page can query at any cycle without replaying from
 * the start (the method that keeps a 64-node 300,000-cycle run usable):
 *
 *  - link busy / held and buffer full states as interval lists per link or
 *    PBU (CSR: `off[id]..off[id+1]`), with the cumulative busy length before
 *    each interval, so "busy cycles of link l in (c-W, c]" is two binary
 *    searches;
 *  - packets as hop lists (the link each hop enters and its cycle) with an
 *    alive index: packets bucketed by the `bucket`-cycle windows they are in
 *    flight in (the keyframes), so the packets at cycle c are one bucket scan;
 *  - the distinct event cycles, for stepping by event.
 *
 * Link id = node·n + (port − 1) for outgoing link `port` of `node`; PBU id
 * likewise (PBU i receives link i). Pure: no DOM, no file system (load.ts
 * reads and validates files; replay.ts answers queries).
 */
import type { TraceEvent, TraceHeader } from '../../traces/events/vocabulary.ts';

export interface Intervals {
  off: Int32Array;
  start: Int32Array;
  /** Exclusive end; `tEnd + 1` for an interval still open at the end of the trace. */
  end: Int32Array;
  /** Length of the id's intervals before this one. */
  cum: Float64Array;
}

export interface HopRow {
  node: number;
  unit: string;
  arrive: number;
  grant: number;
  forward: number;
  /** C104: which packet of the followed T9000 message the row belongs to. */
  pkt?: string;
}

export interface MessageInfo {
  id: number;
  src: number;
  dest: number;
  queued: number;
  first: number;
  complete: number;
  packets: number;
  /** Per-hop rows of packet 0 (as icemu compare's per-message rows). */
  rows: HopRow[];
}

/** The header's C104 topology record (harness/rtl/c104_events.ts c104Topology), checked by load.ts. */
export interface C104Topo {
  kind: 'c104';
  switches: string[];
  endpoints: { name: string; sw: number; links: number[] }[];
  cables: [number, number, number, number][];
  grid?: { w: number; h: number };
  places?: [number, number][];
}

export interface ViewModel {
  title: string;
  unit: string;
  /** Cube degree (0 for a C104 network). */
  n: number;
  nodes: number;
  /** Link ids are 0..links-1 (cube: node·n + port − 1; C104: see c104_model.ts). */
  links: number;
  /** Set for a C104 network. */
  c104?: C104Topo;
  /** Message latencies (queued → complete), for the histogram. */
  latency: Int32Array;
  tEnd: number;
  times: Int32Array;
  busy: Intervals;
  held: Intervals;
  full: Intervals;
  pkt: { msg: Int32Array; idx: Int32Array; start: Int32Array; end: Int32Array; hopOff: Int32Array; hopT: Int32Array; hopLink: Int32Array };
  bucket: number;
  alive: { off: Int32Array; list: Int32Array };
  msgs: MessageInfo[];
  deadlocks: { t: number; ring: string[] }[];
  /** C104 traces that link switch-level packets to T9000 packets: per packet (index into pkt) its T9000 message, -1 unknown. */
  tmsg?: Int32Array;
  /** …and the T9000 messages, each with the per-switch rows of all its packets (data and acks). */
  messages?: MessageInfo[];
}

export const BUCKET = 1024;

/** Build interval lists from on/off events per id (ids 0..count-1). */
export function onOffIntervals(count: number, on: Map<number, number[]>, off: Map<number, number[]>, tEnd: number): Intervals {
  const starts: number[] = [];
  const ends: number[] = [];
  const cum: number[] = [];
  const offs = new Int32Array(count + 1);
  for (let id = 0; id < count; id++) {
    offs[id] = starts.length;
    const a = on.get(id) ?? [];
    const b = off.get(id) ?? [];
    let acc = 0;
    let j = 0;
    for (const s of a) {
      while (j < b.length && b[j]! <= s) j++;
      const e = j < b.length ? b[j++]! : tEnd + 1;
      starts.push(s);
      ends.push(e);
      cum.push(acc);
      acc += e - s;
    }
  }
  offs[count] = starts.length;
  return { off: offs, start: Int32Array.from(starts), end: Int32Array.from(ends), cum: Float64Array.from(cum) };
}

const push = (m: Map<number, number[]>, k: number, v: number): void => {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
};

/** The model of a validated Buzzard n-cube trace (events sorted by t, nodes and ports in range). */
export function buildModel(header: TraceHeader, events: readonly TraceEvent[], n: number, title: string): ViewModel {
  const N = 1 << n;
  const L = N * n;
  const tEnd = events.length ? events[events.length - 1]!.t : 0;
  const link = (node: number, port: number): number => node * n + port - 1;
  const on = { busy: new Map<number, number[]>(), held: new Map<number, number[]>(), full: new Map<number, number[]>() };
  const off = { busy: new Map<number, number[]>(), held: new Map<number, number[]>(), full: new Map<number, number[]>() };
  const times: number[] = [];
  const pk = new Map<string, { msg: number; idx: number; start: number; end: number; hops: [number, number][] }>();
  const msgs = new Map<number, MessageInfo>();
  const msg = (id: number): MessageInfo => {
    let m = msgs.get(id);
    if (!m) msgs.set(id, (m = { id, src: -1, dest: -1, queued: -1, first: -1, complete: -1, packets: 0, rows: [] }));
    return m;
  };
  const deadlocks: { t: number; ring: string[] }[] = [];
  for (const e of events) {
    if (times[times.length - 1] !== e.t) times.push(e.t);
    const p = e.port ?? 0;
    switch (e.kind) {
      case 'link-busy': push(on.busy, link(e.node, p), e.t); continue;
      case 'link-idle': push(off.busy, link(e.node, p), e.t); continue;
      case 'link-held': push(on.held, link(e.node, p), e.t); continue;
      case 'link-released': push(off.held, link(e.node, p), e.t); continue;
      case 'buffer-full': push(on.full, link(e.node, p), e.t); continue;
      case 'buffer-free': push(off.full, link(e.node, p), e.t); continue;
      case 'deadlock': deadlocks.push({ t: e.t, ring: e.ring ?? [] }); continue;
      case 'message-queued': {
        const m = msg(e.msg);
        m.queued = e.t;
        m.src = e.node;
        continue;
      }
      case 'first-packet-delivered': msg(e.msg).first = e.t; continue;
      case 'message-complete': {
        const m = msg(e.msg);
        m.complete = e.t;
        m.dest = e.node;
        continue;
      }
      default:
    }
    if (e.packet === undefined) continue;
    const key = `${e.msg}.${e.packet}`;
    let q = pk.get(key);
    if (!q) pk.set(key, (q = { msg: e.msg, idx: e.packet, start: -1, end: tEnd + 1, hops: [] }));
    const m = msg(e.msg);
    const rows = e.packet === 0 ? m.rows : null;
    if ((e.kind === 'packet-injected' || e.kind === 'packet-forwarded') && p > 0) {
      if (q.start < 0) q.start = e.t;
      q.hops.push([e.t, link(e.node, p)]);
    }
    if (e.kind === 'packet-injected' && m.src < 0) m.src = e.node;
    if (e.kind === 'head-arrives' && e.unit === 'nip') {
      q.end = e.t;
      if (m.dest < 0) m.dest = e.node;
    }
    if (rows) {
      let r = rows.find((x) => x.node === e.node);
      if (!r) rows.push((r = { node: e.node, unit: e.unit ?? '', arrive: -1, grant: -1, forward: -1 }));
      if (e.kind === 'head-arrives' && r.arrive < 0) {
        r.arrive = e.t;
        r.unit = e.unit ?? r.unit;
      } else if (e.kind === 'grant') r.grant = e.t;
      else if (e.kind === 'packet-forwarded' || e.kind === 'packet-injected') r.forward = e.t;
    }
  }
  const list = [...pk.values()].filter((q) => q.start >= 0).sort((a, b) => a.start - b.start || a.msg - b.msg || a.idx - b.idx);
  for (const q of list) msg(q.msg).packets++;
  const all = [...msgs.values()].sort((a, b) => a.id - b.id);
  return {
    title,
    unit: header.unit,
    n,
    nodes: N,
    links: L,
    latency: Int32Array.from(all.filter((q) => q.complete >= 0 && q.queued >= 0).map((q) => q.complete - q.queued)),
    tEnd,
    times: Int32Array.from(times),
    busy: onOffIntervals(L, on.busy, off.busy, tEnd),
    held: onOffIntervals(L, on.held, off.held, tEnd),
    full: onOffIntervals(L, on.full, off.full, tEnd),
    ...packPackets(list, tEnd),
    msgs: all,
    deadlocks,
  };
}

export interface PacketTrack {
  msg: number;
  idx: number;
  start: number;
  end: number;
  /** [cycle, link] per hop, in time order. */
  hops: [number, number][];
}

/** Packets (sorted by start) as hop arrays plus the alive index (keyframes every BUCKET cycles). */
export function packPackets(list: readonly PacketTrack[], tEnd: number): Pick<ViewModel, 'pkt' | 'bucket' | 'alive'> {
  const P = list.length;
  const hopOff = new Int32Array(P + 1);
  const hopT: number[] = [];
  const hopLink: number[] = [];
  list.forEach((q, k) => {
    hopOff[k] = hopT.length;
    for (const [t, l] of q.hops) {
      hopT.push(t);
      hopLink.push(l);
    }
  });
  hopOff[P] = hopT.length;
  // alive index: packet k is in flight in [start, end)
  const B = BUCKET;
  const nb = Math.floor(tEnd / B) + 1;
  const per: number[][] = Array.from({ length: nb }, () => []);
  list.forEach((q, k) => {
    const last = Math.min(nb - 1, Math.floor(Math.max(q.start, q.end - 1) / B));
    for (let b = Math.floor(q.start / B); b <= last; b++) per[b]!.push(k);
  });
  const aliveOff = new Int32Array(nb + 1);
  const alive: number[] = [];
  per.forEach((l, b) => {
    aliveOff[b] = alive.length;
    alive.push(...l);
  });
  aliveOff[nb] = alive.length;
  return {
    pkt: {
      msg: Int32Array.from(list.map((q) => q.msg)),
      idx: Int32Array.from(list.map((q) => q.idx)),
      start: Int32Array.from(list.map((q) => q.start)),
      end: Int32Array.from(list.map((q) => q.end)),
      hopOff,
      hopT: Int32Array.from(hopT),
      hopLink: Int32Array.from(hopLink),
    },
    bucket: B,
    alive: { off: aliveOff, list: Int32Array.from(alive) },
  };
}

/** Interval lists from [start, end) spans per id (overlapping spans of one id merged). */
export function spanIntervals(count: number, spans: Map<number, [number, number][]>): Intervals {
  const on = new Map<number, number[]>();
  const off = new Map<number, number[]>();
  for (const [id, l] of spans) {
    const sorted = [...l].sort((a, b) => a[0] - b[0]);
    let cur: [number, number] | undefined;
    for (const [a, b] of [...sorted, [Infinity, Infinity] as [number, number]]) {
      if (cur && a <= cur[1]) cur[1] = Math.max(cur[1], b);
      else {
        if (cur) {
          push(on, id, cur[0]);
          push(off, id, cur[1]);
        }
        cur = [a, b];
      }
    }
  }
  return onOffIntervals(count, on, off, 0);
}

/** Which unit sends on link l, its port, and the link's name for the info panel. */
export function linkEnds(m: ViewModel, l: number): { node: number; port: number; text: string } {
  const t = m.c104;
  if (!t) {
    const x = Math.floor(l / m.n);
    const p = (l % m.n) + 1;
    return { node: x, port: p, text: `link ${x} → ${x ^ (1 << (p - 1))} (node ${x}, port ${p})` };
  }
  const S = t.switches.length;
  if (l < S * 32) {
    const s = Math.floor(l / 32);
    const j = l % 32;
    const c = t.cables.find(([a, la, b, lb]) => (a === s && la === j) || (b === s && lb === j));
    const e = t.endpoints.find((x) => x.sw === s && x.links.includes(j));
    const to = c ? (c[0] === s && c[1] === j ? `${t.switches[c[2]]}.link${c[3]}` : `${t.switches[c[0]]}.link${c[1]}`) : e ? `${e.name}.link${e.links.indexOf(j)}` : 'nothing';
    return { node: s, port: j, text: `${t.switches[s]}.link${j} → ${to}` };
  }
  const e = Math.floor((l - S * 32) / 4);
  const k = (l - S * 32) % 4;
  const ep = t.endpoints[e]!;
  return { node: S + e, port: k, text: `${ep.name}.link${k} → ${t.switches[ep.sw]}.link${ep.links[k]}` };
}

/** A drawn unit's name: cube node x, or a C104 switch (0..S-1) / T9000 endpoint (S..). */
export function unitName(m: ViewModel, x: number): string {
  const t = m.c104;
  if (!t) return `node ${x}`;
  return x < t.switches.length ? t.switches[x]! : t.endpoints[x - t.switches.length]?.name ?? `endpoint ${x - t.switches.length}`;
}
