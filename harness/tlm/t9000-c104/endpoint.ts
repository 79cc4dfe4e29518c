/**
 * T9000 endpoints and the thesis's process model (seed 004 §3.5.3, §3.5.4,
 * §5.3.2; docs/thesis-model.md#process-model and #acknowledgements).
 *
 * - Processes run a ProcessProgram (harness/workloads/process-program.ts):
 *   each iteration computes (exclusive use of its CPU; one FCFS run queue
 *   per CPU, no scheduling cost, §4.1.3), then sends, then may block per
 *   the synchronisation mode.
 * - A message of M bytes is ⌈M/32⌉ packets (at least one); its packets go
 *   stop-and-wait: the next packet is queued when the previous one's ack
 *   arrives (one outstanding packet per virtual link, §3.1.1.1). Each
 *   message has its own virtual link (docs/thesis-model.md#virtual-links).
 * - The destination T9000 acknowledges a data packet when its header arrives
 *   (zero processing delay, §3.5.4), except that in the 'loosely' and
 *   'exchange' modes the first packet of a message of a later iteration than
 *   the receiver's is acknowledged only when the receiver reaches that
 *   iteration (spec §14 item 17).
 * - A send completes when the ack of its last packet is delivered.
 * - 'async': a send beyond the outstanding-message limit (or, with
 *   saturationControl 't9000-queue', beyond the T9000 data-queue limit) is
 *   dropped and counted as a saturation failure (§5.3.2).
 * - Two processes on one processor exchange by memory copy: delivered and
 *   acknowledged at once, no network.
 */
import type { ProcessProgram, IterationPlan } from '../../workloads/process-program.ts';
import type { C104Config } from './config.ts';
import { dataPacketTokens, packetNs } from './config.ts';
import { ACK, DATA, ENDPOINT_EVENT_BASE, type EndpointSink, type Packet, type SimContext, type Transport } from './core.ts';
import { IntFifo } from '../../../rtl/lib/int_fifo.ts';
import { C, type Metrics } from './metrics.ts';

export const EV_COMPUTE_END = ENDPOINT_EVENT_BASE;
export const EV_START = ENDPOINT_EVENT_BASE + 1;

const RUNNING = 0; // computing or queued for the CPU
const BLOCKED = 1; // waiting for a send (async-blocking)
const WAITING = 2; // waiting for acks / incoming (loosely, exchange)

class Msg {
  srcProc = 0;
  dstProc = 0;
  srcNode = 0;
  dstNode = 0;
  bytes = 0;
  packets = 1;
  acked = 0;
  delivered = 0;
  iter = 0;
  created = 0;
}

export class Endpoints implements EndpointSink {
  transport!: Transport;
  private readonly P: number;
  private readonly iter: Int32Array;
  /** Loosely / exchange: the iteration whose receives the process has posted (its first packets are acknowledged up to it). */
  private readonly recvIter: Int32Array;
  private readonly postAfterSends: boolean;
  private readonly state: Uint8Array;
  private readonly outstanding: Int32Array;
  private readonly pendingAcks: Int32Array;
  private readonly nextSend: Int32Array;
  /** The current iteration's plan, drawn when first needed (null until then). */
  private readonly plans: (IterationPlan | null)[];
  private readonly compute: Float64Array;
  /** CPU time still to run in the current compute period, and the length of the slice now running (time slicing). */
  private readonly left: Float64Array;
  private readonly slice: Float64Array;
  /** Per process: CPU time of its finished slices and iterations completed; per CPU the process running (−1: idle) and since when (Fig. 4.1's shares). */
  private readonly cpuNs: Float64Array;
  private readonly iterationsDone: Float64Array;
  private readonly sliceStart: Float64Array;
  private readonly running: Int32Array;
  private readonly received: Map<number, number>[];
  private readonly deferred: number[][];
  private readonly cpuBusy: Uint8Array;
  private readonly runQueue: IntFifo[];
  private readonly msgs: Msg[] = [];
  private readonly freeMsgs: number[] = [];
  private readonly gate: boolean;
  private readonly ackTokens: number;
  private readonly ackNs: number;
  /** Header time + routing delay: a packet routed at once starts its first internal link this long after its injection. */
  private readonly hopNs: number;
  /** t9000Links 'per-channel' without the program's own numbering: per node, partner process pair (p·P + q) → channel end number, in first-use order. */
  private readonly perChannel: boolean;
  private readonly slotOf: Map<number, number>[];
  private readonly slotsUsed: Int32Array;
  /** virtualLinks 'per-channel': per ordered process pair (p·P + q), messages waiting behind the one on its virtual link (absent: link idle). */
  private readonly vlQueue = new Map<number, number[]>();
  private readonly vlPerChannel: boolean;

