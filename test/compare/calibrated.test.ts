/**
 * calibrated-light --quick (6-cube, 512 B every 9216 ticks, 20 000 ticks of
 * generation, 114 messages): the RTL-calibrated TLM against the RTL. The
 * declared tolerances pass (mean first −0.35%, mean last −0.03% measured,
 * seed 1), and negative controls on the same RTL trace fail them: the TLM
 * without the control unit's injection time (first −4.8%), and the
 * seed-level TLM timing run in cycles (32-byte packets, 4-byte hops).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compareTraces } from '../../harness/compare/join.ts';
import { findPreset, type PresetRun } from '../../harness/compare/presets.ts';
import { checkTolerances } from '../../harness/compare/tolerance.ts';
import type { SideTrace } from '../../harness/compare/extract.ts';
import { runTlmCalibrated, TLM_CH5_DEFAULTS } from '../../harness/tlm/index.ts';
import type { TlmConfig } from '../../harness/tlm/config.ts';

describe('calibrated-light --quick: RTL vs RTL-calibrated TLM', () => {
  let run: PresetRun;
  // ~20 s of CPU (an RTL run of the preset): 60 s of wall time was missed once on a CI machine at load 12.
  beforeAll(() => {
    run = findPreset('calibrated-light')!.run({ quick: true, seed: 1, quiet: true });
  }, 300_000);
  const rejudge = (over: Partial<TlmConfig>) => {
    const tlm = runTlmCalibrated(run.workload, 'quasi-adaptive', over);
    const b: SideTrace = { ...run.sides.b, events: tlm.events! };
    return checkTolerances(compareTraces(run.sides.a, b, { workload: run.workload, unit: 'cycles' }), run.result.tolerances);
  };

  it('passes: every message delivered, mean first and last within 2%, hops and acceptance exact in the median', () => {
    const c = run.result.comparison;
    expect(c.a.messagesComplete).toBe(run.workload.messages.length);
    expect(run.workload.messages.length).toBeGreaterThan(100);
    expect(run.result.check.failures.map((f) => f.message)).toEqual([]);
    const first = run.result.check.checks.find((x) => x.tolerance.metric === 'first')!;
    expect(Math.abs(first.value)).toBeLessThan(0.02);
    // the zero-load parts are identical: the calibrated TLM's closed form is the RTL's
    expect(c.metrics.find((m) => m.metric === 'first-zl')!.abs.absMax).toBe(0);
  });
  it('negative control: without the 21-cycle injection the mean first time is more than 2% early', () => {
    const r = rejudge({ injectionTicks: 0 });
    expect(r.failures.map((f) => f.tolerance.metric)).toContain('first');
    expect(r.failures.find((f) => f.tolerance.metric === 'first')!.value).toBeLessThan(-0.02);
  });
  it('negative control: the seed-level timing (32-byte packets, 8+4-cycle hops, no framing, no control unit) fails', () => {
    const seedLevel = { ...TLM_CH5_DEFAULTS, ticksPerByte: 9, recordEvents: true };
    const r = rejudge(seedLevel);
    expect(r.pass).toBe(false);
    expect(r.failures.map((f) => f.tolerance.metric)).toEqual(expect.arrayContaining(['first', 'per-hop', 'queued']));
  });
});
