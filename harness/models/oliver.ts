/**
 * Oliver's H1/C104 communication cost model (seed 000: T. Oliver, "A
 * Communications Model for a PUMA Machine", Liverpool, October 1990; digest in
 * docs/sources.md, cost-models §2).
 *
 * All times are in nanoseconds (ns). Sizes in bytes. Symbols as in seed 000 §2
 * ("A Plethora of Parameters"), namespaced here because they clash with the
 * other seeds (docs/sources.md, cost-models §0):
 *   n  message bytes (the seed assumes a multiple of b; n/b is used as printed)
 *   h  header bytes                          default 3      (seed 000 §2)
 *   b  maximum bytes per packet              default 32     (seed 000 §2)
 *   s  C104 switch chips traversed
 *   α  link time per byte                    default 100 ns (seed 000 §2)
 *   β  VCP packet initialise time            default 200 ns (seed 000 §2)
 *   γ  VLCB channel initialise time          default 500 ns (seed 000 §2)
 *   δ  switch delay per C104                 default 1 µs   (seed 000 §2)
 * A token (EOP, ACK terminator) costs one byte time α (seed 000 §3).
 *
 * s may be any real ≥ 0 (the seed's Eq 2 threshold is itself fractional);
 * counts c (channels) and l (links) must be integers ≥ 1.
 */
import { integerIn, nonNegative, positive } from './validate.ts';

/** Machine parameters of seed 000 §2 (values are the seed's "estimates only"). */
export interface OliverParams {
  /** Header bytes h (seed 000 §2: h = 3, 2^24 channels). */
  readonly h: number;
  /** Maximum bytes per packet b (seed 000 §2: b = 32). */
  readonly b: number;
  /** Link time per byte α, ns (seed 000 §2: 100 ns, 10 MByte/s). */
  readonly alphaNs: number;
  /** Packet initialise time β, ns (seed 000 §2: 200 ns). */
  readonly betaNs: number;
  /** Channel initialise time γ, ns (seed 000 §2: 500 ns). */
  readonly gammaNs: number;
  /** Switch delay δ per C104, ns (seed 000 §2: 1 µs). */
  readonly deltaNs: number;
}

/** Seed 000 §2 parameter estimates for the H1 (T9000) / C104. */
export const OLIVER_H1_DEFAULTS: Readonly<OliverParams> = Object.freeze({
  h: 3, // seed 000 §2
  b: 32, // seed 000 §2
  alphaNs: 100, // seed 000 §2 (10 MBytes/s)
  betaNs: 200, // seed 000 §2
  gammaNs: 500, // seed 000 §2
  deltaNs: 1000, // seed 000 §2 (1 µs)
});

function params(scope: string, p: Partial<OliverParams>): OliverParams {
  const v = { ...OLIVER_H1_DEFAULTS, ...stripUndefined(p) };
  return {
    h: integerIn(scope, 'h', v.h, 0, Infinity, 'header bytes'),
    b: integerIn(scope, 'b', v.b, 1, Infinity, 'bytes per packet'),
    alphaNs: positive(scope, 'alphaNs', v.alphaNs, 'ns per byte'),
    betaNs: nonNegative(scope, 'betaNs', v.betaNs, 'ns'),
    gammaNs: nonNegative(scope, 'gammaNs', v.gammaNs, 'ns'),
    deltaNs: nonNegative(scope, 'deltaNs', v.deltaNs, 'ns per switch'),
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, val] of Object.entries(o)) if (val !== undefined) (out as Record<string, unknown>)[k] = val;
  return out;
}

function switches(scope: string, s: unknown): number {
  return nonNegative(scope, 's', s, 'C104 switch chips traversed');
}

/** Input of the packet models: parameters (defaults: OLIVER_H1_DEFAULTS) plus s. */
export interface OliverPacketInput extends Partial<OliverParams> {
  /** Switch chips on the path, s ≥ 0 (seed 000 §2). */
  readonly s: number;
}

/**
 * First branch of Eq 1 (seed 000 §3): the ACK returns before the source has
 * finished, so the cost is initialise + header + data + EOP:
 *   β + (h + b + 1)·α   [ns]
 */
