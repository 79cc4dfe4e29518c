/**
 * The thesis's idealised communication models (seed 004 §3.5.4, §5.5.2;
 * docs/thesis-model.md#contention-modes):
 *
 * - 'contention-free': every DS-link, injection links included (spec §14
 *   item 18), is infinitely wide; every packet gets its zero-load timing.
 * - 'throttled': the same, except that packets making their first hop
 *   inside the routing network (their first internal C104→C104 link) queue
 *   FIFO per link and cross it one at a time (Def. 5.2); acks included.
 * - 'no-comm': a send is delivered and acknowledged at once (SendSocket
 *   delivering directly; no communication hardware).
 *
 * Zero-load timing (as the full model at zero load): link j of a packet's h
 * links starts (j − 1)·(header + routingDelay) after the first; its header
 * reaches the destination T9000 one header time after the last link starts,
 * its tail one packet time after it.
 */
import type { Rng } from '../../workloads/rng.ts';
import type { C104Config } from './config.ts';
import { EV_DELIVER_HEAD, EV_DELIVER_TAIL, EV_THROTTLE_ARRIVE, EV_THROTTLE_END, type EndpointSink, type Packet, type SimContext, type Transport } from './core.ts';
import { IntFifo } from '../../../rtl/lib/int_fifo.ts';
import { dorDirection, pathLinks } from './topology.ts';

export class IdealNetwork implements Transport {
  private readonly hopNs: number;
  private readonly headNs: number;
  private readonly prefixNs: number;
  private readonly xFirst: boolean;
  private busyNs = 0;
  private readonly internalLinks: number;
  // throttled: one server per (node, plane, dir)
  private readonly thBusy: Uint8Array;
  private readonly thQueue: IntFifo[];
  private readonly thPkt: Int32Array;

  constructor(
    private readonly c: C104Config,
    private readonly ctx: SimContext,
    private readonly sink: EndpointSink,
    private readonly rng: Rng,
  ) {
    this.headNs = c.headerBytes * c.nsPerDataToken;
    this.hopNs = this.headNs + c.routingDelayNs;
    this.prefixNs = c.routing === 'two-phase' ? c.headerBytes * c.nsPerDataToken : 0;
    this.xFirst = c.routing !== 'yx';
    const N = c.side * c.side;
    const planes = c.routing === 'two-phase' ? 2 : 1;
    this.internalLinks = 4 * c.side * (c.side - 1) * planes;
    const T = c.mode === 'throttled' ? N * planes * 4 : 0;
    this.thBusy = new Uint8Array(T);
    this.thPkt = new Int32Array(T).fill(-1);
    this.thQueue = Array.from({ length: T }, () => new IntFifo());
  }

  dataQueueLength(): number {
    return 0;
  }

  internalBusy(): { busyNs: number; activeLinks: number; links: number } {
    return { busyNs: this.busyNs, activeLinks: this.internalLinks, links: this.internalLinks };
  }

  inject(p: Packet, now: number): void {
    const q = this.ctx.queue;
    p.firstOut = now;
    if (this.c.mode === 'no-comm') {
      p.firstInternal = now;
      q.push(now, EV_DELIVER_HEAD, p.id);
      q.push(now, EV_DELIVER_TAIL, p.id);
      return;
    }
    const side = this.c.side;
    if (this.prefixNs > 0) p.intermediate = this.rng.nextInt(side * side);
    const h = pathLinks(p.src, p.dst, side, p.intermediate);
    p.hops = h;
    // Internal links busy: the phase-1 links carry the random header too.
    const phase1 = p.intermediate >= 0 ? h - 2 - (pathLinks(p.intermediate, p.dst, side) - 2) : 0;
    this.busyNs += (h - 2) * p.ns + phase1 * this.prefixNs;
    if (this.c.mode === 'contention-free') {
      p.firstInternal = now + this.hopNs;
      this.deliverFrom(p, now, h);
      return;
    }
    q.push(now + this.hopNs, EV_THROTTLE_ARRIVE, p.id);
  }

  /** Deliver a packet whose link 1 started at `start` (no contention after it). */
  private deliverFrom(p: Packet, start: number, h: number): void {
    const last = start + (h - 1) * this.hopNs;
    this.ctx.queue.push(last + this.headNs, EV_DELIVER_HEAD, p.id);
    this.ctx.queue.push(last + p.ns, EV_DELIVER_TAIL, p.id);
  }

  private throttleOf(p: Packet): number {
    const side = this.c.side;
    const planes = this.prefixNs > 0 ? 2 : 1;
    const viaInter = p.intermediate >= 0 && p.intermediate !== p.src;
    const target = viaInter ? p.intermediate : p.dst;
    const plane = p.intermediate >= 0 && !viaInter ? 1 : 0;
    return (p.src * planes + plane) * 4 + dorDirection(p.src, target, side, this.xFirst);
  }

  handle(type: number, arg: number, now: number): void {
    const all = this.ctx.pool.all;
    if (type === EV_DELIVER_HEAD) this.sink.onHead(all[arg]!, now);
    else if (type === EV_DELIVER_TAIL) {
      const p = all[arg]!;
      this.sink.onTail(p, now);
      this.ctx.pool.release(p);
    } else if (type === EV_THROTTLE_ARRIVE) {
      const p = all[arg]!;
      const t = this.throttleOf(p);
      if (this.thBusy[t]) this.thQueue[t]!.push(p.id);
      else this.startFirstHop(t, p, now);
    } else if (type === EV_THROTTLE_END) {
      this.thBusy[arg] = 0;
      this.thPkt[arg] = -1;
      const nx = this.thQueue[arg]!.shift();
      if (nx >= 0) this.startFirstHop(arg, all[nx]!, now);
    }
  }

  private startFirstHop(t: number, p: Packet, now: number): void {
    this.thBusy[t] = 1;
    this.thPkt[t] = p.id;
    p.firstInternal = now;
    const onLink = p.ns + (p.intermediate >= 0 && p.intermediate !== p.src ? this.prefixNs : 0);
    this.ctx.queue.push(now + onLink, EV_THROTTLE_END, t);
    // Link 2 (the first internal link) started at `now`: link 1 started one hop earlier.
    this.deliverFrom(p, now - this.hopNs, p.hops);
  }
}
