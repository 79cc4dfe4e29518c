/**
 * Packet buffer unit (seed 002 §5.4.2; spec §8.2; DESIGN.md "Per-hop head
 * timing", "Framing", "Contrary refusal", "Readings"): one PBU with a lib
 * crossbar, the buffer RAM, an upstream sender and recording receivers
 * (test/buzzard/pbu_bench.ts), in plain and activity simulator modes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ramAddress, ramGeometry } from '../../rtl/buzzard/buffer_ram.ts';
import { checkConfig, geometry } from '../../rtl/buzzard/config.ts';
import { BROADCAST_TAG, decodeStream, headBits, packetBits, type PacketFields } from '../../rtl/buzzard/framing.ts';
import { PBU_IN_STATES, PBU_OUT_STATES } from '../../rtl/buzzard/packet_buffer_unit.ts';
import { broadcastPorts, nextPort } from '../../rtl/buzzard/routing.ts';
import type { SimMode } from '../../rtl/kernel/index.ts';
import { firstOne, PbuRun, type RunOptions, type SendItem, type Trace } from './pbu_bench.ts';

const IN = Object.fromEntries(PBU_IN_STATES.map((s, k) => [s, k])) as Record<(typeof PBU_IN_STATES)[number], number>;
const OUT = Object.fromEntries(PBU_OUT_STATES.map((s, k) => [s, k])) as Record<(typeof PBU_OUT_STATES)[number], number>;
const MODES: readonly SimMode[] = ['plain', 'activity'];

/** A unicast packet into PBU i of `node` for `dest`: P = e-cube next port here, C = contrary (P < i, spec §6.3). */
function unicast(i: number, node: number, dest: number, words: readonly number[]): PacketFields {
  const port = nextPort(node, dest);
  return { contrary: port >= 1 && port < i ? 1 : 0, port, len: words.length, dest, words };
}

/** What receiver j should decode for packet p leaving PBU i of `node` through O_j. */
function forwarded(p: PacketFields, j: number, node: number, n: number): PacketFields {
  const bc = (p.dest & BROADCAST_TAG) !== 0;
  const port = bc || j === 0 ? 0 : nextPort(node ^ (1 << (j - 1)), p.dest & ((1 << n) - 1));
  return { contrary: 0, port, len: p.len, dest: p.dest, words: p.words };
}

/** Rows reserved by the free row register but not yet in the CAM (input steps 4..7). */
function reserved(t: Trace, c: number): number {
  const st = t.inState[c]!;
  return (st === IN.preheader && t.inCnt[c]! >= 1) || st === IN.postSync || st === IN.dest || st === IN.camLoad ? 1 : 0;
}

/** freeRows = the CAM's free rows minus the one reserved between step 4 and step 7, every cycle. */
function checkFreeRows(t: Trace): void {
  for (let c = 0; c < t.freeRows.length; c++) {
    const want = t.camFreeCount[c]! - reserved(t, c);
    if (t.freeRows[c] !== want) throw new Error(`cycle ${c}: freeRows ${t.freeRows[c]} but CAM free ${t.camFreeCount[c]} - reserved ${reserved(t, c)}`);
  }
}

/**
 * The cut-through interlock (output step 4): every RAM read of the PBU is of
 * a word written before the read cycle and after its slot was taken (input
 * step 2). Returns the number of reads.
 */
function checkReadAfterWrite(run: PbuRun): number {
  const t = run.trace;
  const rg = run.bench.ram.geom;
  const base = ramAddress(run.opts.i, 0, 0, rg);
  const lastW = new Map<number, number>();
  const alloc = new Array<number>(rg.camHeight).fill(-1);
  let reads = 0;
  for (let c = 0; c < t.inBit.length; c++) {
    if (t.inState[c] === IN.latchSlot && c + 1 < t.inSlot.length) alloc[t.inSlot[c + 1]!] = c;
    if (t.rgnt[c] === 1) {
      const a = t.raddr[c]!;
      const slot = Math.floor((a - base) / rg.slotWords);
      const w = lastW.get(a);
      if (slot < 0 || slot >= rg.camHeight) throw new Error(`cycle ${c}: read of ${a}, outside PBU ${run.opts.i}'s RAM region`);
      if (w === undefined || w >= c || w < alloc[slot]!) throw new Error(`cycle ${c}: read of RAM word ${a} (slot ${slot}) before it was written (last write ${w}, slot taken ${alloc[slot]})`);
      reads++;
    }
    if (t.wgnt[c] === 1) lastW.set(t.waddr[c]!, c);
  }
  return reads;
}

