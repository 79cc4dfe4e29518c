/**
 * The C104 switch RTL on a bench of link-end stand-ins: wormhole forwarding
 * and timing, header deletion and random header generation in both places,
 * FIFO arbitration (property, with the unfair fixed-priority variant as the
 * negative control), hunt groups (never wait while a link of the group is
 * free; negative control with the group split), thesis policies, and random
 * traffic delivered exactly once, byte-exact.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CHAR_EOM, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { C104_PIPELINES, makeC104Config, type C104Options } from '../../rtl/c104/config.ts';
import { compileTable, emptyTable, type SwitchTable } from '../../rtl/c104/interval_table.ts';
import { SwitchBench, packetsOf, type Grant } from './switch_bench.ts';

/** 8 labels; label g leaves on hunt group g = links 4g..4g+3 (or link 4g alone when `split`). */
function groupedTable(split = false, over: Partial<SwitchTable> = {}): SwitchTable {
  const t = emptyTable('sw', 8);
  const groups = Array.from({ length: 8 }, (_, g) => (split ? [4 * g] : [4 * g, 4 * g + 1, 4 * g + 2, 4 * g + 3]));
  if (split) for (let g = 0; g < 8; g++) for (let k = 1; k < 4; k++) groups.push([4 * g + k]);
  return { ...t, connected: new Array<boolean>(32).fill(true), groups, intervals: Array.from({ length: 8 }, (_, g) => ({ lo: g, hi: g, group: g })), ...over };
}

function bench(opts: C104Options = {}, table: SwitchTable = groupedTable(), charCycles = 1, tags = false): SwitchBench {
  return new SwitchBench(compileTable(table), makeC104Config({ routingDelay: 0, ...opts }), charCycles, tags);
}

describe('C104 switch: forwarding', () => {
  it('a packet crosses by wormhole: header kept, payload byte-exact, EOP ends the connection', () => {
    const b = bench();
    b.send(3, [5, 0x11, 0x22, 0x33, CHAR_EOP]);
    expect(b.run(200)).toBe(true);
    expect(b.out[20]).toEqual([5, 0x11, 0x22, 0x33, CHAR_EOP]);
    expect(b.grants).toHaveLength(1);
    expect(b.grants[0]).toMatchObject({ input: 3, output: 20 });
    // Header taken at the edge of cycle 0 (it is in the input buffer from cycle 1):
    // header popped in cycle 1, ROUTE in 2, request and grant in 3.
    expect(b.grants[0]!.cycle).toBe(3);
  });

  it('the routing delay postpones the request by exactly that many cycles', () => {
    const b = bench({ routingDelay: 7 });
    b.send(3, [5, CHAR_EOM]);
    b.run(200);
    expect(b.grants[0]!.cycle).toBe(10);
    expect(b.out[20]).toEqual([5, CHAR_EOM]);
  });

  it('cut-through (docs/c104.md#pipeline): requested and granted in the cycle the header is at the buffer head, in the output buffer one edge later; 3 cycles ahead of registered', () => {
    const at = (opts: C104Options): { grant: number; first: number } => {
      const b = bench(opts);
      b.send(3, [5, 0x11, CHAR_EOP]);
      expect(b.run(200)).toBe(true);
      expect(b.out[20]).toEqual([5, 0x11, CHAR_EOP]);
      return { grant: b.grants[0]!.cycle, first: b.outAt[20]![0]! };
    };
    const reg = at({});
    const cut = at({ pipeline: 'cut-through' });
    // The header is in the input buffer from cycle 1: requested and granted in 1, crosses at the edge of 2,
    // is in the output buffer (the stand-in's transmit FIFO) in 3 and taken by the far end then.
    expect(cut).toEqual({ grant: 1, first: 3 });
    expect(reg.first - cut.first).toBe(3); // the lookup cycle, the take-before-request cycle, the output register
    // The routing delay counts from the cycle the header is at the head.
    for (const d of [1, 2, 5]) expect(at({ pipeline: 'cut-through', routingDelay: d })).toEqual({ grant: 1 + d, first: 3 + d });
  });

  for (const pipeline of C104_PIPELINES) {
    it(`2-byte headers are read high byte first (${pipeline})`, () => {
      const t = { ...emptyTable('sw', 300, 2), connected: new Array<boolean>(32).fill(true), groups: [[0], [9]], intervals: [{ lo: 0, hi: 255, group: 0 }, { lo: 256, hi: 299, group: 1 }] };
      const b = bench({ pipeline }, t);
      b.send(2, [1, 7, 0xaa, CHAR_EOP]);
      b.run(200);
      expect(b.out[9]).toEqual([1, 7, 0xaa, CHAR_EOP]);
    });
  }

  it('a header past the last label stops the simulation naming the link', () => {
    const b = bench();
    b.send(1, [9, CHAR_EOP]);
    expect(() => b.run(50)).toThrow(/link 1: header 9 is past the last label 7/);
  });
});

