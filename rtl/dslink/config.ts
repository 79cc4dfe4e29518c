/**
 * Configuration of one DS-link end (DsLinkEnd). Every field cites the reading
 * it follows in docs/dslink.md; every field is validated with one error that
 * names the field and the allowed range.
 *
 * Times are given in nanoseconds, as the readings give them, and converted to
 * bit-clock cycles with `bitRateMbps` (one cycle = one bit,
 * docs/dslink.md#bit-clock).
 */

import { RX_HANDOVERS, type RxHandover } from './rx_decoder.ts';

export type LinkStartMode = 'always' | 'port';

/**
 * What a transmitter in Run sends when it has nothing else
 * (docs/dslink.md#run-idle): 'nulls' (default, real hardware: NULLs, spec
 * §16 V5), 'one-null' (one NULL after its last token, then the wires hold
 * still) or 'silent' (the wires hold still at once). The last two are seed
 * 004's simulator's idle link (no filler tokens), not hardware.
 */
export type RunIdle = 'nulls' | 'one-null' | 'silent';
export const RUN_IDLES: readonly RunIdle[] = ['nulls', 'one-null', 'silent'];

export interface DsLinkConfig {
  /** Bit rate in Mbit/s; one cycle = one bit (docs/dslink.md#bit-clock; seed 004 §3.1.1.2: 100). 1..1000. */
  bitRateMbps: number;
  /** Transmit buffer, in normal characters (docs/dslink.md#buffers). 1..4096. */
  txBufferTokens: number;
  /** Receive buffer, in normal characters (docs/dslink.md#buffers). 8..4096: one FCT needs 8 free places. */
  rxBufferTokens: number;
  /** Most credit a sender may hold; more is a credit error (docs/dslink.md#credit, spec §16 V5: 56). Multiple of 8, 8..1024. */
  creditCap: number;
  /** ErrorReset duration (docs/dslink.md#link-state-machine, spec §16 V6: 6.4 µs). 10..1e6 ns. */
  resetNs: number;
  /** ErrorWait duration (docs/dslink.md#link-state-machine, V6: 12.8 µs). 10..1e6 ns. */
  waitNs: number;
  /** Started/Connecting timeout (docs/dslink.md#link-state-machine, V6: 12.8 µs). 10..1e6 ns. */
  connectTimeoutNs: number;
  /** Disconnect: no bit transition for this long (docs/dslink.md#errors, V6: 850 ns, 727–1000). 20..1e6 ns. */
  disconnectNs: number;
  /**
   * Ready → Started permission (docs/dslink.md#link-state-machine): 'always'
   * (default: the link starts as soon as it is Ready) or 'port': an input
   * `linkStart` (1 = start) that the parent drives, for start-order tests.
   */
  linkStart: LinkStartMode;
  /** SpaceWire AutoStart: with linkStart low, Ready → Started on a received NULL (docs/dslink.md#link-state-machine). Default false. */
  autoStart: boolean;
  /**
   * When a received token is handed on (docs/dslink.md#handover): 'checked'
   * (default, faithful to "never silently corrupted data": held until the next
   * token's parity check, 2 bit times later) or 'on-arrival' (in the cycle
   * after its last bit, as SpaceWire receivers and seed 004's simulator do;
   * a character whose check then fails is reported as suspect).
   */
  rxHandover: RxHandover;
  /**
   * What an idle transmitter sends in Run (docs/dslink.md#run-idle): 'nulls'
   * (default, faithful), 'one-null' or 'silent' (the thesis's simulator's
   * idle link). With 'one-null' or 'silent' a still link in Run is normal, so
   * the disconnect timeout is off in Run (on in start-up, where NULLs still
   * flow) and a NULL pair received in Run (the far end restarting) is the
   * disconnect instead; 'silent' needs rxHandover 'on-arrival', since the
   * last token before a gap would otherwise wait for the next one.
   */
  runIdle: RunIdle;
  /**
   * Flow-through (docs/dslink.md#flow-through), the thesis's zero-latency
   * link: false (default, faithful: every unit registers what it hands on)
   * or true: the decoder hands a token on combinationally in the cycle the
   * deserialiser reports its end, and each buffer passes a character
   * straight through when it is empty (receive: decoder → core; transmit:
   * core → token choice). Needs rxHandover 'on-arrival'.
   */
  flowThrough: boolean;
  /**
   * Fault injection for negative controls only (docs/dslink.md#negative-controls):
   * false makes the receiver skip the parity check. Default true.
   */
  checkParity: boolean;
  /** Fault injection for negative controls only: true makes the sender ignore its credit. Default false. */
  ignoreCredit: boolean;
}

