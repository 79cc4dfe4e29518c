/**
 * Analytic models (ARCHITECTURE.md "Analytic (harness/models/)"): the closed
 * forms of the seed documents as pure, typed functions with the seeds'
 * parameter values as defaults.
 *
 *   textbook.ts     seed 003 §2.5–2.6: store-and-forward (Eq 2.2), packet routing,
 *                   cut-through (Eq 2.3), simplified (Eq 2.4), Example 2.15, e-cube/XY
 *   oliver.ts       seed 000: T_p (Eq 1, 2), T_m (Eq 3), channels (Eq 4), T_mc (Eq 5),
 *                   T_ml (Eq 6), simple models (Eq 7), 4β ≤ (b+h+1)α, example machine
 *   littlefield.ts  seed 001: NBL T(L) = Lα + f(L)βS, Tree/Snake/Fence, optimum S,
 *                   DELTA parameters, Table 1
 *   buzzard.ts      seed 002: Eqs 5.1/5.2, head critical path, arbiter delay,
 *                   §5.7 utilisation, §4.5 wormhole vs packet, zero-load latency
 *   buzzard-ch3.ts  seed 002 Chapter 3: Eqs 3.2/3.3, Tables 3.1, 3.4–3.10
 *   validate.ts     shared input checks (RangeError naming field and range)
 */
export * from './textbook.ts';
export * from './oliver.ts';
export * from './littlefield.ts';
export * from './buzzard.ts';
export * from './buzzard-ch3.ts';
export { checkNumber, type NumberRule } from './validate.ts';
// seed 004 §4.1.4: DS-link bandwidth Eqs 4.1, 4.2, 4.3 and Tables 4.1/4.2
export * from './dslink.ts';
