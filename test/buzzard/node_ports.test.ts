/**
 * Buzzard node output port and node input port (seed 002 §5.4.4–§5.4.5;
 * spec §8.4, §8.5, A4, A5, A12, A14; DESIGN.md interfaces).
 *
 * Every run drives a 'plain' and an 'activity' simulator in lockstep
 * (test/lib/lockstep_sim.ts): each cycle the whole state vector and all
 * memories must agree, which catches a comb or seq process that reads a
 * signal it did not declare.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkConfig, geometry, type BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { decodeStream, encodePacket, packetBits, type PacketFields } from '../../rtl/buzzard/framing.ts';
import { INPUT_STATES, NodeInputPort } from '../../rtl/buzzard/node_input_port.ts';
import { NodeOutputPort, SLOT_STATES } from '../../rtl/buzzard/node_output_port.ts';
import { Module, Simulator } from '../../rtl/kernel/index.ts';
import { rng } from '../lib/lockstep_sim.ts';
import { chunksOf, fifoWordsOf, OutBench, runIn, runOut, segments } from './ports_bench.ts';

const pkt = (dest: number, words: number[], port = 3, contrary = 0): PacketFields => ({ contrary, port, len: words.length, dest, words });

const arbPacket = (maxL: number, contrary: fc.Arbitrary<number> = fc.constant(0)) =>
  fc.record({ contrary, port: fc.nat(15), dest: fc.nat(0xffff), words: fc.array(fc.nat(0xffff), { minLength: 1, maxLength: maxL }) }).map((p) => ({ ...p, len: p.words.length }));

const arbCfg = (nMax: number) =>
  fc.record({ n: fc.integer({ min: 1, max: nMax }), strictFraming: fc.boolean(), packetBytes: fc.constantFrom(32 as const, 64 as const), arbiterLatency: fc.constantFrom(0, 1, 2) }).map((c) => checkConfig(c));

/** The bits of each connection on a link. */
function connections(line: number[], busy: number[]): number[][] {
  return segments(busy).map(([a, b]) => line.slice(a, b + 1));
}