export function oliverPacketOutputNs(p: Partial<OliverParams> = {}): number {
  const { h, b, alphaNs, betaNs } = params('oliver.packetOutput', p);
  return betaNs + (h + b + 1) * alphaNs; // seed 000 Eq 1, first branch
}

/**
 * Second branch of Eq 1 (seed 000 §3): header out (β + hα), s·δ to the
 * destination, ACK generated in β and sent at (h + 1)α, s·δ back:
 *   2β + (2h + 1)·α + 2s·δ   [ns]
 */
export function oliverPacketAckNs(p: OliverPacketInput): number {
  const { h, alphaNs, betaNs, deltaNs } = params('oliver.packetAck', p);
  const s = switches('oliver.packetAck', p.s);
  return 2 * betaNs + (2 * h + 1) * alphaNs + 2 * s * deltaNs; // seed 000 Eq 1, second branch
}

/**
 * Cost of one full packet as measured by the source, seed 000 Eq 1:
 *   T_p = max{ β + (h + b + 1)α , 2β + (2h + 1)α + 2sδ }   [ns]
 */
export function oliverPacketTimeNs(p: OliverPacketInput): number {
  return Math.max(oliverPacketOutputNs(p), oliverPacketAckNs(p)); // seed 000 Eq 1
}

/**
 * Switch count from which T_p depends on s, seed 000 Eq 2:
 *   s ≥ ((b − h)α − β) / (2δ)
 * Returns the real threshold (1.35 with the seed values; 9 with δ = 150 ns,
 * docs/sources.md, cost-models §2.7). δ must be > 0.
 */
export function oliverCrossoverSwitches(p: Partial<OliverParams> = {}): number {
  const { h, b, alphaNs, betaNs } = params('oliver.crossover', p);
  const deltaNs = positive('oliver.crossover', 'deltaNs', p.deltaNs ?? OLIVER_H1_DEFAULTS.deltaNs, 'ns per switch');
  return ((b - h) * alphaNs - betaNs) / (2 * deltaNs); // seed 000 Eq 2
}

/**
 * Smallest whole number of switch chips at which Eq 2 holds, i.e.
 * ⌈threshold⌉ (clamped at 0). [derived] 2 with the seed values: the seed's
 * "best utilisation … only when at most a single switch chip is traversed".
 */
export function oliverFirstSwitchCountDependingOnS(p: Partial<OliverParams> = {}): number {
  return Math.max(0, Math.ceil(oliverCrossoverSwitches(p)));
}

/** Input of the message models. */
export interface OliverMessageInput extends OliverPacketInput {
  /** Message bytes n ≥ 0 (seed 000 §2; assumed a multiple of b, n/b used as printed). */
  readonly n: number;
}

function bytes(scope: string, n: unknown): number {
  return nonNegative(scope, 'n', n, 'message bytes');
}

/**
 * Message on one channel, seed 000 Eq 3:
 *   T_m = γ + (n/b)·T_p   [ns]
 * Intended for long messages (n > 100 bytes, seed 000 §4).
 */
export function oliverMessageTimeNs(p: OliverMessageInput): number {
  const { b, gammaNs } = params('oliver.message', p);
  const n = bytes('oliver.message', p.n);
  return gammaNs + (n / b) * oliverPacketTimeNs(p); // seed 000 Eq 3
}

/**
 * Channels needed to saturate a link, seed 000 Eq 4:
 *   c ≥ (2β + 2sδ + (2h + 1)α) / (β + (h + b + 1)α)
 * Returns the real right-hand side (3.447 at s = 6 with the seed values).
 */
export function oliverChannelsToSaturate(p: OliverPacketInput): number {
  return oliverPacketAckNs(p) / oliverPacketOutputNs(p); // seed 000 Eq 4 (numerator = Eq 1 second branch)
}

/**
 * Smallest integer channel count satisfying Eq 4 (seed 000 Eq 4), at least 1.
 * [derived] 4 at s = 6 (the seed says "about 3"; docs/sources.md, cost-models §2.4).
 */
