/**
 * Seed 004 Chapter 4's toroidal boundary exchange (spec §8.1,
 * harness/workloads/boundary-exchange.ts) on the RTL C104 mesh with T9000
 * endpoints and real DS-links (c104_system.ts): the same process program the
 * TLM runs, played by the T9000 process driver.
 *
 * Processes P(i, j) of an N×N torus, four per processor (⌊i/2⌋, ⌊j/2⌋) of the
 * (N/2)×(N/2) mesh. Each iteration: compute (the processor's CPU is shared
 * first come first served, as in the TLM), then send one message on each of
 * its four channels (non-blocking: queued on the channel's virtual link) and
 * post a receive on each; the iteration ends when all four of this
 * iteration's messages have arrived. A channel between two processes of one
 * processor is a memory copy (delivered at once, no network), as in the TLM
 * (docs/thesis-model.md#process-model). Every other channel is a virtual
 * link pair of its own. The T9000s use node addressing (docs/t9000.md#addressing:
 * the header names the node, the control block travels as a side-band tag),
 * so a node needs a control block per channel end (8), not a label each, and
 * the seed's 8×8 mesh (N = 16) builds. Control blocks are the workload's
 * channel end numbers (BoundaryExchangeProgram.channelEnds), block v on link
 * v mod links, as the TLM's 'per-channel' link choice.
 *
 * Measured: application exchanges (process iterations) per ms, machine-wide,
 * over a window after a warm-up: each process's rate from its first to its
 * last iteration end in the window, summed.
 */
import { meshLabel, meshNetwork } from '../../rtl/c104/labelling.ts';
import { makeC104System } from './c104_system.ts';
import type { ChannelEnd } from './t9000_driver.ts';
import { NS_PER_CYCLE } from './c104_thesis_workload.ts';
import { PROCESS_START } from './c104_processes.ts';
import { BoundaryExchangeProgram } from '../workloads/boundary-exchange.ts';

export interface RtlExchangeOptions {
  /** Torus side N (even); the mesh is (N/2)×(N/2). */
  readonly N: number;
  readonly bytes: number;
  readonly periodNs: number;
  readonly cpuLinks: number;
  /** C104 input / output buffer tokens (Table 4.3's token-passing model: 198 / 2). */
  readonly inputBufferTokens: number;
  readonly outputBufferTokens: number;
  readonly warmupCycles: number;
  readonly windowCycles: number;
}

export interface RtlExchangeResult {
  readonly exchangesPerMs: number;
  readonly iterations: number;
  readonly wallSeconds: number;
  readonly cycles: number;
}

const START = PROCESS_START; // after DS-link start-up

