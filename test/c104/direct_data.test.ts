/**
 * Stop 24's direct data path (docs/kernel.md "Stop 24: FIFOs and C104",
 * docs/c104.md#direct-data-path): the C104's output stage takes the
 * character from the din of the input its crossbar output is connected to
 * (C104 option dataPath 'direct', the default) instead of from the
 * crossbar's dout, which a data process per output copied from that din
 * (dataPath 'crossbar', the reference).
 *
 * The two netlists differ only in wires: 'crossbar' has the crossbar's
 * dout{j} (and the C104's xd{k} on the same net); 'direct' has the C104's
 * xi{k} and xh{k} on the nets of the routers' din and the crossbar's
 * one-hot connection registers (and the crossbar's oh{j} ports). So the
 * comparison is by name: every signal the two share (current and next
 * value) at every cycle, the reference's dout{j} against the value the
 * direct netlist's connection and din give (the connected input's din,
 * 0 when idle), the T9000 control-block memories, events and deliveries.
 * The reference runs in plain mode (every process every cycle), the direct
 * netlist in the fast mode. Negative control: C104_FAULT.directSwap (the
 * stage reads input i's din under bit i ^ 1 of its connection) is seen.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { meshNetwork } from '../../rtl/c104/labelling.ts';
import { C104_FAULT } from '../../rtl/c104/c104.ts';
import type { C104DataPath, C104Pipeline } from '../../rtl/c104/config.ts';
import type { Signal } from '../../rtl/kernel/module.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import { blockMemories, buildMeshCase, CROWD_MSGS, firstBlockDiff, meshMsgsArb, sameTraces, type MeshCase } from './system_check.ts';

type Case = MeshCase & { c104: { ackPriority?: boolean; routingDelay?: number; pipeline?: C104Pipeline; slices?: 'all' | 'connected'; outputBufferTokens?: number } };

const byPath = (sys: C104System): Map<string, Signal> => new Map(sys.sim.net.signals.map((s) => [s.path, s]));

/** First difference between the reference ('crossbar', plain) and the direct netlist (fast), or undefined. */
function lockstep(c: Case, poke?: (ref: C104System, fast: C104System) => void): string | undefined {
  const ref = buildMeshCase(c, 'plain', { dataPath: 'crossbar' });
  const fast = buildMeshCase(c, 'activity', { dataPath: 'direct' });
  const rs = byPath(ref);
  const fs = byPath(fast);
  const pairs: [string, number, number][] = [];
  // The reference's crossbar outputs, each with the direct netlist's connection and inputs.
  const douts: [string, number, number, number[]][] = [];
  for (const [path, a] of rs) {
    const b = fs.get(path);
    if (b) {
      pairs.push([path, a.i, b.i]);
      if (a.n >= 0) pairs.push([`${path} (next)`, a.n, b.n]);
      continue;
    }
    const m = /^(.*)\.xbar\.dout(\d+)$/.exec(path);
    if (m) {
      const hot = fs.get(`${m[1]}.xbar.onehot${m[2]}`)!;
      const dins: number[] = [];
      for (let i = 0; fs.has(`${m[1]}.xbar.din${i}`); i++) dins.push(fs.get(`${m[1]}.xbar.din${i}`)!.i);
      douts.push([path, a.i, hot.i, dins]);
    } else if (!/\.xd\d+$/.test(path)) return `${path} is missing from the direct netlist`;
  }
  expect(douts.length).toBeGreaterThan(0);
  for (const path of fs.keys()) if (!rs.has(path) && !/\.(xi|xh|xbar\.oh)\d+$/.test(path)) return `${path} is new in the direct netlist`;
  const rb = blockMemories(ref.sim);
  const fb = blockMemories(fast.sim);
  for (let cyc = 0; cyc < c.cycles; cyc++) {
    poke?.(ref, fast);
    // A poke may break the protocol: then both must stop alike.
    const err = (sys: C104System): string | undefined => {
      try {
        sys.sim.step(1);
        return undefined;
      } catch (e) {
        return String((e as Error).message);
      }
    };
    const ea = err(ref);
    const eb = err(fast);
    if (ea !== eb) return `cycle ${ref.sim.cycle}: reference ${ea ?? 'ran'}, fast ${eb ?? 'ran'}`;
    if (ea) return `both stopped at cycle ${ref.sim.cycle}: ${ea}`;
    const a = ref.sim.values();
    const b = fast.sim.values();
    for (const [path, x, y] of pairs) if (a[x] !== b[y]) return `cycle ${ref.sim.cycle}: ${path} reference ${a[x]} fast ${b[y]}`;
    for (const [path, x, hot, dins] of douts) {
      const h = b[hot]!;
      const v = h !== 0 ? b[dins[31 - Math.clz32(h)]!]! : 0;
      if (a[x] !== v) return `cycle ${ref.sim.cycle}: ${path} reference ${a[x]} direct ${v}`;
    }
    const m = firstBlockDiff(rb, fb);
    if (m) return `cycle ${ref.sim.cycle}: ${m}`;
  }
  return sameTraces(ref, fast);
}

