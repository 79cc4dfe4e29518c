/**
 * `icemu experiment dslink-bandwidth` (seed 004 §4.1.4, Table 4.1): its
 * verdict rules against controls just inside and just outside each bound,
 * the point runner against exact figures of the stand-in link, and the
 * command end to end on a few sizes.
 */
import { describe, expect, it } from 'vitest';
import { boundaryDrops, deviationStats, fctResolution, lockstepBelowBy, withinMaxDeviation } from '../../harness/experiments/dslink-bandwidth-rules.ts';
import { LATE_STAGGER_CYCLES, runBandwidthPoint, STAGGER_CYCLES } from '../../harness/experiments/dslink-bandwidth-run.ts';
import { HEADER_BITS, runEndpointRules } from '../../harness/models/t9000-endpoint-rules.ts';
import { deviationPercent, dslinkBandwidth, dslinkPacketPassingBandwidth, TABLE_4_1 } from '../../harness/models/dslink.ts';
import { LinkStub } from '../../harness/rtl/link_standin.ts';
import { dsLinks, T9000_THESIS_LINKS, T9000_THESIS_SIM_LINKS } from '../../harness/rtl/t9000_pair.ts';
import type { Module } from '../../rtl/kernel/module.ts';
import { check, checkPlots, checkStructure, icemuExperiment, readResult, removeDir, tempDir } from './helpers.ts';

describe('dslink-bandwidth verdict rules, each with a control just outside its bound', () => {
  it('staggered: every |deviation| ≤ Table 4.1 max (uni 0.64 %, bi 0.79 %)', () => {
    const { uni, bi } = TABLE_4_1.staggered;
    expect(withinMaxDeviation([0.1, -0.63, 0.64], uni.max)).toBe(true);
    expect(withinMaxDeviation([0.1, -0.65], uni.max)).toBe(false);
    expect(withinMaxDeviation([0.1, 0.65], uni.max)).toBe(false);
    expect(withinMaxDeviation([0.78, -0.79], bi.max)).toBe(true);
    expect(withinMaxDeviation([0.8], bi.max)).toBe(false);
    expect(withinMaxDeviation([], bi.max)).toBe(false);
  });
  it('lock-step bi: every deviation in [−1.38 %, 0]', () => {
    const b = TABLE_4_1.lockstep.bi.max;
    expect(lockstepBelowBy([-1.38, -0.2, 0], b)).toBe(true);
    expect(lockstepBelowBy([-1.39, -0.2], b)).toBe(false);
    expect(lockstepBelowBy([-0.2, 0.01], b)).toBe(false);
    // with the resolution of a 6,000-cycle window (one FCT: 0.067 %): just inside, just outside
    const r = fctResolution(6000);
    expect(r).toBeCloseTo(0.0667, 4);
    expect(lockstepBelowBy([-0.2, 0.066], b, r)).toBe(true);
    expect(lockstepBelowBy([-0.2, 0.068], b, r)).toBe(false);
    expect(lockstepBelowBy([-1.39, 0], b, r)).toBe(false);
  });
  it('32-byte boundary drop: found at each 32k → 32k+1 pair present; a flat step fails', () => {
    const bw = (m: number) => (m === 33 ? 73.33 : m === 65 ? 74.82 : 76.42);
    expect(boundaryDrops([4, 32, 33, 64, 65], bw)).toEqual([
      { at: 32, drops: true },
      { at: 64, drops: true },
    ]);
    expect(boundaryDrops([32, 33], () => 70)).toEqual([{ at: 32, drops: false }]);
  });
  it('statistics: max and mean of |deviation|, signed range', () => {
    const s = deviationStats([0.2, -0.5, 0.1]);
    expect(s.maxAbs).toBe(0.5);
    expect(s.argMax).toBe(1);
    expect(s.avgAbs).toBeCloseTo(0.8 / 3, 12);
    expect([s.min, s.max]).toEqual([-0.5, 0.2]);
  });
});

