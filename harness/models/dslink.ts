/**
 * DS-link data bandwidth between two adjacent T9000s, seed 004 §4.1.4.1–
 * §4.1.4.2 Eqs 4.1, 4.2 and 4.3 (from May, Thompson and Welch [BGT93]);
 * reconstructed right-hand sides in docs/sources.md, c104-t9000 §6, reading in
 * docs/t9000.md#bandwidth-models.
 *
 * Symbols (seed 004 §4.1.4.1):
 *   m     message size in data bytes (m ≥ 0; a 0-byte message is one packet)
 *   s     header size in bytes (1 throughout the seed's Chapter 4)
 *   n     packets per message = ⌈m/32⌉ (at least 1)
 *   b_d   non-FCT bits sent per message in the measured direction
 *   d_t   tokens that direction's FCTs must cover (tokens flowing the other way)
 *   n_ft  FCTs per message = d_t/8 (the seed), or ⌈d_t/8⌉ (the spec's
 *         "ceil" variant: whole FCTs per message)
 *   B     bits per message on the link = b_d + 4·n_ft (Eq 4.3: b_d only)
 *   D     data bandwidth = 8m/B × link rate (Mbit/s)
 * Token sizes: data token 10 bits, EOP/EOM/FCT 4 bits (seed §4.1.4.1).
 *
 * Pure functions, no I/O.
 */
import { integerIn, oneOf, positive } from './validate.ts';

export type DsDirection = 'uni' | 'bi';
/** How FCTs per message are counted: the seed's fraction d_t/8, or whole FCTs ⌈d_t/8⌉ (spec §6 "ceil"). */
export type FctRounding = 'exact' | 'ceil';

export interface DsBandwidthParams {
  /** Message size m in bytes (seed 004 §4.1.4.1). */
  readonly m: number;
  /** 'uni' = Eq 4.1 (one sender, one receiver); 'bi' = Eq 4.2 (a sender and a receiver at each end). */
  readonly direction: DsDirection;
  /** Header size s in bytes; seed 004 §4.1.4.1 uses s = 1. */
  readonly s?: number;
  /** FCT rounding, default 'exact' (the seed's n_ft = d_t/8). */
  readonly rounding?: FctRounding;
  /** Largest packet payload in bytes; seed 004 §3.1.1.1: 32. */
  readonly packetBytes?: number;
  /** Link bit rate in Mbit/s; seed 004 §3.1.1.2: 100. */
  readonly linkMbps?: number;
}

/** Defaults of the seed (004 §3.1.1.1, §3.1.1.2, §4.1.4.1). */
export const DSLINK_MODEL_DEFAULTS = Object.freeze({
  s: 1, // seed 004 §4.1.4.1: "we assume that s = 1"
  packetBytes: 32, // seed 004 §3.1.1.1: "packets of not more than 32 bytes"
  linkMbps: 100, // seed 004 §3.1.1.2: 100 Mbits/s
  dataTokenBits: 10, // seed 004 §4.1.4.1: 10 bits per byte
  controlTokenBits: 4, // seed 004 §4.1.4.1: 4-bit EOP / FCT tokens
  tokensPerFct: 8, // seed 004 §3.1.1.2: one FCT per eight tokens
});

const D = DSLINK_MODEL_DEFAULTS;

/** n = ⌈m/32⌉, at least one packet (a 0-byte message still needs one; spec §2). */
export function dslinkPackets(p: { readonly m: number; readonly packetBytes?: number }): number {
  const m = integerIn('dslink', 'm', p.m, 0, Infinity, 'message bytes');
  const pb = integerIn('dslink', 'packetBytes', p.packetBytes ?? D.packetBytes, 1, Infinity, 'bytes per packet');
  return Math.max(1, Math.ceil(m / pb));
}

/** The terms of one equation for one message size (bits and tokens per message). */
export interface DsBandwidthTerms {
  readonly n: number;
  readonly bd: number;
  readonly dt: number;
  readonly nft: number;
  readonly B: number;
  /** Data bandwidth in Mbit/s, per direction. */
  readonly mbps: number;
}

