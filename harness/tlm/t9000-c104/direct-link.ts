/**
 * Two T9000s joined directly by one DS-link (seed 004 §4.1.4, the Table 4.1 /
 * 4.2 jig; no C104), packet passing (§3.5.4): each direction of the link
 * sends one packet at a time from the sending T9000's queues (acks first
 * with t9000AckPriority), the receiving T9000 never refuses a packet, and
 * FCTs cost nothing (Eq. 4.3's simplification). Nodes 0 and 1 only
 * (docs/thesis-model.md#direct-link).
 */
import type { C104Config } from './config.ts';
import { ACK, EV_DELIVER_HEAD, EV_TX_END, type EndpointSink, type Packet, type SimContext, type Transport } from './core.ts';
import { IntFifo } from '../../../rtl/lib/int_fifo.ts';

export class DirectLink implements Transport {
  private readonly ackQ = [new IntFifo(), new IntFifo()];
  private readonly dataQ = [new IntFifo(), new IntFifo()];
  private readonly current = [-1, -1];
  private readonly start = [0, 0];
  private readonly busy = [0, 0];

  constructor(
    private readonly c: C104Config,
    private readonly ctx: SimContext,
    private readonly sink: EndpointSink,
  ) {}

  inject(p: Packet, now: number): void {
    if (p.src > 1 || p.dst > 1) throw new RangeError(`c104.topology: 'direct' joins nodes 0 and 1 only (a packet from ${p.src} to ${p.dst})`);
    if (p.kind === ACK && this.c.t9000AckPriority) this.ackQ[p.src]!.push(p.id);
    else this.dataQ[p.src]!.push(p.id);
    this.serve(p.src, now);
  }

  dataQueueLength(node: number): number {
    return node <= 1 ? this.dataQ[node]!.length : 0;
  }

  internalBusy(now: number): { busyNs: number; activeLinks: number; links: number } {
    let b = 0;
    for (const d of [0, 1]) b += this.busy[d]! + (this.current[d]! >= 0 ? now - this.start[d]! : 0);
    return { busyNs: b, activeLinks: 2, links: 2 };
  }

  handle(type: number, arg: number, now: number): void {
    const all = this.ctx.pool.all;
    if (type === EV_DELIVER_HEAD) this.sink.onHead(all[arg]!, now);
    else if (type === EV_TX_END) {
      const p = all[this.current[arg]!]!;
      this.busy[arg]! += now - this.start[arg]!;
      this.current[arg] = -1;
      this.sink.onTail(p, now);
      this.ctx.pool.release(p);
      this.serve(arg, now);
    }
  }

  private serve(d: number, now: number): void {
    if (this.current[d]! >= 0) return;
    const q = this.ackQ[d]!.length > 0 ? this.ackQ[d]! : this.dataQ[d]!;
    const id = q.shift();
    if (id < 0) return;
    const p = this.ctx.pool.all[id]!;
    this.current[d] = id;
    this.start[d] = now;
    p.firstOut = p.firstInternal = now;
    p.hops = 1;
    this.ctx.queue.push(now + this.c.headerBytes * this.c.nsPerDataToken, EV_DELIVER_HEAD, id);
    this.ctx.queue.push(now + p.ns, EV_TX_END, d);
  }
}
