/**
 * Every declared tolerance of the `icemu compare` presets pinned by negative
 * controls just outside it: a comparison whose checked statistic sits at the
 * bound passes, one a step beyond it (1 cycle for the exact zero-load
 * metrics, 1 percentage point for relative bounds, 1 cycle for absolute
 * medians) fails and names the metric. Widening any bound (e.g. fabric 0 →
 * ±2, ch5 first [0.1, 0.3] → [0, 0.9]) makes one of these fail. The checked
 * values are set directly (a synthetic comparison), so this file runs no model;
 * the real-trace controls are in zero_load.test.ts and ch5.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Comparison, MetricName } from '../../harness/compare/join.ts';
import { findPreset } from '../../harness/compare/presets.ts';
import type { Summary, SummaryStat } from '../../harness/compare/stats.ts';
import { checkTolerances, type Tolerance } from '../../harness/compare/tolerance.ts';

function summaryAt(stat: SummaryStat, v: number): Summary {
  const s = { count: 1, mean: 0, p50: 0, p90: 0, p99: 0, min: 0, max: 0, absMean: 0, absMax: 0 };
  return { ...s, [stat]: v };
}

/** A comparison whose only metric has `stat` of its abs or rel deviation = v (and 'missing' messages = missing). */
function fake(metric: MetricName, of: 'abs' | 'rel' | 'means', stat: SummaryStat, v: number, missing = 0): Comparison {
  const zero = summaryAt(stat, 0);
  // 'means': side A's mean 1000, side B's 1000·(1 + v)
  const a = of === 'means' ? { ...zero, mean: 1000 } : zero;
  const b = of === 'means' ? { ...zero, mean: 1000 * (1 + v) } : zero;
  const m = { metric, level: 'message', what: '', unit: 'cycles', joined: 1, onlyA: 0, onlyB: 0, a, b, abs: of === 'abs' ? summaryAt(stat, v) : zero, rel: of === 'rel' ? summaryAt(stat, v) : zero, worst: null };
  return { metrics: [m], missing: { onlyA: Array.from({ length: missing }, (_, k) => k), onlyB: [] }, a: { label: 'A' }, b: { label: 'B' } } as unknown as Comparison;
}

interface Pin {
  readonly metric: MetricName | 'missing';
  readonly stat?: SummaryStat;
  readonly of?: 'abs' | 'rel' | 'means';
  /** values that must pass (the bounds themselves) */
  readonly inside: readonly number[];
  /** values just outside that must fail */
  readonly outside: readonly number[];
}

function verdict(tols: readonly Tolerance[], p: Pin, v: number): { pass: boolean; failed: string[] } {
  const mine = tols.filter((t) => t.metric === p.metric && (p.metric === 'missing' || ((t.of ?? 'abs') === (p.of ?? 'abs') && (t.of === 'means' || (t.stat ?? 'absMax') === p.stat))));
  expect(mine.length, `${p.metric} ${p.of ?? 'abs'} ${p.stat ?? ''} is declared once`).toBe(1);
  const c = p.metric === 'missing' ? fake('first', 'abs', 'absMax', 0, v) : fake(p.metric, p.of ?? 'abs', p.stat ?? 'mean', v);
  const r = checkTolerances(c, mine);
  return { pass: r.pass, failed: r.failures.map((f) => f.tolerance.metric) };
}

const EXACT_ZERO = (metric: MetricName): Pin => ({ metric, stat: 'absMax', inside: [0], outside: [1, 2] });

