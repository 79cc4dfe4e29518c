/**
 * Arrival tracking unit (rtl/buzzard/arrival_tracking_unit.ts; seed 002
 * §5.4.6, spec §8.6, A14).
 *
 * A model-based test (fast-check commands) drives random allocArriving /
 * allocExpected / update / purge / lookup / undefined-op sequences with CPU
 * reads probing around the entries' windows, against a plain array model, on
 * random configurations (n, m, cpuReadBytes), in both simulator modes. For
 * every command it checks the combinational outputs in the cycle the command
 * is presented (old state), then steps and checks every entry register, ok,
 * evicted and the outputs (new state). Protocol violations must raise a unit
 * assertion and change nothing. Explicit walkthroughs then pin the seed's
 * rules one by one, and the interrupt window and timing; a lockstep run
 * compares plain and activity mode bit for bit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ATU_KEY_FIELDS, ATU_OP, ATU_STATE, ArrivalTrackingUnit, atuKey } from '../../rtl/buzzard/arrival_tracking_unit.ts';
import { SimError, Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { Lockstep, rng } from '../lib/lockstep_sim.ts';

const MODES: SimMode[] = ['plain', 'activity'];
const FREE = 0;
const EXPECTED = 1;
const ARRIVING = 2;
const AMAX = 2 ** 24 - 1;

// ---------------------------------------------------------------- model

interface Entry {
  state: number;
  src: number;
  dir: number;
  next: number;
  last: number;
}

interface Params {
  n: number;
  atuEntries: number;
  m: number;
  R: 1 | 2 | 4;
}

const emptyEntry = (): Entry => ({ state: FREE, src: 0, dir: 0, next: 0, last: 0 });

/** A plain model of spec §8.6 with the unit's documented readings R1–R8. */
class Model {
  entries: Entry[];
  ok = 0;
  evicted = 0;
  constructor(readonly p: Params) {
    this.entries = Array.from({ length: p.m }, emptyEntry);
  }
  get nodes(): number {
    return 2 ** this.p.n;
  }
  /** Index of the entry a key selects: expected keys match expected entries by source only. */
  lookup(src: number, dir: number, exp: boolean): number {
    return this.entries.findIndex((e) => (exp ? e.state === EXPECTED && e.src === src : e.state === ARRIVING && e.src === src && e.dir === dir));
  }
  freeCount(): number {
    return this.entries.filter((e) => e.state === FREE).length;
  }
  interrupt(addr: number, read: number): number {
    if (!read) return 0;
    return this.entries.some((e) => e.state === ARRIVING && addr <= e.last && addr + this.p.R - 1 >= e.next) ? 1 : 0;
  }
  /** Apply one clock edge; returns a RegExp for the expected failure, or null. State is untouched on failure. */
  apply(op: number, src: number, dir: number, exp: boolean, next: number, last: number): RegExp | null {
    switch (op) {
      case 0:
      case 5:
        return null;
      case 1: {
        if (src >= this.nodes) return /allocArriving with source/;
        if (next > last + 1) return /allocArriving with next .* beyond last/;
        if (dir > this.p.n) return /allocArriving with direction/; // 0 = a broadcast (readings broadcast-arrival-key)
        if (this.lookup(src, dir, false) >= 0) return /allocArriving of key .* is already arriving/;
        let k = exp ? this.lookup(src, dir, true) : -1;
        let ev = 0;
        if (k < 0) k = this.entries.findIndex((e) => e.state === FREE);
        if (k < 0) {
          k = this.entries.findIndex((e) => e.state === EXPECTED);
          ev = k >= 0 ? 1 : 0;
        }
        this.evicted = ev;
        this.ok = k >= 0 ? 1 : 0;
        if (k >= 0) this.entries[k] = { state: ARRIVING, src, dir, next, last };
        return null;
      }
      case 2: {
        if (src >= this.nodes) return /allocExpected with source/;
        if (next > last + 1) return /allocExpected with next .* beyond last/;
        const k = this.lookup(src, dir, true) >= 0 ? -1 : this.entries.findIndex((e) => e.state === FREE);
        this.evicted = 0;
        this.ok = k >= 0 ? 1 : 0;
        if (k >= 0) this.entries[k] = { state: EXPECTED, src, dir, next, last };
        return null;
      }
      case 3: {
        const k = this.lookup(src, dir, exp);
        if (k < 0) return /update of key .* which is not in the ATU/;
        if (next > this.entries[k]!.last + 1) return /update of entry \d+: next .* beyond last/;
        this.entries[k]!.next = next;
        return null;
      }
      case 4: {
        const k = this.lookup(src, dir, exp);
        if (k < 0) return /purge of key .* which is not in the ATU/;
        this.entries[k] = emptyEntry();
        return null;
      }
      default:
        return /undefined op/;
    }
  }
}

