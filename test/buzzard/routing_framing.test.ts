import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkConfig, geometry } from '../../rtl/buzzard/config.ts';
import { decodeStream, encodePacket, headBits, packetBits } from '../../rtl/buzzard/framing.ts';
import { broadcastPorts, hops, isContrary, nextPort, path, profitablePorts } from '../../rtl/buzzard/routing.ts';

describe('routing', () => {
  it("follows the seed's worked e-cube example (spec §6.2: 011010 -> 110100)", () => {
    expect(path(0b011010, 0b110100, nextPort(0b011010, 0b110100))).toEqual([0b011000, 0b011100, 0b010100, 0b110100]);
  });
  it('any first hop among the profitable ports then e-cube reaches the destination in distance hops', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }).chain((n) => fc.tuple(fc.constant(n), fc.nat((1 << n) - 1), fc.nat((1 << n) - 1))), ([n, s, d]) => {
        for (const p of profitablePorts(s, d, n)) {
          const route = path(s, d, p);
          expect(route).toHaveLength(hops(s, d));
          expect(route.at(-1)).toBe(d);
          expect(isContrary(s, d, p)).toBe(p !== Math.min(...profitablePorts(s, d, n)));
        }
      }),
    );
  });
  it('broadcast copies from PBU i go to the node input port, then every higher dimension (A11)', () => {
    expect(broadcastPorts(2, 6)).toEqual([0, 3, 4, 5, 6]);
    expect(broadcastPorts(6, 6)).toEqual([0]);
  });
});

describe('framing', () => {
  it('has the seed sizes: 29-bit CAM rows, 9-bit preheader, 27 head bits, 299 bits for a full strict packet', () => {
    const g = geometry(checkConfig());
    expect(g.camWidth).toBe(29);
    expect(g.preheaderBits).toBe(9);
    expect(headBits(9, false)).toBe(27);
    expect(headBits(9, true)).toBe(29);
    expect(packetBits(15, 9, true)).toBe(299); // spec §5: 11 + 18·16
    const g64 = geometry(checkConfig({ packetBytes: 64 }));
    expect([g64.preheaderBits, g64.maxL, g64.camWidth]).toEqual([10, 31, 30]);
  });
  it('encode and decode are inverse, with idle gaps and stretched sync bits', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(fc.record({ contrary: fc.nat(1), port: fc.nat(15), dest: fc.nat(0xffff), words: fc.array(fc.nat(0xffff), { minLength: 1, maxLength: 15 }) }), { maxLength: 4 }), fc.nat(3), (strict, pkts, stretch) => {
        const fields = pkts.map((p) => ({ ...p, len: p.words.length }));
        const bits: number[] = [0, 0];
        for (const p of fields) {
          const enc = encodePacket(p, 4, strict);
          // stretch every '1' that precedes a '0' at a sync position by repeating it
          for (let k = 0; k < enc.length; k++) {
            bits.push(enc[k]!);
            if (k === 0) for (let r = 0; r < stretch; r++) bits.push(1);
          }
          bits.push(0, 0, 0);
        }
        expect(decodeStream(bits, 4, strict)).toEqual(fields);
      }),
    );
  });
  it('rejects bad configuration with the field and the range', () => {
    expect(() => checkConfig({ n: 11 })).toThrow('buzzard.n: 11 is outside 1..10');
    expect(() => checkConfig({ camHeight: 1 })).toThrow('buzzard.camHeight: 1 is outside 2..16');
    expect(() => checkConfig({ packetBytes: 48 as 32 })).toThrow(/packetBytes: 48 is not 32 or 64/);
  });
});
