/**
 * Run idle (docs/dslink.md#run-idle): `runIdle: 'one-null' | 'silent'`, the
 * thesis's idle link, against the faithful default 'nulls'.
 *  - the wires: with nothing to send in Run, 'nulls' changes a wire every
 *    cycle, 'one-null' sends exactly one NULL after its last token and then
 *    holds both wires still, 'silent' holds them at once;
 *  - delivery stays exact with gaps, stalls and traffic both ways, in both
 *    kernel modes (property), and both modes agree on every register and
 *    wire at every cycle (lock-step);
 *  - the saving on one ack round trip of a T9000 pair (m = 33, the 1-byte
 *    packet): the NULL waits are gone, nothing else changes;
 *  - a parity error on the last token before a gap: 'one-null' detects it
 *    within that NULL (before the gap), 'silent' only when the next token
 *    arrives after the gap; either way the corrupted character is reported
 *    as suspect; negative control: with the parity check off it is never
 *    detected;
 *  - a cut wire during a gap is not detected in Run (a still link is
 *    normal): pinned; a restart of one end (the NULL pair) brings both ends
 *    back to Run;
 *  - config: 'silent' without rxHandover 'on-arrival' is refused.
 */
import { describe, expect, it } from 'vitest';
import { checkDsLinkConfig, type DsLinkConfig, type RunIdle } from '../../rtl/dslink/config.ts';
import { S_ERR_BASE, S_RUN } from '../../rtl/dslink/link_fsm.ts';
import { attachLinkEvents } from '../../harness/rtl/dslink_events.ts';
import { dsLinks, makeT9000Pair, runUntilLinksUp, T9000_THESIS_LINKS } from '../../harness/rtl/t9000_pair.ts';
import { makeBench, type Bench } from './bench.ts';
import { assertExactDelivery, assertModesAgree } from './properties.ts';

const idle = (runIdle: RunIdle): Partial<DsLinkConfig> => ({ rxHandover: 'on-arrival', runIdle });

/** Wire transitions on a → b over `cycles` cycles, from now. */
function transitions(sim: ReturnType<typeof makeBench>['sim'], bench: Bench, cycles: number): number {
  const { a } = bench.pair;
  let n = 0;
  let prev = [sim.peek(a.dOut), sim.peek(a.sOut)];
  for (let k = 0; k < cycles; k++) {
    sim.step(1);
    const now = [sim.peek(a.dOut), sim.peek(a.sOut)];
    if (now[0] !== prev[0] || now[1] !== prev[1]) n++;
    prev = now;
  }
  return n;
}

describe('DS-link run idle: the wires', () => {
  const idleWires = (cfg: Partial<DsLinkConfig>) => {
    const sent = [1, 2, 3, 0x100];
    const { bench, sim } = makeBench({ a: cfg, b: cfg, aToB: sent });
    sim.runUntil(() => bench.sinkB.got.length === sent.length, 20_000);
    // b's FCTs for those 4 characters may still be due: let the link settle first
    sim.step(200);
    return { inGap: transitions(sim, bench, 1000), running: sim.peek(bench.pair.a.running) + sim.peek(bench.pair.b.running) };
  };

  it("'nulls' (default) moves a wire every cycle; 'one-null' and 'silent' hold them still in Run", () => {
    expect(idleWires({})).toEqual({ inGap: 1000, running: 2 });
    expect(idleWires(idle('one-null'))).toEqual({ inGap: 0, running: 2 });
    expect(idleWires(idle('silent'))).toEqual({ inGap: 0, running: 2 });
  });

  it("'one-null' sends exactly one NULL (8 bits) after its last token; 'silent' none", () => {
    // after the last character's last bit: count bits until the wires hold
    const tail = (runIdle: RunIdle) => {
      const sent = [0x41];
      const { bench, sim } = makeBench({ a: idle(runIdle), b: idle(runIdle), aToB: sent });
      const a = bench.pair.a;
      sim.runUntil((x) => x.peek(a.tokens.tok) === 0x41 && x.peek(a.ser.left) === 0, 20_000);
      return transitions(sim, bench, 100);
    };
    expect(tail('one-null')).toBe(8);
    expect(tail('silent')).toBe(0);
    // control: the default keeps going
    const { bench, sim } = makeBench({ aToB: [0x41] });
    sim.runUntil((x) => x.peek(bench.pair.a.tokens.tok) === 0x41 && x.peek(bench.pair.a.ser.left) === 0, 20_000);
    expect(transitions(sim, bench, 100)).toBe(100);
  });
});