interface Real {
  sim: Simulator;
  atu: ArrivalTrackingUnit;
}

/** The combinational outputs predicted for the current inputs. */
function expectOutputs(m: Model, r: Real): void {
  const { sim, atu } = r;
  const kv = sim.peek(atu.key);
  const k = m.lookup(kv & 0x3ff, (kv >> 10) & 15, (kv & 0x4000) !== 0);
  const e = k >= 0 ? m.entries[k]! : undefined;
  expect({
    hit: sim.peek(atu.hit),
    hitIdx: sim.peek(atu.hitIdx),
    hitNext: sim.peek(atu.hitNext),
    hitLast: sim.peek(atu.hitLast),
    freeCount: sim.peek(atu.freeCount),
    interrupt: sim.peek(atu.interrupt),
  }).toEqual({
    hit: e ? 1 : 0,
    hitIdx: e ? k : 0,
    hitNext: e ? e.next : 0,
    hitLast: e ? e.last : 0,
    freeCount: m.freeCount(),
    interrupt: m.interrupt(sim.peek(atu.cpuAddr), sim.peek(atu.cpuRead)),
  });
}

/** Every register against the model, then the outputs. */
function expectState(m: Model, r: Real): void {
  const { sim, atu } = r;
  const observed = atu.states.map((st, k) => ({
    state: sim.peek(st),
    key: sim.peek(atu.keys[k]!),
    next: sim.peek(atu.nexts[k]!),
    last: sim.peek(atu.lasts[k]!),
  }));
  const predicted = m.entries.map((e) => ({
    state: e.state,
    key: e.state === FREE ? 0 : atuKey(e.src, e.dir, e.state === EXPECTED),
    next: e.next,
    last: e.last,
  }));
  expect(observed).toEqual(predicted);
  expect([sim.peek(atu.ok), sim.peek(atu.evicted)]).toEqual([m.ok, m.evicted]);
  expectOutputs(m, r);
}

/** Where a CPU read probes: relative to an entry's window, or anywhere. */
interface Probe {
  sel: number;
  where: number;
  read: boolean;
  raw: number;
}

function probeAddr(m: Model, p: Probe): number {
  const e = m.entries[p.sel % m.p.m]!;
  const w = [e.next - 4, e.next - 1, e.next, (e.next + e.last) >> 1, e.last, e.last + 1, e.last - 3, p.raw % (AMAX + 1)][p.where % 8]!;
  return Math.min(AMAX, Math.max(0, w));
}

/** Present op/inputs for one cycle: check the old-state outputs, clock, check the new state (or the failure). */
function clock(m: Model, r: Real, probe: Probe, op: number, src: number, dir: number, exp: boolean, next: number, last: number): void {
  const { sim, atu } = r;
  sim.poke(atu.cpuAddr, probeAddr(m, probe));
  sim.poke(atu.cpuRead, probe.read ? 1 : 0);
  sim.poke(atu.op, op);
  sim.poke(atu.key, atuKey(src, dir, exp));
  sim.poke(atu.next, next);
  sim.poke(atu.last, last);
  expectOutputs(m, r); // R1, R7: combinational, from the state before the edge
  const err = m.apply(op, src, dir, exp, next, last);
  if (err) {
    const snap = sim.save();
    let caught: unknown;
    try {
      sim.step();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SimError);
    expect((caught as SimError).kind).toBe('unit-assertion');
    expect((caught as Error).message).toMatch(/^cycle \d+: atu: /);
    expect((caught as Error).message).toMatch(err);
    sim.restore(snap);
  } else {
    sim.step();
  }
  expectState(m, r);
}

/** A window: next..last with last = next + len - 1 (len -1 gives next > last + 1, a violation). */
function window(base: number, len: number): [number, number] {
  const next = 2 + (base % (AMAX - 80));
  return [next, next + len - 1];
}

/** Direction: usually 1..n, sometimes 0 or n+1 (a violation for allocArriving). */
function direction(n: number, raw: number): number {
  if (raw % 16 === 15) return raw % 32 < 16 ? 0 : Math.min(15, n + 1);
  return 1 + (raw % n);
}

/** Source: usually one of four (collisions), sometimes out of range. */
function source(nodes: number, raw: number): number {
  if (raw % 32 === 31) return Math.min(0x3ff, nodes + (raw % 3));
  return raw % Math.min(4, nodes);
}

type Cmd = fc.Command<Model, Real>;

