/**
 * Synthetic traffic patterns for batch runs (`icemu buzzard --pattern`,
 * `icemu sweep`): the permutations and distributions interconnect studies
 * use, on the node addresses of an n-cube (n address bits).
 *
 *   uniform         every other node equally likely
 *   transpose       address rotated by ⌈n/2⌉ bits (swaps the halves for even n)
 *   bit-complement  every address bit inverted
 *   bit-reverse     address bits in reverse order
 *   shuffle         address rotated left by one bit (perfect shuffle)
 *   hotspot         one node (0) receives a fraction h of all messages, the rest uniform
 *   neighbour       a random neighbour (one address bit flipped)
 *
 * A permutation's fixed points (a node mapped to itself, e.g. 0 under
 * transpose) send nothing. Each sending node generates messages as a
 * Poisson process: exponential gaps with the mean that makes its offered
 * load `rate` link bandwidths, where one link carries one byte per 9 cycles
 * (8 data bits and the framing's share: docs/readings.md A1), and message
 * lengths are exponential with mean `meanBytes`, rounded, at least 1 byte.
 * Times are in cycles. The same seed gives the same workload.
 */
import { Rng } from '../workloads/rng.ts';
import { finalizeMessages, type DraftMessage, type Workload } from '../workloads/types.ts';

export const PATTERNS = ['uniform', 'transpose', 'bit-complement', 'bit-reverse', 'shuffle', 'hotspot', 'neighbour'] as const;
export type PatternName = (typeof PATTERNS)[number];

/** Cycles one byte takes on a link (8 data bits plus 1 cycle of framing per byte on average). */
export const CYCLES_PER_LINK_BYTE = 9;

export interface PatternParams {
  readonly n: number;
  readonly pattern: PatternName;
  /** Offered load per node, in link bandwidths (0 < rate). */
  readonly rate: number;
  readonly meanBytes: number;
  /** Messages are generated in cycles [0, durationCycles). */
  readonly durationCycles: number;
  readonly seed: number;
  /** Hotspot: fraction of messages sent to node 0. */
  readonly hotspotFraction?: number;
  /** Cycles one byte takes on a link, the unit of `rate` (default CYCLES_PER_LINK_BYTE, the Buzzard link). */
  readonly cyclesPerByte?: number;
}

function rotateLeft(x: number, k: number, n: number): number {
  const mask = (1 << n) - 1;
  k %= n;
  return ((x << k) | (x >>> (n - k))) & mask;
}

function reverseBits(x: number, n: number): number {
  let r = 0;
  for (let b = 0; b < n; b++) if (x & (1 << b)) r |= 1 << (n - 1 - b);
  return r;
}

/** The destination of a permutation pattern, or undefined for the random ones. */
export function permutation(pattern: PatternName, src: number, n: number): number | undefined {
  const mask = (1 << n) - 1;
  switch (pattern) {
    case 'transpose':
      return rotateLeft(src, Math.ceil(n / 2), n);
    case 'bit-complement':
      return ~src & mask;
    case 'bit-reverse':
      return reverseBits(src, n);
    case 'shuffle':
      return rotateLeft(src, 1, n);
    default:
      return undefined;
  }
}

function destination(p: PatternParams, src: number, rng: Rng): number {
  const N = 1 << p.n;
  const fixed = permutation(p.pattern, src, p.n);
  if (fixed !== undefined) return fixed;
  if (p.pattern === 'neighbour') return src ^ (1 << rng.nextInt(p.n));
  if (p.pattern === 'hotspot' && src !== 0 && rng.nextFloat() < (p.hotspotFraction ?? 0.2)) return 0;
  const d = rng.nextInt(N - 1);
  return d >= src ? d + 1 : d;
}

/** The workload of a pattern at a rate (unit: cycles). */
export function patternWorkload(p: PatternParams): Workload {
  if (!(p.rate > 0 && Number.isFinite(p.rate))) throw new RangeError(`rate: ${p.rate} must be a positive number (link bandwidths per node)`);
  if (p.n < 1) throw new RangeError(`pattern ${p.pattern} needs a cube of degree 1 or more`);
  const rng = new Rng(p.seed);
  const rngStart = rng.save();
  const N = 1 << p.n;
  const meanGap = (p.meanBytes * (p.cyclesPerByte ?? CYCLES_PER_LINK_BYTE)) / p.rate;
  const drafts: DraftMessage[] = [];
  for (let src = 0; src < N; src++) {
    const fixed = permutation(p.pattern, src, p.n);
    if (fixed === src) continue;
    for (let t = Math.round(rng.exponential(meanGap)); t < p.durationCycles; t += Math.max(1, Math.round(rng.exponential(meanGap)))) {
      const bytes = Math.max(1, Math.round(rng.exponential(p.meanBytes)));
      drafts.push({ t, src, dst: destination(p, src, rng), bytes, kind: 'unicast' });
    }
  }
  return {
    name: `pattern-${p.pattern}`,
    seed: p.seed,
    rngStart,
    params: { pattern: p.pattern, rate: p.rate, meanBytes: p.meanBytes, meanGapCycles: meanGap, durationCycles: p.durationCycles, hotspotFraction: p.pattern === 'hotspot' ? (p.hotspotFraction ?? 0.2) : null },
    unit: 'cycles',
    cubeDegree: p.n,
    messages: finalizeMessages(drafts),
  };
}
