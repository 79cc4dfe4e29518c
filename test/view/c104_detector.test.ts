/**
 * The C104 recorder's own deadlock check (harness/rtl/c104_events.ts
 * `deadlockEvery`): on the cyclic ring of test/c104/network.test.ts (link-end
 * stand-ins, long packets, 4-token buffers) it records one `deadlock` event,
 * with the ring the structural detector names, once the routers have not
 * moved for `deadlockEvery` cycles; the acyclic labelling of the same ring
 * under the same traffic records none (control). The stand-in link ends
 * have no credit state: no held or full events, and nothing breaks.
 */
import { describe, expect, it } from 'vitest';
import { CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { ringNetwork } from '../../rtl/c104/labelling.ts';
import { attachC104Events } from '../../harness/rtl/c104_events.ts';
import { findC104Deadlock } from '../../harness/rtl/c104_deadlock.ts';
import { NetBench } from '../c104/net_bench.ts';

function ring(cyclic: boolean) {
  const b = new NetBench(ringNetwork(4, cyclic), { inputBufferTokens: 4, outputBufferTokens: 4, requireDeadlockFree: false });
  for (let s = 0; s < 4; s++) for (let k = 0; k < 2; k++) b.send(s, (s + 2) % 4, new Array<number>(60).fill(s), CHAR_EOP);
  let n = 0;
  const rec = attachC104Events(b.sim, b.top.switches, b.net, () => ({ msg: n++, packet: 0 }), { switchEnds: b.top.network.ends, deadlockEvery: 300 });
  return { b, rec };
}

describe('the C104 recorder’s deadlock check', () => {
  it('the cyclic ring: one deadlock event, its ring the detector’s, stamped at least deadlockEvery cycles after the last move', () => {
    const { b, rec } = ring(true);
    for (let c = 0; c < 6000; c++) b.step();
    const dl = rec.events.filter((e) => e.kind === 'deadlock');
    expect(dl).toHaveLength(1);
    expect(dl[0]!.ring).toEqual(findC104Deadlock(b.sim, b.top.switches, b.net)!.ring);
    const lastMove = Math.max(...rec.events.filter((e) => e.kind !== 'deadlock').map((e) => e.t));
    expect(dl[0]!.t - lastMove).toBeGreaterThanOrEqual(300);
    expect(dl[0]!.node).toBe(Number(/^c104_(\d)/.exec(dl[0]!.ring![0]!)![1]));
    expect(rec.events.filter((e) => /^(link-held|buffer-full)$/.test(e.kind))).toEqual([]);
    // asked again: the same ring is not recorded twice
    expect(rec.checkDeadlock()).toEqual(dl[0]!.ring);
    expect(rec.events.filter((e) => e.kind === 'deadlock')).toHaveLength(1);
  });

  it('control: the acyclic ring drains and records no deadlock', () => {
    const { b, rec } = ring(false);
    for (let c = 0; c < 6000 && !b.drained(); c++) b.step();
    expect(b.drained()).toBe(true);
    for (let c = 0; c < 1000; c++) b.step();
    expect(rec.events.filter((e) => e.kind === 'deadlock')).toEqual([]);
  });
});

describe('checkDeadlock(minQuiet)', () => {
  it('does not run the detector while the routers moved within minQuiet cycles; does once they are still', () => {
    const { b, rec } = ring(true);
    for (let c = 0; c < 40; c++) b.step();
    expect(rec.checkDeadlock(200)).toBeNull();
    for (let c = 0; c < 6000; c++) b.step();
    expect(rec.checkDeadlock(200)).not.toBeNull();
  });
});