class AllocCmd implements Cmd {
  constructor(
    readonly kind: 1 | 2,
    readonly srcRaw: number,
    readonly dirRaw: number,
    readonly exp: boolean,
    readonly base: number,
    readonly len: number,
    readonly probe: Probe,
  ) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const [next, last] = window(this.base, this.len);
    clock(m, r, this.probe, this.kind, source(m.nodes, this.srcRaw), direction(m.p.n, this.dirRaw), this.exp, next, last);
  }
  toString(): string {
    return `${this.kind === 1 ? 'allocArriving' : 'allocExpected'}(${this.srcRaw},${this.dirRaw},${this.exp},${this.base},${this.len})`;
  }
}

/** Update next of an existing entry (sometimes past last + 1), or of a random key (usually a miss). */
class UpdateCmd implements Cmd {
  constructor(readonly existing: boolean, readonly sel: number, readonly step: number, readonly keyRaw: number, readonly probe: Probe) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const used = m.entries.filter((e) => e.state !== FREE);
    if (this.existing && used.length > 0) {
      const e = used[this.sel % used.length]!;
      const next = Math.min(AMAX, e.next + (this.step % (e.last + 3 - e.next)));
      clock(m, r, this.probe, ATU_OP.update, e.src, e.dir, e.state === EXPECTED, next, 0);
    } else {
      clock(m, r, this.probe, ATU_OP.update, this.keyRaw % 4, 1 + ((this.keyRaw >> 2) % m.p.n), (this.keyRaw & 64) !== 0, this.step % 1000, 0);
    }
  }
  toString(): string {
    return `update(${this.existing},${this.sel},${this.step},${this.keyRaw})`;
  }
}

class PurgeCmd implements Cmd {
  constructor(readonly existing: boolean, readonly sel: number, readonly keyRaw: number, readonly probe: Probe) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    const used = m.entries.filter((e) => e.state !== FREE);
    if (this.existing && used.length > 0) {
      const e = used[this.sel % used.length]!;
      clock(m, r, this.probe, ATU_OP.purge, e.src, e.dir, e.state === EXPECTED, 0, 0);
    } else {
      clock(m, r, this.probe, ATU_OP.purge, this.keyRaw % 4, 1 + ((this.keyRaw >> 2) % m.p.n), (this.keyRaw & 64) !== 0, 0, 0);
    }
  }
  toString(): string {
    return `purge(${this.existing},${this.sel},${this.keyRaw})`;
  }
}

/** none / lookup / an undefined op (6, 7) with any key: a search, no change (or a failure). */
class IdleCmd implements Cmd {
  constructor(readonly op: number, readonly keyRaw: number, readonly probe: Probe) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    clock(m, r, this.probe, this.op, this.keyRaw % 4, (this.keyRaw >> 2) % 16, (this.keyRaw & 64) !== 0, this.keyRaw % 5000, 5000);
  }
  toString(): string {
    return `op${this.op}(${this.keyRaw})`;
  }
}

const probeArb: fc.Arbitrary<Probe> = fc.record({ sel: fc.nat(31), where: fc.nat(7), read: fc.boolean(), raw: fc.nat() });
const baseArb = fc.oneof(fc.nat(300), fc.nat(AMAX));
const lenArb = fc.oneof({ weight: 1, arbitrary: fc.constantFrom(-1, 0, 1) }, { weight: 6, arbitrary: fc.integer({ min: 2, max: 64 }) });

const commands = [
  fc.tuple(fc.nat(), fc.nat(), fc.boolean(), baseArb, lenArb, probeArb).map(([s, d, e, b, l, p]) => new AllocCmd(1, s, d, e, b, l, p)),
  fc.tuple(fc.nat(), fc.nat(), fc.boolean(), baseArb, lenArb, probeArb).map(([s, d, e, b, l, p]) => new AllocCmd(1, s, d, e, b, l, p)),
  fc.tuple(fc.nat(), fc.nat(), fc.boolean(), baseArb, lenArb, probeArb).map(([s, d, e, b, l, p]) => new AllocCmd(2, s, d, e, b, l, p)),
  fc.tuple(fc.boolean(), fc.nat(), fc.nat(), fc.nat(), probeArb).map(([x, s, st, k, p]) => new UpdateCmd(x || s % 4 !== 0, s, st, k, p)),
  fc.tuple(fc.boolean(), fc.nat(), fc.nat(), probeArb).map(([x, s, k, p]) => new PurgeCmd(x || s % 4 !== 0, s, k, p)),
  fc.tuple(fc.constantFrom(0, 5, 5, 5, 6, 7), fc.nat(), probeArb).map(([o, k, p]) => new IdleCmd(o, k, p)),
];

