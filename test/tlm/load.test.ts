/**
 * The Buzzard TLM under load: every message delivered exactly once with its
 * packets in order (fast-check, small cubes), determinism, the §7 deadlock
 * rule with its negative control, the wormhole-vs-packet shape at heavy load
 * (§10.3), the event trace in the shared vocabulary, config errors.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectedLinkUtilisation, idealLinkUtilisation } from '../../harness/models/buzzard.ts';
import { TLM_CH5_VARIANTS, runTlm, type TlmResult, type Transport } from '../../harness/tlm/index.ts';
import { Rng, buzzardCh5Workload, finalizeMessages, hops, littlefieldJigWorkload, type DraftMessage, type Workload } from '../../harness/workloads/index.ts';
import { formatTrace, parseTrace, validateEvent } from '../../traces/events/vocabulary.ts';
import { packetZeroLoad, wormholeZeroLoad, type TimingParams } from './closed-forms.ts';

const TRANSPORTS: Transport[] = ['wormhole', 'fixed-packet', 'quasi-adaptive'];

function workload(n: number, drafts: DraftMessage[]): Workload {
  return { name: 'test', seed: null, params: {}, unit: 'ticks', cubeDegree: n, messages: finalizeMessages(drafts) };
}

/** Random loads on small cubes: bursts of messages of 0..400 bytes. */
const loadArb: fc.Arbitrary<Workload> = fc.integer({ min: 1, max: 4 }).chain((n) =>
  fc
    .array(
      fc.record({ t: fc.nat(800), src: fc.nat(2 ** n - 1), off: fc.integer({ min: 1, max: 2 ** n - 1 }), bytes: fc.nat(400) }).map((m) => ({ t: m.t, src: m.src, dst: m.src ^ m.off, bytes: m.bytes, kind: 'unicast' as const })),
      { minLength: 1, maxLength: 40 },
    )
    .map((d) => workload(n, d)),
);

/** Delivery checks from the event trace alone. */
function checkDeliveries(w: Workload, r: TlmResult, transport: Transport, packetBytes: number): void {
  const ev = r.events!;
  for (let k = 1; k < ev.length; k++) expect(ev[k]!.t).toBeGreaterThanOrEqual(ev[k - 1]!.t);
  for (const e of ev) expect(validateEvent(e)).toBeNull();
  const into = new Map<number, number[]>(); // packets forwarded into the node input port, per message, in order
  const complete = new Map<number, number>();
  const first = new Map<number, number>();
  const queued = new Map<number, number>();
  for (const e of ev) {
    if (e.kind === 'packet-forwarded' && e.port === 0) {
      expect(e.node).toBe(w.messages[e.msg]!.dst);
      into.set(e.msg, [...(into.get(e.msg) ?? []), e.packet!]);
    }
    if (e.kind === 'message-complete') complete.set(e.msg, (complete.get(e.msg) ?? 0) + 1);
    if (e.kind === 'first-packet-delivered') first.set(e.msg, (first.get(e.msg) ?? 0) + 1);
    if (e.kind === 'message-queued') queued.set(e.msg, e.t);
  }
  for (const m of w.messages) {
    const K = transport === 'wormhole' ? 1 : Math.max(1, Math.ceil(m.bytes / packetBytes));
    // Exactly once, in packet order.
    expect(into.get(m.id)).toEqual(Array.from({ length: K }, (_, k) => k));
    expect(complete.get(m.id)).toBe(1);
    expect(first.get(m.id)).toBe(1);
    expect(queued.get(m.id)).toBe(m.t);
  }
  expect(r.stats.delivered).toBe(w.messages.length);
  expect(r.stats.orderViolations).toBe(0);
  expect(r.stats.deadlock).toBeNull();
}