describe('C104 switch: header operations', () => {
  for (const [place, pipeline] of [['input', 'registered'], ['output', 'registered'], ['input', 'cut-through'], ['output', 'cut-through']] as const) {
    it(`header deletion (place ${place}, ${pipeline}) strips the first header and routes on the next`, () => {
      const t = groupedTable();
      const del = new Array<boolean>(32).fill(false);
      // Place input: link 2 deletes on arrival, so routing uses the second header.
      // Place output: the packet routes on its first header; link 8..11 (group 2) delete on the way out.
      if (place === 'input') del[2] = true;
      else for (const k of [8, 9, 10, 11]) del[k] = true;
      const b = bench({ pipeline }, { ...t, deleteHeader: del, place });
      b.send(2, [place === 'input' ? 7 : 2, 3, 0x44, CHAR_EOP]);
      b.run(200);
      if (place === 'input') expect(b.out[12]).toEqual([3, 0x44, CHAR_EOP]);
      else expect(b.out[8]).toEqual([3, 0x44, CHAR_EOP]);
    });
    it(`random header generation (place ${place}, ${pipeline}) prefixes a header from the range`, () => {
      const t = groupedTable();
      const rnd = new Array<{ lo: number; hi: number } | null>(32).fill(null);
      if (place === 'input') rnd[2] = { lo: 4, hi: 7 };
      else for (const k of [0, 1, 2, 3]) rnd[k] = { lo: 4, hi: 7 };
      const b = bench({ pipeline }, { ...t, randomHeader: rnd, place });
      const n = 40;
      for (let k = 0; k < n; k++) b.send(place === 'input' ? 2 : 30, [place === 'input' ? 1 : 0, k, CHAR_EOP]);
      expect(b.run(20000)).toBe(true);
      const seen = new Set<number>();
      let count = 0;
      for (let link = 0; link < 32; link++) {
        for (const p of packetsOf(b.out[link]!)) {
          count++;
          const r = p[0]!;
          seen.add(r);
          expect(r).toBeGreaterThanOrEqual(4);
          expect(r).toBeLessThanOrEqual(7);
          if (place === 'input') expect(Math.floor(link / 4)).toBe(r); // routed on the random header
          else expect(Math.floor(link / 4)).toBe(0); // routed on the original, prefixed on the way out
          expect(p.slice(1)).toEqual([place === 'input' ? 1 : 0, p[2], CHAR_EOP]);
        }
      }
      expect(count).toBe(n);
      expect(seen.size).toBe(4);
    });
  }
});

/**
 * FIFO order: an input granted output j while another input that began
 * waiting strictly earlier (or in the same cycle with a lower index: the tie
 * rule) still waits for j, and is not granted anything in that cycle.
 */
function fifoViolations(b: SwitchBench): string[] {
  const bad: string[] = [];
  const byCycle = new Map<number, Grant[]>();
  for (const g of b.grants) byCycle.set(g.cycle, [...(byCycle.get(g.cycle) ?? []), g]);
  // Reconstruct, for every grant, the inputs still waiting afterwards and their requests.
  for (const g of b.grants) {
    for (const other of b.grants) {
      if (other.input === g.input || other.cycle <= g.cycle) continue;
      // `other` was waiting during g's cycle iff its request was visible by then.
      if (other.since > g.cycle) continue;
      const mask = b.masks.get(`${other.input}@${other.since}`) ?? 0;
      if (((mask >>> g.output) & 1) === 0) continue;
      const earlier = other.since < g.since || (other.since === g.since && other.input < g.input);
      if (earlier) bad.push(`cycle ${g.cycle}: input ${g.input} (waiting since ${g.since}) took output ${g.output} ahead of input ${other.input} (waiting since ${other.since})`);
    }
  }
  return bad;
}

