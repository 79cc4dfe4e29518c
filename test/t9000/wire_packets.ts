/**
 * The packets on one direction of a DS-link, read back from its recorded
 * Data and Strobe wires with the reference decoder (rtl/dslink/tokens.ts):
 * checks that every packet starts with the node header `dest` (1 or 2
 * bytes, most significant first) and then carries only data up to its EOP
 * or EOM (docs/t9000.md#addressing); returns how many packets it read.
 */
import { expect } from 'vitest';
import { CHAR_EOM, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { decodeBits, dsDecode } from '../../rtl/dslink/tokens.ts';

export function nodeHeaderPackets(wires: { d: readonly number[]; s: readonly number[] }, headerBytes: 1 | 2, dest: number): number {
  const dec = decodeBits(dsDecode([...wires.d], [...wires.s]));
  expect(dec.error).toBeNull();
  const chars = dec.tokens.flatMap((t) => (t.kind === 'char' ? [t.ch] : []));
  let packets = 0;
  let k = 0;
  while (k < chars.length) {
    const hdr = headerBytes === 1 ? chars[k]! : chars[k]! * 256 + chars[k + 1]!;
    expect(hdr).toBe(dest);
    k += headerBytes;
    while (chars[k] !== CHAR_EOP && chars[k] !== CHAR_EOM) {
      expect(chars[k]).toBeLessThan(256);
      k++;
    }
    k++;
    packets++;
  }
  return packets;
}
