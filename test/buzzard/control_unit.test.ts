/**
 * Main control unit (rtl/buzzard/control_unit.ts) with NodeMemory and
 * CpuStandIn, in a loopback bench (cu_bench.ts) whose output-port slots,
 * network, input FIFOs and ATUs are behavioural stand-ins that throw on any
 * protocol error of the control unit (pfLoad while full, load without a
 * refill request, chunks not adding up to L, ATU key misuse, FIFO underflow).
 *
 * Checked: byte-exact delivery of random messages (1..600 bytes) with the
 * completion flags 0→1→3 at the receiver and 1→3 at the sender, under random
 * configurations (n, packet size, prefix, latencies, holds, refusals, link
 * pace); unexpected messages claimed later (user and null buffers, buffer
 * release), receives posted while the message arrives; ANY receives;
 * concurrent messages on different slots and from different sources
 * demultiplexed by (source, direction); slot choice under quasi-adaptive
 * (A13) and e-cube routing with the C / P preheader fields; broadcast and
 * NN-broadcast with every buffer word fetched once; instruction errors and
 * truncation; system-buffer exhaustion; interrupts; plain vs activity mode
 * state equality.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IRQ_CAUSE, describeCuError } from '../../rtl/buzzard/control_unit.ts';
import { BROADCAST_TAG, sourceWord } from '../../rtl/buzzard/framing.ts';
import {
  ANY,
  CU_ERR,
  OP,
  RECV,
  SEND,
  flagWord,
  packetSplit,
  prefixWords,
  readBytes,
  readRecvBlock,
  readWord,
  writeBytes,
  writeSendBlock,
  writeRecvBlock,
} from '../../rtl/buzzard/header_blocks.ts';
import { ecubeFirstPort, neighbour, nextPort, profitablePorts } from '../../rtl/buzzard/routing.ts';
import type { SimMode } from '../../rtl/kernel/index.ts';
import { CuBench, Rng, type BenchOptions } from './cu_bench.ts';
import { GUARD, GUARD_BYTE, Heaps, expectConsistent, expectReceived, prepareBroadcast, prepareRecv, prepareSend, randomBytes, recv, send } from './cu_bench_msgs.ts';

const MODES: SimMode[] = ['plain', 'activity'];
const LIMIT = 400_000;

function quiet(b: CuBench, what = 'quiescence'): number {
  return b.runUntil(() => b.quiet(), LIMIT, what);
}

function flagsOk(seq: number[], expected: number[]): void {
  expect(seq).toEqual(expected);
}

describe('ControlUnit: unicast send and receive into user buffers', () => {
  it('random messages of 1..600 bytes arrive byte-exact with flags 0→1→3 (receiver) and 1→3 (sender), random configs, both modes', () => {
    fc.assert(
      fc.property(
        fc.record({
          mode: fc.constantFrom(...MODES),
          n: fc.integer({ min: 2, max: 4 }),
          packetBytes: fc.constantFrom<32 | 64>(32, 32, 64),
          prefix: fc.constantFrom(6, 6, 8, 4, 2, 0),
          memoryAccess: fc.integer({ min: 1, max: 3 }),
          instructionStart: fc.integer({ min: 0, max: 6 }),
          queueSearchStep: fc.integer({ min: 0, max: 2 }),
          routing: fc.constantFrom<'quasi-adaptive' | 'e-cube'>('quasi-adaptive', 'e-cube'),
          lens: fc.array(fc.integer({ min: 1, max: 600 }), { minLength: 1, maxLength: 3 }),
          holdPct: fc.constantFrom(0, 5),
          refusePct: fc.constantFrom(0, 25),
          wordCycles: fc.constantFrom(18, 2, 1),
          seed: fc.integer({ min: 1, max: 1 << 30 }),
        }),
        (sc) => {
          const A = 0;
          const B = (1 << sc.n) - 1;
          const lens = sc.lens.slice(0, sc.n);
          const b = new CuBench({
            cfg: {
              n: sc.n,
              packetBytes: sc.packetBytes,
              firstPacketPrefixBytes: sc.prefix,
              routing: sc.routing,
              cu: { memoryAccess: sc.memoryAccess, instructionStart: sc.instructionStart, queueSearchStep: sc.queueSearchStep },
            },
            nodes: [A, B],
            mode: sc.mode,
            seed: sc.seed,
            holdPct: sc.holdPct,
            refusePct: sc.refusePct,
            wordCycles: sc.wordCycles,
          });
          const rng = new Rng(sc.seed);
          const h = new Heaps(b);
          const hasLen = sc.prefix === 4 || sc.prefix >= 6;
          const hasType = sc.prefix === 2 || sc.prefix >= 6;
          const msgs = lens.map((len, k) => {
            const type = hasType ? 100 + k : 0;
            const data = randomBytes(rng, len);
            // without a length prefix the receive's buffer length is the message length (A7 reading)
            const r = prepareRecv(b, h, B, A, type, hasLen ? len + rng.int(0, 40) : len);
            const s = prepareSend(b, h, A, B, type, data);
            return { r, s, data, type };
          });
          // without a type prefix all messages have type 0: post the receives one per message in order,
          // and send them on the e-cube slot only one at a time so the order is fixed
          for (const m of msgs) recv(b, m.r);
          b.run(30 + 20 * msgs.length);
          if (hasType) {
            for (const m of msgs) send(b, m.s);
            quiet(b);
          } else {
            for (const m of msgs) {
              send(b, m.s);
              quiet(b);
            }
          }
          for (const m of msgs) {
            expectReceived(b, m.r, A, m.type, m.data, `message ${m.type} (${m.data.length} B)`);
            flagsOk(m.r.flags, [0, 1, 3]);
            flagsOk(m.s.flags, [0, 1, 3]);
          }
          for (const id of [A, B]) {
            expect(b.sim.peek(b.cu(id).error), `node ${id} error register`).toBe(0);
            expectConsistent(b, id);
          }
          // every packet as framed: L words after the destination, the split of A6/A7
          const total = msgs.reduce((t, m) => t + packetSplit({ packetBytes: sc.packetBytes, firstPacketPrefixBytes: sc.prefix }, m.data.length).length, 0);
          expect(b.sent.get(A)!.length).toBe(total);
          expect(b.atuEntries(B)).toBe(0);
        },
      ),
      { numRuns: 14 },
    );
  });

  it('packet contents: destination, source word with the slot, A7 prefix, big-endian data, odd length padded with 0 (both modes)', () => {
    for (const mode of MODES) {
      const b = new CuBench({ cfg: { n: 3, routing: 'e-cube' }, nodes: [2, 5], mode, seed: 3 });
      const h = new Heaps(b);
      const data = Array.from({ length: 33 }, (_, k) => k + 1);
      const r = prepareRecv(b, h, 5, 2, 77, 64);
      const s = prepareSend(b, h, 2, 5, 77, data);
      writeBytes(b.mem(2), s.buf + data.length, [0xee, 0xee, 0xee]); // not part of the message: never sent
      recv(b, r);
      const issued = b.sim.cycle;
      send(b, s);
      quiet(b);
      const pk = b.sent.get(2)!;
      // flag 1 when the message is taken into the slot (before its first packet leaves), 3 after the last packet left
      expect(b.when(s.flags, 1)).toBeGreaterThan(issued);
      expect(b.when(s.flags, 1)).toBeLessThanOrEqual(pk[0]!.doneAt - 290); // a full packet is 299 bit times
      expect(b.when(s.flags, 3)).toBeGreaterThan(pk.at(-1)!.doneAt);
      // receiver: 1 when the first packet is stored, 3 after the last one
      expect(b.when(r.flags, 1)).toBeGreaterThan(pk[0]!.doneAt);
      expect(b.when(r.flags, 1)).toBeLessThan(pk[1]!.doneAt);
      expect(b.when(r.flags, 3)).toBeGreaterThan(pk[1]!.doneAt);
      const slot = ecubeFirstPort(2, 5);
      const halves: number[] = [];
      for (let k = 0; k < data.length; k += 2) halves.push((data[k]! << 8) | (k + 1 < data.length ? data[k + 1]! : 0));
      const stream = [...prefixWords(6, 77, data.length), ...halves];
      expect(pk.map((p) => p.len)).toEqual([15, 7]); // 3 prefix + 17 data words = 14 + 6
      const words = pk.flatMap((p) => {
        expect(p.dest).toBe(5);
        expect(p.slot).toBe(slot);
        expect(p.words[0]).toBe(sourceWord(2, slot));
        expect(p.contrary).toBe(0);
        expect(p.port).toBe(nextPort(neighbour(2, slot), 5));
        return p.words.slice(1);
      });
      expect(words).toEqual(stream);
      expectReceived(b, r, 2, 77, data);
    }
  });
});

describe('ControlUnit: unexpected messages, system buffers, ANY', () => {
  it('unexpected messages are claimed later byte-exact into user and null buffers; null buffers are released (property, both modes)', () => {
    fc.assert(
      fc.property(
        fc.record({
          mode: fc.constantFrom(...MODES),
          lens: fc.array(fc.integer({ min: 1, max: 600 }), { minLength: 1, maxLength: 3 }),
          nulls: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
          order: fc.array(fc.nat(2), { minLength: 3, maxLength: 3 }),
          memoryAccess: fc.integer({ min: 1, max: 2 }),
          seed: fc.integer({ min: 1, max: 1 << 30 }),
        }),
        (sc) => {
          const A = 1;
          const B = 6;
          const b = new CuBench({ cfg: { n: 3, cu: { memoryAccess: sc.memoryAccess, instructionStart: 4, queueSearchStep: 1 } }, nodes: [A, B], mode: sc.mode, seed: sc.seed });
          const rng = new Rng(sc.seed);
          const h = new Heaps(b);
          const msgs = sc.lens.map((len, k) => ({ data: randomBytes(rng, len), type: 300 + k }));
          const sends = msgs.map((m) => prepareSend(b, h, A, B, m.type, m.data));
          for (const s of sends) send(b, s);
          quiet(b);
          expect(b.sim.peek(b.cu(B).ucCount)).toBe(msgs.length);
          // claim in a scrambled order
          const idx = msgs.map((_, k) => k).sort((x, y) => sc.order[x]! - sc.order[y]! || x - y);
          for (const k of idx) {
            const m = msgs[k]!;
            const r = prepareRecv(b, h, B, A, m.type, m.data.length + 8, sc.nulls[k]);
            recv(b, r);
            quiet(b);
            const res = expectReceived(b, r, A, m.type, m.data, `claim ${m.type}`);
            flagsOk(r.flags, [0, 3]);
            flagsOk(sends[k]!.flags, [0, 1, 3]);
            if (sc.nulls[k]) {
              expect(res.buffer).toBeGreaterThanOrEqual(b.cu(B).layout.poolBase);
              b.issue(B, OP.release, res.buffer);
              quiet(b);
            }
          }
          const cu = b.cu(B);
          expect({ pool: b.sim.peek(cu.poolMap), user: b.sim.peek(cu.poolUser), uc: b.sim.peek(cu.ucCount), err: b.sim.peek(cu.error) }).toEqual({ pool: 0xff, user: 0, uc: 0, err: 0 });
          expectConsistent(b, A);
          expectConsistent(b, B);
        },
      ),
      { numRuns: 8 },
    );
  });

  it('a receive posted while its unexpected message arrives attaches to it (second queue link): copy or hand-over at completion (both modes)', () => {
    for (const mode of MODES) {
      for (const nullBuf of [false, true]) {
        const b = new CuBench({ cfg: { n: 2 }, nodes: [0, 3], mode, seed: 9 });
        const h = new Heaps(b);
        const data = randomBytes(new Rng(4), 400);
        const s = prepareSend(b, h, 0, 3, 12, data);
        send(b, s);
        // wait until the message is arriving as unexpected (on the arriving-unexpected list), then receive
        b.runUntil(() => b.sim.peek(b.cu(3).auHead) !== 0, LIMIT, 'arrival start');
        const r = prepareRecv(b, h, 3, 0, 12, 500, nullBuf);
        recv(b, r);
        quiet(b);
        const res = expectReceived(b, r, 0, 12, data);
        flagsOk(r.flags, [0, 1, 3]);
        const cu = b.cu(3);
        if (nullBuf) {
          expect(b.sim.peek(cu.poolUser)).not.toBe(0);
          b.issue(3, OP.release, res.buffer);
          quiet(b);
        }
        expect({ pool: b.sim.peek(cu.poolMap), user: b.sim.peek(cu.poolUser), uc: b.sim.peek(cu.ucCount), au: b.sim.peek(cu.auHead) }).toEqual({ pool: 0xff, user: 0, uc: 0, au: 0 });
        expectConsistent(b, 3);
      }
    }
  });

  it('an expected null-buffer receive gets a system buffer; a second release of it is an error', () => {
    for (const mode of MODES) {
      const b = new CuBench({ cfg: { n: 2 }, nodes: [1, 2], mode, seed: 2 });
      const h = new Heaps(b);
      const data = randomBytes(new Rng(8), 123);
      const r = prepareRecv(b, h, 2, 1, 5, 0, true);
      recv(b, r);
      b.run(40);
      send(b, prepareSend(b, h, 1, 2, 5, data));
      quiet(b);
      const res = expectReceived(b, r, 1, 5, data);
      flagsOk(r.flags, [0, 1, 3]);
      const cu = b.cu(2);
      b.issue(2, OP.release, res.buffer);
      quiet(b);
      expect(b.sim.peek(cu.poolMap)).toBe(0xff);
      expect(b.sim.peek(cu.error)).toBe(0);
      b.issue(2, OP.release, res.buffer);
      quiet(b);
      expect(b.sim.peek(cu.error)).toBe(CU_ERR.badRelease);
      expect(b.sim.peek(cu.poolMap)).toBe(0xff);
    }
  });

  it('ANY source / ANY type receives: ANY queue searched first in posting order, then the (source, type) bucket; unmatched messages wait unclaimed', () => {
    for (const mode of MODES) {
      const A = 0;
      const C = 3;
      const B = 7;
      const b = new CuBench({ cfg: { n: 3 }, nodes: [A, C, B], mode, seed: 11 });
      const h = new Heaps(b);
      const rng = new Rng(21);
      const R1 = prepareRecv(b, h, B, ANY, 5, 300); // any source, type 5
      const R2 = prepareRecv(b, h, B, A, ANY, 300); // source A, any type
      const R3 = prepareRecv(b, h, B, ANY, ANY, 0, true); // anything, null buffer
      const R5 = prepareRecv(b, h, B, C, 6, 300); // specific
      for (const r of [R1, R2, R3, R5]) recv(b, r);
      quiet(b);
      const m1 = randomBytes(rng, 77);
      send(b, prepareSend(b, h, A, B, 7, m1)); // → R2 (R1 wants type 5)
      quiet(b);
      expectReceived(b, R2, A, 7, m1, 'R2');
      const m2 = randomBytes(rng, 150);
      send(b, prepareSend(b, h, C, B, 5, m2)); // → R1
      quiet(b);
      expectReceived(b, R1, C, 5, m2, 'R1');
      const m3 = randomBytes(rng, 31);
      send(b, prepareSend(b, h, C, B, 9, m3)); // → R3 (ANY, ANY), before the specific R5 (different type anyway)
      quiet(b);
      const r3 = expectReceived(b, R3, C, 9, m3, 'R3');
      expect(r3.buffer).toBeGreaterThanOrEqual(b.cu(B).layout.poolBase);
      const m4 = randomBytes(rng, 40);
      send(b, prepareSend(b, h, C, B, 8, m4)); // nothing matches: unclaimed
      const m5 = randomBytes(rng, 60);
      send(b, prepareSend(b, h, C, B, 6, m5)); // → R5 (bucket)
      quiet(b);
      expectReceived(b, R5, C, 6, m5, 'R5');
      expect(b.sim.peek(b.cu(B).ucCount)).toBe(1);
      const R4 = prepareRecv(b, h, B, ANY, ANY, 100);
      recv(b, R4);
      quiet(b);
      expectReceived(b, R4, C, 8, m4, 'R4 claims the unclaimed one');
      expect(b.sim.peek(b.cu(B).anyCount)).toBe(0);
      expect(b.sim.peek(b.cu(B).ucCount)).toBe(0);
      // the ANY queue is searched before the (source, type) bucket even when the specific receive is older
      const R7 = prepareRecv(b, h, B, C, 11, 100);
      const R6 = prepareRecv(b, h, B, ANY, ANY, 100);
      recv(b, R7);
      recv(b, R6);
      quiet(b);
      const m6 = randomBytes(rng, 20);
      send(b, prepareSend(b, h, C, B, 11, m6));
      quiet(b);
      expectReceived(b, R6, C, 11, m6, 'R6 (ANY) before R7 (bucket)');
      flagsOk(R7.flags, [0]);
      const m7 = randomBytes(rng, 21);
      send(b, prepareSend(b, h, C, B, 11, m7));
      quiet(b);
      expectReceived(b, R7, C, 11, m7, 'R7');
      for (const id of [A, C, B]) expectConsistent(b, id);
    }
  });

  it('with one system buffer a second unexpected message waits (input port blocks) until the first is claimed', () => {
    for (const mode of MODES) {
      const b = new CuBench({ cfg: { n: 2 }, nodes: [0, 3], mode, seed: 5, layout: { sysBuffers: 1, sysBufBytes: 512 } });
      const h = new Heaps(b);
      const rng = new Rng(3);
      const d1 = randomBytes(rng, 200);
      const d2 = randomBytes(rng, 300);
      const s1 = prepareSend(b, h, 0, 3, 1, d1);
      const s2 = prepareSend(b, h, 0, 3, 2, d2);
      send(b, s1);
      quiet(b);
      send(b, s2);
      b.run(3000);
      expect(b.cu(3).rxSt).toBeDefined();
      expect(b.sim.peek(b.cu(3).rxSt)).toBeGreaterThan(0); // parked waiting for a buffer
      expect(s2.flags.at(-1)).not.toBe(3);
      const r1 = prepareRecv(b, h, 3, 0, 1, 256);
      recv(b, r1);
      quiet(b);
      expectReceived(b, r1, 0, 1, d1, 'first');
      const r2 = prepareRecv(b, h, 3, 0, 2, 300);
      recv(b, r2);
      quiet(b);
      expectReceived(b, r2, 0, 2, d2, 'second');
      flagsOk(s2.flags, [0, 1, 3]);
      expectConsistent(b, 3);
    }
  });
});

describe('ControlUnit: concurrency and slot choice', () => {
  it('messages in flight on different slots and from different sources are demultiplexed by (source, direction)', () => {
    for (const mode of MODES) {
      const n = 3;
      const A = 0;
      const C = 1; // 1 → 7 differs in bits 1, 2: two profitable ports
      const B = 7;
      // 5 messages at once: give the ATU room for all, so every flag goes 0→1→3
      const b = new CuBench({ cfg: { n, atuEntries: 5 }, nodes: [A, C, B], mode, seed: 17, netDelay: [0, 5] });
      const h = new Heaps(b);
      const rng = new Rng(99);
      const msgs: { src: number; type: number; data: number[] }[] = [];
      for (let k = 0; k < 3; k++) msgs.push({ src: A, type: 10 + k, data: randomBytes(rng, 250 + 37 * k) });
      for (let k = 0; k < 2; k++) msgs.push({ src: C, type: 20 + k, data: randomBytes(rng, 200 + 51 * k) });
      const rs = msgs.map((m) => prepareRecv(b, h, B, m.src, m.type, 600));
      for (const r of rs) recv(b, r);
      quiet(b);
      const ss = msgs.map((m) => prepareSend(b, h, m.src, B, m.type, m.data));
      for (const s of ss) send(b, s);
      quiet(b);
      msgs.forEach((m, k) => expectReceived(b, rs[k]!, m.src, m.type, m.data, `message ${m.type}`));
      rs.forEach((r) => flagsOk(r.flags, [0, 1, 3]));
      // A used three different slots (A13), C two; the packets reached B interleaved
      expect(new Set(b.sent.get(A)!.map((p) => p.slot)).size).toBe(3);
      expect(new Set(b.sent.get(C)!.map((p) => p.slot)).size).toBe(2);
      const arrivals = b.delivered.get(B)!.map((p) => `${p.src}/${p.slot}`);
      let switches = 0;
      for (let k = 1; k < arrivals.length; k++) if (arrivals[k] !== arrivals[k - 1]) switches++;
      expect(switches).toBeGreaterThan(10);
      for (const id of [A, C, B]) expectConsistent(b, id);
    }
  });

  it('slot choice: quasi-adaptive = fewest messages among profitable ports, ties to e-cube then lowest (A13); e-cube = e-cube port; C and P per packet', () => {
    fc.assert(
      fc.property(
        fc.record({
          mode: fc.constantFrom(...MODES),
          routing: fc.constantFrom<'quasi-adaptive' | 'e-cube'>('quasi-adaptive', 'e-cube'),
          n: fc.integer({ min: 2, max: 3 }),
          src: fc.nat(7),
          dests: fc.array(fc.nat(7), { minLength: 1, maxLength: 7 }),
          seed: fc.integer({ min: 1, max: 1 << 30 }),
        }),
        (sc) => {
          const N = 1 << sc.n;
          const src = sc.src % N;
          const dests = sc.dests.map((d) => d % N).filter((d) => d !== src);
          if (dests.length === 0) return;
          const nodes = Array.from({ length: N }, (_, k) => k);
          const b = new CuBench({ cfg: { n: sc.n, routing: sc.routing }, nodes, mode: sc.mode, seed: sc.seed });
          const h = new Heaps(b);
          const rng = new Rng(sc.seed);
          // long enough (>= 5 packets) that no message finishes while the sends are being issued
          const ss = dests.map((d, k) => prepareSend(b, h, src, d, 1000 + k, randomBytes(rng, 120 + rng.int(0, 60))));
          for (const s of ss) send(b, s);
          quiet(b);
          // reference (A13): count = messages given to the port so far
          const count = new Array(sc.n + 1).fill(0);
          const want = dests.map((d) => {
            const e = ecubeFirstPort(src, d);
            if (sc.routing === 'e-cube') return e;
            let best = -1;
            for (const p of profitablePorts(src, d, sc.n)) if (best < 0 || count[p] < count[best] || (count[p] === count[best] && p === e)) best = p;
            count[best]++;
            return best;
          });
          const got = ss.map((s) => b.sent.get(src)!.find((p) => p.words[1] === s.type)!.slot);
          expect(got).toEqual(want);
          for (const p of b.sent.get(src)!) {
            expect(p.contrary).toBe(p.slot === ecubeFirstPort(src, p.dest) ? 0 : 1);
            expect(p.port).toBe(nextPort(neighbour(src, p.slot), p.dest));
            expect(p.words[0]).toBe(sourceWord(src, p.slot));
          }
          ss.forEach((s) => flagsOk(s.flags, [0, 1, 3]));
          // every destination got its message (unexpected, unclaimed)
          for (const d of new Set(dests)) expect(b.sim.peek(b.cu(d).ucCount)).toBe(dests.filter((x) => x === d).length);
          for (const x of nodes) expectConsistent(b, x);
        },
      ),
      { numRuns: 8 },
    );
  });
});

describe('ControlUnit: broadcast and NN-broadcast', () => {
  it('broadcast: all n slots carry the same words (source word aside), each buffer word fetched once, every node receives it (both modes)', () => {
    for (const mode of MODES) {
      const n = 3;
      const S = 5;
      const nodes = Array.from({ length: 1 << n }, (_, k) => k);
      const b = new CuBench({ cfg: { n }, nodes, mode, seed: 23, holdPct: 5 });
      const h = new Heaps(b);
      const data = randomBytes(new Rng(7), 173);
      const rs = new Map<number, ReturnType<typeof prepareRecv>>();
      // half the receivers post first (expected), the others after (unclaimed)
      for (const x of nodes) if (x !== S && x % 2 === 0) rs.set(x, prepareRecv(b, h, x, S, 44, 200));
      for (const r of rs.values()) recv(b, r);
      quiet(b);
      const bc = prepareBroadcast(b, h, S, 44, data);
      b.issue(S, OP.broadcast, bc.blk);
      quiet(b);
      for (const x of nodes) if (x !== S && x % 2 === 1) {
        const r = prepareRecv(b, h, x, S, 44, 200);
        rs.set(x, r);
        recv(b, r);
      }
      quiet(b);
      for (const [x, r] of rs) expectReceived(b, r, S, 44, data, `node ${x}`);
      flagsOk(bc.flags, [0, 1, 3]);
      const pk = b.sent.get(S)!;
      const streams = new Map<number, number[]>();
      for (const p of pk) {
        expect(p.dest).toBe(BROADCAST_TAG | S);
        expect([p.contrary, p.port]).toEqual([0, 0]);
        expect(p.words[0]).toBe(sourceWord(S, p.slot));
        if (!streams.has(p.slot)) streams.set(p.slot, []);
        streams.get(p.slot)!.push(...p.words.slice(1));
      }
      expect([...streams.keys()].sort()).toEqual([1, 2, 3]);
      const ref = streams.get(1)!;
      for (const st of streams.values()) expect(st).toEqual(ref);
      // each word of the buffer read exactly once
      const reads = b.memReads(S);
      const words = Math.ceil(data.length / 4);
      for (let k = 0; k < words; k++) expect(reads.get(bc.buf + 4 * k), `buffer word ${k}`).toBe(1);
      for (const x of nodes) expectConsistent(b, x);
    }
  });

  it('broadcast queued behind unicast traffic waits for its slots and still completes; unicasts queued behind it too', () => {
    for (const mode of MODES) {
      const n = 2;
      const nodes = [0, 1, 2, 3];
      const b = new CuBench({ cfg: { n }, nodes, mode, seed: 4 });
      const h = new Heaps(b);
      const rng = new Rng(5);
      const u1 = prepareSend(b, h, 0, 3, 1, randomBytes(rng, 300));
      const bc = prepareBroadcast(b, h, 0, 2, randomBytes(rng, 90));
      const u2 = prepareSend(b, h, 0, 1, 3, randomBytes(rng, 50));
      send(b, u1);
      b.issue(0, OP.broadcast, bc.blk);
      send(b, u2);
      quiet(b);
      for (const f of [u1.flags, bc.flags, u2.flags]) flagsOk(f, [0, 1, 3]);
      // 3 received 2 messages, 1 two, 2 one
      expect([1, 2, 3].map((x) => b.sim.peek(b.cu(x).ucCount))).toEqual([2, 1, 2]);
      for (const x of nodes) expectConsistent(b, x);
    }
  });

  it('NN-broadcast: one unicast stream per listed neighbour (C = 0, P = 0), one fetch per word; others get nothing', () => {
    for (const mode of MODES) {
      const n = 3;
      const S = 6;
      const nodes = [S, 7, 4, 2]; // neighbours of 6: 7 (port 1), 4 (port 2), 2 (port 3)
      const b = new CuBench({ cfg: { n }, nodes, mode, seed: 8 });
      const h = new Heaps(b);
      const data = randomBytes(new Rng(1), 211);
      const nb = prepareBroadcast(b, h, S, 55, data, [2, 7]);
      const rs = [2, 7, 4].map((x) => prepareRecv(b, h, x, S, 55, 256));
      for (const r of rs) recv(b, r);
      quiet(b);
      b.issue(S, OP.nnBroadcast, nb.blk);
      quiet(b);
      expectReceived(b, rs[0]!, S, 55, data, 'node 2');
      expectReceived(b, rs[1]!, S, 55, data, 'node 7');
      flagsOk(rs[2]!.flags, [0]);
      flagsOk(nb.flags, [0, 1, 3]);
      const pk = b.sent.get(S)!;
      expect(new Set(pk.map((p) => p.slot))).toEqual(new Set([1, 3]));
      for (const p of pk) {
        expect(p.dest).toBe(p.slot === 1 ? 7 : 2);
        expect([p.contrary, p.port]).toEqual([0, 0]);
      }
      const reads = b.memReads(S);
      for (let k = 0; k < Math.ceil(data.length / 4); k++) expect(reads.get(nb.buf + 4 * k)).toBe(1);
      for (const x of nodes) if (x !== 4) expectConsistent(b, x);
    }
  });
});

describe('ControlUnit: errors and interrupts', () => {
  it('bad instructions: documented error code in the flag and the error registers, no traffic, the node keeps working (both modes)', () => {
    for (const mode of MODES) {
      const A = 0;
      const B = 3;
      const b = new CuBench({ cfg: { n: 2 }, nodes: [A, B], mode, seed: 1 });
      const h = new Heaps(b);
      const cu = b.cu(A);
      const expectErr = (code: number, op: number, addr: number, flagAddr: number | null): void => {
        quiet(b);
        expect({ error: b.sim.peek(cu.error), op: b.sim.peek(cu.errOp), addr: b.sim.peek(cu.errAddr) }).toEqual({ error: code, op, addr });
        if (flagAddr !== null) expect(readWord(b.mem(A), flagAddr)).toBe(flagWord(3, code));
        expect(b.sent.get(A)!.length).toBe(0);
        expect(cu.slots.map((s) => b.sim.peek(s.qHead))).toEqual([0, 0]);
      };
      let errs = 0;
      const bad = prepareSend(b, h, A, 9, 1, [1, 2, 3]); // destination outside the 2-cube
      send(b, bad);
      expectErr(CU_ERR.badDest, OP.send, bad.blk, bad.blk + 4 * SEND.flag);
      errs++;
      const self = prepareSend(b, h, A, A, 1, [1]);
      send(b, self);
      expectErr(CU_ERR.selfSend, OP.send, self.blk, self.blk + 4 * SEND.flag);
      errs++;
      const badBuf = prepareSend(b, h, A, B, 1, [1, 2]);
      writeSendBlock(b.mem(A), badBuf.blk, { dest: B, type: 1, length: 2, buffer: 0x402 });
      send(b, badBuf);
      expectErr(CU_ERR.badBuffer, OP.send, badBuf.blk, badBuf.blk + 4 * SEND.flag);
      errs++;
      b.issue(A, OP.send, 0x402); // misaligned block: nothing written
      expectErr(CU_ERR.badBlock, OP.send, 0x402, null);
      errs++;
      b.issue(A, OP.receive, cu.layout.poolBase); // block inside the CU area
      expectErr(CU_ERR.badBlock, OP.receive, cu.layout.poolBase, null);
      errs++;
      b.issue(A, 6, 0x1000);
      expectErr(CU_ERR.badOp, 6, 0x1000, null);
      errs++;
      const rbad = prepareRecv(b, h, A, 77, 1, 10);
      recv(b, rbad);
      expectErr(CU_ERR.badSource, OP.receive, rbad.blk, rbad.blk + 4 * RECV.flag);
      errs++;
      const nn = prepareBroadcast(b, h, A, 1, [9], [3]); // 3 is not a neighbour of 0
      b.issue(A, OP.nnBroadcast, nn.blk);
      expectErr(CU_ERR.badDest, OP.nnBroadcast, nn.blk, nn.blk + 16);
      errs++;
      const nn2 = prepareBroadcast(b, h, A, 1, [9], [1, 1]);
      b.issue(A, OP.nnBroadcast, nn2.blk);
      expectErr(CU_ERR.badCount, OP.nnBroadcast, nn2.blk, nn2.blk + 16);
      errs++;
      b.issue(A, OP.release, 0x1000);
      expectErr(CU_ERR.badRelease, OP.release, 0x1000, null);
      errs++;
      expect(b.sim.peek(cu.errCount)).toBe(errs);
      expect(b.sim.peek(b.cpu(A).interrupts)).toBe(errs); // one error interrupt each
      expect(describeCuError(0, CU_ERR.badDest, OP.send, bad.blk, 9)).toMatch(/^node 0: send @0x[0-9a-f]+: destination outside the cube/);
      // still works
      const data = randomBytes(new Rng(2), 99);
      const r = prepareRecv(b, h, B, A, 4, 99);
      recv(b, r);
      const ok = prepareSend(b, h, A, B, 4, data);
      send(b, ok);
      quiet(b);
      expectReceived(b, r, A, 4, data);
      flagsOk(ok.flags, [0, 1, 3]);
      expectConsistent(b, A);
      expectConsistent(b, B);
    }
  });

  it('a message longer than the receive buffer is truncated: buffer filled, nothing beyond written, error code, state consistent for the next message', () => {
    for (const mode of MODES) {
      for (const when of ['expected', 'unclaimed'] as const) {
        const A = 2;
        const B = 1;
        const b = new CuBench({ cfg: { n: 2 }, nodes: [A, B], mode, seed: 6 });
        const h = new Heaps(b);
        const rng = new Rng(12);
        const data = randomBytes(rng, 301);
        const r = prepareRecv(b, h, B, A, 3, 101);
        const s = prepareSend(b, h, A, B, 3, data);
        if (when === 'expected') {
          recv(b, r);
          quiet(b);
          send(b, s);
        } else {
          send(b, s);
          quiet(b);
          recv(b, r);
        }
        quiet(b);
        const res = readRecvBlock(b.mem(B), r.blk);
        expect({ progress: res.progress, error: res.error, length: res.length, source: res.source }).toEqual({ progress: 3, error: CU_ERR.truncated, length: 301, source: A });
        expect(readBytes(b.mem(B), r.buf, 101)).toEqual(data.slice(0, 101));
        expect(readBytes(b.mem(B), r.buf + 101, 3 + GUARD)).toEqual(new Array(3 + GUARD).fill(GUARD_BYTE));
        expect(b.sim.peek(b.cu(B).error)).toBe(CU_ERR.truncated);
        expect(b.atuEntries(B)).toBe(0);
        // the next message from the same source and direction is fine
        const d2 = randomBytes(rng, 64);
        const r2 = prepareRecv(b, h, B, A, 3, 64);
        recv(b, r2);
        send(b, prepareSend(b, h, A, B, 3, d2));
        quiet(b);
        expectReceived(b, r2, A, 3, d2);
        expect(b.sim.peek(b.cu(B).poolMap)).toBe(0xff);
        expectConsistent(b, B);
      }
    }
  });

  it('interrupts: a delivered system-type message (cause 2) and a CPU read of data not yet arrived (ATU, cause 1)', () => {
    for (const mode of MODES) {
      const b = new CuBench({ cfg: { n: 2 }, nodes: [0, 3], mode, seed: 13 });
      const h = new Heaps(b);
      const data = randomBytes(new Rng(3), 500);
      const r = prepareRecv(b, h, 3, 0, 0x8001, 500);
      recv(b, r);
      quiet(b);
      send(b, prepareSend(b, h, 0, 3, 0x8001, data));
      const cpu = b.cpu(3);
      const causes: number[] = [];
      // when the first packet is in, read the buffer's last word (not yet arrived)
      b.runUntil(() => r.flags.at(-1) === 1, LIMIT, 'receive in progress');
      b.read(3, r.buf + 496);
      b.runUntil(() => {
        if (b.sim.peek(b.cu(3).cpuIrq)) causes.push(b.sim.peek(b.cu(3).irqCause));
        return b.quiet();
      }, LIMIT);
      expectReceived(b, r, 0, 0x8001, data);
      expect(causes).toEqual([IRQ_CAUSE.atu, IRQ_CAUSE.systemMessage]);
      expect(b.sim.peek(cpu.interrupts)).toBe(2);
      // a read after completion: no interrupt
      b.read(3, r.buf + 496);
      quiet(b);
      b.run(10);
      expect(b.sim.peek(cpu.interrupts)).toBe(2);
      expect(b.sim.peekMem(cpu.readData, 1)).toBe(readWord(b.mem(3), r.buf + 496));
    }
  });
});

describe('ControlUnit: tracking without an ATU entry, and mode equivalence', () => {
  it('with a 1-entry ATU, concurrent messages beyond the first are tracked in node memory only (flag 0→3, seed §5.1.2)', () => {
    for (const mode of MODES) {
      const b = new CuBench({ cfg: { n: 3, atuEntries: 1 }, nodes: [0, 7], mode, seed: 31, netDelay: [0, 2] });
      const h = new Heaps(b);
      const rng = new Rng(77);
      const msgs = [0, 1, 2].map((k) => ({ type: 50 + k, data: randomBytes(rng, 400 + 10 * k) }));
      const rs = msgs.map((m) => prepareRecv(b, h, 7, 0, m.type, 420));
      for (const r of rs) recv(b, r);
      quiet(b);
      for (const m of msgs) send(b, prepareSend(b, h, 0, 7, m.type, m.data));
      quiet(b);
      msgs.forEach((m, k) => expectReceived(b, rs[k]!, 0, m.type, m.data));
      const seqs = rs.map((r) => JSON.stringify(r.flags)).sort();
      expect(seqs).toContain('[0,1,3]');
      expect(seqs).toContain('[0,3]');
      expectConsistent(b, 7);
    }
  });

  it('plain and activity modes reach identical states cycle for cycle (random mixed traffic)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1 << 30 }), fc.integer({ min: 1, max: 3 }), (seed, ma) => {
        const build = (mode: SimMode): CuBench => {
          const opts: BenchOptions = { cfg: { n: 2, cu: { memoryAccess: ma, instructionStart: 3, queueSearchStep: 1 } }, nodes: [0, 1, 2, 3], mode, seed, holdPct: 5, refusePct: 10 };
          const b = new CuBench(opts);
          const h = new Heaps(b);
          const rng = new Rng(seed);
          for (let k = 0; k < 5; k++) {
            const src = rng.int(0, 3);
            let dst = rng.int(0, 3);
            if (dst === src) dst = src ^ 3;
            const type = rng.int(1, 3);
            const s = prepareSend(b, h, src, dst, type, randomBytes(rng, rng.int(1, 200)));
            b.sim.schedule(rng.int(0, 400), () => send(b, s));
            if (rng.pct(60)) {
              const r = prepareRecv(b, h, dst, rng.pct(50) ? ANY : src, rng.pct(30) ? ANY : type, 256, rng.pct(30));
              b.sim.schedule(rng.int(0, 2000), () => recv(b, r));
            }
          }
          b.issue(0, OP.broadcast, prepareBroadcast(b, h, 0, 9, randomBytes(rng, 70)).blk);
          return b;
        };
        const p = build('plain');
        const a = build('activity');
        for (let c = 0; c < 6000; c++) {
          p.cycle();
          a.cycle();
          if (c % 500 === 0) expect(a.sim.stateHash()).toBe(p.sim.stateHash());
        }
        expect(a.sim.stateHash()).toBe(p.sim.stateHash());
        for (const id of [0, 1, 2, 3]) expect(a.sent.get(id)!.length).toBe(p.sent.get(id)!.length);
      }),
      { numRuns: 3 },
    );
  });
});

