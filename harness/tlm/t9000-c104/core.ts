/**
 * Shared pieces of the T9000/C104 TLM: the packet record (pooled, referred
 * to by index so events carry one integer), the event type codes, and the
 * interface between the network transports and the T9000 endpoints.
 */
import type { EventQueue } from '../event-queue.ts';
import type { TraceEvent } from '../../../traces/events/vocabulary.ts';

export const DATA = 0;
export const ACK = 1;

/** One packet on its way (data or acknowledgement, §3.1.1.1). Times in ns; −1 = not yet. */
export class Packet {
  id = 0;
  kind = DATA;
  /** Source and destination nodes (T9000s). */
  src = 0;
  dst = 0;
  /** Message index (the endpoint's message table) this packet belongs to or acknowledges. */
  msg = 0;
  /** Packet index within its message. */
  index = 0;
  /** t9000Links 'per-channel': the number of the sending node's channel end this packet leaves by (−1: none). */
  chan = -1;
  /** Current length in tokens (header(s) + data + terminator) and its serialisation time. */
  tokens = 0;
  ns = 0;
  /** Tokens reserved in the C104 input buffer the packet is queued in. */
  res = 0;
  created = -1;
  firstOut = -1;
  firstInternal = -1;
  /** DS-links crossed so far (injection, internal, delivery). */
  hops = 0;
  /** Two-phase routing: 0 before the random header, 1 in phase 1, 2 in phase 2; −1 for dimension order. */
  phase = -1;
  intermediate = -1;
  /** Earliest time the head may be routed at the current input (header received + routing delay). */
  routeAt = 0;
  /** Time the packet started waiting at the crossbar (FIFO / oldest-first ordering). */
  waitSince = 0;
}

export class PacketPool {
  readonly all: Packet[] = [];
  private readonly free: number[] = [];
  live = 0;

  alloc(): Packet {
    this.live++;
    const id = this.free.pop();
    if (id !== undefined) {
      const p = this.all[id]!;
      p.created = -1;
      p.firstOut = -1;
      p.firstInternal = -1;
      p.hops = 0;
      p.phase = -1;
      p.intermediate = -1;
      p.res = 0;
      return p;
    }
    const p = new Packet();
    p.id = this.all.length;
    this.all.push(p);
    return p;
  }

  release(p: Packet): void {
    this.live--;
    this.free.push(p.id);
  }
}

/** Event type codes: the network's below ENDPOINT_EVENT_BASE, the endpoint's at or above it. */
export const EV_ROUTE = 1; // arg: C104 input id — its head packet's header is in
export const EV_TX_END = 2; // arg: link id — the tail has left the link
export const EV_DELIVER_HEAD = 3; // arg: packet id — header reached the destination T9000
export const EV_DELIVER_TAIL = 4; // arg: packet id — packet completely delivered
export const EV_THROTTLE_ARRIVE = 5; // arg: packet id — throttled CF: joins a first-hop queue
export const EV_THROTTLE_END = 6; // arg: throttle (link) id — first-hop transmission done
export const EV_CHECKPOINT = 7;
export const ENDPOINT_EVENT_BASE = 20;

/** What a transport calls back on the endpoint side. */
export interface EndpointSink {
  /** The header of `p` reached its destination T9000 (data: may generate the ack). */
  onHead(p: Packet, now: number): void;
  /** `p` is completely delivered; the transport releases it afterwards. */
  onTail(p: Packet, now: number): void;
}

/** A network transport: full contention, contention-free, throttled, or no communication cost. */
export interface Transport {
  /** A packet created at its source T9000 (p.created set) enters the T9000 output queues. */
  inject(p: Packet, now: number): void;
  /** Handle one of the transport's events. */
  handle(type: number, arg: number, now: number): void;
  /** Data packets waiting in a node's T9000 output data queue (saturation control 't9000-queue'). */
  dataQueueLength(node: number): number;
  /** Packets each C104 has forwarded (internal and delivery links), for the per-switch load map; absent without C104s. */
  readonly routedBySwitch?: Float64Array;
  /**
   * Busy ns of internal links so far (transmitting), and the number of internal links that were ever busy;
   * `connectedNs`: from the crossbar connection to the tail, waits for downstream room included (absent: equal to busyNs).
   */
  internalBusy(now: number): { busyNs: number; activeLinks: number; links: number; connectedNs?: number };
}

/** Context shared by transport and endpoints. */
export interface SimContext {
  readonly queue: EventQueue;
  readonly pool: PacketPool;
  readonly events: TraceEvent[] | null;
}
