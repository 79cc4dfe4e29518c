/**
 * Textbook communication-cost models (seed 003: §2.5 "Communication Costs in
 * Parallel Machines" and §2.6 "Routing Mechanisms for Interconnection
 * Networks"; digest in docs/sources.md, cost-models §1).
 *
 * Symbols (seed 003 §2.5.1; namespaced here because the letters clash with the
 * other seeds, docs/sources.md, cost-models §0):
 *   ts  startup time, once per message                      (time units)
 *   th  per-hop time ("node latency") of the header         (time units)
 *   tw  per-word transfer time, tw = 1/r                    (time units per word)
 *   m   message size                                         (words)
 *   l   links (hops) traversed                               (count)
 * The seed gives no numeric values for ts, th, tw, so these functions have no
 * defaults for them: the caller supplies a machine (any consistent time unit:
 * cycles, bit-times, ns, µs; the result is in the same unit). Two [derived]
 * instantiations from docs/sources.md, cost-models §1.10 are exported for convenience.
 *
 * Pure functions, no I/O.
 */
import { checkNumber, integerIn, nonNegative, positive } from './validate.ts';

/** Machine constants of the textbook models (seed 003 §2.5.1). */
export interface TextbookMachine {
  /** Startup time t_s (seed 003 §2.5.1 item 1). */
  readonly ts: number;
  /** Per-hop time t_h (seed 003 §2.5.1 item 2). */
  readonly th: number;
  /** Per-word transfer time t_w = 1/r (seed 003 §2.5.1 item 3). */
  readonly tw: number;
}

export interface TextbookMessage {
  /** Message size m in words (seed 003 §2.5.1). */
  readonly m: number;
  /** Links traversed l (seed 003 §2.5.1). */
  readonly l: number;
}

function machine(scope: string, p: Partial<TextbookMachine>, need: readonly (keyof TextbookMachine)[]): TextbookMachine {
  const out = { ts: 0, th: 0, tw: 0 };
  for (const k of need) out[k] = nonNegative(scope, k, p[k], k === 'tw' ? 'time per word' : 'time');
  return out;
}

function message(scope: string, p: Partial<TextbookMessage>): TextbookMessage {
  return {
    m: nonNegative(scope, 'm', p.m, 'words'),
    // l is a hop count; the seed's formulas are linear in l, integer l is required.
    l: integerIn(scope, 'l', p.l, 0, Infinity, 'links'),
  };
}

/**
 * Store-and-forward routing, seed 003 Eq 2.2:
 *   t_comm = t_s + (m·t_w + t_h)·l
 * Each of the l links carries the header (t_h) and the whole message (t_w·m).
 */
export function storeAndForwardTime(p: TextbookMachine & TextbookMessage): number {
  const s = 'textbook.storeAndForward';
  const { ts, th, tw } = machine(s, p, ['ts', 'th', 'tw']);
  const { m, l } = message(s, p);
  return ts + (m * tw + th) * l; // seed 003 Eq 2.2
}

/**
 * Store-and-forward without the per-hop term, seed 003 §2.5.1 (unnumbered,
 * directly after Eq 2.2: "t_h is quite small … can be simplified to"):
 *   t_comm = t_s + m·l·t_w
 */
export function storeAndForwardTimeSimplified(p: Omit<TextbookMachine, 'th'> & TextbookMessage): number {
  const s = 'textbook.storeAndForwardSimplified';
  const { ts, tw } = machine(s, p, ['ts', 'tw']);
  const { m, l } = message(s, p);
  return ts + m * l * tw; // seed 003 §2.5.1, after Eq 2.2
}

/** Parameters of the packet-routing derivation (seed 003 §2.5.1 "Packet Routing", unnumbered). */
export interface PacketRoutingParams {
  /** Packetising time per word, t_w1 (the seed: "proportional to the length of the message"). */
  readonly tw1: number;
  /** Network time per word on the wire, t_w2 ("one word every t_w2 seconds"). */
  readonly tw2: number;
  /** Added information per packet, s words (routing, error, sequencing fields). */
  readonly s: number;
  /** Data part of a packet, r words (> 0). */
  readonly r: number;
}

function packetParams(scope: string, p: Partial<PacketRoutingParams>): PacketRoutingParams {
  return {
    tw1: nonNegative(scope, 'tw1', p.tw1, 'time per word'),
    tw2: nonNegative(scope, 'tw2', p.tw2, 'time per word'),
    s: nonNegative(scope, 's', p.s, 'overhead words per packet'),
    r: positive(scope, 'r', p.r, 'data words per packet'),
  };
}

/**
 * Effective per-word time of packet routing, seed 003 §2.5.1 "Packet Routing"
 * (the unnumbered display ending "where t_w = t_w1 + t_w2(1 + s/r)"):
 *   t_w = t_w1 + t_w2·(1 + s/r)
 */
