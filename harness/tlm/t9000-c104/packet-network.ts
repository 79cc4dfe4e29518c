/**
 * The thesis's packet-passing network under the full contention model
 * (seed 004 §3.5.4 "packet-passing", §5.5.2 model 1; docs/thesis-model.md
 * #packet-passing and #arbitration).
 *
 * Structure per node: the T9000's output queues (acks and data, §3.1.1.1)
 * feed the injection hunt group (cpuLinkWidth DS-links, §4.2.2) into the
 * C104; every C104 input link has its own FIFO buffer (inputBufferTokens,
 * all buffering on the input, §3.5.4); routing logic on each input chooses
 * an output group (one internal link per direction, or the delivery hunt
 * group to the local T9000); the crossbar arbitrates among inputs waiting for
 * a group (crossbarPolicy, c104AckPriority, §4.2.4).
 *
 * Flow control is per packet: a packet starts over a link only when the
 * downstream input buffer has room for the whole of it. The arbiter first
 * grants a waiting input a free link of the group (the crossbar connection,
 * preferring a link whose buffer can take the packet now); if no granted
 * link's buffer has room the connection is held until room appears
 * (docs/thesis-model.md#packet-passing). Packets cut through: the head is
 * routed once its header has arrived (headerBytes·100 ns + routingDelayNs)
 * and the connection is held until the tail has drained over the output link
 * (no output buffer). The upstream buffer space is released when the tail
 * has left it. The T9000 sink never blocks (§4.2.3).
 */
import type { Rng } from '../../workloads/rng.ts';
import type { C104Config } from './config.ts';
import { ACK, EV_DELIVER_HEAD, EV_DELIVER_TAIL, EV_ROUTE, EV_TX_END, type EndpointSink, type Packet, type SimContext, type Transport } from './core.ts';
import { IntFifo } from '../../../rtl/lib/int_fifo.ts';
import { dorDirection, neighbour } from './topology.ts';

const INJ = 0;
const INT = 1;
const DEL = 2;

export class PacketNetwork implements Transport {
  private readonly N: number;
  private readonly W: number;
  private readonly planes: number;
  private readonly ipn: number; // inputs per node
  private readonly gpn: number; // output groups per node
  private readonly intBase: number;
  private readonly delBase: number;
  private readonly headerNs: number;
  private readonly prefix: number; // random header tokens (two-phase)
  private readonly xFirst: boolean;
  // links
  private readonly linkKind: Uint8Array;
  private readonly linkBusy: Uint8Array;
  private readonly linkPkt: Int32Array;
  private readonly linkHeld: Int32Array;
  private readonly linkFrom: Int32Array;
  private readonly linkFree: Int32Array;
  private readonly linkDown: Int32Array;
  private readonly linkGroup: Int32Array;
  private readonly linkStart: Float64Array;
  private readonly linkTotal: Float64Array;
  /** Per link: when its crossbar connection was made, and the connected ns summed (Fig. 5.1's second reading, docs/thesis-model.md#figs-51-510512). */
  private readonly linkGrantAt: Float64Array;
  private readonly linkConnected: Float64Array;
  // C104 inputs
  private readonly inUsed: Int32Array;
  /** Packets in each input buffer, oldest first (a packet cutting through sits in two buffers at once). */
  private readonly inFifo: IntFifo[];
  private readonly inFeed: Int32Array;
  // output groups: first link and width
  private readonly groupFirst: Int32Array;
  private readonly groupWidth: Uint8Array;
  private readonly waiting: number[][];
  readonly routedBySwitch: Float64Array;
  // T9000 output queues
  private readonly ackQ: IntFifo[];
  private readonly dataQ: IntFifo[];