/** Packets decoded at receiver j. */
function received(run: PbuRun, j: number): PacketFields[] {
  const g = run.bench.geom;
  return decodeStream(run.trace.out[j]!, g.lengthBits, run.bench.cfg.strictFraming);
}

/** Cycles in which a refusal happened, with the packet index refused. */
function refusedPackets(t: Trace): number[] {
  const out: number[] = [];
  for (let c = 1; c < t.refusals.length; c++) if (t.refusals[c]! > t.refusals[c - 1]!) out.push(t.curPkt[c]!);
  return out;
}

function words(len: number, seed: number): number[] {
  return Array.from({ length: len }, (_, k) => (seed * 7919 + k * 104729 + 0x1357) & 0xffff);
}

describe('PacketBufferUnit: per-hop head latency (DESIGN.md timing table, spec §8.2 critical path)', () => {
  for (const strict of [false, true]) {
    for (const mode of MODES) {
      it(`${strict ? 33 : 31} cycles from incoming S1 to outgoing S1, to O_0 and to a link (strict ${strict}, ${mode})`, () => {
        const n = 4;
        const node = 0b0101;
        const i = 2;
        // to O_0 (dest = node), to link 3 (dest differs in bit 2) and to link 4 with P' = 4 at the next node
        for (const [dest, j] of [
          [node, 0],
          [node ^ 0b0100, 3],
          [node ^ 0b1100, 3],
          [node ^ 0b1000, 4],
        ] as const) {
          const pkt = unicast(i, node, dest, words(3, dest));
          expect(pkt.port).toBe(j);
          const run = new PbuRun({ cfg: { n, camHeight: 4, strictFraming: strict }, i, node, mode, items: [{ pkt, gap: 6 }] }).runToQuiet(1000);
          const t = run.trace;
          const c = firstOne(t.inBit);
          const d = strict ? 2 : 0;
          expect(c).toBe(6);
          expect(firstOne(t.out[j]!) - c).toBe(31 + d);
          // the decomposition: 27 bits in, CAM load at c+27, grant at c+30, S1 at c+31 (+2 strict)
          expect(t.inState[c + 27 + d]).toBe(IN.camLoad);
          expect(t.camUsed[c + 27 + d]).toBe(0);
          expect(t.camUsed[c + 28 + d]).toBe(1);
          expect(t.reqReg[c + 27 + d]).toBe(0);
          expect(t.reqReg[c + 28 + d]).toBe(1 << j);
          expect(firstOne(t.xgnt)).toBe(c + 30 + d);
          expect(t.outState[c + 31 + d]).toBe(OUT.bcast);
          // no stall anywhere: the outgoing packet has exactly the ideal length and follows the incoming by 31 (33) cycles
          const bits = packetBits(3, 9, strict);
          expect(t.xrelease.indexOf(1)).toBe(c + 31 + d + bits - 1);
          expect(received(run, j)).toEqual([forwarded(pkt, j, node, n)]);
          for (let q = 0; q <= n; q++) if (q !== j) expect(firstOne(t.out[q]!)).toBe(-1);
          expect(t.freeRows.at(-1)).toBe(4);
          expect(t.reqReg.at(-1)).toBe(0);
          checkFreeRows(t);
          checkReadAfterWrite(run);
        }
      });
    }
  }

  it('scales with lengthBits: 64-byte packets (10-bit preheader) take headBits + 4 = 32 cycles (34 strict)', () => {
    for (const strict of [false, true]) {
      const node = 3;
      const pkt = unicast(1, node, node, words(31, 5));
      const run = new PbuRun({ cfg: { n: 3, camHeight: 3, packetBytes: 64, strictFraming: strict }, i: 1, node, mode: 'activity', items: [{ pkt, gap: 4 }] }).runToQuiet(2000);
      const c = firstOne(run.trace.inBit);
      expect(firstOne(run.trace.out[0]!) - c).toBe(headBits(10, strict) + 4);
      expect(received(run, 0)).toEqual([forwarded(pkt, 0, node, 3)]);
    }
  });
});

