/**
 * Shared by the C104 + T9000 system tests: send random messages with their
 * receives posted and check every delivery exactly once, byte-exact, in
 * order per virtual link (harness/rtl/c104_system.ts).
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { meshNetwork } from '../../rtl/c104/labelling.ts';
import type { C104Options } from '../../rtl/c104/config.ts';
import { makeC104System, nodeChannels, type C104System } from '../../harness/rtl/c104_system.ts';
import { channelPairs } from '../../harness/rtl/c104_thesis_workload.ts';
import type { ChannelEnd } from '../../harness/rtl/t9000_driver.ts';
import type { NetworkSpec } from '../../rtl/c104/topology.ts';
import type { Memory, Simulator } from '../../rtl/kernel/index.ts';

export /** Send `msgs` (channel index, direction, length) with receives posted; run until all delivered or `max` cycles. */
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

export function checkDeliveries(sys: C104System): void {
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


/** The T9000 control-block memories of a simulation (docs/t9000.md#control-blocks), in design order. */
export function blockMemories(sim: Simulator): Memory[] {
  return sim.net.memories.filter((m) => m.path.includes('.vlc.'));
}

/** The first word where two runs' control-block memories differ (`path[word] reference x fast y`), or undefined. */
export function firstBlockDiff(ref: readonly Memory[], fast: readonly Memory[]): string | undefined {
  for (let j = 0; j < ref.length; j++) {
    const x = ref[j]!.data;
    const y = fast[j]!.data;
    for (let w = 0; w < x.length; w++) if (x[w] !== y[w]) return `${ref[j]!.path}[${w}] reference ${x[w]} fast ${y[w]}`;
  }
  return undefined;
}

/** A lock-step test's messages (src, dst, length, start offset) over T nodes. */
export interface PairMessage {
  src: number;
  dst: number;
  len: number;
  at: number;
}

/** Map drawn messages onto T nodes (never to themselves) and the pairs that talk. */
export function pairMessages(drawn: readonly PairMessage[], T: number): { msgs: PairMessage[]; pairs: [number, number][]; labels: number } {
  const msgs = drawn.map((m) => ({ ...m, src: m.src % T, dst: (m.src + 1 + (m.dst % (T - 1))) % T }));
  return { msgs, ...channelPairs(msgs, T) };
}

/** One channel per talking pair: node addressing, or a virtual link per pair from each terminal's first label. */
export function pairChannels(spec: NetworkSpec, pairs: [number, number][], T: number, node: boolean): [ChannelEnd, ChannelEnd][] {
  const next = spec.terminals.map((t) => t.label);
  return node ? nodeChannels(pairs, T).channels : pairs.map(([a, b]) => [{ node: a, vl: next[a]!++ }, { node: b, vl: next[b]!++ }]);
}

/** Post every message's send and receive 2,500 cycles (link start-up) after its offset. */
export function postPairMessages(sys: C104System, channels: [ChannelEnd, ChannelEnd][], msgs: readonly PairMessage[]): void {
  const endOf = new Map<string, ChannelEnd>();
  for (const [a, b] of channels) {
    endOf.set(`${a.node}>${b.node}`, a);
    endOf.set(`${b.node}>${a.node}`, b);
  }
  msgs.forEach((m, k) => {
    const src = endOf.get(`${m.src}>${m.dst}`)!;
    const dst = endOf.get(`${m.dst}>${m.src}`)!;
    sys.driver.send(src.node, src.vl, Array.from({ length: m.len }, (_, j) => (k * 31 + j) & 0xff), 2500 + m.at);
    sys.driver.receive(dst.node, dst.vl, 2500 + m.at);
  });
}

/**
 * The deadlock tests' ring traffic on a 4-switch ring (rtl/c104/labelling.ts
 * ringNetwork, links possibly moved): endpoints 0↔2 and 1↔3, four 96-byte
 * messages each way with receives posted, small buffers (8 in, 1 out).
 */
export function ringSystem(spec: NetworkSpec, slices: 'all' | 'connected' = 'all'): C104System {
  const channels: [ChannelEnd, ChannelEnd][] = [
    [{ node: 0, vl: 0 }, { node: 2, vl: 2 }],
    [{ node: 1, vl: 1 }, { node: 3, vl: 3 }],
  ];
  const sys = makeC104System(spec, channels, { c104: { inputBufferTokens: 8, outputBufferTokens: 1, slices }, requireDeadlockFree: false });
  for (const [a, b] of channels) {
    for (const [src, dst] of [[a, b], [b, a]] as const) {
      for (let k = 0; k < 4; k++) {
        sys.driver.send(src.node, src.vl, Array.from({ length: 96 }, (_, j) => (j + k) & 0xff), 2500 + k);
        sys.driver.receive(dst.node, dst.vl, 2500 + k);
      }
    }
  }
  return sys;
}

/**
 * Two builds of one system (reference and fast mode) stepped in lock-step
 * for `cycles`: the first difference, a slot named by its signal or a
 * control-block word, or undefined. `before(cyc)` runs before each step.
 */
export function firstStepDiff(ref: C104System, fast: C104System, cycles: number, before?: (cyc: number) => void): string | undefined {
  const names = ref.sim.net.signals;
  const rb = blockMemories(ref.sim);
  const fb = blockMemories(fast.sim);
  for (let cyc = 0; cyc < cycles; cyc++) {
    before?.(cyc);
    ref.sim.step(1);
    fast.sim.step(1);
    const a = ref.sim.values();
    const b = fast.sim.values();
    for (let k = 0; k < a.length; k++) {
      if (a[k] !== b[k]) {
        const sig = names.find((s) => s.i === k || s.n === k);
        return `cycle ${ref.sim.cycle}: slot ${k} (${sig?.path ?? '?'}) reference ${a[k]} fast ${b[k]}`;
      }
    }
    const m = firstBlockDiff(rb, fb);
    if (m) return `cycle ${ref.sim.cycle}: ${m}`;
  }
  return undefined;
}

/** A small mesh under random paired messages (test/c104/per_token_guards, direct_data). */
export interface MeshCase {
  w: number;
  h: number;
  msgs: PairMessage[];
  cycles: number;
  node: boolean;
  c104: C104Options;
}

/** The mesh of `c` (x-first), its channels and messages posted, held sends. */
export function buildMeshCase(c: MeshCase, mode: 'plain' | 'activity', c104: C104Options = {}): C104System {
  const T = c.w * c.h;
  const { msgs, pairs, labels } = pairMessages(c.msgs, T);
  const spec = meshNetwork({ w: c.w, h: c.h, routing: 'x-first', labelsPerNode: c.node ? 1 : labels });
  const channels = pairChannels(spec, pairs, T, c.node);
  const sys = makeC104System(spec, channels, { mode, t9000: c.node ? { addressing: 'node' } : {}, c104: { ...c.c104, ...c104 } });
  sys.driver.holdWhenFull = true;
  postPairMessages(sys, channels, msgs);
  return sys;
}

/** Random messages on a 2x1 or 2x2 mesh. */
export const meshMsgsArb = fc.array(fc.record({ src: fc.nat(7), dst: fc.nat(7), len: fc.integer({ min: 0, max: 70 }), at: fc.nat(400) }), { minLength: 4, maxLength: 20 });

/** A loaded 2x2 mesh's messages: every endpoint sends to every other at once (contention, full output buffers, held cores). */
export const CROWD_MSGS: PairMessage[] = Array.from({ length: 12 }, (_, k) => ({ src: k % 4, dst: (k % 4) + 1 + (k >> 2), len: 40 + k, at: 0 })).map((m) => ({ ...m, dst: m.dst % 4 }));

/** The end of a lock-step: the event traces and deliveries equal (something delivered), or what differs. */
export function sameTraces(ref: C104System, fast: C104System): string | undefined {
  if (JSON.stringify(ref.rec.events) !== JSON.stringify(fast.rec.events)) return 'event traces differ';
  if (JSON.stringify(ref.rec.deliveries) !== JSON.stringify(fast.rec.deliveries)) return 'deliveries differ';
  expect(fast.rec.deliveries.length).toBeGreaterThan(0);
  return undefined;
}
