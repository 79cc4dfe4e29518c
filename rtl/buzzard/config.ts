/**
 * Configuration of the Buzzard communication processor and its n-cube.
 * Every field names the seed section it comes from (seed 002, digested in
 * docs/sources.md) or the project's reading (A1–A20, docs/readings.md).
 */

export type RoutingMode = 'quasi-adaptive' | 'e-cube';

export interface BuzzardConfig {
  /** Cube degree n, 1..10 (§5.4.1 sizes the chip for n = 10; §5.6 simulates n = 6). */
  n: number;
  /** CAM rows = packets per PBU, 2..16 (§5.4.2: 13; the RAM slot field is 4 bits). */
  camHeight: number;
  /** Packet size in bytes including the 4-byte header: 32 (§5.6) or 64 (§5.7 variant). */
  packetBytes: 32 | 64;
  /** Post-preheader sync "10" on the wire (A2). Off: head latency 31 cycles per hop; on: 33. */
  strictFraming: boolean;
  /** Node input port FIFO depth in 16-bit words, 2..256 (A14: 16 = one packet). */
  fifoDepth: number;
  /** Arrival tracking unit entries m, 1..32 (A14: m = n; 0 means "n"). */
  atuEntries: number;
  /** Crossbar arbiter request-to-grant latency in cycles (§5.4.3: two cycles budgeted). */
  arbiterLatency: number;
  /** First-hop choice (§5.2): quasi-adaptive (shortest viable send queue) or fixed e-cube. */
  routing: RoutingMode;
  /** Refuse contrary packets that would fill a CAM with contrary packets (§5.3). Off only for negative-control tests. */
  contraryRefusal: boolean;
  /** Bytes of type + message length at the start of a message's first packet (A7: 6; 0 allowed). */
  firstPacketPrefixBytes: number;
  /** Node memory size in 32-bit words, 1024..1048576. */
  memoryWords: number;
  /** Control-unit latencies in cycles (the seed gives none, A14). */
  cu: {
    /** Cycles to fetch or store 32 bits of node memory. */
    memoryAccess: number;
    /** Cycles from an instruction being issued to its first action. */
    instructionStart: number;
    /** Cycles per queue entry examined in a search. */
    queueSearchStep: number;
  };
}

export const DEFAULT_BUZZARD: BuzzardConfig = {
  n: 6,
  camHeight: 13,
  packetBytes: 32,
  strictFraming: false,
  fifoDepth: 16,
  atuEntries: 0,
  arbiterLatency: 2,
  routing: 'quasi-adaptive',
  contraryRefusal: true,
  firstPacketPrefixBytes: 6,
  memoryWords: 65536,
  cu: { memoryAccess: 1, instructionStart: 4, queueSearchStep: 1 },
};

/** Quantities derived from a config, used by every unit. */
export interface BuzzardGeometry {
  n: number;
  nodes: number;
  /** Bits of the L field (4 for 32-byte packets, 5 for 64-byte). */
  lengthBits: number;
  /** Preheader bits: C + P(4) + L. */
  preheaderBits: number;
  /** 16-bit words per packet including destination and source (16 or 32). */
  packetWords: number;
  /** Largest L: words after the destination word. */
  maxL: number;
  /** RAM words reserved per slot (a power of two >= maxL). */
  slotWords: number;
  /** CAM row layout: [name, lsb, width] from lsb up: slot | D | L | P | C. */
  camFields: readonly (readonly [string, number, number])[];
  camWidth: number;
  slotBits: number;
  /** Ports: 0 = node input/output port, 1..n links. */
  ports: number;
  atuEntries: number;
  /** Data bytes a packet can carry after the 4 header bytes. */
  payloadBytes: number;
}

export function checkConfig(partial: Partial<BuzzardConfig> = {}): BuzzardConfig {
  const c: BuzzardConfig = { ...DEFAULT_BUZZARD, ...partial, cu: { ...DEFAULT_BUZZARD.cu, ...(partial.cu ?? {}) } };
  const int = (field: string, v: unknown, lo: number, hi: number): void => {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
      throw new RangeError(`buzzard.${field}: ${String(v)} is outside ${lo}..${hi}`);
    }
  };
  int('n', c.n, 1, 10);
  int('camHeight', c.camHeight, 2, 16);
  if (c.packetBytes !== 32 && c.packetBytes !== 64) throw new RangeError(`buzzard.packetBytes: ${String(c.packetBytes)} is not 32 or 64`);
  if (typeof c.strictFraming !== 'boolean') throw new RangeError('buzzard.strictFraming: must be true or false');
  int('fifoDepth', c.fifoDepth, 2, 256);
  int('atuEntries', c.atuEntries, 0, 32);
  int('arbiterLatency', c.arbiterLatency, 0, 8);
  if (c.routing !== 'quasi-adaptive' && c.routing !== 'e-cube') throw new RangeError(`buzzard.routing: '${String(c.routing)}' is not 'quasi-adaptive' or 'e-cube'`);
  if (typeof c.contraryRefusal !== 'boolean') throw new RangeError('buzzard.contraryRefusal: must be true or false');
  int('firstPacketPrefixBytes', c.firstPacketPrefixBytes, 0, 8);
  if (c.firstPacketPrefixBytes % 2 !== 0) throw new RangeError(`buzzard.firstPacketPrefixBytes: ${c.firstPacketPrefixBytes} is not a whole number of 16-bit words`);
  int('memoryWords', c.memoryWords, 1024, 1 << 20);
  int('cu.memoryAccess', c.cu.memoryAccess, 1, 64);
  int('cu.instructionStart', c.cu.instructionStart, 0, 1000);
  int('cu.queueSearchStep', c.cu.queueSearchStep, 0, 100);
  return c;
}

export function geometry(c: BuzzardConfig): BuzzardGeometry {
  const lengthBits = c.packetBytes === 32 ? 4 : 5;
  const packetWords = c.packetBytes / 2;
  const maxL = packetWords - 1;
  const slotWords = packetWords; // 16 or 32: a power of two >= maxL
  const slotBits = 4; // §5.4.2: 4 bits of RAM slot number (camHeight <= 16)
  // CAM row, lsb first: slot(4) | destination(16) | L | next port(4) | contrary(1)  (§5.4.2: 29 bits for L = 4)
  const camFields = [
    ['slot', 0, slotBits],
    ['dest', slotBits, 16],
    ['len', slotBits + 16, lengthBits],
    ['port', slotBits + 16 + lengthBits, 4],
    ['contrary', slotBits + 16 + lengthBits + 4, 1],
  ] as const;
  return {
    n: c.n,
    nodes: 1 << c.n,
    lengthBits,
    preheaderBits: 1 + 4 + lengthBits,
    packetWords,
    maxL,
    slotWords,
    camFields,
    camWidth: slotBits + 16 + lengthBits + 4 + 1,
    slotBits,
    ports: c.n + 1,
    atuEntries: c.atuEntries === 0 ? c.n : c.atuEntries,
    payloadBytes: c.packetBytes - 4,
  };
}
