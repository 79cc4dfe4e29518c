/**
 * Two-phase routing in the token-credit mode of the T9000/C104 TLM
 * (harness/tlm/t9000-c104/token-network.ts; docs/thesis-model.md#two-phase-token-credit):
 * random header generation on the C104's T9000 inputs, phase 1 on its own
 * set of internal links, the loopback at the intermediate C104 whose input
 * deletes the random header, phase 2 on the second set. Held against the RTL
 * mesh with two-phase routing (docs/c104.md#two-phase) at zero load, each
 * source's random header range narrowed to one intermediate node on both
 * sides (`fixedIntermediates`), one of them the source itself: every stamp
 * equal. Controls: the TLM with the intermediates moved, and without the
 * loopback's cost (x-first routing), are not equal. ICEMU_FULL=1 runs the
 * 70-message set.
 */
import { describe, expect, it } from 'vitest';
import { runRtlMesh, runTlmMesh, zeroLoadDeviations } from '../../harness/compare/c104_rtl.ts';
import { c104ZeroLoadMessages } from '../../harness/compare/c104.ts';
import { runC104, TOKEN_CREDIT_PRESET } from '../../harness/tlm/t9000-c104/index.ts';
import { SyntheticProgram } from '../../harness/workloads/thesis-synthetic.ts';

const FULL = Boolean(process.env.ICEMU_FULL);

describe('token-credit two-phase routing vs the RTL at zero load, 4×4 mesh', () => {
  const msgs = c104ZeroLoadMessages(!FULL);
  // Node 7's intermediate is itself (phase 1 goes straight to the loopback).
  const inter = Array.from({ length: 16 }, (_, n) => (n === 7 ? 7 : (n * 7 + 3) % 16));
  const rtl = runRtlMesh(msgs, { side: 4, routing: 'two-phase', intermediates: inter });
  const tlm = runTlmMesh(msgs, { side: 4, ...TOKEN_CREDIT_PRESET, routing: 'two-phase', fixedIntermediates: inter });

  it('both deliver every message; every stamp equal (0…0 cycles)', () => {
    expect(rtl.complete && tlm.complete).toBe(true);
    for (const d of zeroLoadDeviations(rtl.times, tlm.times)) expect([d.stamp, d.min, d.max]).toEqual([d.stamp, 0, 0]);
  });

  it('control: other intermediates in the TLM are not equal', () => {
    const moved = runTlmMesh(msgs, { side: 4, ...TOKEN_CREDIT_PRESET, routing: 'two-phase', fixedIntermediates: inter.map((x) => (x + 1) % 16) });
    expect(zeroLoadDeviations(rtl.times, moved.times).every((d) => d.pass)).toBe(false);
  });

  it('control: dimension-order routing in the TLM is not equal', () => {
    const xy = runTlmMesh(msgs, { side: 4, ...TOKEN_CREDIT_PRESET });
    expect(zeroLoadDeviations(rtl.times, xy.times).every((d) => d.pass)).toBe(false);
  });
}, 600_000);

describe('token-credit two-phase routing under load', () => {
  const k = (value: number) => ({ law: 'constant' as const, value });
  const prog = () => new SyntheticProgram({ D: 4, d: 3, n: 1, c: k(2), m: k(1), M: k(64), mode: 'async-blocking', window: 'pm-d', startPhase: 'random', seed: 5 });

  it('delivers and acknowledges every message, deterministic for a network seed, and other seeds draw other intermediates', () => {
    const run = (networkSeed: number) => runC104(prog(), { side: 4, ...TOKEN_CREDIT_PRESET, routing: 'two-phase', networkSeed }, { fixedNs: 400_000, truncate: false });
    const a = run(2);
    expect(run(2).summary).toEqual(a.summary);
    expect(a.summary.data.count).toBeGreaterThan(300);
    expect(a.summary.ack.count).toBeGreaterThanOrEqual(a.summary.data.count - 16);
    expect(run(3).summary).not.toEqual(a.summary);
  });
});
