/**
 * The thesis's windowed random workload on a C104 mesh
 * (harness/rtl/c104_thesis_workload.ts, docs/c104.md#thesis-workload) and
 * held sends (docs/c104.md#held-sends): destinations within the window, the
 * packet-level model's draws, one send per interval per process; a full
 * send queue holds the sender (delivery stays exactly once, in order per
 * virtual link), and without holdWhenFull it is the old error (negative
 * control).
 */
import { describe, expect, it } from 'vitest';
import { thesisWindowWorkload } from '../../harness/rtl/c104_thesis_workload.ts';
import { SyntheticProgram, standardSetup } from '../../harness/workloads/thesis-synthetic.ts';
import { chainNetwork, meshLabel } from '../../rtl/c104/labelling.ts';
import { makeC104System } from '../../harness/rtl/c104_system.ts';

describe('thesis windowed workload', () => {
  const base = { side: 6, window: 2, intervalCycles: 100, bytes: 32, start: 2500, end: 2500 + 2000, seed: 3 };

  it('every destination lies within ±window in x and y, never the sender; one send per interval per process', () => {
    const msgs = thesisWindowWorkload(base);
    const D = base.side;
    const xy = (t: number): [number, number] => [Math.floor(t / D), t % D]; // terminal x·H + y
    for (const m of msgs) {
      const [sx, sy] = xy(m.src);
      const [dx, dy] = xy(m.dst);
      expect(m.dst).not.toBe(m.src);
      expect(Math.abs(sx - dx)).toBeLessThanOrEqual(base.window);
      expect(Math.abs(sy - dy)).toBeLessThanOrEqual(base.window);
      expect(m.bytes).toBe(32);
      expect(m.t >= base.start && m.t < base.end).toBe(true);
    }
    for (let p = 0; p < D * D; p++) {
      const ts = msgs.filter((m) => m.src === p).map((m) => m.t);
      expect(ts.length).toBeGreaterThanOrEqual(19);
      for (let k = 1; k < ts.length; k++) expect(ts[k]! - ts[k - 1]!).toBe(100);
    }
    // the window reaches every offset in range: some destination is window away in x, some in y
    expect(msgs.some((m) => Math.abs(xy(m.src)[0] - xy(m.dst)[0]) === base.window)).toBe(true);
    expect(msgs.some((m) => Math.abs(xy(m.src)[1] - xy(m.dst)[1]) === base.window)).toBe(true);
  });

  it("uses the packet-level model's draws: the first send of each process goes where SyntheticProgram sends it", () => {
    const msgs = thesisWindowWorkload(base);
    const prog = new SyntheticProgram({ ...standardSetup(1, 'async', base.seed), D: base.side, d: base.window });
    const D = base.side;
    for (let p = 0; p < D * D; p++) {
      const term = (node: number): number => meshLabel({ w: D, h: D, routing: 'x-first' }, node % D, Math.floor(node / D));
      const first = msgs.filter((m) => m.src === term(p))[0]!;
      expect(first.dst).toBe(term(prog.plan(p, 0).sends[0]!.dest));
      expect(first.t).toBe(base.start + Math.round(prog.startNs(p) / 10));
    }
  });
});

describe('held sends (T9000 driver holdWhenFull)', () => {
  const burst = (hold: boolean): { delivered: number[]; held: number; error?: string } => {
    const sys = makeC104System(chainNetwork(1, 1), [[{ node: 0, vl: 0 }, { node: 1, vl: 1 }]]);
    sys.driver.holdWhenFull = hold;
    for (let k = 0; k < 20; k++) {
      sys.driver.send(0, 0, Array.from({ length: 8 }, (_, j) => (k * 7 + j) & 0xff), 2500);
      sys.driver.receive(1, 1, 2500);
    }
    try {
      sys.sim.runUntil(() => sys.rec.deliveries.length === 20, 60_000);
    } catch (e) {
      return { delivered: [], held: sys.driver.heldCount, error: (e as Error).message };
    }
    for (const d of sys.rec.deliveries) expect(d.bytes).toEqual(sys.driver.messages[d.msg]!.data);
    return { delivered: sys.rec.deliveries.map((d) => d.msg), held: sys.driver.heldCount };
  };

  it('20 sends at once on one virtual link: 4 wait, all 20 delivered byte-exact in order', () => {
    const r = burst(true);
    expect(r.error).toBeUndefined();
    expect(r.held).toBe(4);
    expect(r.delivered).toEqual([...Array(20).keys()]);
  });

  it('negative control: without holdWhenFull the 17th send is an error', () => {
    expect(burst(false).error).toMatch(/has 16 sends queued \(sendQueueDepth\); cannot queue message 16/);
  });
});
