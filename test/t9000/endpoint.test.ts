/**
 * T9000-style endpoint (rtl/t9000) between two endpoints joined by one link:
 * delivery, acknowledgement and queueing rules of docs/t9000.md, each with a
 * control that must fail. Delivery properties run over the real DS-link
 * (rtl/dslink); tests that pin exact cycle counts run over the FCT-free
 * stand-in link (harness/rtl/link_standin.ts), whose timing is exactly
 * 10 cycles per data character and 4 per end marker.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bytesOf, deliveredExactlyOnceInOrder, makePair, opArb, realLinks, runOps, stubLinks, VLS, type Op, type Pair } from './pair.ts';
import type { T9000Config } from '../../rtl/t9000/config.ts';
import { t9000Config, MEASURED_TIMING } from '../../rtl/t9000/config.ts';
import { readTrace, type TraceEvent } from '../../traces/events/vocabulary.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Module } from '../../rtl/kernel/module.ts';
import { CHAR_EOM, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { CTL_EOM, decodeBits, dsDecode, LEN_CTL } from '../../rtl/dslink/tokens.ts';
import { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { attachT9000Pair, dsLinks, T9000_THESIS_SIM_LINKS } from '../../harness/rtl/t9000_pair.ts';
import { Simulator } from '../../rtl/kernel/index.ts';
import { T9000Endpoint } from '../../rtl/t9000/endpoint.ts';
import { joinLinks } from '../../rtl/dslink/ports.ts';

/** Packet k+1 of a message is injected only after packet k's ack arrived (one outstanding per VL). */
function stopAndWait(events: readonly TraceEvent[]): boolean {
  const ackAt = new Map<string, number>();
  for (const e of events) if (e.kind === 'ack') ackAt.set(`${e.msg}/${e.packet}`, e.t);
  for (const e of events) {
    if (e.kind !== 'packet-injected' || !e.packet) continue;
    const a = ackAt.get(`${e.msg}/${e.packet - 1}`);
    if (a === undefined || a > e.t) return false;
  }
  return true;
}