  constructor(
    private readonly c: C104Config,
    private readonly ctx: SimContext,
    private readonly program: ProcessProgram,
    private readonly metrics: Metrics,
  ) {
    const P = (this.P = program.processes);
    this.iter = new Int32Array(P);
    this.postAfterSends = c.receivePosting === 'after-sends';
    // Before its first iteration a process has posted nothing under 'after-sends'; the older reading acknowledged iteration 0 from time 0.
    this.recvIter = new Int32Array(P).fill(this.postAfterSends ? -1 : 0);
    this.state = new Uint8Array(P);
    this.outstanding = new Int32Array(P);
    this.pendingAcks = new Int32Array(P);
    this.nextSend = new Int32Array(P);
    this.plans = new Array<IterationPlan | null>(P).fill(null);
    this.compute = new Float64Array(P);
    this.left = new Float64Array(P);
    this.slice = new Float64Array(P);
    this.cpuNs = new Float64Array(P);
    this.iterationsDone = new Float64Array(P);
    this.sliceStart = new Float64Array(P);
    this.received = Array.from({ length: P }, () => new Map());
    this.deferred = Array.from({ length: P }, () => []);
    const N = c.side * c.side;
    this.cpuBusy = new Uint8Array(N);
    this.runQueue = Array.from({ length: N }, () => new IntFifo());
    this.running = new Int32Array(N).fill(-1);
    this.gate = program.mode === 'loosely' || program.mode === 'exchange';
    this.ackTokens = c.headerBytes + 1;
    this.ackNs = packetNs(c, c.headerBytes);
    this.hopNs = c.headerBytes * c.nsPerDataToken + c.routingDelayNs;
    this.perChannel = c.t9000Links === 'per-channel';
    this.slotOf = this.perChannel && !program.channelSlot ? Array.from({ length: N }, () => new Map()) : [];
    this.slotsUsed = new Int32Array(this.slotOf.length);
    this.vlPerChannel = c.virtualLinks === 'per-channel';
  }

  /**
   * The number of p's end of the channel (p, q) at p's node: the program's numbering, or first-use
   * order per node, both ends numbered when the channel is first used (docs/thesis-model.md#t9000-links).
   */
  private channelSlot(p: number, q: number): number {
    const prog = this.program;
    if (!this.perChannel || prog.nodeOf(p) === prog.nodeOf(q)) return -1;
    if (prog.channelSlot) return prog.channelSlot(p, q);
    const key = p * this.P + q;
    const node = prog.nodeOf(p);
    let s = this.slotOf[node]!.get(key);
    if (s === undefined) {
      s = this.slotsUsed[node]!++;
      this.slotOf[node]!.set(key, s);
      const far = prog.nodeOf(q);
      this.slotOf[far]!.set(q * this.P + p, this.slotsUsed[far]!++);
    }
    return s;
  }

  start(now: number): void {
    for (let p = 0; p < this.P; p++) {
      const t = this.program.startNs(p);
      if (t > 0) this.ctx.queue.push(now + t, EV_START, p);
      else this.begin(p, 0, now);
    }
  }

