/**
 * Configuration of the Buzzard n-cube transaction-level model (TLM) at the
 * level of the seed's Chapter 5 simulator ("paper mode", A1): packet events,
 * link time per byte, a fixed arbitration time, whole-packet buffers.
 * Section numbers cite docs/sources.md, buzzard; A-numbers its §15.
 *
 * Every field is a typed, validated parameter with the seed's default; the
 * comment beside it says where the value and the modelling assumption come
 * from.
 */
import { bool, checkNumber, integerIn, oneOf } from '../models/validate.ts';

/**
 * §10.3 schemes: 'wormhole' routing (e-cube), 'fixed-packet' ("original fixed
 * packet routing", all hops e-cube) and 'quasi-adaptive' packet routing
 * (adaptive first hop, §6.3; e-cube after it; §7 deadlock rule).
 */
export type Transport = 'wormhole' | 'fixed-packet' | 'quasi-adaptive';
export const TRANSPORTS: readonly Transport[] = ['wormhole', 'fixed-packet', 'quasi-adaptive'];

/** Destination model, see TlmConfig.delivery. */
export type Delivery = 'shared-port' | 'per-link';
export const DELIVERIES: readonly Delivery[] = ['shared-port', 'per-link'];

/** Where per-hop packet forwarding may start, see TlmConfig.forwardStart. */
export type ForwardStart = 'header' | 'packet' | number | { readonly ticks: number };

/** How a PBU with packets for several free outputs is offered to them, see TlmConfig.pbuOutputOrder. */
export type PbuOutputOrder = 'last-used-first' | 'rotate';

/** Control-unit store of a packet's last data word into node memory (RTL-calibrated mode), ticks. */
export interface StoreTicks {
  /** The packet's data ends a 32-bit word: one write. */
  readonly fullWord: number;
  /** Otherwise: a read-modify-write. */
  readonly partialWord: number;
  /** Extra when the first packet carries at most 2 data bytes (the receive match is still running). */
  readonly shortFirstExtra: number;
}

/** When a wormhole source slot frees for its next message, see TlmConfig.wormholeSlotFree. */
export type WormholeSlotFree = 'tail-sent' | 'delivered';