const paramsArb: fc.Arbitrary<Params> = fc
  .record({ n: fc.integer({ min: 1, max: 5 }), atuEntries: fc.integer({ min: 0, max: 6 }), R: fc.constantFrom<1 | 2 | 4>(1, 2, 4) })
  .map(({ n, atuEntries, R }) => ({ n, atuEntries, m: atuEntries === 0 ? n : atuEntries, R }));

describe('ArrivalTrackingUnit: model-based', () => {
  it('matches an array model on random operation sequences with CPU reads (both simulator modes)', () => {
    fc.assert(
      fc.property(paramsArb, fc.constantFrom(...MODES), fc.commands(commands, { maxCommands: 120, size: 'max' }), (p, mode, cmds) => {
        const atu = new ArrivalTrackingUnit(null, 'atu', { n: p.n, atuEntries: p.atuEntries }, { cpuReadBytes: p.R });
        const sim = new Simulator(atu, { mode });
        const model = new Model(p);
        expectState(model, { sim, atu });
        fc.modelRun(() => ({ model, real: { sim, atu } }), cmds);
      }),
      { numRuns: 200 },
    );
  });
});

// ---------------------------------------------------------------- walkthroughs

/** A small driver for hand-written sequences: `cmd` presents one op for one cycle, then op = none. */
function bench(mode: SimMode, config: { n?: number; atuEntries?: number } = {}, cpuReadBytes: 1 | 2 | 4 = 1) {
  const atu = new ArrivalTrackingUnit(null, 'atu', { n: 3, ...config }, { cpuReadBytes });
  const sim = new Simulator(atu, { mode });
  const cmd = (op: number, key: number, next = 0, last = 0): void => {
    sim.poke(atu.op, op);
    sim.poke(atu.key, key);
    sim.poke(atu.next, next);
    sim.poke(atu.last, last);
    sim.step();
    sim.poke(atu.op, ATU_OP.none);
  };
  const arrive = (src: number, dir: number, next: number, last: number, promote = false): void => cmd(ATU_OP.allocArriving, atuKey(src, dir, promote), next, last);
  const expectRx = (src: number, first: number, last: number): void => cmd(ATU_OP.allocExpected, atuKey(src, 0, true), first, last);
  const look = (key: number): { hit: number; idx: number; next: number; last: number } => {
    sim.poke(atu.key, key);
    return { hit: sim.peek(atu.hit), idx: sim.peek(atu.hitIdx), next: sim.peek(atu.hitNext), last: sim.peek(atu.hitLast) };
  };
  const states = (): number[] => atu.states.map((s) => sim.peek(s));
  const result = (): [number, number] => [sim.peek(atu.ok), sim.peek(atu.evicted)];
  const read = (addr: number, on = 1): number => {
    sim.poke(atu.cpuAddr, addr);
    sim.poke(atu.cpuRead, on);
    return sim.peek(atu.interrupt);
  };
  const failure = (f: () => void): string => {
    const before = sim.values().slice();
    const snap = sim.save();
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(SimError);
      expect((e as SimError).kind).toBe('unit-assertion');
      sim.restore(snap);
      expect(Array.from(sim.values())).toEqual(Array.from(before));
      return (e as Error).message;
    }
    throw new Error('expected a unit assertion');
  };
  return { atu, sim, cmd, arrive, expectRx, look, states, result, read, failure };
}

const [F, E, A] = [ATU_STATE.free, ATU_STATE.expected, ATU_STATE.arriving];

