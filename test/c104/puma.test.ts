/**
 * Seed 000's PUMA machine on link stand-ins: 64 C104s in a double
 * hypercube of dimension 6 (hunt groups of 2 per dimension), 256 endpoints
 * on hunt groups of 4 (docs/c104.md#puma). Random traffic is delivered
 * exactly once, byte-exact, and every packet crosses (Hamming distance + 1)
 * switches, as its interval tables trace.
 */
import { describe, expect, it } from 'vitest';
import { CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { pumaNetwork } from '../../rtl/c104/labelling.ts';
import { attachC104Events } from '../../harness/rtl/c104_events.ts';
import { NetBench, idOf } from './net_bench.ts';

describe('PUMA (seed 000)', () => {
  it('256 processors, 64 C104s: random traffic delivered exactly once over Hamming-distance + 1 switches', () => {
    const b = new NetBench(pumaNetwork(), { inputBufferTokens: 8, outputBufferTokens: 8 });
    const rec = attachC104Events(b.sim, b.top.switches, b.net, (sw, link) => {
      const id = b.startedOn.get(`${sw}:${link}`)?.shift();
      return id === undefined ? null : { msg: id, packet: 0 };
    });
    for (let k = 0; k < 120; k++) {
      const src = (k * 37) % 256;
      const dst = (k * 101 + 17) % 256;
      if (src !== dst) b.send(src, dst, [k & 0xff, 1, 2, 3], CHAR_EOP);
    }
    for (let c = 0; c < 20000 && !b.drained(); c++) b.step();
    expect(b.drained()).toBe(true);
    const seen = new Set<number>();
    b.delivered.forEach((pkts, ti) => {
      for (const chars of pkts) {
        const p = b.packets[idOf(chars, 1)]!;
        expect(p.dst).toBe(ti);
        expect(chars).toEqual(p.chars);
        seen.add(p.id);
      }
    });
    expect(seen.size).toBe(b.packets.length);
    for (const p of b.packets) {
      const heads = rec.events.filter((e) => e.msg === p.id && e.kind === 'head-arrives').length;
      let d = (p.src >> 2) ^ (p.dst >> 2);
      let ham = 0;
      for (; d; d &= d - 1) ham++;
      expect(heads).toBe(ham + 1);
    }
  });
});
