/**
 * Two endpoints joined by one link (test helper over harness/rtl/t9000_pair.ts):
 * the stand-in link by default, or the real DS-link; and the random-workload
 * delivery property of endpoint.test.ts and pair_node.test.ts.
 */
import fc from 'fast-check';
import type { SimMode } from '../../rtl/kernel/index.ts';
import type { LinkEndFactory } from '../../rtl/t9000/endpoint.ts';
import type { T9000Config } from '../../rtl/t9000/config.ts';
import type { SideBandOptions } from '../../rtl/lib/side_band.ts';
import { makeT9000Pair, type T9000Pair } from '../../harness/rtl/t9000_pair.ts';
import { LinkStub, type LinkStubConfig } from '../../harness/rtl/link_standin.ts';
import { dsLinks } from '../../harness/rtl/t9000_pair.ts';

export function stubLinks(cfg: LinkStubConfig = {}): LinkEndFactory {
  return (p, name) => new LinkStub(p, name, cfg);
}

/** The real DS-link end (rtl/dslink), configured as the T9000's links (harness/rtl/t9000_pair.ts). */
export const realLinks = (): LinkEndFactory => dsLinks();

export type Pair = T9000Pair;

export function makePair(vls: number, cfg: Partial<T9000Config> = {}, opts: { mode?: SimMode; links?: LinkEndFactory; cfgB?: Partial<T9000Config>; sideBand?: SideBandOptions } = {}): Pair {
  return makeT9000Pair(vls, cfg, { links: opts.links ?? stubLinks(), mode: opts.mode, cfgB: opts.cfgB, sideBand: opts.sideBand });
}

export interface Op {
  from: 0 | 1;
  vl: number;
  len: number;
  sendAt: number;
  recvAt: number;
  seed: number;
}

export const VLS = 3;
export const opArb = fc.record({
  from: fc.constantFrom(0 as const, 1 as const),
  vl: fc.integer({ min: 0, max: VLS - 1 }),
  len: fc.oneof(fc.constantFrom(0, 1, 31, 32, 33, 64, 65), fc.integer({ min: 0, max: 100 })),
  sendAt: fc.integer({ min: 0, max: 3000 }),
  recvAt: fc.integer({ min: 0, max: 3000 }),
  seed: fc.integer({ min: 0, max: 255 }),
});

export function bytesOf(op: Op, k: number): number[] {
  return Array.from({ length: op.len }, (_, j) => (op.seed + 7 * j + 13 * k) & 0xff);
}

/** Run a list of ops over the real DS-link; returns the pair after the run and the data sent, per message id. */
export function runOps(ops: Op[], cfg: Partial<T9000Config> = {}, cycles = 40_000, opts: { mode?: SimMode; sideBand?: SideBandOptions } = {}): { p: Pair; sent: number[][] } {
  const p = makePair(VLS, { sendAreaBytes: 8192, rxSlots: 4, ...cfg }, { links: realLinks(), ...opts });
  const sent: number[][] = [];
  // sends on one VL must be issued in time order to be in order: sort by sendAt (stable)
  const order = ops.map((o, k) => ({ o, k })).sort((x, y) => x.o.sendAt - y.o.sendAt);
  for (const { o, k } of order) {
    const m = p.driver.send(o.from, o.vl, bytesOf(o, k), o.sendAt);
    sent[m.id] = m.data;
    p.driver.receive(1 - o.from, o.vl, o.recvAt);
  }
  p.sim.runUntil(() => p.rec.deliveries.length >= ops.length, cycles);
  p.sim.step(200); // a little longer: a duplicate delivery would show
  return { p, sent };
}

/** Exactly once, byte-exact, in order per virtual link (as the property states it). */
export function deliveredExactlyOnceInOrder(p: Pair, sent: number[][]): boolean {
  const seen = new Set<number>();
  const lastPerVl = new Map<string, number>();
  for (const d of p.rec.deliveries) {
    if (d.msg < 0 || seen.has(d.msg)) return false;
    seen.add(d.msg);
    const m = p.driver.messages[d.msg]!;
    if (m.dest.node !== d.node || m.dest.vl !== d.vl) return false;
    const want = sent[d.msg]!;
    if (d.bytes.length !== want.length || d.bytes.some((b, j) => b !== want[j])) return false;
    const key = `${d.node}:${d.vl}`;
    const prev = lastPerVl.get(key) ?? -1;
    if (m.seq !== prev + 1) return false;
    lastPerVl.set(key, m.seq);
  }
  return seen.size === sent.length && p.rec.anomalies.length === 0;
}
