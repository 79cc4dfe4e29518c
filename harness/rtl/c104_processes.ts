/**
 * Seed 004's process model, closed loop, on the RTL C104 mesh with T9000
 * endpoints (c104_system.ts): the processes of a ProcessProgram (Definition
 * 5.1's SyntheticProgram, harness/workloads/thesis-synthetic.ts) run on
 * their CPUs and issue their sends and receives through the T9000 process
 * driver (t9000_driver.ts); their timing follows the network's completion
 * events, as in the TLM (harness/tlm/t9000-c104/endpoint.ts,
 * docs/thesis-model.md#process-model, #synchronisation; docs/c104.md#thesis-processes).
 *
 * - CPU: one FIFO run queue per processor, no time slicing, no scheduling
 *   cost: an iteration's compute starts when the CPU is free and runs
 *   ⌈computeNs / 10⌉ cycles (at least 1; a zero compute before a blocking
 *   send skips the CPU, as the TLM).
 * - Channels: one virtual link pair per pair of processes on different
 *   processors that may talk (every pair of the program's draws up to the
 *   run's last iteration), control blocks numbered per endpoint in first-use
 *   order (`channelSlot`, which the TLM's 'per-channel' link choice can
 *   share). Node addressing (docs/t9000.md#addressing).
 * - 'async': after compute, each planned send is dropped (a saturation
 *   failure) if the process has `outstandingLimit` sends not yet complete,
 *   else queued; the next iteration begins at once.
 * - 'async-blocking': the sends go one by one, each issued in the cycle the
 *   previous one's completion (its last ack) is seen.
 * - 'loosely': all sends queued, then the process waits for all their
 *   completions and all of this iteration's incoming messages.
 * - Receives: in the async modes a receive is posted with every send (the
 *   receiver acknowledges at once); in 'loosely' a process posts the
 *   receives of iteration k when it begins iteration k, so a message of a
 *   later iteration waits in the receiver's link until then: the TLM's
 *   deferred acknowledgement (spec §14 item 17) done by the T9000 itself.
 * - Two processes of one processor exchange by memory copy (delivered at
 *   once; in 'loosely' completed when the receiver reaches its iteration).
 * - 'exchange' (Chapter 4's boundary exchange, BoundaryExchangeProgram, run
 *   by c104_exchange.ts): the rules the RTL exchange was built with in stop
 *   17, kept exactly so Table 4.3's token column is unchanged
 *   (docs/c104.md#thesis-processes): when a process begins iteration k it
 *   takes the CPU for its compute (⌈computeNs / 10⌉ cycles, 0 allowed) and
 *   at once schedules, for the cycle the compute ends, on each of its
 *   channels a receive on its own end and then the send, all from one
 *   buffer per node; a memory copy is counted delivered at the begin. An
 *   iteration ends at the end of the first cycle (after the compute) in
 *   which all of iteration k's incoming messages are in; processes ending
 *   in one cycle begin again in the order they last began. Channels: one
 *   per pair of iteration 0 (the plan is the same every iteration), control
 *   blocks numbered by the program's channelSlot.
 *
 * Times are cycles of 10 ns (docs/c104.md#timing); a process's start sleep
 * is the program's startNs.
 */
import { meshLabel, meshNetwork } from '../../rtl/c104/labelling.ts';
import type { C104Options } from '../../rtl/c104/config.ts';
import type { ProcessProgram } from '../workloads/process-program.ts';
import { makeC104System, type C104System } from './c104_system.ts';
import type { ChannelEnd } from './t9000_driver.ts';
import { NS_PER_CYCLE } from './c104_thesis_workload.ts';

/** First cycle of the processes, after DS-link start-up (c104_exchange.ts starts there too). */
export const PROCESS_START = 2500;

export interface RtlProcessOptions {
  /** Cycles before the measurement window (after PROCESS_START). */
  readonly warmupCycles: number;
  readonly windowCycles: number;
  /** Per-process outstanding-message limit of 'async' (the TLM's outstandingLimit, default 16). */
  readonly outstandingLimit?: number;
  /** T9000 links per processor (default 4, the TLM's cpuLinkWidth). */
  readonly cpuLinks?: number;
  readonly c104?: C104Options;
  /**
   * Iterations per process whose draws give the channels (default: the
   * window's span over the shortest first compute period, + 2). A process
   * reaching it before the run's end is an error.
   */
  readonly iterations?: number;
  /** Stop beginning iterations at the window's end and run until every message sent is delivered and complete (at most this many cycles more). */
  readonly drainCycles?: number;
  /**
   * Negative control only: 'async-blocking' sends do not wait for their
   * completion (each is issued in the cycle after the previous one). Not a
   * model of anything (docs/c104.md#thesis-processes).
   */
  readonly unblockedSendsControl?: boolean;
}

