/**
 * Configuration of the T9000/C104 packet-level model (TLM) at the level of
 * the thesis's own simulator (seed 004 §3.5.4, docs/sources.md, c104-t9000
 * §7.4–§7.7). Every parameter the seed names is a typed, validated field
 * with the seed's default; the comment beside it cites the section and the
 * reading followed (docs/thesis-model.md).
 *
 * Times are integer nanoseconds (the thesis's simulator clock, §3.5.2).
 */
import { bool, integerIn, nonNegative, oneOf } from '../../models/validate.ts';

/** §3.5.4 / §5.5.2: exactly one contention model per run (docs/thesis-model.md#contention-modes). */
export type ContentionMode = 'full' | 'contention-free' | 'throttled' | 'no-comm';
export const CONTENTION_MODES: readonly ContentionMode[] = ['full', 'contention-free', 'throttled', 'no-comm'];

/** §4.2.4 crossbar queue ordering (docs/thesis-model.md#arbitration). */
export type CrossbarPolicy = 'fifo' | 'random' | 'net-first' | 'oldest-first' | 'hops-first';
export const CROSSBAR_POLICIES: readonly CrossbarPolicy[] = ['fifo', 'random', 'net-first', 'oldest-first', 'hops-first'];

/** §4.2.1, §5.4.4.1, §2.2.2 routing (docs/thesis-model.md#routing). */
export type Routing = 'xy' | 'yx' | 'two-phase';
export const ROUTINGS: readonly Routing[] = ['xy', 'yx', 'two-phase'];

/**
 * Link model. 'packet' is the thesis's packet-passing implementation (§3.5.4).
 * 'token-credit' is the RTL-calibrated mode (ARCHITECTURE.md "The TLM,
 * calibrated and seed-level"; token-network.ts, docs/thesis-model.md#token-credit):
 * DS-link tokens with per-token credit, the RTL's buffers and constants.
 * It models contention mode 'full' on a mesh with dimension-order routing,
 * FIFO arbitration and no C104 ack priority (what the RTL C104 network runs).
 */
export type LinkModel = 'packet' | 'token-credit';

/**
 * Which T9000 link a packet leaves on (docs/thesis-model.md#t9000-links).
 * 'hunt-group': any idle link of the node (the CPU link as a fat link,
 * §3.2, §4.2.2), a message's later packets on its first packet's link.
 * 'per-channel': each channel (virtual link pair) is tied to link
 * `slot mod cpuLinkWidth`, slot = the channel end's number at its node, and
 * every link has its own ack and data queues (§3.1.1.1: "data and
 * acknowledgement packets are queued separately at each link"); the RTL's
 * rule (harness/rtl/c104_system.ts: block v on link v mod links).
 */
export type T9000Links = 'hunt-group' | 'per-channel';

/**
 * Virtual links (docs/thesis-model.md#virtual-links). 'per-message': every
 * message has its own (the thesis's "finite number of virtual channels per
 * process", §5.3.2). 'per-channel': one virtual link per channel (ordered
 * process pair), messages on it one after another: the next message's first
 * packet waits for the previous message's last ack (§3.1.1.1's stop-and-wait
 * per virtual link; the RTL's T9000, harness/rtl/c104_system.ts).
 */
export type VirtualLinks = 'per-message' | 'per-channel';

/** When a loosely synchronous / exchange process posts an iteration's receives (docs/thesis-model.md#synchronisation). */
export type ReceivePosting = 'iteration-start' | 'after-sends';
/** Saturation control of the non-blocking workload (§5.3.2, Fig. 5.4). */
export type SaturationControl = 'per-process' | 't9000-queue';

/** 'mesh': D×D T9000 + C104 nodes (§3.2); 'direct': T9000s 0 and 1 joined by one DS-link, no C104 (§4.1.4 jig). */
export type Topology = 'mesh' | 'direct';

