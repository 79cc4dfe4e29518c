/**
 * The packet switching fabric of a Buzzard n-cube, node output port to node
 * input port, with the control unit replaced by a packet driver
 * (fabric_driver.ts). Routes and latencies are computed here independently of
 * the RTL's routing code.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { fabricDriver, type DriverPacket } from './fabric_driver.ts';

/** Lowest differing dimension as a port 1..n, 0 when equal (ascending e-cube). */
const ecube = (a: number, b: number): number => (a === b ? 0 : 1 + Math.log2((a ^ b) & -(a ^ b)));

interface Delivered {
  cycle: number;
  words: number[];
}

/** Run a cube with a program; collect, per node, the packets drained from its node input port. */
function run(n: number, program: DriverPacket[][][], cycles: number, extra: { strictFraming?: boolean; mode?: 'plain' | 'activity' } = {}) {
  const cube = new BuzzardCube({ n, strictFraming: extra.strictFraming ?? false }, 'cube', { driver: fabricDriver(program) });
  const sim = new Simulator(cube, { mode: extra.mode ?? 'activity' });
  const delivered: Delivered[][] = cube.nodes.map(() => []);
  const partial: number[][] = cube.nodes.map(() => []);
  const firstOne = new Map<string, number>();
  const record = (x: Simulator): void => {
    cube.nodes.forEach((node, a) => {
      const s = x.s;
      if (s[node.nip.pop.i] === 1) {
        partial[a]!.push(s[node.nip.dout.i]!);
        if (s[node.nip.doutLast.i] === 1) {
          delivered[a]!.push({ cycle: x.cycle, words: partial[a]! });
          partial[a] = [];
        }
      }
      if (s[node.nip.inBit.i] === 1 && !firstOne.has(`nip${a}`)) firstOne.set(`nip${a}`, x.cycle);
      node.txBit.forEach((t, j) => {
        if (s[t.i] === 1 && !firstOne.has(`tx${a}.${j + 1}`)) firstOne.set(`tx${a}.${j + 1}`, x.cycle);
      });
    });
  };
  record(sim);
  sim.observe({ onCycle: record });
  sim.step(cycles);
  return { sim, cube, delivered, firstOne, partial };
}

function packetTo(src: number, dest: number, firstPort: number, data: number[], release = 0): DriverPacket {
  const first = src ^ (1 << (firstPort - 1));
  return { release, contrary: firstPort === ecube(src, dest) ? 0 : 1, port: ecube(first, dest), dest, words: [(firstPort << 12) | src, ...data] };
}

