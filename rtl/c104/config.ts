/**
 * Configuration of one C104 switch: arbitration, timing and buffer presets.
 * Every field names its source; readings in docs/c104.md#arbitration,
 * docs/c104.md#timing, docs/c104.md#buffers. The routing tables are separate
 * (interval_table.ts): a network gives every switch its own.
 */
import { C104ConfigError, C104_LINKS } from './interval_table.ts';
import type { C104Slices } from './slices.ts';

/**
 * Crossbar arbitration among inputs waiting for an output.
 *  - 'fifo': the real C104 (seed 004 §4.2.4; spec §16 V7), rtl/lib FifoArbiter.
 *  - 'random', 'net-first', 'oldest-first', 'hops-first': the thesis
 *    simulator's alternatives (seed 004 §4.2.4, Fig. 4.11).
 *  - 'fixed-priority': lowest input wins; unfair on purpose, a negative
 *    control for the FIFO property test, not a C104 policy.
 */
export const C104_POLICIES = ['fifo', 'random', 'net-first', 'oldest-first', 'hops-first', 'fixed-priority'] as const;
export type C104Policy = (typeof C104_POLICIES)[number];

export const C104_TIMINGS = ['thesis', 'measured'] as const;
export type C104Timing = (typeof C104_TIMINGS)[number];
export const C104_BUFFERS = ['stc104', 'thesis'] as const;
/**
 * The switch's pipeline between input buffer and output buffer
 * (docs/c104.md#pipeline):
 *  - 'registered' (default): the header is taken into the router's
 *    registers, looked up in a cycle of its own, requested, granted, sent
 *    through the crossbar and an output register into the output buffer.
 *  - 'cut-through': seed 004's model ("routed as soon as their routing
 *    headers have arrived", §3.1.1.3): the last header byte is looked up
 *    and requested in the cycle it is at the head of the input buffer, and
 *    characters cross from the input buffer into the output buffer (the
 *    link end's transmit buffer) in one clock edge, with no output register.
 */
export const C104_PIPELINES = ['registered', 'cut-through'] as const;
export type C104Pipeline = (typeof C104_PIPELINES)[number];
export type C104Buffers = (typeof C104_BUFFERS)[number];

export interface C104Config {
  /** Crossbar arbitration; default 'fifo' (seed 004 §4.2.4: "simple FIFO ordering"; V7). */
  policy: C104Policy;
  /** Acknowledgements before data at the crossbar (seed 004 §4.2.4); default off: "no ack prioritising" on the C104 (V7). */
  ackPriority: boolean;
  /** Extra cycles between a header's last byte and the crossbar request, beyond the one-cycle lookup (docs/c104.md#timing). */
  routingDelay: number;
  /** Stages between input and output buffer (docs/c104.md#pipeline); default 'registered'. */
  pipeline: C104Pipeline;
  /** Which timing preset `routingDelay` came from (printed with results), or 'custom'. */
  timing: C104Timing | 'custom';
  /** Tokens of input buffering per link (the receive buffer of the link end): stc104 35, thesis 70 (V10; seed 004 §4.2.4). */
  inputBufferTokens: number;
  /** Tokens of output buffering per link (the transmit buffer of the link end): stc104 35, thesis 1 (docs/c104.md#buffers). */
  outputBufferTokens: number;
  /** Which buffer preset the two sizes came from, or 'custom'. */
  buffers: C104Buffers | 'custom';
  /** Per link: the input comes from a processor (T9000), for 'net-first' (seed 004 §4.2.4). */
  fromProcessor: readonly boolean[];
  /** Seed of the switch's random generators (random headers, 'random' policy). */
  seed: number;
}

/**
 * Routing delay presets in cycles (10 ns, one bit time; spec §15).
 *  - thesis: seed 004 §4.1.5's token model adds ≈150 ns per C104 (T-4.C104).
 *    The RTL's extra transit without delay is the second link's token
 *    pipeline (header byte 10 bits + lookup); the remainder is this delay.
 *    Calibrated against c104-transit once the endpoints exist (docs/c104.md#timing).
 *  - measured: V11: a virtual link carried 4.7 MB/s through one C104 and
 *    2.3 MB/s through five: per 32-byte packet 6.8 µs vs 13.9 µs, 7.1 µs
 *    over 4 × 2 switch crossings (data and ack): ≈0.89 µs per crossing, of
 *    which ≈0.1 µs is the header token; ≈80 cycles of routing delay.
 */
export const ROUTING_DELAY_PRESETS: Readonly<Record<C104Timing, number>> = { thesis: 4, measured: 80 };

/** Buffer presets in tokens (spec §16 V10 and §16.2). */
export const BUFFER_PRESETS: Readonly<Record<C104Buffers, { input: number; output: number }>> = {
  stc104: { input: 35, output: 35 },
  thesis: { input: 70, output: 1 },
};

