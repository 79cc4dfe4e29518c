/**
 * What saturates the fixed packet scheme (docs/buzzard-ch5.md "What
 * saturates the fixed packet scheme"), at the size of the full Fig. 5.12 run
 * (exp(512), 1024 ticks, 6-cube, seed 1, per-link delivery, 200 and 400
 * messages per node; about a minute on a loaded 2-core machine):
 *
 *   ICEMU_FULL=1 npx vitest run test/tlm/saturation.full.test.ts
 *
 * The resource report names PBU 1's 13 packet buffers (full most of the
 * time; dimension 1's slot waits longest at the source), and the control
 * that makes it the cause: with 200 buffers per PBU the same point is stable
 * (the mean first time no longer grows with the run length), with 13 it
 * grows by more than the stability rule's 20%.
 */
import { describe, expect, it } from 'vitest';
import { chapter5Workload } from '../../harness/tlm/sweep.ts';
import { runTlm } from '../../harness/tlm/buzzard-tlm.ts';
import { STABILITY_GROWTH } from '../../harness/experiments/buzzard-ch5-common.ts';

const run = (mpn: number, buffersPerPbu: number) =>
  runTlm(chapter5Workload(512, 1024, { messagesPerNode: mpn, seed: 1, cubeDegree: 6 }), { transport: 'fixed-packet', packetBytes: 32, buffersPerPbu, delivery: 'per-link', recordEvents: false }).stats;

describe.skipIf(!process.env.ICEMU_FULL)('the fixed packet scheme at 1024 ticks (ICEMU_FULL=1)', () => {
  it('PBU 1 is the full one and dimension 1 waits longest at the source; 200 buffers make the point stable, 13 do not', () => {
    const s = run(200, 13);
    const full = s.resources.pbuFullFraction;
    expect(full.indexOf(Math.max(...full))).toBe(0);
    expect(full[0]!).toBeGreaterThan(0.5);
    expect(full[5]!).toBeLessThan(0.05);
    const wait = s.resources.sourceWaitBySlot.map((x) => x ?? 0);
    expect(wait.indexOf(Math.max(...wait))).toBe(0);
    expect(s.measuredLinkUtilisation).toBeLessThan(0.45);
    const grows13 = run(400, 13).meanFirst / s.meanFirst - 1;
    const big = run(200, 200);
    const grows200 = run(400, 200).meanFirst / big.meanFirst - 1;
    expect(grows13).toBeGreaterThan(STABILITY_GROWTH);
    expect(Math.abs(grows200)).toBeLessThan(0.05);
  }, 900_000);
});
