/**
 * C104 option `slices` (rtl/c104/slices.ts, docs/c104.md#compact-slices):
 * a network whose switches elaborate only their connected slices runs in
 * lock-step with the same network elaborating all 32, on random small meshes
 * (x-first, y-first, two-phase; 1–4 processor links), every arbitration
 * policy, both pipelines, ack priority on or off and both T9000 addressings,
 * under random messages with held sends. At every cycle every signal of the
 * compact network equals its counterpart in the full one; afterwards the
 * T9000 event trace, the C104 event trace (grants and forwards name links),
 * the control-block memories and the deliveries are equal. The compact
 * network runs in the fast mode or the reference mode ('plain'), at random.
 *
 * Counterparts: a signal outside the crossbar and the selector's arrival
 * book has the same path in both (link k keeps its name). The crossbar's
 * and the book's ports and units are numbered by crossbar index, so their
 * digits are mapped to links (`linkOf`), and so are their values where they
 * are an index (src, gidx, the arbiters' idx: a value 0 also matches 0, the
 * idle value) or a mask of indices (req, col, the routers' and selector's
 * requests). Negative controls: two outputs' stages swapped, and the random
 * policy hashing with the crossbar index instead of the link, must fail.
 * The deadlock detector on a cyclic ring whose ring links are 5 and 9
 * (crossbar indices 1 and 2 when compact) names the same links both ways
 * (read as the crossbar index it finds no ring: checked by hand).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meshNetwork, ringNetwork, type MeshRouting } from '../../rtl/c104/labelling.ts';
import type { NetworkSpec } from '../../rtl/c104/topology.ts';
import { findC104Deadlock } from '../../harness/rtl/c104_deadlock.ts';
import { C104_POLICIES, type C104Options, type C104Pipeline, type C104Policy } from '../../rtl/c104/config.ts';
import { maskToCrossbar, maskToLinks, sliceMap, SLICES_FAULT } from '../../rtl/c104/slices.ts';
import { C104ConfigError } from '../../rtl/c104/interval_table.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import { attachC104Events, type C104EventRecorder } from '../../harness/rtl/c104_events.ts';
import type { C104 } from '../../rtl/c104/c104.ts';
import { blockMemories, firstBlockDiff, pairChannels, pairMessages, postPairMessages, ringSystem } from './system_check.ts';

interface Case {
  w: number;
  h: number;
  routing: MeshRouting;
  cpuLinks: number;
  policy: C104Policy;
  pipeline: C104Pipeline;
  ackPriority: boolean;
  addressing: 'virtual-link' | 'node';
  msgs: { src: number; dst: number; len: number; at: number }[];
  cycles: number;
  /** The compact network's simulation mode (the full one runs 'activity'); default 'activity'. */
  compactMode?: 'activity' | 'plain';
}

interface Run {
  sys: C104System;
  events: C104EventRecorder;
}

function build(c: Case, slices: 'all' | 'connected', mode: 'activity' | 'plain' = 'activity'): Run {
  const T = c.w * c.h;
  const { msgs, pairs, labels } = pairMessages(c.msgs, T);
  const node = c.addressing === 'node';
  const spec = meshNetwork({ w: c.w, h: c.h, routing: c.routing, cpuLinks: c.cpuLinks, labelsPerNode: node ? 1 : labels });
  const channels = pairChannels(spec, pairs, T, node);
  const c104: C104Options = { policy: c.policy, pipeline: c.pipeline, ackPriority: c.policy === 'fixed-priority' ? false : c.ackPriority, slices };
  if (c.pipeline === 'cut-through') c104.routingDelay = 0;
  const sys = makeC104System(spec, channels, { mode, t9000: node ? { addressing: 'node' } : {}, c104 });
  sys.driver.holdWhenFull = true;
  postPairMessages(sys, channels, msgs);
  let n = 0;
  const events = attachC104Events(sys.sim, sys.network.switches, sys.net, () => ({ msg: n++, packet: 0 }), { switchEnds: sys.network.ends, deadlockEvery: 2000 });
  return { sys, events };
}

type Kind = 'plain' | 'index' | 'mask';
/** Crossbar signals by local name: index in input or output space, and what the value is. */
const XBAR_INDEX_VALUED = new Set(['src', 'srcr', 'aidx', 'gidx', 'iout']);
const XBAR_MASK_VALUED = new Set(['req', 'col', 'onehot', 'oh']); // onehot: the data path's connection register (dataGuard 'connection', docs/kernel.md "Stop 22: FIFOs and C104"); oh its port (the direct data path, "Stop 24: FIFOs and C104")

