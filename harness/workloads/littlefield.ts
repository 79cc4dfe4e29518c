/**
 * Littlefield's f(L) test jig (seed 001 §4.2, Table 1; docs/sources.md, cost-models
 * §3.2 and §3.6) on a Buzzard cube: a centre node and L links nominally active.
 *
 *   L = 1       one neighbour sends a block to the centre (the centre receives on one link)
 *   L = 2k      the centre exchanges blocks with k neighbours (k sends out, k receives in),
 *               k = 1..n; Littlefield used L = 2, 4, 6 (one, two, three neighbours)
 *
 * The neighbours are the centre's neighbours across dimensions 1..k (node
 * centre XOR 2^(i−1)). A block is S elements of `bytesPerElement` bytes
 * (Littlefield: S doubles, 8 bytes; the spec's sweep uses S = 60, 120, 300,
 * 600 → 480…4800 bytes). `rounds` repeats the exchange; round r is generated
 * at r·roundIntervalTicks (default 0: all rounds queued at once, so T(L) is the
 * time until everything has arrived). Deterministic: no Rng, seed null.
 */
import { integerIn, nonNegative } from '../models/validate.ts';
import { finalizeMessages, type DraftMessage, type Workload } from './types.ts';

export interface LittlefieldJigParams {
  /** Cube degree n (default 3: room for three neighbours, as the seed's 3×3 mesh centre). */
  readonly cubeDegree?: number;
  /** The centre node (default 0). */
  readonly centre?: number;
  /** Links nominally active: 1, or 2k for k = 1..n (seed 001 Table 1: 1, 2, 4, 6). */
  readonly L: number;
  /** Block size S in elements (seed 001: doubles). */
  readonly S: number;
  /** Bytes per element (default 8, a double). */
  readonly bytesPerElement?: number;
  /** Exchanges (default 1). */
  readonly rounds?: number;
  /** Gap between rounds, ticks (default 0: all at t = 0). */
  readonly roundIntervalTicks?: number;
}

export function littlefieldJigWorkload(p: LittlefieldJigParams): Workload {
  const s = 'littlefieldJig';
  const n = integerIn(s, 'cubeDegree', p.cubeDegree ?? 3, 1, 16);
  const N = 2 ** n;
  const centre = integerIn(s, 'centre', p.centre ?? 0, 0, N - 1, `node of the ${n}-cube`);
  const L = integerIn(s, 'L', p.L, 1, 2 * n, 'links: 1 or an even number ≤ 2n');
  if (L !== 1 && L % 2 !== 0) throw new RangeError(`${s}.L: ${L} is not 1 or an even number 2..${2 * n} (links nominally active)`);
  const S = integerIn(s, 'S', p.S, 0, 2 ** 28, 'elements per block');
  const bpe = integerIn(s, 'bytesPerElement', p.bytesPerElement ?? 8, 1, 1024, 'bytes');
  const rounds = integerIn(s, 'rounds', p.rounds ?? 1, 1, 1_000_000);
  const gap = nonNegative(s, 'roundIntervalTicks', p.roundIntervalTicks ?? 0, 'ticks');
  const bytes = S * bpe;
  const drafts: DraftMessage[] = [];
  for (let r = 0; r < rounds; r++) {
    const t = r * gap;
    if (L === 1) {
      drafts.push({ t, src: centre ^ 1, dst: centre, bytes, kind: 'unicast' });
      continue;
    }
    const k = L / 2;
    for (let i = 0; i < k; i++) drafts.push({ t, src: centre, dst: centre ^ (1 << i), bytes, kind: 'unicast' });
    for (let i = 0; i < k; i++) drafts.push({ t, src: centre ^ (1 << i), dst: centre, bytes, kind: 'unicast' });
  }
  return {
    name: 'littlefield-jig',
    seed: null,
    params: { cubeDegree: n, centre, L, S, bytesPerElement: bpe, bytes, rounds, roundIntervalTicks: gap },
    unit: 'ticks',
    cubeDegree: n,
    messages: finalizeMessages(drafts),
  };
}