describe.each(MODES)('ArrivalTrackingUnit: seed rules (%s mode)', (mode) => {
  it('has m = n entries by default (A14), m = atuEntries otherwise, and the DESIGN.md port widths', () => {
    const b = bench(mode, { n: 6 });
    expect(b.atu.m).toBe(6);
    expect(b.atu.states).toHaveLength(6);
    const { atu } = b;
    expect([atu.op, atu.key, atu.next, atu.last, atu.hit, atu.hitIdx, atu.hitNext, atu.hitLast, atu.freeCount, atu.ok, atu.cpuAddr, atu.cpuRead, atu.interrupt].map((s) => s.width)).toEqual([
      3, 15, 24, 24, 1, 3, 24, 24, 3, 1, 24, 1, 1,
    ]);
    expect(atu.states[0]!.options.enum).toEqual(['free', 'expected', 'arriving']);
    expect(atu.keys[0]!.options.fields).toEqual(ATU_KEY_FIELDS);
    expect(b.sim.peek(atu.freeCount)).toBe(6);
    const b9 = bench(mode, { n: 2, atuEntries: 9 });
    expect([b9.atu.m, b9.atu.hitIdx.width, b9.atu.freeCount.width, b9.sim.peek(b9.atu.freeCount)]).toEqual([9, 4, 4, 9]);
  });

  it('allocates arriving entries lowest free first, refuses when every entry is arriving, reuses a purged entry', () => {
    const b = bench(mode); // n = 3, m = 3
    b.arrive(1, 1, 0x100, 0x1ff);
    expect([b.states(), b.result(), b.sim.peek(b.atu.freeCount)]).toEqual([[A, F, F], [1, 0], 2]);
    b.arrive(1, 2, 0x200, 0x2ff); // same source, other direction: another message
    b.arrive(2, 1, 0x300, 0x3ff);
    expect([b.states(), b.result(), b.sim.peek(b.atu.freeCount)]).toEqual([[A, A, A], [1, 0], 0]);
    expect(b.look(atuKey(1, 2, false))).toEqual({ hit: 1, idx: 1, next: 0x200, last: 0x2ff });
    const entries = (): number[][] => [b.atu.states, b.atu.keys, b.atu.nexts, b.atu.lasts].map((regs) => regs.map((r) => b.sim.peek(r)));
    const before = entries();
    b.arrive(4, 3, 0x400, 0x4ff); // full of arriving entries: not cached (§4.5), only ok changes
    expect(b.result()).toEqual([0, 0]);
    expect(entries()).toEqual(before);
    expect(b.look(atuKey(4, 3, false)).hit).toBe(0);
    expect(before[2]).toEqual([0x100, 0x200, 0x300]);
    b.cmd(ATU_OP.purge, atuKey(1, 2, false));
    expect([b.states(), b.sim.peek(b.atu.freeCount)]).toEqual([[A, F, A], 1]);
    b.arrive(4, 3, 0x400, 0x4ff);
    expect([b.states(), b.result(), b.look(atuKey(4, 3, false))]).toEqual([[A, A, A], [1, 0], { hit: 1, idx: 1, next: 0x400, last: 0x4ff }]);
  });

  it('grants an expected entry only if a free entry exists, and an arriving message takes a free entry before evicting an expected one', () => {
    const b = bench(mode); // m = 3
    b.expectRx(5, 0x1000, 0x13ff);
    b.expectRx(6, 0x2000, 0x23ff);
    expect([b.states(), b.result()]).toEqual([[E, E, F], [1, 0]]);
    b.arrive(1, 1, 0x100, 0x1ff); // a free entry exists: the expected entries stay
    expect([b.states(), b.result()]).toEqual([[E, E, A], [1, 0]]);
    b.expectRx(7, 0x3000, 0x30ff); // no free entry: refused, no eviction for an expected request
    expect([b.states(), b.result(), b.look(atuKey(7, 0, true)).hit]).toEqual([[E, E, A], [0, 0], 0]);
    b.arrive(2, 1, 0x200, 0x2ff); // no free entry: the lowest expected entry (source 5) is evicted
    expect([b.states(), b.result()]).toEqual([[A, E, A], [1, 1]]);
    expect(b.look(atuKey(5, 0, true)).hit).toBe(0);
    expect(b.look(atuKey(6, 0, true))).toEqual({ hit: 1, idx: 1, next: 0x2000, last: 0x23ff });
    expect(b.look(atuKey(2, 1, false))).toEqual({ hit: 1, idx: 0, next: 0x200, last: 0x2ff });
    b.arrive(3, 1, 0x300, 0x3ff); // evicts source 6
    expect([b.states(), b.result()]).toEqual([[A, A, A], [1, 1]]);
    b.arrive(3, 2, 0x400, 0x4ff); // nothing left to evict
    expect([b.states(), b.result()]).toEqual([[A, A, A], [0, 0]]);
    // A second ANY-type receive from an already cached source is refused (R3), even with room.
    const c = bench(mode);
    c.expectRx(5, 0x1000, 0x13ff);
    c.expectRx(5, 0x5000, 0x53ff);
    expect([c.states(), c.result(), c.look(atuKey(5, 3, true))]).toEqual([[E, F, F], [0, 0], { hit: 1, idx: 0, next: 0x1000, last: 0x13ff }]);
  });

  it('turns an expected entry into an arriving one in place when the control unit promotes it (key expected bit 1)', () => {
    const b = bench(mode);
    b.expectRx(3, 0x2000, 0x23ff);
    b.expectRx(4, 0x3000, 0x33ff);
    // The control unit finds the cached ANY-type receive for source 3 (direction is a don't-care).
    expect(b.look(atuKey(3, 2, true))).toEqual({ hit: 1, idx: 0, next: 0x2000, last: 0x23ff });
    expect(b.look(atuKey(3, 2, false)).hit).toBe(0);
    // First packet (22 data bytes stored) of a 100-byte message from source 3 over direction 2.
    b.arrive(3, 2, 0x2016, 0x2063, true);
    expect([b.states(), b.result(), b.sim.peek(b.atu.freeCount)]).toEqual([[A, E, F], [1, 0], 1]);
    expect(b.sim.peek(b.atu.keys[0]!)).toBe(atuKey(3, 2, false));
    expect(b.look(atuKey(3, 2, false))).toEqual({ hit: 1, idx: 0, next: 0x2016, last: 0x2063 });
    expect(b.look(atuKey(3, 0, true)).hit).toBe(0);
    // Without the promote bit the same source takes a new entry and the expected one stays.
    b.arrive(4, 1, 0x500, 0x5ff);
    expect([b.states(), b.look(atuKey(4, 0, true)).idx, b.look(atuKey(4, 1, false)).idx]).toEqual([[A, E, A], 1, 2]);
    // Promote bit but no expected entry for that source: an ordinary allocation (here: eviction).
    b.arrive(6, 1, 0x600, 0x6ff, true);
    expect([b.states(), b.result(), b.look(atuKey(6, 1, false)).idx]).toEqual([[A, A, A], [1, 1], 1]);
  });

  it('updates next and purges by key; a missing key, a duplicate arrival or an undefined op is a protocol violation', () => {
    const b = bench(mode);
    b.arrive(2, 3, 0x1000, 0x10ff);
    b.cmd(ATU_OP.update, atuKey(2, 3, false), 0x1020);
    expect(b.look(atuKey(2, 3, false))).toEqual({ hit: 1, idx: 0, next: 0x1020, last: 0x10ff });
    b.cmd(ATU_OP.update, atuKey(2, 3, false), 0x1100); // = last + 1: the message has fully arrived
    expect(b.look(atuKey(2, 3, false)).next).toBe(0x1100);
    expect(b.failure(() => b.cmd(ATU_OP.update, atuKey(2, 1, false), 0x1000))).toMatch(/^cycle \d+: atu: update of key \(source 2, direction 1, expected 0\), which is not in the ATU$/);
    expect(b.failure(() => b.cmd(ATU_OP.update, atuKey(2, 3, false), 0x1101))).toMatch(/atu: update of entry 0: next 0x1101 beyond last 0x10ff \+ 1/);
    expect(b.failure(() => b.cmd(ATU_OP.purge, atuKey(2, 3, true)))).toMatch(/atu: purge of key \(source 2, direction 3, expected 1\), which is not in the ATU/);
    expect(b.failure(() => b.arrive(2, 3, 0x5000, 0x50ff))).toMatch(/atu: allocArriving of key \(source 2, direction 3, expected 0\): entry 0 is already arriving/);
    expect(b.failure(() => b.arrive(2, 4, 0x5000, 0x50ff))).toMatch(/atu: allocArriving with direction 4, outside 0\.\.3/);
    expect(b.failure(() => b.arrive(8, 1, 0x5000, 0x50ff))).toMatch(/atu: allocArriving with source 8, outside 0\.\.7/);
    expect(b.failure(() => b.expectRx(1, 0x5000, 0x4ffe))).toMatch(/atu: allocExpected with next 0x5000 beyond last 0x4ffe \+ 1/);
    expect(b.failure(() => b.cmd(6, 0))).toMatch(/atu: undefined op 6/);
    expect(b.failure(() => b.cmd(7, 0))).toMatch(/atu: undefined op 7/);
    b.cmd(ATU_OP.purge, atuKey(2, 3, false));
    expect([b.states(), b.look(atuKey(2, 3, false)).hit, b.sim.peek(b.atu.nexts[0]!), b.sim.peek(b.atu.keys[0]!)]).toEqual([[F, F, F], 0, 0, 0]);
    expect(b.failure(() => b.cmd(ATU_OP.purge, atuKey(2, 3, false)))).toMatch(/atu: purge of key .* not in the ATU/);
    // An expected entry can be purged too (the receive was satisfied otherwise).
    b.expectRx(1, 0x7000, 0x70ff);
    b.cmd(ATU_OP.purge, atuKey(1, 5, true));
    expect(b.states()).toEqual([F, F, F]);
  });

  it('applies ops at the clock edge: outputs show the old state during the op cycle, the new state and ok from the next cycle', () => {
    const b = bench(mode);
    const { sim, atu } = b;
    sim.poke(atu.op, ATU_OP.allocArriving);
    sim.poke(atu.key, atuKey(1, 1, false));
    sim.poke(atu.next, 0x40);
    sim.poke(atu.last, 0x7f);
    expect([sim.peek(atu.hit), sim.peek(atu.freeCount), sim.peek(atu.ok), sim.peek(atu.states[0]!)]).toEqual([0, 3, 0, F]);
    sim.step();
    sim.poke(atu.op, ATU_OP.update);
    sim.poke(atu.next, 0x50);
    expect([sim.peek(atu.hit), sim.peek(atu.hitNext), sim.peek(atu.freeCount), sim.peek(atu.ok), sim.peek(atu.states[0]!)]).toEqual([1, 0x40, 2, 1, A]);
    sim.step();
    sim.poke(atu.op, ATU_OP.lookup);
    expect([sim.peek(atu.hitNext), sim.peek(atu.nexts[0]!)]).toEqual([0x50, 0x50]);
    sim.step(3); // lookups change nothing
    expect([sim.peek(atu.hitNext), sim.peek(atu.ok), sim.peek(atu.freeCount)]).toEqual([0x50, 1, 2]);
    sim.poke(atu.op, ATU_OP.purge);
    expect(sim.peek(atu.hit)).toBe(1);
    sim.step();
    sim.poke(atu.op, ATU_OP.none);
    expect([sim.peek(atu.hit), sim.peek(atu.freeCount), sim.peek(atu.ok)]).toEqual([0, 3, 1]); // ok holds: it reports the last allocation
  });
});

