/**
 * Node-level fairness of the crossbar arbitration (seed 002 §5.4.3, A10: a
 * tree of toggling 1-of-2 arbiters): two PBUs of one node that hold packets
 * for the same output get that output in turn, packet by packet, instead of
 * one draining its whole message first. Directly, not through the deadlock
 * scenarios: on a 4-cube, message A 1 → 4 enters node 0 through PBU 1 and
 * message B 2 → 12 through PBU 2; both leave node 0 on O_3 (e-cube), and both
 * are sent at the same cycle, so both PBUs request O_3 for many packets.
 */
import { describe, expect, it } from 'vitest';
import { runRtlWorkload } from '../../harness/compare/rtl_run.ts';
import { finalizeMessages } from '../../harness/workloads/index.ts';
import type { Workload } from '../../harness/workloads/types.ts';

describe('node fairness: two PBUs requesting one output', () => {
  it('PBU 1 and PBU 2 of node 0 alternate their grants of O_3 while both hold packets', () => {
    const w: Workload = {
      name: 'fairness',
      seed: null,
      params: {},
      unit: 'ticks',
      cubeDegree: 4,
      messages: finalizeMessages([
        { t: 1, src: 1, dst: 4, bytes: 300, kind: 'unicast' },
        { t: 1, src: 2, dst: 12, bytes: 300, kind: 'unicast' },
      ]),
    };
    const r = runRtlWorkload(w, { cyclesPerTick: 4.5, maxCycles: 60_000, quiet: true });
    expect(r.complete).toBe(2);
    expect(r.anomalies).toEqual([]);
    const grants = r.events.filter((e) => e.kind === 'grant' && e.node === 0 && e.port === 3);
    const units = grants.map((e) => e.unit);
    // every packet of both messages crosses node 0 on O_3, each granted once
    const packets = (m: number) => new Set(r.events.filter((e) => e.kind === 'packet-injected' && e.msg === m).map((e) => e.packet)).size;
    expect(grants.filter((e) => e.unit === 'pbu1').length).toBe(packets(0));
    expect(grants.filter((e) => e.unit === 'pbu2').length).toBe(packets(1));
    expect(packets(0)).toBeGreaterThanOrEqual(10);
    // at each grant, the PBUs holding a request: a packet whose head has arrived at node 0 and that is not yet granted
    const heads = r.events.filter((e) => e.kind === 'head-arrives' && e.node === 0 && (e.unit === 'pbu1' || e.unit === 'pbu2'));
    let contested = 0;
    for (let k = 1; k < grants.length; k++) {
      const g = grants[k]!;
      const holding = (unit: string): boolean => {
        const arrived = heads.filter((h) => h.unit === unit && h.t <= g.t).length;
        const granted = grants.slice(0, k).filter((x) => x.unit === unit).length;
        return arrived > granted;
      };
      if (!(holding('pbu1') && holding('pbu2'))) continue;
      contested++;
      // both hold a request for O_3: the one granted last time must not win again
      expect(g.unit, `grant ${k} at cycle ${g.t}: ${units.slice(0, k + 1).join(' ')}`).not.toBe(grants[k - 1]!.unit);
    }
    // the scenario really contends: both PBUs hold requests at nearly every grant
    expect(contested).toBeGreaterThanOrEqual(Math.min(packets(0), packets(1)) * 2 - 3);
  });
});
