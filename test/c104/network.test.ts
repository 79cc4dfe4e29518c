/**
 * C104 networks on link-end stand-ins (net_bench.ts): random traffic on
 * random x-first meshes delivered exactly once, byte-exact, in order per
 * virtual link, and the network drains; two-phase meshes likewise; the
 * cyclic ring deadlocks and the structural detector names the ring of
 * waiting links (negative control), while the acyclic labelling of the same
 * ring drains under the same traffic.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAR_EOM, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { chainNetwork, meshNetwork, ringNetwork, type MeshRouting } from '../../rtl/c104/labelling.ts';
import type { NetworkSpec } from '../../rtl/c104/topology.ts';
import { describeC104Deadlock, findC104Deadlock } from '../../harness/rtl/c104_deadlock.ts';
import { attachC104Events } from '../../harness/rtl/c104_events.ts';
import { traceRoute } from '../../rtl/c104/channel_deps.ts';
import { NetBench, idOf } from './net_bench.ts';
import { C104_PIPELINES } from '../../rtl/c104/config.ts';

/** Attach the event recorder with the bench's endpoint links as identity source. */
function record(b: NetBench) {
  return attachC104Events(b.sim, b.top.switches, b.net, (sw, link) => {
    const id = b.startedOn.get(`${sw}:${link}`)?.shift();
    return id === undefined ? null : { msg: id, packet: 0 };
  });
}

interface Msg {
  src: number;
  dst: number;
  len: number;
  eom: boolean;
}

/** Run until drained or stalled (no delivery for `patience` cycles); returns whether it drained. */
function runToEnd(b: NetBench, patience: number, max: number): boolean {
  let last = 0;
  let lastChange = 0;
  for (let c = 0; c < max && !b.drained(); c++) {
    b.step();
    const d = b.deliveredCount;
    if (d !== last) {
      last = d;
      lastChange = c;
    } else if (c - lastChange > patience) return false;
  }
  return b.drained();
}

/** Every packet exactly once at its destination, byte-exact, and in sending order per virtual link. */
function checkDelivery(b: NetBench): void {
  const h = b.net.spec.headerBytes;
  const seen = new Set<number>();
  b.delivered.forEach((pkts, ti) => {
    const lastPerSrc = new Map<number, number>();
    for (const chars of pkts) {
      const id = idOf(chars, h);
      const p = b.packets[id]!;
      expect(seen.has(id)).toBe(false);
      seen.add(id);
      expect(p.dst).toBe(ti);
      expect(chars).toEqual(p.chars);
      expect(id).toBeGreaterThan(lastPerSrc.get(p.src) ?? -1);
      lastPerSrc.set(p.src, id);
    }
  });
  expect(seen.size).toBe(b.packets.length);
}

function sendAll(b: NetBench, msgs: Msg[]): void {
  const T = b.net.spec.terminals.length;
  for (const m of msgs) {
    const src = m.src % T;
    let dst = m.dst % T;
    if (dst === src) dst = (dst + 1) % T;
    if (src === dst) continue;
    b.send(src, dst, Array.from({ length: m.len }, (_, k) => (src * 31 + k * 7) & 0xff), m.eom ? CHAR_EOM : CHAR_EOP);
  }
}

const msgs = fc.array(fc.record({ src: fc.nat(), dst: fc.nat(), len: fc.integer({ min: 0, max: 40 }), eom: fc.boolean() }), { minLength: 1, maxLength: 40 });