/** One planned send as the process met it, in its issue order. */
export interface ProcessSend {
  readonly proc: number;
  readonly iter: number;
  readonly dest: number;
  readonly bytes: number;
  /** Driver message id (−1: memory copy or dropped). */
  readonly msg: number;
  readonly dropped: boolean;
  readonly cycle: number;
}

export interface RtlProcessResult {
  /** Data packets (⌈bytes/32⌉, at least 1) delivered in the window per CPU per ms: the TLM's primary response. */
  readonly throughput: number;
  readonly sendsAttempted: number;
  readonly sendsDropped: number;
  readonly iterations: number;
  /** Per process, its sends in issue order (drops included). */
  readonly sends: ProcessSend[][];
  /** Per process, the cycle it began each iteration (index = iteration). */
  readonly began: number[][];
  /** Network messages sent / delivered / complete (acknowledged) by the end of the run. */
  readonly sent: number;
  readonly delivered: number;
  readonly completed: number;
  readonly cycles: number;
  readonly sys: C104System;
  /** p's end number of channel (p, q) (the TLM's channelSlot). */
  readonly channelSlot: (p: number, q: number) => number;
}

/** The pairs of processes on different processors that the program's first `iterations` iterations use, in first-use order. */
export function talkingPairs(program: ProcessProgram, iterations: number): [number, number][] {
  const seen = new Set<number>();
  const out: [number, number][] = [];
  const P = program.processes;
  for (let k = 0; k < iterations; k++) {
    for (let p = 0; p < P; p++) {
      for (const s of program.plan(p, k).sends) {
        if (program.nodeOf(p) === program.nodeOf(s.dest)) continue;
        const a = Math.min(p, s.dest);
        const b = Math.max(p, s.dest);
        if (seen.has(a * P + b)) continue;
        seen.add(a * P + b);
        out.push([a, b]);
      }
    }
  }
  return out;
}

