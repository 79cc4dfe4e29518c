/**
 * Transmit order of a DS-link end (docs/dslink.md#transmit-priority, spec
 * §16 V5), under random traffic both ways, receiver stalls and start
 * orders:
 *  - at every token the transmitter takes, the choice is FCT > normal >
 *    NULL: an FCT whenever one is owed and FCTs are allowed (after a NULL),
 *    else a normal token whenever Run, a character waits and there is
 *    credit, else neither (a NULL);
 *  - on the wires: each direction begins with a NULL (the first bits form
 *    the NULL pattern), no FCT goes before the first NULL, and the first
 *    data character on a direction starts only after the first FCT on the
 *    other direction has ended (data only after an FCT has been received).
 * Negative control: a sender that ignores its credit (config ignoreCredit)
 * against a slow receiver sends normal tokens the rule forbids.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DsLinkConfig } from '../../rtl/dslink/config.ts';
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { CTL_EOM, CTL_EOP, CTL_ESC, CTL_FCT, decodeBits, dsDecode, LEN_CTL, LEN_DATA } from '../../rtl/dslink/tokens.ts';
import { makeBench, type BenchOptions } from './bench.ts';

interface Wire {
  d: number[];
  s: number[];
  /** Cycle of each bit (each change of D xor S). */
  at: number[];
  x: number;
}

/** Runs the bench and returns the choice violations and the wire order facts of both directions. */
function transmitOrder(opts: BenchOptions, cycles: number) {
  const { bench, sim } = makeBench(opts, 'plain');
  const { a, b } = bench.pair;
  const bad: string[] = [];
  const wires: Wire[] = [
    { d: [], s: [], at: [], x: 0 },
    { d: [], s: [], at: [], x: 0 },
  ];
  const ends: [string, DsLinkEnd][] = [
    ['a', a],
    ['b', b],
  ];
  sim.observe({
    onCycle: (q) => {
      ends.forEach(([name, e], k) => {
        const t = e.tokens;
        const w = wires[k]!;
        const d = q.peek(e.dOut);
        const s = q.peek(e.sOut);
        w.d.push(d);
        w.s.push(s);
        if ((d ^ s) !== w.x) w.at.push(q.cycle);
        w.x = d ^ s;
        if (bad.length > 5 || q.peek(t.take) !== 1 || q.peek(t.enable) !== 1) return;
        const fct = q.peek(t.fctAllowed) === 1 && q.peek(t.nullSent) === 1 && q.peek(t.fctOwed) === 1;
        const normal = q.peek(t.run) === 1 && q.peek(t.txEmpty) === 0 && q.peek(t.creditOk) === 1;
        const got = q.peek(t.sendFct) === 1 ? 'FCT' : q.peek(t.sendNormal) === 1 ? 'normal' : 'NULL/none';
        const want = fct ? 'FCT' : normal ? 'normal' : 'NULL/none';
        if (got !== want) bad.push(`cycle ${q.cycle}: ${name} takes ${got} where the priority gives ${want}`);
      });
    },
  });
  sim.step(cycles);
  const order = wires.map((w) => {
    const bits = dsDecode(w.d, w.s);
    const dec = decodeBits(bits);
    // classify every framed unit (decodeBits' starts: a NULL is two units, ESC then FCT)
    let fctEnd = -1;
    let charStart = -1;
    let chars = 0;
    let esc = false;
    for (const k of dec.starts) {
      const ctl = bits[k + 1] === 1;
      if (k + (ctl ? LEN_CTL : LEN_DATA) > bits.length) break; // a unit the run ended inside
      const code = ctl ? bits[k + 2]! | (bits[k + 3]! << 1) : -1;
      if (ctl && code === CTL_ESC) esc = true;
      else {
        if (ctl && code === CTL_FCT && !esc && fctEnd < 0) fctEnd = w.at[k + LEN_CTL - 1]!;
        if (!ctl || code === CTL_EOP || code === CTL_EOM) {
          if (charStart < 0) charStart = w.at[k]!;
          chars++;
        }
        esc = false;
      }
    }
    return { error: dec.error, syncBit: dec.syncBit, fctEnd, charStart, chars };
  });
  return { bad, order, delivered: [bench.sinkB.got.length, bench.sinkA.got.length] };
}

const scenario = fc.record({
  aToB: fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 80 }),
  bToA: fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 40 }),
  popA: fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }).map((p) => [true, ...p]),
  popB: fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }).map((p) => [true, ...p]),
  startA: fc.integer({ min: 0, max: 3000 }),
  startB: fc.integer({ min: 0, max: 3000 }),
  cap: fc.integer({ min: 1, max: 7 }).map((k) => 8 * k),
});

describe('DS-link transmit order: FCT > normal > NULL, FCTs after a NULL, data after an FCT', () => {
  it('property: every take follows the priority; each direction starts with a NULL and sends data only after the first FCT came back', () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const cfg: Partial<DsLinkConfig> = { creditCap: sc.cap };
        const r = transmitOrder({ ...sc, a: cfg, b: cfg }, 9000 + 300 * (sc.aToB.length + sc.bToA.length));
        expect(r.bad).toEqual([]);
        expect(r.delivered).toEqual([sc.aToB.length, sc.bToA.length]);
        // the wire classification sees exactly the characters sent
        expect(r.order.map((o) => o.chars)).toEqual([sc.aToB.length, sc.bToA.length]);
        for (const [k, o] of r.order.entries()) {
          expect(o.error).toBeNull();
          // the first 8 bits on the wires are a NULL: its 7-bit pattern ends at bit 7
          expect(o.syncBit).toBe(7);
          const other = r.order[1 - k]!;
          if (o.chars > 0) {
            expect(other.fctEnd).toBeGreaterThan(0);
            expect(o.charStart).toBeGreaterThan(other.fctEnd);
          }
        }
      }),
      { numRuns: 15 },
    );
  }, 120_000);

  it('negative control: a sender that ignores credit against a slow receiver takes normal tokens the priority forbids', () => {
    const aToB = Array.from({ length: 120 }, (_, k) => k & 0xff);
    const popB = [true, ...Array.from({ length: 60 }, () => false)];
    const ok = transmitOrder({ aToB, popB, a: { creditCap: 16 }, b: { rxBufferTokens: 16, creditCap: 16 } }, 6000);
    expect(ok.bad).toEqual([]);
    const broken = transmitOrder({ aToB, popB, a: { creditCap: 16, ignoreCredit: true }, b: { rxBufferTokens: 16, creditCap: 16 } }, 6000);
    expect(broken.bad.join('\n')).toMatch(/a takes normal where the priority gives NULL\/none/);
  });
});
