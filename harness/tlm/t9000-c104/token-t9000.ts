/**
 * The T9000 transmit side of the token-credit model (token-network.ts,
 * docs/thesis-model.md#token-credit, #t9000-links): ack and data queues
 * (acks first with ack priority), and a transmit port per link that copies
 * a packet's tokens into its link's transmit buffer (token-links.ts) and
 * takes the next packet when the last one's terminator has left. With
 * t9000Links 'per-channel' every link has its own ack and data queues;
 * with 'hunt-group' a message's first packet takes any idle link of the
 * node (§4.2.2), its later packets the same link.
 */
import type { C104Config } from './config.ts';
import { ACK, type Packet, type SimContext } from './core.ts';
import { IntFifo } from '../../../rtl/lib/int_fifo.ts';
import { EV_TOK_PORT, TOKEN_CREDIT_RTL } from './token-credit-rtl.ts';
import type { TokenLinks } from './token-links.ts';

export class TokenT9000Ports {
  private readonly N: number;
  private readonly W: number;
  private readonly txStartNs: number;
  // one transmit port per injection direction: packet being copied and its next token
  private readonly portPkt: Int32Array;
  private readonly portNext: Int32Array;
  private readonly portStart: Float64Array;
  private readonly ackQ: IntFifo[];
  private readonly dataQ: IntFifo[];
  /**
   * Per transmit port: its own data queue: 'hunt-group': later packets of messages whose first
   * packet it sent (a message keeps its link); 'per-channel': every data packet of its channels.
   */
  private readonly pinQ: IntFifo[];
  /** Per transmit port: its own ack queue ('per-channel'). */
  private readonly portAckQ: IntFifo[];
  private readonly perChannel: boolean;
  /** Message (src·msg key) → the port its first packet took. */
  private readonly msgPort = new Map<number, number>();

  constructor(
    private readonly c: C104Config,
    private readonly ctx: SimContext,
    private readonly links: TokenLinks,
  ) {
    const N = (this.N = links.N);
    const W = (this.W = links.W);
    this.txStartNs = TOKEN_CREDIT_RTL.txStartBits * links.bitNs;
    this.portPkt = new Int32Array(N * W).fill(-1);
    this.portNext = new Int32Array(N * W);
    this.portStart = new Float64Array(N * W);
    this.ackQ = Array.from({ length: N }, () => new IntFifo());
    this.dataQ = Array.from({ length: N }, () => new IntFifo());
    this.pinQ = Array.from({ length: N * W }, () => new IntFifo());
    this.portAckQ = Array.from({ length: N * W }, () => new IntFifo());
    this.perChannel = c.t9000Links === 'per-channel';
  }

  /** A packet of node p.src joins its queues (docs/thesis-model.md#t9000-links). */
  inject(p: Packet, now: number): void {
    if (this.perChannel) {
      const port = p.src * this.W + (p.chan % this.W);
      (p.kind === ACK && this.c.t9000AckPriority ? this.portAckQ : this.pinQ)[port]!.push(p.id);
      return this.serveT9000(p.src, now);
    }
    const pinned = p.kind === ACK || p.index === 0 ? undefined : this.msgPort.get(this.msgKey(p));
    if (pinned !== undefined) this.pinQ[pinned]!.push(p.id);
    else if (p.kind === ACK && this.c.t9000AckPriority) this.ackQ[p.src]!.push(p.id);
    else this.dataQ[p.src]!.push(p.id);
    this.serveT9000(p.src, now);
  }

  dataQueueLength(node: number): number {
    let n = this.dataQ[node]!.length;
    for (let j = 0; j < this.W; j++) n += this.pinQ[node * this.W + j]!.length;
    return n;
  }

  private msgKey(p: Packet): number {
    return p.msg * this.N + p.src;
  }

  /**
   * Idle transmit ports of the node take the next packet: acks first with ack priority (§3.1.1.1),
   * then a data packet of the port's own queue, then the node's data queue ('hunt-group': a
   * message's first packet takes any idle link, its later packets that link; 'per-channel': the
   * node queues stay empty, every packet is in its link's queues), docs/thesis-model.md#t9000-links.
   */
  private serveT9000(n: number, now: number): void {
    const acks = this.ackQ[n]!;
    const data = this.dataQ[n]!;
    for (let j = 0; j < this.W; j++) {
      const port = n * this.W + j;
      if (this.portPkt[port]! >= 0) continue;
      const pins = this.pinQ[port]!;
      const own = this.portAckQ[port]!;
      const id = own.length > 0 ? own.shift() : acks.length > 0 ? acks.shift() : pins.length > 0 ? pins.shift() : data.length > 0 ? data.shift() : -1;
      if (id < 0) continue;
      const p = this.ctx.pool.all[id]!;
      if (!this.perChannel && p.kind !== ACK && p.index === 0) this.msgPort.set(this.msgKey(p), port);
      this.portPkt[port] = id;
      this.portNext[port] = 0;
      this.portStart[port] = now + this.txStartNs;
      this.ctx.queue.push(now + this.txStartNs, EV_TOK_PORT, port);
    }
  }

  /** A transmit port copies tokens of its packet into its link's transmit buffer while there is room (EV_TOK_PORT). */
  portCopy(port: number, now: number): void {
    const id = this.portPkt[port]!;
    if (id < 0 || this.portStart[port]! > now) return;
    const p = this.ctx.pool.all[id]!;
    const L = this.links;
    const q = L.txQ[port]!;
    let i = this.portNext[port]!;
    if (i === 0 && this.ctx.events && p.kind !== ACK) {
      // Stamped as the RTL recorder does: the cycle after the first header token was taken into the link's buffer.
      this.ctx.events.push({ t: now + L.bitNs, kind: 'packet-injected', msg: p.msg, node: p.src, packet: p.index, unit: 'tx', port: port % this.W });
    }
    while (i < p.tokens && q.length < L.txCap[port]!) q.push(id * 64 + i++);
    this.portNext[port] = i;
    L.kick(port, now);
  }

  /** The terminator of the port's packet left: the port (and its link) takes the next packet of the node's queues. */
  portDone(port: number, now: number): void {
    this.portPkt[port] = -1;
    this.serveT9000((port / this.W) | 0, now);
  }
}
