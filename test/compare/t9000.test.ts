/**
 * `icemu compare t9000-uni | t9000-bi` (RTL T9000 pair vs Eqs 4.1 / 4.2,
 * harness/compare/t9000.ts) at the quick size: each run passes; each
 * declared bound has a control just outside it (the closed form's periods
 * scaled so that the means land 0.1 point past the bound) that fails, and
 * the same scaling stopping inside passes; real-model controls: the
 * bidirectional stream on links that send NULLs (T9000_THESIS_LINKS, the
 * 4 + up to 7 cycles per packet of the NULL wait) fails the lock-step bound,
 * and the unidirectional stream judged against Eq 4.2 fails Eq 4.1's.
 */
import { describe, expect, it } from 'vitest';
import { compareTraces } from '../../harness/compare/join.ts';
import { checkTolerances, type Tolerance } from '../../harness/compare/tolerance.ts';
import { BI_SIZES, eqPeriod, runT9000Stream, streamSides, STREAM_MESSAGES, T9000_PRESETS } from '../../harness/compare/t9000.ts';
import { T9000_THESIS_LINKS } from '../../harness/rtl/t9000_pair.ts';
import type { DsDirection } from '../../harness/models/dslink.ts';

const preset = (n: string) => T9000_PRESETS.find((p) => p.name === n)!;
const lastMeans = (t: readonly Tolerance[]) => t.find((x) => x.metric === 'last' && x.of === 'means')!;

function verdict(a: ReturnType<typeof streamSides>['a'], b: ReturnType<typeof streamSides>['b'], t: Tolerance): { pass: boolean; value: number } {
  const r = checkTolerances(compareTraces(a, b, { unit: 'cycles', metrics: ['last'] }), [t]);
  return { pass: r.pass, value: r.checks[0]!.value };
}

describe.each([['t9000-uni', 'uni'], ['t9000-bi', 'bi']] as const)('icemu compare %s --quick', (name, direction: DsDirection) => {
  const p = preset(name);
  const run = p.run({ quick: true, quiet: true });

  it('passes: every message delivered byte-exact, mean period within the Table 4.1 bound', () => {
    expect(run.result.check.failures.map((f) => f.message)).toEqual([]);
    expect(run.result.check.pass).toBe(true);
    expect(run.result.comparison.metrics[0]!.joined).toBe((direction === 'bi' ? 2 : 1) * (STREAM_MESSAGES.quick - 3));
  });

  it('controls: the closed form scaled 0.1 point past each end of the bound fails; 0.05 point inside passes', () => {
    const t = lastMeans(p.tolerances);
    const { a } = run.sides;
    const m = run.result.comparison.metrics.find((x) => x.metric === 'last')!;
    // B's periods × f put the relative difference of the means at (1 + r)·(mean A / mean B)·f − 1
    const at = (r: number) => {
      const f = ((1 + r) * m.a.mean) / m.b.mean;
      const b = { ...run.sides.b, events: run.sides.b.events.map((e) => ({ ...e, t: e.t * f })), generation: new Map([...run.sides.b.generation!].map(([k, g]) => [k, g * f])) };
      return verdict(a, b, t);
    };
    for (const bound of [t.min!, t.max!]) {
      const out = bound === t.max ? bound + 0.001 : bound - 0.001;
      const inn = bound === t.max ? bound - 0.0005 : bound + 0.0005;
      expect(at(out).pass, `${name} at ${out}`).toBe(false);
      expect(at(inn).pass, `${name} at ${inn}`).toBe(true);
    }
  });
}, 600_000);

describe('t9000 compare presets: real-model controls', () => {
  it('bi lock-step on links with NULLs (T9000_THESIS_LINKS) falls below the bound', () => {
    const run = runT9000Stream('bi', BI_SIZES, STREAM_MESSAGES.quick, T9000_THESIS_LINKS);
    const { a, b } = streamSides(run, 'bi');
    const r = verdict(a, b, lastMeans(preset('t9000-bi').tolerances));
    expect(r.pass).toBe(false);
    expect(r.value).toBeLessThan(-0.0138);
  });

  it('the uni stream judged against Eq 4.2 instead of Eq 4.1 fails', () => {
    const run = runT9000Stream('uni', [4, 32, 64], STREAM_MESSAGES.quick);
    const ok = streamSides(run, 'uni');
    const wrong = streamSides(run, 'uni', (m) => eqPeriod(m, 'bi'));
    const t = lastMeans(preset('t9000-uni').tolerances);
    expect(verdict(ok.a, ok.b, t).pass).toBe(true);
    expect(verdict(wrong.a, wrong.b, t).pass).toBe(false);
  });
});