  handle(type: number, arg: number, now: number): void {
    if (type === EV_START) return this.begin(arg, 0, now);
    if (type !== EV_COMPUTE_END) return;
    const p = arg;
    const node = this.program.nodeOf(p);
    this.metrics.c[C.cpuBusy]! += this.slice[p]!;
    this.cpuNs[p]! += this.slice[p]!;
    if (this.left[p]! > 0) {
      // Quantum expired with work left: to the tail if anyone waits (docs/thesis-model.md#time-slicing).
      const rq = this.runQueue[node]!;
      if (rq.length > 0) {
        rq.push(p);
        this.runSlice(rq.shift(), now);
      } else this.runSlice(p, now);
      return;
    }
    const nx = this.runQueue[node]!.shift();
    if (nx >= 0) this.runSlice(nx, now);
    else {
      this.cpuBusy[node] = 0;
      this.running[node] = -1;
    }
    this.afterCompute(p, now);
  }

  /** Process p (at the head, CPU busy) runs its remaining compute, or one quantum of it under time slicing. */
  private runSlice(p: number, now: number): void {
    const q = this.c.timeSliceNs;
    const run = q > 0 ? Math.min(q, this.left[p]!) : this.left[p]!;
    this.left[p]! -= run;
    this.slice[p] = run;
    this.sliceStart[p] = now;
    this.running[this.program.nodeOf(p)] = p;
    this.ctx.queue.push(now + run, EV_COMPUTE_END, p);
  }

  /**
   * Per process, from time 0 to `now`: CPU time (the running slice's part
   * up to `now` included) and iterations completed: each process's share of
   * its CPU (seed 004 Fig. 4.1, docs/thesis-model.md#time-slicing).
   */
  processWork(now: number): { cpuNs: number[]; iterations: number[] } {
    const cpuNs = Array.from(this.cpuNs);
    for (const p of this.running) if (p >= 0) cpuNs[p]! += now - this.sliceStart[p]!;
    return { cpuNs, iterations: Array.from(this.iterationsDone) };
  }

  // ---------------------------------------------------------------- processes

  private begin(p: number, k: number, now: number): void {
    this.iter[p] = k;
    this.state[p] = RUNNING;
    const prog = this.program;
    this.plans[p] = null;
    const computeNs = (this.compute[p] = prog.computeNs ? prog.computeNs(p, k) : this.plan(p).computeNs);
    if (this.gate && !this.postAfterSends) this.postReceives(p, k, now);
    // A zero compute period skips the CPU when the iteration then blocks on a send; otherwise compute
    // takes at least 1 ns so that a loop never spins at one instant (docs/thesis-model.md#process-model).
    if (computeNs <= 0 && this.program.mode !== 'async' && this.sendCount(p) > 0) return this.afterCompute(p, now);
    const node = this.program.nodeOf(p);
    this.left[p] = Math.max(1, computeNs);
    if (this.cpuBusy[node]) this.runQueue[node]!.push(p);
    else {
      this.cpuBusy[node] = 1;
      this.runSlice(p, now);
    }
  }

  /** Process p's current plan, drawn on first use. */
  private plan(p: number): IterationPlan {
    return (this.plans[p] ??= this.program.plan(p, this.iter[p]!));
  }

  private sendCount(p: number): number {
    return this.program.sendCount ? this.program.sendCount(p, this.iter[p]!) : this.plan(p).sends.length;
  }

  private afterCompute(p: number, now: number): void {
    const k = this.iter[p]!;
    switch (this.program.mode) {
      case 'async': {
        const limitQueue = this.c.saturationControl === 't9000-queue';
        const node = this.program.nodeOf(p);
        const m = this.sendCount(p);
        for (let i = 0; i < m; i++) {
          this.metrics.c[C.sendsAttempted]!++;
          const full = limitQueue ? this.transport.dataQueueLength(node) >= this.c.outstandingLimit : this.outstanding[p]! >= this.c.outstandingLimit;
          if (full) this.metrics.c[C.sendsDropped]!++;
          else {
            const s = this.plan(p).sends[i]!;
            this.send(p, s.dest, s.bytes, k, now);
          }
        }
        this.finish(p, now);
        return;
      }
      case 'async-blocking':
        this.nextSend[p] = 0;
        this.sendNextBlocking(p, now);
        return;
      case 'loosely':
      case 'exchange': {
        const plan = this.plan(p);
        this.state[p] = WAITING;
        this.pendingAcks[p] = this.program.mode === 'loosely' ? plan.sends.length : 0;
        for (const s of plan.sends) {
          this.metrics.c[C.sendsAttempted]!++;
          this.send(p, s.dest, s.bytes, k, now);
        }
        if (this.postAfterSends) this.postReceives(p, k, now);
        this.checkProceed(p, now);
        return;
      }
    }
  }