export function oliverMinChannelsToSaturate(p: OliverPacketInput): number {
  return Math.max(1, Math.ceil(oliverChannelsToSaturate(p) - 1e-12));
}

/** Input of the multi-channel model. */
export interface OliverMultiChannelInput extends OliverMessageInput {
  /** Channels c ≥ 1 the message is split over on one link (seed 000 §4). */
  readonly c: number;
}

/**
 * Multi-channel message, seed 000 Eq 5:
 *   c < threshold (Eq 4):  T_mc = cγ + (n/(cb))(2β + (2h+1)α + 2sδ) + (c − 1)(β + (h+b+1)α)
 *   otherwise:             T_mc = cγ + (n/b)(β + (h+b+1)α)
 * [ns]. The full cγ is charged although the integer unit and VCP overlap (seed).
 */
export function oliverMultiChannelTimeNs(p: OliverMultiChannelInput): number {
  const scope = 'oliver.multiChannel';
  const { b, gammaNs } = params(scope, p);
  const n = bytes(scope, p.n);
  const c = integerIn(scope, 'c', p.c, 1, Infinity, 'channels');
  const out = oliverPacketOutputNs(p);
  const ack = oliverPacketAckNs(p);
  if (c < ack / out) return c * gammaNs + (n / (c * b)) * ack + (c - 1) * out; // seed 000 Eq 5, first case
  return c * gammaNs + (n / b) * out; // seed 000 Eq 5, otherwise
}

/** Input of the multi-link model. */
export interface OliverMultiLinkInput extends OliverMultiChannelInput {
  /** Links l ≥ 1 used on both processors (seed 000 §4; the H1 has four). */
  readonly l: number;
}

/**
 * Multi-link message, seed 000 Eq 6:
 *   c < threshold (Eq 4):  T_ml = lcγ + (n/(lcb))(2β + (2h+1)α + 2sδ) + (c − 1)(β + (h+b+1)α)
 *   otherwise:             T_ml = lcγ + (n/(lb))(β + (h+b+1)α)
 * [ns]. As printed, the (c − 1) term is not scaled by l (docs/sources.md, cost-models §2.5).
 */
export function oliverMultiLinkTimeNs(p: OliverMultiLinkInput): number {
  const scope = 'oliver.multiLink';
  const { b, gammaNs } = params(scope, p);
  const n = bytes(scope, p.n);
  const c = integerIn(scope, 'c', p.c, 1, Infinity, 'channels per link');
  const l = integerIn(scope, 'l', p.l, 1, Infinity, 'links');
  const out = oliverPacketOutputNs(p);
  const ack = oliverPacketAckNs(p);
  if (c < ack / out) return l * c * gammaNs + (n / (l * c * b)) * ack + (c - 1) * out; // seed 000 Eq 6, first case
  return l * c * gammaNs + (n / (l * b)) * out; // seed 000 Eq 6, otherwise
}

/** Result of the multi-link VCP condition. */
export interface OliverVcpCondition {
  /** links·β: VCP time to service every link once, ns. */
  readonly vcpNs: number;
  /** (b + h + 1)·α: link time to transmit one packet, ns. */
  readonly packetNs: number;
  /** vcpNs ≤ packetNs: the VCP sustains all links at full bandwidth. */
  readonly holds: boolean;
}

/**
 * Multi-link condition, seed 000 §4 (unnumbered, before Eq 6):
 *   4β ≤ (b + h + 1)α
 * "the time taken by the VCP to service all four links"; `links` defaults to
 * the H1's four. [derived] 800 ns ≤ 3600 ns with the seed values.
 */
export function oliverVcpSustainsLinks(p: Partial<OliverParams> & { readonly links?: number } = {}): OliverVcpCondition {
  const { h, b, alphaNs, betaNs } = params('oliver.vcpCondition', p);
  const links = integerIn('oliver.vcpCondition', 'links', p.links ?? 4, 1, Infinity, 'links');
  const vcpNs = links * betaNs; // seed 000 §4: 4β
  const packetNs = (b + h + 1) * alphaNs; // seed 000 §4: (b + h + 1)α
  return { vcpNs, packetNs, holds: vcpNs <= packetNs };
}

