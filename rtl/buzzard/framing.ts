/**
 * Packet framing on a Buzzard link (DESIGN.md "Framing"; seed 002 §5.4 and
 * §5.4.8; spec §5, A2, A5, A20): pure helpers shared by the units' tests,
 * the testbenches and the closed-form timing model.
 *
 *   S1 S0 | C P[3:0] L[lb-1:0] | [Y1 Y0 if strict] | D[15:0] | (Y1 Y0 | W[15:0]) x L
 */

export interface PacketFields {
  contrary: number;
  /** Next port at the receiving node (0..15). */
  port: number;
  /** Words after the destination word (1..maxL). */
  len: number;
  dest: number;
  /** The L words after the destination: source word, then data. */
  words: readonly number[];
}

/** The 9-bit (or 10-bit) preheader value, C in the most significant bit (A20 order C, P, L). */
export function packPreheader(contrary: number, port: number, len: number, lengthBits: number): number {
  return (contrary << (4 + lengthBits)) | (port << lengthBits) | len;
}

export function unpackPreheader(v: number, lengthBits: number): { contrary: number; port: number; len: number } {
  return { contrary: (v >> (4 + lengthBits)) & 1, port: (v >> lengthBits) & 15, len: v & ((1 << lengthBits) - 1) };
}

/** Source word: node number in the low bits, first-step direction (port) in bits 15..12 (spec §6.5). */
export function sourceWord(src: number, firstPort: number): number {
  return ((firstPort & 15) << 12) | src;
}

export const BROADCAST_TAG = 0x8000; // destination bit 15 marks a broadcast packet (A11)

/** Bits on the wire for a packet with no stalls: 2 + pre + (strict ? 2 : 0) + 16 + 18·L. */
export function packetBits(len: number, preheaderBits: number, strict: boolean): number {
  return 2 + preheaderBits + (strict ? 2 : 0) + 16 + 18 * len;
}

/** Bits before the destination word's last bit is in: the head that a PBU must receive (27 non-strict). */
export function headBits(preheaderBits: number, strict: boolean): number {
  return 2 + preheaderBits + (strict ? 2 : 0) + 16;
}

/** The ideal bit sequence of a packet (no holds, no stalls), MSB first per field. */
export function encodePacket(p: PacketFields, lengthBits: number, strict: boolean): number[] {
  if (p.words.length !== p.len) throw new RangeError(`encodePacket: len ${p.len} but ${p.words.length} words`);
  const bits: number[] = [1, 0];
  const push = (v: number, w: number): void => {
    for (let b = w - 1; b >= 0; b--) bits.push((v >> b) & 1);
  };
  push(packPreheader(p.contrary, p.port, p.len, lengthBits), 5 + lengthBits);
  if (strict) bits.push(1, 0);
  push(p.dest, 16);
  for (const w of p.words) {
    bits.push(1, 0);
    push(w, 16);
  }
  return bits;
}

/**
 * Decode a bit stream as a receiver does: skip idle 0s, wait for "10"
 * (stretched 1s allowed), read the fields, accept stretched 1s at every sync.
 * Returns the packets found. Throws on a malformed stream.
 */
export function decodeStream(bits: readonly number[], lengthBits: number, strict: boolean): PacketFields[] {
  const out: PacketFields[] = [];
  let k = 0;
  const sync = (what: string): void => {
    if (bits[k] !== 1) throw new Error(`decodeStream: expected ${what} '1' at bit ${k}`);
    while (bits[k] === 1) k++;
    if (bits[k] !== 0) throw new Error(`decodeStream: stream ends inside ${what} at bit ${k}`);
    k++;
  };
  const read = (w: number): number => {
    let v = 0;
    for (let b = 0; b < w; b++) {
      const x = bits[k++];
      if (x === undefined) throw new Error('decodeStream: stream ends inside a field');
      v = (v << 1) | x;
    }
    return v;
  };
  while (k < bits.length) {
    if (bits[k] === 0) {
      k++;
      continue;
    }
    sync('start');
    const pre = unpackPreheader(read(5 + lengthBits), lengthBits);
    if (strict) sync('post-preheader sync');
    const dest = read(16);
    const words: number[] = [];
    for (let i = 0; i < pre.len; i++) {
      sync('word sync');
      words.push(read(16));
    }
    out.push({ ...pre, dest, words });
  }
  return out;
}
