/**
 * Configuration of a T9000-style endpoint (rtl/t9000): its links, virtual
 * link control blocks, packet format, acknowledgement policy and timing.
 * Readings: docs/t9000.md (seed 004 §3.1.1.1, §3.5.4, §4.1; docs/sources.md,
 * c104-t9000 §2 and §16.2).
 *
 * Every field is validated by `t9000Config`; a bad value throws one
 * RangeError naming the field and the allowed range.
 */

/** One virtual link control block (seed 004 §3.1.1.1, docs/t9000.md#virtual-links). */
export interface VlcbConfig {
  /** Physical link (0..links-1) this virtual link's packets and acks leave on. */
  link: number;
  /**
   * Header value of the packets this VL sends (data packets and the acks of
   * packets it receives): with `addressing: 'virtual-link'` the label of the
   * far end's virtual link; with `addressing: 'node'` the far end's node
   * number (docs/t9000.md#addressing). 0..2^(8·headerBytes)-1.
   */
  header: number;
  /**
   * `addressing: 'node'` only (required there): the far end's control block
   * index, sent out of band as the packet's side-band tag (rtl/lib/side_band.ts)
   * with every data packet and ack of this VL. 0..MAX_VLS-1.
   */
  peerVl?: number;
}

/**
 * Width of a virtual link number on the endpoint's internal paths (queue
 * entries' VL, the receive port's VL, the round-robin pointers): control
 * blocks live in memories (docs/t9000.md#control-blocks), so their number is
 * bounded by this width, not by registers. 12 bits: up to 4,095 control
 * blocks (seed 004's Table 3.1 workload needs ~1,088 partners per endpoint).
 */
export const VL_BITS = 12;
/** Most control blocks an endpoint may have (VL numbers 0..MAX_VLS-1). */
export const MAX_VLS = 2 ** VL_BITS - 1;
/** Node memory address width (docs/t9000.md#memory): 1 MiB, room for the receive areas of MAX_VLS control blocks. */
export const MEM_ADDR_BITS = 20;

export type MessageMode = 'stream' | 'handshake';
export type Addressing = 'virtual-link' | 'node';
export const ADDRESSINGS: readonly Addressing[] = ['virtual-link', 'node'];
/** Deliberate faults for negative controls in tests (docs/t9000.md#fault-injection); 'none' in every real run. */
export type EndpointFault = 'none' | 'no-stop-and-wait' | 'eom-completes' | 'rest-on-hold' | 'header-guard-data' | 'pick-one-link' | 'skip-one-block';

export interface T9000Config {
  /** Physical DS-links, 1..4; seed 004 §3.1.1.2: a T9000 has four. */
  links: number;
  /** Virtual link control blocks, 1..MAX_VLS (4,095) of them; VL i is labelled i (docs/t9000.md#control-blocks). */
  virtualLinks: readonly VlcbConfig[];
  /** Routing header bytes s, 1 or 2; seed 004 §4.1.4.1: s = 1 in Chapter 4. */
  headerBytes: 1 | 2;
  /** Largest packet payload in bytes, 1..32; seed 004 §3.1.1.1: "not more than 32 bytes". */
  packetBytes: number;
  /**
   * How a header names its target (docs/t9000.md#addressing): 'virtual-link'
   * (the real T9000: the receiving VL's label) or 'node' (the destination
   * endpoint; the VL travels out of band as a side-band tag, as the thesis's
   * simulator passes sockets).
   */
  addressing: Addressing;
  /**
   * `addressing: 'node'`: this endpoint's own header value; a packet arriving
   * with another header is a unit assertion (misrouted). -1 (default): not checked.
   */
  nodeHeader: number;
  /** Ack queue served before the data queue (seed 004 §3.1.1.1, §4.2.4); false = one FIFO (`--noackpri`, §5.4.4.2). */
  ackPriority: boolean;
  /** Packet start-up β: cycles between taking a data packet from the queue and its header; 0 in the thesis (§4.1.2). */
  packetStartupCycles: number;
  /** Ack delay: cycles between taking an ack from the queue and its header; 0 in the thesis (§3.5.4). */
  ackDelayCycles: number;
  /** 'stream' (a send completes on its last ack; Eqs 4.1/4.2) or 'handshake' (spec §16.2, T-4.C104). */
  messageMode: MessageMode;
  /** Handshake mode: cycles after a message completes before the VL's next message starts (docs/t9000.md#message-modes). */
  messageOverheadCycles: number;
  /**
   * When a data packet counts as sent (the handshake's "its last packet has left"): 'handover' (default) when its
   * end marker is handed to the link end; 'wire' when the end marker's last bit has left the wires (needs link ends
   * with a 1-character transmit buffer and no flow-through; docs/t9000.md#message-modes).
   */
  packetSentAt: 'handover' | 'wire';
  /** Sends a process may have queued per virtual link, 1..1024. */
  sendQueueDepth: number;
  /** 32-byte packet slots in each virtual link's receive area, 2..256 (docs/t9000.md#receive-area). */
  rxSlots: number;
  /** Bytes of the send area (message sources, addressed with 16 bits), 64..65536, and the receive areas after it within 2^MEM_ADDR_BITS. */
  sendAreaBytes: number;
  /** Fault injection for negative controls; 'none' by default. */
  fault: EndpointFault;
}