export interface C104Config {
  readonly topology: Topology;
  /** Grid side D (Def. 5.1; standard setup 16, §5.4). Mesh, not torus (§6.2). */
  readonly side: number;
  readonly linkModel: LinkModel;
  readonly mode: ContentionMode;
  /** §3.1.1.2: 100 Mbit/s → 10 data bits per byte token = 100 ns (docs/thesis-model.md#timing). */
  readonly nsPerDataToken: number;
  /** §4.1.4.1: 4-bit control token (EOP, EOM) = 40 ns. */
  readonly nsPerControlToken: number;
  /** §3.1.1.1: header bytes s; 1 throughout chapters 4–6 (a 16×16 grid has 256 nodes). */
  readonly headerBytes: number;
  /** §3.1.1.1: data bytes per packet, at most 32. */
  readonly packetDataBytes: number;
  /**
   * Extra routing delay per C104 hop beyond receiving the header, ns.
   * §3.5.4/§5.4 give none; spec §14 item 5: default 0 (per-hop latency is
   * the 100 ns header byte). docs/thesis-model.md#timing.
   */
  readonly routingDelayNs: number;
  /**
   * C104 input buffer per link, in tokens (bytes), §4.2.4: 70 total per link,
   * all on the input in the packet-passing model (§3.5.4, spec §16.2
   * `thesis` preset). Must hold one data packet.
   */
  readonly inputBufferTokens: number;
  /**
   * C104 output buffer per link, in tokens: token-credit mode only (the
   * packet-passing model has none, §3.5.4). RTL presets: stc104 35, thesis 1
   * (docs/c104.md#buffers).
   */
  readonly outputBufferTokens: number;
  /** §4.2.2 CPU link width (hunt group of DS-links between T9000 and C104), default 4. */
  readonly cpuLinkWidth: number;
  /** Link choice of a T9000's outgoing packets (token-credit mode only offers 'per-channel'). */
  readonly t9000Links: T9000Links;
  readonly virtualLinks: VirtualLinks;
  /** §4.2.4 crossbar policy, real C104: FIFO. */
  readonly crossbarPolicy: CrossbarPolicy;
  /** §4.2.4 ack prioritisation inside the C104 (real C104: off). */
  readonly c104AckPriority: boolean;
  /** §3.5.4/§5.4.4.2 T9000 ack-over-data priority (real: on; `--noackpri` turns it off). */
  readonly t9000AckPriority: boolean;
  readonly routing: Routing;
  /** §5.3.2 per-process limit on messages queued but not yet acknowledged (default 16; Fig. 5.8: 16/32/64/128). */
  readonly outstandingLimit: number;
  /** §5.3.2, Fig. 5.4: 'per-process' (default) or the T9000 output data-queue length limit. */
  readonly saturationControl: SaturationControl;
  /**
   * Loosely synchronous and exchange processes: when an iteration's receives are posted, i.e. from
   * when the first packet of a message of that iteration is acknowledged (§3.1.1.1, §3.5.4's
   * SimpleSocket). 'iteration-start': when the iteration begins, before its compute;
   * 'after-sends': after its compute and sends (§4.2.1's loop; §5.3.2). docs/thesis-model.md#synchronisation.
   */
  readonly receivePosting: ReceivePosting;
  /**
   * §3.5.3 / §4.1.3 optional time slicing of the FIFO run queue: a process
   * computing longer than this quantum (measured from when it reached the
   * head) goes to the tail if another process is waiting. 0 = off (the
   * default; the seed gives no value), docs/thesis-model.md#time-slicing.
   */
  readonly timeSliceNs: number;
  /**
   * Two-phase routing in the token-credit mode only: a fixed intermediate node per source node
   * instead of random draws (the RTL's random header range narrowed to one label), so that
   * the two can be held against each other message by message (test/tlm/token-two-phase.test.ts).
   * null (default): uniform random draws from the network's stream.
   */
  readonly fixedIntermediates: readonly number[] | null;
  /** Seed of the network's random stream (random arbitration, two-phase intermediates), §3.5.2. */
  readonly networkSeed: number;
  /** Record the shared event vocabulary (costly; tests and traces only). */
  readonly recordEvents: boolean;
}

/**
 * The token-credit (RTL-calibrated) mode with the RTL C104's default presets:
 * stc104 buffers (35 + 35 tokens) and the `thesis` timing (routing delay 4
 * cycles = 40 ns), docs/thesis-model.md#token-credit.
 */
export const TOKEN_CREDIT_PRESET: Partial<C104Config> = Object.freeze({
  linkModel: 'token-credit',
  inputBufferTokens: 35,
  outputBufferTokens: 35,
  routingDelayNs: 40,
  t9000Links: 'per-channel',
  virtualLinks: 'per-channel',
});

export const C104_DEFAULTS: C104Config = {
  topology: 'mesh',
  side: 16,
  linkModel: 'packet',
  mode: 'full',
  nsPerDataToken: 100,
  nsPerControlToken: 40,
  headerBytes: 1,
  packetDataBytes: 32,
  routingDelayNs: 0,
  inputBufferTokens: 70,
  outputBufferTokens: 1,
  cpuLinkWidth: 4,
  t9000Links: 'hunt-group',
  virtualLinks: 'per-message',
  crossbarPolicy: 'fifo',
  c104AckPriority: false,
  t9000AckPriority: true,
  routing: 'xy',
  outstandingLimit: 16,
  saturationControl: 'per-process',
  receivePosting: 'iteration-start',
  timeSliceNs: 0,
  fixedIntermediates: null,
  networkSeed: 2,
  recordEvents: false,
};

const S = 'c104';

