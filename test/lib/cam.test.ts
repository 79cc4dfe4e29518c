/**
 * Shiftable CAM (rtl/lib/cam.ts; seed 002 §5.4.2, buzzard.md §8.2).
 *
 * A model-based test drives random insert / update / free / lookup / read
 * sequences against a plain array model (splice for the shift, push for the
 * tail) on random configurations, including 32-bit rows with the flag in bit
 * 31, in both simulator modes. Explicit tests then walk through concrete
 * Buzzard numbers: 29-bit rows (contrary 1, next port 4, length 4,
 * destination 16, RAM slot 4), 13 rows, free code 15 in the next-port field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Module, SimError, Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { CAM_OP, Cam, type CamConfig, type CamField } from '../../rtl/lib/cam.ts';

const MODES: SimMode[] = ['plain', 'activity'];

function bitsFor(n: number): number {
  let b = 1;
  while (2 ** b <= n) b++;
  return b;
}
/** Bit `b` of v, without 32-bit signed pitfalls. */
const bit = (v: number, b: number): number => Math.floor(v / 2 ** b) % 2;
const fieldVal = (v: number, lsb: number, w: number): number => Math.floor(v / 2 ** lsb) % 2 ** w;

// ---------------------------------------------------------------- model

interface Params {
  H: number;
  W: number;
  wmask: number;
  slotW: number; // slot field at [0, slotW)
  keyLsb: number;
  keyW: number;
  flagBit: number;
  keep: number;
  freeBits: number;
  config: CamConfig;
}

function makeParams(H: number, keyW: number, W: number): Params {
  const slotW = bitsFor(H - 1);
  const keyLsb = slotW;
  const dataW = W - 1 - slotW - keyW;
  const flagBit = W - 1;
  const fields: CamField[] = [
    ['slot', 0, slotW],
    ['key', keyLsb, keyW],
    ...(dataW > 0 ? [['data', keyLsb + keyW, dataW] as CamField] : []),
    ['flag', flagBit, 1],
  ];
  const keep = 2 ** slotW - 1;
  const freeBits = (2 ** keyW - 1) * 2 ** keyLsb; // all-ones key = the "free" code, as Buzzard's next port 15
  return {
    H,
    W,
    wmask: 2 ** W - 1,
    slotW,
    keyLsb,
    keyW,
    flagBit,
    keep,
    freeBits,
    config: { width: W, height: H, fields, key: 'key', flag: 'flag', keepMask: keep, freeBits },
  };
}

class Model {
  rows: number[];
  used = 0;
  constructor(readonly p: Params) {
    // default init: row k holds slot k and the free code
    this.rows = Array.from({ length: p.H }, (_, k) => k + p.freeBits);
  }
  keyOf(v: number): number {
    return fieldVal(v, this.p.keyLsb, this.p.keyW);
  }
  /** A written row: slot bits kept from the physical row, the rest from wdata. */
  merge(old: number, wdata: number): number {
    const slot = old % 2 ** this.p.slotW;
    return wdata - (wdata % 2 ** this.p.slotW) + slot;
  }
  insert(wdata: number): void {
    this.rows[this.used] = this.merge(this.rows[this.used]!, wdata);
    this.used++;
  }
  update(k: number, wdata: number): void {
    this.rows[k] = this.merge(this.rows[k]!, wdata);
  }
  free(k: number): void {
    const [gone] = this.rows.splice(k, 1);
    this.rows.push((gone! % 2 ** this.p.slotW) + this.p.freeBits);
    this.used--;
  }
}

interface Real {
  sim: Simulator;
  cam: Cam;
}

