/**
 * Credit flow control under random receiver stalls (docs/dslink.md#credit):
 *  - the sender takes a normal token only while it holds credit (its credit
 *    never goes below zero) and never holds more than the cap;
 *  - the receive buffer never holds more than its size;
 *  - no character is lost, duplicated or reordered, and no link error happens;
 *  - counting: F = FCTs the receiver sent since the link started, N = normal
 *    characters it received (all popped, so freed = N). At rest
 *        F = ⌊(min(rxBufferTokens, creditCap) + N) / 8⌋
 *    and the sender used ⌈N/8⌉ of them: F ≥ ⌈N/8⌉. At every cycle
 *        8·F ≤ rxBufferTokens + freed   and   8·F ≤ creditCap + received.
 * Negative control: a sender that ignores its credit (config ignoreCredit)
 * against a slow receiver breaks the property.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAR_EOP } from '../../rtl/dslink/chars.ts';
import type { DsLinkConfig } from '../../rtl/dslink/config.ts';
import { makeBench } from './bench.ts';

interface Scenario {
  chars: number[];
  pop: boolean[];
  rx: number;
  cap: number;
  ignoreCredit?: boolean;
}

/** Runs a → b and returns the violations found (empty = the property holds). */
function creditViolations(sc: Scenario): string[] {
  const bad: string[] = [];
  const cfgA: Partial<DsLinkConfig> = { creditCap: sc.cap, ignoreCredit: sc.ignoreCredit ?? false };
  const cfgB: Partial<DsLinkConfig> = { rxBufferTokens: sc.rx, creditCap: sc.cap };
  const { bench, sim } = makeBench({ a: cfgA, b: cfgB, aToB: sc.chars, popB: sc.pop });
  const { a, b } = bench.pair;
  let fcts = 0;
  let received = 0;
  sim.observe({
    onCycle: (x) => {
      if (bad.length > 5) return;
      if (x.peek(a.tokens.sendNormal) === 1 && x.peek(a.txCredit) === 0) bad.push(`cycle ${x.cycle}: a sends a normal token without credit`);
      if (x.peek(a.txCredit) > sc.cap) bad.push(`cycle ${x.cycle}: a holds credit ${x.peek(a.txCredit)} > cap`);
      if (x.peek(b.rxBuf.count) > sc.rx) bad.push(`cycle ${x.cycle}: b's receive buffer over its size`);
      if (x.peek(b.tokens.sendFct) === 1) fcts++;
      if (x.peek(b.dec.gotChar) === 1) received++;
      const freed = bench.sinkB.got.length;
      if (8 * fcts > sc.rx + freed || 8 * fcts > sc.cap + received) bad.push(`cycle ${x.cycle}: ${fcts} FCTs for ${freed} freed / ${received} received`);
    },
  });
  const up = sim.runUntil((x) => x.peek(a.running) === 1 && x.peek(b.running) === 1, 4000);
  if (!up.reached) bad.push('link did not reach Run');
  const done = sim.runUntil(() => bench.sinkB.got.length >= sc.chars.length, 4000 + sc.chars.length * 10 * sc.pop.length * 2);
  sim.step(200);
  const got = bench.sinkB.got.map((g) => g.ch);
  if (!done.reached || got.length !== sc.chars.length || got.some((c, k) => c !== sc.chars[k])) bad.push(`delivered ${got.length} of ${sc.chars.length}, in order: ${got.every((c, k) => c === sc.chars[k])}`);
  if (sim.peek(a.errCount) + sim.peek(b.errCount) !== 0) bad.push(`link errors: a ${sim.peek(a.errCount)}, b ${sim.peek(b.errCount)}`);
  const n = sc.chars.length;
  const expectF = Math.floor((Math.min(sc.rx, sc.cap) + n) / 8);
  if (fcts !== expectF) bad.push(`FCTs at rest ${fcts}, expected ⌊(min(${sc.rx}, ${sc.cap}) + ${n})/8⌋ = ${expectF}`);
  if (fcts < Math.ceil(n / 8)) bad.push(`FCTs ${fcts} < ⌈${n}/8⌉`);
  return bad;
}

const scenarioArb = fc.record({
  chars: fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constant(CHAR_EOP)), { maxLength: 150 }),
  pop: fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }).map((p) => (p.some((x) => x) ? p : [...p, true])),
  rx: fc.integer({ min: 8, max: 80 }),
  cap: fc.integer({ min: 1, max: 7 }).map((k) => 8 * k),
});

describe('DS-link credit flow control', () => {
  it('never sends without credit, never overfills, loses nothing, and sends the stated number of FCTs', () => {
    fc.assert(
      fc.property(scenarioArb, (sc) => {
        expect(creditViolations(sc)).toEqual([]);
      }),
      { numRuns: 30 },
    );
  });

  it('negative control: a sender that ignores credit against a slow receiver breaks the property', () => {
    const chars = Array.from({ length: 120 }, (_, k) => k & 0xff);
    const pop = [true, ...Array.from({ length: 60 }, () => false)];
    expect(creditViolations({ chars, pop, rx: 16, cap: 16 })).toEqual([]);
    const bad = creditViolations({ chars, pop, rx: 16, cap: 16, ignoreCredit: true });
    expect(bad.length).toBeGreaterThan(0);
    expect(bad.join('\n')).toMatch(/without credit/);
    expect(bad.join('\n')).toMatch(/link errors/);
  });
});