/** Defaults filled in and every field checked; one RangeError naming the field and its range. */
export function resolveC104Config(c: Partial<C104Config> = {}): C104Config {
  const known = new Set(Object.keys(C104_DEFAULTS));
  for (const k of Object.keys(c)) if (!known.has(k)) throw new RangeError(`${S}.${k}: unknown field (fields: ${[...known].join(', ')})`);
  const r = { ...C104_DEFAULTS, ...c };
  oneOf(S, 'topology', r.topology, ['mesh', 'direct'] as const);
  integerIn(S, 'side', r.side, 2, 64, 'grid side D');
  const lm = oneOf(S, 'linkModel', r.linkModel, ['packet', 'token-credit'] as const);
  oneOf(S, 'mode', r.mode, CONTENTION_MODES);
  if (lm === 'token-credit') {
    const only = (k: keyof C104Config, v: unknown, why: string): void => {
      if (r[k] !== v) throw new RangeError(`${S}.${k}: the token-credit link model supports only ${JSON.stringify(v)} (${why}; got ${JSON.stringify(r[k])})`);
    };
    only('topology', 'mesh', 'the RTL C104 network it is calibrated on');
    only('mode', 'full', 'contention-free models are packet-level');
    only('crossbarPolicy', 'fifo', 'the real C104');
    only('c104AckPriority', false, 'the real C104');
  }
  integerIn(S, 'nsPerDataToken', r.nsPerDataToken, 1, 1_000_000, 'ns');
  integerIn(S, 'nsPerControlToken', r.nsPerControlToken, 1, 1_000_000, 'ns');
  integerIn(S, 'headerBytes', r.headerBytes, 1, 2);
  if (r.headerBytes === 1 && r.side * r.side > 256) throw new RangeError(`${S}.headerBytes: 1 addresses at most 256 nodes, side ${r.side} needs 2 (allowed 2 here)`);
  integerIn(S, 'packetDataBytes', r.packetDataBytes, 1, 32);
  integerIn(S, 'routingDelayNs', r.routingDelayNs, 0, 1_000_000, 'ns');
  const biggest = r.headerBytes + 1 + r.packetDataBytes + (r.routing === 'two-phase' ? r.headerBytes : 0);
  if (lm === 'packet') integerIn(S, 'inputBufferTokens', r.inputBufferTokens, biggest, 1_000_000, 'tokens; at least one whole data packet');
  else integerIn(S, 'inputBufferTokens', r.inputBufferTokens, 8, 4096, 'tokens; at least one FCT');
  integerIn(S, 'outputBufferTokens', r.outputBufferTokens, 1, 4096, 'tokens');
  integerIn(S, 'cpuLinkWidth', r.cpuLinkWidth, 1, 24);
  const tl = oneOf(S, 't9000Links', r.t9000Links, ['hunt-group', 'per-channel'] as const);
  oneOf(S, 'virtualLinks', r.virtualLinks, ['per-message', 'per-channel'] as const);
  if (tl === 'per-channel' && lm !== 'token-credit') throw new RangeError(`${S}.t9000Links: 'per-channel' is modelled by the token-credit link model only (got linkModel ${JSON.stringify(lm)})`);
  oneOf(S, 'crossbarPolicy', r.crossbarPolicy, CROSSBAR_POLICIES);
  bool(S, 'c104AckPriority', r.c104AckPriority);
  bool(S, 't9000AckPriority', r.t9000AckPriority);
  oneOf(S, 'routing', r.routing, ROUTINGS);
  integerIn(S, 'outstandingLimit', r.outstandingLimit, 1, 1_000_000);
  oneOf(S, 'saturationControl', r.saturationControl, ['per-process', 't9000-queue'] as const);
  oneOf(S, 'receivePosting', r.receivePosting, ['iteration-start', 'after-sends'] as const);
  integerIn(S, 'timeSliceNs', r.timeSliceNs, 0, 1e12, 'ns; 0 = no time slicing');
  if (r.fixedIntermediates !== null) {
    const f = r.fixedIntermediates;
    if (r.routing !== 'two-phase' || lm !== 'token-credit') throw new RangeError(`${S}.fixedIntermediates: only with routing 'two-phase' in the token-credit link model`);
    if (!Array.isArray(f) || f.length !== r.side * r.side) throw new RangeError(`${S}.fixedIntermediates: one node per source node (${r.side * r.side})`);
    f.forEach((x, i) => integerIn(S, `fixedIntermediates[${i}]`, x, 0, r.side * r.side - 1, 'node'));
  }
  integerIn(S, 'networkSeed', r.networkSeed, 0, 0xffffffff);
  bool(S, 'recordEvents', r.recordEvents);
  nonNegative(S, 'routingDelayNs', r.routingDelayNs);
  return r;
}

/** Tokens of a data packet of `bytes` data bytes (header + data + EOP/EOM), §4.1.4.1. */
export function dataPacketTokens(c: C104Config, bytes: number): number {
  return c.headerBytes + bytes + 1;
}

/** Serialisation time of a packet of `dataTokens` data tokens (header included) and one terminator. */
export function packetNs(c: C104Config, dataTokens: number): number {
  return dataTokens * c.nsPerDataToken + c.nsPerControlToken;
}