/** The full network's path and value kind of a compact network's signal (null: no counterpart). */
function counterpart(path: string, sw: C104): { path: string; kind: Kind } | null {
  const L = sw.linkOf;
  const link = (d: string): string => String(L[Number(d)]);
  const base = sw.path;
  if (!path.startsWith(base + '.')) return { path, kind: 'plain' };
  const local = path.slice(base.length + 1);
  let m: RegExpMatchArray | null;
  if ((m = local.match(/^xbar\.arb(\d+)\.([a-z]+)(\d*)$/))) return { path: `${base}.xbar.arb${link(m[1]!)}.${m[2]}${m[3] ? link(m[3]) : ''}`, kind: m[2] === 'idx' ? 'index' : 'plain' };
  if ((m = local.match(/^xbar\.ar(\d+)_(\d+)$/))) return { path: `${base}.xbar.ar${link(m[1]!)}_${link(m[2]!)}`, kind: 'plain' };
  if ((m = local.match(/^xbar\.([a-z]+)(\d+)$/))) return { path: `${base}.xbar.${m[1]}${link(m[2]!)}`, kind: XBAR_INDEX_VALUED.has(m[1]!) ? 'index' : XBAR_MASK_VALUED.has(m[1]!) ? 'mask' : 'plain' };
  if ((m = local.match(/^sel\.book\.([a-z]+)(\d*)$/))) return { path: `${base}.sel.book.${m[1]}${m[2] ? link(m[2]) : ''}`, kind: m[1] === 'idx' ? 'index' : 'plain' };
  if ((m = local.match(/^sel\.(reqIn|reqOut)\d+$/))) return { path, kind: 'mask' };
  // The direct data path's view of output k's connection (a mask of crossbar inputs; docs/c104.md#direct-data-path).
  if ((m = local.match(/^xh\d+$/))) return { path, kind: 'mask' };
  if ((m = local.match(/^in\d+\.(req|gidx|xgm)$/))) return m[1] === 'xgm' ? null : { path, kind: m[1] === 'req' ? 'mask' : 'index' };
  return { path, kind: 'plain' };
}

interface Pair {
  a: number;
  b: number;
  kind: Kind;
  linkOf: readonly number[];
  path: string;
}

function pairs(full: C104System, compact: C104System): Pair[] {
  const byPath = new Map(full.sim.net.signals.map((s) => [s.path, s]));
  const owner = new Map<string, C104>();
  for (const sw of compact.network.switches) owner.set(sw.path, sw);
  const out: Pair[] = [];
  for (const s of compact.sim.net.signals) {
    const swPath = [...owner.keys()].find((p) => s.path.startsWith(p + '.'));
    const sw = swPath ? owner.get(swPath)! : null;
    const cp = sw ? counterpart(s.path, sw) : { path: s.path, kind: 'plain' as Kind };
    if (!cp) continue;
    const f = byPath.get(cp.path);
    if (!f) throw new Error(`no counterpart for ${s.path} (${cp.path})`);
    out.push({ a: f.i, b: s.i, kind: cp.kind, linkOf: sw?.linkOf ?? [], path: s.path });
  }
  return out;
}

function same(p: Pair, full: number, compact: number): boolean {
  if (p.kind === 'plain') return full === compact;
  if (p.kind === 'index') return full === p.linkOf[compact] || (full === 0 && compact === 0);
  return full === maskToLinks(compact, p.linkOf);
}

/** First difference between the two elaborations (a signal named), or undefined. */
function lockstep(c: Case): string | undefined {
  const full = build(c, 'all');
  const compact = build(c, 'connected', c.compactMode);
  const ps = pairs(full.sys, compact.sys);
  expect(compact.sys.sim.net.signals.length).toBeLessThan(full.sys.sim.net.signals.length);
  const rb = blockMemories(full.sys.sim);
  const cb = blockMemories(compact.sys.sim);
  for (let cyc = 0; cyc < c.cycles; cyc++) {
    full.sys.sim.step(1);
    compact.sys.sim.step(1);
    const a = full.sys.sim.values();
    const b = compact.sys.sim.values();
    for (const p of ps) if (!same(p, a[p.a]!, b[p.b]!)) return `cycle ${full.sys.sim.cycle}: ${p.path} (${p.kind}) all ${a[p.a]} connected ${b[p.b]}`;
    const m = firstBlockDiff(rb, cb);
    if (m) return `cycle ${full.sys.sim.cycle}: ${m}`;
  }
  if (JSON.stringify(full.sys.rec.events) !== JSON.stringify(compact.sys.rec.events)) return 'T9000 event traces differ';
  if (JSON.stringify(full.events.events) !== JSON.stringify(compact.events.events)) return 'C104 event traces differ';
  if (JSON.stringify(full.sys.rec.deliveries) !== JSON.stringify(compact.sys.rec.deliveries)) return 'deliveries differ';
  expect(full.events.events.some((e) => e.kind === 'grant')).toBe(true);
  expect(full.sys.rec.deliveries.length).toBeGreaterThan(0);
  return undefined;
}