export interface TlmConfig {
  readonly transport: Transport;
  /**
   * Link transfer time, ticks per byte. §10.3 "link transfer rate 2 ticks per
   * byte". Every link (one per direction per dimension, §1) and every node
   * input port (crossbar output 0 into the destination's memory, §8.5) moves
   * one byte per `ticksPerByte`; no wire delay. [interp] The node input port
   * runs at link rate and never blocks (its FIFO drain by the control unit,
   * A14, is not modelled).
   */
  readonly ticksPerByte: number;
  /**
   * Arbitration for a shared resource, ticks. §10.3 "arbitration for shared
   * resources 4 ticks". [interp] Charged once per packet per crossbar output
   * (A12: a node output port slot arbitrates once per packet; a PBU once per
   * forwarded packet), serially: it starts when the output is free and a
   * requester is eligible, and the output is idle during it. The winner is
   * chosen when arbitration starts (round-robin, see below) and starts
   * sending at the grant, arbitrationTicks later.
   */
  readonly arbitrationTicks: number;
  /**
   * Data bytes per packet. §10.3 "packet length 32 bytes"; variant 64. A6
   * Chapter 5 reproduction mode: 32 payload bytes plus the header. The last
   * packet of a message carries the remainder (a 0-byte message is one
   * header-only packet). Wormhole: "first" is the arrival of the first
   * `packetBytes` data bytes (§10.3 "first packet (or 32 data bytes)").
   */
  readonly packetBytes: number;
  /**
   * Header bytes per packet (wormhole: per message). §5: 16-bit destination +
   * 16-bit source = 4. [interp] A packet's head must be completely received
   * (headerBytes·ticksPerByte) before its PBU can arbitrate for the next
   * output (the seed's lookahead next-port field is in the preheader, but
   * the hardware also waits for the destination field, §8.2 step 7). 0 is
   * allowed (routing on the first byte).
   */
  readonly headerBytes: number;
  /**
   * Packet buffers per PBU (CAM rows). §10.3 "13 packet buffers per PBU",
   * variant 26; A15 (simulations also used (2/3)n … 2n). A PBU (one per
   * dimension per node, fed by the one incoming link of that dimension)
   * reserves a whole buffer before a packet may start towards it (§8.9 item
   * 3: the PBU never blocks inside a packet), and frees it when the packet's
   * last byte has been forwarded (§8.2 output step 6). Not used by wormhole.
   */
  readonly buffersPerPbu: number;
  /**
   * §7 deadlock rule for quasi-adaptive routing: an incoming contrary packet
   * is refused iff it would leave its PBU with no buffer free or holding a
   * non-contrary packet (A8: free ≤ 1 and every occupied buffer contrary).
   * [interp] Refusal is modelled as ineligibility at arbitration (the slot
   * does not win the output; no preheader time is wasted). `false` is the
   * negative control: contrary packets may fill a PBU, and the network can
   * deadlock.
   */
  readonly deadlockRule: boolean;
  /**
   * How packets leave the network at the destination. 'shared-port'
   * (default): one node input port per node, crossbar output O_0, shared by
   * the n PBUs through its arbiter, one packet or worm at a time at link rate
   * (§8.3, §8.5: the hardware has one O_0). 'per-link': every PBU (wormhole:
   * every input) delivers through its own ejection channel at link rate, so
   * up to n messages arrive at once ([interp] §8.6: "wormhole needs at most n
   * concurrently arriving messages"). The seed does not say which its
   * simulator used; note that with 'shared-port' the heaviest §10.3 rates
   * load each node input port ≈ ticksPerByte·M̄/T̄_gen (1.0 at 512 B / 1024
   * ticks) before header and arbitration overhead, i.e. at or past
   * saturation for every scheme.
   */
  readonly delivery: Delivery;
  /**
   * Packet transports: how much of a packet a PBU must have received before
   * it may arbitrate for the next output (the packet's head-arrives time).
   * 'header' (default): the whole header, headerBytes (cut-through, as
   * above); 'packet': the whole packet, headerBytes + payload
   * (store-and-forward); a number k: k bytes (capped at the packet's size).
   * The seed's simulator does not say (docs/buzzard-ch5.md#per-hop-forwarding-start);
   * `icemu experiment buzzard-ch5-light` sweeps it against §5.7's light-load end points.
   */
  readonly forwardStart: ForwardStart;
  /**
   * Wormhole: when the source slot may start its next message. 'tail-sent'
   * (default): when the worm's tail has left the source's first link buffer
   * (τ_1 in buzzard-tlm.ts); 'delivered': when the message's last byte has
   * reached the destination (the source holds its slot for the whole
   * transfer). docs/buzzard-ch5.md#wormhole-source-slot.
   */
  readonly wormholeSlotFree: WormholeSlotFree;
  /**
   * Fixed wire time per packet on top of its bytes, ticks (RTL-calibrated:
   * the 11 framing bits of §5.4.8, preheader and syncs). Seed-level 0.
   */
  readonly framingTicks: number;
  /** A packet's bytes on the wire round up to whole words of this many bytes (RTL: 16-bit words, 2). Seed-level 1. */
  readonly wireWordBytes: number;
  /** Bytes in front of the first packet's data (A7 type + length: 6 in the RTL). Seed-level 0. Packet transports only. */
  readonly firstPacketPrefixBytes: number;
  /** Generation → the message joins its send queue (the control unit's instruction start, queue insert and prefetch), ticks. Seed-level 0 (A14). */
  readonly injectionTicks: number;
  /**
   * Broadcast: the leg on slot j joins its send queue injectionTicks +
   * broadcastInjectionTicks + j·broadcastSlotStaggerTicks after generation
   * (the RTL control unit writes the header to the n slots one after the
   * other). Seed-level 0 and 0.
   */
  readonly broadcastInjectionTicks: number;
  readonly broadcastSlotStaggerTicks: number;
  /** Generation → the message-queued event (instruction accepted), ticks; only the trace sees it. Seed-level 0. */
  readonly queuedTicks: number;
  /** Last byte of a packet in the node input port → its data stored (first / last times include it). Seed-level all 0. */
  readonly storeTicks: StoreTicks;
  /**
   * A PBU that finishes a packet and still holds packets for several
   * outputs: 'last-used-first' (seed-level default, the TLM's original
   * behaviour) offers it first to the output it has just used, so a stream
   * to one output can starve its packets for another, idle one;
   * 'rotate' offers it to the other outputs first, in port order after the
   * one just used (spec §8.2: fair interleaving across next ports).
   */
  readonly pbuOutputOrder: PbuOutputOrder;
  /**
   * Arbitration per crossbar output: 'round-robin' (seed-level default, a
   * rotating pointer over [slot, PBU 1..n]) or 'tree' (the RTL's balanced
   * tree of toggling 1-of-2 arbiters over 2n crossbar inputs, PBU i on input
   * i − 1 and slot j on n + j − 1; each node gives priority to the side it
   * did not grant last, docs/readings.md A10, rtl/buzzard/DESIGN.md).
   */
  readonly arbiter: 'round-robin' | 'tree';
  /**
   * The node input port (crossbar O_0, shared-port delivery) is offered to
   * the next packet this many ticks before the current packet's last bit has
   * entered it; the current packet's delivery and its PBU buffer are still
   * released at its last bit. Seed-level 0. RTL-calibrated 3: measured on the
   * RTL, packets from different PBUs follow each other into the node input
   * port every 11 + 18·W − 1 cycles, 3 fewer than on a link (11 + 18·W + 2)
   * (docs/buzzard-ch5.md#rtl-calibrated-tlm).
   */
  readonly nipReleaseTicks: number;
  /**
   * With nipReleaseTicks > 0: the PBU that sends a packet into the node
   * input port may be granted again this many ticks before that packet's
   * last bit (its buffer is still freed at the last bit). Seed-level 0.
   * RTL-calibrated 1: measured, two packets of one PBU follow each other into
   * the node input port 11 + 18·W + 1 cycles apart (on a link + 2).
   */
  readonly nipPbuReleaseTicks: number;
  /**
   * A PBU that forwards a packet onto a link is done with it this many ticks
   * before the packet's last bit: its buffer is freed (the link feeding the
   * PBU may be granted for it) and the PBU may be granted another output;
   * the link itself is free only at the last bit. Seed-level 0.
   * RTL-calibrated 1: measured, a PBU alternating between two idle links
   * starts its next packet 1 cycle after the last one's last bit (the same
   * link: 2 cycles), and a stream through a full PBU advances a packet every
   * 11 + 18·W + 32 cycles, not + 33 (docs/buzzard-ch5.md#rtl-calibrated-tlm).
   */
  readonly pbuReleaseTicks: number;
  /**
   * The control unit's single engine (RTL-calibrated): a message starts on
   * its slot this many ticks later when its source's node input port is
   * receiving a packet at that moment (the engine serves the receive task,
   * one step per FIFO word and a store per 32-bit word, between the send's
   * steps). Seed-level 0 (A14). RTL-calibrated 3: measured on the RTL,
   * generation → first grant is 23 cycles with the port idle and 26–27
   * (mean 26.9) while a packet enters it
   * (docs/buzzard-ch5.md#rtl-calibrated-tlm).
   */
  readonly sendRxDelayTicks: number;
  /**
   * Near-neighbour broadcast (one instruction, Fig. 4.3; runTlm's `nnBroadcasts`
   * groups): each of its c unicasts joins its send queue
   * nnBroadcastTicks + (c − 1)·nnBroadcastPerDestTicks + k·nnBroadcastSlotStaggerTicks
   * later than a plain send would, k = 0..c − 1 its rank in slot (dimension) order.
   * Seed-level 0, 0, 0 (the seed's simulator has no control unit, A14).
   * RTL-calibrated 3, 2, 1: the RTL's control unit reads the destination list
   * twice (instruction decode and the transmit task's mask build, one word
   * per cycle each), waits one cycle for the reserved slots, then starts the
   * c slots together and loads their first words one slot per cycle
   * (docs/buzzard-ch5.md#near-neighbour-broadcast-in-the-calibrated-tlm).
   */
  readonly nnBroadcastTicks: number;
  readonly nnBroadcastPerDestTicks: number;
  readonly nnBroadcastSlotStaggerTicks: number;
  /**
   * Last data byte stored → the receive's completion flag written (receiveComplete in
   * result.ts; `last` itself is not moved). Seed-level 0. RTL-calibrated 6: the RTL's
   * receive task reads and clears the arrival-table entry, reads the receive
   * block's buffer and type words, and writes its length and flag, one memory
   * access per cycle (docs/buzzard-ch5.md#near-neighbour-broadcast-in-the-calibrated-tlm).
   */
  readonly receiveFlagTicks: number;
  /** Store the event trace (off for big sweeps: only per-message times and link counters are kept). */
  readonly recordEvents: boolean;
  /** Safety stop: abort after this many processed events (default 2^40, i.e. none in practice). */
  readonly maxEvents: number;
}