export function runRtlExchange(o: RtlExchangeOptions): RtlExchangeResult {
  const t0 = performance.now();
  const N = o.N;
  if (!(Number.isInteger(N) && N >= 4 && N % 2 === 0)) throw new RangeError(`rtl exchange: N ${N} must be an even whole number ≥ 4`);
  const D = N / 2;
  const P = N * N;
  const prog = new BoundaryExchangeProgram({ N, bytes: o.bytes, periodNs: o.periodNs });
  const peerOf = (p: number, s: number): number => prog.peerOf(p, s);
  // The workload's node is y·D + x; the RTL endpoint is its mesh label (x-first: x·D + y).
  const rtlNode = (p: number): number => {
    const n = prog.nodeOf(p);
    return meshLabel({ w: D, h: D, routing: 'x-first' }, n % D, (n / D) | 0);
  };
  const ends = prog.channelEnds();
  const spec = meshNetwork({ w: D, h: D, routing: 'x-first', cpuLinks: o.cpuLinks, labelsPerNode: 1 });
  const end = (p: number, s: number): ChannelEnd => ({ node: rtlNode(p), vl: ends[p * 4 + s]! });
  const isNet = (p: number, s: number): boolean => ends[p * 4 + s]! >= 0;
  const chans: [ChannelEnd, ChannelEnd][] = [];
  const byEnd = new Map<string, number>(); // "node:vl" → p·4 + s (the receiving process and slot)
  for (let p = 0; p < P; p++) {
    for (const s of [0, 3]) {
      const q = peerOf(p, s);
      if (!isNet(p, s)) continue;
      const a = end(p, s);
      const b = end(q, (s + 2) % 4);
      chans.push([a, b]);
      byEnd.set(`${a.node}:${a.vl}`, p * 4 + s);
      byEnd.set(`${b.node}:${b.vl}`, q * 4 + ((s + 2) % 4));
    }
  }
  const sys = makeC104System(spec, chans, { c104: { timing: 'thesis', inputBufferTokens: o.inputBufferTokens, outputBufferTokens: o.outputBufferTokens }, t9000: { addressing: 'node' } });
  const { driver, rec, sim } = sys;
  const data = Array.from({ length: o.bytes }, (_, k) => k & 0xff);
  const bufAddr = new Map<number, number>();
  const periodCycles = Math.round(o.periodNs / NS_PER_CYCLE);
  const iter = new Int32Array(P);
  const got = new Int32Array(P * 4); // messages arrived per channel slot
  const cpuFree = new Float64Array(D * D);
  const end0 = START + o.warmupCycles;
  const end1 = end0 + o.windowCycles;
  let counted = 0;

  const begin = (p: number, now: number): void => {
    const node = rtlNode(p);
    const at = Math.max(now, cpuFree[node]!) + periodCycles;
    cpuFree[node] = at;
    for (let s = 0; s < 4; s++) {
      const q = peerOf(p, s);
      if (!isNet(p, s)) {
        got[q * 4 + ((s + 2) % 4)]!++;
        continue;
      }
      const me = end(p, s);
      driver.receive(me.node, me.vl, at);
      const m = driver.send(me.node, me.vl, data, at, bufAddr.get(me.node));
      if (!bufAddr.has(me.node)) bufAddr.set(me.node, m.addr);
    }
    pending.push([at, p]);
  };
  // An iteration's end is checked when its sends have been issued (cycle `at`) and on every arrival.
  const pending: [number, number][] = [];
  const done = (p: number): boolean => {
    const k = iter[p]!;
    for (let s = 0; s < 4; s++) if (got[p * 4 + s]! < k + 1) return false;
    return true;
  };
  // Per process: the first and the last iteration end inside the window (cycle, iteration count).
  const firstAt = new Float64Array(P).fill(-1);
  const firstK = new Int32Array(P);
  const lastAt = new Float64Array(P).fill(-1);
  const lastK = new Int32Array(P);
  const finish = (p: number, now: number): void => {
    iter[p]!++;
    if (now >= end0 && now < end1) {
      counted++;
      if (firstAt[p]! < 0) {
        firstAt[p] = now;
        firstK[p] = iter[p]!;
      }
      lastAt[p] = now;
      lastK[p] = iter[p]!;
    }
    begin(p, now);
  };
  for (let p = 0; p < P; p++) begin(p, START);
  let seen = 0;
  sim.runUntil((s) => {
    const now = s.cycle;
    for (; seen < rec.deliveries.length; seen++) {
      const d = rec.deliveries[seen]!;
      const ps = byEnd.get(`${d.node}:${d.vl}`);
      if (ps !== undefined) got[ps]!++;
    }
    // Iterations whose sends are issued (cycle reached) and whose four messages are in.
    for (let k = 0; k < pending.length; ) {
      const [at, p] = pending[k]!;
      if (at <= now && done(p)) {
        pending.splice(k, 1);
        finish(p, now);
      } else k++;
    }
    return now >= end1;
  }, end1 + 10);
  // Each process's rate from its first to its last iteration end in the window (no quantisation at the window's
  // edges, where up to one iteration per process would be cut), summed over the processes.
  let perMs = 0;
  for (let p = 0; p < P; p++) {
    if (lastAt[p]! > firstAt[p]!) perMs += ((lastK[p]! - firstK[p]!) * 1e6) / ((lastAt[p]! - firstAt[p]!) * NS_PER_CYCLE);
  }
  return { exchangesPerMs: perMs, iterations: counted, wallSeconds: (performance.now() - t0) / 1000, cycles: sim.cycle };
}