describe('node output port: framing, counts and refill (spec §8.4)', () => {
  it('a packet loaded through the control-unit interface leaves bit-exact with the 25/32/16 counts and a refill at 23', () => {
    const cfg = checkConfig({ n: 2 });
    const p = pkt(0xbeef, [0x1234, 0x5678, 0x9abc]); // L = 3: head 25, then 32, then 16
    const { traces, feeders } = runOut(cfg, { packets: [[p], []] });
    const tr = traces[0]!;
    expect(feeders[0]!.loads.map((l) => l.chunk.count)).toEqual([25, 32, 16]);
    expect(chunksOf(p, 4).map((c) => c.count)).toEqual([25, 32, 16]);
    // pfLoad in cycle 0 → pfAvail in 1 → step 1 (load, ARB) → request from 2 → grant in 4 (latency 2) → S1 in 5.
    expect(feeders[0]!.loads[0]!.cycle).toBe(0);
    expect(tr.state[2]).toBe(SLOT_STATES.indexOf('ARB'));
    expect(tr.gnt.indexOf(1)).toBe(4);
    const segs = segments(tr.busy);
    expect(segs).toEqual([[5, 5 + packetBits(3, 9, false) - 1]]);
    const [a, b] = segs[0]!;
    expect(tr.line.slice(a, b + 1)).toEqual(encodePacket(p, 4, false));
    expect(decodeStream(tr.line, 4, false)).toEqual([p]);
    // Counter: 25 at the first preheader bit, one less per data bit, not counting sync bits.
    expect(tr.cnt[a + 2]).toBe(25);
    expect(tr.cnt[a + 2 + 9]).toBe(16); // first destination bit
    // Refill request: rises while the counter shows 23 (after 2 head bits, after 9 bits of the 32-bit chunk),
    // and when the 16-bit last chunk is moved in (its counter starts past 23).
    const rises = tr.refill.flatMap((v, t) => (v === 1 && tr.refill[t - 1] !== 1 ? [t] : []));
    expect(rises.map((t) => tr.cnt[t])).toEqual([23, 23, 16]);
    expect(rises[0]).toBe(a + 2 + 2);
    // Each load answers a request and clears it at the same edge.
    for (const l of feeders[0]!.loads.slice(1)) {
      expect(tr.refill[l.cycle]).toBe(1);
      expect(tr.refill[l.cycle + 1]).toBe(0);
    }
    // Release during the last bit; pktDone in the next cycle; the slot is idle again.
    expect(tr.rel.flatMap((v, t) => (v ? [t] : []))).toEqual([b]);
    expect(tr.done.flatMap((v, t) => (v ? [t] : []))).toEqual([b + 1]);
    expect(tr.state[b + 1]).toBe(SLOT_STATES.indexOf('IDLE'));
    // slot 2 never moved
    expect(traces[1]!.busy.every((v) => v === 0)).toBe(true);
  });

  it('64-byte packets: a 26-bit head and a 5-bit length field; strict framing adds the post-preheader sync', () => {
    const cfg = checkConfig({ n: 1, packetBytes: 64, strictFraming: true });
    const words = Array.from({ length: 31 }, (_, k) => (k * 2654435761) & 0xffff);
    const p = pkt(0x8001, words, 15);
    const { traces, feeders } = runOut(cfg, { packets: [[p, pkt(7, [1])]] });
    expect(feeders[0]!.loads.map((l) => l.chunk.count)).toEqual([26, ...Array(15).fill(32), 16, 26, 16]);
    const conns = connections(traces[0]!.line, traces[0]!.busy);
    expect(conns.map((c) => c.length)).toEqual([packetBits(31, 10, true), packetBits(1, 10, true)]);
    expect(conns[0]).toEqual(encodePacket(p, 5, true));
    expect(decodeStream(traces[0]!.line, 5, true)).toEqual([p, pkt(7, [1])]);
  });

  it('back-to-back packets of one slot: the next head is taken at the last bit and re-arbitrated (A12: once per packet)', () => {
    const cfg = checkConfig({ n: 1 });
    const ps = [pkt(1, [2, 3]), pkt(4, [5]), pkt(6, [7, 8, 9, 10])];
    const { traces } = runOut(cfg, { packets: [ps] });
    const tr = traces[0]!;
    const segs = segments(tr.busy);
    expect(segs.length).toBe(3);
    for (let k = 1; k < 3; k++) {
      const end = segs[k - 1]![1];
      expect(tr.state[end + 1]).toBe(SLOT_STATES.indexOf('ARB')); // step 5 → step 1 at the same edge
      expect(segs[k]![0]).toBe(end + 1 + 2 + 1); // request from end+1, grant at end+3, S1 at end+4
    }
    expect(tr.gnt.filter((g) => g === 1).length).toBe(3);
    expect(decodeStream(tr.line, 4, false)).toEqual(ps);
  });

  it('all n slots transmit at once (A4), each bit-exact (property)', () => {
    fc.assert(
      fc.property(arbCfg(4), fc.array(fc.array(arbPacket(31), { minLength: 1, maxLength: 3 }), { minLength: 4, maxLength: 4 }), (cfg, all) => {
        const g = geometry(cfg);
        const packets = all.slice(0, cfg.n).map((ps) => ps.map((p) => ({ ...p, words: p.words.slice(0, g.maxL), len: Math.min(p.len, g.maxL) })));
        const { traces } = runOut(cfg, { packets, fcu: true });
        const firstS1 = traces.map((tr) => tr.busy.indexOf(1));
        // With nobody else on the outputs every slot starts in the same cycle.
        expect(new Set(firstS1).size).toBe(1);
        traces.forEach((tr, k) => {
          const conns = connections(tr.line, tr.busy);
          expect(conns.map((c) => c.length)).toEqual(packets[k]!.map((p) => packetBits(p.len, g.preheaderBits, cfg.strictFraming)));
          expect(decodeStream(tr.line, g.lengthBits, cfg.strictFraming)).toEqual(packets[k]);
          expect(tr.done.filter((v) => v === 1).length).toBe(packets[k]!.length);
          // refill rises only at counter 23, or on moving in a 16-bit last chunk
          tr.refill.forEach((v, t) => {
            if (v === 1 && tr.refill[t - 1] === 0) expect([23, 16]).toContain(tr.cnt[t]);
            if (v === 1) expect(tr.pfAvail[t]).toBe(0); // a request always finds the prefetch buffer free
          });
        });
      }),
      { numRuns: 40 },
    );
  });

  it('control-unit protocol errors stop the simulation naming the slot', () => {
    const cfg = checkConfig({ n: 1 });
    const run = (pokes: [number, number, number][]): (() => void) => () => {
      const b = new OutBench(cfg);
      const sim = new Simulator(b);
      for (const [load, data, count] of pokes) {
        sim.poke(b.cu[0]!.pfLoad, load);
        sim.poke(b.cu[0]!.pfData, data);
        sim.poke(b.cu[0]!.pfCount, count);
        sim.poke(b.blk[0]!, 0);
        sim.step();
      }
    };
    expect(run([[1, 0, 24]])).toThrow(/slot 1: pfCount 24 is not 25 \(head\), 32 or 16/);
    expect(run([[1, 0, 32], [0, 0, 0]])).toThrow(/slot 1: the prefetch holds a 32-bit data chunk where a packet head \(25 bits\) is expected/);
    expect(run([[1, 0, 25], [1, 0, 32]])).toThrow(/slot 1: pfLoad while the prefetch buffer still holds unsent data/);
  });

  it('declares its FSM state names and rejects a slot number out of range', () => {
    const m = new Module(null, 'top');
    const nop = new NodeOutputPort(m, 'nop', checkConfig({ n: 3 }));
    expect(nop.slot(2).state.options.enum).toEqual(SLOT_STATES);
    expect(nop.headCount).toBe(25);
    expect(() => nop.slot(4)).toThrow('NodeOutputPort: no slot 4 (1..3)');
    const nip = new NodeInputPort(m, 'nip', checkConfig({ n: 3 }));
    expect(nip.state.options.enum).toEqual(INPUT_STATES);
    expect(nip.count.width).toBe(5); // 0..16
  });
});