/** Seed 002 Chapter 5 base configuration (§10.3): 2 ticks/byte, 4 ticks arbitration, 32-byte packets, 13 buffers per PBU. */
export const TLM_CH5_DEFAULTS: Readonly<Omit<TlmConfig, 'transport'>> = Object.freeze({
  ticksPerByte: 2, // §10.3
  arbitrationTicks: 4, // §10.3
  packetBytes: 32, // §10.3, A6 (payload; header added)
  headerBytes: 4, // §5: destination + source words
  buffersPerPbu: 13, // §10.3, A15
  deadlockRule: true, // §7
  delivery: 'shared-port', // §8.3, §8.5 (one O_0 per node); 'per-link' is the [interp] alternative
  forwardStart: 'header', // [interp] cut-through after the header (§8.2 step 7), docs/buzzard-ch5.md#per-hop-forwarding-start
  wormholeSlotFree: 'tail-sent', // [interp] docs/buzzard-ch5.md#wormhole-source-slot
  framingTicks: 0, // §10.3 paper mode: bytes only (A1)
  wireWordBytes: 1,
  firstPacketPrefixBytes: 0, // §10.3 "first packet (or 32 data bytes)"
  injectionTicks: 0, // A14: control-unit latencies 0 in paper mode
  broadcastInjectionTicks: 0,
  broadcastSlotStaggerTicks: 0,
  queuedTicks: 0,
  storeTicks: Object.freeze({ fullWord: 0, partialWord: 0, shortFirstExtra: 0 }),
  pbuOutputOrder: 'last-used-first',
  arbiter: 'round-robin',
  nipReleaseTicks: 0,
  nipPbuReleaseTicks: 0,
  pbuReleaseTicks: 0,
  sendRxDelayTicks: 0,
  nnBroadcastTicks: 0,
  nnBroadcastPerDestTicks: 0,
  nnBroadcastSlotStaggerTicks: 0,
  receiveFlagTicks: 0,
  recordEvents: true,
  maxEvents: 2 ** 40,
});