/** Random scenario: packets into PBU i, gaps, source stalls, downstream blocking. */
interface Scenario {
  n: number;
  H: number;
  i: number;
  node: number;
  strict: boolean;
  items: SendItem[];
  blocks: [number, number, number][];
  broadcast: boolean;
}

function scenarioArb(withBroadcast: boolean): fc.Arbitrary<Scenario> {
  return fc
    .record({
      n: fc.constantFrom(3, 4),
      H: fc.integer({ min: 2, max: 6 }),
      iPick: fc.nat(),
      nodePick: fc.nat(),
      strict: fc.boolean(),
    })
    .chain(({ n, H, iPick, nodePick, strict }) => {
      const i = 1 + (iPick % n);
      const node = nodePick % (1 << n);
      // destinations reachable through PBU i: the bit of dimension i already matches (e-cube never goes back)
      const dests = Array.from({ length: 1 << n }, (_, d) => d).filter((d) => ((d ^ node) & (1 << (i - 1))) === 0);
      const item = fc.record({
        destPick: fc.nat(),
        bcast: withBroadcast ? fc.boolean() : fc.constant(false),
        len: fc.integer({ min: 1, max: 15 }),
        data: fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 15, maxLength: 15 }),
        gap: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 40 })),
        stall: fc.option(fc.tuple(fc.nat(14), fc.integer({ min: 1, max: 50 })), { nil: undefined }),
      });
      const block = fc.tuple(fc.integer({ min: 0, max: 2500 }), fc.integer({ min: 0, max: n }), fc.integer({ min: 1, max: 300 }));
      return fc.record({ items: fc.array(item, { minLength: 1, maxLength: 8 }), blocks: fc.array(block, { maxLength: 8 }) }).map(({ items, blocks }) => {
        const sendItems: SendItem[] = items.map((it) => {
          const w = it.data.slice(0, it.len);
          const pkt: PacketFields = it.bcast ? { contrary: 0, port: 0, len: it.len, dest: BROADCAST_TAG | dests[it.destPick % dests.length]!, words: w } : unicast(i, node, dests[it.destPick % dests.length]!, w);
          const stretch = it.stall && it.stall[0] < it.len ? { [it.stall[0]]: it.stall[1] } : undefined;
          return { pkt, gap: it.gap, stretch };
        });
        // receiver block intervals → pokes (union per output, released at the end)
        const end = 3000;
        const pokes: [number, number, number][] = [];
        for (let j = 0; j <= n; j++) {
          const on = new Uint8Array(end + 2);
          for (const [c0, jj, d] of blocks) if (jj === j) for (let c = c0; c < Math.min(end, c0 + d); c++) on[c] = 1;
          for (let c = 0; c <= end; c++) if (on[c] !== (c === 0 ? 0 : on[c - 1])) pokes.push([c, j, on[c]!]);
        }
        return { n, H, i, node, strict, items: sendItems, blocks: pokes, broadcast: withBroadcast };
      });
    });
}

function runScenario(sc: Scenario, mode: SimMode): PbuRun {
  const opts: RunOptions = { cfg: { n: sc.n, camHeight: sc.H, strictFraming: sc.strict }, i: sc.i, node: sc.node, mode, items: sc.items, blocks: sc.blocks, poison: 0xdead };
  return new PbuRun(opts).runToQuiet(40_000);
}