describe('under random loads (fast-check, cubes of degree 1..4)', () => {
  it('every message is delivered exactly once, its packets in order, never faster than at zero load', () => {
    fc.assert(
      fc.property(loadArb, fc.constantFrom(...TRANSPORTS), fc.integer({ min: 2, max: 5 }), fc.constantFrom(16, 32), fc.constantFrom('shared-port' as const, 'per-link' as const), (w, transport, B, P, delivery) => {
        const r = runTlm(w, { transport, buffersPerPbu: B, packetBytes: P, delivery });
        checkDeliveries(w, r, transport, P);
        const cfg: TimingParams = { ticksPerByte: 2, arbitrationTicks: 4, headerBytes: 4, packetBytes: P };
        w.messages.forEach((m, k) => {
          const z = transport === 'wormhole' ? wormholeZeroLoad(cfg, m.bytes, hops(m.src, m.dst)) : packetZeroLoad(cfg, m.bytes, hops(m.src, m.dst));
          expect(r.perMessage[k]!.first).toBeGreaterThanOrEqual(z.first);
          expect(r.perMessage[k]!.last).toBeGreaterThanOrEqual(z.last);
          expect(r.perMessage[k]!.last).toBeGreaterThanOrEqual(r.perMessage[k]!.first);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('fixed routing (e-cube) drains even with one buffer per PBU', () => {
    fc.assert(
      fc.property(loadArb, (w) => {
        checkDeliveries(w, runTlm(w, { transport: 'fixed-packet', buffersPerPbu: 1 }), 'fixed-packet', 32);
      }),
      { numRuns: 50 },
    );
  });

  it('deterministic: the same workload gives the same events and times, bit for bit', () => {
    fc.assert(
      fc.property(loadArb, fc.constantFrom(...TRANSPORTS), (w, transport) => {
        const a = runTlm(w, { transport, buffersPerPbu: 2 });
        const b = runTlm(w, { transport, buffersPerPbu: 2 });
        expect(b.events).toEqual(a.events);
        expect(b.perMessage).toEqual(a.perMessage);
        expect(b.linkBusy).toEqual(a.linkBusy);
        // Events off: the same times.
        expect(runTlm(w, { transport, buffersPerPbu: 2, recordEvents: false }).perMessage).toEqual(a.perMessage);
      }),
      { numRuns: 50 },
    );
  });
});

describe('§7 deadlock rule (quasi-adaptive)', () => {
  /**
   * Constructed on the square {0, 1, 4, 5} of a 3-cube (dimensions 1 and 3),
   * two PBU buffers each. m3 and m5 occupy the e-cube slot 1 of nodes 5 and
   * 0, so m4 (5 → 0) and m6 (0 → 5) take slot 3: contrary packets that must
   * turn onto dimension 1 at their first PBU. m1 (1 → 0 → 4) and m2
   * (4 → 5 → 1) are e-cube packets turning onto dimension 3. Without the rule
   * the four PBUs fill into a cycle:
   *   PBU1@0 (m1, wants dim 3) → PBU3@4 (m6, contrary, wants dim 1) →
   *   PBU1@5 (m2, wants dim 3) → PBU3@1 (m4, contrary, wants dim 1) → PBU1@0.
   * With the rule a PBU never holds only contrary packets, so it drains.
   */
  const adversarial = workload(3, [
    { t: 0, src: 3, dst: 4, bytes: 32, kind: 'unicast' },
    { t: 0, src: 1, dst: 4, bytes: 128, kind: 'unicast' },
    { t: 0, src: 4, dst: 1, bytes: 192, kind: 'unicast' },
    { t: 0, src: 5, dst: 2, bytes: 32, kind: 'unicast' },
    { t: 0, src: 5, dst: 0, bytes: 128, kind: 'unicast' },
    { t: 0, src: 0, dst: 1, bytes: 64, kind: 'unicast' },
    { t: 26, src: 0, dst: 5, bytes: 96, kind: 'unicast' },
  ]);

  /** A reported deadlock must be real: every stuck packet waits for a full PBU that is itself stuck. */
  function expectGenuineDeadlock(r: TlmResult, n: number): void {
    const dl = r.stats.deadlock!;
    expect(dl).not.toBeNull();
    const full = new Set(dl.pbus.filter((p) => p.free === 0).map((p) => `${p.node}/${p.pbu}`));
    for (const p of dl.pbus) {
      for (const pk of p.packets) {
        expect(pk.nextPort, 'a packet for the node input port can always leave').toBeGreaterThan(0);
        expect(pk.nextPort).toBeLessThanOrEqual(n);
        expect(full.has(`${p.node ^ (1 << (pk.nextPort - 1))}/${pk.nextPort}`)).toBe(true);
      }
    }
  }

  it('negative control: with contrary packets allowed to fill a PBU the constructed workload deadlocks (no progress with packets outstanding)', () => {
    const r = runTlm(adversarial, { transport: 'quasi-adaptive', buffersPerPbu: 2, deadlockRule: false });
    expect(r.stats.contraryMessages).toBe(2);
    expectGenuineDeadlock(r, 3);
    const dl = r.stats.deadlock!;
    expect(dl.undeliveredMessages).toBe(4);
    expect(dl.pbus.map((p) => `${p.node}/${p.pbu}:${p.packets.map((k) => `m${k.msg}${k.contrary ? 'c' : ''}`).join(',')}`)).toEqual([
      '0/1:m1,m1',
      '1/3:m4c,m4c',
      '4/3:m6c,m6c',
      '5/1:m2,m2',
    ]);
    // Nothing happens after the last event: the messages never complete.
    expect(r.events!.filter((e) => e.kind === 'message-complete').length).toBe(3);
  });

  it('with the rule the same workload drains', () => {
    const r = runTlm(adversarial, { transport: 'quasi-adaptive', buffersPerPbu: 2, deadlockRule: true });
    checkDeliveries(adversarial, r, 'quasi-adaptive', 32);
    expect(r.stats.contraryMessages).toBe(2);
  });

  it('random bursts on the 3-cube: with the rule always drained; without it, every reported deadlock is genuine', () => {
    // 120 bursts of 30 messages of 1..40 packets generated within 50 ticks, two buffers per PBU.
    let deadlocks = 0;
    for (let seed = 1; seed <= 120; seed++) {
      const rng = new Rng(seed);
      const drafts: DraftMessage[] = [];
      for (let k = 0; k < 30; k++) {
        const src = rng.nextInt(8);
        drafts.push({ t: rng.nextInt(50), src, dst: src ^ (1 + rng.nextInt(7)), bytes: 32 * (1 + rng.nextInt(40)), kind: 'unicast' });
      }
      const w = workload(3, drafts);
      const on = runTlm(w, { transport: 'quasi-adaptive', buffersPerPbu: 2, recordEvents: false }).stats;
      expect(on.deadlock, `seed ${seed}`).toBeNull();
      expect(on.delivered).toBe(30);
      expect(on.orderViolations).toBe(0);
      const off = runTlm(w, { transport: 'quasi-adaptive', buffersPerPbu: 2, deadlockRule: false, recordEvents: false });
      if (off.stats.deadlock) {
        deadlocks++;
        expectGenuineDeadlock(off, 3);
      }
    }
    expect(deadlocks).toBeGreaterThan(3); // the negative control does find deadlocks
  });
});

describe('Chapter 5 shape at heavy load (§10.3, 6-cube, 512-byte mean, 1024-tick mean gap)', () => {
  const w = buzzardCh5Workload({ meanBytes: 512, meanGapTicks: 1024, messagesPerNode: 30, seed: 3 });
  const r = Object.fromEntries(TRANSPORTS.map((t) => [t, runTlm(w, { transport: t, recordEvents: false }).stats])) as Record<Transport, TlmResult['stats']>;

  it('packet schemes give a lower mean first-packet time than wormhole, and lower bandwidth (larger last − first)', () => {
    for (const t of ['fixed-packet', 'quasi-adaptive'] as const) {
      expect(r[t].delivered).toBe(w.messages.length);
      expect(r[t].meanFirst).toBeLessThan(r.wormhole.meanFirst);
      expect(r[t].meanLastMinusFirst).toBeGreaterThan(r.wormhole.meanLastMinusFirst);
    }
    expect(r['quasi-adaptive'].contraryMessages).toBeGreaterThan(0);
  });

  it('the ideal link utilisation is the same for every scheme and matches the analytic §10.3 value', () => {
    const u = r.wormhole.idealLinkUtilisation!;
    for (const t of TRANSPORTS) expect(r[t].idealLinkUtilisation).toBe(u);
    expect(u).toBe(idealLinkUtilisation({ n: 6, lastGenerationTicks: w.messages.at(-1)!.t, messages: w.messages.map((m) => ({ lengthBytes: m.bytes, hops: hops(m.src, m.dst) })) }));
    // Short runs end a little after the mean generation horizon (the last of 64 nodes), so U is somewhat below 520.1/1024 ≈ 0.51.
    const expected = expectedLinkUtilisation({ n: 6, meanLengthBytes: 512, meanGenerationTicks: 1024 });
    expect(u / expected).toBeGreaterThan(0.75);
    expect(u / expected).toBeLessThan(1.05);
  });

  it('the §10.3 variants run: 26 buffers and 64-byte packets', () => {
    for (const v of ['buffers26', 'packet64'] as const) {
      const s = runTlm(w, { transport: 'quasi-adaptive', ...TLM_CH5_VARIANTS[v], recordEvents: false }).stats;
      expect(s.delivered).toBe(w.messages.length);
      expect(s.deadlock).toBeNull();
    }
  });
});

describe('Littlefield jig on the TLM (node bandwidth limit through the node input port)', () => {
  it('exchanging with two neighbours takes about twice as long as with one when the node input port is shared, about the same with per-link delivery', () => {
    const T = (L: number, delivery: 'shared-port' | 'per-link'): number => {
      const r = runTlm(littlefieldJigWorkload({ L, S: 600 }), { transport: 'fixed-packet', delivery, recordEvents: false });
      return r.stats.makespan;
    };
    const shared = T(4, 'shared-port') / T(2, 'shared-port');
    expect(shared).toBeGreaterThan(1.8);
    expect(shared).toBeLessThan(2.2);
    expect(T(4, 'per-link') / T(2, 'per-link')).toBeLessThan(1.1);
    expect(T(2, 'shared-port') / T(1, 'shared-port')).toBeLessThan(1.1);
  });
});

describe('trace output and configuration', () => {
  it('the event trace round-trips through the JSON-lines form with a tlm header', () => {
    const w = buzzardCh5Workload({ cubeDegree: 3, messagesPerNode: 3, seed: 1 });
    const r = runTlm(w, { transport: 'quasi-adaptive' });
    expect(r.header).toMatchObject({ format: 'icemu-events', version: 1, model: 'tlm', unit: 'ticks' });
    expect((r.header.workload as { name: string }).name).toBe('buzzard-ch5');
    const back = parseTrace(formatTrace(r.header, r.events!));
    expect(back.events).toEqual(r.events);
    const kinds = new Set(r.events!.map((e) => e.kind));
    expect([...kinds].sort()).toEqual(['first-packet-delivered', 'grant', 'head-arrives', 'message-complete', 'message-queued', 'packet-forwarded', 'packet-injected']);
  });

  it('rejects bad configs and unsupported messages naming the field', () => {
    const w = buzzardCh5Workload({ cubeDegree: 2, messagesPerNode: 1 });
    expect(() => runTlm(w, { transport: 'torus' as never })).toThrow("tlm.transport: 'torus' is not one of 'wormhole', 'fixed-packet', 'quasi-adaptive'");
    expect(() => runTlm(w, { transport: 'wormhole', ticksPerByte: 0 })).toThrow(/tlm.ticksPerByte: 0 is outside >0/);
    expect(() => runTlm(w, { transport: 'fixed-packet', buffersPerPbu: 0 })).toThrow(/tlm.buffersPerPbu: 0 is outside 1..4096/);
    expect(() => runTlm(w, { transport: 'quasi-adaptive', buffersPerPbu: 1 })).toThrow(/tlm.buffersPerPbu: 1 is outside 2..4096 for quasi-adaptive/);
    expect(() => runTlm(w, { transport: 'fixed-packet', delivery: 'magic' as never })).toThrow(/tlm.delivery/);
    const b = workload(2, [{ t: 0, src: 1, dst: 1, bytes: 8, kind: 'broadcast' }]);
    expect(() => runTlm(b, { transport: 'wormhole' })).toThrow("tlm: workload.messages[0].kind: 'broadcast' is not supported by the wormhole transport (packet transports only)");
    const unsorted: Workload = { ...w, messages: [{ id: 0, t: 5, src: 0, dst: 1, bytes: 1, kind: 'unicast' }, { id: 1, t: 4, src: 0, dst: 1, bytes: 1, kind: 'unicast' }] };
    expect(() => runTlm(unsorted, { transport: 'fixed-packet' })).toThrow(/workload.messages\[1\].t: 4 is before/);
  });
});
