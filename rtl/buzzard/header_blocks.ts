/**
 * Message header blocks and the control unit's node-memory layout (seed 002
 * §4.1.1 Figs 4.1–4.4, §5.1.1 queues, §5.1.2; digest docs/sources.md, buzzard
 * §3, §8.7, A7, A14). Pure constants and helpers shared by the control unit
 * (control_unit.ts), the CPU stand-in, testbenches and harnesses.
 *
 * Node memory is 32-bit words addressed by BYTE (DESIGN.md NodeMemory: word
 * aligned, 24-bit addresses). Every header-block field is one 32-bit word.
 * Message data is BIG-ENDIAN within a word (a 68020-like CPU, seed §4.1.1):
 * byte address a is bits (3 - a%4)·8 + 7 .. (3 - a%4)·8 of word a>>2, and
 * the 16-bit packet word for bytes a, a+1 (a even) is the upper half of the
 * memory word when a%4 = 0, the lower half when a%4 = 2. On the wire the
 * first byte of a 16-bit word is its high byte; an odd-length message's last
 * packet word carries 0 in its low (padding) byte.
 *
 * Field offsets below are in 32-bit words from the block address.
 *
 *   Send (Fig. 4.1, fields from the §4.1.1 prose):
 *     0 queue link, 1 destination, 2 type, 3 length (bytes), 4 buffer pointer,
 *     5 completion flag
 *   Broadcast (Fig. 4.2, "similar ... except that a destination field is no
 *   longer required"):
 *     0 queue link, 1 type, 2 length, 3 buffer pointer, 4 completion flag
 *   Near-neighbour broadcast (Fig. 4.3, printed field list):
 *     0 queue link, 1 type, 2 length, 3 buffer pointer, 4 completion flag,
 *     5 number of destinations, 6.. destination 1 .. destination k (k ≤ n)
 *   Receive (Fig. 4.4, printed field list):
 *     0 queue link, 1 source, 2 type, 3 length, 4 buffer pointer,
 *     5 completion flag, 6 queue link (second), 7 extra field 1,
 *     8 extra field 2
 *
 * Values: source / type = ANY (0xFFFFFFFF) in a receive; types are 16 bits
 * (A7), 0x8000..0xFFFF the system range (seed §3.1.1 gives users 0..32767,
 * A17; a completed system-type message raises a CPU interrupt, §5.1.2);
 * buffer pointer 0 = null buffer (receive: use a system buffer, §4.1.1).
 * Address 0 is never a valid header block (0 is the null queue link).
 *
 * Completion flag word: bits 1..0 = progress, 0 idle (A: initial value not
 * stated, [interp] 0) → 1 in progress → 3 complete (§4.1.1); bits 15..8 = an
 * error code (CU_ERR) written together with 3 when the instruction ended in
 * an error or the message was truncated. So a user polls `flag & 3`.
 *
 * Extra fields of a receive block (seed §5.1.2): while queued as expected,
 * extra 1 = first byte address, extra 2 = last byte address of the buffer;
 * while the message arrives, extra 1 = next byte address and extra 2 = last
 * byte address of the message (the node-memory copy of the arrival tracking
 * information, spec §8.7 receive path 3–4).
 *
 * The control unit's node-memory area (cuLayout) sits at the top of memory:
 *
 *   [0, poolBase)             user memory (header blocks, user buffers)
 *   [poolBase, tablesBase)    system pool: sysBuffers units of
 *                             SYS_BLOCK_BYTES (a receive-layout header block,
 *                             padded) + sysBufBytes of data (§5.1.1 "pool of
 *                             available system message buffers"; the
 *                             unexpected message's header block and data
 *                             buffer come from the same unit)
 *   arrivalBase               message arrival table: one 32-bit word per
 *                             (source, first-step direction), index
 *                             source·(n+1) + direction, direction 0 for a
 *                             broadcast (readings.md broadcast-arrival-key);
 *                             the word is the header
 *                             block address | ARR_TRUNC | ARR_SYS, 0 = none.
 *                             (The seed hashes it on (source, type); later
 *                             packets carry no type, A7, so here it is keyed
 *                             by the ATU key, direct-mapped.)
 *   expectedBase              expected message queues: hashBuckets × (head,
 *                             tail) words, hash of (source, type) (§5.1.1)
 *   unclaimedBase             unclaimed message queues: hashBuckets × (head,
 *                             tail) words, same hash
 *
 * On chip (control_unit.ts registers): the send-queue pointer table (head,
 * tail, length per slot: Fig. 5.2), the ANY expected queue (head, tail,
 * count: §5.1.1 "special table entry" + "on-chip counter"), the broadcast
 * queue, the list of arriving unexpected messages, the pool free map.
 */
import type { BuzzardConfig } from './config.ts';

export const ANY = 0xffffffff;
export const NULL_BUFFER = 0;