/** The thesis's endpoint: zero overheads (seed 004 §3.5.4, §4.1.2). */
export const THESIS_TIMING = Object.freeze({ packetStartupCycles: 0, ackDelayCycles: 0 });
/**
 * `measured` preset (spec §16 V11, §16.2): measured T9000 systems need ≈3.3 µs
 * of endpoint overhead per packet; at 10 ns per cycle that is 330 cycles of
 * packet start-up. Ack delay stays 0 (not measured separately).
 */
export const MEASURED_TIMING = Object.freeze({ packetStartupCycles: 330, ackDelayCycles: 0 });
export type TimingPreset = 'thesis' | 'measured';
export const TIMING_PRESETS: Readonly<Record<TimingPreset, { packetStartupCycles: number; ackDelayCycles: number }>> = Object.freeze({
  thesis: THESIS_TIMING,
  measured: MEASURED_TIMING,
});

export const T9000_DEFAULTS = Object.freeze({
  links: 4, // seed 004 §3.1.1.2: "four such links on a T9000"
  headerBytes: 1 as const, // seed 004 §4.1.4.1: s = 1
  packetBytes: 32, // seed 004 §3.1.1.1
  addressing: 'virtual-link' as const, // spec §16.2 "Addressing"
  nodeHeader: -1,
  ackPriority: true, // seed 004 §3.1.1.1: "acknowledgements take priority over data packets"
  ...THESIS_TIMING,
  messageMode: 'stream' as const,
  messageOverheadCycles: 0,
  packetSentAt: 'handover' as const,
  sendQueueDepth: 16,
  rxSlots: 8,
  sendAreaBytes: 4096,
  fault: 'none' as const,
});

