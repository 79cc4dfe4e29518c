/**
 * c104-buffer-split (seed 004 Fig. 4.8 and Fig. 4.7's token-passing
 * statement): each verdict rule with a control just outside its bound,
 * through the experiment's own check function. The runs (8×8, token-credit
 * TLM) take minutes; their figures are in docs/thesis-model.md#buffer-split.
 */
import { describe, expect, it } from 'vitest';
import { APPROACH, DROP, NOTICEABLE, splitChecks } from '../../harness/experiments/c104-buffer-split.ts';
import { fig412Checks, VANISH } from '../../harness/experiments/c104-fig412.ts';

const ok = (x: number) => ({ exchangesPerMs: x, converged: true });
const holds = (checks: ReturnType<typeof splitChecks>, id: string) => checks.find((c) => c.id === id)!.holds;

describe('c104-buffer-split verdict rules and controls', () => {
  const curve = (lo: number, hi: number, bestAt = 100) => new Map([[8, ok(lo)], [34, ok(990)], [bestAt, ok(1000)], [166, ok(990)], [198, ok(hi)]]);

  it(`extremes: both more than ${100 * DROP}% below the best holds; one end just inside fails`, () => {
    expect(holds(splitChecks(curve(989.9, 989.9), undefined), 'f4.8-extremes')).toBe(true);
    expect(holds(splitChecks(curve(990.1, 989.9), undefined), 'f4.8-extremes')).toBe(false);
    expect(holds(splitChecks(curve(989.9, 990.1), undefined), 'f4.8-extremes')).toBe(false);
  });

  it('best split: at least one packet (34 tokens) on each side holds; a best at input 17 or 183 fails', () => {
    expect(holds(splitChecks(curve(900, 900, 100), undefined), 'f4.8-best')).toBe(true);
    expect(holds(splitChecks(curve(900, 900, 166), undefined), 'f4.8-best')).toBe(true);
    expect(holds(splitChecks(new Map([[8, ok(900)], [17, ok(1000)], [100, ok(950)], [198, ok(900)]]), undefined), 'f4.8-best')).toBe(false);
    expect(holds(splitChecks(new Map([[8, ok(900)], [100, ok(950)], [183, ok(1000)], [198, ok(900)]]), undefined), 'f4.8-best')).toBe(false);
  });

  it(`198/2 within ±${100 * APPROACH}% of packet passing holds; 0.01% outside fails`, () => {
    const at = (dev: number) => holds(splitChecks(curve(900, 1000 * (1 + dev / 100)), ok(1000)), 'f4.8-198-packet');
    expect(at(100 * APPROACH)).toBe(true);
    expect(at(-100 * APPROACH)).toBe(true);
    expect(at(100 * APPROACH + 0.01)).toBe(false);
    expect(at(-100 * APPROACH - 0.01)).toBe(false);
  });

  it(`packet more than ${100 * NOTICEABLE}% below the balanced split holds; just inside fails`, () => {
    expect(holds(splitChecks(curve(900, 900), ok(1000 * (1 - NOTICEABLE) - 0.1)), 'f4.7-balanced')).toBe(true);
    expect(holds(splitChecks(curve(900, 900), ok(1000 * (1 - NOTICEABLE) + 0.1)), 'f4.7-balanced')).toBe(false);
  });
});

describe('c104-fig4.12 verdict rule and controls', () => {
  const at = (inp: number, bal: number) => fig412Checks((m) => (m === 'packet' ? 1000 : m === 'token-input' ? inp : bal))[0]!.holds;
  it(`all-input within ±${100 * VANISH}% of packet and closer than balanced holds; 0.1 outside, or not closer, fails`, () => {
    expect(at(1000 * (1 + VANISH), 1300)).toBe(true);
    expect(at(1000 * (1 - VANISH), 1300)).toBe(true);
    expect(at(1000 * (1 + VANISH) + 0.1, 1300)).toBe(false);
    expect(at(1000 * (1 - VANISH) - 0.1, 1300)).toBe(false);
    expect(at(1010, 1005)).toBe(false);
  });
});