/** Random contention traffic: `n` packets on random inputs to random labels, random lengths; sinks stall at random. */
const traffic = fc.record({
  packets: fc.array(fc.record({ src: fc.integer({ min: 0, max: 31 }), dst: fc.integer({ min: 0, max: 7 }), len: fc.integer({ min: 0, max: 12 }), eom: fc.boolean() }), { minLength: 1, maxLength: 60 }),
  stalls: fc.array(fc.record({ link: fc.integer({ min: 0, max: 31 }), until: fc.integer({ min: 0, max: 400 }) }), { maxLength: 8 }),
  charCycles: fc.integer({ min: 1, max: 3 }),
});

/** Hot-spot traffic: everything to labels 0 and 1, longer packets, so more inputs wait than a group has links. */
const hotTraffic = fc.record({
  packets: fc.array(fc.record({ src: fc.integer({ min: 0, max: 31 }), dst: fc.integer({ min: 0, max: 1 }), len: fc.integer({ min: 4, max: 30 }), eom: fc.boolean() }), { minLength: 6, maxLength: 40 }),
  stalls: fc.array(fc.record({ link: fc.integer({ min: 0, max: 7 }), until: fc.integer({ min: 0, max: 300 }) }), { maxLength: 4 }),
  charCycles: fc.integer({ min: 1, max: 3 }),
});

type Traffic = { packets: { src: number; dst: number; len: number; eom: boolean }[]; stalls: { link: number; until: number }[]; charCycles: number };

/** Run traffic; packet k carries its id in its first two payload bytes so delivery can be checked. */
function runTraffic(b: SwitchBench, tr: Traffic): { sent: Map<number, number[]>; ok: boolean } {
  const sent = new Map<number, number[]>();
  tr.packets.forEach((p, id) => {
    const payload = Array.from({ length: p.len }, (_, k) => (id * 7 + k * 13) & 0xff);
    const chars = [p.dst, id >> 8, id & 0xff, ...payload, p.eom ? CHAR_EOM : CHAR_EOP];
    sent.set(id, chars);
    b.send(p.src, chars);
  });
  for (const s of tr.stalls) b.sinkHoldUntil[s.link] = s.until;
  return { sent, ok: b.run(40000) };
}

describe('C104 switch: arbitration', () => {
  for (const pipeline of C104_PIPELINES) it(`FIFO order: an input is never overtaken by one that began waiting later (property, tie: lower index first; ${pipeline})`, () => {
    let contended = 0;
    fc.assert(
      // Split groups (one link per label) make inputs queue; hunt groups make them queue on several links at once.
      fc.property(fc.oneof(traffic, hotTraffic), fc.boolean(), (tr, split) => {
        const b = bench({ pipeline }, groupedTable(split), tr.charCycles);
        const { ok } = runTraffic(b, tr);
        expect(ok).toBe(true);
        expect(fifoViolations(b)).toEqual([]);
        contended += b.grants.filter((g) => g.cycle > g.since).length;
      }),
      { numRuns: 20 },
    );
    // The runs did make inputs wait (otherwise the property says nothing).
    expect(contended).toBeGreaterThan(0);
  });

  it('negative control: fixed-priority arbitration fails the FIFO property', () => {
    // Input 20 waits for busy output group 0; input 1 starts waiting later; fixed priority lets 1 go first.
    const scenario = (b: SwitchBench): void => {
      b.send(30, [0, ...new Array<number>(30).fill(1), CHAR_EOP]);
      for (let c = 0; c < 5; c++) b.step();
      b.send(20, [0, 2, CHAR_EOP]);
      for (let c = 0; c < 3; c++) b.step();
      b.send(1, [0, 3, CHAR_EOP]);
      expect(b.run(2000)).toBe(true);
    };
    for (const pipeline of C104_PIPELINES) {
      const b = bench({ policy: 'fixed-priority', pipeline }, groupedTable(true));
      scenario(b);
      expect(b.grants.map((g) => g.input)).toEqual([30, 1, 20]);
      expect(fifoViolations(b).length).toBeGreaterThan(0);
      // The same scenario under FIFO has none.
      const f = bench({ pipeline }, groupedTable(true));
      scenario(f);
      expect(fifoViolations(f)).toEqual([]);
      expect(f.grants.map((g) => g.input)).toEqual([30, 20, 1]);
    }
  });

  for (const pipeline of C104_PIPELINES) it(`hunt groups: a packet never waits while a link of its group is free (property); splitting the group is the negative control (${pipeline})`, () => {
    let contended = 0;
    fc.assert(
      fc.property(fc.oneof(traffic, hotTraffic), (tr) => {
        const b = bench({ pipeline }, groupedTable(), tr.charCycles);
        expect(runTraffic(b, tr).ok).toBe(true);
        expect(b.idleWaits).toEqual([]);
        contended += b.grants.filter((g) => g.cycle > g.since).length;
      }),
      { numRuns: 15 },
    );
    expect(contended).toBeGreaterThan(0);
    // Negative control: the bench still watches the 4 links of a group, but the table pins label g to link 4g.
    const b = bench({ pipeline }, groupedTable(true));
    const watched = groupedTable();
    b.watchMasks = watched.groups.map((g) => g.reduce((m, k) => m | (1 << k), 0) >>> 0);
    for (let k = 0; k < 4; k++) b.send(8 + k, [1, 1, 2, 3, 4, CHAR_EOP]);
    expect(b.run(2000)).toBe(true);
    expect(b.idleWaits.length).toBeGreaterThan(0);
  });
});