describe('dslink-bandwidth point runner on the FCT-free stand-in link', () => {
  const links = (p: Module, n: string) => new LinkStub(p, n);
  const run = (m: number, direction: 'uni' | 'bi', start: 'lockstep' | 'staggered' | 'late') => runBandwidthPoint({ m, direction, start }, { windowCycles: 4000, warmup: 5, links });
  it('unidirectional single-packet messages run back to back: exactly Eq 4.3', () => {
    for (const m of [4, 16, 32]) {
      const r = run(m, 'uni', 'staggered');
      expect(r.intact).toBe(true);
      expect(r.mbps).toBeCloseTo(dslinkPacketPassingBandwidth({ m, direction: 'uni' }), 6);
    }
  });
  it('bidirectional 32-byte messages: a 60-cycle stagger (longer than this link\'s header-to-ack turnaround) reaches Eq 4.3; lock-step falls below it (the §4.1.4.1 artefact)', () => {
    const eq = dslinkPacketPassingBandwidth({ m: 32, direction: 'bi' });
    const stag = run(32, 'bi', 'late');
    const lock = run(32, 'bi', 'lockstep');
    expect(stag.perDirection).toHaveLength(2);
    expect(stag.mbps).toBeCloseTo(eq, 6);
    expect(lock.mbps).toBeLessThan(eq * 0.999);
    expect(lock.mbps).toBeGreaterThan(eq * 0.98);
  });
});

describe('dslink-bandwidth lock-step bi on T9000_THESIS_SIM_LINKS (Table 4.1, a CI-size subset; full size: dslink-bandwidth.full.test.ts)', () => {
  const SIZES = [4, 5, 8, 16, 24, 32, 33, 64, 65, 128];
  const devs = (links: typeof T9000_THESIS_LINKS) =>
    SIZES.map((m) => deviationPercent(runBandwidthPoint({ m, direction: 'bi', start: 'lockstep' }, { windowCycles: 6000, warmup: 5, links: dsLinks(links) }).mbps, dslinkBandwidth({ m, direction: 'bi' })));
  it('every size in [−1.38 %, +one FCT] of Eq 4.2; control: links with NULLs (T9000_THESIS_LINKS) fall outside', () => {
    const sim = devs(T9000_THESIS_SIM_LINKS);
    expect(lockstepBelowBy(sim, TABLE_4_1.lockstep.bi.max, fctResolution(6000)), sim.map((d) => d.toFixed(2)).join(' ')).toBe(true);
    expect(lockstepBelowBy(devs(T9000_THESIS_LINKS), TABLE_4_1.lockstep.bi.max, fctResolution(6000))).toBe(false);
  });
});

describe('dslink-bandwidth staggered bi on T9000_THESIS_SIM_LINKS: the start offset decides (docs/t9000.md#staggered-offset)', () => {
  // m = 33 (a full packet, then a 1-byte one) both ways; b's sender `stagger` cycles after a's
  const dev = (stagger: number, m = 33) =>
    deviationPercent(runBandwidthPoint({ m, direction: 'bi', start: 'staggered' }, { windowCycles: 6000, warmup: 5, links: dsLinks(T9000_THESIS_SIM_LINKS), staggerCycles: stagger }).mbps, dslinkBandwidth({ m, direction: 'bi' }));
  it('STAGGER_CYCLES is one bit time less than a header token (derived from the rules model, not from the RTL)', () => {
    expect(STAGGER_CYCLES).toBe(HEADER_BITS - 1);
    expect(STAGGER_CYCLES).toBe(9);
    expect(LATE_STAGGER_CYCLES).toBe(60);
  });
  it('up to 59 cycles the streams settle as in lock-step, within Table 4.1; from 60 (LATE_STAGGER_CYCLES, the finding) the half-duplex pattern, −42 %', () => {
    for (const st of [0, STAGGER_CYCLES, 30, 59]) expect(Math.abs(dev(st))).toBeLessThanOrEqual(TABLE_4_1.staggered.bi.max);
    for (const st of [LATE_STAGGER_CYCLES, 200]) expect(dev(st)).toBeLessThan(-40);
    // a full-packet size is at Eq 4.2 either way
    expect(Math.abs(dev(LATE_STAGGER_CYCLES, 32))).toBeLessThanOrEqual(TABLE_4_1.staggered.bi.max);
  });
  it("the 'late' start runs at LATE_STAGGER_CYCLES and 'staggered' at STAGGER_CYCLES", () => {
    const run = (start: 'staggered' | 'late') => runBandwidthPoint({ m: 33, direction: 'bi', start }, { windowCycles: 6000, warmup: 5, links: dsLinks(T9000_THESIS_SIM_LINKS) }).mbps;
    const eq = dslinkBandwidth({ m: 33, direction: 'bi' });
    expect(deviationPercent(run('late'), eq)).toBeLessThan(-40);
    expect(Math.abs(deviationPercent(run('staggered'), eq))).toBeLessThanOrEqual(TABLE_4_1.staggered.bi.max);
  });
});

