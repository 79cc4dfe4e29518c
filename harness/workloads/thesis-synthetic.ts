/**
 * Seed 004 Definition 5.1: the synthetic workload (D, d, n, c, m, M) with a
 * synchronisation mode (§5.3.2; docs/thesis-model.md#synthetic-workload).
 *
 * - D: grid side (D×D processors, node index y·D + x).
 * - d: communication diameter. Destination window reading (spec §14 item 1,
 *   docs/thesis-model.md#destination-window): 'pm-d' (default) takes each
 *   destination uniformly among the processes on processors whose x and y
 *   are both within ±d of the sender's, truncated at the grid edge, the
 *   sender itself excluded: 9.48 mean DS-link hops for (16, 8), the thesis's
 *   9.50. 'pm-half-d' is the literal "no more than d/2 removed" (6.22 hops).
 * - n: processes per processor; process p runs on processor ⌊p / n⌋.
 * - c: compute period per iteration, a law in µs (converted to whole ns).
 * - m: messages per iteration, a law (rounded, at least 0).
 * - M: message size, a law in bytes (rounded, at least 0).
 *
 * Iteration k of process p draws (c, m, destinations, sizes) from its own
 * generator seeded by (seed, p, k): the same workload under every model.
 */
import { checkNumber, integerIn, oneOf } from '../models/validate.ts';
import { checkValueLaw, drawNonNegative, lawMean, type ValueLaw } from './laws.ts';
import { iterationSeed, SYNC_MODES, type IterationPlan, type PlannedSend, type ProcessProgram, type SyncMode } from './process-program.ts';
import { checkSeed, Rng } from './rng.ts';

export type DestinationWindow = 'pm-d' | 'pm-half-d';

export interface SyntheticSpec {
  readonly D: number;
  readonly d: number;
  readonly n: number;
  /** Compute period law, µs. */
  readonly c: ValueLaw;
  /** Messages per iteration law. */
  readonly m: ValueLaw;
  /** Message size law, bytes. */
  readonly M: ValueLaw;
  readonly mode: SyncMode;
  readonly window: DestinationWindow;
  /**
   * Start of each process: 'random' (default) sleeps a uniform time in
   * [0, mean c) before the first iteration, so processes do not start in
   * lock-step; 'aligned' starts all at 0 (docs/thesis-model.md#start-phase).
   */
  readonly startPhase: 'random' | 'aligned';
  readonly seed: number;
}

const constant = (value: number): ValueLaw => ({ law: 'constant', value });

/** The standard setup (16, 8, 1, c, 1, 32) of §5.4 / §6.2, c in µs. */
export function standardSetup(cUs: number, mode: SyncMode, seed = 1): SyntheticSpec {
  return { D: 16, d: 8, n: 1, c: constant(cUs), m: constant(1), M: constant(32), mode, window: 'pm-d', startPhase: 'random', seed };
}

const S = 'synthetic';

export function checkSyntheticSpec(s: SyntheticSpec): SyntheticSpec {
  integerIn(S, 'D', s.D, 2, 64, 'grid side');
  integerIn(S, 'd', s.d, 1, 64, 'communication diameter');
  integerIn(S, 'n', s.n, 1, 64, 'processes per processor');
  checkValueLaw(`${S}.c`, s.c);
  checkValueLaw(`${S}.m`, s.m);
  checkValueLaw(`${S}.M`, s.M);
  if (lawMean(s.m) > 1024) throw new RangeError(`${S}.m: mean ${lawMean(s.m)} is outside 0..1024 (messages per iteration)`);
  checkNumber(S, 'M.mean', lawMean(s.M), { min: 0, max: 1 << 20, what: 'bytes' });
  oneOf(S, 'mode', s.mode, SYNC_MODES.filter((m) => m !== 'exchange'));
  oneOf(S, 'window', s.window, ['pm-d', 'pm-half-d'] as const);
  oneOf(S, 'startPhase', s.startPhase, ['random', 'aligned'] as const);
  checkSeed(s.seed, `${S}.seed`);
  if (s.n === 1 && s.D * s.D === 1) throw new RangeError(`${S}.D: a single process has no destination`);
  return s;
}

/** Half-width of the destination window in processor coordinates. */
export function windowRadius(s: Pick<SyntheticSpec, 'd' | 'window'>): number {
  return s.window === 'pm-d' ? s.d : Math.floor(s.d / 2);
}