describe('PacketBufferUnit: integrity and order (fast-check)', () => {
  it('random packets come out with the same destination and words, C reset, P updated, in arrival order per next port; plain = activity', () => {
    fc.assert(
      fc.property(scenarioArb(false), (sc) => {
        const runs = MODES.map((m) => runScenario(sc, m));
        const [plain, act] = runs as [PbuRun, PbuRun];
        // bit-identical traces in both simulator modes (the comb reads are declared precisely)
        expect(act.trace.out).toEqual(plain.trace.out);
        expect(act.trace.block).toEqual(plain.trace.block);
        expect(act.trace.inState).toEqual(plain.trace.inState);
        const run = act;
        const t = run.trace;
        expect(t.freeRows.at(-1)).toBe(sc.H); // drained
        expect(t.reqReg.at(-1)).toBe(0);
        // refused packets (contrary-full, A8) are dropped by the sender; they must be contrary
        const refused = new Set(refusedPackets(t));
        for (const k of refused) expect(sc.items[k]!.pkt.contrary).toBe(1);
        for (let j = 0; j <= sc.n; j++) {
          const want = sc.items.filter((it, k) => !refused.has(k) && it.pkt.port === j).map((it) => forwarded(it.pkt, j, sc.node, sc.n));
          expect(received(run, j)).toEqual(want);
        }
        checkFreeRows(t);
        expect(checkReadAfterWrite(run)).toBe(sc.items.filter((_, k) => !refused.has(k)).reduce((a, it) => a + it.pkt.len, 0));
      }),
      { numRuns: 20 },
    );
  });

  it('with broadcast packets mixed in, every port gets exactly its unicast packets and broadcast copies (P = 0)', () => {
    fc.assert(
      fc.property(scenarioArb(true), (sc) => {
        const run = runScenario(sc, 'activity');
        const t = run.trace;
        const refused = new Set(refusedPackets(t));
        const key = (p: PacketFields): string => JSON.stringify(p);
        for (let j = 0; j <= sc.n; j++) {
          const want: string[] = [];
          sc.items.forEach((it, k) => {
            if (refused.has(k)) return;
            const bc = (it.pkt.dest & BROADCAST_TAG) !== 0;
            if (bc ? broadcastPorts(sc.i, sc.n).includes(j) : it.pkt.port === j) want.push(key(forwarded(it.pkt, j, sc.node, sc.n)));
          });
          expect(received(run, j).map(key).sort()).toEqual(want.sort());
        }
        expect(t.freeRows.at(-1)).toBe(sc.H);
        expect(t.reqReg.at(-1)).toBe(0);
        checkFreeRows(t);
        checkReadAfterWrite(run);
      }),
      { numRuns: 12 },
    );
  });
});

describe('PacketBufferUnit: cut-through and the RAM interlock (output step 4)', () => {
  for (const mode of MODES) {
    it(`the output starts before the input has arrived; a source stall mid-packet stretches the output's Y1 and the words stay right (${mode})`, () => {
      const n = 3;
      const node = 0;
      const pkt = unicast(1, node, 4, words(15, 9)); // P = 3
      const stall = 60;
      const run = new PbuRun({ cfg: { n, camHeight: 3 }, i: 1, node, mode, items: [{ pkt, gap: 3, stretch: { 5: stall } }], poison: 0xdead }).runToQuiet(2000);
      const t = run.trace;
      const c = firstOne(t.inBit);
      const inLast = c + packetBits(15, 9, false) + stall - 1; // the stall adds `stall` cycles of Y1
      expect(t.inBit[inLast]).toBeDefined();
      const outS1 = firstOne(t.out[3]!);
      expect(outS1 - c).toBe(31);
      expect(outS1).toBeLessThan(inLast - 200); // cut-through: the head leaves long before the tail arrives
      const outLast = t.xrelease.indexOf(1);
      // the output waited on the interlock: same address on both sides while fetching
      let waited = 0;
      for (let k = 0; k < t.inBit.length; k++) if (t.outState[k] === OUT.fetch && t.outAddr[k] === t.inAddr[k]) waited++;
      expect(waited).toBeGreaterThan(20);
      // it stretched: the packet took longer on the way out than an unstalled one would, by about the stall
      expect(outLast - outS1 + 1).toBeGreaterThan(packetBits(15, 9, false) + stall - 31);
      expect(outLast).toBeGreaterThan(inLast);
      expect(received(run, 3)).toEqual([forwarded(pkt, 3, node, n)]);
      expect(checkReadAfterWrite(run)).toBe(15);
    });
  }

  it('without a stall the unstalled stream is never stretched (reads stay ahead: no Y1 longer than one cycle)', () => {
    const node = 0;
    const pkt = unicast(1, node, 4, words(15, 3));
    const run = new PbuRun({ cfg: { n: 3, camHeight: 3 }, i: 1, node, mode: 'activity', items: [{ pkt, gap: 3 }] }).runToQuiet(2000);
    const t = run.trace;
    const s1 = firstOne(t.out[3]!);
    expect(t.xrelease.indexOf(1) - s1 + 1).toBe(packetBits(15, 9, false));
  });
});