/** Instruction codes on CpuStandIn.instrOp (DESIGN.md). */
export const OP = { send: 1, broadcast: 2, nnBroadcast: 3, receive: 4, release: 5 } as const;
export const OP_NAMES = ['none', 'send', 'broadcast', 'nn-broadcast', 'receive', 'buffer release', 'op6', 'op7'] as const;

/** Send header block (Fig. 4.1), word offsets. */
export const SEND = { link: 0, dest: 1, type: 2, length: 3, buffer: 4, flag: 5, words: 6 } as const;
/** Broadcast header block (Fig. 4.2), word offsets. */
export const BCAST = { link: 0, type: 1, length: 2, buffer: 3, flag: 4, words: 5 } as const;
/** Near-neighbour broadcast header block (Fig. 4.3), word offsets; destinations from dest0. */
export const NNB = { link: 0, type: 1, length: 2, buffer: 3, flag: 4, count: 5, dest0: 6 } as const;
/** Receive header block (Fig. 4.4), word offsets. */
export const RECV = { link: 0, source: 1, type: 2, length: 3, buffer: 4, flag: 5, link2: 6, extra1: 7, extra2: 8, words: 9 } as const;

/** Words of an NN-broadcast block with k destinations. */
export function nnbWords(k: number): number {
  return NNB.dest0 + k;
}

export const FLAG = { idle: 0, inProgress: 1, complete: 3 } as const;

/** Error codes: in the control unit's `error` register and bits 15..8 of a completion flag. */
export const CU_ERR = {
  none: 0,
  /** Header block address 0, not word aligned, or the block not inside user memory. */
  badBlock: 1,
  /** Destination (or NN-broadcast destination) outside the cube or not a neighbour. */
  badDest: 2,
  /** Send to the sending node itself (the output port has no path to O_0). */
  selfSend: 3,
  /** Buffer pointer not word aligned, or buffer + length outside memory below the CU tables. */
  badBuffer: 4,
  /** The arriving message was longer than the receive buffer: data truncated to the buffer. */
  truncated: 5,
  /** Unknown instruction code. */
  badOp: 6,
  /** Buffer release of an address that is not a system buffer handed to the user. */
  badRelease: 7,
  /** NN-broadcast: number of destinations 0 or > n, or a destination listed twice. */
  badCount: 8,
  /** Receive source outside the cube or equal to the receiving node. */
  badSource: 9,
  /** Type neither ANY nor 0..0xFFFF. */
  badType: 10,
} as const;

export const CU_ERR_TEXT: Record<number, string> = {
  0: 'no error',
  1: 'bad header block address',
  2: 'destination outside the cube or not a neighbour',
  3: 'send to the sending node itself',
  4: 'bad buffer pointer or length',
  5: 'message longer than the receive buffer (truncated)',
  6: 'unknown instruction',
  7: 'buffer release of an address that is not a system buffer held by the user',
  8: 'bad number of NN-broadcast destinations (0, > n, or repeated)',
  9: 'receive source outside the cube or the node itself',
  10: 'type is neither ANY nor 0..65535',
};

/** First system type (seed §3.1.1 users 0..32767; §5.1.2 system range → CPU interrupt). */
export const SYSTEM_TYPE_MIN = 0x8000;

/** Bytes of a system unit's header block (9 receive words padded to 12). */
export const SYS_BLOCK_BYTES = 48;

/** Arrival table entry flags (low bits of the header block address). */
export const ARR_TRUNC = 1;
export const ARR_SYS = 2;

/** Compose / split a completion flag word. */
export function flagWord(progress: number, err = 0): number {
  return ((err & 0xff) << 8) | (progress & 3);
}
export function flagProgress(w: number): number {
  return w & 3;
}
export function flagError(w: number): number {
  return (w >>> 8) & 0xff;
}

/**
 * First-packet prefix (A7): which 16-bit words the first packet's data starts
 * with, for `firstPacketPrefixBytes` 0, 2, 4, 6, 8:
 *   0: none; 2: type; 4: length (32 b, high word first); 6: type, length
 *   (the A7 default); 8: type, length, one reserved 0 word.
 * Without a length the receiver takes the message length from the matching
 * receive block's length field (so unexpected messages cannot be sized);
 * without a type, messages have type 0.
 */
export interface PrefixLayout {
  words: number;
  /** Index of the type word, -1 if none. */
  typeAt: number;
  /** Index of the length's high word (low word follows), -1 if none. */
  lenAt: number;
}
export function prefixLayout(bytes: number): PrefixLayout {
  switch (bytes) {
    case 0:
      return { words: 0, typeAt: -1, lenAt: -1 };
    case 2:
      return { words: 1, typeAt: 0, lenAt: -1 };
    case 4:
      return { words: 2, typeAt: -1, lenAt: 0 };
    case 6:
      return { words: 3, typeAt: 0, lenAt: 1 };
    case 8:
      return { words: 4, typeAt: 0, lenAt: 1 };
    default:
      throw new RangeError(`firstPacketPrefixBytes: ${bytes} is not 0, 2, 4, 6 or 8`);
  }
}

