/**
 * Receive handover (docs/dslink.md#handover): `rxHandover: 'on-arrival'`
 * hands each token on in the cycle after its last bit instead of after the
 * next token's parity check.
 *  - delivery stays exact: random characters both ways with random stalls
 *    arrive exactly, in both kernel modes (property);
 *  - it saves exactly the 2 bit times of the check: on a saturated stream
 *    every character reaches the core 2 cycles earlier than with 'checked';
 *  - a parity error is still detected, and a character handed on before its
 *    check failed is reported (decoder suspectTotal, link-error `suspect`):
 *    for a value flip at every bit of a data token, every corrupted character
 *    the core received is counted as suspect (never silent). With 'checked'
 *    no corrupted character reaches the core at all.
 *  - negative control: the same property with the parity check skipped
 *    (checkParity: false) fails: corrupted characters arrive, none counted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DsLinkConfig } from '../../rtl/dslink/config.ts';
import { S_ERR_BASE } from '../../rtl/dslink/link_fsm.ts';
import { attachLinkEvents } from '../../harness/rtl/dslink_events.ts';
import { makeBench } from './bench.ts';

const ON_ARRIVAL: Partial<DsLinkConfig> = { rxHandover: 'on-arrival' };
const charArb = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x100, 0x101));

describe('DS-link on-arrival handover', () => {
  it('random characters both ways with random stalls arrive exactly (both kernel modes)', () => {
    fc.assert(
      fc.property(
        fc.array(charArb, { maxLength: 100 }),
        fc.array(charArb, { maxLength: 50 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 11 }),
        fc.constantFrom('plain' as const, 'activity' as const),
        (aToB, bToA, pat, mode) => {
          const popB = pat.some((x) => x) ? pat : [true, ...pat];
          const { bench, sim } = makeBench({ a: ON_ARRIVAL, b: ON_ARRIVAL, aToB, bToA, popB }, mode);
          sim.runUntil(() => bench.sinkB.got.length === aToB.length && bench.sinkA.got.length === bToA.length, 3000 + 400 * (aToB.length + bToA.length));
          expect(bench.sinkB.got.map((g) => g.ch)).toEqual(aToB);
          expect(bench.sinkA.got.map((g) => g.ch)).toEqual(bToA);
          expect(sim.peek(bench.pair.a.errCount) + sim.peek(bench.pair.b.errCount)).toBe(0);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('saves exactly the 2 bit times of the parity check on every character', () => {
    const sent = Array.from({ length: 40 }, (_, k) => (k * 13 + 5) & 0xff);
    const arrivals = (b: Partial<DsLinkConfig>) => {
      const { bench, sim } = makeBench({ b, aToB: sent });
      sim.runUntil(() => bench.sinkB.got.length === sent.length, 20_000);
      return bench.sinkB.got.map((g) => g.cycle);
    };
    const checked = arrivals({});
    const early = arrivals(ON_ARRIVAL);
    expect(early.map((t, k) => checked[k]! - t)).toEqual(sent.map(() => 2));
  });
});

/** A streams `sent` to b; the value of bit `bit` (0 = parity … 9 = last data bit) of the 30th data token is flipped on the wires. */
function flipCase(bit: number, b: Partial<DsLinkConfig>) {
  const sent = Array.from({ length: 120 }, (_, k) => (k * 7 + 3) & 0xff);
  const { bench, sim } = makeBench({ faults: true, b, aToB: sent });
  const { a, ab } = bench.pair;
  const ev = attachLinkEvents(sim, [{ end: bench.pair.b, node: 1 }]);
  sim.runUntil(() => bench.sinkB.got.length >= 20, 20_000);
  let tokens = 0;
  sim.runUntil((x) => {
    if (x.peek(a.tokens.normalOnWire) === 1 && x.peek(a.ser.left) === 9) tokens++;
    return tokens === 10;
  }, 2000);
  sim.step(bit); // the wire shows bit `bit` of this token in this cycle
  sim.poke(ab!.flipD, 1);
  sim.poke(ab!.flipS, 1);
  const err = sim.runUntil((x) => x.peek(bench.pair.b.linkState) >= S_ERR_BASE, 200);
  sim.runUntil(() => bench.sinkB.got.length >= sent.length - 30 && sim.peek(bench.pair.b.running) === 1, 60_000);
  sim.step(3000);
  const got = bench.sinkB.got.map((g) => g.ch);
  // what the core received = a prefix of the stream, corrupted characters, a suffix (the gap of a restart is not corruption)
  let p = 0;
  while (p < got.length && got[p] === sent[p]) p++;
  let q = 0;
  while (q < got.length - p && got[got.length - 1 - q] === sent[sent.length - 1 - q]) q++;
  const corrupted = got.length - p - q;
  const suspect = sim.peek(bench.pair.b.dec.suspectTotal);
  const evSuspect = ev.events.filter((e) => e.kind === 'link-error').reduce((s, e) => s + (e.suspect ?? 0), 0);
  return { detected: err.reached, corrupted, suspect, evSuspect };
}

/** The property: a flip is detected, and every corrupted character the core received was reported as suspect. */
function neverSilent(b: Partial<DsLinkConfig>): string[] {
  const bad: string[] = [];
  for (let bit = 0; bit < 10; bit++) {
    const r = flipCase(bit, b);
    if (!r.detected) bad.push(`bit ${bit}: not detected`);
    if (r.corrupted > r.suspect) bad.push(`bit ${bit}: ${r.corrupted} corrupted characters delivered, ${r.suspect} reported`);
    if (r.evSuspect !== r.suspect) bad.push(`bit ${bit}: link-error events report ${r.evSuspect} suspect, the decoder ${r.suspect}`);
  }
  return bad;
}

describe('DS-link on-arrival handover: parity errors', () => {
  it('every value flip in a data token is detected; every corrupted character delivered is reported as suspect', () => {
    expect(neverSilent(ON_ARRIVAL)).toEqual([]);
    // the option does hand corrupted data bits on (else this test proves nothing): flips of data bits 2..9
    const delivered = [2, 5, 9].map((bit) => flipCase(bit, ON_ARRIVAL));
    for (const r of delivered) expect(r).toMatchObject({ corrupted: 1, suspect: 1 });
  });

  it("with 'checked' handover no corrupted character reaches the core and none is suspect", () => {
    for (const bit of [0, 2, 5, 9]) expect(flipCase(bit, {})).toMatchObject({ detected: true, corrupted: 0, suspect: 0 });
  });

  it('negative control: skipping the parity check lets corrupted characters through unreported, and the property fails', () => {
    const bad = neverSilent({ ...ON_ARRIVAL, checkParity: false });
    expect(bad.some((x) => /not detected/.test(x))).toBe(true);
    expect(bad.some((x) => /corrupted characters delivered, 0 reported/.test(x))).toBe(true);
  });
});