function expectState(m: Model, r: Real): void {
  const { sim, cam } = r;
  const p = m.p;
  const key = sim.peek(cam.key);
  const raddr = sim.peek(cam.raddr);
  const hits: number[] = [];
  for (let k = 0; k < m.used; k++) if (m.keyOf(m.rows[k]!) === key) hits.push(k);
  const predicted = {
    rows: m.rows,
    used: m.used,
    freeCount: p.H - m.used,
    freeRow: m.used < p.H ? m.rows[m.used] : 0,
    flagAnd: m.rows.every((v) => bit(v, p.flagBit) === 1) ? 1 : 0,
    flagAndButTail: m.rows.slice(0, p.H - 1).every((v) => bit(v, p.flagBit) === 1) ? 1 : 0,
    hit: hits.length > 0 ? 1 : 0,
    hitRow: hits.length > 0 ? hits[0] : 0,
    hitData: hits.length > 0 ? m.rows[hits[0]!] : 0,
    match: hits.reduce((a, k) => a + 2 ** k, 0),
    rdata: raddr < p.H ? m.rows[raddr] : 0,
  };
  const observed = {
    rows: cam.rows.map((r) => sim.peek(r)),
    used: sim.peek(cam.used),
    freeCount: sim.peek(cam.freeCount),
    freeRow: sim.peek(cam.freeRow),
    flagAnd: sim.peek(cam.flagAnd),
    flagAndButTail: sim.peek(cam.flagAndButTail),
    hit: sim.peek(cam.hit),
    hitRow: sim.peek(cam.hitRow),
    hitData: sim.peek(cam.hitData),
    match: sim.peek(cam.match),
    rdata: sim.peek(cam.rdata),
  };
  expect(observed).toEqual(predicted);
  // The CAM is the free list of RAM slots: slot numbers stay a permutation.
  const slots = observed.rows.map((v) => v % 2 ** p.slotW).sort((a, b) => a - b);
  expect(slots).toEqual(Array.from({ length: p.H }, (_, k) => k));
}

/**
 * Run one clock edge with `op`, expecting a unit error iff `error` is given.
 * `op` stays applied afterwards (it is level-sensitive): consecutive commands
 * with the same op then change only addr/wdata, which activity mode must see.
 */
function clock(r: Real, op: number, error?: RegExp): void {
  const { sim, cam } = r;
  sim.poke(cam.op, op);
  if (error) {
    const snap = sim.save();
    let caught: unknown;
    try {
      sim.step();
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SimError);
    expect((caught as SimError).kind).toBe('unit-assertion');
    expect((caught as Error).message).toMatch(error);
    sim.restore(snap); // back to before the failed edge: the violation changed nothing
  } else {
    sim.step();
  }
}

class InsertCmd implements fc.Command<Model, Real> {
  constructor(readonly raw: number, readonly flag: boolean) {}
  wdata(p: Params): number {
    const v = this.raw % 2 ** (p.W - 1);
    return this.flag ? v + 2 ** p.flagBit : v;
  }
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    r.sim.poke(r.cam.wdata, this.wdata(m.p));
    if (m.used === m.p.H) {
      clock(r, CAM_OP.insert, /^cycle \d+: cam: insert into a full CAM/);
    } else {
      clock(r, CAM_OP.insert);
      m.insert(this.wdata(m.p));
    }
    expectState(m, r);
  }
  toString(): string {
    return `insert(${this.raw},${this.flag})`;
  }
}

class UpdateCmd implements fc.Command<Model, Real> {
  constructor(readonly sel: number, readonly raw: number, readonly flag: boolean) {}
  check(m: Readonly<Model>): boolean {
    return m.used > 0;
  }
  run(m: Model, r: Real): void {
    const k = this.sel % m.used;
    const v = this.raw % 2 ** (m.p.W - 1);
    const w = this.flag ? v + 2 ** m.p.flagBit : v;
    r.sim.poke(r.cam.addr, k);
    r.sim.poke(r.cam.wdata, w);
    clock(r, CAM_OP.update);
    m.update(k, w);
    expectState(m, r);
  }
  toString(): string {
    return `update(${this.sel},${this.raw},${this.flag})`;
  }
}

class FreeCmd implements fc.Command<Model, Real> {
  constructor(readonly sel: number) {}
  check(m: Readonly<Model>): boolean {
    return m.used > 0;
  }
  run(m: Model, r: Real): void {
    const k = this.sel % m.used;
    r.sim.poke(r.cam.addr, k);
    clock(r, CAM_OP.free);
    m.free(k);
    expectState(m, r);
  }
  toString(): string {
    return `free(${this.sel})`;
  }
}

/** Update or free of a row that is not occupied: a protocol violation, state unchanged. */
class BadAddrCmd implements fc.Command<Model, Real> {
  constructor(readonly op: 'update' | 'free', readonly sel: number) {}
  check(m: Readonly<Model>): boolean {
    return m.used < m.p.H;
  }
  run(m: Model, r: Real): void {
    const k = m.used + (this.sel % (m.p.H - m.used));
    r.sim.poke(r.cam.addr, k);
    clock(r, CAM_OP[this.op], new RegExp(`cam: ${this.op} of row ${k}, which is not occupied`));
    expectState(m, r);
  }
  toString(): string {
    return `bad-${this.op}(${this.sel})`;
  }
}