describe('C104 switch: thesis policies (seed 004 §4.2.4)', () => {
  /** Output 0 busy with a long packet from input 30; then inputs queue for it one by one; returns the grant order after the first. */
  function order(opts: C104Options, waiters: { link: number; chars: number[]; tag?: number }[]): number[] {
    const b = bench(opts, groupedTable(true), 1, true);
    b.send(30, [0, ...new Array<number>(20).fill(1), CHAR_EOP]);
    for (let c = 0; c < 5; c++) b.step();
    for (const w of waiters) {
      b.send(w.link, w.chars, w.tag ?? 0);
      for (let c = 0; c < 3; c++) b.step();
    }
    expect(b.run(3000)).toBe(true);
    return b.grants.slice(1).map((g) => g.input);
  }
  const data = [0, 9, 9, CHAR_EOP];
  it('fifo: arrival order', () => {
    expect(order({}, [{ link: 5, chars: data }, { link: 3, chars: data }, { link: 4, chars: data }])).toEqual([5, 3, 4]);
  });
  it('fifo tie rule: inputs that begin waiting in the same cycle go lowest link first', () => {
    const b = bench({}, groupedTable(true));
    b.send(30, [0, ...new Array<number>(20).fill(1), CHAR_EOP]);
    for (let c = 0; c < 5; c++) b.step();
    for (const link of [9, 4, 7]) b.send(link, data);
    expect(b.run(3000)).toBe(true);
    expect(b.grants.slice(1).map((g) => [g.input, g.since])).toEqual([[4, 8], [7, 8], [9, 8]]);
  });
  it('hops-first: the larger side-band tag first, then arrival order', () => {
    expect(order({ policy: 'hops-first' }, [{ link: 5, chars: data, tag: 1 }, { link: 3, chars: data, tag: 5 }, { link: 4, chars: data, tag: 3 }, { link: 6, chars: data, tag: 5 }])).toEqual([3, 6, 4, 5]);
  });
  it('net-first: network inputs before processor inputs', () => {
    const fromProcessor = Array.from({ length: 32 }, (_, k) => k < 8);
    expect(order({ policy: 'net-first', fromProcessor }, [{ link: 5, chars: data }, { link: 12, chars: data }, { link: 4, chars: data }, { link: 9, chars: data }])).toEqual([12, 9, 5, 4]);
  });
  it('ack priority: an ack (header then EOP) goes before data that waited longer; off (the C104) it does not', () => {
    const w = [{ link: 5, chars: data }, { link: 3, chars: [0, CHAR_EOP] }];
    expect(order({ ackPriority: true }, w)).toEqual([3, 5]);
    expect(order({}, w)).toEqual([5, 3]);
  });
  it('random: the choice among waiting inputs varies with the seed', () => {
    const w = [5, 3, 4, 6, 7].map((link) => ({ link, chars: data }));
    const seen = new Set([1, 2, 3, 4, 5, 6].map((seed) => order({ policy: 'random', seed }, w).join(',')));
    expect(seen.size).toBeGreaterThan(1);
  });
});