/** §10.3 variants "holding the product of the two constant" (832 bytes per PBU). */
export const TLM_CH5_VARIANTS = Object.freeze({
  base: Object.freeze({ packetBytes: 32, buffersPerPbu: 13 }),
  buffers26: Object.freeze({ packetBytes: 32, buffersPerPbu: 26 }),
  packet64: Object.freeze({ packetBytes: 64, buffersPerPbu: 13 }),
});
export type Ch5Variant = keyof typeof TLM_CH5_VARIANTS;

/** Apply defaults and check every field; throws a RangeError naming the field and its range. */
export function resolveTlmConfig(c: Partial<TlmConfig> & { readonly transport: Transport }): TlmConfig {
  const s = 'tlm';
  const v = { ...TLM_CH5_DEFAULTS, ...Object.fromEntries(Object.entries(c).filter(([, x]) => x !== undefined)) } as TlmConfig;
  const transport = oneOf(s, 'transport', v.transport, TRANSPORTS);
  const cfg: TlmConfig = {
    transport,
    ticksPerByte: checkNumber(s, 'ticksPerByte', v.ticksPerByte, { min: 0, minExclusive: true, max: 1e6, what: 'ticks per byte' }),
    arbitrationTicks: checkNumber(s, 'arbitrationTicks', v.arbitrationTicks, { min: 0, max: 1e9, what: 'ticks' }),
    packetBytes: integerIn(s, 'packetBytes', v.packetBytes, 1, 1 << 20, 'data bytes per packet'),
    headerBytes: integerIn(s, 'headerBytes', v.headerBytes, 0, 1 << 16, 'bytes'),
    buffersPerPbu: integerIn(s, 'buffersPerPbu', v.buffersPerPbu, 1, 4096, 'packet buffers'),
    deadlockRule: bool(s, 'deadlockRule', v.deadlockRule),
    delivery: oneOf(s, 'delivery', v.delivery, DELIVERIES),
    forwardStart:
      typeof v.forwardStart === 'number'
        ? integerIn(s, 'forwardStart', v.forwardStart, 0, 1 << 20, "bytes (or 'header' / 'packet' / { ticks })")
        : typeof v.forwardStart === 'object' && v.forwardStart !== null
          ? { ticks: checkNumber(s, 'forwardStart.ticks', v.forwardStart.ticks, { min: 0, max: 1e9, what: 'ticks' }) }
          : oneOf(s, 'forwardStart', v.forwardStart, ['header', 'packet'] as const),
    wormholeSlotFree: oneOf(s, 'wormholeSlotFree', v.wormholeSlotFree, ['tail-sent', 'delivered'] as const),
    framingTicks: checkNumber(s, 'framingTicks', v.framingTicks, { min: 0, max: 1e9, what: 'ticks' }),
    wireWordBytes: integerIn(s, 'wireWordBytes', v.wireWordBytes, 1, 64, 'bytes'),
    firstPacketPrefixBytes: integerIn(s, 'firstPacketPrefixBytes', v.firstPacketPrefixBytes, 0, 1 << 16, 'bytes'),
    injectionTicks: checkNumber(s, 'injectionTicks', v.injectionTicks, { min: 0, max: 1e9, what: 'ticks' }),
    broadcastInjectionTicks: checkNumber(s, 'broadcastInjectionTicks', v.broadcastInjectionTicks, { min: 0, max: 1e9, what: 'ticks' }),
    broadcastSlotStaggerTicks: checkNumber(s, 'broadcastSlotStaggerTicks', v.broadcastSlotStaggerTicks, { min: 0, max: 1e9, what: 'ticks' }),
    queuedTicks: checkNumber(s, 'queuedTicks', v.queuedTicks, { min: 0, max: 1e9, what: 'ticks' }),
    storeTicks: {
      fullWord: checkNumber(s, 'storeTicks.fullWord', v.storeTicks?.fullWord, { min: 0, max: 1e9, what: 'ticks' }),
      partialWord: checkNumber(s, 'storeTicks.partialWord', v.storeTicks?.partialWord, { min: 0, max: 1e9, what: 'ticks' }),
      shortFirstExtra: checkNumber(s, 'storeTicks.shortFirstExtra', v.storeTicks?.shortFirstExtra, { min: 0, max: 1e9, what: 'ticks' }),
    },
    pbuOutputOrder: oneOf(s, 'pbuOutputOrder', v.pbuOutputOrder, ['last-used-first', 'rotate'] as const),
    arbiter: oneOf(s, 'arbiter', v.arbiter, ['round-robin', 'tree'] as const),
    nipReleaseTicks: checkNumber(s, 'nipReleaseTicks', v.nipReleaseTicks, { min: 0, max: 1e9, what: 'ticks' }),
    nipPbuReleaseTicks: checkNumber(s, 'nipPbuReleaseTicks', v.nipPbuReleaseTicks, { min: 0, max: 1e9, what: 'ticks' }),
    pbuReleaseTicks: checkNumber(s, 'pbuReleaseTicks', v.pbuReleaseTicks, { min: 0, max: 1e9, what: 'ticks' }),
    sendRxDelayTicks: checkNumber(s, 'sendRxDelayTicks', v.sendRxDelayTicks, { min: 0, max: 1e9, what: 'ticks' }),
    nnBroadcastTicks: checkNumber(s, 'nnBroadcastTicks', v.nnBroadcastTicks, { min: 0, max: 1e9, what: 'ticks' }),
    nnBroadcastPerDestTicks: checkNumber(s, 'nnBroadcastPerDestTicks', v.nnBroadcastPerDestTicks, { min: 0, max: 1e9, what: 'ticks' }),
    nnBroadcastSlotStaggerTicks: checkNumber(s, 'nnBroadcastSlotStaggerTicks', v.nnBroadcastSlotStaggerTicks, { min: 0, max: 1e9, what: 'ticks' }),
    receiveFlagTicks: checkNumber(s, 'receiveFlagTicks', v.receiveFlagTicks, { min: 0, max: 1e9, what: 'ticks' }),
    recordEvents: bool(s, 'recordEvents', v.recordEvents),
    maxEvents: integerIn(s, 'maxEvents', v.maxEvents, 1, 2 ** 53),
  };
  if (transport === 'quasi-adaptive' && cfg.deadlockRule && cfg.buffersPerPbu < 2) {
    throw new RangeError(`${s}.buffersPerPbu: ${cfg.buffersPerPbu} is outside 2..4096 for quasi-adaptive routing with the deadlock rule (a contrary packet could never enter a 1-buffer PBU)`);
  }
  return cfg;
}

