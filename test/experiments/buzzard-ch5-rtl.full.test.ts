/**
 * `icemu experiment buzzard-fig5.12 --model rtl --messages-per-node 4` (all
 * 27 points, the 18 packet points on the RTL; shards 0/2 and 1/2 one after
 * the other in this process: 760 s on a loaded 2-core machine):
 *
 *   ICEMU_FULL=1 npx vitest run test/experiments/buzzard-ch5-rtl.full.test.ts
 *
 * Measured (seed 1): every RTL point delivers all 256 messages; the
 * calibrated TLM's mean last is within 0.8% of the RTL's at every RTL point
 * (rule: 1%), its mean first within 4.5% (1536 ticks, quasi-adaptive; rule:
 * 5%); the seed-level TLM, a model of the seed's simulator, is outside both
 * (negative control).
 *
 * buzzard-fig5.13 the same way (exp(2048), 29 points; session 17 ran its
 * shards one at a time at load 12–14: 14 of its RTL points in 1156 s +
 * 883 s + 830 s held, mean last within 0.19%, mean first within 3.4%; the
 * last shard was not run in that session, so this case has not yet run to
 * the end: docs/buzzard-ch5.md#rtl-runs).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { icemuExperiment, readResult, removeDir, tempDir } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

type Cell = number | null;

/** `icemu experiment <fig> --model rtl --messages-per-node 4`, shards 0/2 and 1/2 one after the other, merged. */
async function runOnRtl(fig: string): Promise<ReturnType<typeof readResult>> {
  const d = tempDir(`${fig}-rtl`);
  dirs.push(d);
  for (const i of [0, 1]) expect((await icemuExperiment([fig, '--model', 'rtl', '--messages-per-node', '4', '--shard', `${i}/2`, '--out', d, '--jobs', '1', '--quiet'])).code).toBe(0);
  expect((await icemuExperiment(['merge', d, '--quiet'])).code).toBe(0);
  return readResult(d, fig);
}

/** The calibrated TLM within 1% (mean last) and 5% (mean first) of the RTL at every RTL point; the seed-level TLM outside both (negative control). */
function expectAgreement(r: ReturnType<typeof readResult>): void {
  const data = r.report.data as unknown as { meanFirstTicks: Record<string, Cell[]>; meanLastTicks: Record<string, Cell[]> };
  const worst = (col: Record<string, Cell[]>, m: string): number =>
    Math.max(...col.rtl!.map((x, k) => (x === null ? 0 : Math.abs(col[m]![k]! / x - 1))));
  expect(worst(data.meanLastTicks, 'calibrated')).toBeLessThanOrEqual(0.01);
  expect(worst(data.meanFirstTicks, 'calibrated')).toBeLessThanOrEqual(0.05);
  expect(worst(data.meanLastTicks, 'seedLevel')).toBeGreaterThan(0.01);
  expect(worst(data.meanFirstTicks, 'seedLevel')).toBeGreaterThan(0.05);
}

describe.skipIf(!process.env.ICEMU_FULL)('buzzard-fig5.12 on the RTL (ICEMU_FULL=1)', () => {
  it('RTL beside both TLM modes: the calibrated TLM within 1% (last) and 5% (first) of the RTL at every RTL point; the seed-level TLM is not', async () => {
    const r = await runOnRtl('buzzard-fig5.12');
    const pts = r.points as unknown as { result: { rtl: { delivered: number; messages: number } | null } }[];
    const rtl = pts.filter((p) => p.result.rtl !== null);
    expect(rtl).toHaveLength(18);
    for (const p of rtl) expect(p.result.rtl!.delivered).toBe(p.result.rtl!.messages);
    expectAgreement(r);
  }, 3_600_000);

  it('buzzard-fig5.13: the calibrated TLM within 1% (last) and 5% (first) of the RTL at every RTL point (every packet point the RTL can build); the seed-level TLM is not', async () => {
    const r = await runOnRtl('buzzard-fig5.13');
    const pts = r.points as unknown as { point: { transport: string; buffersPerPbu: number; packetBytes: number }; result: { rtl: { delivered: number; messages: number } | null } }[];
    const buildable = pts.filter((p) => p.point.transport !== 'wormhole' && p.point.buffersPerPbu <= 16 && [32, 64].includes(p.point.packetBytes));
    expect(buildable.length).toBeGreaterThanOrEqual(10);
    for (const p of buildable) expect(p.result.rtl).not.toBeNull();
    for (const p of buildable) expect(p.result.rtl!.delivered).toBe(p.result.rtl!.messages);
    expectAgreement(r);
  }, 7_200_000);
});
