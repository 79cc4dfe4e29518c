/**
 * The dual-port RAM's late reads (rtl/lib/dual_port_ram.ts `lateReads`;
 * docs/kernel.md "Stop 25: Buzzard"): the access process reads a port's
 * index, addresses, data and the array only while that port's grant is out
 * at the edge, is woken by a grant's rise, and drops rvalid by a timed
 * write. Random requests (held after a grant with the same address and data
 * at times, so grants stand over edges), memory words poked now and then,
 * inline round-robin ports or arbiter children: the late RAM in the fast
 * mode against the RAM without late reads in the reference mode ('plain'),
 * at every cycle every port, rdata, rvalid, rsrc, the grants, the pointers
 * and every memory word; a snapshot saved and restored in either mode once
 * per run. The access process runs less often. Negative controls
 * (DualPortRam.lateFault): rvalid not dropped after a read ('rvalid'), the
 * array not read under the read grant ('mem').
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { DualPortRam } from '../../rtl/lib/dual_port_ram.ts';
import { rng } from './lockstep_sim.ts';
import { RamClients } from './ram_clients.ts';

interface Run {
  D: number;
  R: number;
  C: number;
  inline: boolean;
  seed: number;
  pReq: number;
  pKeep: number;
  pPoke: number;
  snapAt: number;
  cycles: number;
}

function build(r: Run, late: boolean, mode: SimMode) {
  const ram = new DualPortRam(null, 'ram', { width: 8, depth: r.D, readClients: r.R, writeClients: r.C, inlineRoundRobin: r.inline, lateReads: late });
  const sim = new Simulator(ram, { mode });
  let runs = 0;
  const inner = sim as unknown as { net: { seq: { name: string }[] }; seqFns: (() => void)[] };
  inner.net.seq.forEach((d, k) => {
    if (d.name !== 'access') return;
    const fn = inner.seqFns[k]!;
    inner.seqFns[k] = () => {
      runs++;
      fn();
    };
  });
  return { ram, sim, runs: () => runs };
}

/** First difference, as text, or null; and the late RAM's access runs (fast) against the reference's in the fast mode. */
function run(r: Run): { diff: string | null; late: number; early: number } {
  const ref = build(r, false, 'plain');
  const fast = build(r, true, 'activity');
  const early = build(r, false, 'activity');
  const rnd = rng(r.seed);
  const clients = new RamClients(r, rnd);
  const span = Math.min(r.D, 3); // the words poked: those the clients use
  const ports = (x: ReturnType<typeof build>) => [...x.ram.wgnt, ...x.ram.rgnt, x.ram.rdata, x.ram.rvalid, x.ram.rsrc, ...(r.inline ? [x.ram.wptr!, x.ram.rptr!] : [])];
  const out = (diff: string | null) => ({ diff, late: fast.runs(), early: early.runs() });
  for (let t = 0; t < r.cycles; t++) {
    if (t === r.snapAt) {
      // a snapshot (a timed rvalid fall or late entries pending), restored after a trip through the reference mode
      const snap = fast.sim.save();
      fast.sim.setMode('plain');
      fast.sim.restore(snap);
      fast.sim.setMode('activity');
      fast.sim.restore(snap);
    }
    const poke = rnd() < r.pPoke ? { a: Math.floor(rnd() * span), v: Math.floor(rnd() * 256) } : null;
    for (const c of [ref, fast, early]) {
      clients.poke(c.sim, c.ram);
      if (poke) c.sim.pokeMem(c.ram.mem, poke.a, poke.v);
    }
    const want = ports(ref).map((s) => ref.sim.peek(s));
    const got = ports(fast).map((s) => fast.sim.peek(s));
    const k = got.findIndex((v, j) => v !== want[j]);
    if (k >= 0) return out(`cycle ${t}: ${ports(fast)[k]!.path} is ${got[k]} with late reads (fast), ${want[k]} in the reference`);
    for (let a = 0; a < r.D; a++) if (fast.sim.peekMem(fast.ram.mem, a) !== ref.sim.peekMem(ref.ram.mem, a)) return out(`cycle ${t}: mem[${a}] differs`);
    const wg = ref.ram.wgnt.map((s) => ref.sim.peek(s));
    const rg = ref.ram.rgnt.map((s) => ref.sim.peek(s));
    for (const c of [ref, fast, early]) c.sim.step(1);
    clients.next(wg, rg);
  }
  return out(null);
}

const runs = fc.record({
  D: fc.integer({ min: 1, max: 9 }),
  R: fc.integer({ min: 1, max: 5 }),
  C: fc.integer({ min: 1, max: 5 }),
  inline: fc.boolean(),
  seed: fc.integer(),
  pReq: fc.constantFrom(0.02, 0.05, 0.1, 0.3, 0.6, 1),
  pKeep: fc.constantFrom(0, 0.3, 0.8),
  pPoke: fc.constantFrom(0, 0.05),
  snapAt: fc.integer({ min: 1, max: 149 }),
  cycles: fc.constant(150),
});

describe('dual-port RAM: late reads = reference', () => {
  it('property: ports, grants, pointers and memory agree at every cycle (fast late reads against the reference mode)', () => {
    fc.assert(
      fc.property(runs, (r) => {
        expect(run(r).diff).toBeNull();
      }),
      { numRuns: 200 },
    );
  });

  it('sparse one-cycle requests: the access runs less often with late reads', () => {
    const r = run({ D: 8, R: 3, C: 3, inline: true, seed: 11, pReq: 0.03, pKeep: 0, pPoke: 0, snapAt: -1, cycles: 2000 });
    expect(r.diff).toBeNull();
    console.log(`[sparse requests, 2000 cycles] access runs: late reads ${r.late}, without ${r.early}`);
    expect(r.late).toBeLessThan(r.early * 0.8);
  });

  it.each(['rvalid', 'mem'] as const)('negative control: late reads with fault %s are caught', (fault) => {
    DualPortRam.lateFault = fault;
    try {
      let caught = 0;
      for (let seed = 1; seed <= 20; seed++) if (run({ D: 2, R: 2, C: 2, inline: true, seed, pReq: 0.1, pKeep: 0.8, pPoke: 0.05, snapAt: -1, cycles: 200 }).diff) caught++;
      expect(caught).toBeGreaterThan(0);
    } finally {
      DualPortRam.lateFault = '';
    }
  });
});