const caseArb = fc.record({
  w: fc.integer({ min: 1, max: 3 }),
  h: fc.integer({ min: 1, max: 2 }),
  routing: fc.constantFrom<MeshRouting>('x-first', 'y-first', 'two-phase'),
  cpuLinks: fc.integer({ min: 1, max: 4 }),
  policy: fc.constantFrom<C104Policy>(...C104_POLICIES),
  pipeline: fc.constantFrom<C104Pipeline>('registered', 'cut-through'),
  ackPriority: fc.boolean(),
  addressing: fc.constantFrom('virtual-link' as const, 'node' as const),
  msgs: fc.array(fc.record({ src: fc.nat(7), dst: fc.nat(7), len: fc.integer({ min: 0, max: 70 }), at: fc.nat(400) }), { minLength: 4, maxLength: 20 }),
  cycles: fc.constant(4200),
  compactMode: fc.constantFrom('activity' as const, 'plain' as const),
}).filter((c) => c.w * c.h >= 2);

describe("C104 slices 'connected' = 'all' on every connected link, at every cycle", () => {
  it('random small meshes, policies, pipelines and addressings under random messages', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        expect(lockstep(c)).toBeUndefined();
      }),
      { numRuns: 16 },
    );
  }, 600_000);

  // Five nodes of a 3x3 mesh stream to (0,2): switch (0,1)'s north output (link 4, crossbar index 3
  // in the compact switch: links 0, 2, 3, 4) is wanted by its processor and the inputs from the east
  // and the south at once, again and again (random ties among waiting inputs).
  const toNode2 = (src: number): { src: number; dst: number; len: number; at: number } => ({ src, dst: (((2 - src - 1) % 9) + 9) % 9, len: 64, at: 0 });
  const control: Case = {
    w: 3, h: 3, routing: 'x-first', cpuLinks: 1, policy: 'random', pipeline: 'registered', ackPriority: false, addressing: 'node',
    msgs: Array.from({ length: 30 }, (_, k) => toNode2([0, 1, 3, 4, 7][k % 5]!)),
    cycles: 6000,
  };
  it('the random policy under contention (the negative controls\' case without their fault)', () => {
    expect(lockstep(control)).toBeUndefined();
  }, 300_000);

  const faults: [string, keyof typeof SLICES_FAULT][] = [
    ['two outputs of each switch swapped in the compact network', 'swapOutputs'],
    ['the random policy hashing with the crossbar index instead of the link', 'hashByIndex'],
  ];
  for (const [name, fault] of faults) {
    it(`negative control: ${name} is seen`, () => {
      SLICES_FAULT[fault] = true;
      try {
        expect(lockstep(control)).toMatch(/^cycle \d+: |differ/);
      } finally {
        SLICES_FAULT[fault] = false;
      }
    }, 300_000);
  }

  it('an unknown slices value is one configuration error line', () => {
    const spec = meshNetwork({ w: 2, h: 1, routing: 'x-first' });
    expect(() => makeC104System(spec, [], { c104: { slices: 'some' as 'all' } })).toThrow(C104ConfigError);
    expect(() => makeC104System(spec, [], { c104: { slices: 'some' as 'all' } })).toThrow(/^c104\.slices: 'some' is not one of all, connected$/);
  });

  it('configuration errors about unconnected links are still one line with slices connected', () => {
    const spec = meshNetwork({ w: 2, h: 1, routing: 'x-first', cpuLinks: 2 });
    const sw0 = spec.switches[0]!;
    const k = sw0.connected.indexOf(false);
    // Route the first interval to the (unwired) group of link k, or to a new group of it.
    const g = sw0.groups.findIndex((links) => links.includes(k));
    const groups = g >= 0 ? sw0.groups : [...sw0.groups, [k]];
    const intervals = sw0.intervals.map((iv, i) => (i === 0 ? { ...iv, group: g >= 0 ? g : groups.length - 1 } : iv));
    const bad = { ...spec, switches: [{ ...sw0, groups, intervals }, ...spec.switches.slice(1)] };
    expect(() => makeC104System(bad, [], { c104: { slices: 'connected' } })).toThrow(new RegExp(`^c104 ${sw0.name}: interval \\d+\\.\\.\\d+ routes to link ${k}, which is not connected$`));
  });

  it('a compact switch elaborates only its connected slices; link k keeps its name', () => {
    const spec = meshNetwork({ w: 2, h: 1, routing: 'x-first', cpuLinks: 2 });
    const sys = makeC104System(spec, [], { c104: { slices: 'connected' } });
    const sw = sys.network.switches[0]!;
    const wired = spec.switches[0]!.connected.flatMap((on, k) => (on ? [k] : []));
    expect(sw.linkOf).toEqual(wired);
    expect(sw.xbar.config.inputs).toBe(wired.length);
    expect(sw.routers.flatMap((r, k) => (r ? [k] : []))).toEqual(wired);
    for (const k of wired) expect(sw.routers[k]!.path).toBe(`${sw.path}.in${k}`);
    const full = makeC104System(spec, [], {}).network.switches[0]!;
    expect(full.xbar.config.inputs).toBe(32);
  });

  it('the slice map: link order, link 0 kept when none is connected, masks both ways', () => {
    const on = new Array<boolean>(32).fill(false);
    for (const k of [0, 4, 5, 9, 31]) on[k] = true;
    const m = sliceMap(on, 'connected');
    expect(m.linkOf).toEqual([0, 4, 5, 9, 31]);
    expect([m.xOf[9], m.xOf[31], m.xOf[1]]).toEqual([3, 4, -1]);
    // links 4, 9, 31 and 1 (not elaborated: dropped) as crossbar indices 1, 3, 4, and back
    const links = (1 << 4) | (1 << 9) | (1 << 31) | (1 << 1);
    expect(maskToCrossbar(links, m.xOf)).toBe(0b11010);
    expect(maskToLinks(0b11010, m.linkOf)).toBe(((1 << 4) | (1 << 9) | (1 << 31)) >>> 0);
    expect(sliceMap(new Array<boolean>(32).fill(false), 'connected').linkOf).toEqual([0]);
    // control: 'all' is the identity
    expect(sliceMap(on, 'all').linkOf).toEqual(Array.from({ length: 32 }, (_, k) => k));
  });
});