describe('PacketBufferUnit: CAM full (input step 1, free row register)', () => {
  for (const mode of MODES) {
    it(`with H packets buffered and the outputs blocked the input stays blocked; freeing a row releases it (${mode})`, () => {
      const n = 3;
      const H = 3;
      const node = 0;
      const pkts = Array.from({ length: H + 1 }, (_, k) => unicast(1, node, node, words(2, k)));
      const T = 600;
      const blocks: [number, number, number][] = [];
      for (let j = 0; j <= n; j++) blocks.push([0, j, 1]);
      blocks.push([T, 0, 0]);
      const run = new PbuRun({ cfg: { n, camHeight: H }, i: 1, node, mode, items: pkts.map((pkt) => ({ pkt, gap: 3 })), blocks }).runToQuiet(3000);
      const t = run.trace;
      // just before the release: CAM full, free row register 0, block asserted, the sender stretching S1 of packet H
      expect(t.camUsed[T - 1]).toBe(H);
      expect(t.freeRows[T - 1]).toBe(0);
      expect(t.block[T - 1]).toBe(1);
      expect(t.inState[T - 1]).toBe(IN.start);
      expect(t.curPkt[T - 1]).toBe(H);
      expect(t.inBit[T - 1]).toBe(1);
      for (let c = 200; c < T; c++) expect(t.block[c]).toBe(1);
      // released: the first packet leaves at once (the grant waits only for the unblocked output)
      const s1 = firstOne(t.out[0]!);
      expect(s1).toBeGreaterThanOrEqual(T);
      expect(s1).toBeLessThan(T + 3);
      // block is released only after the first row was freed (step 6 → freeRows > 0 → steps 1–3)
      const freed = t.freeRows.findIndex((v, c) => c > T && v > 0);
      const unblocked = t.block.findIndex((v, c) => c > T && v === 0);
      expect(unblocked).toBe(freed + 2); // start → latchSlot → waitStart
      expect(received(run, 0)).toEqual(pkts.map((p) => forwarded(p, 0, node, n)));
      checkFreeRows(t);
    });
  }
});