describe('node input port (spec §8.5)', () => {
  const fastDrain = () => true;

  it('a stream of packets arrives in the FIFO word-exact with last-word flags; no block with a fast drain', () => {
    for (const strict of [false, true]) {
      const cfg = checkConfig({ n: 1, strictFraming: strict });
      const ps = [pkt(0x0102, [0xaaaa, 1, 2, 3, 4]), pkt(0xffff, [0x8000]), pkt(0, Array.from({ length: 15 }, (_, k) => k * 4369))];
      const { popped, trace } = runIn(cfg, { packets: ps, popNow: fastDrain });
      expect(popped).toEqual(ps.flatMap(fifoWordsOf));
      expect(trace.block.every((v) => v === 0)).toBe(true);
      expect(decodeStream(trace.line, 4, strict)).toEqual(ps);
      // the preheader is dropped: 1 + L words per packet
      expect(trace.push.filter((v) => v === 1).length).toBe(ps.reduce((a, p) => a + 1 + p.len, 0));
    }
  });

  it('a full FIFO blocks at the next sync point and stretches its Y1 until a pop; exact cycles (depth 2)', () => {
    const cfg = checkConfig({ n: 1, fifoDepth: 2 });
    const P = 200;
    const p = pkt(0x1111, [0x2222, 0x3333, 0x4444]);
    const { trace, popped } = runIn(cfg, { packets: [p], popNow: (t) => t >= P });
    expect(popped).toEqual(fifoWordsOf(p));
    const c2 = trace.count.indexOf(2); // destination and source are in
    expect(trace.state[c2]).toBe(INPUT_STATES.indexOf('YWAIT'));
    expect(trace.block[c2]).toBe(1);
    expect(trace.block[c2 - 1]).toBe(0);
    // the sender repeats the Y1 from c2 until it sees the block drop
    expect(trace.line.slice(c2, P + 2)).toEqual(Array(P + 2 - c2).fill(1));
    // pop in P: count 1 in P+1, block 0 in P+1, Y0 in P+2, word bits P+3..P+18, pushed at the edge of P+18
    expect(trace.count[P + 1]).toBe(1);
    expect(trace.block[P + 1]).toBe(0);
    expect(trace.line[P + 2]).toBe(0);
    expect(trace.push[P + 18]).toBe(1);
    expect(trace.push.slice(P + 2, P + 18).every((v) => v === 0)).toBe(true);
  });

  it('with a slow control unit the port blocks only at start/sync points, never overflows, and loses nothing (property)', () => {
    let stretched = 0;
    fc.assert(
      fc.property(
        fc.record({ strictFraming: fc.boolean(), packetBytes: fc.constantFrom(32 as const, 64 as const), fifoDepth: fc.integer({ min: 2, max: 20 }), arbiterLatency: fc.constantFrom(0, 2) }),
        fc.array(arbPacket(31), { minLength: 1, maxLength: 4 }),
        fc.integer(),
        fc.double({ min: 0.01, max: 0.3, noNaN: true }),
        fc.nat(8),
        (c, raw, seed, popRate, cuDelay) => {
          const cfg: BuzzardConfig = checkConfig({ n: 1, ...c });
          const g = geometry(cfg);
          const ps = raw.map((p) => ({ ...p, words: p.words.slice(0, g.maxL), len: Math.min(p.len, g.maxL) }));
          const r = rng(seed);
          // bursts: the drain model is either idle for a while or popping
          let phase = 0;
          const popNow = (): boolean => {
            if (phase <= 0) phase = r() < 0.5 ? -Math.floor(r() * 60) : Math.floor(r() * 30);
            if (phase < 0) {
              phase++;
              return false;
            }
            phase--;
            return r() < popRate * 3;
          };
          const d = rng(seed ^ 0x5a5a);
          const { popped, trace } = runIn(cfg, { packets: ps, popNow, delay: () => Math.floor(d() * cuDelay) });
          expect(popped).toEqual(ps.flatMap(fifoWordsOf));
          expect(decodeStream(trace.line, g.lengthBits, cfg.strictFraming)).toEqual(ps);
          const syncStates = ['IDLE', 'START', 'YWAIT', 'Y1'].map((s) => INPUT_STATES.indexOf(s as (typeof INPUT_STATES)[number]));
          for (let t = 0; t < trace.block.length; t++) {
            // the rule: block = FIFO counter at its maximum, at a start/sync point
            expect(trace.block[t]).toBe(trace.count[t] === cfg.fifoDepth && syncStates.includes(trace.state[t]!) ? 1 : 0);
            // and therefore every word finds room without needing the same edge's pop
            if (trace.push[t] === 1) expect(trace.count[t]).toBeLessThan(cfg.fifoDepth);
            if (trace.block[t] === 1 && trace.busy[t] === 1) stretched++;
          }
        },
      ),
      { numRuns: 60 },
    );
    expect(stretched).toBeGreaterThan(0); // the property did exercise blocking inside packets
  });

  it('a broken sender (no Y1 after a word) is a protocol error', () => {
    const cfg = checkConfig({ n: 1 });
    const nip = new NodeInputPort(null, 'nip', cfg);
    const sim = new Simulator(nip, { mode: 'plain' });
    const bits = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, ...Array(16).fill(0)]; // S1 S0, preheader with L = 1, destination 0
    sim.poke(nip.pop, 0);
    for (const b of bits) {
      sim.poke(nip.inBit, b);
      sim.step();
    }
    expect(sim.peek(nip.count)).toBe(1);
    sim.poke(nip.inBit, 0);
    expect(() => sim.step()).toThrow(/expected the sync 1 \(Y1\) after a field, got 0/);
  });
});