describe("seed 004's endpoint rules as a zero-latency packet model (harness/models/t9000-endpoint-rules.ts), against Eq 4.3 and the RTL", () => {
  const dev = (m: number, d: 'uni' | 'bi', st: number) => deviationPercent(runEndpointRules(m, d, st, 60_000).mbps, dslinkPacketPassingBandwidth({ m, direction: d }));
  it('a run too short for one interval after the warm-up is refused (not NaN)', () => {
    expect(() => runEndpointRules(128, 'uni', 0, 500)).toThrow(/need more than the warm-up of 5/);
    expect(runEndpointRules(128, 'uni', 0, 20_000).mbps).toBeGreaterThan(0);
  });
  it('single-packet and uni streams are exactly Eq 4.3 (the rules lose nothing there)', () => {
    for (const m of [4, 32, 33, 100]) expect(Math.abs(dev(m, 'uni', 0))).toBeLessThan(1e-9);
    for (const m of [4, 32, 64]) expect(Math.abs(dev(m, 'bi', 60))).toBeLessThan(1e-9);
  });
  it('bi m = 33: no dip for a stagger under one header (0..HEADER_BITS−1), −44.5 % from one header on (control: the edge at HEADER_BITS)', () => {
    for (const st of [0, 5, HEADER_BITS - 1]) expect(Math.abs(dev(33, 'bi', st))).toBeLessThan(1e-9);
    for (const st of [HEADER_BITS, LATE_STAGGER_CYCLES]) expect(dev(33, 'bi', st)).toBeCloseTo(-44.54, 1);
  });
  it('agrees with the RTL on which offsets dip: at STAGGER_CYCLES neither dips, at LATE_STAGGER_CYCLES both lose > 15 % at m = 33, 65, 97 and neither at 32, 64', () => {
    const rtl = (m: number, start: 'staggered' | 'late') => deviationPercent(runBandwidthPoint({ m, direction: 'bi', start }, { windowCycles: 6000, warmup: 5, links: dsLinks(T9000_THESIS_SIM_LINKS) }).mbps, dslinkBandwidth({ m, direction: 'bi' }));
    for (const m of [33, 65, 97]) {
      expect(Math.abs(dev(m, 'bi', STAGGER_CYCLES))).toBeLessThan(1e-9);
      expect(Math.abs(rtl(m, 'staggered'))).toBeLessThanOrEqual(TABLE_4_1.staggered.bi.max);
      expect(dev(m, 'bi', LATE_STAGGER_CYCLES)).toBeLessThan(-15);
      expect(rtl(m, 'late')).toBeLessThan(-15);
    }
    for (const m of [32, 64]) {
      expect(Math.abs(dev(m, 'bi', LATE_STAGGER_CYCLES))).toBeLessThan(1e-9);
      expect(Math.abs(rtl(m, 'late'))).toBeLessThanOrEqual(TABLE_4_1.staggered.bi.max);
    }
  }, 120_000);
});

describe('icemu experiment dslink-bandwidth (real DS-link)', () => {
  it('runs a few sizes end to end: tables, checks with rules, Figs 4.2/4.3 whose polylines are the data', async () => {
    const dir = tempDir('dsbw');
    try {
      const r = await icemuExperiment(['dslink-bandwidth', '--sizes', '4,32,33', '--jobs', '1', '--out', dir, '--quiet']);
      expect(r.code).toBe(0);
      const res = readResult(dir, 'dslink-bandwidth');
      checkStructure(res, 'dslink-bandwidth');
      checkPlots(dir, res);
      expect(check(res, 'intact').holds).toBe(true);
      for (const id of ['staggered-uni', 'staggered-bi', 'lockstep-bi', 'boundary-drop']) expect(typeof check(res, id).holds).toBe('boolean');
      // on the real DS-link Eq 4.3 is reported, not judged
      expect(check(res, 'eq4_3-uni').holds).toBeNull();
      expect(res.points).toHaveLength(3 * (2 * 2 + 1));
      // single-packet unidirectional messages over the real DS-link: Eq 4.1, FCTs included, within Table 4.1
      const rows = res.report.tables[0]!.rows;
      for (const m of [4, 32]) {
        const row = rows.find((r) => r[0] === m)!;
        expect(Math.abs(row[5] as number)).toBeLessThanOrEqual(TABLE_4_1.staggered.uni.max);
      }
    } finally {
      removeDir(dir);
    }
  });
  it('rejects bad --sizes with one line naming the option', async () => {
    const r = await icemuExperiment(['dslink-bandwidth', '--sizes', '8,4', '--jobs', '1', '--quiet']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--sizes must increase/);
  });
});
