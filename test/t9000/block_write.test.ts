/**
 * A message's bytes written into the send area in one block write
 * (Simulator.pokeMemBlock, the process driver's `blockWrites`; docs/kernel.md
 * "Stop 23: endpoints per cycle") against a poke per byte, the reference.
 *  - The kernel's block write on a node memory: the same words, the same
 *    reader wake-up (a read port pointing into the block sees the new byte)
 *    and the same error after the same words as word-by-word pokes. Control:
 *    the bytes written without the wake-up leave the read port stale.
 *  - The driver on random C104 meshes under the thesis's traffic (send and
 *    post, both addressings, stream and handshake, past saturation): every
 *    wire, register, control-block word and node-memory byte equal at every
 *    cycle, and the same events. Control: a writer that drops a message's
 *    last byte differs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { C104System } from '../../harness/rtl/c104_system.ts';
import { Simulator } from '../../rtl/kernel/index.ts';
import type { Memory } from '../../rtl/kernel/index.ts';
import { NodeMemory } from '../../rtl/t9000/node_memory.ts';
import { firstStepDiff } from '../c104/system_check.ts';
import { thesisMesh, thesisMeshArb, type ThesisMeshCase } from './thesis_mesh.ts';

function memorySim(): { m: NodeMemory; sim: Simulator } {
  const m = new NodeMemory(null, 'mem', 64, 2);
  return { m, sim: new Simulator(m) };
}

describe('pokeMemBlock on a node memory', () => {
  it('the same words and the same read-port value as a poke per word', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 60 }), fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 20 }), (rd, at, bytes) => {
        const addr = Math.min(at, 64 - bytes.length);
        const a = memorySim();
        const b = memorySim();
        for (const x of [a, b]) {
          x.sim.poke(x.m.rdAddr[0]!, rd);
          x.sim.step();
          expect(x.sim.peek(x.m.rdData[0]!)).toBe(0);
        }
        a.sim.pokeMemBlock(a.m.mem, addr, bytes);
        for (let j = 0; j < bytes.length; j++) b.sim.pokeMem(b.m.mem, addr + j, bytes[j]!);
        expect([...a.m.mem.data]).toEqual([...b.m.mem.data]);
        expect(a.sim.peek(a.m.rdData[0]!)).toBe(b.sim.peek(b.m.rdData[0]!));
        a.sim.step();
        b.sim.step();
        expect(a.sim.values()).toEqual(b.sim.values());
      }),
      { numRuns: 200, seed: 23 },
    );
  });

  it('a read port pointing into the block sees the new byte at once; control: without the wake-up it stays stale', () => {
    const a = memorySim();
    const c = memorySim();
    for (const x of [a, c]) {
      x.sim.poke(x.m.rdAddr[0]!, 5);
      x.sim.step();
    }
    a.sim.pokeMemBlock(a.m.mem, 3, [1, 2, 3, 4]);
    expect(a.sim.peek(a.m.rdData[0]!)).toBe(3);
    c.m.mem.data.set([1, 2, 3, 4], 3); // the bytes in place, no reader woken
    expect(c.sim.peek(c.m.rdData[0]!)).toBe(0);
  });

  it('a bad value or a block past the end: the same error after the same words as word-by-word pokes', () => {
    const cases: [number, number[]][] = [
      [0, [1, 300, 2]],
      [10, [7, 8, -1]],
      [62, [9, 9, 9, 9]],
      [-1, [5]],
    ];
    for (const [addr, bytes] of cases) {
      const a = memorySim();
      const b = memorySim();
      let ea = '';
      let eb = '';
      try {
        a.sim.pokeMemBlock(a.m.mem, addr, bytes);
      } catch (e) {
        ea = String(e);
      }
      try {
        for (let j = 0; j < bytes.length; j++) b.sim.pokeMem(b.m.mem, addr + j, bytes[j]!);
      } catch (e) {
        eb = String(e);
      }
      expect(ea).not.toBe('');
      expect(ea).toBe(eb);
      expect([...a.m.mem.data]).toEqual([...b.m.mem.data]);
      expect(a.sim.values()).toEqual(b.sim.values());
    }
  });
});

const CYCLES = 4500;

type Writer = (sim: Simulator, mem: Memory, addr: number, data: ArrayLike<number>) => void;

function build(c: ThesisMeshCase, post: boolean, block: boolean, writer?: Writer): C104System {
  return thesisMesh(
    c,
    CYCLES - 1000,
    (sys) => {
      sys.driver.blockWrites = block;
      if (writer) (sys.driver as unknown as { writeBytes: Writer }).writeBytes = writer;
    },
    'none',
    { post },
  );
}

/** firstStepDiff, and every endpoint's node memory compared before each step. */
function firstDiff(ref: C104System, fast: C104System): string | undefined {
  let mem: string | undefined;
  const d = firstStepDiff(ref, fast, CYCLES, (cyc) => {
    if (mem) return;
    ref.endpoints.forEach((ep, a) => {
      const x = ep.nodeMem.mem.data;
      const y = fast.endpoints[a]!.nodeMem.mem.data;
      for (let j = 0; j < x.length && !mem; j++) if (x[j] !== y[j]) mem = `cycle ${cyc}: node ${a} memory byte ${j} reference ${x[j]} fast ${y[j]}`;
    });
  });
  return mem ?? d;
}

describe('T9000Driver.blockWrites', () => {
  it('random meshes and workloads (send and post): block writes equal a poke per byte at every cycle', () => {
    fc.assert(
      fc.property(thesisMeshArb.map((c) => ({ ...c, side: Math.min(c.side, 3) })), fc.boolean(), (c, post) => {
        const ref = build(c, post, false);
        const fast = build(c, post, true);
        expect(firstDiff(ref, fast)).toBeUndefined();
        expect(fast.rec.events).toEqual(ref.rec.events);
        expect(fast.rec.deliveries).toEqual(ref.rec.deliveries);
        expect(fast.rec.anomalies).toEqual([]);
      }),
      { numRuns: 4, seed: 23 },
    );
  }, 300_000);

  it('negative control: a writer that drops a message\'s last byte differs from the reference', () => {
    const c: ThesisMeshCase = { side: 2, window: 1, interval: 100, bytes: 40, seed: 5, node: true, handshake: false, overhead: 0 };
    const drop: Writer = (sim, mem, addr, data) => sim.pokeMemBlock(mem, addr, Array.from(data).slice(0, -1));
    expect(firstDiff(build(c, true, false), build(c, true, true))).toBeUndefined();
    expect(firstDiff(build(c, true, false), build(c, true, true, drop))).toMatch(/^cycle \d+/);
  }, 120_000);
});