function int(field: string, v: unknown, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) throw new RangeError(`t9000.${field}: ${String(v)} is outside ${lo}..${hi}`);
  return v;
}
function pick<T extends string | boolean | number>(field: string, v: unknown, allowed: readonly T[]): T {
  if (!(allowed as readonly unknown[]).includes(v)) throw new RangeError(`t9000.${field}: ${JSON.stringify(v)} is not one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
  return v as T;
}

/** Validate a partial config against the defaults. `virtualLinks` is required. */
export function t9000Config(p: Partial<T9000Config> & { virtualLinks: readonly VlcbConfig[] }): Readonly<T9000Config> {
  const c = { ...T9000_DEFAULTS, ...p };
  const links = int('links', c.links, 1, 4);
  const headerBytes = pick('headerBytes', c.headerBytes, [1, 2] as const);
  if (!Array.isArray(c.virtualLinks) || c.virtualLinks.length < 1 || c.virtualLinks.length > MAX_VLS) {
    throw new RangeError(`t9000.virtualLinks: ${Array.isArray(c.virtualLinks) ? c.virtualLinks.length : String(c.virtualLinks)} control blocks is outside 1..${MAX_VLS}`);
  }
  const maxHeader = 2 ** (8 * headerBytes) - 1;
  const addressing = pick('addressing', c.addressing, ADDRESSINGS);
  const virtualLinks = c.virtualLinks.map((v, i) => ({
    link: int(`virtualLinks[${i}].link`, v.link, 0, links - 1),
    header: int(`virtualLinks[${i}].header`, v.header, 0, maxHeader),
    ...(addressing === 'node' ? { peerVl: int(`virtualLinks[${i}].peerVl`, v.peerVl, 0, MAX_VLS - 1) } : {}),
  }));
  const rxSlots = int('rxSlots', c.rxSlots, 2, 256);
  const rxBytes = virtualLinks.length * rxSlots * 32;
  return Object.freeze({
    links,
    virtualLinks: Object.freeze(virtualLinks),
    headerBytes,
    packetBytes: int('packetBytes', c.packetBytes, 1, 32),
    addressing,
    nodeHeader: int('nodeHeader', c.nodeHeader, -1, maxHeader),
    ackPriority: pick('ackPriority', c.ackPriority, [true, false] as const),
    packetStartupCycles: int('packetStartupCycles', c.packetStartupCycles, 0, 1_000_000),
    ackDelayCycles: int('ackDelayCycles', c.ackDelayCycles, 0, 1_000_000),
    messageMode: pick('messageMode', c.messageMode, ['stream', 'handshake'] as const),
    messageOverheadCycles: int('messageOverheadCycles', c.messageOverheadCycles, 0, 1_000_000),
    packetSentAt: pick('packetSentAt', c.packetSentAt, ['handover', 'wire'] as const),
    sendQueueDepth: int('sendQueueDepth', c.sendQueueDepth, 1, 1024),
    rxSlots,
    sendAreaBytes: int('sendAreaBytes', c.sendAreaBytes, 64, Math.min(65536, 2 ** MEM_ADDR_BITS - rxBytes)),
    fault: pick('fault', c.fault, ['none', 'no-stop-and-wait', 'eom-completes', 'rest-on-hold', 'header-guard-data', 'pick-one-link', 'skip-one-block'] as const),
  });
}

/** Memory layout: the send area first, then each VL's receive area of rxSlots × 32 bytes. */
export function rxAreaBase(c: Readonly<T9000Config>, vl: number): number {
  return c.sendAreaBytes + vl * c.rxSlots * 32;
}
export function memoryBytes(c: Readonly<T9000Config>): number {
  return c.sendAreaBytes + c.virtualLinks.length * c.rxSlots * 32;
}

/**
 * A queue entry handed from the virtual link control to a transmit port
 * (32 bits): isAck(1) at bit 31, last(1) at 22, len(6) at 16, addr(16) at 0
 * (a send-area address). The entry's virtual link travels beside it on a
 * VL_BITS-wide signal (ackVl/dataVl), since more than 255 control blocks do
 * not fit the word. Arithmetic, not bit operators, so the value stays a
 * non-negative number.
 */
export function packEntry(e: { ack: boolean; last: boolean; len: number; addr: number }): number {
  return (e.ack ? 2 ** 31 : 0) + packDataEntry(e.last, e.len, e.addr);
}
/** packEntry of a data packet's entry, without an object (the control's pick runs every cycle). */
export function packDataEntry(last: boolean, len: number, addr: number): number {
  return (last ? 2 ** 22 : 0) + len * 2 ** 16 + addr;
}
export function unpackEntry(x: number): { ack: boolean; last: boolean; len: number; addr: number } {
  return {
    ack: x >= 2 ** 31,
    last: Math.floor(x / 2 ** 22) % 2 === 1,
    len: Math.floor(x / 2 ** 16) % 64,
    addr: x % 2 ** 16,
  };
}