describe('Buzzard n-cube fabric', () => {
  for (const strict of [false, true]) {
    it(`a packet crosses d hops with exactly ${strict ? 33 : 31} cycles of head latency per hop (strict framing ${strict ? 'on' : 'off'})`, () => {
      const n = 4;
      const src = 0b0000;
      const dest = 0b1011; // 3 hops: dimensions 1, 2, 4
      const p = packetTo(src, dest, ecube(src, dest), [0x1234, 0xbeef, 0x0007]);
      const program: DriverPacket[][][] = [];
      program[src] = [];
      program[src]![ecube(src, dest) - 1] = [p];
      const { delivered, firstOne } = run(n, program, 400, { strictFraming: strict });
      const perHop = strict ? 33 : 31;
      // hop by hop: the S1 leaves each node perHop cycles after it left the previous one
      const route = [src, 0b0001, 0b0011, 0b1011];
      const t0 = firstOne.get(`tx${src}.1`)!;
      expect(t0).toBeGreaterThan(0);
      expect(firstOne.get(`tx${route[1]}.2`)).toBe(t0 + perHop);
      expect(firstOne.get(`tx${route[2]}.4`)).toBe(t0 + 2 * perHop);
      expect(firstOne.get(`nip${dest}`)).toBe(t0 + 3 * perHop);
      expect(delivered[dest]).toHaveLength(1);
      expect(delivered[dest]![0]!.words).toEqual([dest, ...p.words]);
      // nothing anywhere else
      delivered.forEach((d, a) => a !== dest && expect(d).toEqual([]));
    });
  }

  it('a contrary first hop is carried through the crossbar path j < i and arrives intact', () => {
    const n = 3;
    const src = 0;
    const dest = 0b011;
    // first hop on dimension 2 (contrary: e-cube would take dimension 1), then dimension 1 at node 0b010
    const p = packetTo(src, dest, 2, [0xaaaa, 0x5555]);
    expect(p.contrary).toBe(1);
    const program: DriverPacket[][][] = [[[], [p], []]];
    const { delivered, firstOne } = run(n, program, 300);
    expect(delivered[dest]!.map((d) => d.words)).toEqual([[dest, ...p.words]]);
    expect(firstOne.get('nip3')! - firstOne.get('tx0.2')!).toBe(2 * 31);
  });

  it('random traffic: every packet is delivered exactly once, word-exact, in order per source slot, and the cube drains', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 3 }).chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.array(
              fc.record({
                src: fc.nat((1 << n) - 1),
                dest: fc.nat((1 << n) - 1),
                pick: fc.nat(10),
                len: fc.integer({ min: 1, max: 14 }),
                release: fc.nat(300),
                seed: fc.nat(0xffff),
              }),
              { minLength: 1, maxLength: 14 },
            ),
          ),
        ),
        ([n, msgs]) => {
          const program: DriverPacket[][][] = Array.from({ length: 1 << n }, () => Array.from({ length: n }, () => []));
          const sent: { dest: number; words: number[]; key: string }[] = [];
          for (const m of msgs) {
            if (m.src === m.dest) continue;
            const dims = [1, 2, 3].slice(0, n).filter((d) => ((m.src ^ m.dest) >> (d - 1)) & 1);
            const first = dims[m.pick % dims.length]!;
            const data = Array.from({ length: m.len }, (_, k) => (m.seed * 31 + k * 7919) & 0xffff);
            const p = packetTo(m.src, m.dest, first, data, m.release);
            const slot = program[m.src]![first - 1]!;
            p.release = Math.max(p.release, slot.at(-1)?.release ?? 0);
            slot.push(p);
            sent.push({ dest: m.dest, words: [m.dest, ...p.words], key: `${m.src}.${first}` });
          }
          const { delivered, partial, sim } = run(n, program, 6000);
          // exactly once and word-exact
          const got = delivered.flatMap((d, a) => d.map((x) => ({ dest: a, words: x.words })));
          const canon = (l: { dest: number; words: number[] }[]): string[] => l.map((x) => `${x.dest}:${x.words.join(',')}`).sort();
          expect(canon(got)).toEqual(canon(sent));
          // in order per (source, slot) at each destination
          for (let a = 0; a < 1 << n; a++) {
            const fromKey = (k: string): string[] => sent.filter((s) => s.dest === a && s.key === k).map((s) => s.words.join(','));
            for (const k of new Set(sent.map((s) => s.key))) {
              const arrived = delivered[a]!.map((d) => d.words.join(',')).filter((w) => fromKey(k).includes(w));
              expect(arrived).toEqual(fromKey(k));
            }
          }
          expect(partial.every((p) => p.length === 0)).toBe(true);
          // drained: every PBU holds no packet
          for (const node of (sim.net.root as BuzzardCube).nodes) for (const pbu of node.pbus) expect(sim.peek(pbu.freeRows)).toBe(node.cfg.camHeight);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('plain and activity modes give the same state hash on a loaded cube', () => {
    const n = 2;
    const program: DriverPacket[][][] = [[[packetTo(0, 3, 1, [1, 2, 3, 4, 5])], [packetTo(0, 3, 2, [9, 8, 7])]], [[], [packetTo(1, 2, 2, [6])]]];
    const a = run(n, program, 500, { mode: 'plain' });
    const b = run(n, program, 500, { mode: 'activity' });
    expect(b.sim.stateHash()).toBe(a.sim.stateHash());
    expect(b.delivered).toEqual(a.delivered);
  });
});
