/**
 * One virtual link received over a hunt group (docs/t9000.md#receive-area,
 * issue 10): the next packet of a VL leaves once the previous one's header is
 * acked, so over the receiver's grouped links it can overtake that packet's
 * tail. Constructed by holding the credit of the switch's link that carries
 * the first packet: the second packet takes another link of the group and
 * ends first. The message must still be delivered byte-exact, when the first
 * packet's tail has arrived.
 */
import { describe, it, expect } from 'vitest';
import { meshNetwork } from '../../rtl/c104/labelling.ts';
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import type { EndpointFault } from '../../rtl/t9000/config.ts';
import { makeC104System } from '../../harness/rtl/c104_system.ts';
import type { SimMode } from '../../rtl/kernel/simulator.ts';

const HOLD = 1500;
const SEED = 1; // cycles the first packet's link is held without credit

function overtake(fault: EndpointFault, mode: SimMode = 'activity', seed = SEED, len = 40) {
  const spec = meshNetwork({ w: 2, h: 1, routing: 'two-phase', cpuLinks: 2 });
  const sys = makeC104System(spec, [[{ node: 0, vl: 0 }, { node: 1, vl: 1 }]], { t9000: { fault }, c104: { seed, outputBufferTokens: 8 }, mode });
  const { sim, driver, rec, endpoints, network } = sys;
  const data = Array.from({ length: len }, (_, j) => (j * 7 + 3) & 0xff);
  driver.receive(1, 1, 0);
  driver.send(0, 0, data, 0);
  const b = endpoints[1]!;
  const feed = network.endpointLinks[1]! as DsLinkEnd[]; // the switch's ends of b's hunt group
  let held = -1;
  let bank = 0;
  let until = 0;
  const ends: { link: number; cycle: number }[] = [];
  for (let t = 0; t < 40000 && rec.deliveries.length === 0; t++) {
    if (held < 0) {
      const k = b.rx.findIndex((rx) => sim.peek(rx.dataHdrs) > 0);
      if (k >= 0) {
        held = k;
        until = sim.cycle + HOLD;
      }
    }
    if (held >= 0 && sim.cycle < until) {
      // hold: bank the credit the link end receives, give it back at the end
      const c = sim.peek(feed[held]!.txCredit);
      bank += c;
      if (c) sim.poke(feed[held]!.txCredit, 0);
    } else if (bank > 0) {
      sim.poke(feed[held]!.txCredit, sim.peek(feed[held]!.txCredit) + bank);
      bank = 0;
    }
    b.rx.forEach((rx, k) => {
      if (sim.peek(rx.evEnd)) ends.push({ link: k, cycle: sim.cycle });
    });
    sim.step(1);
  }
  return { data, held, until, ends, rec, driver };
}

describe('T9000: one virtual link over a hunt group', () => {
  it("the next packet overtakes the previous one's tail on another link; the message is delivered byte-exact when the last tail is in", () => {
    const r = overtake('none');
    expect(r.held).toBeGreaterThanOrEqual(0);
    // the construction: the second packet ended on another link before the first one's tail
    expect(r.ends).toHaveLength(2);
    const [e0, e1] = r.ends;
    expect(e0!.link).not.toBe(r.held);
    expect(e1!.link).toBe(r.held);
    expect(e1!.cycle).toBeGreaterThan(r.until);
    expect(r.rec.deliveries).toHaveLength(1);
    const d = r.rec.deliveries[0]!;
    expect(d.bytes).toEqual(r.data);
    // complete in the cycle after the first packet's end marker is popped (as over one link)
    expect(d.cycle).toBe(e1!.cycle + 1);
    // the recorder names the first packet by its link, not by the order of ends
    const first = r.rec.events.filter((e) => e.kind === 'first-packet-delivered');
    expect(first.map((e) => [e.t, e.port])).toEqual([[e1!.cycle + 1, r.held]]);
    expect(r.rec.anomalies).toEqual([]);
  });

  it('activity and plain simulation give the same ends, events and deliveries', () => {
    const a = overtake('none', 'activity');
    const p = overtake('none', 'plain');
    expect(p.ends).toEqual(a.ends);
    expect(p.rec.sorted()).toEqual(a.rec.sorted());
    expect(p.rec.deliveries).toEqual(a.rec.deliveries);
  });

  it('negative control: completing a message at its EOM (the rule before issue 10) mis-assembles it, early', () => {
    const r = overtake('eom-completes');
    expect(r.rec.deliveries).toHaveLength(1);
    const d = r.rec.deliveries[0]!;
    expect(d.bytes).not.toEqual(r.data);
    expect(d.cycle).toBeLessThan(r.until);
  });
});