  constructor(
    private readonly c: C104Config,
    private readonly ctx: SimContext,
    private readonly sink: EndpointSink,
    private readonly rng: Rng,
  ) {
    const D = c.side;
    const N = (this.N = D * D);
    const W = (this.W = c.cpuLinkWidth);
    const planes = (this.planes = c.routing === 'two-phase' ? 2 : 1);
    this.ipn = W + 4 * planes;
    this.gpn = 4 * planes + 1;
    this.intBase = N * W;
    this.delBase = this.intBase + N * planes * 4;
    const L = this.delBase + N * W;
    this.headerNs = c.headerBytes * c.nsPerDataToken + c.routingDelayNs;
    this.prefix = c.routing === 'two-phase' ? c.headerBytes : 0;
    this.xFirst = c.routing !== 'yx';
    this.linkKind = new Uint8Array(L);
    this.linkBusy = new Uint8Array(L);
    this.linkPkt = new Int32Array(L).fill(-1);
    this.linkHeld = new Int32Array(L).fill(-1);
    this.linkFrom = new Int32Array(L).fill(-1);
    this.linkFree = new Int32Array(L);
    this.linkDown = new Int32Array(L).fill(-1);
    this.linkGroup = new Int32Array(L).fill(-1);
    this.linkStart = new Float64Array(L);
    this.linkTotal = new Float64Array(L);
    this.linkGrantAt = new Float64Array(L);
    this.linkConnected = new Float64Array(L);
    const I = N * this.ipn;
    this.inUsed = new Int32Array(I);
    this.inFifo = Array.from({ length: I }, () => new IntFifo());
    this.inFeed = new Int32Array(I).fill(-1);
    const G = N * this.gpn;
    this.groupFirst = new Int32Array(G).fill(-1);
    this.groupWidth = new Uint8Array(G);
    this.waiting = Array.from({ length: G }, () => []);
    this.routedBySwitch = new Float64Array(N);
    this.ackQ = Array.from({ length: N }, () => new IntFifo());
    this.dataQ = Array.from({ length: N }, () => new IntFifo());
    for (let n = 0; n < N; n++) {
      for (let j = 0; j < W; j++) {
        const inj = n * W + j;
        this.linkKind[inj] = INJ;
        this.linkDown[inj] = n * this.ipn + j;
        this.inFeed[n * this.ipn + j] = inj;
        const del = this.delBase + n * W + j;
        this.linkKind[del] = DEL;
        this.linkGroup[del] = n * this.gpn + 4 * planes;
      }
      const dg = n * this.gpn + 4 * planes;
      this.groupFirst[dg] = this.delBase + n * W;
      this.groupWidth[dg] = W;
      for (let pl = 0; pl < planes; pl++) {
        for (let dir = 0; dir < 4; dir++) {
          const nb = neighbour(n, dir, D);
          if (nb < 0) continue;
          const l = this.intBase + (n * planes + pl) * 4 + dir;
          const input = nb * this.ipn + W + pl * 4 + dir;
          this.linkKind[l] = INT;
          this.linkDown[l] = input;
          this.inFeed[input] = l;
          const g = n * this.gpn + pl * 4 + dir;
          this.linkGroup[l] = g;
          this.groupFirst[g] = l;
          this.groupWidth[g] = 1;
        }
      }
    }
  }

  inject(p: Packet, now: number): void {
    if (this.prefix > 0) {
      p.phase = 0;
      p.intermediate = this.rng.nextInt(this.N);
    }
    if (p.kind === ACK && this.c.t9000AckPriority) this.ackQ[p.src]!.push(p.id);
    else this.dataQ[p.src]!.push(p.id);
    this.serveT9000(p.src, now);
  }

  dataQueueLength(node: number): number {
    return this.dataQ[node]!.length;
  }

  handle(type: number, arg: number, now: number): void {
    if (type === EV_TX_END) this.txEnd(arg, now);
    else if (type === EV_ROUTE) this.route(arg, now);
    else if (type === EV_DELIVER_HEAD) this.sink.onHead(this.ctx.pool.all[arg]!, now);
    else if (type === EV_DELIVER_TAIL) {
      const p = this.ctx.pool.all[arg]!;
      this.sink.onTail(p, now);
      this.ctx.pool.release(p);
    }
  }

  internalBusy(now: number): { busyNs: number; activeLinks: number; links: number; connectedNs: number } {
    let busy = 0;
    let connected = 0;
    let active = 0;
    let links = 0;
    for (let l = this.intBase; l < this.delBase; l++) {
      if (this.linkDown[l]! < 0) continue;
      links++;
      let b = this.linkTotal[l]!;
      if (this.linkPkt[l]! >= 0) b += now - this.linkStart[l]!;
      if (b > 0) active++;
      busy += b;
      connected += this.linkConnected[l]! + (this.linkBusy[l] ? now - this.linkGrantAt[l]! : 0);
    }
    return { busyNs: busy, activeLinks: active, links, connectedNs: connected };
  }