describe('DS-link run idle: delivery', () => {
  it('random characters both ways with gaps and stalls arrive exactly (both kernel modes)', () => assertExactDelivery([idle('one-null'), idle('silent')], 30));

  it('plain and activity modes agree on every register and wire at every cycle (gaps, a fault, a restart)', () => assertModesAgree([idle('one-null'), idle('silent')], 6));
});

/**
 * One ack round trip of a T9000 pair streaming 33-byte messages (a 32-byte
 * packet, then a 1-byte one): cycles from the 1-byte packet's injection to
 * the next message's, per message after the warm-up.
 */
function roundTrips(runIdle: RunIdle): number[] {
  const pair = makeT9000Pair(2, { sendAreaBytes: 1024, rxSlots: 3 }, { links: dsLinks({ ...T9000_THESIS_LINKS, runIdle }) });
  const t0 = runUntilLinksUp(pair);
  pair.driver.receiveLoop(1, 0, 12, t0);
  pair.driver.sendLoop(0, 0, 12, t0, () => Array.from({ length: 33 }, (_, j) => j), true, 2);
  pair.sim.runUntil(() => pair.rec.deliveries.length >= 12, 100_000);
  const inj = pair.rec.events.filter((e) => e.kind === 'packet-injected');
  return inj.flatMap((e, i) => (e.packet === 1 && i > 4 && inj[i + 1] ? [inj[i + 1]!.t - e.t] : []));
}

describe('DS-link run idle: one ack round trip (T9000 pair, m = 33)', () => {
  it('the NULL waits are gone: 34 cycles (38 when an FCT is due on the forward wires), 36..42 with NULLs', () => {
    const nulls = roundTrips('nulls');
    const silent = roundTrips('silent');
    // measured: nulls 34..42, mean 37.6; silent 34 or 38 (an FCT of 4 bits ahead of the next header)
    expect(Math.min(...silent)).toBe(34);
    expect(silent.every((t) => t === 34 || t === 38)).toBe(true);
    expect(Math.max(...nulls)).toBeGreaterThanOrEqual(40);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(nulls) - mean(silent)).toBeGreaterThan(2);
    // control: the saving is the option's, not noise: the same run again is the same
    expect(roundTrips('silent')).toEqual(silent);
  });
});

/**
 * a sends 10 characters, then nothing until cycle 6000, then 10 more; the
 * value of data bit `bit` of the 10th (the last before the gap) is flipped on
 * the wires. Returns when b detected it and what b reported.
 */
function lastBeforeGap(cfg: Partial<DsLinkConfig>, bit = 5) {
  const sent = Array.from({ length: 20 }, (_, k) => (k * 7 + 3) & 0xff);
  const pushA = Array.from({ length: 100_000 }, (_, c) => c < 10 || (c >= 6000 && c < 6010));
  const { bench, sim } = makeBench({ faults: true, a: cfg, b: cfg, aToB: sent, pushA });
  const ev = attachLinkEvents(sim, [{ end: bench.pair.b, node: 1 }]);
  const { a, ab } = bench.pair;
  sim.runUntil((x) => x.peek(a.tokens.tok) === sent[9] && x.peek(a.ser.left) === 9, 20_000);
  const lastBit = sim.cycle + 9;
  sim.step(bit);
  sim.poke(ab!.flipD, 1);
  sim.poke(ab!.flipS, 1);
  const det = sim.runUntil((x) => x.peek(bench.pair.b.linkState) >= S_ERR_BASE, 8000);
  const after = det.reached ? sim.cycle - lastBit : null;
  sim.runUntil(() => sim.cycle > 20_000, 30_000);
  const got = bench.sinkB.got.map((g) => g.ch);
  return {
    after,
    corruptedDelivered: got.length >= 10 && got[9] !== sent[9],
    suspect: sim.peek(bench.pair.b.dec.suspectTotal),
    errors: ev.events.filter((e) => e.kind === 'link-error').map((e) => e.error),
  };
}

