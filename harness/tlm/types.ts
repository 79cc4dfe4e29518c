/**
 * Result types of the Buzzard TLM (buzzard-tlm.ts): per-message times, run
 * statistics (including the resource occupancy that names what saturates),
 * the deadlock report.
 */
import type { TraceEvent, TraceHeader } from '../../traces/events/vocabulary.ts';
import type { TlmConfig, Transport } from './config.ts';

export interface MessageTimes {
  /** First packet (first packetBytes data bytes) in the destination's memory, ticks after queueing. NaN if undelivered. */
  readonly first: number;
  /** Last byte in the destination's memory, ticks after queueing. NaN if undelivered. */
  readonly last: number;
}

export interface TlmDeadlock {
  /** Time of the last event before the queue ran dry. */
  readonly at: number;
  readonly undeliveredMessages: number;
  /** Packets holding PBU buffers (packet transports). */
  readonly packetsInBuffers: number;
  /** The occupied PBUs when the run stopped (packet transports): what every stuck packet waits for. */
  readonly pbus: readonly StuckPbu[];
}

export interface StuckPbu {
  readonly node: number;
  /** PBU (= incoming dimension) 1..n. */
  readonly pbu: number;
  readonly free: number;
  readonly packets: readonly { readonly msg: number; readonly packet: number; readonly nextPort: number; readonly contrary: boolean }[];
}

export interface TlmStats {
  readonly transport: Transport;
  readonly messages: number;
  readonly delivered: number;
  /** Packets (worms count as one) of all messages. */
  readonly packets: number;
  /** Messages routed contrary on their first hop (quasi-adaptive). */
  readonly contraryMessages: number;
  /** Deliveries out of packet order (0 if the model is right). */
  readonly orderViolations: number;
  readonly eventsProcessed: number;
  /** Time of the last generation (§10.3 utilisation denominator). */
  readonly lastGeneration: number;
  /** Time of the last delivery. */
  readonly makespan: number;
  readonly meanFirst: number;
  readonly meanLast: number;
  readonly maxFirst: number;
  readonly maxLast: number;
  /** Mean of last − first (§10.3: indicates bandwidth). */
  readonly meanLastMinusFirst: number;
  /** §10.3 ideal link utilisation (A19: n·2^n directed links); null when the last generation is at time 0. */
  readonly idealLinkUtilisation: number | null;
  /** Σ link busy / (n·2^n · makespan). */
  readonly measuredLinkUtilisation: number;
  readonly deadlock: TlmDeadlock | null;
  /** Where messages wait, per resource (to name what saturates). */
  readonly resources: TlmResources;
}

/**
 * Occupancy of the resources a message waits for, over [0, makespan]. Index
 * i − 1 is dimension i: the source slot (send queue) of link i, and PBU i (fed
 * by the incoming link of dimension i). Averages over the 2^n nodes.
 */
export interface TlmResources {
  /** Messages queued per slot dimension (the e-cube first dimension takes half the messages under uniform traffic). */
  readonly messagesBySlot: readonly number[];
  /** Mean wait at the source: first packet (worm) granted on the first link − queueing, by slot dimension. */
  readonly sourceWaitBySlot: readonly (number | null)[];
  /** Mean source wait over all messages. */
  readonly meanSourceWait: number;
  /** Mean of (first-packet delivery − first-packet injection): the time the first packet spends in the network. */
  readonly meanInNetworkFirst: number;
  /** Fraction of time PBU i had no free buffer (packet transports; its upstream link then cannot start a packet). */
  readonly pbuFullFraction: readonly number[];
  /** Time-mean number of occupied buffers of PBU i (packet transports). */
  readonly pbuMeanOccupancy: readonly number[];
  /** Busy fraction of the link of dimension i (transmission; worms: held). */
  readonly linkBusyFraction: readonly number[];
}

export interface TlmResult {
  /** Events sorted by time (stable), when config.recordEvents. */
  readonly events?: TraceEvent[];
  /** Trace header for `writeTrace` (model 'tlm', unit of the workload). */
  readonly header: TraceHeader;
  /** Per message (index = message id). */
  readonly perMessage: MessageTimes[];
  /** Absolute times (ticks) of first and last delivery per message, NaN if undelivered. */
  readonly firstAt: Float64Array;
  readonly lastAt: Float64Array;
  /** Busy ticks per directed link, index x·n + (i − 1) for link (x, dimension i). */
  readonly linkBusy: Float64Array;
  /** Held ticks per directed link (from grant to release; equals linkBusy for packet transports). */
  readonly linkHeld: Float64Array;
  /** Busy ticks per node input port. */
  readonly nipBusy: Float64Array;
  readonly stats: TlmStats;
  readonly config: TlmConfig;
  /** Per broadcast message (packet transports): first-packet and last-byte times at every node, from queueing (NaN at the source). */
  readonly broadcasts: readonly BroadcastTimes[];
}

export interface BroadcastTimes {
  readonly msg: number;
  readonly first: Float64Array;
  readonly last: Float64Array;
}
