/**
 * Buzzard signal-level flow control (seed 002 §5.4.8; spec §8.8, §8.9, A2,
 * A12; DESIGN.md "Flow control at start and sync points", "Contrary
 * refusal"): node output port slots sending through the crossbar and a
 * FlowControlUnit pair per link to receiver models that block on command.
 *
 * All runs drive a 'plain' and an 'activity' simulator in lockstep and
 * compare their whole state every cycle (test/lib/lockstep_sim.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkConfig, geometry } from '../../rtl/buzzard/config.ts';
import { decodeStream, encodePacket, packetBits, packPreheader, type PacketFields } from '../../rtl/buzzard/framing.ts';
import { FlowControlUnit } from '../../rtl/buzzard/flow_control_unit.ts';
import { SLOT_STATES } from '../../rtl/buzzard/node_output_port.ts';
import { Simulator } from '../../rtl/kernel/index.ts';
import { rng } from '../lib/lockstep_sim.ts';
import { neverBlock, parsePacket, RefusingReceiver, runOut, segments, SyncBlocker, type Receiver, type SlotTrace } from './ports_bench.ts';

const pkt = (dest: number, words: number[], port = 3, contrary = 0): PacketFields => ({ contrary, port, len: words.length, dest, words });

/** Sync points of a packet: S1, the strict post-preheader Y1, one Y1 per word after the destination. */
const syncPoints = (p: PacketFields, strict: boolean): number => 1 + (strict ? 1 : 0) + p.len;

function connBits(tr: SlotTrace): number[][] {
  return segments(tr.busy).map(([a, b]) => tr.line.slice(a, b + 1));
}

describe('flow control unit (spec §8.8)', () => {
  it('passes bit and block straight through both sections and counts busy cycles, held cycles and packets', () => {
    const f = new FlowControlUnit(null, 'fcu');
    const sim = new Simulator(f, { mode: 'plain' });
    const seq: [number, number, number][] = [
      // xbusy, xbit, txBlock
      [0, 0, 0],
      [1, 1, 1],
      [1, 1, 1],
      [1, 0, 0],
      [0, 0, 1],
      [1, 1, 0],
      [1, 0, 1],
    ];
    for (const [busy, bit, blk] of seq) {
      sim.poke(f.xbusy, busy);
      sim.poke(f.xbit, bit);
      sim.poke(f.txBlock, blk);
      sim.poke(f.rxBit, bit ^ 1);
      sim.poke(f.block, blk ^ 1);
      expect(sim.peek(f.txBit)).toBe(bit);
      expect(sim.peek(f.hold)).toBe(blk);
      expect(sim.peek(f.bit)).toBe(bit ^ 1);
      expect(sim.peek(f.rxBlock)).toBe(blk ^ 1);
      sim.step();
    }
    expect(sim.peek(f.busyCycles)).toBe(5);
    expect(sim.peek(f.holdCycles)).toBe(3);
    expect(sim.peek(f.packets)).toBe(2);
  });
});