const PINS: Record<string, readonly Pin[]> = {
  'zero-load': [
    { metric: 'missing', inside: [0], outside: [1] },
    ...(['fabric', 'per-hop', 'inject', 'queued', 'first', 'last', 'last-first'] as const).map(EXACT_ZERO),
  ],
};
const CH5: readonly Pin[] = [
  { metric: 'missing', inside: [0], outside: [1] },
  { metric: 'queued', stat: 'p50', inside: [-11], outside: [-12, -10] },
  { metric: 'per-hop', stat: 'p50', inside: [23], outside: [22, 24] },
  { metric: 'first', stat: 'p50', of: 'rel', inside: [0.1, 0.3], outside: [0.09, 0.31] },
  { metric: 'last', stat: 'p50', of: 'rel', inside: [-0.05, 0.01], outside: [-0.06, 0.02] },
  { metric: 'first-wait', stat: 'p50', inside: [-25, 25], outside: [-26, 26] },
  { metric: 'last-wait', stat: 'p50', inside: [-50, 50], outside: [-51, 51] },
  { metric: 'link-utilisation', stat: 'mean', of: 'rel', inside: [-0.07, -0.045], outside: [-0.08, -0.035] },
  { metric: 'throughput', stat: 'mean', of: 'rel', inside: [-0.05, 0.05], outside: [-0.06, 0.06] },
];
PINS['ch5-light'] = CH5;
PINS['ch5-moderate'] = CH5;
const CALIBRATED: readonly Pin[] = [
  { metric: 'missing', inside: [0], outside: [1] },
  { metric: 'first', of: 'means', inside: [-0.02, 0.02, 0], outside: [-0.021, 0.021] },
  { metric: 'last', of: 'means', inside: [-0.02, 0.02, 0], outside: [-0.021, 0.021] },
  { metric: 'per-hop', stat: 'p50', inside: [0], outside: [-1, 1] },
  { metric: 'queued', stat: 'p50', inside: [0], outside: [-1, 1] },
];
for (const name of ['calibrated-light', 'calibrated-moderate', 'calibrated-heavy']) PINS[name] = CALIBRATED;
// C104 presets (harness/compare/c104.ts): RTL C104 mesh vs the TLM's token-credit mode.
const range = (metric: MetricName, stat: SummaryStat, lo: number, hi: number): Pin => ({ metric, stat, inside: [lo, hi], outside: [lo - 1, hi + 1] });
PINS['c104-zero-load'] = [{ metric: 'missing', inside: [0], outside: [1] }, range('first', 'min', 0, 0), range('first', 'max', 0, 0), range('last', 'min', 0, 0), range('last', 'max', 0, 0)];
const means = (metric: MetricName, b: number): Pin => ({ metric, of: 'means', inside: [-b, b, 0], outside: [-b - 0.001, b + 0.001] });
PINS['c104-light'] = [{ metric: 'missing', inside: [0], outside: [1] }, means('first', 0.03), means('last', 0.03), range('last', 'p50', -10, 10)];
PINS['c104-moderate'] = [{ metric: 'missing', inside: [0], outside: [1] }, means('first', 0.05), means('last', 0.05), range('last', 'p50', -15, 15)];
// T9000 pair presets (harness/compare/t9000.ts): RTL streams vs Eqs 4.1 / 4.2.
PINS['t9000-uni'] = [{ metric: 'missing', inside: [0], outside: [1] }, means('last', 0.0064)];
// (−0.0138 itself comes out as −0.01380000000000014 in the synthetic means, so the inside pin stops a hair short of it)
PINS['t9000-bi'] = [{ metric: 'missing', inside: [0], outside: [1] }, { metric: 'last', of: 'means', inside: [-0.013799, 0], outside: [-0.0139, 0.0001] }];

describe('preset tolerances pinned by negative controls just outside them', () => {
  for (const [name, pins] of Object.entries(PINS)) {
    it(`${name}: every declared tolerance passes at its bounds and fails one step outside`, () => {
      const preset = findPreset(name)!;
      // every declared tolerance has a pin (a new one must be pinned too)
      const key = (t: { metric: string; stat?: string; of?: string }) => (t.metric === 'missing' ? 'missing' : t.of === 'means' ? `${t.metric}/means` : `${t.metric}/${t.of ?? 'abs'}/${t.stat ?? 'absMax'}`);
      expect(new Set(preset.tolerances.map(key))).toEqual(new Set(pins.map(key)));
      for (const p of pins) {
        for (const v of p.inside) expect(verdict(preset.tolerances, p, v), `${name} ${p.metric} = ${v} inside`).toEqual({ pass: true, failed: [] });
        for (const v of p.outside) expect(verdict(preset.tolerances, p, v), `${name} ${p.metric} = ${v} outside`).toEqual({ pass: false, failed: [p.metric] });
      }
    });
  }
});
