/**
 * More than 255 virtual link control blocks per T9000 (docs/t9000.md#control-blocks):
 * the blocks live in memories, VL numbers are VL_BITS wide on the endpoint's
 * paths and the node memory has MEM_ADDR_BITS of address, so an endpoint can
 * talk to the ~1,088 partners of seed 004's Table 3.1 workload.
 *  - a direct pair with 300 virtual links (2-byte headers, virtual-link
 *    addressing): messages on VLs around 255/256 and the last one, both ways,
 *    byte-exact, with receive areas past 64 KiB;
 *  - pair-c104 with node addressing and 300 channels between the two
 *    endpoints: delivered exactly once, byte-exact, in order per VL, and the
 *    fast run equals the reference run at every cycle, control-block
 *    memories included (negative control: one control-block word poked in
 *    the fast run is seen);
 *  - the limits: MAX_VLS blocks build, one more is refused in one line.
 */
import { describe, expect, it } from 'vitest';
import { chainNetwork } from '../../rtl/c104/labelling.ts';
import { MAX_VLS, memoryBytes, rxAreaBase, t9000Config } from '../../rtl/t9000/config.ts';
import { dsLinks, makeT9000Pair } from '../../harness/rtl/t9000_pair.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import type { ChannelEnd } from '../../harness/rtl/t9000_driver.ts';
import type { SimMode } from '../../rtl/kernel/simulator.ts';
import { blockMemories, firstBlockDiff } from '../c104/system_check.ts';

const N = 300;
const data = (vl: number, k: number, len: number): number[] => Array.from({ length: len }, (_, j) => (vl * 13 + k * 7 + j * 3) & 0xff);

describe('T9000: more than 255 control blocks', () => {
  it('a direct pair with 300 virtual links (2-byte headers): VLs 0, 254, 255, 256, 299 both ways, byte-exact, receive areas past 64 KiB', () => {
    const pair = makeT9000Pair(N, { headerBytes: 2, rxSlots: 8 }, { links: dsLinks() });
    expect(memoryBytes(pair.a.cfg)).toBeGreaterThan(65536);
    expect(rxAreaBase(pair.a.cfg, 299)).toBeGreaterThan(65536);
    const vls = [0, 254, 255, 256, 299];
    const sent: { node: number; vl: number; bytes: number[] }[] = [];
    vls.forEach((vl, k) => {
      for (const [src, dst] of [[0, 1], [1, 0]] as const) {
        for (let m = 0; m < 2; m++) {
          const bytes = data(vl, k + 10 * src + m, 40 + k);
          pair.driver.send(src, vl, bytes, 2500 + k * 3 + m);
          pair.driver.receive(dst, vl, 2500);
          sent.push({ node: dst, vl, bytes });
        }
      }
    });
    const r = pair.sim.runUntil(() => pair.rec.deliveries.length >= sent.length, 200000);
    expect(r.reached).toBe(true);
    for (const s of sent) {
      const got = pair.rec.deliveries.filter((d) => d.node === s.node && d.vl === s.vl).map((d) => d.bytes);
      expect(got).toContainEqual(s.bytes);
    }
    // in order per VL: the two messages of each (node, vl) arrive in sending order
    for (const vl of vls) {
      for (const node of [0, 1]) {
        const got = pair.rec.deliveries.filter((d) => d.node === node && d.vl === vl).map((d) => d.bytes);
        expect(got).toEqual(sent.filter((s) => s.node === node && s.vl === vl).map((s) => s.bytes));
      }
    }
  });

  /** pair-c104 in node addressing with N channels between t0 and t1; messages on `vls`, both ways. */
  function nodePair(mode: SimMode, vls: readonly number[]): { sys: C104System; sent: { node: number; vl: number; bytes: number[] }[] } {
    const channels: [ChannelEnd, ChannelEnd][] = Array.from({ length: N }, (_, v) => [{ node: 0, vl: v }, { node: 1, vl: N - 1 - v }]);
    const sys = makeC104System(chainNetwork(1, 1), channels, { mode, t9000: { addressing: 'node' } });
    expect(sys.endpoints[0]!.cfg.virtualLinks).toHaveLength(N);
    const sent: { node: number; vl: number; bytes: number[] }[] = [];
    vls.forEach((v, k) => {
      const bytes = data(v, k, 20 + (k % 40));
      sys.driver.send(0, v, bytes, 2500 + k);
      sys.driver.receive(1, N - 1 - v, 2500);
      sent.push({ node: 1, vl: N - 1 - v, bytes });
      const back = data(v, k + 1, 10 + (k % 30));
      sys.driver.send(1, N - 1 - v, back, 2600 + 2 * k);
      sys.driver.receive(0, v, 2600);
      sent.push({ node: 0, vl: v, bytes: back });
    });
    return { sys, sent };
  }

  it("pair-c104, addressing 'node', 300 channels: every message on 60 of them, both ways, exactly once and byte-exact", () => {
    const vls = Array.from({ length: 60 }, (_, k) => (k * 97) % N);
    const { sys, sent } = nodePair('activity', vls);
    expect(sys.sim.runUntil(() => sys.rec.deliveries.length >= sent.length, 400000).reached).toBe(true);
    expect(sys.rec.deliveries).toHaveLength(sent.length);
    for (const s of sent) expect(sys.rec.deliveries.filter((d) => d.node === s.node && d.vl === s.vl).map((d) => d.bytes)).toEqual([s.bytes]);
  });

  /** First cycle where the reference and fast runs differ (signals, or words of the control-block memories), or undefined. */
  function lockstep(cycles: number, perturb?: (fast: C104System) => void): string | undefined {
    const vls = [0, 1, 255, 256, 257, 299, 150];
    const ref = nodePair('plain', vls).sys;
    const fast = nodePair('activity', vls).sys;
    const rm = blockMemories(ref.sim);
    const fm = blockMemories(fast.sim);
    for (let c = 0; c < cycles; c++) {
      if (perturb && c === 3000) perturb(fast);
      ref.sim.step(1);
      fast.sim.step(1);
      const a = ref.sim.values();
      const b = fast.sim.values();
      for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return `cycle ${ref.sim.cycle}: slot ${k}`;
      const m = firstBlockDiff(rm, fm);
      if (m) return `cycle ${ref.sim.cycle}: ${m}`;
    }
    if (JSON.stringify(ref.rec.events) !== JSON.stringify(fast.rec.events)) return 'event traces differ';
    expect(fast.rec.deliveries.length).toBe(2 * vls.length);
    return undefined;
  }

  it('fast mode = reference mode at every cycle, control-block memories included; a poked control-block word is seen', () => {
    expect(lockstep(6000)).toBeUndefined();
    const diff = lockstep(3100, (fast) => {
      const vlc = fast.endpoints[1]!.vlc;
      fast.sim.pokeMem(vlc.recvPosted, 7, 5);
      vlc.touch(7);
    });
    expect(diff).toMatch(/^cycle \d+: .*vlc\.recvPosted\[7\] reference \d+ fast 5$/);
  }, 120_000);

  it(`limits: ${MAX_VLS} control blocks build, ${MAX_VLS + 1} are refused in one line`, () => {
    const vls = (n: number) => Array.from({ length: n }, () => ({ link: 0, header: 0 }));
    expect(t9000Config({ virtualLinks: vls(MAX_VLS), rxSlots: 2 }).virtualLinks).toHaveLength(MAX_VLS);
    expect(() => t9000Config({ virtualLinks: vls(MAX_VLS + 1) })).toThrow(`t9000.virtualLinks: ${MAX_VLS + 1} control blocks is outside 1..${MAX_VLS}`);
  });
});
