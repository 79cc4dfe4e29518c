/**
 * `icemu compare c104-zero-load | c104-light | c104-moderate` (RTL C104 4×4
 * mesh vs the TLM's token-credit mode, harness/compare/c104.ts) at their
 * quick sizes: each run passes, and every declared tolerance has a control
 * just outside it — the TLM's times moved so that the checked value lands 1%
 * (means) or 1 cycle (p50, min, max) past the bound — that fails.
 */
import { describe, expect, it } from 'vitest';
import { C104_PRESETS } from '../../harness/compare/c104.ts';
import { compareTraces } from '../../harness/compare/join.ts';
import { checkTolerances, type Tolerance } from '../../harness/compare/tolerance.ts';
import type { SideTrace } from '../../harness/compare/extract.ts';
import type { PresetRun } from '../../harness/compare/presets.ts';


/** Delay every TLM stamp after the send by `f` of its distance from the send, plus `c` cycles. */
function stretched(run: PresetRun, f: number, c: number): SideTrace {
  const gen = run.sides.b.generation!;
  return { ...run.sides.b, events: run.sides.b.events.map((e) => (e.kind === 'message-queued' ? e : { ...e, t: e.t + f * (e.t - gen.get(e.msg)!) + c })) };
}

function check(run: PresetRun, b: SideTrace, tol: readonly Tolerance[]) {
  return checkTolerances(compareTraces(run.sides.a, b, { unit: 'cycles', metrics: ['first', 'last', 'last-first', 'throughput'] }), tol);
}

describe.each(['c104-zero-load', 'c104-light', 'c104-moderate'])('icemu compare %s --quick', (name) => {
  const preset = C104_PRESETS.find((p) => p.name === name)!;
  const run = preset.run({ quick: true, quiet: true });
  const tol = preset.tolerances;

  it('passes: every message delivered on both sides, means and median within the declared bounds', () => {
    expect(run.result.check.failures.map((f) => f.message)).toEqual([]);
    expect(run.result.check.pass).toBe(true);
  });

  it('controls: a TLM 1% past a means bound, or 1 cycle past an absolute bound, fails that tolerance', () => {
    for (const t of tol) {
      if (t.metric === 'missing') continue;
      const m = run.result.comparison.metrics.find((x) => x.metric === t.metric)!;
      let b: SideTrace;
      if (t.of === 'means') {
        // Scale the TLM's times so that its mean lands at (1 + max + 0.01) × the RTL's mean.
        const target = (1 + t.max! + 0.01) * m.a.mean;
        b = stretched(run, target / m.b.mean - 1, 0);
      } else {
        b = stretched(run, 0, t.max! - m.abs.p50 + 1);
      }
      const r = check(run, b, [t]);
      expect(r.pass, `${t.metric} ${t.of ?? t.stat}`).toBe(false);
      // …and the same shift stopping inside the bound passes.
      const inside = t.of === 'means' ? stretched(run, ((1 + t.max! - 0.005) * m.a.mean) / m.b.mean - 1, 0) : stretched(run, 0, t.max! - m.abs.p50);
      expect(check(run, inside, [t]).pass, `${t.metric} ${t.of ?? t.stat} inside`).toBe(true);
    }
  });

  it('control: a message missing on one side fails', () => {
    const drop = run.sides.b.events.find((e) => e.kind === 'message-complete')!.msg;
    const b = { ...run.sides.b, events: run.sides.b.events.filter((e) => !(e.kind === 'message-complete' && e.msg === drop)) };
    expect(check(run, b, tol.filter((t) => t.metric === 'missing')).pass).toBe(false);
  });
}, 600_000);
