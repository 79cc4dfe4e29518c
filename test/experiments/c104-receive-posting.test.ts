/**
 * The two readings of when a loosely synchronous process posts its receives
 * (`receivePosting`, docs/thesis-model.md#synchronisation), measured on the
 * standard setup at the thesis's size (16×16, seed 1, each point to ±1%):
 * the figures docs/thesis-model.md#receive-posting reports. About a minute
 * of runs, so ICEMU_FULL=1 runs them; each claim is asserted for both
 * readings, the other reading being its control where they differ.
 */
import { describe, expect, it } from 'vitest';
import { runStdSpec, type StdResult } from '../../harness/experiments/c104-standard.ts';
import { TABLE_5_1, TABLE_5_2 } from '../../harness/experiments/c104-ch5.ts';
import { TABLE_6_1, TABLE_6_2, theta } from '../../harness/experiments/c104-ch6.ts';
import { standardSetup } from '../../harness/workloads/thesis-synthetic.ts';
import type { ReceivePosting } from '../../harness/tlm/t9000-c104/index.ts';

const Q = { maxNs: 50_000_000, precision: 0.01 };
const CS = [1, 2, 4, 8, 10, 12, 14, 16, 18, 30, 60, 100, 120];
/** The seed's loosely synchronous rate at c: Table 5.1, else Table 6.1. */
const seedRate = (c: number): number => TABLE_5_1[c]?.[0] ?? TABLE_6_1[c]![0];

describe.skipIf(!process.env.ICEMU_FULL)('receivePosting on the standard setup (ICEMU_FULL=1; about a minute)', () => {
  const runs = new Map<string, StdResult>();
  const get = (r: ReceivePosting, c: number, model: 'full' | 'throttled' = 'full'): StdResult => {
    const key = `${r}/${c}/${model}`;
    if (!runs.has(key)) runs.set(key, runStdSpec(standardSetup(c, 'loosely', 1), model, Q, { receivePosting: r }));
    return runs.get(key)!;
  };
  const devs = (r: ReceivePosting): number[] => CS.map((c) => get(r, c).throughput / seedRate(c) - 1);

  it("loosely rates against Tables 5.1 / 6.1: 'after-sends' −3.1 … +1.8% (mean −0.8%); 'iteration-start' +0.8 … +4.3% (mean +2.4%)", () => {
    const a = devs('after-sends');
    const i = devs('iteration-start');
    expect(Math.min(...a)).toBeGreaterThan(-0.035);
    expect(Math.max(...a)).toBeLessThan(0.02);
    expect(Math.abs(a.reduce((s, x) => s + x, 0) / a.length)).toBeLessThan(0.01);
    expect(Math.min(...i)).toBeGreaterThan(0.005);
    expect(Math.max(...i)).toBeGreaterThan(0.04);
    expect(i.reduce((s, x) => s + x, 0) / i.length).toBeGreaterThan(0.02);
  }, 600_000);

  it("Table 5.2's loosely cells over the seed's own asynchronous column (c = 2–12): 'after-sends' within 1.5 points, 'iteration-start' +1.2 … +3.4", () => {
    for (const c of [2, 4, 8, 12]) {
      const cell = (r: ReceivePosting) => (100 * get(r, c).throughput) / TABLE_5_1[c]![2] - TABLE_5_2[c]![0];
      expect(Math.abs(cell('after-sends'))).toBeLessThan(1.5);
      expect(cell('iteration-start')).toBeGreaterThan(1.1);
    }
  }, 600_000);

  it("routed lifetimes at c = 30 and 100 µs (Table 6.2: 4.2, 4.1): 'iteration-start' 4.5–5.1% below, 'after-sends' 14–17% above; θ_t at c = 100: 64 against 52 (seed 58)", () => {
    for (const c of [30, 100]) {
      const seed = TABLE_6_2[c]![0];
      expect(Math.abs(get('iteration-start', c).routedAll! / seed - 1)).toBeLessThan(0.055);
      const after = get('after-sends', c).routedAll! / seed - 1;
      expect(after).toBeGreaterThan(0.13);
      expect(after).toBeLessThan(0.18);
    }
    const t = (r: ReceivePosting) => theta(get(r, 100), get(r, 100, 'throttled')).t!;
    expect(t('iteration-start')).toBeGreaterThan(63.5);
    expect(t('iteration-start')).toBeLessThan(64.5);
    expect(t('after-sends')).toBeGreaterThan(51);
    expect(t('after-sends')).toBeLessThan(53);
  }, 600_000);
});
