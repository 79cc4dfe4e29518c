/**
 * calibrated-heavy at full size (6-cube, 512 B every 2560 ticks, 40 000
 * ticks of generation, ~980 messages; the RTL takes ~35 s a seed on a quiet
 * machine), seeds 1–3: the RTL-calibrated TLM's mean first-packet and mean
 * last-byte times within 2% of the RTL's (measured: seed 1 −0.19 % / −0.03 %,
 * seed 2 −0.03 % / −0.30 %, seed 3 −0.86 % / −0.23 %). Negative control on
 * seed 1's RTL trace: without the PBU's early release on links and the
 * control unit's receive delay (pbuReleaseTicks 0, sendRxDelayTicks 0) the
 * mean first time is outside the bound (+2.35 %)
 * (docs/buzzard-ch5.md#rtl-calibrated-tlm).
 *
 *   ICEMU_FULL=1 npx vitest run test/compare/calibrated-heavy.full.test.ts
 */
import { describe, expect, it } from 'vitest';
import { compareTraces } from '../../harness/compare/join.ts';
import { findPreset } from '../../harness/compare/presets.ts';
import { checkTolerances } from '../../harness/compare/tolerance.ts';
import type { SideTrace } from '../../harness/compare/extract.ts';
import { runTlmCalibrated } from '../../harness/tlm/index.ts';

describe.skipIf(!process.env.ICEMU_FULL)('calibrated-heavy, seeds 1–3 (ICEMU_FULL=1)', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: every tolerance holds (mean first and last within 2%)${seed === 1 ? '; control: without pbuReleaseTicks / sendRxDelayTicks the mean first is outside' : ''}`, () => {
      const run = findPreset('calibrated-heavy')!.run({ seed, quiet: true });
      expect(run.workload.messages.length).toBeGreaterThan(900);
      expect(run.result.check.failures.map((f) => f.message)).toEqual([]);
      if (seed !== 1) return;
      const tlm = runTlmCalibrated(run.workload, 'quasi-adaptive', { pbuReleaseTicks: 0, sendRxDelayTicks: 0 });
      const b: SideTrace = { ...run.sides.b, events: tlm.events! };
      const r = checkTolerances(compareTraces(run.sides.a, b, { workload: run.workload, unit: 'cycles' }), run.result.tolerances);
      const first = r.failures.find((f) => f.tolerance.metric === 'first');
      expect(first?.value).toBeGreaterThan(0.02);
    }, 900_000);
  }
});

/**
 * calibrated-light and calibrated-moderate at full size (seed 1): the same
 * 2% tolerances (measured session 17: light −0.21 % / −0.01 %, moderate
 * +0.17 % / −0.03 %); control on each RTL trace: the TLM without the control
 * unit's 21-cycle injection time (injectionTicks 0) puts the mean first
 * outside the bound (early). Passed in session 18 (114 s + 121 s, load ~9).
 */
describe.skipIf(!process.env.ICEMU_FULL)('calibrated-light and calibrated-moderate, seed 1 (ICEMU_FULL=1)', () => {
  for (const name of ['calibrated-light', 'calibrated-moderate']) {
    it(`${name}: every tolerance holds; control: without the injection time the mean first is more than 2% early`, () => {
      const run = findPreset(name)!.run({ seed: 1, quiet: true });
      expect(run.result.check.failures.map((f) => f.message)).toEqual([]);
      const tlm = runTlmCalibrated(run.workload, 'quasi-adaptive', { injectionTicks: 0 });
      const b: SideTrace = { ...run.sides.b, events: tlm.events! };
      const r = checkTolerances(compareTraces(run.sides.a, b, { workload: run.workload, unit: 'cycles' }), run.result.tolerances);
      const first = r.failures.find((f) => f.tolerance.metric === 'first');
      expect(first?.value).toBeLessThan(-0.02);
    }, 900_000);
  }
});