describe('PacketBufferUnit: contrary refusal (§5.3, input step 4, A8)', () => {
  const n = 4;
  const H = 4;
  const i = 3;
  const node = 0;
  // contrary into PBU 3: next port 1 or 2; non-contrary: 0 or 4
  const contraries = [1, 2, 3, 1].map((d, k) => unicast(i, node, d, words(2, 10 + k)));
  const plainPkt = unicast(i, node, 8, words(2, 99));
  const allBlocked = (until: number): [number, number, number][] => {
    const b: [number, number, number][] = [];
    for (let j = 0; j <= n; j++) b.push([0, j, 1], [until, j, 0]);
    return b;
  };
  for (const strict of [false, true]) {
    for (const mode of MODES) {
      it(`with H-1 contrary rows held, a contrary packet is refused and a non-contrary one accepted (strict ${strict}, ${mode})`, () => {
        expect(contraries.every((p) => p.contrary === 1) && plainPkt.contrary === 0).toBe(true);
        const T = 1500;
        const items = [...contraries, plainPkt].map((pkt) => ({ pkt, gap: 5 }));
        const run = new PbuRun({ cfg: { n, camHeight: H, strictFraming: strict }, i, node, mode, items, blocks: allBlocked(T) }).runToQuiet(5000);
        const t = run.trace;
        expect(refusedPackets(t)).toEqual([3]);
        // the refused packet's S1 and the block during its preheader
        const refusalCycle = t.refusals.findIndex((v) => v === 1);
        // c4: the (last) S1 cycle of the refused packet, the one before the S0 the PBU saw in state startBit
        let s0 = refusalCycle;
        while (t.inState[s0] !== IN.startBit) s0--;
        const c4 = s0 - 1;
        expect([t.inBit[c4], t.inBit[s0], t.inBit[s0 + 1]]).toEqual([1, 0, 1]);
        expect(t.contraryFull[c4 + 2]).toBe(1);
        expect(t.block[c4 + 2]).toBe(0);
        for (let c = c4 + 3; c <= c4 + 10; c++) expect(t.block[c]).toBe(1); // "block asserted during the preheader"
        expect(t.inState[c4 + 3]).toBe(IN.refused);
        // the sender aborted after the last preheader bit (strict: the post-preheader Y1); line 0 the cycle after
        const lineDrop = c4 + 11 + (strict ? 1 : 0);
        expect(t.inBit[lineDrop]).toBe(0);
        expect(t.block[lineDrop]).toBe(1);
        expect(t.inState[lineDrop + 1]).toBe(IN.start);
        expect(t.freeRows[lineDrop + 1]).toBe(1); // the refused packet reserved nothing
        // the non-contrary packet is accepted into the last row
        expect(t.camUsed[T - 1]).toBe(H);
        expect(t.camFlagAnd[T - 1]).toBe(0);
        // drained after the release: everything but the refused packet
        expect(received(run, 1)).toEqual([forwarded(contraries[0]!, 1, node, n), forwarded(contraries[2]!, 1, node, n)]);
        expect(received(run, 2)).toEqual([forwarded(contraries[1]!, 2, node, n)]);
        expect(received(run, 4)).toEqual([forwarded(plainPkt, 4, node, n)]);
        checkFreeRows(t);
      });
    }
  }

  it('with contraryRefusal off (negative control) the contrary packet is accepted and the CAM fills with contrary rows', () => {
    const T = 1500;
    const items = [...contraries, plainPkt].map((pkt) => ({ pkt, gap: 5 }));
    const run = new PbuRun({ cfg: { n, camHeight: H, contraryRefusal: false }, i, node, mode: 'activity', items, blocks: allBlocked(T) }).runToQuiet(5000);
    const t = run.trace;
    expect(refusedPackets(t)).toEqual([]);
    expect(t.camUsed[T - 1]).toBe(H);
    expect(t.camFlagAnd[T - 1]).toBe(1); // every row contrary: the §7 invariant is broken
    expect(t.block[T - 1]).toBe(1); // the non-contrary packet waits for a free row
    expect(received(run, 1)).toHaveLength(3);
    expect(received(run, 4)).toEqual([forwarded(plainPkt, 4, node, n)]);
  });

  it('A3: a non-contrary row granted to a link j < i stops the simulation', () => {
    // P = 1 into PBU 3 with C = 0 is not a packet e-cube produces; the PBU must refuse to forward it
    const bad: PacketFields = { contrary: 0, port: 1, len: 1, dest: 1, words: [7] };
    expect(() => new PbuRun({ cfg: { n, camHeight: H }, i, node, mode: 'plain', items: [{ pkt: bad, gap: 3 }] }).runToQuiet(500)).toThrow(/A3/);
  });
});

