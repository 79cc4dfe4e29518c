/**
 * Encode → wires → decode is the identity (docs/dslink.md#tokens, #parity,
 * #data-and-strobe):
 *  - reference model: random token streams → bits → Data/Strobe → bits →
 *    tokens give back the stream;
 *  - RTL: random character streams both ways through a DsLinkPair with random
 *    receiver stalls; on the a → b wires exactly one of D, S changes in every
 *    cycle the transmitter runs, the recorded wires decode (reference decoder,
 *    parity checked) to NULLs, FCTs and exactly the characters sent, and the
 *    far core pops exactly the characters sent, in order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAR_EOM, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { decodeBits, dsDecode, dsEncode, encodeTokens, type Token } from '../../rtl/dslink/tokens.ts';
import { makeBench } from './bench.ts';

const charArb = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0, max: 255 }) },
  { weight: 1, arbitrary: fc.constantFrom(CHAR_EOP, CHAR_EOM) },
);
const tokenArb: fc.Arbitrary<Token> = fc.oneof(
  { weight: 6, arbitrary: charArb.map((ch) => ({ kind: 'char' as const, ch })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'fct' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'null' as const }) },
);

describe('DS-link token layer: reference model', () => {
  it('tokens → bits → D/S → bits → tokens is the identity', () => {
    fc.assert(
      fc.property(fc.array(tokenArb, { maxLength: 60 }), (body) => {
        const stream: Token[] = [{ kind: 'null' }, ...body, { kind: 'null' }];
        const bits = encodeTokens(stream);
        const { d, s } = dsEncode(bits);
        for (let k = 1; k < d.length; k++) expect((d[k]! ^ d[k - 1]!) + (s[k]! ^ s[k - 1]!)).toBe(1);
        expect(dsDecode(d, s)).toEqual(bits);
        const r = decodeBits(bits);
        expect(r.error).toBeNull();
        // the last NULL is still waiting for the next token's parity check
        expect(r.tokens).toEqual(stream.slice(0, -1));
      }),
      { numRuns: 200 },
    );
  });
});

describe('DS-link token layer: RTL pair', () => {
  it('random characters both ways with random stalls arrive exactly, and the wires decode to them', () => {
    fc.assert(
      fc.property(
        fc.array(charArb, { maxLength: 120 }),
        fc.array(charArb, { maxLength: 60 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 17 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 13 }),
        fc.constantFrom('plain' as const, 'activity' as const),
        (aToB, bToA, pa, pb, mode) => {
          const popA = pa.some((x) => x) ? pa : [true, ...pa];
          const popB = pb.some((x) => x) ? pb : [true, ...pb];
          const { bench, sim } = makeBench({ aToB, bToA, popA, popB }, mode);
          const { a, b } = bench.pair;
          const d: number[] = [];
          const s: number[] = [];
          let oneWire = true;
          sim.observe({
            onCycle: (x) => {
              const nd = x.peek(a.dOut);
              const ns = x.peek(a.sOut);
              if (d.length && x.peek(a.ser.busy) === 1 && (nd ^ d[d.length - 1]!) + (ns ^ s[s.length - 1]!) !== 1) oneWire = false;
              d.push(nd);
              s.push(ns);
            },
          });
          sim.runUntil(() => bench.sinkB.got.length === aToB.length && bench.sinkA.got.length === bToA.length, 2000 + 60 * (aToB.length + bToA.length) * 20);
          sim.step(40);
          expect(bench.sinkB.got.map((g) => g.ch)).toEqual(aToB);
          expect(bench.sinkA.got.map((g) => g.ch)).toEqual(bToA);
          expect(oneWire).toBe(true);
          const dec = decodeBits(dsDecode(d, s));
          expect(dec.error).toBeNull();
          const chars = dec.tokens.flatMap((t) => (t.kind === 'char' ? [t.ch] : []));
          expect(chars).toEqual(aToB);
          expect(sim.peek(a.errCount) + sim.peek(b.errCount)).toBe(0);
        },
      ),
      { numRuns: 25 },
    );
  });
});