/**
 * RTL-calibrated timing (ARCHITECTURE.md "The TLM, calibrated and
 * seed-level"): the Buzzard RTL's own constants, in cycles of the link bit
 * clock (run it on a workload in cycles: `workloadInCycles`). Each value is
 * where the RTL takes it from (rtl/buzzard/DESIGN.md, harness/compare/analytic.ts).
 */
export const TLM_RTL_CALIBRATED: Readonly<Omit<TlmConfig, 'transport'>> = Object.freeze({
  ...TLM_CH5_DEFAULTS,
  ticksPerByte: 9, // 16 data bits + a "10" sync per 16-bit word (DESIGN.md "Framing")
  arbitrationTicks: 2, // §5.4.3 crossbar arbiter latency
  packetBytes: 28, // 32-byte packets less the 4-byte header (§5.6, A6)
  headerBytes: 4, // destination + source words
  framingTicks: 11, // 11 + 18·W bits per packet (§5.4.8, models/buzzard.ts packetWireBits)
  wireWordBytes: 2, // whole 16-bit words
  firstPacketPrefixBytes: 6, // A7 type + length in the first packet (RTL config firstPacketPrefixBytes)
  forwardStart: Object.freeze({ ticks: 29 }), // head latency 31 per hop = 29 to the CAM request + 2 arbitration (DESIGN.md "Per-hop head timing")
  injectionTicks: 21, // measured on the RTL (harness/compare/analytic.ts RTL_MEASURED.injectionCycles)
  broadcastInjectionTicks: 4, // measured on the RTL (test/tlm/broadcast.test.ts): slot j's first packet 25 + j cycles after the broadcast instruction
  broadcastSlotStaggerTicks: 1, // the control unit writes the header to one slot per cycle
  queuedTicks: 11, // measured (RTL_MEASURED.queuedCycles)
  storeTicks: Object.freeze({ fullWord: 1, partialWord: 2, shortFirstExtra: 2 }), // measured (RTL_MEASURED delivery*)
  buffersPerPbu: 13, // RTL camHeight (§5.4.2)
  delivery: 'shared-port', // the RTL has one node input port (crossbar O_0)
  pbuOutputOrder: 'rotate', // fair interleaving across next ports (spec §8.2), not the seed-level starvation rule
  arbiter: 'tree', // the RTL's crossbar arbiter (rtl/buzzard/DESIGN.md: lib Crossbar, policy 'tree')
  nipReleaseTicks: 3, // measured: the RTL's node input port takes another PBU's packet 11 + 18·W − 1 cycles after the last one
  nipPbuReleaseTicks: 1, // measured: and the same PBU's next packet 11 + 18·W + 1 cycles after it
  pbuReleaseTicks: 1, // measured: a PBU frees its buffer and may take another idle link 1 cycle before its packet's last bit
  sendRxDelayTicks: 3, // measured: a send starts 3 cycles later while its node input port receives (one control-unit engine)
  nnBroadcastTicks: 3, // the RTL's near-neighbour instruction over a send: count reads, one idle cycle (docs/buzzard-ch5.md)
  nnBroadcastPerDestTicks: 2, // each further listed destination is read twice (decode, mask build)
  nnBroadcastSlotStaggerTicks: 1, // the started slots load their first words one per cycle
  receiveFlagTicks: 6, // the receive task's completion: 3 reads + 3 writes after the last store
});