const caseArb = fc.record({
  w: fc.constant(2),
  h: fc.integer({ min: 1, max: 2 }),
  msgs: meshMsgsArb,
  cycles: fc.constant(4600),
  node: fc.boolean(),
  c104: fc.record({
    ackPriority: fc.boolean(),
    routingDelay: fc.integer({ min: 0, max: 3 }),
    slices: fc.constantFrom('all' as const, 'connected' as const),
    outputBufferTokens: fc.integer({ min: 1, max: 4 }),
  }),
});

/** A loaded 2x2 mesh: every endpoint sends to every other at once (contention, full output buffers, held cores). */
const crowd: Case = {
  w: 2,
  h: 2,
  msgs: CROWD_MSGS,
  cycles: 4200,
  node: false,
  c104: { outputBufferTokens: 1 },
};

/** One packet stream on a quiet 2x1 mesh: characters reach the output stage at link rate, each while its register is empty. */
const quiet: Case = { w: 2, h: 1, msgs: [{ src: 0, dst: 1, len: 40, at: 0 }, { src: 1, dst: 0, len: 9, at: 30 }], cycles: 3600, node: false, c104: {} };

describe('stop 24: the direct data path equals the crossbar data path at every cycle', () => {
  it('random 2x1 and 2x2 meshes: ack priority, routing delays, slices, output buffers, both addressings', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        expect(lockstep(c)).toBeUndefined();
      }),
      { numRuns: 4 },
    );
  }, 400_000);

  it('the crowded 2x2 mesh with one-token output buffers', () => {
    expect(lockstep(crowd)).toBeUndefined();
  }, 120_000);

  it('the quiet 2x1 mesh (the control\'s case without its fault)', () => {
    expect(lockstep(quiet)).toBeUndefined();
  }, 60_000);

  it('a poke of the connection (the crossbar\'s one-hot register) mid-packet: cut for three cycles, then given back', () => {
    let at = -1;
    let v = 0;
    let path = '';
    let hots: Signal[] | null = null;
    const poke = (ref: C104System, fast: C104System): void => {
      const cyc = ref.sim.cycle;
      if (at < 0) {
        hots ??= ref.sim.net.signals.filter((s) => /\.xbar\.onehot\d+$/.test(s.path));
        const hot = hots.find((s) => ref.sim.peek(s) !== 0);
        if (hot) [at, v, path] = [cyc + 12, ref.sim.peek(hot), hot.path];
        return;
      }
      if (cyc === at || cyc === at + 3) {
        for (const sys of [ref, fast]) sys.sim.poke(path, cyc === at ? 0 : v);
      }
    };
    expect(lockstep(quiet, poke)).toBeUndefined();
    expect(at).toBeGreaterThan(0);
  }, 120_000);

  it('pipeline cut-through keeps the crossbar data path (the same netlist either way)', () => {
    const spec = meshNetwork({ w: 2, h: 1, routing: 'x-first', labelsPerNode: 1 });
    const names = (dataPath: C104DataPath): string[] =>
      makeC104System(spec, [], { mode: 'activity', c104: { pipeline: 'cut-through', dataPath } }).sim.net.signals.map((s) => s.path);
    expect(names('direct')).toEqual(names('crossbar'));
    expect(names('direct').some((p) => /\.xbar\.dout0$/.test(p))).toBe(true);
  });

  it('an unknown data path is one error line', () => {
    const spec = meshNetwork({ w: 2, h: 1, routing: 'x-first', labelsPerNode: 1 });
    expect(() => makeC104System(spec, [], { mode: 'activity', c104: { dataPath: 'wires' as C104DataPath } })).toThrow(/c104\.dataPath: 'wires' is not one of direct, crossbar/);
  });

  it('negative control: the stage reading input i under bit i ^ 1 of its connection is seen', () => {
    C104_FAULT.directSwap = true;
    try {
      // (Not on the crowded mesh: there each character finds its register
      // full, and the register's own wake-ups take it.)
      expect(lockstep(quiet)).toMatch(/^cycle \d+: |differ/);
    } finally {
      C104_FAULT.directSwap = false;
    }
  }, 60_000);
});