describe.each(MODES)('ArrivalTrackingUnit: early-read interrupt (%s mode)', (mode) => {
  it('interrupts a read between next and last of an arriving entry, not a read of arrived data or beyond last', () => {
    const b = bench(mode);
    b.arrive(3, 1, 0x1000, 0x10ff);
    expect(b.read(0x1000)).toBe(1); // next: not yet arrived
    expect(b.read(0x1080)).toBe(1);
    expect(b.read(0x10ff)).toBe(1); // last byte
    expect(b.read(0x0fff)).toBe(0); // arrived data, below next
    expect(b.read(0x0800)).toBe(0);
    expect(b.read(0x1100)).toBe(0); // beyond last
    expect(b.read(0xffffff)).toBe(0);
    expect(b.read(0x1080, 0)).toBe(0); // no read, no interrupt
    // More data arrives: the window shrinks.
    b.cmd(ATU_OP.update, atuKey(3, 1, false), 0x1080);
    expect(b.read(0x1040)).toBe(0);
    expect(b.read(0x107f)).toBe(0);
    expect(b.read(0x1080)).toBe(1);
    // Expected entries guard nothing.
    b.expectRx(4, 0x2000, 0x20ff);
    expect(b.read(0x2010)).toBe(0);
    // Two arriving entries: either window interrupts.
    b.arrive(5, 2, 0x3000, 0x3003);
    expect([b.read(0x1090), b.read(0x3003), b.read(0x3004), b.read(0x2fff)]).toEqual([1, 1, 0, 0]);
    // Complete: next = last + 1, then purge.
    b.cmd(ATU_OP.update, atuKey(3, 1, false), 0x1100);
    expect(b.read(0x10ff)).toBe(0);
    b.cmd(ATU_OP.purge, atuKey(3, 1, false));
    b.cmd(ATU_OP.purge, atuKey(5, 2, false));
    expect([b.read(0x1090), b.read(0x3000)]).toEqual([0, 0]);
  });

  it('is combinational: the interrupt is up in the cycle of the read and compares that cycle’s registers', () => {
    const b = bench(mode);
    const { sim, atu } = b;
    // A read in the very cycle the allocation is presented is not yet guarded.
    sim.poke(atu.op, ATU_OP.allocArriving);
    sim.poke(atu.key, atuKey(1, 2, false));
    sim.poke(atu.next, 0x400);
    sim.poke(atu.last, 0x4ff);
    expect(b.read(0x410)).toBe(0);
    sim.step();
    sim.poke(atu.op, ATU_OP.none);
    expect(sim.peek(atu.interrupt)).toBe(1); // the same read held into the next cycle: now guarded
    sim.poke(atu.cpuRead, 0);
    expect(sim.peek(atu.interrupt)).toBe(0); // drops in the same cycle as the read request
    // An update presented in cycle t moves the window from t+1.
    sim.poke(atu.op, ATU_OP.update);
    sim.poke(atu.next, 0x420);
    expect(b.read(0x410)).toBe(1);
    sim.step();
    sim.poke(atu.op, ATU_OP.none);
    expect(sim.peek(atu.interrupt)).toBe(0);
    // Over several cycles with a constant read the interrupt stays a level.
    for (let t = 0; t < 3; t++) {
      expect(b.read(0x420)).toBe(1);
      sim.step();
    }
  });

  it('with 32-bit CPU reads (cpuReadBytes 4) catches a word whose upper half has not arrived; the byte compare does not', () => {
    // 22 data bytes of the first packet are in: next = base + 22, mid-word (A7 prefix of 6 bytes).
    const word = bench(mode, {}, 4);
    const byte = bench(mode, {}, 1);
    for (const b of [word, byte]) b.arrive(2, 1, 0x1016, 0x1063);
    expect([word.read(0x1014), byte.read(0x1014)]).toEqual([1, 0]);
    expect([word.read(0x1010), byte.read(0x1010)]).toEqual([0, 0]);
    expect([word.read(0x1060), byte.read(0x1060)]).toEqual([1, 1]);
    expect([word.read(0x1064), byte.read(0x1064)]).toEqual([0, 0]);
    expect([word.read(0x1061), byte.read(0x1063)]).toEqual([1, 1]);
  });
});