  private sendNextBlocking(p: number, now: number): void {
    const plan = this.plan(p);
    const i = this.nextSend[p]!;
    if (i >= plan.sends.length) return this.finish(p, now);
    this.state[p] = BLOCKED;
    this.metrics.c[C.sendsAttempted]!++;
    const s = plan.sends[i]!;
    this.send(p, s.dest, s.bytes, this.iter[p]!, now);
  }

  private checkProceed(p: number, now: number): void {
    if (this.state[p] !== WAITING || this.pendingAcks[p]! > 0) return;
    const k = this.iter[p]!;
    if ((this.received[p]!.get(k) ?? 0) < this.program.incoming(p, k)) return;
    this.received[p]!.delete(k);
    this.finish(p, now);
  }

  private finish(p: number, now: number): void {
    this.metrics.c[C.iterations]!++;
    this.iterationsDone[p]!++;
    this.begin(p, this.iter[p]! + 1, now);
  }

  // ---------------------------------------------------------------- messages

  private send(p: number, dest: number, bytes: number, k: number, now: number): void {
    let id = this.freeMsgs.pop();
    if (id === undefined) {
      id = this.msgs.length;
      this.msgs.push(new Msg());
    }
    const m = this.msgs[id]!;
    m.srcProc = p;
    m.dstProc = dest;
    m.srcNode = this.program.nodeOf(p);
    m.dstNode = this.program.nodeOf(dest);
    m.bytes = bytes;
    m.packets = Math.max(1, Math.ceil(bytes / this.c.packetDataBytes));
    m.acked = 0;
    m.delivered = 0;
    m.iter = k;
    m.created = now;
    this.outstanding[p]!++;
    if (this.ctx.events) this.ctx.events.push({ t: now, kind: 'message-queued', msg: id, node: m.srcNode });
    if (this.vlPerChannel && m.srcNode !== m.dstNode) {
      // One virtual link per channel: behind the message already on it (docs/thesis-model.md#virtual-links).
      const key = p * this.P + dest;
      const q = this.vlQueue.get(key);
      if (q) return void q.push(id);
      this.vlQueue.set(key, []);
    }
    this.sendPacket(id, 0, now);
  }

  /** The message on channel (p, q)'s virtual link completed: the next one waiting starts. */
  private vlNext(p: number, q: number, now: number): void {
    const key = p * this.P + q;
    const list = this.vlQueue.get(key)!;
    if (list.length === 0) this.vlQueue.delete(key);
    else this.sendPacket(list.shift()!, 0, now);
  }

  private sendPacket(id: number, index: number, now: number): void {
    const m = this.msgs[id]!;
    const pk = this.ctx.pool.alloc();
    const bytes = index < m.packets - 1 ? this.c.packetDataBytes : m.bytes - index * this.c.packetDataBytes;
    pk.kind = DATA;
    pk.src = m.srcNode;
    pk.dst = m.dstNode;
    pk.msg = id;
    pk.index = index;
    pk.chan = this.channelSlot(m.srcProc, m.dstProc);
    pk.tokens = dataPacketTokens(this.c, Math.max(0, bytes));
    pk.ns = packetNs(this.c, this.c.headerBytes + Math.max(0, bytes));
    pk.created = now;
    this.dispatch(pk, now);
  }

  private sendAck(id: number, index: number, now: number): void {
    const m = this.msgs[id]!;
    const a = this.ctx.pool.alloc();
    a.kind = ACK;
    a.src = m.dstNode;
    a.dst = m.srcNode;
    a.msg = id;
    a.index = index;
    a.chan = this.channelSlot(m.dstProc, m.srcProc);
    a.tokens = this.ackTokens;
    a.ns = this.ackNs;
    a.created = now;
    this.metrics.acksCreated[a.src]!++;
    this.dispatch(a, now);
  }