describe('flow control at start and sync points (spec §8.9)', () => {
  it('a receiver blocking for k cycles at the m-th sync point makes the sender repeat exactly k extra 1s there', () => {
    const cfg = checkConfig({ n: 1 });
    const p = pkt(0xa5a5, [0x0f0f, 0xf0f0, 0x1234]);
    for (const [m, k] of [
      [0, 5], // S1
      [1, 1], // Y1 before the source word
      [3, 17], // Y1 before the last word
    ] as const) {
      const plan = Array(syncPoints(p, false)).fill(0);
      plan[m] = k;
      const { traces } = runOut(cfg, { packets: [[p]], receivers: [new SyncBlocker(4, false, plan)], fcu: true });
      const [bits] = connBits(traces[0]!);
      const got = parsePacket(bits!, 4, false);
      expect(got.fields).toEqual(p);
      expect(got.runs).toEqual(plan.map((x) => 1 + x));
      expect(bits!.length).toBe(packetBits(3, 9, false) + k);
    }
  });

  it('property: random packets, block positions and durations on several links at once; nothing lost or duplicated', () => {
    let episodes = 0;
    fc.assert(
      fc.property(
        fc.record({ n: fc.integer({ min: 1, max: 3 }), strictFraming: fc.boolean(), packetBytes: fc.constantFrom(32 as const, 64 as const), arbiterLatency: fc.constantFrom(0, 2) }),
        fc.array(
          fc.array(
            fc.record({ port: fc.nat(15), dest: fc.nat(0xffff), words: fc.array(fc.nat(0xffff), { minLength: 1, maxLength: 31 }) }).map((p) => ({ ...p, contrary: 0, len: p.words.length })),
            { minLength: 1, maxLength: 3 },
          ),
          { minLength: 3, maxLength: 3 },
        ),
        fc.integer(),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (c, all, seed, noiseRate) => {
          const cfg = checkConfig(c);
          const g = geometry(cfg);
          const strict = cfg.strictFraming;
          const packets = all.slice(0, cfg.n).map((ps) => ps.map((p) => ({ ...p, words: p.words.slice(0, g.maxL), len: Math.min(p.len, g.maxL) })));
          const r = rng(seed);
          const plans = packets.map((ps) => ps.map((p) => Array.from({ length: syncPoints(p, strict) }, () => (r() < 0.3 ? 1 + Math.floor(r() * 20) : 0))));
          const receivers: Receiver[] = plans.map((pl) => new SyncBlocker(g.lengthBits, strict, pl.flat(), () => r() < noiseRate));
          const { traces, rig } = runOut(cfg, { packets, receivers, fcu: true });
          traces.forEach((tr, j) => {
            const conns = connBits(tr);
            expect(conns.length).toBe(packets[j]!.length);
            conns.forEach((bits, m) => {
              const got = parsePacket(bits, g.lengthBits, strict);
              expect(got.fields).toEqual(packets[j]![m]);
              expect(got.runs).toEqual(plans[j]![m]!.map((k) => 1 + k));
              const extra = plans[j]![m]!.reduce((a, b) => a + b, 0);
              expect(got.length).toBe(bits.length);
              expect(bits.length).toBe(packetBits(packets[j]![m]!.len, g.preheaderBits, strict) + extra);
              episodes += plans[j]![m]!.filter((k) => k > 0).length;
            });
            expect(decodeStream(tr.line, g.lengthBits, strict)).toEqual(packets[j]);
            // link statistics of the sending section
            const busy = tr.busy.filter((v) => v === 1).length;
            expect(rig.peek((b) => b.fcuNear[j]!.busyCycles)).toBe(busy);
            expect(rig.peek((b) => b.fcuNear[j]!.packets)).toBe(packets[j]!.length);
            expect(rig.peek((b) => b.fcuNear[j]!.holdCycles)).toBe(tr.busy.filter((v, t) => v === 1 && tr.blk[t] === 1).length);
            // a grant only towards a receiver that is not blocking (§8.3)
            tr.gnt.forEach((v, t) => v === 1 && expect(tr.blk[t]).toBe(0));
          });
        },
      ),
      { numRuns: 60 },
    );
    expect(episodes).toBeGreaterThan(20);
  });

  it('a prefetch underrun stretches the Y1 until the chunk is in: exact length', () => {
    const cfg = checkConfig({ n: 1 });
    const p = pkt(0x00ff, [0xcafe, 0xbabe, 0x7777]);
    // the control unit answers every request after D cycles
    for (const D of [0, 10, 22, 23, 40]) {
      const { traces, feeders } = runOut(cfg, { packets: [[p]], delays: [() => D], receivers: [neverBlock()] });
      const tr = traces[0]!;
      const [a] = segments(tr.busy)[0]!;
      const [bits] = connBits(tr);
      const got = parsePacket(bits!, 4, false);
      expect(got.fields).toEqual(p);
      // The head chunk ends at a+26 (S1 S0, 9 + 16 bits); the first data chunk is loaded in cycle L1 = feeders' 2nd load.
      // pfAvail in L1+1, moved in at that edge, Y0 in L1+2: the Y1 covers a+27 .. L1+1 (at least one cycle).
      const L1 = feeders[0]!.loads[1]!.cycle;
      expect(L1).toBe(a + 4 + D); // refill visible while the counter shows 23, i.e. 4 cycles after S1
      expect(got.runs[1]).toBe(Math.max(1, L1 + 1 - (a + 27) + 1));
      expect(got.runs[1]! > 1).toBe(D >= 23); // 22 cycles of slack after the request at 23
      expect(tr.state[a + 27]).toBe(SLOT_STATES.indexOf('Y1'));
    }
  });

  it('property: a slow control unit and a blocking receiver together lose nothing', () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.array(fc.array(fc.nat(0xffff), { minLength: 1, maxLength: 15 }), { minLength: 1, maxLength: 4 }),
        fc.integer(),
        (strict, wordLists, seed) => {
          const cfg = checkConfig({ n: 1, strictFraming: strict });
          const ps = wordLists.map((w, k) => pkt(k * 257, w, k & 15));
          const r = rng(seed);
          const plan = ps.flatMap((p) => Array.from({ length: syncPoints(p, strict) }, () => (r() < 0.2 ? Math.floor(r() * 10) : 0)));
          const { traces } = runOut(cfg, { packets: [ps], delays: [() => Math.floor(r() * 40)], receivers: [new SyncBlocker(4, strict, plan, () => r() < 0.2)] });
          const tr = traces[0]!;
          expect(decodeStream(tr.line, 4, strict)).toEqual(ps);
          // every stretched sync is explained by a block or by waiting for the prefetch
          connBits(tr).forEach((bits, m) => expect(parsePacket(bits, 4, strict).fields).toEqual(ps[m]));
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('contrary refusal (spec §8.4 step 3, §8.9 item 3, A8)', () => {
  for (const strict of [false, true]) {
    it(`${strict ? 'strict' : 'non-strict'} framing: abort at the refusal point, pulse refused, resend the same packet once the block drops`, () => {
      const cfg = checkConfig({ n: 2, strictFraming: strict });
      const p = pkt(0x0c0c, [0x1111, 0x2222, 0x3333, 0x4444, 0x5555], 2, 1); // contrary
      const q = pkt(0x0d0d, [0x6666, 0x7777], 1, 0);
      const refusals = 2;
      const extra = 30;
      const rx = new RefusingReceiver(4, strict, refusals, extra);
      const { traces, feeders } = runOut(cfg, { packets: [[], [p, q]], receivers: [neverBlock(), rx], fcu: true });
      const tr = traces[1]!;
      const segs = segments(tr.busy);
      expect(segs.length).toBe(refusals + 2);
      const pre = packPreheader(1, 2, 5, 4);
      const preBits = Array.from({ length: 9 }, (_, k) => (pre >> (8 - k)) & 1);
      const abortBits = [1, 0, ...preBits, ...(strict ? [1] : [])];
      for (let k = 0; k < refusals; k++) {
        const [a, b] = segs[k]!;
        // the attempt: S1 S0 and the preheader (strict: and the Y1), then the line is 0
        expect(tr.line.slice(a, b + 1)).toEqual(abortBits);
        expect(tr.line[b + 1]).toBe(0);
        // block from the cycle after C (a+2) on; hold seen at the refusal point; release there
        expect(tr.blk.slice(a + 3, b + 1).every((v) => v === 1)).toBe(true);
        expect(tr.hold[b]).toBe(1);
        expect(tr.rel[b]).toBe(1);
        expect(tr.state[b]).toBe(SLOT_STATES.indexOf(strict ? 'PY1' : 'PRE'));
        expect(tr.refused[b + 1]).toBe(1);
        expect(tr.state[b + 1]).toBe(SLOT_STATES.indexOf('ARB'));
        // the retry waits for the block to drop: the receiver keeps it `extra` cycles after the line fell
        const u = tr.blk.indexOf(0, b + 1);
        expect(u).toBe(b + 2 + extra);
        expect(segs[k + 1]![0]).toBe(u + 1); // the request aged while blocked: granted in u, S1 in u+1
      }
      expect(tr.refused.filter((v) => v === 1).length).toBe(refusals);
      expect(tr.rel.filter((v) => v === 1).length).toBe(refusals + 2);
      expect(connBits(tr).slice(refusals)).toEqual([encodePacket(p, 4, strict), encodePacket(q, 4, strict)]);
      expect(decodeStream(tr.line.slice(segs[refusals]![0]), 4, strict)).toEqual([p, q]);
      expect(tr.done.filter((v) => v === 1).length).toBe(2);
      // the control unit loaded every chunk once: the retries came from the header copy
      expect(feeders[1]!.loads.map((l) => l.chunk.count)).toEqual([25, 32, 32, 16, 25, 32]);
      expect(traces[0]!.busy.every((v) => v === 0)).toBe(true);
    });
  }

  it('a non-contrary packet ignores hold at the last preheader bit (non-strict) and is stretched at the post-preheader Y1 (strict)', () => {
    for (const strict of [false, true]) {
      const cfg = checkConfig({ n: 1, strictFraming: strict });
      const p = pkt(0x4242, [9, 8], 4, 0);
      // the PBU model would refuse C = 1 only; force a block over the whole preheader with the sync blocker's noise
      const plan = [0, ...(strict ? [3] : []), 0, 0];
      const rxs = new SyncBlocker(4, strict, plan, (where) => where === 'field');
      const { traces } = runOut(cfg, { packets: [[p]], receivers: [rxs] });
      const tr = traces[0]!;
      const conns = connBits(tr);
      expect(conns.length).toBe(1);
      const got = parsePacket(conns[0]!, 4, strict);
      expect(got.fields).toEqual(p);
      expect(got.runs).toEqual(plan.map((k) => 1 + k));
      expect(tr.refused.every((v) => v === 0)).toBe(true);
    }
  });
});