export class SyntheticProgram implements ProcessProgram {
  readonly name = 'thesis-def-5.1';
  readonly params: Readonly<Record<string, unknown>>;
  readonly mode: SyncMode;
  readonly side: number;
  readonly processes: number;
  private readonly r: number;
  private readonly cache = new Map<number, { plans: IterationPlan[]; incoming: Uint16Array }>();

  constructor(readonly spec: SyntheticSpec) {
    checkSyntheticSpec(spec);
    this.mode = spec.mode;
    this.side = spec.D;
    this.processes = spec.D * spec.D * spec.n;
    this.r = windowRadius(spec);
    this.params = { ...spec };
  }

  nodeOf(p: number): number {
    return (p / this.spec.n) | 0;
  }

  plan(p: number, k: number): IterationPlan {
    const hit = this.cache.get(k);
    if (hit) return hit.plans[p]!;
    return this.draw(p, k);
  }

  private draw(p: number, k: number): IterationPlan {
    const s = this.spec;
    const rng = new Rng(iterationSeed(s.seed, p, k));
    const computeNs = Math.round(1000 * drawNonNegative(rng, s.c));
    const m = Math.round(drawNonNegative(rng, s.m));
    const sends: PlannedSend[] = [];
    for (let i = 0; i < m; i++) sends.push({ dest: this.destination(rng, p), bytes: Math.round(drawNonNegative(rng, s.M)) });
    return { computeNs, sends };
  }

  computeNs(p: number, k: number): number {
    const c = this.spec.c;
    return c.law === 'constant' ? Math.round(1000 * c.value) : this.plan(p, k).computeNs;
  }

  sendCount(p: number, k: number): number {
    const m = this.spec.m;
    return m.law === 'constant' ? Math.round(m.value) : this.plan(p, k).sends.length;
  }

  /** Uniform over the processes in the (truncated) window around p's processor, p excluded. */
  destination(rng: Rng, p: number): number {
    const { D, n } = this.spec;
    const node = this.nodeOf(p);
    const x = node % D;
    const y = (node / D) | 0;
    const x0 = Math.max(0, x - this.r);
    const x1 = Math.min(D - 1, x + this.r);
    const y0 = Math.max(0, y - this.r);
    const y1 = Math.min(D - 1, y + this.r);
    const w = x1 - x0 + 1;
    const count = w * (y1 - y0 + 1) * n - 1;
    let j = rng.nextInt(count);
    const self = ((y - y0) * w + (x - x0)) * n + (p % n);
    if (j >= self) j++;
    const slot = (j / n) | 0;
    return ((y0 + ((slot / w) | 0)) * D + x0 + (slot % w)) * n + (j % n);
  }

  startNs(p: number): number {
    if (this.spec.startPhase === 'aligned') return 0;
    // Iteration −1's stream: a stream of its own, independent of every iteration's draws.
    return Math.floor(new Rng(iterationSeed(this.spec.seed, p, -1)).nextFloat() * 1000 * lawMean(this.spec.c));
  }

  incoming(p: number, k: number): number {
    let hit = this.cache.get(k);
    if (!hit) {
      const plans: IterationPlan[] = [];
      const incoming = new Uint16Array(this.processes);
      for (let q = 0; q < this.processes; q++) {
        const pl = this.draw(q, k);
        plans.push(pl);
        for (const snd of pl.sends) incoming[snd.dest]!++;
      }
      hit = { plans, incoming };
      if (this.cache.size >= 256) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(k, hit);
    }
    return hit.incoming[p]!;
  }
}

/**
 * Exact mean DS-link hops of one message (injection + Manhattan + delivery,
 * docs/thesis-model.md#hops), averaged per sender over its window, then over
 * senders, for n = 1 (spec §14 item 1: 9.48 for (16, ±8), 16.57 for (32, ±16)).
 */
export function meanWindowHops(D: number, radius: number): number {
  let total = 0;
  for (let x = 0; x < D; x++) {
    for (let y = 0; y < D; y++) {
      let sum = 0;
      let cnt = 0;
      for (let tx = Math.max(0, x - radius); tx <= Math.min(D - 1, x + radius); tx++) {
        for (let ty = Math.max(0, y - radius); ty <= Math.min(D - 1, y + radius); ty++) {
          if (tx === x && ty === y) continue;
          sum += Math.abs(tx - x) + Math.abs(ty - y);
          cnt++;
        }
      }
      total += sum / cnt;
    }
  }
  return total / (D * D) + 2;
}