describe('C104 mesh networks (link stand-ins)', () => {
  for (const routing of ['x-first', 'two-phase'] as MeshRouting[]) {
    it(`${routing}: random traffic on random meshes is delivered exactly once, byte-exact, in order per virtual link, and drains`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: routing === 'x-first' ? 6 : 3 }), fc.integer({ min: 2, max: routing === 'x-first' ? 6 : 3 }), msgs, fc.integer({ min: 2, max: 40 }), fc.constantFrom(...C104_PIPELINES), (w, h, ms, buf, pipeline) => {
          const b = new NetBench(meshNetwork({ w, h, routing }), { inputBufferTokens: buf, outputBufferTokens: buf, pipeline });
          sendAll(b, ms);
          // The detector never reports on a deadlock-free network, also mid-run.
          for (let c = 0; c < 40 && !b.drained(); c++) {
            for (let k = 0; k < 25; k++) b.step();
            expect(findC104Deadlock(b.sim, b.top.switches, b.net)).toBeNull();
          }
          expect(runToEnd(b, 3000, 200000)).toBe(true);
          checkDelivery(b);
          expect(findC104Deadlock(b.sim, b.top.switches, b.net)).toBeNull();
        }),
        { numRuns: 4 },
      );
    });
  }

  it('2-byte headers: a y-first mesh with 2-byte labels delivers exactly once', () => {
    const b = new NetBench(meshNetwork({ w: 3, h: 2, routing: 'y-first', headerBytes: 2 }), { inputBufferTokens: 5, outputBufferTokens: 5 });
    sendAll(b, Array.from({ length: 30 }, (_, k) => ({ src: k % 6, dst: (k * 5 + 2) % 6, len: k % 9, eom: k % 2 === 0 })));
    expect(runToEnd(b, 3000, 50000)).toBe(true);
    checkDelivery(b);
  });

  it('a chain of 5 C104s: every packet crosses all five', () => {
    const b = new NetBench(chainNetwork(5), { inputBufferTokens: 4, outputBufferTokens: 4 });
    const rec = record(b);
    sendAll(b, Array.from({ length: 10 }, (_, k) => ({ src: k % 2, dst: (k + 1) % 2, len: 10, eom: true })));
    expect(runToEnd(b, 3000, 50000)).toBe(true);
    checkDelivery(b);
    for (const p of b.packets) expect(rec.events.filter((e) => e.msg === p.id && e.kind === 'head-arrives').map((e) => e.node)).toEqual(p.src === 0 ? [0, 1, 2, 3, 4] : [4, 3, 2, 1, 0]);
  });

  it('a 6×6 x-first mesh drains random traffic exactly once', () => {
    const b = new NetBench(meshNetwork({ w: 6, h: 6, routing: 'x-first' }), { inputBufferTokens: 8, outputBufferTokens: 8 });
    const ms: Msg[] = Array.from({ length: 120 }, (_, k) => ({ src: (k * 7) % 36, dst: (k * 13 + 5) % 36, len: (k * 5) % 33, eom: k % 3 === 0 }));
    sendAll(b, ms);
    expect(runToEnd(b, 3000, 200000)).toBe(true);
    checkDelivery(b);
  });
});

