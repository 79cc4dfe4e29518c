/**
 * The "older stall" of the stop-15 note (2-cube, e-cube routing, strict
 * framing off, mean 156 B, gap 40 ticks, seed 574977, 2532 cycles: the
 * receive on node 3 from node 2 stays at progress 1) is no stall. That
 * workload offers about 8 times what the cube can carry: node 3 alone is sent
 * 85 packets within the first 1,000 cycles, and its node input port takes one
 * packet at a time (about 298 cycles for 32 bytes). The receive is in
 * progress (flag 1, §4.1.1) and its packets keep arriving, interleaved with
 * the other messages for node 3; node 2's messages to node 1 wait behind it
 * in node 2's direction-1 send queue (e-cube: one first direction). Every
 * message completes byte-exact by cycle 39,200. The report came from a run
 * limit shorter than the drain (docs/readings.md overload-not-stall).
 *
 * Evidence that can fail: if the receive really stalled, a window without a
 * head of its packets at node 3's input port would exceed the bound below,
 * or the cube would not drain.
 */
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { attachEvents } from '../../harness/rtl/events.ts';
import { scheduleWorkload } from '../../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../../harness/workloads/index.ts';
import { FLAG } from '../../rtl/buzzard/header_blocks.ts';

describe('overload is not a stall (2-cube, e-cube, 156 B every 40 ticks, seed 574977)', () => {
  for (const mode of ['activity', 'plain'] as const) {
    it(`${mode} mode: the receive on node 3 from node 2 is in progress at 2532, its packets arrive steadily, and every message completes byte-exact`, () => {
      const cube = new BuzzardCube({ n: 2, strictFraming: false, routing: 'e-cube' });
      const sim = new Simulator(cube, { mode });
      const d = new CubeDriver(sim, cube);
      scheduleWorkload(d, buzzardCh5Workload({ cubeDegree: 2, meanBytes: 156, meanGapTicks: 40, durationTicks: (2532 * 0.6) / 4.5, seed: 574977 }));
      const rec = attachEvents(sim, cube, d);
      sim.step(2532);
      const r = d.receives.find((x) => x.node === 3 && x.source === 2)!;
      expect(d.received(r).progress).toBe(FLAG.inProgress);
      const res = sim.runUntil(() => d.allComplete(), 45_000);
      expect(res.reached).toBe(true);
      expect(sim.cycle).toBeGreaterThan(30_000); // the drain is long: the report's limit was too short
      for (const x of d.receives) {
        const m = d.sent.find((s) => s.src === x.source && s.type === x.type)!;
        const got = d.received(x);
        expect([x.node, got.progress, got.error, got.bytes]).toEqual([x.node, FLAG.complete, 0, m.data]);
      }
      // node 3's input port is never idle for long while packets wait for it, and the reported
      // receive's packets arrive at most a few packet times apart (4 senders share the port)
      const m = d.sent.find((s) => s.src === 2 && s.dest === 3 && s.type === r.type)!;
      const heads = (msg?: number) => rec.events.filter((e) => e.node === 3 && e.unit === 'nip' && e.kind === 'head-arrives' && (msg === undefined || e.msg === msg)).map((e) => e.t);
      const gaps = (t: number[]) => t.slice(1).map((x, k) => x - t[k]!);
      expect(Math.max(...gaps(heads()))).toBeLessThanOrEqual(2 * 300);
      expect(Math.max(...gaps(heads(m.id)))).toBeLessThanOrEqual(4 * 300);
    });
  }
});
