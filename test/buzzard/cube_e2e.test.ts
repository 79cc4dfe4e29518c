/**
 * End to end through every unit of every node: CPU stand-in → control unit →
 * node output port → links → packet buffer units → node input port → control
 * unit → node memory.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { type BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { FLAG } from '../../rtl/buzzard/header_blocks.ts';
import { Rng } from '../../harness/workloads/rng.ts';

function setup(cfg: Partial<BuzzardConfig>, mode: 'plain' | 'activity' = 'activity') {
  const cube = new BuzzardCube(cfg);
  const sim = new Simulator(cube, { mode });
  return { cube, sim, drv: new CubeDriver(sim, cube) };
}

/** Cycle at which a one-packet message from 0 to `dest` completes at the receiver. */
function completionCycle(n: number, dest: number, strictFraming: boolean): number {
  const { sim, drv } = setup({ n, strictFraming });
  const r = drv.receive(dest, 0, 64, 0);
  drv.send(0, dest, Array.from({ length: 20 }, (_, k) => k * 3 + 1), 10);
  const res = sim.runUntil(() => drv.received(r).progress === FLAG.complete, 5000);
  expect(res.reached).toBe(true);
  expect(drv.received(r).bytes).toEqual(Array.from({ length: 20 }, (_, k) => k * 3 + 1));
  return sim.cycle;
}

describe('Buzzard cube end to end', () => {
  for (const strict of [false, true]) {
    it(`each extra hop adds exactly the per-hop head latency to a one-packet message (${strict ? 33 : 31} cycles)`, () => {
      // destinations at e-cube distance 1..4 from node 0 along dimensions 1, 2, 3, 4
      const t = [1, 3, 7, 15].map((d) => completionCycle(4, d, strict));
      const perHop = strict ? 33 : 31;
      expect(t.slice(1).map((x, k) => x - t[k]!)).toEqual([perHop, perHop, perHop]);
    });
  }

  it('random workloads deliver every message exactly once, byte-exact, to the right receive, and the cube drains', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 3 }).chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.array(
              fc.record({ src: fc.nat((1 << n) - 1), dst: fc.nat((1 << n) - 1), len: fc.integer({ min: 1, max: 600 }), at: fc.nat(1500), recvAt: fc.nat(3000), seed: fc.nat(255) }),
              { minLength: 1, maxLength: 8 },
            ),
          ),
        ),
        ([n, msgs]) => {
          const { sim, drv } = setup({ n });
          const pairs = msgs.filter((m) => m.src !== m.dst);
          const sends = pairs.map((m, k) => {
            const data = Array.from({ length: m.len }, (_, i) => (m.seed + i * 7 + k) & 0xff);
            // a distinct type per message makes the (source, type) match unambiguous
            const r = drv.receive(m.dst, m.src, m.len, m.recvAt, k + 1);
            const s = drv.send(m.src, m.dst, data, m.at, k + 1);
            return { s, r, data };
          });
          const bound = 40_000;
          const res = sim.runUntil(() => drv.allComplete(), bound);
          expect(res.reached, `not drained within ${bound} cycles`).toBe(true);
          for (const { r, data, s } of sends) {
            const got = drv.received(r);
            expect(got.error).toBe(0);
            expect(got.length).toBe(data.length);
            expect(got.bytes).toEqual(data);
            expect(drv.sendFlag(s)).toEqual({ progress: FLAG.complete, error: 0 });
            checked++;
          }
          // drained: no packet left in any packet buffer unit, nothing in any input FIFO
          for (const node of drv.cube.nodes) {
            for (const pbu of node.pbus) expect(sim.peek(pbu.freeRows)).toBe(node.cfg.camHeight);
            expect(sim.peek(node.nip.count)).toBe(0);
          }
        },
      ),
      { numRuns: 8 },
    );
    expect(checked).toBeGreaterThan(10);
  });

  it('a broadcast reaches every other node exactly once, byte-exact, alongside unicast traffic (3- and 4-cube)', () => {
    for (const n of [3, 4]) {
      const { sim, drv } = setup({ n });
      const N = 1 << n;
      const data = Array.from({ length: 150 }, (_, i) => (i * 13 + 5) & 0xff);
      const src = N - 3;
      const recvs = [];
      for (let a = 0; a < N; a++) if (a !== src) recvs.push(drv.receive(a, src, data.length, 0, 9));
      const b = drv.broadcast(src, data, 20, 9);
      // unicast traffic crossing the broadcast tree
      const uni = drv.send(0, N - 1, Array.from({ length: 90 }, (_, i) => 255 - i), 25, 3);
      const ur = drv.receive(N - 1, 0, 90, 0, 3);
      const res = sim.runUntil(() => drv.allComplete(), 60_000);
      expect(res.reached).toBe(true);
      for (const r of recvs) expect(drv.received(r)).toMatchObject({ progress: FLAG.complete, error: 0, length: data.length, bytes: data });
      expect(drv.sendFlag(b)).toEqual({ progress: FLAG.complete, error: 0 });
      expect(drv.received(ur).bytes).toEqual(uni.data);
      for (const node of drv.cube.nodes) for (const pbu of node.pbus) expect(sim.peek(pbu.freeRows)).toBe(node.cfg.camHeight);
    }
  });

  it('a 5-cube carries a random workload to completion', () => {
    const { sim, drv } = setup({ n: 5 });
    const rng = new Rng(7);
    const rnd = (k: number): number => rng.nextInt(k);
    const msgs = [];
    for (let k = 0; k < 40; k++) {
      const src = rnd(32);
      let dst = rnd(32);
      if (dst === src) dst ^= 16;
      const data = Array.from({ length: 1 + rnd(600) }, (_, i) => (i + k * 7) & 0xff);
      msgs.push({ r: drv.receive(dst, src, data.length, rnd(500), k + 1), data, s: drv.send(src, dst, data, rnd(2000), k + 1) });
    }
    expect(sim.runUntil(() => drv.allComplete(), 100_000).reached).toBe(true);
    for (const m of msgs) expect(drv.received(m.r).bytes).toEqual(m.data);
  });

  it('plain and activity modes reach the same state on the same workload', () => {
    const run = (mode: 'plain' | 'activity'): string => {
      const { sim, drv } = setup({ n: 2 }, mode);
      drv.receive(3, 0, 100, 0);
      drv.send(0, 3, Array.from({ length: 100 }, (_, i) => i), 5);
      drv.send(1, 2, Array.from({ length: 40 }, (_, i) => 255 - i), 7);
      drv.receive(2, 1, 40, 300);
      sim.step(2500);
      return sim.stateHash();
    };
    expect(run('activity')).toBe(run('plain'));
  });
});
