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
    delivery: oneOf(s, 'delivery', v.delivery, ['shared-port', 'per-link'] as const),
    recordEvents: bool(s, 'recordEvents', v.recordEvents),
    maxEvents: integerIn(s, 'maxEvents', v.maxEvents, 1, 2 ** 53),
  };
  if (transport === 'quasi-adaptive' && cfg.deadlockRule && cfg.buffersPerPbu < 2) {
    throw new RangeError(`${s}.buffersPerPbu: ${cfg.buffersPerPbu} is outside 2..4096 for quasi-adaptive routing with the deadlock rule (a contrary packet could never enter a 1-buffer PBU)`);
  }
  return cfg;
}