export const DEFAULT_C104: C104Config = {
  policy: 'fifo',
  ackPriority: false,
  routingDelay: ROUTING_DELAY_PRESETS.thesis,
  pipeline: 'registered',
  timing: 'thesis',
  inputBufferTokens: BUFFER_PRESETS.stc104.input,
  outputBufferTokens: BUFFER_PRESETS.stc104.output,
  buffers: 'stc104',
  fromProcessor: new Array<boolean>(C104_LINKS).fill(false),
  seed: 1,
};

export interface C104Options extends Partial<Omit<C104Config, 'timing' | 'buffers'>> {
  timing?: C104Timing;
  buffers?: C104Buffers;
  /**
   * Which slices a network elaborates (slices.ts, docs/c104.md#compact-slices):
   * 'all' (default) or only the 'connected' ones. An elaboration choice, not
   * part of the switch's configuration (C104Config): nothing observable on a
   * connected link depends on it.
   */
  slices?: C104Slices;
  /**
   * How a character crosses from the input router to the output stage
   * (rtl/c104/c104.ts, docs/c104.md#direct-data-path): 'direct' (default)
   * or through the crossbar's data path 'crossbar' (the reference). An
   * elaboration choice like `slices`: the same values at every cycle, the
   * crossbar's dout wires exist only with 'crossbar'.
   */
  dataPath?: C104DataPath;
}

export const C104_DATA_PATHS = ['direct', 'crossbar'] as const;
export type C104DataPath = (typeof C104_DATA_PATHS)[number];

function int(field: string, v: unknown, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) throw new C104ConfigError(`c104.${field}: ${String(v)} is outside ${lo}..${hi}`);
  return v;
}

function oneOf<T extends string>(field: string, v: unknown, allowed: readonly T[]): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) throw new C104ConfigError(`c104.${field}: '${String(v)}' is not one of ${allowed.join(', ')}`);
  return v as T;
}

/** Resolve presets and validate; an explicit routingDelay or buffer size overrides its preset (and the preset name becomes 'custom'). */
export function makeC104Config(o: C104Options = {}): C104Config {
  const timing = oneOf('timing', o.timing ?? 'thesis', C104_TIMINGS);
  const buffers = oneOf('buffers', o.buffers ?? 'stc104', C104_BUFFERS);
  const policy = oneOf('policy', o.policy ?? 'fifo', C104_POLICIES);
  const pipeline = oneOf('pipeline', o.pipeline ?? 'registered', C104_PIPELINES);
  if (o.ackPriority !== undefined && typeof o.ackPriority !== 'boolean') throw new C104ConfigError(`c104.ackPriority: ${String(o.ackPriority)} is not true or false`);
  if (policy === 'fixed-priority' && o.ackPriority) throw new C104ConfigError(`c104.ackPriority: not available with policy 'fixed-priority' (a negative control, not a C104 policy)`);
  const routingDelay = int('routingDelay', o.routingDelay ?? ROUTING_DELAY_PRESETS[timing], 0, 255);
  const inputBufferTokens = int('inputBufferTokens', o.inputBufferTokens ?? BUFFER_PRESETS[buffers].input, 1, 4096);
  const outputBufferTokens = int('outputBufferTokens', o.outputBufferTokens ?? BUFFER_PRESETS[buffers].output, 1, 4096);
  const fromProcessor = o.fromProcessor ?? DEFAULT_C104.fromProcessor;
  if (!Array.isArray(fromProcessor) || fromProcessor.length !== C104_LINKS) throw new C104ConfigError(`c104.fromProcessor: expected ${C104_LINKS} flags, one per link`);
  const seed = int('seed', o.seed ?? 1, 0, 0xffffffff);
  const customDelay = o.routingDelay !== undefined && o.routingDelay !== ROUTING_DELAY_PRESETS[timing];
  const customBuf =
    (o.inputBufferTokens !== undefined && o.inputBufferTokens !== BUFFER_PRESETS[buffers].input) ||
    (o.outputBufferTokens !== undefined && o.outputBufferTokens !== BUFFER_PRESETS[buffers].output);
  return {
    policy,
    ackPriority: o.ackPriority ?? false,
    routingDelay,
    pipeline,
    timing: customDelay ? 'custom' : timing,
    inputBufferTokens,
    outputBufferTokens,
    buffers: customBuf ? 'custom' : buffers,
    fromProcessor: [...fromProcessor],
    seed,
  };
}

/** One step of xorshift32 (the switch's random generators; never 0 from a non-zero state). */
export function xorshift32(x: number): number {
  x ^= x << 13;
  x >>>= 0;
  x ^= x >>> 17;
  x ^= x << 5;
  return x >>> 0;
}

/** A non-zero generator state for unit `k` of a switch seeded `seed`. */
export function rngState(seed: number, k: number): number {
  let x = (seed ^ Math.imul(k + 1, 0x9e3779b9)) >>> 0;
  if (x === 0) x = 0x6d2b79f5;
  for (let r = 0; r < 4; r++) x = xorshift32(x);
  return x;
}
