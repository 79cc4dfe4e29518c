/**
 * The dual-port RAM's inline round-robin ports (rtl/lib/dual_port_ram.ts
 * `inlineRoundRobin`; docs/kernel.md "Stop 23: Buzzard per word") against
 * the RAM with its round-robin arbiter children, the reference structure:
 * random requests (held after a grant with the same address and data at
 * times, so the access sees grants held over edges), the inline RAM in the
 * fast mode ('activity') and in the reference mode ('plain') beside the
 * children in the reference mode; at every cycle every port, rdata, rvalid,
 * rsrc, the grant wires, the pointers (wptr/rptr = warb.ptr/rarb.ptr) and
 * every memory word equal. Negative control: the inline commit that leaves
 * the write pointer at the client it served is caught.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { DualPortRam } from '../../rtl/lib/dual_port_ram.ts';
import { RoundRobinArbiter } from '../../rtl/lib/arbiter.ts';
import { rng } from './lockstep_sim.ts';
import { RamClients } from './ram_clients.ts';

interface Run {
  D: number;
  R: number;
  C: number;
  seed: number;
  pReq: number;
  pKeep: number;
  cycles: number;
}

function build(r: Run, inline: boolean, mode: SimMode) {
  const ram = new DualPortRam(null, 'ram', { width: 8, depth: r.D, readClients: r.R, writeClients: r.C, policy: 'round-robin', latency: 0, inlineRoundRobin: inline });
  return { ram, sim: new Simulator(ram, { mode }) };
}

/** First difference between the three copies, as text, or null. */
function run(r: Run): string | null {
  const ref = build(r, false, 'plain');
  const fast = build(r, true, 'activity');
  const slow = build(r, true, 'plain');
  const rnd = rng(r.seed);
  const clients = new RamClients(r, rnd);
  const ports = (x: ReturnType<typeof build>) => [...x.ram.wgnt, ...x.ram.rgnt, x.ram.rdata, x.ram.rvalid, x.ram.rsrc];
  for (let t = 0; t < r.cycles; t++) {
    for (const c of [ref, fast, slow]) {
      clients.poke(c.sim, c.ram);
    }
    const want = ports(ref).map((s) => ref.sim.peek(s));
    for (const c of [fast, slow]) {
      const got = ports(c).map((s) => c.sim.peek(s));
      const k = got.findIndex((v, j) => v !== want[j]);
      if (k >= 0) return `cycle ${t}: ${ports(c)[k]!.path} is ${got[k]} inline (${c.sim.mode}), ${want[k]} with arbiter children`;
      for (const [p, a] of [[c.ram.wptr!, (ref.ram.warb as RoundRobinArbiter).ptr], [c.ram.rptr!, (ref.ram.rarb as RoundRobinArbiter).ptr]] as const) {
        const b = ref.sim.peek(a);
        if (c.sim.peek(p) !== b) return `cycle ${t}: ${p.path} is ${c.sim.peek(p)} inline (${c.sim.mode}), ${a.path} is ${b}`;
      }
      for (let a = 0; a < r.D; a++) if (c.sim.peekMem(c.ram.mem, a) !== ref.sim.peekMem(ref.ram.mem, a)) return `cycle ${t}: mem[${a}] differs`;
    }
    // grants end a request unless the client keeps it (same address and data)
    const wg = ref.ram.wgnt.map((s) => ref.sim.peek(s));
    const rg = ref.ram.rgnt.map((s) => ref.sim.peek(s));
    for (const c of [ref, fast, slow]) c.sim.step(1);
    clients.next(wg, rg);
  }
  return null;
}

const runs = fc.record({
  D: fc.integer({ min: 1, max: 9 }),
  R: fc.integer({ min: 1, max: 5 }),
  C: fc.integer({ min: 1, max: 5 }),
  seed: fc.integer(),
  pReq: fc.integer({ min: 1, max: 10 }).map((v) => v / 10),
  pKeep: fc.constantFrom(0, 0.3, 0.8),
  cycles: fc.constant(150),
});

describe('dual-port RAM: inline round-robin ports = arbiter children', () => {
  it('property: ports, grants, pointers and memory agree at every cycle (inline fast and reference mode against the children)', () => {
    fc.assert(
      fc.property(runs, (r) => {
        expect(run(r)).toBeNull();
      }),
      { numRuns: 150 },
    );
  });

  it('refuses another policy or a latency', () => {
    expect(() => new DualPortRam(null, 'r', { policy: 'tree', inlineRoundRobin: true })).toThrow(/inlineRoundRobin: needs policy 'round-robin' and latency 0/);
    expect(() => new DualPortRam(null, 'r', { latency: 1, inlineRoundRobin: true })).toThrow(/inlineRoundRobin/);
  });

  it('negative control: an inline commit that leaves the write pointer at the client served is caught', () => {
    DualPortRam.wrongInlinePtr = true;
    try {
      expect(run({ D: 4, R: 2, C: 3, seed: 5, pReq: 0.6, pKeep: 0, cycles: 200 })).toMatch(/^cycle \d+: (wgnt\d|wptr|rdata)/);
    } finally {
      DualPortRam.wrongInlinePtr = false;
    }
  });
});