export const DEFAULT_DSLINK: Readonly<DsLinkConfig> = {
  bitRateMbps: 100,
  txBufferTokens: 56,
  rxBufferTokens: 56,
  creditCap: 56,
  resetNs: 6400,
  waitNs: 12800,
  connectTimeoutNs: 12800,
  disconnectNs: 850,
  linkStart: 'always',
  autoStart: false,
  rxHandover: 'checked',
  runIdle: 'nulls',
  flowThrough: false,
  checkParity: true,
  ignoreCredit: false,
};

/** The config in cycles, as the units use it. */
export interface DsLinkTiming {
  resetCycles: number;
  waitCycles: number;
  connectCycles: number;
  disconnectCycles: number;
}

function int(field: string, v: unknown, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) {
    throw new RangeError(`dslink.${field}: ${String(v)} is outside ${lo}..${hi}`);
  }
  return v;
}

function num(field: string, v: unknown, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) {
    throw new RangeError(`dslink.${field}: ${String(v)} is outside ${lo}..${hi}`);
  }
  return v;
}

function bool(field: string, v: unknown): boolean {
  if (typeof v !== 'boolean') throw new RangeError(`dslink.${field}: ${String(v)} is not true or false`);
  return v;
}

function oneOf(field: string, v: unknown, list: readonly string[]): void {
  if (!list.includes(v as string)) throw new RangeError(`dslink.${field}: '${String(v)}' is not one of ${list.map((h) => `'${h}'`).join(', ')}`);
}

const KNOWN = new Set(Object.keys(DEFAULT_DSLINK));

/** Fill defaults and validate; throws a RangeError naming the first bad field. */
export function checkDsLinkConfig(partial: Partial<DsLinkConfig> = {}): DsLinkConfig {
  for (const k of Object.keys(partial)) {
    if (!KNOWN.has(k)) throw new RangeError(`dslink.${k}: unknown field (known: ${[...KNOWN].join(', ')})`);
  }
  const c: DsLinkConfig = { ...DEFAULT_DSLINK, ...partial };
  num('bitRateMbps', c.bitRateMbps, 1, 1000);
  int('txBufferTokens', c.txBufferTokens, 1, 4096);
  int('rxBufferTokens', c.rxBufferTokens, 8, 4096);
  int('creditCap', c.creditCap, 8, 1024);
  if (c.creditCap % 8 !== 0) throw new RangeError(`dslink.creditCap: ${c.creditCap} is not a multiple of 8 in 8..1024`);
  num('resetNs', c.resetNs, 10, 1e6);
  num('waitNs', c.waitNs, 10, 1e6);
  num('connectTimeoutNs', c.connectTimeoutNs, 10, 1e6);
  num('disconnectNs', c.disconnectNs, 20, 1e6);
  if (c.linkStart !== 'always' && c.linkStart !== 'port') throw new RangeError(`dslink.linkStart: '${String(c.linkStart)}' is not 'always' or 'port'`);
  bool('autoStart', c.autoStart);
  oneOf('rxHandover', c.rxHandover, RX_HANDOVERS);
  oneOf('runIdle', c.runIdle, RUN_IDLES);
  if (c.runIdle === 'silent' && c.rxHandover !== 'on-arrival') {
    throw new RangeError("dslink.runIdle: 'silent' needs rxHandover 'on-arrival' (a token is checked only when the next arrives: docs/dslink.md#run-idle)");
  }
  bool('flowThrough', c.flowThrough);
  if (c.flowThrough && c.rxHandover !== 'on-arrival') {
    throw new RangeError("dslink.flowThrough: needs rxHandover 'on-arrival' (a token is handed on before its check: docs/dslink.md#flow-through)");
  }
  bool('checkParity', c.checkParity);
  bool('ignoreCredit', c.ignoreCredit);
  const t = timing(c);
  // A disconnect shorter than a NULL would fire on a healthy link that has
  // just been enabled; 4 bit times is the longest gap a healthy link shows.
  if (t.disconnectCycles < 4) throw new RangeError(`dslink.disconnectNs: ${c.disconnectNs} ns is under 4 bit times at ${c.bitRateMbps} Mbit/s`);
  return c;
}

/** Nanoseconds → whole cycles (rounded, at least 1). */
export function nsToCycles(ns: number, bitRateMbps: number): number {
  return Math.max(1, Math.round((ns * bitRateMbps) / 1000));
}

export function timing(c: DsLinkConfig): DsLinkTiming {
  return {
    resetCycles: nsToCycles(c.resetNs, c.bitRateMbps),
    waitCycles: nsToCycles(c.waitNs, c.bitRateMbps),
    connectCycles: nsToCycles(c.connectTimeoutNs, c.bitRateMbps),
    disconnectCycles: nsToCycles(c.disconnectNs, c.bitRateMbps),
  };
}