describe('ArrivalTrackingUnit: configuration', () => {
  it('rejects bad configurations with the field and range', () => {
    expect(() => new ArrivalTrackingUnit(null, 'atu', { atuEntries: 33 })).toThrow('buzzard.atuEntries: 33 is outside 0..32');
    expect(() => new ArrivalTrackingUnit(null, 'atu', { atuEntries: 1.5 })).toThrow(RangeError);
    expect(() => new ArrivalTrackingUnit(null, 'atu', { n: 0 })).toThrow('buzzard.n: 0 is outside 1..10');
    expect(() => new ArrivalTrackingUnit(null, 'atu', {}, { cpuReadBytes: 3 as 4 })).toThrow('atu.cpuReadBytes: 3 is not 1, 2 or 4');
    expect(new ArrivalTrackingUnit(null, 'atu', { atuEntries: 1 }).m).toBe(1);
    expect(new ArrivalTrackingUnit(null, 'atu', { atuEntries: 32 }).m).toBe(32);
  });
});

describe('ArrivalTrackingUnit: plain and activity mode in lockstep', () => {
  it('gives bit-identical state on random operation streams', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const r = rng(seed);
      const pick = (k: number): number => Math.floor(r() * k);
      const ls = new Lockstep(() => new ArrivalTrackingUnit(null, 'atu', { n: 2, atuEntries: 3 }, { cpuReadBytes: seed % 2 ? 4 : 1 }));
      let allocs = 0;
      for (let t = 0; t < 400; t++) {
        // Only legal ops here: pick keys the unit holds for update/purge.
        const held = ls.plain.states.map((_, k) => [ls.peek((u) => u.states[k]!), k] as const).filter(([st]) => st !== F);
        const o = pick(6);
        ls.poke((u) => u.cpuAddr, pick(0x300));
        ls.poke((u) => u.cpuRead, pick(2));
        if ((o === 3 || o === 4) && held.length) {
          const k = held[pick(held.length)]![1];
          const kv = ls.peek((u) => u.keys[k]!);
          ls.poke((u) => u.op, o);
          ls.poke((u) => u.key, kv);
          ls.poke((u) => u.next, Math.min(ls.peek((u) => u.nexts[k]!) + pick(8), ls.peek((u) => u.lasts[k]!) + 1));
        } else if (o === 1 || o === 2) {
          const src = pick(4);
          const dir = 1 + pick(2);
          const clash = ls.plain.keys.some((_, k) => ls.peek((u) => u.states[k]!) === A && ls.peek((u) => u.keys[k]!) === atuKey(src, dir, false));
          ls.poke((u) => u.op, o === 1 && clash ? ATU_OP.lookup : o);
          ls.poke((u) => u.key, atuKey(src, dir, pick(2)));
          const base = pick(0x280);
          ls.poke((u) => u.next, base);
          ls.poke((u) => u.last, base + pick(0x40));
          allocs++;
        } else {
          ls.poke((u) => u.op, pick(2) ? ATU_OP.lookup : ATU_OP.none);
          ls.poke((u) => u.key, atuKey(pick(4), 1 + pick(2), pick(2)));
        }
        for (const sel of [(u: ArrivalTrackingUnit) => u.hit, (u: ArrivalTrackingUnit) => u.hitIdx, (u: ArrivalTrackingUnit) => u.interrupt, (u: ArrivalTrackingUnit) => u.freeCount]) ls.peek(sel);
        ls.step();
      }
      expect(allocs).toBeGreaterThan(50);
    }
  });
});