/** Change the lookup key and read address; an idle clock changes nothing. */
class LookCmd implements fc.Command<Model, Real> {
  constructor(readonly key: number, readonly raddr: number) {}
  check(): boolean {
    return true;
  }
  run(m: Model, r: Real): void {
    r.sim.poke(r.cam.key, this.key % 2 ** m.p.keyW);
    r.sim.poke(r.cam.raddr, this.raddr % 2 ** bitsFor(m.p.H - 1));
    expectState(m, r);
    clock(r, CAM_OP.none);
    expectState(m, r);
  }
  toString(): string {
    return `look(${this.key},${this.raddr})`;
  }
}

const commands = [
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 3 })).map(([v, f]) => new InsertCmd(v, f > 0)),
  fc.tuple(fc.nat(), fc.boolean()).map(([v, f]) => new InsertCmd(v, f)),
  fc.tuple(fc.nat(), fc.nat(), fc.boolean()).map(([k, v, f]) => new UpdateCmd(k, v, f)),
  fc.nat().map((k) => new FreeCmd(k)),
  fc.tuple(fc.constantFrom('update' as const, 'free' as const), fc.nat()).map(([o, k]) => new BadAddrCmd(o, k)),
  fc.tuple(fc.nat(), fc.nat()).map(([k, a]) => new LookCmd(k, a)),
  fc.tuple(fc.nat(), fc.nat()).map(([k, a]) => new LookCmd(k, a)),
];

const paramsArb = fc
  .record({ H: fc.integer({ min: 2, max: 13 }), keyW: fc.integer({ min: 1, max: 3 }), wide: fc.boolean(), extra: fc.integer({ min: 0, max: 20 }) })
  .map(({ H, keyW, wide, extra }) => {
    const minW = bitsFor(H - 1) + keyW + 1;
    return makeParams(H, keyW, wide ? 32 : Math.min(32, minW + extra));
  });

describe('Cam: model-based', () => {
  it('matches an array model on random operation sequences (both simulator modes)', () => {
    fc.assert(
      fc.property(paramsArb, fc.constantFrom(...MODES), fc.commands(commands, { maxCommands: 150, size: 'max' }), (p, mode, cmds) => {
        const cam = new Cam(null, 'cam', p.config);
        const sim = new Simulator(cam, { mode });
        const model = new Model(p);
        expectState(model, { sim, cam });
        fc.modelRun(() => ({ model, real: { sim, cam } }), cmds);
      }),
      { numRuns: 150 },
    );
  });
});

// ---------------------------------------------------------------- Buzzard numbers

/** Buzzard's 29-bit row (§5.4.2); the bit order is this test's choice. */
const BZ_FIELDS: CamField[] = [
  ['slot', 0, 4],
  ['dest', 4, 16],
  ['length', 20, 4],
  ['nextPort', 24, 4],
  ['contrary', 28, 1],
];
const FREE_PORT = 15; // buzzard.md §5 [interp]: one next-port code marks a free row
const BZ: CamConfig = {
  width: 29,
  height: 13,
  fields: BZ_FIELDS,
  key: 'nextPort',
  flag: 'contrary',
  keepMask: 0xf,
  freeBits: FREE_PORT * 2 ** 24,
};
const bzRow = (contrary: number, nextPort: number, length: number, dest: number, slot = 0): number =>
  contrary * 2 ** 28 + nextPort * 2 ** 24 + length * 2 ** 20 + dest * 2 ** 4 + slot;

function bzCam(mode: SimMode): Real & { insert(v: number): void; free(k: number): void; update(k: number, v: number): void; look(key: number): void } {
  const cam = new Cam(null, 'cam', BZ);
  const sim = new Simulator(cam, { mode });
  const r = { sim, cam };
  return {
    ...r,
    insert(v: number) {
      sim.poke(cam.wdata, v);
      clock(r, CAM_OP.insert);
    },
    update(k: number, v: number) {
      sim.poke(cam.addr, k);
      sim.poke(cam.wdata, v);
      clock(r, CAM_OP.update);
    },
    free(k: number) {
      sim.poke(cam.addr, k);
      clock(r, CAM_OP.free);
    },
    look(key: number) {
      sim.poke(cam.key, key);
    },
  };
}