  /** Tokens packet p needs in the buffer behind link l (the random header is added at the injection input). */
  private need(p: Packet, l: number): number {
    return this.linkKind[l] === INJ ? p.tokens + this.prefix : p.tokens;
  }

  private fits(p: Packet, l: number): boolean {
    const down = this.linkDown[l]!;
    return down < 0 || this.c.inputBufferTokens - this.inUsed[down]! >= this.need(p, l);
  }

  /** The T9000's free injection links take packets from its queues (acks first with ack priority, §3.1.1.1). */
  private serveT9000(node: number, now: number): void {
    const W = this.W;
    const base = node * W;
    const acks = this.ackQ[node]!;
    const data = this.dataQ[node]!;
    for (;;) {
      if (acks.length === 0 && data.length === 0) return;
      let free = -1;
      let fit = -1;
      const head = this.ctx.pool.all[acks.length > 0 ? acks.peek() : data.peek()]!;
      for (let j = 0; j < W; j++) {
        const l = base + j;
        if (this.linkBusy[l]) continue;
        if (free < 0) free = l;
        if (this.fits(head, l)) {
          fit = l;
          break;
        }
      }
      if (free < 0) return;
      if (acks.length > 0) acks.shift();
      else data.shift();
      this.grant(fit >= 0 ? fit : free, head, -1, now);
    }
  }

  private grant(l: number, p: Packet, from: number, now: number): void {
    this.linkBusy[l] = 1;
    this.linkGrantAt[l] = now;
    this.linkFrom[l] = from;
    if (this.fits(p, l)) this.startTx(l, p, now);
    else this.linkHeld[l] = p.id;
  }

  private startTx(l: number, p: Packet, now: number): void {
    const ctx = this.ctx;
    const kind = this.linkKind[l]!;
    this.linkPkt[l] = p.id;
    this.linkFree[l] = p.res;
    this.linkStart[l] = now;
    p.hops++;
    if (kind === INJ) {
      if (p.firstOut < 0) p.firstOut = now;
    } else {
      this.routedBySwitch[(this.linkGroup[l]! / this.gpn) | 0]!++;
      if (kind === INT && p.firstInternal < 0) p.firstInternal = now;
    }
    const down = this.linkDown[l]!;
    if (down >= 0) {
      const need = this.need(p, l);
      this.inUsed[down]! += need;
      p.res = need;
      p.routeAt = now + this.headerNs;
      const fifo = this.inFifo[down]!;
      fifo.push(p.id);
      if (fifo.length === 1) ctx.queue.push(p.routeAt, EV_ROUTE, down);
    } else {
      ctx.queue.push(now + this.c.headerBytes * this.c.nsPerDataToken, EV_DELIVER_HEAD, p.id);
    }
    ctx.queue.push(now + p.ns, EV_TX_END, l);
    if (ctx.events && p.kind !== ACK) {
      const node = kind === INJ ? p.src : ((this.linkGroup[l]! / this.gpn) | 0);
      ctx.events.push({ t: now, kind: kind === INJ ? 'packet-injected' : 'packet-forwarded', msg: p.msg, node, packet: p.index, unit: kind === INJ ? 't9000' : 'c104', port: l });
    }
  }

  private txEnd(l: number, now: number): void {
    const ctx = this.ctx;
    const p = ctx.pool.all[this.linkPkt[l]!]!;
    this.linkTotal[l]! += now - this.linkStart[l]!;
    this.linkConnected[l]! += now - this.linkGrantAt[l]!;
    this.linkBusy[l] = 0;
    this.linkPkt[l] = -1;
    const from = this.linkFrom[l]!;
    this.linkFrom[l] = -1;
    const kind = this.linkKind[l]!;
    if (from >= 0) {
      this.inUsed[from]! -= this.linkFree[l]!;
      const fifo = this.inFifo[from]!;
      fifo.shift();
      const nx = fifo.peek();
      if (nx >= 0) ctx.queue.push(Math.max(now, ctx.pool.all[nx]!.routeAt), EV_ROUTE, from);
      const feed = this.inFeed[from]!;
      const held = this.linkHeld[feed]!;
      if (held >= 0) {
        const hp = ctx.pool.all[held]!;
        if (this.fits(hp, feed)) {
          this.linkHeld[feed] = -1;
          this.startTx(feed, hp, now);
        }
      }
    }
    if (kind === DEL) {
      this.sink.onTail(p, now);
      ctx.pool.release(p);
    }
    if (kind === INJ) this.serveT9000((l / this.W) | 0, now);
    else this.serveGroup(this.linkGroup[l]!, now);
  }