describe('C104 events (shared vocabulary)', () => {
  for (const pipeline of C104_PIPELINES) it(`x-first: each packet's head-arrives follow the path its interval tables trace; grant precedes packet-forwarded by one cycle (${pipeline})`, () => {
    const b = new NetBench(meshNetwork({ w: 4, h: 3, routing: 'x-first' }), { inputBufferTokens: 6, outputBufferTokens: 6, pipeline });
    const rec = record(b);
    sendAll(b, Array.from({ length: 60 }, (_, k) => ({ src: (k * 5) % 12, dst: (k * 7 + 3) % 12, len: (k * 3) % 20, eom: false })));
    expect(runToEnd(b, 3000, 100000)).toBe(true);
    expect(rec.unidentified).toBe(0);
    for (const p of b.packets) {
      const heads = rec.events.filter((e) => e.msg === p.id && e.kind === 'head-arrives').map((e) => e.node);
      const route = traceRoute(b.net, p.src, b.net.spec.terminals[p.dst]!.label);
      expect(heads).toEqual(route.hops.map((h) => h.sw));
      const grants = rec.events.filter((e) => e.msg === p.id && e.kind === 'grant');
      const fwd = rec.events.filter((e) => e.msg === p.id && e.kind === 'packet-forwarded');
      expect(fwd.map((e) => e.t)).toEqual(grants.map((e) => e.t + 1));
      expect(fwd.map((e) => e.port)).toEqual(grants.map((e) => e.port));
    }
  });

  /** Run two-phase traffic on a 3×3 mesh; returns χ² of the intermediate-switch counts (8 degrees of freedom). */
  function twoPhaseChi2(narrow: boolean): number {
    const w = 3;
    const h = 3;
    const n = w * h;
    const spec = meshNetwork({ w, h, routing: 'two-phase' });
    // Negative control: injection links draw the random header from the first three intermediates only.
    if (narrow) for (const sw of spec.switches) sw.randomHeader = sw.randomHeader.map((r) => (r ? { lo: n, hi: n + 2 } : null));
    const b = new NetBench(spec, { inputBufferTokens: 8, outputBufferTokens: 8, seed: 7 });
    const rec = record(b);
    sendAll(b, Array.from({ length: 450 }, (_, k) => ({ src: k % n, dst: (k * 4 + 1) % n, len: 2, eom: false })));
    expect(runToEnd(b, 3000, 400000)).toBe(true);
    checkDelivery(b);
    // The loopback input (link 13: cpuLinks 4 + 9) where the random header is deleted names the intermediate switch.
    const counts = new Array<number>(n).fill(0);
    for (const e of rec.events) if (e.kind === 'head-arrives' && e.port === 13) counts[e.node]!++;
    expect(counts.reduce((a, c) => a + c, 0)).toBe(b.packets.length);
    const expected = b.packets.length / n;
    return counts.reduce((a, c) => a + (c - expected) ** 2 / expected, 0);
  }

  it('two-phase: intermediate switches are uniform (χ² at p > 0.01) and delivery is exact; a narrowed random range fails the test', () => {
    // χ² critical value, 8 degrees of freedom, p = 0.01: 20.09.
    expect(twoPhaseChi2(false)).toBeLessThan(20.09);
    expect(twoPhaseChi2(true)).toBeGreaterThan(20.09);
  });
});

describe('deadlock negative control: a ring with cyclic labelling', () => {
  /** Every endpoint sends long packets two switches clockwise; buffers far smaller than a packet. */
  function ringTraffic(spec: NetworkSpec): NetBench {
    const b = new NetBench(spec, { inputBufferTokens: 4, outputBufferTokens: 4, requireDeadlockFree: false });
    for (let s = 0; s < 4; s++) for (let k = 0; k < 2; k++) b.send(s, (s + 2) % 4, new Array<number>(60).fill(s), CHAR_EOP);
    return b;
  }

  it('building it is refused by default, with the dependency cycle in one line', () => {
    expect(() => new NetBench(ringNetwork(4, true))).toThrow(/^network net: labelling is not deadlock-free: channel dependency cycle c104_\d\.link1 → c104_\d\.link1 → c104_\d\.link1 → c104_\d\.link1 → c104_\d\.link1$/);
  });

  it('deadlocks, and the structural detector names the ring of waiting links', () => {
    const b = ringTraffic(ringNetwork(4, true));
    expect(runToEnd(b, 500, 20000)).toBe(false);
    const d = findC104Deadlock(b.sim, b.top.switches, b.net);
    expect(d).not.toBeNull();
    expect(d!.ring).toHaveLength(5);
    expect(new Set(d!.ring.slice(0, 4))).toEqual(new Set(['c104_0.link1', 'c104_1.link1', 'c104_2.link1', 'c104_3.link1']));
    expect(describeC104Deadlock(d!)).toMatch(/^deadlock: ring of waiting links c104_\d\.link1 → /);
  });

  it('the acyclic labelling of the same ring drains the same traffic, and the detector finds nothing', () => {
    const b = ringTraffic(ringNetwork(4, false));
    expect(runToEnd(b, 500, 20000)).toBe(true);
    checkDelivery(b);
    expect(findC104Deadlock(b.sim, b.top.switches, b.net)).toBeNull();
  });
});