describe.each(MODES)('Cam: Buzzard PBU numbers (%s mode)', (mode) => {
  it('starts with 13 free rows holding RAM slots 0..12 and the free next port', () => {
    const c = bzCam(mode);
    const { sim, cam } = c;
    expect(cam.rows).toHaveLength(13);
    for (let k = 0; k < 13; k++) expect(sim.peek(cam.rows[k]!)).toBe(bzRow(0, FREE_PORT, 0, 0, k));
    expect(sim.peek(cam.used)).toBe(0);
    expect(sim.peek(cam.freeCount)).toBe(13);
    expect(sim.peek(cam.freeRow)).toBe(bzRow(0, FREE_PORT, 0, 0, 0));
    expect(sim.peek(cam.flagAnd)).toBe(0);
    // free rows carry the free code but never match
    c.look(FREE_PORT);
    expect(sim.peek(cam.hit)).toBe(0);
    expect(sim.peek(cam.match)).toBe(0);
    // port widths follow the configuration
    expect([cam.key.width, cam.raddr.width, cam.addr.width, cam.match.width, cam.used.width, cam.freeCount.width]).toEqual([4, 4, 4, 13, 4, 4]);
  });

  it('inserts keep the slot of the free row, lookups take the head-most match, free shifts and recycles the slot at the tail', () => {
    const c = bzCam(mode);
    const { sim, cam } = c;
    // Three packets: next port 3, 5, 3. wdata's slot bits (0xF) are ignored: the row keeps its slot.
    const a1 = bzRow(1, 3, 15, 0x1234, 0xf);
    const b1 = bzRow(0, 5, 2, 0x00ff, 0xf);
    const a2 = bzRow(0, 3, 9, 0x1234, 0xf);
    c.insert(a1);
    c.insert(b1);
    c.insert(a2);
    expect(sim.peek(cam.used)).toBe(3);
    expect(sim.peek(cam.freeCount)).toBe(10);
    expect(sim.peek(cam.rows[0]!)).toBe(bzRow(1, 3, 15, 0x1234, 0));
    expect(sim.peek(cam.rows[1]!)).toBe(bzRow(0, 5, 2, 0x00ff, 1));
    expect(sim.peek(cam.rows[2]!)).toBe(bzRow(0, 3, 9, 0x1234, 2));
    expect(sim.peek(cam.freeRow)).toBe(bzRow(0, FREE_PORT, 0, 0, 3)); // input step 2 latches slot 3 next
    c.look(3);
    expect([sim.peek(cam.hit), sim.peek(cam.hitRow), sim.peek(cam.match)]).toEqual([1, 0, 0b101]);
    expect(sim.peek(cam.hitData)).toBe(bzRow(1, 3, 15, 0x1234, 0));
    expect(cam.field(sim.peek(cam.hitData), 'length')).toBe(15);
    c.look(5);
    expect([sim.peek(cam.hit), sim.peek(cam.hitRow), sim.peek(cam.match)]).toEqual([1, 1, 0b010]);
    c.look(7);
    expect([sim.peek(cam.hit), sim.peek(cam.hitRow), sim.peek(cam.hitData), sim.peek(cam.match)]).toEqual([0, 0, 0, 0]);
    // read port
    sim.poke(cam.raddr, 2);
    expect(sim.peek(cam.rdata)).toBe(bzRow(0, 3, 9, 0x1234, 2));
    sim.poke(cam.raddr, 14);
    expect(sim.peek(cam.rdata)).toBe(0);

    // Output step 2, broadcast: write the incremented next port back in place.
    c.update(1, bzRow(0, 6, 2, 0x00ff, 0));
    expect(sim.peek(cam.rows[1]!)).toBe(bzRow(0, 6, 2, 0x00ff, 1));
    c.look(6);
    expect([sim.peek(cam.hitRow), sim.peek(cam.match)]).toEqual([1, 0b010]);

    // Output step 6: free the head packet; rows above move up, slot 0 goes to the tail.
    c.free(0);
    expect(sim.peek(cam.used)).toBe(2);
    expect(sim.peek(cam.rows[0]!)).toBe(bzRow(0, 6, 2, 0x00ff, 1));
    expect(sim.peek(cam.rows[1]!)).toBe(bzRow(0, 3, 9, 0x1234, 2));
    for (let k = 2; k < 12; k++) expect(sim.peek(cam.rows[k]!)).toBe(bzRow(0, FREE_PORT, 0, 0, k + 1));
    expect(sim.peek(cam.rows[12]!)).toBe(bzRow(0, FREE_PORT, 0, 0, 0));
    c.look(3);
    expect([sim.peek(cam.hit), sim.peek(cam.hitRow), sim.peek(cam.match)]).toEqual([1, 1, 0b10]);
    expect(sim.peek(cam.freeRow)).toBe(bzRow(0, FREE_PORT, 0, 0, 3));
  });

  it('keeps packet order among rows with the same next port across frees', () => {
    const c = bzCam(mode);
    const { sim, cam } = c;
    // A message's packets (next port 2) interleaved with another route's (next port 4).
    c.insert(bzRow(0, 2, 1, 100));
    c.insert(bzRow(0, 4, 1, 200));
    c.insert(bzRow(0, 2, 2, 100));
    c.insert(bzRow(0, 2, 3, 100));
    const lengthsInOrder: number[] = [];
    c.look(2);
    while (sim.peek(cam.hit) === 1) {
      lengthsInOrder.push(cam.field(sim.peek(cam.hitData), 'length'));
      c.free(sim.peek(cam.hitRow));
    }
    expect(lengthsInOrder).toEqual([1, 2, 3]);
    c.look(4);
    expect([sim.peek(cam.hitRow), sim.peek(cam.used)]).toEqual([0, 1]);
    // the freed slots 0, 2, 3 went to the tail in the order they were freed
    expect([10, 11, 12].map((k) => cam.field(sim.peek(cam.rows[k]!), 'slot'))).toEqual([0, 2, 3]);
  });

  it('raises contrary-full only when every row holds a contrary packet, and refuses a 14th insert', () => {
    const c = bzCam(mode);
    const { sim, cam } = c;
    for (let k = 0; k < 12; k++) c.insert(bzRow(1, k % 10, 3, k));
    expect([sim.peek(cam.flagAnd), sim.peek(cam.flagAndButTail), sim.peek(cam.freeCount)]).toEqual([0, 1, 1]);
    c.insert(bzRow(1, 9, 3, 99));
    expect([sim.peek(cam.flagAnd), sim.peek(cam.flagAndButTail), sim.peek(cam.freeCount), sim.peek(cam.used)]).toEqual([1, 1, 0, 13]);
    expect(sim.peek(cam.freeRow)).toBe(0);
    // update one row to non-contrary: the AND drops
    c.update(5, bzRow(0, 5, 3, 5));
    expect(sim.peek(cam.flagAnd)).toBe(0);
    expect(sim.peek(cam.flagAndButTail)).toBe(0);
    c.update(5, bzRow(1, 5, 3, 5));
    expect(sim.peek(cam.flagAnd)).toBe(1);
    // full: an insert is a protocol violation naming the unit
    sim.poke(cam.wdata, bzRow(1, 1, 1, 1));
    sim.poke(cam.op, CAM_OP.insert);
    expect(() => sim.step()).toThrow(/^cycle 15: cam: insert into a full CAM \(13 of 13 rows used\)/);
  });

  it('12 contrary packets and one non-contrary packet: contrary-full stays low', () => {
    const c = bzCam(mode);
    const { sim, cam } = c;
    for (let k = 0; k < 13; k++) c.insert(bzRow(k === 7 ? 0 : 1, 1, 1, k));
    expect([sim.peek(cam.flagAnd), sim.peek(cam.used)]).toEqual([0, 13]);
    c.free(7);
    expect([sim.peek(cam.flagAnd), sim.peek(cam.flagAndButTail), sim.peek(cam.used)]).toEqual([0, 1, 12]);
  });
});

