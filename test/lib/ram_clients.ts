/**
 * Random clients of a DualPortRam for the lock-step tests
 * (dual_port_ram_inline.test.ts, dual_port_ram_late.test.ts): each write
 * client requests with probability pReq a random address among the first
 * three and random data, each read client a random address; a granted
 * client keeps its request (same address and data) with probability pKeep,
 * so grants stand over edges.
 */
import type { Simulator } from '../../rtl/kernel/index.ts';
import type { DualPortRam } from '../../rtl/lib/dual_port_ram.ts';

export class RamClients {
  private readonly w: { on: number; a: number; d: number }[];
  private readonly q: { on: number; a: number }[];
  private readonly span: number;

  constructor(
    r: { D: number; R: number; C: number; pReq: number; pKeep: number },
    private readonly rnd: () => number,
  ) {
    this.span = Math.min(r.D, 3);
    this.w = Array.from({ length: r.C }, () => ({ on: 0, a: 0, d: 0 }));
    this.q = Array.from({ length: r.R }, () => ({ on: 0, a: 0 }));
    this.pReq = r.pReq;
    this.pKeep = r.pKeep;
  }

  private readonly pReq: number;
  private readonly pKeep: number;

  /** Drive this cycle's requests into a RAM. */
  poke(sim: Simulator, ram: DualPortRam): void {
    this.w.forEach((v, k) => {
      sim.poke(ram.wreq[k]!, v.on);
      sim.poke(ram.waddr[k]!, v.a);
      sim.poke(ram.wdata[k]!, v.d);
    });
    this.q.forEach((v, k) => {
      sim.poke(ram.rreq[k]!, v.on);
      sim.poke(ram.raddr[k]!, v.a);
    });
  }

  /** After the edge: grants `wg`, `rg` (the cycle's grant values) end requests, new ones start. */
  next(wg: readonly number[], rg: readonly number[]): void {
    const { rnd, span } = this;
    this.w.forEach((v, k) => {
      if (wg[k] === 1 && rnd() >= this.pKeep) v.on = 0;
      if (v.on === 0 && rnd() < this.pReq) Object.assign(v, { on: 1, a: Math.floor(rnd() * span), d: Math.floor(rnd() * 256) });
    });
    this.q.forEach((v, k) => {
      if (rg[k] === 1 && rnd() >= this.pKeep) v.on = 0;
      if (v.on === 0 && rnd() < this.pReq) Object.assign(v, { on: 1, a: Math.floor(rnd() * span) });
    });
  }
}
