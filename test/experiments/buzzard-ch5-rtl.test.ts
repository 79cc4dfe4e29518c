/**
 * `icemu experiment buzzard-fig5.1x --model rtl` (harness/experiments/buzzard-ch5-rtl.ts):
 * which points the RTL can build, one real RTL point beside both TLM modes on
 * the same workload, the side-by-side report with each model's checks, and
 * the option's one-line errors. The full RTL runs are behind ICEMU_FULL=1
 * (buzzard-ch5-rtl.full.test.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buzzardFig512, buzzardFig514 } from '../../harness/experiments/buzzard-ch5.ts';
import { assembleRtl, modelResults, reuseNote, rtlWhyNot, RTL_MPN, type Ch5RtlRes } from '../../harness/experiments/buzzard-ch5-rtl.ts';
import { RTL_TIMING_VERSION } from '../../rtl/buzzard/timing_version.ts';
import type { Ch5Params, Ch5Pt, Ch5Res } from '../../harness/experiments/buzzard-ch5-common.ts';
import { assembleTimes } from '../../harness/experiments/buzzard-ch5-times.ts';
import { readRtlResults } from '../../harness/experiments/buzzard-ch5-rtl-reuse.ts';
import { toJson } from '../../harness/experiments/types.ts';
import { icemuExperiment, removeDir, tempDir } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

const quickRtl = (mpn?: number): Ch5Params => buzzardFig512.params({ quick: true, model: 'rtl', messagesPerNode: mpn }) as Ch5Params;

describe('buzzard-fig5.* --model rtl', () => {
  it('the RTL builds packet schemes with 32/64-byte packets and 2..16 buffers, nothing else', () => {
    expect(rtlWhyNot({ transport: 'quasi-adaptive', packetBytes: 32, buffersPerPbu: 13 })).toBeNull();
    expect(rtlWhyNot({ transport: 'fixed-packet', packetBytes: 64, buffersPerPbu: 16 })).toBeNull();
    expect(rtlWhyNot({ transport: 'fixed-packet', packetBytes: 32, buffersPerPbu: 2 })).toBeNull();
    expect(rtlWhyNot({ transport: 'wormhole', packetBytes: 32, buffersPerPbu: 13 })).toMatch(/no wormhole/);
    expect(rtlWhyNot({ transport: 'quasi-adaptive', packetBytes: 32, buffersPerPbu: 17 })).toMatch(/2\.\.16/);
    expect(rtlWhyNot({ transport: 'quasi-adaptive', packetBytes: 32, buffersPerPbu: 1 })).toMatch(/2\.\.16/);
    expect(rtlWhyNot({ transport: 'quasi-adaptive', packetBytes: 128, buffersPerPbu: 13 })).toMatch(/32- or 64-byte/);
    // Fig. 5.14 in RTL mode: the 26-buffer variant and the large packets run on the calibrated TLM only.
    const q14 = buzzardFig514.params({ quick: true, model: 'rtl' }) as Ch5Params;
    const pts = buzzardFig514.points(q14);
    expect(pts.filter((p) => rtlWhyNot(p) === null).length).toBeGreaterThan(0);
    expect(pts.some((p) => p.buffersPerPbu === 26 && rtlWhyNot(p) !== null)).toBe(true);
  });

  it('defaults: 16 / 8 messages per node (quick 2 / 1), the TLM mode keeps its own', () => {
    expect(RTL_MPN).toEqual({ full: { 512: 16, 2048: 8 }, quick: { 512: 2, 2048: 1 } });
    expect(quickRtl().messagesPerNode).toBe(2);
    expect((buzzardFig512.params({ quick: false, model: 'rtl' }) as Ch5Params).messagesPerNode).toBe(16);
    expect((buzzardFig512.params({ quick: true }) as Ch5Params).model).toBe('tlm');
    expect((buzzardFig512.params({ quick: true }) as Ch5Params).messagesPerNode).toBe(8);
  });

  it('one RTL point (fixed packet, lightest load, 1 message per node) beside both TLM modes on the same workload', () => {
    const q = quickRtl(1);
    const pts = buzzardFig512.points(q);
    const k = pts.findIndex((p) => p.transport === 'fixed-packet' && p.meanGapTicks === 9216);
    const r = buzzardFig512.runPoint(pts[k]!, q) as Ch5RtlRes;
    expect(r.rtlWhyNot).toBeNull();
    const rtl = r.rtl!;
    expect(rtl.messages).toBe(64);
    expect(rtl.delivered).toBe(64);
    expect(r.calibrated.messages).toBe(64);
    expect(r.seedLevel.messages).toBe(64);
    // Same workload on all three: the same ideal utilisation; distinct runs: the RTL's means are its own.
    expect(rtl.idealU).toBe(r.seedLevel.idealU);
    expect(rtl.meanFirst).not.toBe(r.calibrated.meanFirst);
    // Light load: the calibrated TLM is near the RTL (measured +0.3% / +0.4% at 2 messages per node);
    // the seed-level TLM is not (12-tick hops vs 31 cycles, 32 vs 28 data bytes).
    expect(Math.abs(r.calibrated.meanLast! / rtl.meanLast! - 1)).toBeLessThan(0.03);
    expect(Math.abs(r.seedLevel.meanLast! / rtl.meanLast! - 1)).toBeGreaterThan(0.03);
    // A wormhole point has no RTL run.
    const wh = pts.findIndex((p) => p.transport === 'wormhole' && p.meanGapTicks === 9216);
    const rw = buzzardFig512.runPoint(pts[wh]!, q) as Ch5RtlRes;
    expect(rw.rtl).toBeNull();
    expect(rw.rtlWhyNot).toMatch(/no wormhole/);
  }, 120_000);

  it('--rtl-reuse: an earlier run\'s RTL result of the same point (seed, cube, workload, build) is taken, not run; the TLM columns run; any other point does not match', () => {
    const q = quickRtl(1);
    const pts = buzzardFig512.points(q);
    const k = pts.findIndex((p) => p.transport === 'fixed-packet' && p.meanGapTicks === 9216);
    const fresh = buzzardFig512.runPoint(pts[k]!, q) as Ch5RtlRes;
    expect(fresh.rtlReused).toBe(false);
    // A stored shard whose RTL result of that point is marked (meanFirst + 1000): reuse must return the mark.
    const d = tempDir('rtl-reuse');
    dirs.push(d);
    const marked = { ...fresh.rtl!, meanFirst: fresh.rtl!.meanFirst! + 1000 };
    const shard = { format: 'icemu-experiment-shard/1', experiment: 'buzzard-fig5.12', params: toJson(q), points: [{ index: k, point: pts[k], result: toJson({ ...fresh, rtl: marked }) }] };
    writeFileSync(join(d, 'buzzard-fig5.12.shard-0-of-1.json'), JSON.stringify(shard));
    writeFileSync(join(d, 'buzzard-fig5.12.run.json'), '{not json');
    const qr = { ...q, rtlReuse: d };
    const r = buzzardFig512.runPoint(pts[k]!, qr) as Ch5RtlRes;
    expect(r.rtlReused).toBe(true);
    expect(r.rtl!.meanFirst).toBe(marked.meanFirst);
    expect(r.rtl!.meanLast).toBe(fresh.rtl!.meanLast);
    expect(toJson(r.calibrated)).toEqual(toJson(fresh.calibrated));
    // The key: the same point at another messages-per-node count, seed or build is not in the map (control).
    const key = (mpn: number, seed: number, bufs: number): string => `${seed}/6/512/9216/${mpn}/${Math.max(1, Math.ceil(mpn / 2))}/fixed-packet/32/${bufs}`;
    const m = readRtlResults(d, (p, qq) => (p.meanBytes === qq.meanBytes ? qq.messagesPerNode : 99));
    expect([...m.keys()]).toEqual([key(1, 1, 13)]);
    for (const other of [key(2, 1, 13), key(1, 2, 13), key(1, 1, 12)]) expect(m.has(other)).toBe(false);
    // The result files of a real run reuse exactly what a fresh run gives (the RTL is deterministic): the unmarked result round-trips.
    const d2 = tempDir('rtl-reuse-exact');
    dirs.push(d2);
    writeFileSync(join(d2, 'buzzard-fig5.12.json'), JSON.stringify({ ...shard, points: [{ index: k, point: pts[k], result: toJson(fresh) }] }));
    const r2 = buzzardFig512.runPoint(pts[k]!, { ...q, rtlReuse: d2 }) as Ch5RtlRes;
    expect(r2.rtlReused).toBe(true);
    expect(toJson(r2.rtl)).toEqual(toJson(fresh.rtl));
    expect(r2.rtlVersion).toBe(RTL_TIMING_VERSION);
    expect(r2.rtlStaleVersion).toBeUndefined();
    expect(reuseNote(d2, [r2])).toMatch(/results of 1 of 1 RTL points were taken .* RTL version \d+;/);
    expect(reuseNote(d2, [r2])).not.toMatch(/another RTL version/);
  }, 120_000);

  it('--rtl-reuse: a stored result of another RTL version, or stored before versions, is run again, and the report says so (docs/buzzard-ch5.md#rtl-version)', () => {
    const q = quickRtl(1);
    const pts = buzzardFig512.points(q);
    const k = pts.findIndex((p) => p.transport === 'fixed-packet' && p.meanGapTicks === 9216);
    const fresh = buzzardFig512.runPoint(pts[k]!, q) as Ch5RtlRes;
    expect(fresh.rtlVersion).toBe(RTL_TIMING_VERSION);
    const marked = { ...fresh.rtl!, meanFirst: fresh.rtl!.meanFirst! + 1000 };
    const store = (name: string, result: object): string => {
      const d = tempDir(name);
      dirs.push(d);
      writeFileSync(join(d, 'buzzard-fig5.12.json'), JSON.stringify({ experiment: 'buzzard-fig5.12', params: toJson(q), points: [{ index: k, point: pts[k], result: toJson(result) }] }));
      return d;
    };
    // control: the same marked result under the current version is reused
    const same = buzzardFig512.runPoint(pts[k]!, { ...q, rtlReuse: store('rtl-v-same', { ...fresh, rtl: marked }) }) as Ch5RtlRes;
    expect(same.rtlReused).toBe(true);
    expect(same.rtl!.meanFirst).toBe(marked.meanFirst);
    // another version: not reused, the point's own result, the stale version named
    const other = buzzardFig512.runPoint(pts[k]!, { ...q, rtlReuse: store('rtl-v-other', { ...fresh, rtl: marked, rtlVersion: RTL_TIMING_VERSION + 1 }) }) as Ch5RtlRes;
    expect(other.rtlReused).toBe(false);
    expect(other.rtl!.meanFirst).toBe(fresh.rtl!.meanFirst);
    expect(other.rtlStaleVersion).toBe(RTL_TIMING_VERSION + 1);
    expect(reuseNote('D', [other])).toMatch(new RegExp(`results of 0 of 1 RTL points .* 1 point was stored there under another RTL version \\(${RTL_TIMING_VERSION + 1}\\) and run again`));
    // no version (stored before versions existed): not reused either
    const { rtlVersion: _drop, ...unversioned } = { ...fresh, rtl: marked };
    const old = buzzardFig512.runPoint(pts[k]!, { ...q, rtlReuse: store('rtl-v-none', unversioned) }) as Ch5RtlRes;
    expect(old.rtlReused).toBe(false);
    expect(old.rtl!.meanFirst).toBe(fresh.rtl!.meanFirst);
    expect(old.rtlStaleVersion).toBeNull();
    expect(reuseNote('D', [old, other])).toMatch(/2 points were stored there under another RTL version \(none \(stored before RTL versions\), \d+\)/);
  }, 120_000);

  it('the report: side-by-side table, each model\'s checks prefixed, the RTL falling back to the calibrated TLM where it has no point', () => {
    const q = quickRtl();
    const pts: Ch5Pt[] = buzzardFig512.points(q);
    // Synthetic results: every model its own times; the RTL 10% above the calibrated TLM.
    const fake = (p: Ch5Pt, scale: number): Ch5Res => {
      const f = (p.transport === 'wormhole' ? 1000 : 300) * scale * (1 + 1000 / p.meanGapTicks);
      const l = f + 1000 * scale;
      return {
        idealU: 512 / p.meanGapTicks, measuredU: 0.1, nipLoad: null, meanFirst: f, meanLast: l, meanLastMinusFirst: l - f, maxFirst: f, maxLast: l,
        messages: 128, delivered: 128, contraryMessages: 0, orderViolations: 0, deadlock: false, lastGeneration: 1, makespan: 2,
        half: { messagesPerNode: 1, meanFirst: f, meanLast: l }, growth: { first: 0, last: 0 }, stable: true,
        resources: { sourceWaitBySlot: [], meanSourceWait: 0, meanInNetworkFirst: 0, pbuFullFraction: [], linkBusyFraction: [] },
      };
    };
    const results: Ch5RtlRes[] = pts.map((p) => {
      const why = rtlWhyNot(p);
      return { rtl: why ? null : fake(p, 1.1), rtlReused: false, rtlVersion: why ? null : RTL_TIMING_VERSION, rtlWhyNot: why, calibrated: fake(p, 1), seedLevel: fake(p, 0.8) };
    });
    const rep = assembleRtl(q, pts, results, assembleTimes);
    const tlmChecks = assembleTimes(q, pts, modelResults(results, 'seedLevel')).checks.length;
    expect(rep.checks).toHaveLength(3 * tlmChecks);
    for (const m of ['rtl', 'calibrated', 'seed-level']) expect(rep.checks.filter((c) => c.id.startsWith(`${m}/`))).toHaveLength(tlmChecks);
    // The RTL's ratio to wormhole is over the calibrated TLM's wormhole: 1.1 × the calibrated ratio.
    const lat = (id: string): string => rep.checks.find((c) => c.id === id)!.measured;
    expect(lat('calibrated/fixed-latency-lightest')).toMatch(/^30% /);
    expect(lat('rtl/fixed-latency-lightest')).toMatch(/^33% /);
    // Side-by-side table: one row per point, the RTL column empty for wormhole, with the reason.
    const side = rep.tables[0]!;
    expect(side.rows).toHaveLength(pts.length);
    const whRow = side.rows.find((r) => String(r[0]).includes('wormhole'))!;
    expect(whRow[1]).toBeNull();
    expect(String(whRow[9])).toMatch(/no wormhole/);
    const fxRow = side.rows.find((r) => String(r[0]).includes('fixed'))!;
    expect(fxRow[7]).toBe('-9.1%');
    expect(rep.notes.join('\n')).toMatch(/Points the RTL cannot build .*wormhole/);
    expect(rep.plots.map((p) => p.id)).toContain('rtl-ratios');
  });

  it('--model is checked: one line, exit 2', async () => {
    const bad = await icemuExperiment(['buzzard-fig5.12', '--model', 'gates']);
    expect(bad.code).toBe(2);
    expect(bad.err.split('\n')).toHaveLength(1);
    expect(bad.err).toMatch(/--model must be tlm or rtl \(got 'gates'\)/);
    const mis = await icemuExperiment(['buzzard-ch4', '--model', 'rtl']);
    expect(mis.code).toBe(2);
    expect(mis.err).toMatch(/--model does not apply to buzzard-ch4/);
    const noDir = await icemuExperiment(['buzzard-fig5.12', '--model', 'rtl', '--rtl-reuse', '/nonexistent/icemu-reuse', '--quick']);
    expect(noDir.code).toBe(2);
    expect(noDir.err.split('\n')).toHaveLength(1);
    expect(noDir.err).toMatch(/--rtl-reuse: cannot read directory '\/nonexistent\/icemu-reuse' \(ENOENT\)/);
    // a stored RTL result without its point (a file edited or cut short): one line, exit 2, not a stack trace
    const cut = tempDir('rtl-reuse-cut');
    dirs.push(cut);
    writeFileSync(join(cut, 'buzzard-fig5.12.json'), JSON.stringify({ params: { model: 'rtl' }, points: [null, { result: { rtl: {} } }] }));
    const cutRun = await icemuExperiment(['buzzard-fig5.12', '--model', 'rtl', '--rtl-reuse', cut, '--quick']);
    expect(cutRun.code).toBe(2);
    expect(cutRun.err.trim().split('\n')).toHaveLength(1);
    expect(cutRun.err).toMatch(/--rtl-reuse: .*buzzard-fig5\.12\.json holds an RTL result without its point or its means/);
    const tlm = await icemuExperiment(['buzzard-fig5.12', '--rtl-reuse', '/tmp', '--quick']);
    expect(tlm.code).toBe(2);
    expect(tlm.err).toMatch(/--rtl-reuse needs --model rtl/);
  });
});