describe('PacketBufferUnit: broadcast (output step 2, A11)', () => {
  for (const [n, i] of [
    [3, 1],
    [3, 2],
    [3, 3],
    [4, 1],
  ] as const) {
    for (const mode of MODES) {
      it(`a broadcast into PBU ${i} of a ${n}-cube is copied to O_0 then O_${i + 1}..O_${n}, P = 0, the row freed after the last copy (${mode})`, () => {
        const node = 2;
        const H = 4;
        const pkt: PacketFields = { contrary: 0, port: 0, len: 4, dest: BROADCAST_TAG | 6, words: words(4, 77) };
        const run = new PbuRun({ cfg: { n, camHeight: H }, i, node, mode, items: [{ pkt, gap: 4 }] }).runToQuiet(3000);
        const t = run.trace;
        const ports = broadcastPorts(i, n);
        const starts = ports.map((j) => firstOne(t.out[j]!));
        for (let k = 1; k < starts.length; k++) expect(starts[k]!).toBeGreaterThan(starts[k - 1]!);
        for (let j = 0; j <= n; j++) expect(received(run, j)).toEqual(ports.includes(j) ? [forwarded(pkt, j, node, n)] : []);
        expect(received(run, 0)[0]!.port).toBe(0);
        // the row stays until the last copy's last bit (step 6 with the free flag), then is freed
        const releases: number[] = [];
        t.xrelease.forEach((v, c) => {
          if (v === 1) releases.push(c);
        });
        expect(releases).toHaveLength(ports.length);
        const inserted = t.camUsed.indexOf(1);
        const last = releases.at(-1)!;
        for (let c = inserted; c <= last; c++) expect(t.camUsed[c]).toBe(1);
        expect(t.freeRows[last]).toBe(H - 1);
        expect(t.freeRows[last + 1]).toBe(H);
        expect(t.camUsed[last + 1]).toBe(0);
        // every copy reads all L words again (the row and its RAM slot are kept)
        expect(checkReadAfterWrite(run)).toBe(4 * ports.length);
        expect(t.reqReg.at(-1)).toBe(0);
      });
    }
  }
});

describe('BufferRam', () => {
  it('has n write and n read clients, 16-bit words and n·H·slotWords words; ramAddress is ((pbu-1)·H + slot)·slotWords + word', () => {
    const rg = ramGeometry(checkConfig({ n: 10, camHeight: 13 }));
    expect(rg.depth).toBe(10 * 13 * 16);
    expect(rg.slotWords).toBe(geometry(checkConfig()).slotWords);
    expect(ramAddress(1, 0, 0, rg)).toBe(0);
    expect(ramAddress(2, 3, 4, rg)).toBe((13 + 3) * 16 + 4);
    expect(ramAddress(10, 12, 15, rg)).toBe(rg.depth - 1);
    const run = new PbuRun({ cfg: { n: 3, camHeight: 4 }, i: 2, node: 0, mode: 'plain', items: [] });
    expect(run.bench.ram.config).toMatchObject({ width: 16, depth: 3 * 4 * 16, readClients: 3, writeClients: 3, policy: 'round-robin', latency: 0 });
  });
});

describe('PacketBufferUnit: fair interleaving across next ports (§5.4.2, A9 rotating priority)', () => {
  for (const mode of MODES) {
    it(`a packet for a free higher port is not starved by a stream of packets to a lower port (${mode})`, () => {
      const n = 3;
      const node = 0;
      const local = Array.from({ length: 4 }, (_, k) => unicast(1, node, node, words(3, k))); // next port 0
      const far = unicast(1, node, 4, words(3, 50)); // next port 3 (address bit 2)
      expect(far.port).toBe(3);
      const T = 900;
      const blocks: [number, number, number][] = [];
      for (let j = 0; j <= n; j++) blocks.push([0, j, 1]);
      blocks.push([T, 0, 0], [T, 3, 0]);
      const run = new PbuRun({ cfg: { n, camHeight: 6 }, i: 1, node, mode, items: [...local, far].map((pkt) => ({ pkt, gap: 3 })), blocks }).runToQuiet(8000);
      const t = run.trace;
      const starts = (v: number[]): number[] => v.flatMap((x, c) => (x === 1 && (c === 0 || v[c - 1] === 0) ? [c] : []));
      const localStarts = starts(t.valid[0]!);
      const farStarts = starts(t.valid[3]!);
      expect(localStarts).toHaveLength(4);
      expect(farStarts).toHaveLength(1);
      // both outputs free at T: the lower output wins first, then the rotating priority serves port 3
      // before the second local packet (a fixed priority would send all four local packets first)
      expect(localStarts[0]!).toBeLessThan(farStarts[0]!);
      expect(farStarts[0]!).toBeLessThan(localStarts[1]!);
      expect(received(run, 3)).toEqual([forwarded(far, 3, node, n)]);
      expect(received(run, 0)).toEqual(local.map((p) => forwarded(p, 0, node, n)));
    });
  }
});