/**
 * Simple single-channel model, seed 000 Eq 7 (and §6):
 *   T = k1 + k2·n + k3·s·n   [ns]
 * k1 in ns, k2 in ns per byte, k3 in ns per byte per switch chip; the seed
 * expects them fitted to measurements.
 */
export function oliverSimpleSingleChannelNs(p: {
  readonly k1Ns: number;
  readonly k2NsPerByte: number;
  readonly k3NsPerByteSwitch: number;
  readonly n: number;
  readonly s: number;
}): number {
  const scope = 'oliver.eq7';
  const k1 = nonNegative(scope, 'k1Ns', p.k1Ns, 'ns');
  const k2 = nonNegative(scope, 'k2NsPerByte', p.k2NsPerByte, 'ns per byte');
  const k3 = nonNegative(scope, 'k3NsPerByteSwitch', p.k3NsPerByteSwitch, 'ns per byte per switch');
  const n = bytes(scope, p.n);
  const s = switches(scope, p.s);
  return k1 + k2 * n + k3 * s * n; // seed 000 Eq 7
}

/**
 * Simple multi-channel / multi-link model with a saturated link, seed 000 §5
 * and §6: T = k1 + k2·n (the conclusions call it k4 + k5·n)   [ns].
 */
export function oliverSimpleMultiChannelNs(p: { readonly k1Ns: number; readonly k2NsPerByte: number; readonly n: number }): number {
  const scope = 'oliver.simpleMultiChannel';
  const k1 = nonNegative(scope, 'k1Ns', p.k1Ns, 'ns');
  const k2 = nonNegative(scope, 'k2NsPerByte', p.k2NsPerByte, 'ns per byte');
  return k1 + k2 * bytes(scope, p.n); // seed 000 §5: T = k1 + k2 n
}

/** Coefficients of the simple multi-channel model. */
export interface OliverSimpleCoefficients {
  /** k1 ≡ cγ, ns (seed 000 §5). */
  readonly k1Ns: number;
  /** k2 ≡ (β + (h + b + 1)α)/b, ns per byte (seed 000 §5). */
  readonly k2NsPerByte: number;
}

/**
 * Relation of the simple model to Eq 5 (saturated link), seed 000 §5:
 *   k1 ≡ cγ,  k2 ≡ (β + (h + b + 1)α)/b
 * [derived] k2 = 118.75 ns/byte; k1 = 2000 ns for c = 4 (the seed's "say c = 4").
 */
export function oliverSimpleCoefficients(p: Partial<OliverParams> & { readonly c?: number } = {}): OliverSimpleCoefficients {
  const { b, gammaNs } = params('oliver.simpleCoefficients', p);
  const c = integerIn('oliver.simpleCoefficients', 'c', p.c ?? 4, 1, Infinity, 'channels'); // seed 000 §4 "say c = 4"
  return { k1Ns: c * gammaNs, k2NsPerByte: oliverPacketOutputNs(p) / b }; // seed 000 §5
}

/**
 * The example machine of seed 000 §4: 256 H1 processors, 64 C104s, 4
 * processors per C104 on 16 of its links, 12 links per C104 forming a double
 * hypercube of dimension 6, 4 spare links; with random routing disabled a
 * message traverses at most 6 switch chips.
 */
export const OLIVER_EXAMPLE_MACHINE = Object.freeze({
  processors: 256, // seed 000 §4
  switches: 64, // seed 000 §4
  processorsPerSwitch: 4, // seed 000 §4
  processorLinksPerSwitch: 16, // seed 000 §4
  networkLinksPerSwitch: 12, // seed 000 §4 (double hypercube)
  cubeDimension: 6, // seed 000 §4
  spareLinksPerSwitch: 4, // seed 000 §4 (I/O, host)
  maxSwitchesTraversed: 6, // seed 000 §4 ("at most 6", random routing disabled)
  channelsSuggested: 3, // seed 000 §4 ("about 3 channels" at s = 6)
  libraryChannels: 4, // seed 000 §4 ("say c = 4")
  linksPerC104: 32, // [general knowledge] the C104 has 32 links; [derived] 16 + 12 + 4
});