  /** Into the network, or straight to the local process (memory copy). */
  private dispatch(pk: Packet, now: number): void {
    if (pk.src !== pk.dst) {
      this.transport.inject(pk, now);
      return;
    }
    pk.firstOut = pk.firstInternal = now;
    this.onHead(pk, now);
    this.onTail(pk, now);
    this.ctx.pool.release(pk);
  }

  /** p posts iteration k's receives: the first packets waiting for them are acknowledged (docs/thesis-model.md#synchronisation). */
  private postReceives(p: number, k: number, now: number): void {
    this.recvIter[p] = k;
    const list = this.deferred[p]!;
    if (list.length === 0) return;
    const keep: number[] = [];
    for (const id of list) {
      if (this.msgs[id]!.iter <= k) this.sendAck(id, 0, now);
      else keep.push(id);
    }
    this.deferred[p] = keep;
  }

  onHead(pk: Packet, now: number): void {
    if (pk.kind !== DATA) return;
    const m = this.msgs[pk.msg]!;
    if (this.gate && pk.index === 0 && this.recvIter[m.dstProc]! < m.iter) this.deferred[m.dstProc]!.push(pk.msg);
    else this.sendAck(pk.msg, pk.index, now);
  }

  onTail(pk: Packet, now: number): void {
    const mc = this.metrics.c;
    const id = pk.msg;
    const m = this.msgs[id]!;
    const fi = pk.firstInternal >= 0 ? pk.firstInternal : pk.firstOut;
    if (pk.hops >= 3) {
      mc[C.firstHopWait]! += fi - pk.firstOut - this.hopNs;
      mc[C.firstHopPackets]!++;
    }
    if (pk.kind === DATA) {
      mc[C.dataDelivered]!++;
      mc[C.dataTransport]! += now - pk.created;
      mc[C.dataQueue]! += pk.firstOut - pk.created;
      mc[C.dataLifetime]! += now - pk.firstOut;
      mc[C.dataRouted]! += now - fi;
      mc[C.dataHops]! += pk.hops;
      this.metrics.deliveredBySource[pk.src]!++;
      m.delivered++;
      if (this.ctx.events) {
        if (pk.index === 0) this.ctx.events.push({ t: now, kind: 'first-packet-delivered', msg: id, node: pk.dst, packet: 0 });
        if (m.delivered === m.packets) this.ctx.events.push({ t: now, kind: 'message-complete', msg: id, node: pk.dst, packet: pk.index });
      }
      if (m.delivered === m.packets) {
        const q = m.dstProc;
        const r = this.received[q]!;
        r.set(m.iter, (r.get(m.iter) ?? 0) + 1);
        if (m.iter === this.iter[q]) this.checkProceed(q, now);
        if (m.acked === m.packets) this.free(id);
      }
      return;
    }
    mc[C.ackDelivered]!++;
    this.metrics.acksDelivered[pk.src]!++;
    mc[C.ackTransport]! += now - pk.created;
    mc[C.ackQueue]! += pk.firstOut - pk.created;
    mc[C.ackLifetime]! += now - pk.firstOut;
    mc[C.ackRouted]! += now - fi;
    m.acked++;
    if (m.acked < m.packets) {
      this.sendPacket(id, m.acked, now);
      return;
    }
    mc[C.messagesComplete]!++;
    const p = m.srcProc;
    if (this.vlPerChannel && m.srcNode !== m.dstNode) this.vlNext(p, m.dstProc, now);
    this.outstanding[p]!--;
    if (m.delivered === m.packets) this.free(id);
    const mode = this.program.mode;
    if (mode === 'async-blocking') {
      this.nextSend[p]!++;
      this.sendNextBlocking(p, now);
    } else if (mode === 'loosely') {
      this.pendingAcks[p]!--;
      this.checkProceed(p, now);
    }
  }

  private free(id: number): void {
    if (!this.ctx.events) this.freeMsgs.push(id);
  }
}
