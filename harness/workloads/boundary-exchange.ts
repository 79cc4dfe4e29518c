/**
 * Seed 004 Chapter 4's toroidal boundary exchange (§4.2.1;
 * docs/thesis-model.md#boundary-exchange): processes P(i, j) on an N×N torus,
 * each loops compute(period); send s0..s3 (non-blocking, m bytes); recv
 * s0..s3, with s0..s3 its four torus neighbours (i+1, j), (i, j−1), (i−1, j),
 * (i, j+1). Four processes per processor: P(i, j) runs on processor
 * (⌊i/2⌋, ⌊j/2⌋) of the (N/2)×(N/2) grid (spec §8.1 [interp]). One iteration
 * of one process is one "application exchange".
 */
import { integerIn } from '../models/validate.ts';
import type { IterationPlan, ProcessProgram, SyncMode } from './process-program.ts';

export interface ExchangeSpec {
  /** Torus side N (even; processors (N/2)×(N/2)). Table 4.3: 16. */
  readonly N: number;
  /** Message bytes m, default 32 (one full packet). */
  readonly bytes: number;
  /** Compute period, ns (not given for Table 4.3). */
  readonly periodNs: number;
}

export class BoundaryExchangeProgram implements ProcessProgram {
  readonly name = 'thesis-boundary-exchange';
  readonly params: Readonly<Record<string, unknown>>;
  readonly mode: SyncMode = 'exchange';
  readonly side: number;
  readonly processes: number;

  constructor(readonly spec: ExchangeSpec) {
    integerIn('exchange', 'N', spec.N, 2, 128, 'torus side, even');
    if (spec.N % 2 !== 0) throw new RangeError(`exchange.N: ${spec.N} is outside 2..128 (torus side, even)`);
    integerIn('exchange', 'bytes', spec.bytes, 0, 1 << 20);
    integerIn('exchange', 'periodNs', spec.periodNs, 0, 1e12, 'ns');
    this.side = spec.N / 2;
    this.processes = spec.N * spec.N;
    this.params = { ...spec };
  }

  /** Process index of P(i, j) = j·N + i. */
  proc(i: number, j: number): number {
    const N = this.spec.N;
    return (((j % N) + N) % N) * N + (((i % N) + N) % N);
  }

  nodeOf(p: number): number {
    const N = this.spec.N;
    const i = p % N;
    const j = (p / N) | 0;
    return (j >> 1) * this.side + (i >> 1);
  }

  plan(p: number): IterationPlan {
    const b = this.spec.bytes;
    return { computeNs: this.spec.periodNs, sends: [0, 1, 2, 3].map((s) => ({ dest: this.peerOf(p, s), bytes: b })) };
  }

  /** Channel slot s of P(i, j): 0 → (i+1, j), 1 → (i, j−1), 2 → (i−1, j), 3 → (i, j+1); the peer's slot is (s + 2) mod 4. */
  peerOf(p: number, s: number): number {
    const N = this.spec.N;
    const i = p % N;
    const j = (p / N) | 0;
    return s === 0 ? this.proc(i + 1, j) : s === 1 ? this.proc(i, j - 1) : s === 2 ? this.proc(i - 1, j) : this.proc(i, j + 1);
  }

  private ends: Int32Array | null = null;

  /**
   * Channel end numbers per node (p·4 + s → number at p's node, −1 for a channel inside one
   * processor): the network ends of each node numbered from 0 in process order, then slot order.
   * The RTL exchange (harness/rtl/c104_exchange.ts) gives its control blocks these numbers and
   * the TLM's 'per-channel' link choice follows them (docs/thesis-model.md#t9000-links).
   */
  channelEnds(): Int32Array {
    if (this.ends) return this.ends;
    const used = new Int32Array(this.side * this.side);
    const ends = new Int32Array(this.processes * 4).fill(-1);
    for (let p = 0; p < this.processes; p++) {
      for (let s = 0; s < 4; s++) if (this.nodeOf(p) !== this.nodeOf(this.peerOf(p, s))) ends[p * 4 + s] = used[this.nodeOf(p)]!++;
    }
    return (this.ends = ends);
  }

  channelSlot(p: number, q: number): number {
    const ends = this.channelEnds();
    for (let s = 0; s < 4; s++) if (this.peerOf(p, s) === q && ends[p * 4 + s]! >= 0) return ends[p * 4 + s]!;
    throw new RangeError(`exchange: processes ${p} and ${q} share no network channel`);
  }

  startNs(): number {
    return 0;
  }

  incoming(): number {
    return 4;
  }
}