describe('compact slices: the deadlock detector names links, not crossbar indices', () => {
  /** The cyclic ring of test/c104/system.test.ts with its links 1 and 2 moved to 5 and 9 (crossbar indices 1 and 2 when compact). */
  const M = [0, 5, 9];
  function ring(slices: 'all' | 'connected'): C104System {
    const base = ringNetwork(4, true);
    const move = <T>(a: readonly T[], empty: T): T[] => {
      const out = new Array<T>(a.length).fill(empty);
      M.forEach((to, from) => (out[to] = a[from]!));
      return out;
    };
    const spec: NetworkSpec = {
      ...base,
      switches: base.switches.map((t) => ({ ...t, connected: move(t.connected, false), randomHeader: move(t.randomHeader, null), deleteHeader: move(t.deleteHeader, false), groups: t.groups.map((g) => g.map((k) => M[k]!)) })),
      cables: base.cables.map(([a, b]) => [{ ...a, link: M[a.link]! }, { ...b, link: M[b.link]! }]),
      terminals: base.terminals.map((t) => ({ ...t, links: t.links.map((k) => M[k]!) })),
    };
    return ringSystem(spec, slices);
  }

  it('the same ring of waiting links (c104_s.link5) compact as with all 32 slices', () => {
    const rings = (['all', 'connected'] as const).map((slices) => {
      const sys = ring(slices);
      expect(sys.network.switches[0]!.xOf[5]).toBe(slices === 'all' ? 5 : 1);
      expect(sys.sim.runUntil(() => sys.rec.deliveries.length === 16, 30000).reached).toBe(false);
      const d = findC104Deadlock(sys.sim, sys.network.switches, sys.net);
      expect(d).not.toBeNull();
      return d!.ring;
    });
    expect(new Set(rings[0]!.slice(0, -1))).toEqual(new Set(['c104_0.link5', 'c104_1.link5', 'c104_2.link5', 'c104_3.link5']));
    expect(rings[1]).toEqual(rings[0]);
  });
});
