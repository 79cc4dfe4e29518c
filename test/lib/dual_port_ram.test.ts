/**
 * Dual-ported RAM (seed 002 §5.4.1): per-port arbitration among clients, read
 * data registered one cycle after the grant, write-after-read on a same-cycle
 * same-address collision, and a random model-based test run in plain and
 * activity mode in lockstep.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../rtl/kernel/index.ts';
import type { ArbiterPolicy } from '../../rtl/lib/arbiter.ts';
import { DualPortRam, type DualPortRamConfig } from '../../rtl/lib/dual_port_ram.ts';
import { Lockstep, rng } from './lockstep_sim.ts';

function build(cfg: DualPortRamConfig): { ram: DualPortRam; sim: Simulator } {
  const ram = new DualPortRam(null, 'ram', cfg);
  return { ram, sim: new Simulator(ram) };
}

describe('dual-port RAM ports', () => {
  it('has the seed defaults: 16-bit words, 2048 words (4096 bytes), 10 clients per port (§5.4.1)', () => {
    const ram = new DualPortRam(null, 'ram');
    expect(ram.config).toMatchObject({ width: 16, depth: 2048, readClients: 10, writeClients: 10, policy: 'round-robin', latency: 0 });
    expect(ram.waddr[0]!.width).toBe(11);
  });

  it('two writers in one cycle: one is granted, the other the next cycle; both words land', () => {
    const { ram, sim } = build({ width: 16, depth: 16, readClients: 1, writeClients: 2 });
    sim.poke(ram.wreq[0]!, 1);
    sim.poke(ram.waddr[0]!, 3);
    sim.poke(ram.wdata[0]!, 0x1111);
    sim.poke(ram.wreq[1]!, 1);
    sim.poke(ram.waddr[1]!, 7);
    sim.poke(ram.wdata[1]!, 0x2222);
    expect([sim.peek(ram.wgnt[0]!), sim.peek(ram.wgnt[1]!)]).toEqual([1, 0]);
    sim.step();
    sim.poke(ram.wreq[0]!, 0);
    expect(sim.peekMem(ram.mem, 3)).toBe(0x1111);
    expect(sim.peekMem(ram.mem, 7)).toBe(0);
    expect([sim.peek(ram.wgnt[0]!), sim.peek(ram.wgnt[1]!)]).toEqual([0, 1]);
    sim.step();
    sim.poke(ram.wreq[1]!, 0);
    expect(sim.peekMem(ram.mem, 7)).toBe(0x2222);
  });

  it('read after write returns the written word, one cycle after the read grant', () => {
    const { ram, sim } = build({ width: 16, depth: 16, readClients: 2, writeClients: 1 });
    sim.poke(ram.wreq[0]!, 1);
    sim.poke(ram.waddr[0]!, 5);
    sim.poke(ram.wdata[0]!, 0xabcd);
    sim.step();
    sim.poke(ram.wreq[0]!, 0);
    sim.poke(ram.rreq[1]!, 1);
    sim.poke(ram.raddr[1]!, 5);
    expect(sim.peek(ram.rgnt[1]!)).toBe(1);
    expect(sim.peek(ram.rvalid)).toBe(0);
    sim.step();
    sim.poke(ram.rreq[1]!, 0);
    expect([sim.peek(ram.rvalid), sim.peek(ram.rsrc), sim.peek(ram.rdata)]).toEqual([1, 1, 0xabcd]);
    sim.step();
    expect(sim.peek(ram.rvalid)).toBe(0);
    expect(sim.peek(ram.rdata)).toBe(0xabcd); // holds
  });

  it('a read and a write of the same address in one cycle: the read returns the old word', () => {
    const { ram, sim } = build({ width: 8, depth: 4, readClients: 1, writeClients: 1, init: 0x42 });
    sim.poke(ram.wreq[0]!, 1);
    sim.poke(ram.waddr[0]!, 2);
    sim.poke(ram.wdata[0]!, 0x99);
    sim.poke(ram.rreq[0]!, 1);
    sim.poke(ram.raddr[0]!, 2);
    expect([sim.peek(ram.wgnt[0]!), sim.peek(ram.rgnt[0]!)]).toEqual([1, 1]); // both ports at once
    sim.step();
    sim.poke(ram.wreq[0]!, 0);
    expect(sim.peek(ram.rdata)).toBe(0x42);
    expect(sim.peekMem(ram.mem, 2)).toBe(0x99);
    sim.step(); // the read client still asks: now it sees the new word
    expect(sim.peek(ram.rdata)).toBe(0x99);
  });

  it('a reader that keeps asking sees a word changed from outside (pokeMem), in both simulator modes', () => {
    const ls = new Lockstep(() => new DualPortRam(null, 'ram', { width: 8, depth: 4, readClients: 1, writeClients: 1 }));
    ls.poke((m) => m.rreq[0]!, 1);
    ls.poke((m) => m.raddr[0]!, 1);
    ls.step();
    ls.step();
    expect(ls.peek((m) => m.rdata)).toBe(0);
    ls.simP.pokeMem(ls.plain.mem, 1, 7);
    ls.simA.pokeMem(ls.active.mem, 1, 7);
    ls.step();
    expect(ls.peek((m) => m.rdata)).toBe(7);
  });

  it('a granted address beyond the depth is a protocol error naming the client', () => {
    const { ram, sim } = build({ width: 8, depth: 13, readClients: 2, writeClients: 2 });
    sim.poke(ram.rreq[1]!, 1);
    sim.poke(ram.raddr[1]!, 14);
    expect(() => sim.step()).toThrow(/read client 1: address 14 outside 0\.\.12/);
  });

  it('validates its config with the field and range named', () => {
    expect(() => new DualPortRam(null, 'r', { width: 33 })).toThrow('dual_port_ram.width: 33 is outside 1..32');
    expect(() => new DualPortRam(null, 'r', { depth: 0 })).toThrow('dual_port_ram.depth: 0 is outside 1..16777216');
    expect(() => new DualPortRam(null, 'r', { readClients: 65 })).toThrow('dual_port_ram.readClients: 65 is outside 1..64');
    expect(() => new DualPortRam(null, 'r', { writeClients: 0 })).toThrow('dual_port_ram.writeClients: 0 is outside 1..64');
    expect(() => new DualPortRam(null, 'r', { latency: 9 })).toThrow('dual_port_ram.latency: 9 is outside 0..8');
    expect(() => new DualPortRam(null, 'r', { width: 4, init: 16 })).toThrow('dual_port_ram.init: 16 is outside 0..15');
    expect(() => new DualPortRam(null, 'r', { policy: 'x' as ArbiterPolicy })).toThrow(/dual_port_ram\.policy/);
  });
});

// ---------------------------------------------------------------- model-based

interface RamRun {
  W: number;
  D: number;
  R: number;
  C: number;
  policy: ArbiterPolicy;
  L: number;
  seed: number;
  pReq: number;
  cycles: number;
}

/**
 * Clients issue random accesses (addresses from a small range so that
 * collisions are common) and hold them until granted. A plain array is the
 * model: each cycle at most one grant per port, only to a requesting client;
 * a read granted in cycle t returns model[addr] as it was during t (before
 * that cycle's write) on rdata in t+1, tagged with the client; the write
 * lands at the edge; nobody waits forever (each client is served within
 * R−1 / C−1 other grants on its port, the round-robin bound, when the policy
 * is round-robin). The memory equals the model at the end.
 */