describe('C104 switch: random traffic', () => {
  for (const policy of ['fifo', 'random', 'net-first', 'hops-first', 'oldest-first'] as const) {
    it(`every packet is delivered exactly once, byte-exact, in order per input and label (policy ${policy}, ack priority both ways, both pipelines)`, () => {
      fc.assert(
        fc.property(traffic, fc.boolean(), fc.constantFrom(...C104_PIPELINES), (tr, ackPriority, pipeline) => {
          const b = bench({ policy, ackPriority, pipeline, fromProcessor: Array.from({ length: 32 }, (_, k) => k % 2 === 0) }, groupedTable(), tr.charCycles, policy === 'hops-first' || policy === 'oldest-first');
          const { sent, ok } = runTraffic(b, tr);
          expect(ok).toBe(true);
          const got = new Map<number, number[]>();
          for (let link = 0; link < 32; link++) {
            for (const p of packetsOf(b.out[link]!)) {
              const id = (p[1]! << 8) | p[2]!;
              expect(got.has(id)).toBe(false);
              got.set(id, p);
              expect(Math.floor(link / 4)).toBe(p[0]);
            }
          }
          expect(got).toEqual(sent);
          // In order per (input, output link): a later packet of an input never leaves before an earlier one.
          for (let link = 0; link < 32; link++) {
            const last = new Map<number, number>();
            for (const p of packetsOf(b.out[link]!)) {
              const id = (p[1]! << 8) | p[2]!;
              const src = tr.packets[id]!.src;
              expect(id).toBeGreaterThan(last.get(src) ?? -1);
              last.set(src, id);
            }
          }
        }),
        { numRuns: 6 },
      );
    });
  }
});

describe('C104 switch: simulator modes', () => {
  it('activity-driven simulation gives the same outputs, grants and state hash as plain stepping (random traffic, every policy)', () => {
    fc.assert(
      fc.property(fc.oneof(traffic, hotTraffic), fc.constantFrom('fifo', 'random', 'net-first', 'hops-first') as fc.Arbitrary<'fifo'>, fc.boolean(), fc.constantFrom(...C104_PIPELINES), (tr, policy, ackPriority, pipeline) => {
        const opts = { policy, ackPriority, pipeline, fromProcessor: Array.from({ length: 32 }, (_, k) => k % 3 === 0) };
        const runs = (['plain', 'activity'] as const).map((mode) => {
          const b = new SwitchBench(compileTable(groupedTable()), makeC104Config({ routingDelay: 2, ...opts }), tr.charCycles, false, mode);
          runTraffic(b, tr);
          return { out: b.out, grants: b.grants, cycle: b.sim.cycle, hash: b.sim.stateHash() };
        });
        expect(runs[1]).toEqual(runs[0]);
      }),
      { numRuns: 6 },
    );
  });
});

describe('C104 switch configuration', () => {
  it('presets resolve, explicit values make them custom, and bad fields get one line', () => {
    expect(makeC104Config()).toMatchObject({ policy: 'fifo', ackPriority: false, timing: 'thesis', buffers: 'stc104', inputBufferTokens: 35, outputBufferTokens: 35 });
    expect(makeC104Config({ timing: 'measured', buffers: 'thesis' })).toMatchObject({ timing: 'measured', routingDelay: 80, buffers: 'thesis', inputBufferTokens: 70, outputBufferTokens: 1 });
    expect(makeC104Config({ routingDelay: 9 }).timing).toBe('custom');
    expect(makeC104Config({ inputBufferTokens: 12 }).buffers).toBe('custom');
    expect(() => makeC104Config({ policy: 'lifo' as 'fifo' })).toThrow("c104.policy: 'lifo' is not one of fifo, random, net-first, oldest-first, hops-first, fixed-priority");
    expect(() => makeC104Config({ routingDelay: -1 })).toThrow('c104.routingDelay: -1 is outside 0..255');
    expect(() => makeC104Config({ outputBufferTokens: 0 })).toThrow('c104.outputBufferTokens: 0 is outside 1..4096');
    expect(() => makeC104Config({ timing: 'fast' as 'thesis' })).toThrow("c104.timing: 'fast' is not one of thesis, measured");
    expect(makeC104Config().pipeline).toBe('registered');
    expect(() => makeC104Config({ pipeline: 'wave' as 'registered' })).toThrow("c104.pipeline: 'wave' is not one of registered, cut-through");
    expect(() => makeC104Config({ policy: 'fixed-priority', ackPriority: true })).toThrow(/c104.ackPriority: not available with policy 'fixed-priority'/);
  });
});