/** The prefix words of a message (A7). */
export function prefixWords(bytes: number, type: number, length: number): number[] {
  const p = prefixLayout(bytes);
  const out = new Array<number>(p.words).fill(0);
  if (p.typeAt >= 0) out[p.typeAt] = type & 0xffff;
  if (p.lenAt >= 0) {
    out[p.lenAt] = (length >>> 16) & 0xffff;
    out[p.lenAt + 1] = length & 0xffff;
  }
  return out;
}

/** Packets of a message: the 16-bit words after the source word, split by the payload (A6). */
export function packetSplit(cfg: Pick<BuzzardConfig, 'packetBytes' | 'firstPacketPrefixBytes'>, length: number): number[] {
  const per = cfg.packetBytes / 2 - 2; // words after destination and source
  const total = prefixLayout(cfg.firstPacketPrefixBytes).words + Math.ceil(length / 2);
  const out: number[] = [];
  let left = total;
  do {
    const k = Math.min(left, per);
    out.push(k);
    left -= k;
  } while (left > 0);
  return out;
}

export interface CuLayoutOptions {
  /** Expected / unclaimed hash buckets, a power of two 1..256 (§5.1.1 "programmable" range). Default 16. */
  hashBuckets?: number;
  /** System buffer units, 1..32 (a free map register). Default 8. */
  sysBuffers?: number;
  /** Data bytes per system buffer, a multiple of 4. Default 1024. */
  sysBufBytes?: number;
}

export interface CuLayout {
  memBytes: number;
  /** End of user memory = start of the system pool. */
  poolBase: number;
  unitBytes: number;
  sysBuffers: number;
  sysBufBytes: number;
  /** End of the pool = start of the CU tables; buffers may lie below it. */
  tablesBase: number;
  arrivalBase: number;
  expectedBase: number;
  unclaimedBase: number;
  hashBuckets: number;
}

export function cuLayout(cfg: Pick<BuzzardConfig, 'n' | 'memoryWords'>, opts: CuLayoutOptions = {}): CuLayout {
  const H = opts.hashBuckets ?? 16;
  const K = opts.sysBuffers ?? 8;
  const B = opts.sysBufBytes ?? 1024;
  if (!(Number.isInteger(H) && H >= 1 && H <= 256 && (H & (H - 1)) === 0)) throw new RangeError(`cu.hashBuckets: ${H} is not a power of two in 1..256`);
  if (!(Number.isInteger(K) && K >= 1 && K <= 32)) throw new RangeError(`cu.sysBuffers: ${K} is outside 1..32`);
  if (!(Number.isInteger(B) && B >= 4 && B % 4 === 0 && B <= 1 << 20)) throw new RangeError(`cu.sysBufBytes: ${B} is not a multiple of 4 in 4..1048576`);
  const memBytes = cfg.memoryWords * 4;
  const arrivalWords = (cfg.n + 1) << cfg.n; // per source: broadcast (0), directions 1..n
  const tableBytes = 4 * (arrivalWords + 4 * H);
  const tablesBase = memBytes - tableBytes;
  const unitBytes = SYS_BLOCK_BYTES + B;
  const poolBase = tablesBase - K * unitBytes;
  if (poolBase < 1024) {
    throw new RangeError(
      `control unit layout does not fit ${cfg.memoryWords} words of node memory: tables ${tableBytes} B + pool ${K} × ${unitBytes} B leave ${poolBase} B of user memory (need 1024)`,
    );
  }
  return {
    memBytes,
    poolBase,
    unitBytes,
    sysBuffers: K,
    sysBufBytes: B,
    tablesBase,
    arrivalBase: tablesBase,
    expectedBase: tablesBase + 4 * arrivalWords,
    unclaimedBase: tablesBase + 4 * arrivalWords + 8 * H,
    hashBuckets: H,
  };
}

/** Arrival table word address for (source, direction 1..n), or (source, 0) for a broadcast. */
export function arrivalAddr(lay: CuLayout, n: number, src: number, dir: number): number {
  return lay.arrivalBase + 4 * (src * (n + 1) + dir);
}

/** Hash of (source, type) for the expected and unclaimed queues (§5.1.1). */
export function hashSrcType(src: number, type: number, buckets: number): number {
  return ((src * 31) ^ type ^ (type >>> 5)) & (buckets - 1);
}