describe.each(MODES)('Cam: op is level-sensitive (%s mode)', (mode) => {
  it('a held op repeats every cycle, and a change of addr alone is seen', () => {
    const cam = new Cam(null, 'cam', { width: 8, height: 4, fields: [['k', 0, 4], ['slot', 4, 4]], key: 'k', keepMask: 0xf0 });
    const sim = new Simulator(cam, { mode });
    sim.poke(cam.op, CAM_OP.insert);
    sim.poke(cam.wdata, 0x05);
    sim.step(3); // three inserts of key 5
    expect(cam.rows.map((r) => sim.peek(r))).toEqual([0x05, 0x15, 0x25, 0x30]);
    // update row 0 with the value it already has (no register changes) ...
    sim.poke(cam.op, CAM_OP.update);
    sim.poke(cam.addr, 0);
    sim.step();
    expect(cam.rows.map((r) => sim.peek(r))).toEqual([0x05, 0x15, 0x25, 0x30]);
    sim.poke(cam.wdata, 0x09);
    sim.step();
    sim.poke(cam.wdata, 0x05);
    sim.step();
    // ... then, op and wdata unchanged, move addr: row 2 must be written
    sim.poke(cam.wdata, 0x0c);
    sim.step(2); // the second, repeated update changes no register: a quiet cycle
    sim.poke(cam.addr, 2);
    sim.step();
    expect(cam.rows.map((r) => sim.peek(r))).toEqual([0x0c, 0x15, 0x2c, 0x30]);
    sim.poke(cam.op, CAM_OP.free);
    sim.poke(cam.addr, 0);
    sim.step(2); // two frees of the head row
    expect([sim.peek(cam.used), ...cam.rows.map((r) => sim.peek(r))]).toEqual([1, 0x2c, 0x30, 0x00, 0x10]);
  });
});

