/**
 * What a C104 trace says, worked out from its raw events without
 * harness/view (for the view tests): link ids as the page numbers them
 * (switch s output j: s·32 + j; endpoint e's link m: S·32 + e·4 + m), the
 * links held and the switch input buffers full at a cycle (a buffer by the
 * link that feeds it), and the switch-level packets with their T9000 links.
 */
import type { TraceEvent } from '../../traces/events/vocabulary.ts';

export interface Topo {
  switches: string[];
  endpoints: { name: string; sw: number; links: number[] }[];
  cables: number[][];
  grid?: { w: number; h: number };
  places?: number[][];
}

/** The link feeding input k of switch s. */
export function feeder(t: Topo, s: number, k: number): number {
  const S = t.switches.length;
  for (const [a, la, b, lb] of t.cables) {
    if (b === s && lb === k) return a! * 32 + la!;
    if (a === s && la === k) return b! * 32 + lb!;
  }
  const e = t.endpoints.findIndex((x) => x.sw === s && x.links.includes(k));
  return S * 32 + e * 4 + t.endpoints[e]!.links.indexOf(k);
}

/** Links held and buffers full (by feeding link) at cycle c, sorted. */
export function c104StatesAt(events: readonly TraceEvent[], t: Topo, c: number): { held: number[]; full: number[] } {
  const S = t.switches.length;
  const held = new Set<number>();
  const full = new Set<number>();
  for (const e of events) {
    if (e.t > c) break;
    const m = /^(.+)\.(link|in)(\d+)$/.exec(e.unit ?? '');
    if (e.kind === 'link-held' || e.kind === 'link-released') {
      const l = m ? t.switches.indexOf(m[1]!) * 32 + Number(m[3]) : S * 32 + e.node * 4 + e.port!;
      if (e.kind === 'link-held') held.add(l);
      else held.delete(l);
    } else if (e.kind === 'buffer-full' || e.kind === 'buffer-free') {
      const l = feeder(t, t.switches.indexOf(m![1]!), Number(m![3]));
      if (e.kind === 'buffer-full') full.add(l);
      else full.delete(l);
    }
  }
  return { held: [...held].sort((a, b) => a - b), full: [...full].sort((a, b) => a - b) };
}

export interface SwitchPacket {
  /** T9000 message and packet, and whether it is that packet's ack (undefined: not linked). */
  link?: { msg: number; packet: number; ack: boolean };
  /** [cycle, link id] of each link its head entered. */
  hops: [number, number][];
  /** Switches it crossed, as `name.inK`. */
  inputs: string[];
}

/** Switch-level packets by number, from the switch events' units. */
export function switchPackets(events: readonly TraceEvent[], t: Topo): Map<number, SwitchPacket> {
  const out = new Map<number, SwitchPacket>();
  for (const e of events) {
    const u = /^(.+\.in(\d+)) \(packet (\d+)(?:: (data|ack))?\)$/.exec(e.unit ?? '');
    if (!u) continue;
    const p = Number(u[3]);
    if (!out.has(p)) out.set(p, { hops: [], inputs: [], ...(u[4] ? { link: { msg: e.msg, packet: e.packet!, ack: u[4] === 'ack' } } : {}) });
    const q = out.get(p)!;
    if (e.kind === 'head-arrives') {
      q.inputs.push(u[1]!);
      const from = feeder(t, e.node, Number(u[2]));
      if (from >= t.switches.length * 32) q.hops.push([e.t, from]);
    }
    if (e.kind === 'packet-forwarded') q.hops.push([e.t, e.node * 32 + e.port!]);
  }
  return out;
}

/**
 * Problems with the T9000 links of the switch packets: a data packet must
 * enter from its message's source endpoint and leave towards its
 * destination, an ack the other way; every T9000 data packet and ack is one
 * switch packet.
 */
export function linkProblems(events: readonly TraceEvent[], t: Topo): string[] {
  const S = t.switches.length;
  const src = new Map(events.filter((e) => e.kind === 'message-queued').map((e) => [e.msg, e.node]));
  const dst = new Map(events.filter((e) => e.kind === 'message-complete').map((e) => [e.msg, e.node]));
  const bad: string[] = [];
  const seen = new Set<string>();
  const epOf = (l: number): number => (l >= S * 32 ? Math.floor((l - S * 32) / 4) : -1);
  const epAt = (l: number): number => {
    const [s, j] = [Math.floor(l / 32), l % 32];
    return t.endpoints.findIndex((x) => x.sw === s && x.links.includes(j));
  };
  for (const [p, q] of switchPackets(events, t)) {
    if (!q.link) {
      bad.push(`packet ${p}: not linked`);
      continue;
    }
    const { msg, packet, ack } = q.link;
    const key = `${msg}.${packet}.${ack}`;
    if (seen.has(key)) bad.push(`packet ${p}: ${key} twice`);
    seen.add(key);
    const [from, to] = ack ? [dst.get(msg), src.get(msg)] : [src.get(msg), dst.get(msg)];
    const first = epOf(q.hops[0]![1]);
    const last = epAt(q.hops[q.hops.length - 1]![1]);
    if (first !== from || last !== to) bad.push(`packet ${p} (${ack ? 'ack' : 'data'} ${msg}.${packet}): endpoints ${first} -> ${last}, message ${from} -> ${to}`);
  }
  const data = events.filter((e) => e.kind === 'packet-injected').length;
  const acks = events.filter((e) => e.kind === 'ack').length;
  const got = [...seen].filter((k) => k.endsWith('false')).length;
  if (got !== data) bad.push(`${got} data packets linked, ${data} injected`);
  if (seen.size - got !== acks) bad.push(`${seen.size - got} acks linked, ${acks} acks arrived`);
  return bad;
}
