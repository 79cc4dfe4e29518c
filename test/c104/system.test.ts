/**
 * C104 networks with real DS-link ends and T9000-style endpoints
 * (harness/rtl/c104_system.ts): `pair-c104` (two T9000s through one C104)
 * and T9000 + C104 meshes with hunt groups of 4: random messages on random
 * virtual links delivered exactly once, byte-exact, in order per virtual
 * link, and the network drains.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainNetwork, meshNetwork } from '../../rtl/c104/labelling.ts';
import type { NetworkSpec } from '../../rtl/c104/topology.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import type { ChannelEnd } from '../../harness/rtl/t9000_driver.ts';

/** Channels: for each endpoint pair in `pairs`, the next free label of each side. */
function channelsFor(spec: NetworkSpec, pairs: readonly [number, number][]): [ChannelEnd, ChannelEnd][] {
  const next = spec.terminals.map((t) => t.label);
  const out: [ChannelEnd, ChannelEnd][] = [];
  for (const [a, b] of pairs) {
    if (a === b) continue;
    const ta = spec.terminals[a]!;
    const tb = spec.terminals[b]!;
    if (next[a]! >= ta.label + (ta.labelCount ?? 1) || next[b]! >= tb.label + (tb.labelCount ?? 1)) continue;
    out.push([{ node: a, vl: next[a]!++ }, { node: b, vl: next[b]!++ }]);
  }
  return out;
}

/** Send `msgs` (channel index, direction, length) with receives posted; run until all delivered or `max` cycles. */
function run(sys: C104System, channels: [ChannelEnd, ChannelEnd][], msgs: { ch: number; back: boolean; len: number }[], max: number): boolean {
  const start = 2500; // after link start-up (ErrorReset 6.4 µs + ErrorWait 12.8 µs)
  let k = 0;
  for (const m of msgs) {
    const [a, b] = channels[m.ch % channels.length]!;
    const [src, dst] = m.back ? [b, a] : [a, b];
    sys.driver.send(src.node, src.vl, Array.from({ length: m.len }, (_, j) => (k * 17 + j * 3) & 0xff), start + k);
    sys.driver.receive(dst.node, dst.vl, start + k);
    k++;
  }
  const r = sys.sim.runUntil(() => sys.rec.deliveries.length === msgs.length, max);
  return r.reached;
}

function checkDeliveries(sys: C104System): void {
  const byId = new Map(sys.driver.messages.map((m) => [m.id, m]));
  const seen = new Set<number>();
  const lastSeq = new Map<string, number>();
  for (const d of sys.rec.deliveries) {
    const m = byId.get(d.msg)!;
    expect(m).toBeDefined();
    expect(seen.has(d.msg)).toBe(false);
    seen.add(d.msg);
    expect([d.node, d.vl]).toEqual([m.dest.node, m.dest.vl]);
    expect(d.bytes).toEqual(m.data);
    const key = `${m.src.node}:${m.src.vl}`;
    expect(m.seq).toBeGreaterThan(lastSeq.get(key) ?? -1);
    lastSeq.set(key, m.seq);
  }
  expect(seen.size).toBe(sys.driver.messages.length);
  expect(sys.rec.anomalies).toEqual([]);
}

describe('pair-c104: two T9000s through one C104 (real DS-links)', () => {
  it('messages both ways on two virtual links arrive exactly once, byte-exact, in order', () => {
    const spec = chainNetwork(1, 2);
    const channels = channelsFor(spec, [[0, 1], [0, 1]]);
    expect(channels).toHaveLength(2);
    const sys = makeC104System(spec, channels);
    const msgs = Array.from({ length: 12 }, (_, k) => ({ ch: k % 2, back: k % 3 === 0, len: (k * 11) % 70 }));
    expect(run(sys, channels, msgs, 200000)).toBe(true);
    checkDeliveries(sys);
  });
});

describe('T9000 + C104 meshes (real DS-links, hunt groups of 4)', () => {
  it('x-first: random messages on random virtual links are delivered exactly once, byte-exact, in order per virtual link', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 2, max: 3 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 8 }),
        fc.array(fc.record({ ch: fc.nat(), back: fc.boolean(), len: fc.integer({ min: 0, max: 80 }) }), { minLength: 1, maxLength: 12 }),
        (w, h, pairs, msgs) => {
          const spec = meshNetwork({ w, h, routing: 'x-first', labelsPerNode: 3 });
          const n = w * h;
          const channels = channelsFor(spec, pairs.map(([a, b]) => [a % n, b % n] as [number, number]));
          if (channels.length === 0) return;
          const sys = makeC104System(spec, channels);
          expect(run(sys, channels, msgs, 400000)).toBe(true);
          checkDeliveries(sys);
        },
      ),
      { numRuns: 3 },
    );
  });
});