function common(scope: string, p: DsBandwidthParams) {
  const m = integerIn(scope, 'm', p.m, 0, Infinity, 'message bytes');
  const direction = oneOf(scope, 'direction', p.direction, ['uni', 'bi'] as const);
  const s = integerIn(scope, 's', p.s ?? D.s, 1, 2, 'header bytes');
  const rounding = oneOf(scope, 'rounding', p.rounding ?? 'exact', ['exact', 'ceil'] as const);
  const linkMbps = positive(scope, 'linkMbps', p.linkMbps ?? D.linkMbps, 'Mbit/s');
  const n = dslinkPackets({ m, packetBytes: p.packetBytes });
  return { m, direction, s, rounding, linkMbps, n };
}

/**
 * Eq 4.1 (uni) / Eq 4.2 (bi), with FCT cost.
 *   uni: b_d = 10m + (10s+4)n, d_t = (s+1)n                (acks coming back)
 *   bi:  b_d = 10m + 2(10s+4)n, d_t = m + 2(s+1)n           (data + acks coming back)
 *   n_ft = d_t/8 (or ⌈d_t/8⌉), B = b_d + 4 n_ft, D = 8m/B × 100 Mbit/s.
 * With s = 1: uni B = 10m + 15n, bi B = 10.5m + 30n (spec §6).
 */
export function dslinkBandwidthTerms(p: DsBandwidthParams): DsBandwidthTerms {
  const { m, direction, s, rounding, linkMbps, n } = common('dslink.eq4_1_2', p);
  const perPacket = D.dataTokenBits * s + D.controlTokenBits; // header + EOP (or an ack: header + EOP)
  const ackTokens = (s + 1) * n; // seed §4.1.4.1: an ack is an empty packet, s + 1 tokens
  const bd = direction === 'uni' ? D.dataTokenBits * m + perPacket * n : D.dataTokenBits * m + 2 * perPacket * n;
  const dt = direction === 'uni' ? ackTokens : m + s * n + n + ackTokens; // bi: (m + (s+1)n) + (s+1)n
  const nft = rounding === 'exact' ? dt / D.tokensPerFct : Math.ceil(dt / D.tokensPerFct);
  const B = bd + D.controlTokenBits * nft;
  return { n, bd, dt, nft, B, mbps: ((8 * m) / B) * linkMbps };
}

/** Eq 4.1 / 4.2 data bandwidth, Mbit/s per direction. */
export function dslinkBandwidth(p: DsBandwidthParams): number {
  return dslinkBandwidthTerms(p).mbps;
}

/**
 * Eq 4.3, the packet-passing simplification (FCT cost dropped, seed 004
 * §4.1.4.2): uni B = 10m + (10s+4)n, bi B = 10m + 2(10s+4)n.
 */
export function dslinkPacketPassingBandwidth(p: Omit<DsBandwidthParams, 'rounding'>): number {
  const { m, direction, s, linkMbps, n } = common('dslink.eq4_3', p);
  const perPacket = D.dataTokenBits * s + D.controlTokenBits;
  const B = D.dataTokenBits * m + (direction === 'uni' ? 1 : 2) * perPacket * n;
  return ((8 * m) / B) * linkMbps;
}

/** Relative deviation of a measured bandwidth from a predicted one, in percent (signed: + = above). */
export function deviationPercent(measured: number, predicted: number): number {
  positive('dslink.deviation', 'predicted', predicted, 'Mbit/s');
  return ((measured - predicted) / predicted) * 100;
}

/** Seed 004 Table 4.1 (token-passing vs Eqs 4.1/4.2, m ≥ 4), percent. */
export const TABLE_4_1 = Object.freeze({
  lockstep: { uni: { max: 0.5, avg: 0.09, stderr: 0.14 }, bi: { max: 1.38, avg: 0.94, stderr: 0.14 } },
  staggered: { uni: { max: 0.64, avg: 0.14, stderr: 0.16 }, bi: { max: 0.79, avg: 0.25, stderr: 0.12 } },
  /** Message sizes the table covers: "excluding packets of length less than 4 bytes". */
  minBytes: 4,
});

/** Seed 004 Table 4.2 (packet-passing vs Eq 4.3), percent. */
export const TABLE_4_2 = Object.freeze({
  uni: { max: 0.81, avg: 0.09, stderr: 0.13 },
  bi: { max: 0.4, avg: 0.06, stderr: 0.13 },
});