describe('T9000 endpoint pair: delivery', () => {
  it('random messages on random virtual links, both directions, receives early or late, over the real DS-link: delivered exactly once, byte-exact, in order per VL; stop-and-wait holds', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 8 }), (ops) => {
        const { p, sent } = runOps(ops);
        return deliveredExactlyOnceInOrder(p, sent) && stopAndWait(p.rec.events);
      }),
      { numRuns: 20 },
    );
  });

  it('negative control: an endpoint that drops the one-outstanding-packet rule breaks the property', () => {
    // each half of the property catches the fault on its own (no unit assertion stops these runs)
    // the same kind of workload, drawn where the fault matters: multi-packet messages, receives posted late
    const lateOps = fc.array(
      fc.record({
        from: fc.constantFrom(0 as const, 1 as const),
        vl: fc.integer({ min: 0, max: VLS - 1 }),
        len: fc.integer({ min: 33, max: 100 }),
        sendAt: fc.integer({ min: 0, max: 500 }),
        recvAt: fc.integer({ min: 6000, max: 9000 }),
        seed: fc.integer({ min: 0, max: 255 }),
      }),
      { minLength: 2, maxLength: 6 },
    );
    const check = (prop: (p: Pair, sent: number[][]) => boolean) =>
      fc.check(
        fc.property(lateOps, (ops) => {
          const { p, sent } = runOps(ops, { fault: 'no-stop-and-wait' });
          return prop(p, sent);
        }),
        { numRuns: 15, seed: 9, endOnFailure: true },
      );
    const delivery = check(deliveredExactlyOnceInOrder);
    expect(delivery.failed).toBe(true);
    expect(String(delivery.errorInstance)).toMatch(/returning false/);
    const order = check((p) => stopAndWait(p.rec.events));
    expect(order.failed).toBe(true);
    expect(String(order.errorInstance)).toMatch(/returning false/);
  });

  it('negative control: the delivery check itself sees a reordered pair of deliveries', () => {
    const ops: Op[] = [
      { from: 0, vl: 1, len: 5, sendAt: 0, recvAt: 0, seed: 1 },
      { from: 0, vl: 1, len: 6, sendAt: 10, recvAt: 10, seed: 2 },
    ];
    const { p, sent } = runOps(ops, {}, 5000);
    expect(deliveredExactlyOnceInOrder(p, sent)).toBe(true);
    p.rec.deliveries.reverse();
    expect(deliveredExactlyOnceInOrder(p, sent)).toBe(false);
  });

  it('the recorded trace is valid in the shared vocabulary and reads back unchanged', () => {
    const p = makePair(2);
    p.driver.receive(1, 0, 0);
    p.driver.send(0, 0, Array.from({ length: 40 }, (_, j) => j), 0);
    p.sim.step(2000);
    const dir = mkdtempSync(join(tmpdir(), 'icemu-t9000-'));
    try {
      const file = join(dir, 'pair.events.jsonl');
      p.rec.write(file);
      const back = readTrace(file);
      expect(back.header.unit).toBe('cycles');
      expect(back.events).toEqual(p.rec.events);
      const kinds = new Set(back.events.map((e) => e.kind));
      for (const k of ['message-queued', 'packet-injected', 'head-arrives', 'ack', 'first-packet-delivered', 'message-complete']) expect(kinds.has(k as never)).toBe(true);
      expect(back.events.filter((e) => e.kind === 'packet-injected').map((e) => e.packet)).toEqual([0, 1]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('activity and plain simulation give the same events (real DS-link)', () => {
    const ops: Op[] = [
      { from: 0, vl: 0, len: 70, sendAt: 0, recvAt: 200, seed: 3 },
      { from: 1, vl: 2, len: 33, sendAt: 5, recvAt: 0, seed: 4 },
      { from: 0, vl: 2, len: 0, sendAt: 9, recvAt: 9, seed: 5 },
    ];
    const run = (mode: 'activity' | 'plain') => {
      const p = makePair(VLS, {}, { mode, links: realLinks() });
      ops.forEach((o, k) => {
        p.driver.send(o.from, o.vl, bytesOf(o, k), o.sendAt);
        p.driver.receive(1 - o.from, o.vl, o.recvAt);
      });
      p.sim.step(6000);
      return p.rec.sorted();
    };
    const a = run('activity');
    expect(a.filter((e) => e.kind === 'message-complete')).toHaveLength(3);
    expect(run('plain')).toEqual(a);
  });
});

describe('T9000 endpoint pair: acknowledgements', () => {
  const first = (p: Pair, kind: string, msg = 0) => p.rec.events.find((e) => e.kind === kind && e.msg === msg)!.t;

  it('an ack is deferred until the receive is posted, and sent at once when it already is', () => {
    const late = makePair(1);
    late.driver.send(0, 0, [1, 2, 3, 4, 5, 6, 7, 8], 0);
    late.driver.receive(1, 0, 600);
    late.sim.step(2000);
    expect(first(late, 'head-arrives')).toBeLessThan(100);
    expect(first(late, 'ack')).toBeGreaterThan(600);
    expect(first(late, 'message-complete')).toBeGreaterThanOrEqual(600);

    const early = makePair(1);
    early.driver.receive(1, 0, 0);
    early.driver.send(0, 0, [1, 2, 3, 4, 5, 6, 7, 8], 0);
    early.sim.step(2000);
    // header (10 cycles) in; the ack is header + EOP back: well before the 8-byte packet has even arrived
    expect(first(early, 'ack')).toBeLessThan(first(early, 'message-complete'));
    expect(first(early, 'ack') - first(early, 'head-arrives')).toBeLessThan(40);
  });

  it('a multi-packet message: no second packet until the receive is posted (first packet not acked)', () => {
    const p = makePair(1);
    p.driver.send(0, 0, Array.from({ length: 80 }, (_, j) => j), 0);
    p.driver.receive(1, 0, 1500);
    p.sim.step(4000);
    const inj = p.rec.events.filter((e) => e.kind === 'packet-injected').map((e) => e.t);
    expect(inj).toHaveLength(3);
    expect(inj[1]).toBeGreaterThan(1500);
  });

  /**
   * B has three VLs streaming 32-byte packets to A; A's single message to B
   * needs an ack from B. With ack priority the ack leaves after B's current
   * packet; without it waits behind the queued data packets.
   */
  function ackLatency(ackPriority: boolean): number {
    const p = makePair(4, { ackPriority });
    for (let v = 1; v < 4; v++) {
      p.driver.receive(0, v, 0);
      p.driver.send(1, v, Array.from({ length: 32 }, (_, j) => j + v), 0);
    }
    p.driver.receive(1, 0, 0);
    p.driver.send(0, 0, [9, 9, 9], 20);
    p.sim.step(3000);
    const done = p.rec.deliveries.length;
    if (done !== 4) throw new Error(`expected 4 deliveries, got ${done}`);
    const msgA = p.driver.messages.find((m) => m.src.node === 0)!.id;
    return first(p, 'ack', msgA) - first(p, 'head-arrives', msgA);
  }
  it('ack priority on: the ack overtakes queued data packets; off: it waits behind them', () => {
    const on = ackLatency(true);
    const off = ackLatency(false);
    // one 32-byte packet is 334 bits on the wire
    expect(on).toBeLessThan(400);
    expect(off).toBeGreaterThan(on + 2 * 300);
  });
});

describe('T9000 endpoint: packets on the wires', () => {
  /** Four VLs a → b each sending one 100-byte message at once; a's wires read back as packets. */
  function packetsOnWire(): { vlOf: number; bytes: number[]; end: number }[] {
    const V = 4;
    const p = makePair(V, { rxSlots: 4 }, { links: realLinks() });
    const end = p.a.links[0]!;
    const d: number[] = [];
    const s: number[] = [];
    p.sim.observe({ onCycle: (q) => (d.push(q.peek(end.dOut)), s.push(q.peek(end.sOut))) });
    for (let v = 0; v < V; v++) {
      p.driver.receive(1, v, 0);
      // byte j of VL v's message: v in the top two bits, j mod 64 below, so a byte names its VL and place
      p.driver.send(0, v, Array.from({ length: 100 }, (_, j) => (v << 6) | (j & 63)), 0);
    }
    p.sim.runUntil(() => p.rec.deliveries.length === V, 60_000);
    expect(p.rec.deliveries).toHaveLength(V);
    const dec = decodeBits(dsDecode(d, s));
    expect(dec.error).toBeNull();
    const chars = dec.tokens.flatMap((t) => (t.kind === 'char' ? [t.ch] : []));
    const out: { vlOf: number; bytes: number[]; end: number }[] = [];
    for (let k = 0; k < chars.length; ) {
      const hdr = chars[k++]!;
      const bytes: number[] = [];
      while (chars[k] !== CHAR_EOP && chars[k] !== CHAR_EOM) bytes.push(chars[k++]!);
      out.push({ vlOf: hdr, bytes, end: chars[k++]! });
    }
    return out;
  }
  it('a started packet is never interleaved with another on the same link: every packet is one header, one VL\'s consecutive bytes (≤ 32), EOP or EOM', () => {
    const pk = packetsOnWire();
    expect(pk).toHaveLength(4 * 4); // 100 bytes = 32 + 32 + 32 + 4
    const next = new Map<number, number>();
    for (const x of pk) {
      expect(x.bytes.length).toBeGreaterThan(0);
      expect(x.bytes.length).toBeLessThanOrEqual(32);
      const v = x.bytes[0]! >> 6;
      for (const [i, b] of x.bytes.entries()) {
        expect(b >> 6, `packet with header ${x.vlOf}: byte ${i} from another VL`).toBe(v);
        expect(b & 63).toBe(((next.get(v) ?? 0) + i) & 63);
      }
      next.set(v, (next.get(v) ?? 0) + x.bytes.length);
      expect(x.end).toBe(next.get(v) === 100 ? CHAR_EOM : CHAR_EOP);
    }
    // the four VLs' packets do alternate on the link (so interleaving would have been possible)
    expect(new Set(pk.slice(0, 4).map((x) => x.bytes[0]! >> 6)).size).toBeGreaterThan(1);
  });
});

describe('T9000 endpoint: modes and timing', () => {
  function period(cfg: Partial<T9000Config>, m = 4, count = 20, txBuffer = 8): number {
    const p = makePair(1, cfg, { links: stubLinks({ txBuffer }) });
    p.driver.receiveLoop(1, 0, count, 0);
    p.driver.sendLoop(0, 0, count, 0, () => Array.from({ length: m }, (_, j) => j));
    p.sim.step(count * (m * 10 + 200 + (cfg.packetStartupCycles ?? 0) + (cfg.messageOverheadCycles ?? 0)));
    const done = p.rec.events.filter((e) => e.kind === 'message-complete').map((e) => e.t);
    expect(done).toHaveLength(count);
    return (done[count - 1]! - done[4]!) / (count - 5);
  }
  it('stream: back-to-back 4-byte packets (10s + 10m + 4 = 54 cycles each over the stand-in link)', () => {
    expect(period({})).toBe(54);
  });
  it('handshake: the next message waits for the ack, its last packet to be handed to the link and the per-message overhead', () => {
    // a one-character transmit buffer: "handed to the link" is then one character before the wire (docs/t9000.md#message-modes)
    const st = period({}, 4, 20, 1);
    const hs = period({ messageMode: 'handshake', messageOverheadCycles: 20 }, 4, 20, 1);
    const hs0 = period({ messageMode: 'handshake', messageOverheadCycles: 0 }, 4, 20, 1);
    expect(st).toBe(54);
    expect(hs0).toBeLessThan(st + 5);
    expect(hs - hs0).toBeGreaterThanOrEqual(20 - 14); // the overhead may overlap the EOP still on the wire
    expect(hs).toBeGreaterThan(st);
  });
  it('packet start-up β delays every data packet (measured preset: 330 cycles)', () => {
    const st = period({});
    const meas = period({ ...MEASURED_TIMING });
    // β may overlap the previous packet's characters still in the link's transmit buffer (≤ one 4-byte packet)
    expect(meas).toBeGreaterThanOrEqual(330 + st - 54 + 6);
    expect(meas).toBeLessThanOrEqual(330 + st);
  });
  it('ack delay and β hold every ack / data header back by exactly their cycles (0 by default, as in the thesis); the stream pays the ack delay once per packet', () => {
    const times = (cfg: Partial<T9000Config>) => {
      const p = makePair(1, cfg, { links: stubLinks({ txBuffer: 8 }) });
      p.driver.receive(1, 0, 0);
      p.driver.send(0, 0, [1, 2, 3, 4], 0);
      p.sim.step(1000);
      const t = (kind: string) => p.rec.events.find((e) => e.kind === kind)!.t;
      return { ack: t('ack') - t('head-arrives'), inj: t('packet-injected') };
    };
    const base = times({});
    for (const d of [1, 2, 7, 100]) {
      expect(times({ ackDelayCycles: d }).ack, `ack delay ${d}`).toBe(base.ack + d);
      expect(times({ packetStartupCycles: d }).inj, `β ${d}`).toBe(base.inj + d);
    }
    // one outstanding packet per VL: each 4-byte packet (54 cycles on the wire) waits for its delayed ack
    expect(period({ ackDelayCycles: 100 })).toBeGreaterThan(period({}) + 50);
  });
  it("packetSentAt 'wire': a data packet counts as sent the first cycle after its end marker's last bit (taken + 5); 'handover' before the marker is on the wires; both kernel modes agree", () => {
    const sent = (packetSentAt: 'handover' | 'wire', mode: 'activity' | 'plain' = 'activity') => {
      const p = makePair(1, { messageMode: 'handshake', packetSentAt }, { links: realLinks(), mode });
      const end = p.a.links[0] as DsLinkEnd;
      let take = -1;
      let done = -1;
      const d: number[] = [];
      const st: number[] = [];
      const cyc: number[] = [];
      p.sim.observe({
        onCycle: (x) => {
          if (take < 0 && x.peek(end.tokens.sendNormal) === 1 && x.peek(end.tokens.txChar) === CHAR_EOM) take = x.cycle;
          if (done < 0 && x.peek(p.a.tx[0]!.txDone) === 1) done = x.cycle;
          d.push(x.peek(end.dOut));
          st.push(x.peek(end.sOut));
          cyc.push(x.cycle);
        },
      });
      p.driver.receive(1, 0, 2500);
      p.driver.send(0, 0, [1, 2, 3, 4], 2500);
      p.sim.step(4000);
      // the cycle of the EOM's last bit, read off a's wires (bit k is the k-th data-strobe change)
      const bitCycles = cyc.filter((_, k) => (d[k]! ^ st[k]!) !== (k === 0 ? 0 : d[k - 1]! ^ st[k - 1]!));
      const bits = dsDecode(d, st);
      // the framed token whose flag says control and whose payload (lsb first) is EOM's code
      const eomAt = decodeBits(bits).starts.find((k) => bits[k + 1] === 1 && bits[k + 2]! + 2 * bits[k + 3]! === CTL_EOM);
      const lastBit = eomAt === undefined ? -1 : bitCycles[eomAt + LEN_CTL - 1]!;
      return { lag: done - take, afterLastBit: done - lastBit, events: p.rec.sorted() };
    };
    const wire = sent('wire');
    expect(wire.lag).toBe(1 + LEN_CTL);
    expect(wire.afterLastBit).toBe(1); // the first cycle after the marker's last bit, as read on the wires
    expect(sent('handover').lag).toBeLessThan(0);
    expect(sent('wire', 'plain')).toEqual(wire);
  });
  it("packetSentAt 'wire' is refused on link ends whose buffer or flow-through hides the marker's take, in one line", () => {
    expect(() => makePair(1, { packetSentAt: 'wire' }, { links: dsLinks({ txBufferTokens: 2 }) })).toThrow(/^t9000 \S+: packetSentAt 'wire' needs DS-link ends with a 1-character transmit buffer and no flowThrough \(link 0\)$/);
    expect(() => makePair(1, { packetSentAt: 'wire' }, { links: dsLinks(T9000_THESIS_SIM_LINKS) })).toThrow(/packetSentAt 'wire' needs/);
    expect(() => makePair(1, { packetSentAt: 'wire' }, { links: stubLinks() })).toThrow(/packetSentAt 'wire' needs/);
  });
  it('two-byte headers cost 10 cycles more per packet', () => {
    expect(period({}, 8)).toBe(94);
    expect(period({ headerBytes: 2 }, 8)).toBe(104);
  });
});

describe('T9000 endpoint: several physical links', () => {
  it('virtual links on two links of each endpoint: both links carry their own VLs, every message intact', () => {
    const top = new Module(null, 'top');
    const vls = [
      { link: 0, header: 0 },
      { link: 1, header: 1 },
      { link: 1, header: 2 },
    ];
    const a = new T9000Endpoint(top, 'a', { links: 2, virtualLinks: vls }, stubLinks());
    const b = new T9000Endpoint(top, 'b', { links: 2, virtualLinks: vls }, stubLinks());
    joinLinks(top, a.links[0]!, b.links[0]!);
    joinLinks(top, a.links[1]!, b.links[1]!);
    const sim = new Simulator(top);
    const { driver, rec } = attachT9000Pair(sim, a, b);
    for (let v = 0; v < 3; v++) {
      driver.receive(1, v, 0);
      driver.send(0, v, Array.from({ length: 40 + v }, (_, j) => (j * 3 + v) & 0xff), 0);
    }
    sim.step(3000);
    expect(rec.deliveries).toHaveLength(3);
    for (const d of rec.deliveries) expect(d.bytes).toEqual(driver.messages[d.msg]!.data);
    const ports = (v: number) => new Set(rec.events.filter((e) => e.kind === 'packet-injected' && driver.messages[e.msg]!.src.vl === v).map((e) => e.port));
    expect([...ports(0)]).toEqual([0]);
    expect([...ports(1)]).toEqual([1]);
    expect([...ports(2)]).toEqual([1]);
    // the two links run in parallel: VL 0's message is not held up by VLs 1 and 2
    const done = (v: number) => rec.deliveries.find((d) => d.vl === v)!.cycle;
    expect(done(0)).toBeLessThan(done(2));
  });
});

// packets of one VL that overtake each other over a hunt group: test/t9000/hunt_group.test.ts

describe('T9000 config', () => {
  const vls = [{ link: 0, header: 0 }];
  it('defaults follow the seed; bad fields are named with their range', () => {
    const c = t9000Config({ virtualLinks: vls });
    expect(c.links).toBe(4);
    expect(c.packetBytes).toBe(32);
    expect(c.ackPriority).toBe(true);
    expect(c.packetStartupCycles).toBe(0);
    expect(() => t9000Config({ virtualLinks: vls, links: 5 })).toThrow('t9000.links: 5 is outside 1..4');
    expect(() => t9000Config({ virtualLinks: [{ link: 1, header: 0 }], links: 1 })).toThrow('t9000.virtualLinks[0].link: 1 is outside 0..0');
    expect(() => t9000Config({ virtualLinks: [{ link: 0, header: 256 }] })).toThrow('t9000.virtualLinks[0].header: 256 is outside 0..255');
    expect(() => t9000Config({ virtualLinks: vls, headerBytes: 3 as 1 })).toThrow(/t9000.headerBytes: 3 is not one of 1, 2/);
    expect(() => t9000Config({ virtualLinks: vls, messageMode: 'burst' as 'stream' })).toThrow(/t9000.messageMode/);
    expect(() => t9000Config({ virtualLinks: [] })).toThrow(/t9000.virtualLinks: 0 control blocks is outside 1..4095/);
    expect(() => t9000Config({ virtualLinks: vls, packetBytes: 33 })).toThrow('t9000.packetBytes: 33 is outside 1..32');
  });
});