describe('DS-link run idle: a parity error on the last token before a gap', () => {
  it("'one-null': detected within the trailing NULL, before the gap", () => {
    const r = lastBeforeGap(idle('one-null'));
    expect(r.after).not.toBeNull();
    expect(r.after!).toBeLessThanOrEqual(8 + 3); // the NULL's ESC P/F (2 bits) + 3 register stages; ≤ one NULL
    expect(r).toMatchObject({ corruptedDelivered: true, suspect: 1, errors: ['parity'] });
  });

  it("'silent': detected only when the next token arrives after the gap, then reported as suspect", () => {
    const r = lastBeforeGap(idle('silent'));
    // the next character is pushed at cycle 6000; detection ≈ 4000 cycles after the last bit
    expect(r.after).not.toBeNull();
    expect(r.after!).toBeGreaterThan(3000);
    expect(r).toMatchObject({ corruptedDelivered: true, suspect: 1, errors: ['parity'] });
  });

  it('negative control: with the parity check off the flip is never detected nor reported', () => {
    for (const runIdle of ['one-null', 'silent'] as const) {
      const r = lastBeforeGap({ ...idle(runIdle), checkParity: false });
      expect(r).toMatchObject({ after: null, corruptedDelivered: true, suspect: 0, errors: [] });
    }
  });
});

describe('DS-link run idle: disconnects and restarts', () => {
  it('a cut wire during a gap goes unnoticed in Run (a still link is normal); the default sees a disconnect', () => {
    const cutFor = (cfg: Partial<DsLinkConfig>) => {
      const { bench, sim } = makeBench({ faults: true, a: cfg, b: cfg, aToB: [1, 2, 3] });
      sim.runUntil(() => bench.sinkB.got.length === 3, 20_000);
      sim.step(200);
      sim.poke(bench.pair.ab!.cut, 1);
      sim.step(2000);
      return sim.peek(bench.pair.b.errCount);
    };
    expect(cutFor(idle('silent'))).toBe(0);
    expect(cutFor(idle('one-null'))).toBe(0);
    expect(cutFor({})).toBeGreaterThan(0);
  });

  it('after a parity error both ends restart (the far end on the NULL pair) and carry characters again', () => {
    for (const runIdle of ['one-null', 'silent'] as const) {
      const cfg = idle(runIdle);
      const sent = Array.from({ length: 60 }, (_, k) => k);
      // 30 characters at once, 30 more from cycle 40 000
      const pushA = Array.from({ length: 100_000 }, (_, c) => c < 30 || c >= 40_000);
      const { bench, sim } = makeBench({ faults: true, a: cfg, b: cfg, aToB: sent, pushA });
      const ev = attachLinkEvents(sim, [{ end: bench.pair.a, node: 0 }, { end: bench.pair.b, node: 1 }]);
      const { a, b, ab } = bench.pair;
      sim.runUntil((x) => x.peek(a.tokens.tok) === 10 && x.peek(a.ser.left) === 9, 20_000);
      sim.step(4);
      sim.poke(ab!.flipD, 1);
      sim.poke(ab!.flipS, 1);
      sim.runUntil(() => sim.cycle > 39_000, 40_000);
      const errs = ev.events.filter((e) => e.kind === 'link-error').map((e) => `${e.unit === b.path ? 'b' : 'a'} ${e.error}`);
      // b sees the parity error; a, whose wires stay still in Run, learns of b's restart from b's NULLs
      expect(errs.slice(0, 2)).toEqual(['b parity', 'a disconnect']);
      expect([sim.peek(a.linkState), sim.peek(b.linkState)]).toEqual([S_RUN, S_RUN]);
      sim.runUntil(() => bench.sinkB.got.length > 0 && bench.sinkB.got[bench.sinkB.got.length - 1]!.ch === 59, 20_000);
      expect(bench.sinkB.got.slice(-30).map((g) => g.ch)).toEqual(sent.slice(30));
    }
  });
});

describe('DS-link run idle: config', () => {
  it("'silent' needs rxHandover 'on-arrival'; 'one-null' works with either; unknown values are refused", () => {
    expect(() => checkDsLinkConfig({ runIdle: 'silent' })).toThrow(/on-arrival/);
    expect(checkDsLinkConfig({ runIdle: 'one-null' }).runIdle).toBe('one-null');
    expect(() => checkDsLinkConfig({ runIdle: 'quiet' as RunIdle })).toThrow(/runIdle/);
    expect(checkDsLinkConfig({}).runIdle).toBe('nulls');
  });
});