describe('Cam: errors and configuration', () => {
  it('names the unit by its hierarchical path and the cycle on a protocol violation', () => {
    const node = new Module(null, 'node');
    const pbu = new Module(node, 'pbu1');
    const cam = new Cam(pbu, 'cam', BZ);
    const ins = { key: cam.key, raddr: cam.raddr, op: cam.op, addr: cam.addr, wdata: cam.wdata };
    for (const [n, s] of Object.entries(ins)) node.connect(node.input(n, s.width), s);
    const sim = new Simulator(node);
    sim.step(3);
    sim.poke('op', CAM_OP.free);
    sim.poke('addr', 0);
    expect(() => sim.step()).toThrow('cycle 3: pbu1.cam: free of row 0, which is not occupied (0 row(s) used)');
  });

  const bad: [string, Partial<CamConfig>, string][] = [
    ['height below 2', { height: 1 }, 'cam.height: 1 is outside 2..32'],
    ['height above 32', { height: 33 }, 'cam.height: 33 is outside 2..32'],
    ['width 0', { width: 0 }, 'cam.width: 0 is outside 1..32'],
    ['width 33', { width: 33 }, 'cam.width: 33 is outside 1..32'],
    ['fractional height', { height: 2.5 }, 'cam.height: 2.5 is outside 2..32'],
    ['field past the row', { width: 28 }, 'cam.fields.contrary.lsb: 28 is outside 0..27'],
    ['unknown key', { key: 'port' }, "cam.key: 'port' is not a field"],
    ['wide flag', { flag: 'length' }, "cam.flag: field 'length' is 4 bits wide"],
    ['keepMask over the key', { keepMask: 0x0f00000f }, 'cam.keepMask: 0xf00000f overlaps the key field'],
    ['keepMask too wide', { keepMask: 2 ** 29 }, 'cam.keepMask: 536870912 is outside 0..536870911'],
    ['freeBits with the flag', { freeBits: 2 ** 28 }, 'cam.freeBits: 0x10000000 sets the flag bit 28'],
    ['freeBits over keepMask', { freeBits: 1 }, 'cam.freeBits: 0x1 overlaps keepMask 0xf'],
    ['init with the flag', { init: () => 2 ** 28 }, 'cam.init: row 0 value 0x10000000 sets the flag bit'],
    ['overlapping fields', { fields: [...BZ_FIELDS, ['x', 3, 2]] }, "cam.fields: field 'x' overlaps another field"],
  ];
  it.each(bad)('rejects %s', (_, patch, msg) => {
    expect(() => new Cam(null, 'cam', { ...BZ, ...patch })).toThrow(msg);
  });

  it('accepts a custom init and a CAM without a flag column (flagAnd then reads 0)', () => {
    const cam = new Cam(null, 'cam', {
      width: 8,
      height: 4,
      fields: [['k', 0, 4], ['slot', 4, 4]],
      key: 'k',
      keepMask: 0xf0,
      init: (k) => (3 - k) * 16,
    });
    const sim = new Simulator(cam);
    expect(cam.rows.map((r) => sim.peek(r))).toEqual([0x30, 0x20, 0x10, 0x00]);
    for (let k = 0; k < 4; k++) {
      sim.poke(cam.wdata, 0xff);
      sim.poke(cam.op, CAM_OP.insert);
      sim.step();
    }
    sim.poke(cam.op, CAM_OP.none);
    expect(cam.rows.map((r) => sim.peek(r))).toEqual([0x3f, 0x2f, 0x1f, 0x0f]);
    expect(sim.peek(cam.flagAnd)).toBe(0);
    sim.poke(cam.key, 0xf);
    expect(sim.peek(cam.match)).toBe(0b1111);
  });
});