export function runRtlProcesses(program: ProcessProgram, o: RtlProcessOptions): RtlProcessResult {
  const mode = program.mode;
  const exchange = mode === 'exchange';
  if (exchange && o.drainCycles !== undefined) throw new RangeError("rtl processes: mode 'exchange' has no drain");
  const D = program.side;
  const P = program.processes;
  const limit = o.outstandingLimit ?? 16;
  const end0 = PROCESS_START + o.warmupCycles;
  const end1 = end0 + o.windowCycles;
  // Most iterations a process can begin before end1: every one takes at least a cycle of compute, or one send's round trip.
  let minCycles = Infinity;
  for (let p = 0; p < P; p++) minCycles = Math.min(minCycles, Math.max(1, Math.round(program.plan(p, 0).computeNs / NS_PER_CYCLE)));
  // 'exchange': the plan does not change with k, so iteration 0 gives every channel (and no cap applies).
  const cap = exchange ? Infinity : (o.iterations ?? Math.ceil((end1 - PROCESS_START) / minCycles) + 2);
  const terminal = (p: number): number => {
    const n = program.nodeOf(p);
    return meshLabel({ w: D, h: D, routing: 'x-first' }, n % D, (n / D) | 0);
  };
  const pairs = talkingPairs(program, exchange ? 1 : cap);
  const next = new Array<number>(D * D).fill(0);
  const endOf = new Map<number, ChannelEnd>(); // p·P + q → p's end
  const chans: [ChannelEnd, ChannelEnd][] = [];
  const slot = (p: number, q: number): number => (program.channelSlot ? program.channelSlot(p, q) : next[terminal(p)]!++);
  for (const [a, b] of pairs) {
    const ea = { node: terminal(a), vl: slot(a, b) };
    const eb = { node: terminal(b), vl: slot(b, a) };
    endOf.set(a * P + b, ea);
    endOf.set(b * P + a, eb);
    chans.push([ea, eb]);
  }
  const spec = meshNetwork({ w: D, h: D, routing: 'x-first', cpuLinks: o.cpuLinks ?? 4, labelsPerNode: 1 });
  const sys = makeC104System(spec, chans, { c104: { timing: 'thesis', ...o.c104 }, t9000: { addressing: 'node' } });
  const { driver, sim } = sys;
  driver.holdWhenFull = true;

  const cpuFree = new Float64Array(D * D).fill(PROCESS_START);
  const iter = new Int32Array(P);
  const outstanding = new Int32Array(P);
  const pendingAcks = new Int32Array(P);
  const nextSend = new Int32Array(P);
  const waiting = new Uint8Array(P);
  const halted = new Uint8Array(P);
  const received: Map<number, number>[] = Array.from({ length: P }, () => new Map());
  /** 'loosely': per receiver, the receives (network) or acknowledgements (memory copy) of messages of a later iteration than its own. */
  const future: { iter: number; recv: boolean; send: () => void }[][] = Array.from({ length: P }, () => []);
  const sends: ProcessSend[][] = Array.from({ length: P }, () => []);
  const began: number[][] = Array.from({ length: P }, () => []);
  /** Per source end ("node:vl"): its network messages in send order, not yet complete. */
  const inFlight = new Map<string, { proc: number; iter: number }[]>();
  const msgInfo: { proc: number; dest: number; iter: number; packets: number }[] = [];
  let attempted = 0;
  let dropped = 0;
  let iterations = 0;
  let packetsInWindow = 0;
  let delivered = 0;
  let completed = 0;
  const stopAt = o.drainCycles !== undefined ? end1 : Infinity;
  const packetsOf = (bytes: number): number => Math.max(1, Math.ceil(bytes / 32));
  const countDelivery = (packets: number, cycle: number): void => {
    if (cycle >= end0 && cycle < end1) packetsInWindow += packets;
  };

  const arrive = (q: number, k: number, now: number): void => {
    received[q]!.set(k, (received[q]!.get(k) ?? 0) + 1);
    if (k === iter[q] && !exchange) checkProceed(q, now);
  };
  const sendDone = (p: number, now: number): void => {
    outstanding[p]!--;
    if (mode === 'async-blocking' && !o.unblockedSendsControl) {
      nextSend[p]!++;
      sendNextBlocking(p, now);
    } else if (mode === 'loosely') {
      pendingAcks[p]!--;
      checkProceed(p, now);
    }
  };

  /** A network message of p's iteration k on p's end e: for its delivery and completion events. */
  const track = (id: number, p: number, dest: number, k: number, bytes: number, e: ChannelEnd): void => {
    msgInfo[id] = { proc: p, dest, iter: k, packets: packetsOf(bytes) };
    const key = `${e.node}:${e.vl}`;
    const list = inFlight.get(key) ?? [];
    inFlight.set(key, list);
    list.push({ proc: p, iter: k });
  };

  const issue = (p: number, dest: number, bytes: number, k: number, now: number): number => {
    outstanding[p]!++;
    if (program.nodeOf(p) === program.nodeOf(dest)) {
      // Memory copy: delivered now; acknowledged now, or (loosely) when the receiver reaches iteration k.
      countDelivery(packetsOf(bytes), now);
      const ack = (): void => void sim.schedule(Math.max(sim.cycle, now), () => sendDone(p, Math.max(sim.cycle, now)));
      arrive(dest, k, now);
      if (mode === 'loosely' && k > iter[dest]! && !halted[dest]) future[dest]!.push({ iter: k, recv: false, send: ack });
      else ack();
      return -1;
    }
    const e = endOf.get(p * P + dest);
    if (!e) throw new RangeError(`rtl processes: process ${p} sends to ${dest} in iteration ${k}, a pair without a channel (beyond the ${cap} iterations drawn)`);
    const id = driver.messages.length;
    const data = Array.from({ length: bytes }, (_, j) => (id * 7 + j * 13 + 1) & 0xff);
    driver.send(e.node, e.vl, data, Math.max(sim.cycle, now));
    track(id, p, dest, k, bytes, e);
    const far = driver.peerOf(e);
    const post = (): void => driver.receive(far.node, far.vl, Math.max(sim.cycle, now));
    // 'loosely': a receiver at iteration ≥ k posted this receive when it began k (postIncoming).
    if (mode !== 'loosely') post();
    else if (k > iter[dest]!) {
      if (halted[dest]) post();
      else future[dest]!.push({ iter: k, recv: true, send: post });
    }
    return id;
  };

  const record = (p: number, dest: number, bytes: number, msg: number, drop: boolean, now: number): void => {
    sends[p]!.push({ proc: p, iter: iter[p]!, dest, bytes, msg, dropped: drop, cycle: now });
  };

  const sendNextBlocking = (p: number, now: number): void => {
    const plan = program.plan(p, iter[p]!);
    const i = nextSend[p]!;
    if (i >= plan.sends.length) return finish(p, now);
    attempted++;
    const s = plan.sends[i]!;
    record(p, s.dest, s.bytes, issue(p, s.dest, s.bytes, iter[p]!, now), false, now);
  };

  const checkProceed = (p: number, now: number): void => {
    if (!waiting[p] || pendingAcks[p]! > 0) return;
    const k = iter[p]!;
    if ((received[p]!.get(k) ?? 0) < program.incoming(p, k)) return;
    received[p]!.delete(k);
    waiting[p] = 0;
    finish(p, now);
  };

  const finish = (p: number, now: number): void => {
    iterations++;
    begin(p, iter[p]! + 1, now);
  };

  const afterCompute = (p: number, now: number): void => {
    const k = iter[p]!;
    const plan = program.plan(p, k);
    if (mode === 'async') {
      for (const s of plan.sends) {
        attempted++;
        if (outstanding[p]! >= limit) {
          dropped++;
          record(p, s.dest, s.bytes, -1, true, now);
        } else record(p, s.dest, s.bytes, issue(p, s.dest, s.bytes, k, now), false, now);
      }
      return finish(p, now);
    }
    if (mode === 'async-blocking') {
      nextSend[p] = 0;
      if (!o.unblockedSendsControl) return sendNextBlocking(p, now);
      // Control: every send issued one cycle after the previous, none waited for.
      let t = now;
      for (const s of plan.sends) {
        attempted++;
        const at = t;
        sim.schedule(at, () => record(p, s.dest, s.bytes, issue(p, s.dest, s.bytes, k, at), false, at));
        t++;
      }
      sim.schedule(t, () => finish(p, t));
      return;
    }
    waiting[p] = 1;
    pendingAcks[p] = plan.sends.length;
    for (const s of plan.sends) {
      attempted++;
      record(p, s.dest, s.bytes, issue(p, s.dest, s.bytes, k, now), false, now);
    }
    checkProceed(p, now);
  };

  /**
   * q began iteration k (loosely): the memory copies of iterations ≤ k are acknowledged; the receives of
   * network messages of iterations ≤ k were posted by postIncoming. A halted q takes every later message too.
   */
  const releaseFuture = (q: number, k: number): void => {
    const keep = [];
    for (const f of future[q]!) {
      if (f.iter <= k) {
        if (!f.recv) f.send();
      } else if (halted[q]) f.send();
      else keep.push(f);
    }
    future[q] = keep;
  };

  /** 'exchange': iterations whose sends are scheduled, [cycle the compute ends, process], in begin order. */
  const pending: [number, number][] = [];
  const bufAddr = new Map<number, number>();
  const exchangeData = (bytes: number): number[] => Array.from({ length: bytes }, (_, j) => j & 0xff);

  /** 'exchange': begin iteration k (see the file header): compute, then the receives and sends scheduled for its end. */
  const beginExchange = (p: number, k: number, now: number): void => {
    const node = program.nodeOf(p);
    const plan = program.plan(p, k);
    const at = Math.max(now, cpuFree[node]!) + Math.round(plan.computeNs / NS_PER_CYCLE);
    cpuFree[node] = at;
    for (const s of plan.sends) {
      attempted++;
      outstanding[p]!++;
      if (node === program.nodeOf(s.dest)) {
        countDelivery(packetsOf(s.bytes), now);
        arrive(s.dest, k, now);
        outstanding[p]!--;
        record(p, s.dest, s.bytes, -1, false, now);
        continue;
      }
      const e = endOf.get(p * P + s.dest)!;
      driver.receive(e.node, e.vl, at);
      const m = driver.send(e.node, e.vl, exchangeData(s.bytes), at, bufAddr.get(e.node));
      if (!bufAddr.has(e.node)) bufAddr.set(e.node, m.addr);
      track(m.id, p, s.dest, k, s.bytes, e);
      record(p, s.dest, s.bytes, m.id, false, at);
    }
    pending.push([at, p]);
  };
  /** 'exchange': at the end of a cycle, the iterations that end (in begin order). */
  const endCycle = (now: number): void => {
    for (let i = 0; i < pending.length; ) {
      const [at, p] = pending[i]!;
      const k = iter[p]!;
      if (at <= now && (received[p]!.get(k) ?? 0) >= program.incoming(p, k)) {
        pending.splice(i, 1);
        received[p]!.delete(k);
        finish(p, now);
      } else i++;
    }
  };

  const begin = (p: number, k: number, now: number): void => {
    iter[p] = k;
    began[p]![k] = now;
    if (exchange) return beginExchange(p, k, now);
    if (k >= cap && now < stopAt) throw new RangeError(`rtl processes: process ${p} reached iteration ${k} at cycle ${now}, beyond the ${cap} iterations whose channels were built (raise iterations)`);
    if (now >= stopAt) halted[p] = 1;
    if (mode === 'loosely') {
      postIncoming(p, k);
      releaseFuture(p, k);
    }
    if (halted[p]) return;
    const plan = program.plan(p, k);
    const computeNs = plan.computeNs;
    if (computeNs <= 0 && mode !== 'async' && plan.sends.length > 0) return afterCompute(p, now);
    const node = program.nodeOf(p);
    const at = Math.max(now, cpuFree[node]!) + Math.max(1, Math.round(computeNs / NS_PER_CYCLE));
    cpuFree[node] = at;
    sim.schedule(at, () => afterCompute(p, at));
  };

  /** 'loosely': the receives of iteration k's incoming network messages, posted when q begins k. */
  const incomingPlan = new Map<number, [number, number][]>();
  const postIncoming = (q: number, k: number): void => {
    let list = incomingPlan.get(k);
    if (!list) {
      list = [];
      for (let p = 0; p < P; p++) for (const s of program.plan(p, k).sends) if (program.nodeOf(p) !== program.nodeOf(s.dest)) list.push([p, s.dest]);
      incomingPlan.set(k, list);
      incomingPlan.delete(k - 64);
    }
    for (const [p, dest] of list) {
      if (dest !== q) continue;
      const far = endOf.get(q * P + p);
      if (far) driver.receive(far.node, far.vl, sim.cycle);
    }
  };

  // Completion events from the recorder (t9000_events.ts), after the driver's own handling.
  const onSendDone = driver.onSendDone.bind(driver);
  driver.onSendDone = (node, vl, cycle) => {
    onSendDone(node, vl, cycle);
    const m = inFlight.get(`${node}:${vl}`)!.shift()!;
    completed++;
    sendDone(m.proc, cycle);
  };
  const onDelivered = driver.onDelivered.bind(driver);
  driver.onDelivered = (node, vl, cycle) => {
    onDelivered(node, vl, cycle);
    const d = sys.rec.deliveries[sys.rec.deliveries.length - 1]!;
    const info = msgInfo[d.msg]!;
    delivered++;
    countDelivery(info.packets, cycle);
    arrive(info.dest, info.iter, cycle);
  };

  for (let p = 0; p < P; p++) {
    const t = PROCESS_START + Math.round(program.startNs(p) / NS_PER_CYCLE);
    // 'exchange' schedules its sends for a cycle of their own, so its processes begin now, in process order.
    if (exchange) begin(p, 0, t);
    else sim.schedule(t, () => begin(p, 0, t));
  }
  const untilEnd = exchange
    ? (s: { cycle: number }): boolean => {
        endCycle(s.cycle);
        return s.cycle >= end1;
      }
    : (s: { cycle: number }): boolean => s.cycle >= end1;
  if (o.drainCycles === undefined) sim.runUntil(untilEnd, end1 + 10);
  else {
    sim.runUntil(untilEnd, end1 + 10);
    const cap2 = end1 + o.drainCycles;
    sim.runUntil((s) => (delivered === driver.messages.length && completed === driver.messages.length) || s.cycle >= cap2, cap2 + 10);
  }
  return {
    throughput: (packetsInWindow * 1e6) / ((D * D) * o.windowCycles * NS_PER_CYCLE),
    sendsAttempted: attempted,
    sendsDropped: dropped,
    iterations,
    sends,
    began,
    sent: driver.messages.length,
    delivered,
    completed,
    cycles: sim.cycle,
    sys,
    channelSlot: (p, q) => endOf.get(p * P + q)?.vl ?? -1,
  };
}
