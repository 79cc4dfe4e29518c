/**
 * The Buzzard TLM against hand-computed zero-load cases: one message of K
 * packets over d hops, first-packet and last-byte times in closed form for
 * each transport (test/tlm/closed-forms.ts), for the Chapter 5 parameters and
 * for random ones; link busy ticks; the adaptive first hop in an otherwise
 * idle cube.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runTlm, type Transport } from '../../harness/tlm/index.ts';
import { finalizeMessages, type DraftMessage, type Workload } from '../../harness/workloads/index.ts';
import { CH5, packetZeroLoad, popcount, wormholeZeroLoad, type TimingParams } from './closed-forms.ts';

function workload(n: number, drafts: DraftMessage[]): Workload {
  return { name: 'test', seed: null, params: {}, unit: 'ticks', cubeDegree: n, messages: finalizeMessages(drafts) };
}
const one = (n: number, src: number, dst: number, bytes: number, t = 0): Workload => workload(n, [{ t, src, dst, bytes, kind: 'unicast' }]);

describe('zero load, Chapter 5 parameters (2 ticks/byte, 4 ticks arbitration, 32 + 4 byte packets)', () => {
  it('512 bytes across the 6-cube (d = 6, 16 packets): numbers by hand', () => {
    // Packet: first = 4 + 6·(4·2 + 4) + 36·2 = 148; the slot starts packet 16 at 4 + 15·(72 + 4) = 1144; last = 1144 + 72 + 72 = 1288.
    // Wormhole: node input port granted at 4 + 6·12 = 76; first = 76 + 36·2 = 148; last = 76 + 516·2 = 1108.
    const w = one(6, 0, 63, 512);
    for (const transport of ['fixed-packet', 'quasi-adaptive'] as const) expect(runTlm(w, { transport }).perMessage[0]).toEqual({ first: 148, last: 1288 });
    expect(runTlm(w, { transport: 'wormhole' }).perMessage[0]).toEqual({ first: 148, last: 1108 });
  });

  it('the closed forms for every distance 1..6 and lengths around packet boundaries', () => {
    for (let d = 1; d <= 6; d++) {
      const dst = (1 << d) - 1;
      for (const M of [0, 1, 31, 32, 33, 64, 100, 2048]) {
        const w = one(6, 0, dst, M, 10);
        const p = packetZeroLoad(CH5, M, d);
        expect(runTlm(w, { transport: 'fixed-packet' }).perMessage[0], `fixed d=${d} M=${M}`).toEqual({ first: p.first, last: p.last });
        expect(runTlm(w, { transport: 'quasi-adaptive' }).perMessage[0], `quasi d=${d} M=${M}`).toEqual({ first: p.first, last: p.last });
        expect(runTlm(w, { transport: 'wormhole' }).perMessage[0], `wormhole d=${d} M=${M}`).toEqual(wormholeZeroLoad(CH5, M, d));
      }
    }
  });
});

describe('zero load, degenerate parameters', () => {
  it('no header and no arbitration: times are just bytes on the wire; empty messages arrive at once', () => {
    const p: TimingParams = { ticksPerByte: 2, arbitrationTicks: 0, headerBytes: 0, packetBytes: 32 };
    for (const transport of ['wormhole', 'fixed-packet', 'quasi-adaptive'] as const) {
      for (const M of [0, 5, 100]) {
        const r = runTlm(one(3, 0, 7, M, 3), { ...p, transport });
        const want = transport === 'wormhole' ? wormholeZeroLoad(p, M, 3) : packetZeroLoad(p, M, 3);
        expect(r.perMessage[0], `${transport} M=${M}`).toEqual({ first: want.first, last: want.last });
      }
      // A second message from the same slot starts once the first has left it.
      const two = workload(2, [
        { t: 0, src: 0, dst: 3, bytes: 0, kind: 'unicast' },
        { t: 0, src: 0, dst: 3, bytes: 10, kind: 'unicast' },
      ]);
      expect(runTlm(two, { ...p, transport }).stats.delivered).toBe(2);
    }
  });
});

describe('zero load, random parameters (fast-check)', () => {
  const params: fc.Arbitrary<TimingParams & { buffersPerPbu: number }> = fc.record({
    ticksPerByte: fc.integer({ min: 1, max: 4 }),
    arbitrationTicks: fc.integer({ min: 0, max: 9 }),
    headerBytes: fc.integer({ min: 0, max: 6 }),
    packetBytes: fc.constantFrom(1, 8, 16, 32, 64),
    buffersPerPbu: fc.integer({ min: 2, max: 26 }),
  });
  const route = fc.integer({ min: 1, max: 7 }).chain((n) => fc.tuple(fc.constant(n), fc.nat(2 ** n - 1), fc.integer({ min: 1, max: 2 ** n - 1 })));

  it('one message: first and last from queueing match the closed form for each transport and delivery model', () => {
    fc.assert(
      fc.property(params, route, fc.nat(600), fc.nat(10_000), fc.constantFrom<Transport>('wormhole', 'fixed-packet', 'quasi-adaptive'), fc.constantFrom('shared-port' as const, 'per-link' as const), (cfg, [n, src, off], M, t0, transport, delivery) => {
        const d = popcount(off);
        const r = runTlm(one(n, src, src ^ off, M, t0), { ...cfg, transport, delivery });
        const want = transport === 'wormhole' ? wormholeZeroLoad(cfg, M, d) : packetZeroLoad(cfg, M, d);
        expect(r.perMessage[0]).toEqual({ first: want.first, last: want.last });
        // The same times as events, absolute.
        const ev = r.events!;
        expect(ev.filter((e) => e.kind === 'first-packet-delivered').map((e) => e.t)).toEqual([t0 + want.first]);
        expect(ev.filter((e) => e.kind === 'message-complete').map((e) => e.t)).toEqual([t0 + want.last]);
        expect(r.stats.deadlock).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('link busy ticks: exactly the bytes on the wire of the links on the e-cube path', () => {
    fc.assert(
      fc.property(params, route, fc.nat(300), fc.constantFrom<Transport>('wormhole', 'fixed-packet'), (cfg, [n, src, off], M, transport) => {
        const r = runTlm(one(n, src, src ^ off, M), { ...cfg, transport, recordEvents: false });
        const K = transport === 'wormhole' ? 1 : Math.max(1, Math.ceil(M / cfg.packetBytes));
        const wireTicks = (cfg.headerBytes * K + M) * cfg.ticksPerByte;
        const want = new Float64Array(2 ** n * n);
        let x = src;
        for (let i = 1; i <= n; i++) {
          if (!(off & (1 << (i - 1)))) continue;
          want[x * n + i - 1] = wireTicks;
          x ^= 1 << (i - 1);
        }
        expect(r.linkBusy).toEqual(want);
        expect(r.nipBusy[src ^ off]).toBe(wireTicks);
        if (transport === 'wormhole') for (let k = 0; k < want.length; k++) expect(r.linkHeld[k]).toBeGreaterThanOrEqual(want[k]!);
      }),
      { numRuns: 100 },
    );
  });
});

describe('adaptive first hop in an idle cube (§6.3, A13)', () => {
  it('a second message to a node two hops away avoids the busy e-cube slot under quasi-adaptive routing, queues behind it under fixed routing', () => {
    // m0: 0 → 1 (dimension 1 only) occupies slot 1 of node 0; m1: 0 → 3 at the same time.
    const M0 = 640;
    const M1 = 200;
    const w = workload(3, [
      { t: 0, src: 0, dst: 1, bytes: M0, kind: 'unicast' },
      { t: 0, src: 0, dst: 3, bytes: M1, kind: 'unicast' },
    ]);
    const m0 = packetZeroLoad(CH5, M0, 1);
    const m1 = packetZeroLoad(CH5, M1, 2);
    // Quasi-adaptive: slot 2 (queue 0 < 1), a contrary route 0 → 2 → 3 that shares nothing with m0.
    const qa = runTlm(w, { transport: 'quasi-adaptive' });
    expect(qa.perMessage).toEqual([
      { first: m0.first, last: m0.last },
      { first: m1.first, last: m1.last },
    ]);
    expect(qa.stats.contraryMessages).toBe(1);
    expect(qa.events!.filter((e) => e.kind === 'message-queued').map((e) => e.port)).toEqual([1, 2]);
    // Fixed: m1 waits until slot 1 has sent all of m0, then travels 0 → 1 → 3 behind m0's packets without further delay.
    const fx = runTlm(w, { transport: 'fixed-packet' });
    expect(fx.perMessage[0]).toEqual({ first: m0.first, last: m0.last });
    expect(fx.perMessage[1]).toEqual({ first: m0.slotTicks + m1.first, last: m0.slotTicks + m1.last });
  });

  it('ties go to the e-cube slot, then to the lowest dimension', () => {
    // Node 0 has three messages queued at once to node 7 (all three dimensions viable).
    const w = workload(3, [0, 1, 2, 3].map(() => ({ t: 0, src: 0, dst: 7, bytes: 64, kind: 'unicast' as const })));
    const r = runTlm(w, { transport: 'quasi-adaptive' });
    expect(r.events!.filter((e) => e.kind === 'message-queued').map((e) => e.port)).toEqual([1, 2, 3, 1]);
    expect(r.stats.contraryMessages).toBe(2);
  });
});

describe('two messages contending for one node input port (hand-computed)', () => {
  // Nodes 1 and 2 of a 2-cube each send 100 bytes to node 0 at t = 0. Both heads reach node 0 at
  // 4 (arbitration) + 8 (header) = 12 and request O_0; the round-robin pointer starts at the slot, so
  // PBU 1 (the message from node 1) wins first.
  const w = workload(2, [
    { t: 0, src: 1, dst: 0, bytes: 100, kind: 'unicast' },
    { t: 0, src: 2, dst: 0, bytes: 100, kind: 'unicast' },
  ]);

  it('wormhole: the second worm waits for the whole first one and holds its link meanwhile', () => {
    // A: O_0 granted at 16, first = 16 + 36·2 = 88, last = 16 + 104·2 = 224.
    // B: arbitration starts at 224, grant 228, first = 228 + 72 = 300, last = 228 + 208 = 436.
    const r = runTlm(w, { transport: 'wormhole' });
    expect(r.perMessage).toEqual([
      { first: 88, last: 224 },
      { first: 300, last: 436 },
    ]);
    // Link (1, dim 1) and link (2, dim 2) each carry 104 bytes (208 ticks) but are held from 4 until their worm's last byte is in.
    expect(r.linkBusy[1 * 2 + 0]).toBe(208);
    expect(r.linkBusy[2 * 2 + 1]).toBe(208);
    expect(r.linkHeld[1 * 2 + 0]).toBe(220);
    expect(r.linkHeld[2 * 2 + 1]).toBe(432);
  });

  it("packet: the second message's first packet follows the first message's first packet", () => {
    // A's packet 0: O_0 granted at 16, delivered at 88. B's packet 0 wins the next arbitration (88 → 92), delivered at 164.
    const r = runTlm(w, { transport: 'fixed-packet' });
    expect(r.perMessage[0]!.first).toBe(88);
    expect(r.perMessage[1]!.first).toBe(164);
    // The packets (36, 36, 36, 8 bytes each) alternate at O_0 from t = 12, each after a 4-tick arbitration:
    // A0 16–88, B0 92–164, A1 168–240, B1 244–316, A2 320–392, B2 396–468, A3 472–488, B3 492–508.
    expect(r.perMessage[0]!.last).toBe(488);
    expect(r.perMessage[1]!.last).toBe(12 + 8 * 4 + (6 * 36 + 2 * 8) * 2);
  });
});