function runRam(rr: RamRun): string | null {
  const r = rng(rr.seed);
  const { W, D, R, C, L } = rr;
  const ls = new Lockstep(() => new DualPortRam(null, 'ram', { width: W, depth: D, readClients: R, writeClients: C, policy: rr.policy, latency: L }));
  const model = new Array<number>(D).fill(0);
  const wmask = 2 ** W - 1;
  const span = Math.min(D, 4);
  const wq = Array.from({ length: C }, () => ({ on: false, addr: 0, data: 0, waited: 0 }));
  const rq = Array.from({ length: R }, () => ({ on: false, addr: 0, waited: 0 }));
  let expectRead: { data: number; client: number } | null = null;
  for (let t = 0; t < rr.cycles; t++) {
    const fail = (m: string) => `cycle ${t}: ${m}`;
    for (let k = 0; k < C; k++) {
      const q = wq[k]!;
      if (!q.on && r() < rr.pReq) Object.assign(q, { on: true, addr: Math.floor(r() * span), data: Math.floor(r() * (wmask + 1)), waited: 0 });
      ls.poke((m) => m.wreq[k]!, q.on ? 1 : 0);
      ls.poke((m) => m.waddr[k]!, q.addr);
      ls.poke((m) => m.wdata[k]!, q.data);
    }
    for (let k = 0; k < R; k++) {
      const q = rq[k]!;
      if (!q.on && r() < rr.pReq) Object.assign(q, { on: true, addr: Math.floor(r() * span), waited: 0 });
      ls.poke((m) => m.rreq[k]!, q.on ? 1 : 0);
      ls.poke((m) => m.raddr[k]!, q.addr);
    }
    // Read data of last cycle's grant.
    const rv = ls.peek((m) => m.rvalid);
    if (expectRead) {
      if (rv !== 1) return fail('rvalid low after a read grant');
      if (ls.peek((m) => m.rsrc) !== expectRead.client) return fail(`rsrc ${ls.peek((m) => m.rsrc)}, expected ${expectRead.client}`);
      if (ls.peek((m) => m.rdata) !== expectRead.data) return fail(`rdata ${ls.peek((m) => m.rdata)}, expected ${expectRead.data}`);
    } else if (rv !== 0) return fail('rvalid high without a read grant');
    // Grants.
    let wk = -1;
    for (let k = 0; k < C; k++) {
      if (ls.peek((m) => m.wgnt[k]!) !== 1) continue;
      if (wk >= 0) return fail(`write grants to ${wk} and ${k}`);
      if (!wq[k]!.on) return fail(`write grant to idle client ${k}`);
      wk = k;
    }
    let rk = -1;
    for (let k = 0; k < R; k++) {
      if (ls.peek((m) => m.rgnt[k]!) !== 1) continue;
      if (rk >= 0) return fail(`read grants to ${rk} and ${k}`);
      if (!rq[k]!.on) return fail(`read grant to idle client ${k}`);
      rk = k;
    }
    if (L === 0 && wk < 0 && wq.some((q) => q.on)) return fail('write port idle with a request pending (latency 0)');
    if (L === 0 && rk < 0 && rq.some((q) => q.on)) return fail('read port idle with a request pending (latency 0)');
    if (rr.policy === 'round-robin' && L === 0) {
      for (const [qs, g, n] of [[wq, wk, C], [rq, rk, R]] as const) {
        for (let k = 0; k < n; k++) {
          if (g < 0 || !qs[k]!.on || k === g) continue;
          if (++qs[k]!.waited > n - 1) return fail(`client ${k} waited ${qs[k]!.waited} other grants (bound ${n - 1})`);
        }
      }
    }
    ls.step();
    expectRead = rk >= 0 ? { data: model[rq[rk]!.addr]!, client: rk } : null; // before the write: old data
    if (wk >= 0) {
      model[wq[wk]!.addr] = wq[wk]!.data;
      wq[wk]!.on = false;
    }
    if (rk >= 0) rq[rk]!.on = false;
  }
  for (let a = 0; a < D; a++) {
    if (ls.simP.peekMem(ls.plain.mem, a) !== model[a]) return `end: mem[${a}] = ${ls.simP.peekMem(ls.plain.mem, a)}, model ${model[a]}`;
  }
  return null;
}

describe('dual-port RAM against a model (plain and activity mode in lockstep)', () => {
  it('reads return the model word of the grant cycle; writes land; ports are exclusive and served', () => {
    fc.assert(
      fc.property(
        fc.record({
          W: fc.integer({ min: 1, max: 16 }),
          D: fc.integer({ min: 1, max: 13 }),
          R: fc.integer({ min: 1, max: 4 }),
          C: fc.integer({ min: 1, max: 4 }),
          policy: fc.constantFrom<ArbiterPolicy>('round-robin', 'tree', 'fifo'),
          L: fc.constantFrom(0, 0, 1, 2),
          seed: fc.integer(),
          pReq: fc.integer({ min: 1, max: 10 }).map((v) => v / 10),
          cycles: fc.constant(120),
        }),
        (rr) => {
          const v = runRam(rr);
          if (v) throw new Error(v);
        },
      ),
      { numRuns: 100 },
    );
  });
});