export function packetPerWordTime(p: PacketRoutingParams): number {
  const { tw1, tw2, s, r } = packetParams('textbook.packetPerWordTime', p);
  return tw1 + tw2 * (1 + s / r); // seed 003 §2.5.1 Packet Routing
}

/**
 * Packet routing message time, seed 003 §2.5.1 "Packet Routing" (unnumbered),
 * first line of the derivation, with m/r − 1 packets after the first:
 *   t_comm = t_s + t_w1·m + t_h·l + t_w2·(r + s) + (m/r − 1)·t_w2·(r + s)
 *          = t_s + t_h·l + t_w·m,   t_w = t_w1 + t_w2(1 + s/r)
 * m/r is used as printed (the seed assumes whole packets; a fractional m/r is
 * the seed's continuous reading, not a rounding). Requires m ≥ r (at least one
 * packet) so that the "first packet" term is meaningful.
 */
export function packetRoutingTime(p: Omit<TextbookMachine, 'tw'> & TextbookMessage & PacketRoutingParams): number {
  const s = 'textbook.packetRouting';
  const { ts, th } = machine(s, p, ['ts', 'th']);
  const { m, l } = message(s, p);
  const pk = packetParams(s, p);
  checkNumber(s, 'm', m, { min: pk.r, what: 'words; at least one packet of r words' });
  const packet = pk.tw2 * (pk.r + pk.s);
  return ts + pk.tw1 * m + th * l + packet + (m / pk.r - 1) * packet; // seed 003 §2.5.1 Packet Routing, line 1
}

/**
 * Arrival of the first packet in the packet-routing derivation (seed 003
 * §2.5.1: "this packet takes time t_h·l + t_w2(r + s) to reach the
 * destination", after t_s and the packetising time t_w1·m of the first line).
 */
export function packetRoutingFirstPacketTime(p: Omit<TextbookMachine, 'tw'> & TextbookMessage & PacketRoutingParams): number {
  const s = 'textbook.packetRoutingFirstPacket';
  const { ts, th } = machine(s, p, ['ts', 'th']);
  const { m, l } = message(s, p);
  const pk = packetParams(s, p);
  checkNumber(s, 'm', m, { min: pk.r, what: 'words; at least one packet of r words' });
  return ts + pk.tw1 * m + th * l + pk.tw2 * (pk.r + pk.s); // seed 003 §2.5.1 Packet Routing
}

/**
 * Cut-through routing, seed 003 Eq 2.3:
 *   t_comm = t_s + l·t_h + t_w·m
 * The header takes l·t_h; the message follows t_w·m behind it.
 */
export function cutThroughTime(p: TextbookMachine & TextbookMessage): number {
  const s = 'textbook.cutThrough';
  const { ts, th, tw } = machine(s, p, ['ts', 'th', 'tw']);
  const { m, l } = message(s, p);
  return ts + l * th + tw * m; // seed 003 Eq 2.3
}

/**
 * Simplified cost model, seed 003 Eq 2.4 (completely connected network,
 * uncongested): t_comm = t_s + t_w·m. Also the first-order shared-address-space
 * model of §2.5.2 (same expression).
 */
export function simplifiedTime(p: Omit<TextbookMachine, 'th'> & Pick<TextbookMessage, 'm'>): number {
  const s = 'textbook.simplified';
  const { ts, tw } = machine(s, p, ['ts', 'tw']);
  const m = nonNegative(s, 'm', p.m, 'words');
  return ts + tw * m; // seed 003 Eq 2.4
}

/**
 * Example 2.15 (seed 003): in a √p × √p mesh with every node sending to a
 * random node, p/4 bidirectional communications cross the bisection of width
 * √p, so some link carries at least (p/4)/√p = √p/4 messages.
 * Returns that congestion (messages per most-loaded link). p must be a perfect
 * square ≥ 1 (the example's mesh).
 */
export function randomMeshCongestion(p: { readonly p: number }): number {
  const s = 'textbook.example2_15';
  const nodes = integerIn(s, 'p', p.p, 1, Infinity, 'nodes of a √p×√p mesh');
  const side = Math.round(Math.sqrt(nodes));
  if (side * side !== nodes) throw new RangeError(`${s}.p: ${nodes} is not a perfect square (√p×√p mesh)`);
  return nodes / 4 / side; // seed 003 Example 2.15: (p/4)/√p = √p/4
}

/**
 * Lower bound of Example 2.15 (seed 003): time for all-to-random exchange of
 * m words on a √p × √p mesh is at least t_s + t_w·m·√p/4.
 */
export function randomMeshLowerBound(p: Omit<TextbookMachine, 'th'> & Pick<TextbookMessage, 'm'> & { readonly p: number }): number {
  const s = 'textbook.example2_15';
  const { ts, tw } = machine(s, p, ['ts', 'tw']);
  const m = nonNegative(s, 'm', p.m, 'words');
  return ts + tw * m * randomMeshCongestion(p); // seed 003 Example 2.15
}

