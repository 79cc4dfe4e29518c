/**
 * Random laws of the Buzzard workloads (seed 002; docs/sources.md, buzzard
 * §10.1 "Workload notation" and "Destination distributions", §10.3, A16).
 *
 * Value laws (lengths, inter-generation times):
 *   constant(v)     a bare number in the figure captions
 *   exp(μ)          exponential with mean μ
 *   normal(μ, σ)    nor(μ, σ): mean and standard deviation
 *
 * Destination laws (§10.1, from [RG87]):
 *   uni()           uniform over all nodes except the source
 *   dpf(d)          φ(l) = D(d, n)·d^l, 0 < d < 1, D normalises Σ_{l=1..n} φ(l) = 1
 *   sl(r, φ)        φ(l) = φ·L(l,n)/R for 1 ≤ l ≤ r, (1−φ)·L(l,n)/(N−R−1) for r < l ≤ n,
 *                   L(l,n) = C(n,l), R = Σ_{l=1..r} L(l,n)
 * For dpf and sl, φ(l) is the total probability of distance class l ([interp]
 * §10.1); the destination is then uniform among the C(n,l) nodes at distance l.
 */
import { checkNumber, integerIn, oneOf } from '../models/validate.ts';
import type { Rng } from './rng.ts';

export type ValueLaw =
  | { readonly law: 'constant'; readonly value: number }
  | { readonly law: 'exp'; readonly mean: number }
  | { readonly law: 'normal'; readonly mean: number; readonly sd: number };

export type DestinationLaw =
  | { readonly law: 'uni' }
  | { readonly law: 'dpf'; readonly d: number }
  | { readonly law: 'sl'; readonly r: number; readonly phi: number };

/** How a negative normal draw is made non-negative (A16 "truncated at 0"). */
export type Truncation = 'clamp' | 'redraw';

export function checkValueLaw(scope: string, law: ValueLaw): ValueLaw {
  const kind = oneOf(scope, 'law', (law as { law?: unknown })?.law, ['constant', 'exp', 'normal'] as const);
  if (kind === 'constant') return { law: kind, value: checkNumber(scope, 'value', (law as { value: number }).value, { min: 0, max: 1e15 }) };
  if (kind === 'exp') return { law: kind, mean: checkNumber(scope, 'mean', (law as { mean: number }).mean, { min: 0, minExclusive: true, max: 1e15 }) };
  const l = law as { mean: number; sd: number };
  return { law: kind, mean: checkNumber(scope, 'mean', l.mean, { min: 0, max: 1e15 }), sd: checkNumber(scope, 'sd', l.sd, { min: 0, max: 1e15 }) };
}

/** Mean of a value law before truncation/rounding. */
export function lawMean(law: ValueLaw): number {
  return law.law === 'constant' ? law.value : law.mean;
}

/** Draw a real value ≥ 0 from the law; negative normal draws are clamped to 0 or redrawn. */
export function drawNonNegative(rng: Rng, law: ValueLaw, truncation: Truncation = 'clamp'): number {
  switch (law.law) {
    case 'constant':
      return law.value;
    case 'exp':
      return rng.exponential(law.mean);
    case 'normal': {
      for (;;) {
        const x = rng.normal(law.mean, law.sd);
        if (x >= 0) return x;
        if (truncation === 'clamp') return 0;
      }
    }
  }
}

/**
 * A message length in whole bytes, at least `minBytes` (default 1): the real
 * draw rounded to the nearest integer ([interp]: the seed's lengths are byte
 * counts; "exponential, at least 1 byte").
 */
export function drawLength(rng: Rng, law: ValueLaw, minBytes = 1): number {
  return Math.max(minBytes, Math.round(drawNonNegative(rng, law, 'clamp')));
}

export function checkDestinationLaw(scope: string, n: number, law: DestinationLaw): DestinationLaw {
  const kind = oneOf(scope, 'law', (law as { law?: unknown })?.law, ['uni', 'dpf', 'sl'] as const);
  if (kind === 'uni') return { law: kind };
  if (kind === 'dpf') return { law: kind, d: checkNumber(scope, 'd', (law as { d: number }).d, { min: 0, minExclusive: true, max: 1 - 1e-12, what: '0 < d < 1' }) };
  const l = law as { r: number; phi: number };
  return { law: kind, r: integerIn(scope, 'r', l.r, 1, n, 'sphere radius, hops'), phi: checkNumber(scope, 'phi', l.phi, { min: 0, max: 1 }) };
}

function binomial(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return Math.round(c);
}

/**
 * Probability of each distance class l = 1..n (index l−1) under a destination
 * law on the n-cube. uni(): C(n,l)/(N−1). sl(r, φ) with r = n has an empty
 * outer shell (N − R − 1 = 0) and the classes sum to φ; they are normalised,
 * which makes sl(n, φ) = uni() ([interp]).
 */
export function distanceClassProbabilities(n: number, law: DestinationLaw): number[] {
  const N = 2 ** n;
  const L = Array.from({ length: n }, (_, i) => binomial(n, i + 1));
  let p: number[];
  if (law.law === 'uni') p = L.map((c) => c / (N - 1));
  else if (law.law === 'dpf') p = L.map((_, i) => law.d ** (i + 1));
  else {
    const R = L.slice(0, law.r).reduce((a, b) => a + b, 0);
    const outer = N - R - 1;
    p = L.map((c, i) => (i + 1 <= law.r ? (law.phi * c) / R : outer > 0 ? ((1 - law.phi) * c) / outer : 0));
  }
  const sum = p.reduce((a, b) => a + b, 0);
  return p.map((x) => x / sum);
}

/**
 * A destination sampler for one (n, law): draws the distance class by inverse
 * CDF, then a uniform l-subset of the n address bits to flip. uni() draws a
 * node directly (uniform over the N − 1 others), which is the same law.
 */
export function destinationSampler(n: number, law: DestinationLaw): (rng: Rng, src: number) => number {
  const N = 2 ** n;
  if (law.law === 'uni') {
    return (rng, src) => {
      const d = rng.nextInt(N - 1);
      return d >= src ? d + 1 : d;
    };
  }
  const p = distanceClassProbabilities(n, law);
  const cdf: number[] = [];
  let acc = 0;
  for (const x of p) cdf.push((acc += x));
  // Guard against rounding: from the last class with positive probability on, the CDF is exactly 1.
  let last = n - 1;
  while (last > 0 && p[last] === 0) last--;
  for (let i = last; i < n; i++) cdf[i] = 1;
  return (rng, src) => {
    const u = rng.nextFloat();
    let l = 0;
    while (l < last && (u >= cdf[l]! || p[l] === 0)) l++;
    let mask = 0;
    for (const b of rng.sample(n, l + 1)) mask |= 1 << b;
    return src ^ mask;
  };
}