  private route(input: number, now: number): void {
    const ctx = this.ctx;
    const p = ctx.pool.all[this.inFifo[input]!.peek()]!;
    const node = (input / this.ipn) | 0;
    const c = this.c;
    if (p.phase === 0) {
      // Random header generation on the injection input (§2.2.2).
      p.phase = 1;
      p.tokens += this.prefix;
      p.ns += this.prefix * c.nsPerDataToken;
    }
    if (p.phase === 1 && node === p.intermediate) {
      // Header deletion at the intermediate switch, then phase 2 (§2.2.2).
      p.phase = 2;
      p.tokens -= this.prefix;
      p.ns -= this.prefix * c.nsPerDataToken;
    }
    const target = p.phase === 1 ? p.intermediate : p.dst;
    let g: number;
    if (node === target) g = node * this.gpn + 4 * this.planes;
    else g = node * this.gpn + (p.phase === 2 ? 4 : 0) + dorDirection(node, target, c.side, this.xFirst);
    p.waitSince = now;
    this.waiting[g]!.push(input);
    if (ctx.events && p.kind !== ACK) ctx.events.push({ t: now, kind: 'head-arrives', msg: p.msg, node, packet: p.index, unit: 'c104', port: input % this.ipn });
    this.serveGroup(g, now);
  }

  private serveGroup(g: number, now: number): void {
    const list = this.waiting[g]!;
    const first = this.groupFirst[g]!;
    const width = this.groupWidth[g]!;
    while (list.length > 0) {
      let free = -1;
      for (let j = 0; j < width; j++) {
        if (!this.linkBusy[first + j]) {
          free = first + j;
          break;
        }
      }
      if (free < 0) return;
      const k = this.pick(list);
      const input = list[k]!;
      list.splice(k, 1);
      const p = this.ctx.pool.all[this.inFifo[input]!.peek()]!;
      let l = free;
      if (width > 1 && !this.fits(p, l)) {
        for (let j = 0; j < width; j++) {
          const x = first + j;
          if (!this.linkBusy[x] && this.fits(p, x)) {
            l = x;
            break;
          }
        }
      }
      if (this.ctx.events && p.kind !== ACK) this.ctx.events.push({ t: now, kind: 'grant', msg: p.msg, node: (g / this.gpn) | 0, packet: p.index, unit: 'c104', port: g % this.gpn });
      this.grant(l, p, input, now);
    }
  }

  /** Index in `list` (inputs in the order their heads started waiting) of the input the crossbar serves next. */
  private pick(list: number[]): number {
    const n = list.length;
    if (n === 1) return 0;
    const all = this.ctx.pool.all;
    const head = (k: number): Packet => all[this.inFifo[list[k]!]!.peek()]!;
    let lo = 0;
    let onlyAcks = false;
    if (this.c.c104AckPriority) {
      for (let k = 0; k < n; k++) if (head(k).kind === ACK) onlyAcks = true;
    }
    const eligible = (k: number): boolean => !onlyAcks || head(k).kind === ACK;
    switch (this.c.crossbarPolicy) {
      case 'fifo':
        while (!eligible(lo)) lo++;
        return lo;
      case 'random': {
        const ks: number[] = [];
        for (let k = 0; k < n; k++) if (eligible(k)) ks.push(k);
        return ks[this.rng.nextInt(ks.length)]!;
      }
      case 'net-first': {
        let best = -1;
        for (let k = 0; k < n; k++) {
          if (!eligible(k)) continue;
          if (best < 0) best = k;
          if (list[k]! % this.ipn >= this.W) return k;
        }
        return best;
      }
      case 'oldest-first':
      case 'hops-first': {
        const hops = this.c.crossbarPolicy === 'hops-first';
        let best = -1;
        for (let k = 0; k < n; k++) {
          if (!eligible(k)) continue;
          if (best < 0) {
            best = k;
            continue;
          }
          const a = head(k);
          const b = head(best);
          if (hops ? a.hops > b.hops : a.created < b.created) best = k;
        }
        return best;
      }
    }
  }
}