/**
 * Effective per-word time under congestion, lower bound (seed 003 §2.5.1,
 * after Example 2.15): "the associated link bandwidth is scaled down by a
 * factor p/b, where b is the bisection width", i.e. t_w,eff = t_w·p/b.
 * Note: the general p/b factor is 4× the congestion √p/4 of Example 2.15 for
 * a 2-D mesh (b = √p); the seed states both, this function follows the
 * general statement.
 */
export function effectivePerWordTimeLowerBound(p: { readonly tw: number; readonly p: number; readonly bisectionWidth: number }): number {
  const s = 'textbook.effectiveBandwidth';
  const tw = nonNegative(s, 'tw', p.tw, 'time per word');
  const nodes = integerIn(s, 'p', p.p, 1, Infinity, 'nodes');
  const b = integerIn(s, 'bisectionWidth', p.bisectionWidth, 1, Infinity, 'links');
  return tw * (nodes / b); // seed 003 §2.5.1 after Example 2.15
}

/** Number of ones in a ⊕ b: minimum hypercube distance (seed 003 §2.6). */
export function hypercubeDistance(p: { readonly src: number; readonly dst: number }): number {
  const s = 'textbook.hypercubeDistance';
  const src = integerIn(s, 'src', p.src, 0, 2 ** 30, 'node label');
  const dst = integerIn(s, 'dst', p.dst, 0, 2 ** 30, 'node label');
  let x = src ^ dst;
  let n = 0;
  while (x !== 0) {
    x &= x - 1;
    n++;
  }
  return n;
}

/**
 * E-cube routing path (seed 003 §2.6, Example 2.16): at each node P_i forward
 * along the dimension of the least significant nonzero bit of P_i ⊕ P_d.
 * Returns the node labels from source to destination inclusive.
 * Independent of the RTL routing logic on purpose (ARCHITECTURE.md: the
 * models and the TLM never call RTL code).
 */
export function ecubePath(p: { readonly src: number; readonly dst: number; readonly d: number }): number[] {
  const s = 'textbook.ecube';
  const d = integerIn(s, 'd', p.d, 0, 30, 'hypercube dimension');
  const max = 2 ** d - 1;
  const src = integerIn(s, 'src', p.src, 0, max, `node label of a ${d}-cube`);
  const dst = integerIn(s, 'dst', p.dst, 0, max, `node label of a ${d}-cube`);
  const path = [src];
  let cur = src;
  while (cur !== dst) {
    const diff = cur ^ dst;
    cur ^= diff & -diff; // least significant nonzero bit (seed 003 §2.6)
    path.push(cur);
  }
  return path;
}

/** Mesh node position P_{y,x} (seed 003 §2.6 notation). */
export interface MeshNode {
  readonly x: number;
  readonly y: number;
}

/**
 * XY routing path on a 2-D mesh without wraparound (seed 003 §2.6): first
 * along X to the destination column, then along Y. Returns every node from
 * source to destination inclusive; length − 1 = |Sx − Dx| + |Sy − Dy|. The
 * seed assumes Dx ≥ Sx, Dy ≥ Sy; the other directions are symmetric.
 */
export function xyPath(p: { readonly src: MeshNode; readonly dst: MeshNode }): MeshNode[] {
  const s = 'textbook.xy';
  const sx = integerIn(s, 'src.x', p.src.x, 0);
  const sy = integerIn(s, 'src.y', p.src.y, 0);
  const dx = integerIn(s, 'dst.x', p.dst.x, 0);
  const dy = integerIn(s, 'dst.y', p.dst.y, 0);
  const path: MeshNode[] = [{ x: sx, y: sy }];
  let x = sx;
  let y = sy;
  while (x !== dx) {
    x += dx > x ? 1 : -1;
    path.push({ x, y });
  }
  while (y !== dy) {
    y += dy > y ? 1 : -1;
    path.push({ x, y });
  }
  return path;
}

/**
 * [derived] Instantiations of the packet-routing formula for the emulated
 * hardware, docs/sources.md, cost-models §1.10, in bit-times (one link bit per cycle).
 * Words are bits here: t_w2 = 1 bit-time per bit on the wire.
 *  - Buzzard hardware mode: full packet 299 bit-times on the wire
 *    (docs/sources.md, buzzard §5: 11 + 18·16) for 28 data bytes = 224 bits, so
 *    s = 299 − 224 = 75 overhead bits, r = 224 data bits.
 *  - C104/T9000: 32 data bytes as 10-bit tokens = 320 bit-times, plus 14 bits
 *    (1-byte header token + EOP); r = 256 data bits, s = 334 − 256 = 78 bits.
 * The per-data-byte time is 8·t_w: 299/28 = 10.68 and 334/32 = 10.44.
 */
export const TEXTBOOK_PACKET_INSTANCES = Object.freeze({
  buzzardHardware: Object.freeze({ tw1: 0, tw2: 1, s: 75, r: 224 }),
  c104: Object.freeze({ tw1: 0, tw2: 1, s: 78, r: 256 }),
} satisfies Record<string, PacketRoutingParams>);