/** Header block address of system unit u; its data buffer is SYS_BLOCK_BYTES further. */
export function sysUnitBlock(lay: CuLayout, u: number): number {
  return lay.poolBase + u * lay.unitBytes;
}
export function sysUnitBuffer(lay: CuLayout, u: number): number {
  return sysUnitBlock(lay, u) + SYS_BLOCK_BYTES;
}
/** The unit whose data buffer starts at `addr`, or -1. */
export function sysUnitOfBuffer(lay: CuLayout, addr: number): number {
  const off = addr - lay.poolBase - SYS_BLOCK_BYTES;
  if (off < 0 || off % lay.unitBytes !== 0) return -1;
  const u = off / lay.unitBytes;
  return u < lay.sysBuffers ? u : -1;
}

// ------------------------------------------------------------ harness helpers

/** Word access to a node memory (e.g. `sim.peekMem` / `sim.pokeMem` on NodeMemory.mem). */
export interface WordMemory {
  read(wordIndex: number): number;
  write(wordIndex: number, value: number): void;
}

function wordIndex(addr: number): number {
  if (addr % 4 !== 0) throw new RangeError(`address 0x${addr.toString(16)} is not word aligned`);
  return addr >>> 2;
}

export function readWord(m: WordMemory, addr: number): number {
  return m.read(wordIndex(addr));
}
export function writeWord(m: WordMemory, addr: number, v: number): void {
  m.write(wordIndex(addr), v >>> 0);
}

/** Write bytes big-endian from byte address `addr` (read-modify-write at the ends). */
export function writeBytes(m: WordMemory, addr: number, bytes: ArrayLike<number>): void {
  for (let k = 0; k < bytes.length; k++) {
    const a = addr + k;
    const wi = a >>> 2;
    const sh = (3 - (a & 3)) * 8;
    const w = m.read(wi);
    m.write(wi, ((w & ~(0xff << sh)) | ((bytes[k]! & 0xff) << sh)) >>> 0);
  }
}

export function readBytes(m: WordMemory, addr: number, len: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < len; k++) {
    const a = addr + k;
    out.push((m.read(a >>> 2) >>> ((3 - (a & 3)) * 8)) & 0xff);
  }
  return out;
}

export interface SendBlock {
  dest: number;
  type: number;
  length: number;
  buffer: number;
}
export function writeSendBlock(m: WordMemory, addr: number, b: SendBlock): void {
  const w = (k: number, v: number): void => writeWord(m, addr + 4 * k, v);
  w(SEND.link, 0);
  w(SEND.dest, b.dest);
  w(SEND.type, b.type);
  w(SEND.length, b.length);
  w(SEND.buffer, b.buffer);
  w(SEND.flag, 0);
}

export interface BroadcastBlock {
  type: number;
  length: number;
  buffer: number;
}
export function writeBroadcastBlock(m: WordMemory, addr: number, b: BroadcastBlock): void {
  const w = (k: number, v: number): void => writeWord(m, addr + 4 * k, v);
  w(BCAST.link, 0);
  w(BCAST.type, b.type);
  w(BCAST.length, b.length);
  w(BCAST.buffer, b.buffer);
  w(BCAST.flag, 0);
}

export function writeNnBroadcastBlock(m: WordMemory, addr: number, b: BroadcastBlock & { dests: readonly number[] }): void {
  const w = (k: number, v: number): void => writeWord(m, addr + 4 * k, v);
  w(NNB.link, 0);
  w(NNB.type, b.type);
  w(NNB.length, b.length);
  w(NNB.buffer, b.buffer);
  w(NNB.flag, 0);
  w(NNB.count, b.dests.length);
  b.dests.forEach((d, k) => w(NNB.dest0 + k, d));
}

export interface RecvBlock {
  source: number;
  type: number;
  length: number;
  buffer: number;
}
export function writeRecvBlock(m: WordMemory, addr: number, b: RecvBlock): void {
  const w = (k: number, v: number): void => writeWord(m, addr + 4 * k, v);
  w(RECV.link, 0);
  w(RECV.source, b.source);
  w(RECV.type, b.type);
  w(RECV.length, b.length);
  w(RECV.buffer, b.buffer);
  w(RECV.flag, 0);
  w(RECV.link2, 0);
  w(RECV.extra1, 0);
  w(RECV.extra2, 0);
}

export interface RecvResult {
  source: number;
  type: number;
  length: number;
  buffer: number;
  flag: number;
  progress: number;
  error: number;
}
export function readRecvBlock(m: WordMemory, addr: number): RecvResult {
  const r = (k: number): number => readWord(m, addr + 4 * k);
  const flag = r(RECV.flag);
  return { source: r(RECV.source), type: r(RECV.type), length: r(RECV.length), buffer: r(RECV.buffer), flag, progress: flagProgress(flag), error: flagError(flag) };
}

/** Completion flag word offset (in words) of the block an instruction takes. */
export function flagOffset(op: number): number {
  return op === OP.send || op === OP.receive ? SEND.flag : BCAST.flag;
}
