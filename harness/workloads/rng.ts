/**
 * The project's seeded pseudo-random generator (ARCHITECTURE.md "Randomness
 * only through one seeded generator passed in explicitly; the same seed
 * reproduces the same run bit for bit, on RTL and TLM alike").
 *
 * Algorithm: xoshiro128** (Blackman & Vigna, 2018), 128 bits of state, 32-bit
 * outputs, period 2^128 − 1. The state is initialised from the seed with
 * splitmix32, so every 32-bit seed gives a distinct, well-mixed start. Only
 * 32-bit integer operations (Math.imul, shifts) are used, so the integer
 * stream is identical on every JavaScript engine. The derived real-valued
 * draws use Math.log and Math.sqrt only (V8 computes Math.log with its own
 * fdlibm port, independent of the platform libm).
 *
 * The whole state is four 32-bit words: `save()` / `restore()` make it part
 * of a simulator snapshot (rtl/kernel StateProvider shape: save, restore,
 * hash), and a workload records the state it started from.
 */

/** A saved generator state (four 32-bit words, unsigned). */
export interface RngState {
  readonly algorithm: 'xoshiro128**';
  readonly s: readonly [number, number, number, number];
}

function splitmix32(x: number): [number, number] {
  x = (x + 0x9e3779b9) | 0;
  let z = x;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  z ^= z >>> 16;
  return [x, z >>> 0];
}

/** Seeds are integers in 0..2^32−1 (other integers are reduced modulo 2^32). */
export function checkSeed(seed: unknown, where = 'seed'): number {
  if (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new RangeError(`${where}: ${String(seed)} is outside 0..4294967295 (integer)`);
  }
  return seed;
}

export class Rng {
  /** The seed this generator was created from (metadata only; the stream depends on the state). */
  readonly seed: number;
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    this.seed = checkSeed(seed, 'rng.seed');
    let x = seed | 0;
    let w: number;
    [x, w] = splitmix32(x);
    this.a = w;
    [x, w] = splitmix32(x);
    this.b = w;
    [x, w] = splitmix32(x);
    this.c = w;
    [x, w] = splitmix32(x);
    this.d = w;
    if ((this.a | this.b | this.c | this.d) === 0) this.d = 1; // the all-zero state is the one fixed point
  }

  /** Next 32-bit unsigned integer (xoshiro128**). */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform real in [0, 1) with 53 random bits (two 32-bit draws). */
  nextFloat(): number {
    const hi = this.nextUint32() >>> 5; // 27 bits
    const lo = this.nextUint32() >>> 6; // 26 bits
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /** Uniform integer in 0..n−1, unbiased (rejection), 1 ≤ n ≤ 2^32. */
  nextInt(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > 0x100000000) throw new RangeError(`rng.nextInt.n: ${n} is outside 1..4294967296 (integer)`);
    if (n === 1) return 0;
    // Largest multiple of n not above 2^32: draws at or above it are rejected.
    const limit = 0x100000000 - (0x100000000 % n);
    for (;;) {
      const u = this.nextUint32();
      if (u < limit) return u % n;
    }
  }

  /** Exponential with the given mean (inverse transform: −mean·ln(1 − U), U in [0, 1)). */
  exponential(mean: number): number {
    return -mean * Math.log(1 - this.nextFloat());
  }

  /**
   * Normal with the given mean and standard deviation (Marsaglia's polar
   * method; the second variate of each pair is discarded so that the state
   * stays four words).
   */
  normal(mean: number, sd: number): number {
    for (;;) {
      const u = 2 * this.nextFloat() - 1;
      const v = 2 * this.nextFloat() - 1;
      const s = u * u + v * v;
      if (s > 0 && s < 1) return mean + sd * u * Math.sqrt((-2 * Math.log(s)) / s);
    }
  }

  /** A uniformly chosen k-subset of 0..n−1 (partial Fisher–Yates), in draw order. */
  sample(n: number, k: number): number[] {
    if (!Number.isInteger(k) || k < 0 || k > n) throw new RangeError(`rng.sample.k: ${k} is outside 0..${n} (integer)`);
    const a = Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < k; i++) {
      const j = i + this.nextInt(n - i);
      const t = a[i]!;
      a[i] = a[j]!;
      a[j] = t;
    }
    return a.slice(0, k);
  }

  /** Copy of the state (for snapshots and workload metadata). */
  save(): RngState {
    return { algorithm: 'xoshiro128**', s: [this.a >>> 0, this.b >>> 0, this.c >>> 0, this.d >>> 0] };
  }

  /** Restore a state from `save()`. */
  restore(v: unknown): void {
    const st = v as Partial<RngState> | null;
    if (!st || st.algorithm !== 'xoshiro128**' || !Array.isArray(st.s) || st.s.length !== 4 || !st.s.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffffffff)) {
      throw new RangeError('rng.restore: expected {algorithm: "xoshiro128**", s: [four 32-bit unsigned words]}');
    }
    if ((st.s[0]! | st.s[1]! | st.s[2]! | st.s[3]!) === 0) throw new RangeError('rng.restore: the all-zero state is not allowed');
    this.a = st.s[0]! | 0;
    this.b = st.s[1]! | 0;
    this.c = st.s[2]! | 0;
    this.d = st.s[3]! | 0;
  }

  /** A 32-bit hash of the state (determinism checks). */
  hash(): number {
    let h = 0x811c9dc5;
    for (const w of [this.a, this.b, this.c, this.d]) h = fnv1aWord(h, w);
    return h >>> 0;
  }

  /** An independent generator whose seed is drawn from this one (advances this stream by one draw). */
  fork(): Rng {
    return new Rng(this.nextUint32());
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** FNV-1a over the four bytes of a 32-bit word (little-endian). */
export function fnv1aWord(h: number, w: number): number {
  for (let i = 0; i < 4; i++) {
    h ^= (w >>> (8 * i)) & 0xff;
    h = Math.imul(h, 0x01000193);
  }
  return h;
}

/** FNV-1a over a float64's 8 bytes (exact: distinguishes every bit pattern). */
const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);
export function fnv1aNumber(h: number, x: number): number {
  f64[0] = x;
  return fnv1aWord(fnv1aWord(h, u32[0]!), u32[1]!);
}
