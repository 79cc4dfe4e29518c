/**
 * The Table 3.1 run at scale (docs/c104.md#lazy-workload): the lazy message
 * stream equals the eager list; the recorder's running summary equals the
 * statistics of its full event list; a lazily fed run in summary mode is
 * the eagerly scheduled, fully recorded run, state vector for state vector;
 * released messages keep the driver's memory to what is in flight.
 */
import { describe, expect, it } from 'vitest';
import { thesisWindowStream, thesisWindowWorkload, type ThesisWorkloadOptions } from '../../harness/rtl/c104_thesis_workload.ts';
import { summariseEvents } from '../../harness/rtl/t9000_summary.ts';
import { buildC104Mesh, C104_START, type C104MeshCase } from '../../bench/c104.ts';
import type { C104System } from '../../harness/rtl/c104_system.ts';
import { bytesDigest, SeqList, type T9000Message } from '../../harness/rtl/t9000_driver.ts';

const wl = (o: Partial<ThesisWorkloadOptions>): ThesisWorkloadOptions => ({ side: 4, window: 2, intervalCycles: 100, bytes: 32, start: 2500, end: 22_500, seed: 3, ...o });

describe('thesisWindowStream', () => {
  it.each([
    ['4x4 ±2', wl({})],
    ['8x8 ±16, 300-cycle interval', wl({ side: 8, window: 16, intervalCycles: 300, seed: 1 })],
    ['5x5 ±1, interval 7 (many ties in t)', wl({ side: 5, window: 1, intervalCycles: 7, end: 4000, seed: 9 })],
  ])('equals the eager list, ids and order included (%s)', (_, o) => {
    const eager = thesisWindowWorkload(o);
    expect(eager.length).toBeGreaterThan(100);
    expect([...thesisWindowStream(o)]).toEqual(eager);
  });

  it('control: another seed gives another list', () => {
    expect([...thesisWindowStream(wl({ seed: 4 }))]).not.toEqual(thesisWindowWorkload(wl({})));
  });
});

const mesh: C104MeshCase = { side: 3, window: 2, interval: 100, warmup: 0, cycles: 0, seed: 2 };
const UNTIL = C104_START + 6000;

/** The recorder's events and the byte check of each delivery against its sent message. */
function exactness(sys: C104System): boolean[] {
  return sys.rec.deliveries.map((d) => {
    const m = sys.driver.messages[d.msg];
    return m !== undefined && m.data.length === d.bytes.length && m.data.every((b, j) => b === d.bytes[j]);
  });
}

describe('T9000 recorder summary', { timeout: 120_000 }, () => {
  const full = buildC104Mesh(mesh, UNTIL, { eager: true });
  full.sim.step(UNTIL + 1500);
  const events = full.rec.events;

  it('equals the statistics of the full event list', () => {
    expect(full.rec.summary.delivered).toBeGreaterThan(200);
    expect(full.rec.summary.byteExact).toBe(full.rec.summary.delivered);
    expect(full.rec.summary).toEqual(summariseEvents(events, exactness(full)));
  });

  it.each(['message-complete', 'first-packet-delivered', 'ack', 'message-queued'])('control: one %s event dropped changes them', (kind) => {
    // (a message-queued event of a message that completed: its time enters the statistics)
    const done = new Set(events.filter((e) => e.kind === 'message-complete').map((e) => e.msg));
    const k = events.findIndex((e, i) => i > events.length / 2 && e.kind === kind && done.has(e.msg));
    expect(k).toBeGreaterThan(0);
    const dropped = events.filter((_, i) => i !== k);
    expect(full.rec.summary).not.toEqual(summariseEvents(dropped, exactness(full)));
  });

  it('control: a delivery whose bytes differ changes them', () => {
    const ex = exactness(full);
    ex[7] = false;
    expect(full.rec.summary).not.toEqual(summariseEvents(events, ex));
  });

  it.each([
    ['1 µs interval', mesh, 0],
    ['100 ns interval: sends held, waiting packed', { ...mesh, interval: 10 }, 1],
  ] as const)('a lazily fed run in summary mode is the eager, fully recorded run: same state vector every 500 cycles, same summary (%s)', (_, m, minHeld) => {
    const eager = buildC104Mesh(m, UNTIL, { eager: true });
    const lazy = buildC104Mesh(m, UNTIL, { summary: true });
    expect(lazy.sim.nextStimulus).toBeLessThan(Infinity);
    for (let c = 0; c < UNTIL + 1500; c += 500) {
      eager.sim.step(500);
      lazy.sim.step(500);
      expect(lazy.sim.cycle).toBe(eager.sim.cycle);
      expect(Buffer.from(lazy.sim.s.buffer).equals(Buffer.from(eager.sim.s.buffer))).toBe(true);
    }
    expect(lazy.sim.evaluations).toBe(eager.sim.evaluations);
    expect(lazy.rec.summary).toEqual(eager.rec.summary);
    expect(lazy.rec.events).toHaveLength(0);
    expect(lazy.driver.sentCount).toBe(eager.driver.messages.length);
    expect(lazy.driver.heldCount).toBe(eager.driver.heldCount);
    // the packed backlog's held path was taken (post: messages wait packed, docs/c104.md#lazy-workload)
    expect(eager.driver.heldCount).toBeGreaterThanOrEqual(minHeld);
    expect([...lazy.driver.bySource.values()].every((l) => l.packed !== null)).toBe(true);
  });

  it('control: a lazy run of another seed differs in state', () => {
    const other = buildC104Mesh({ ...mesh, seed: 5 }, UNTIL, { summary: true });
    other.sim.step(full.sim.cycle);
    expect(Buffer.from(other.sim.s.buffer).equals(Buffer.from(full.sim.s.buffer))).toBe(false);
  });

  it('summary mode releases delivered messages (retaining mode keeps them all)', () => {
    const lazy = buildC104Mesh(mesh, UNTIL, { summary: true });
    lazy.sim.step(UNTIL + 1500);
    const live = [...lazy.driver.bySource.values()].reduce((a, l) => a + l.live, 0);
    const kept = [...full.driver.bySource.values()].reduce((a, l) => a + l.live, 0);
    expect(lazy.rec.summary.delivered).toBeGreaterThan(200);
    expect(kept).toBe(full.driver.sentCount);
    // what is left: at most twice the messages not yet delivered (a list compacts once half of it is released)
    expect(live).toBeLessThanOrEqual(2 * (lazy.driver.sentCount - lazy.rec.summary.delivered));
    expect(live).toBeLessThan(kept);
  });
});

describe('bytesDigest (what a released message keeps for the byte check)', () => {
  it('sees one byte changed, two bytes swapped and a byte dropped', () => {
    const b = Array.from({ length: 32 }, (_, j) => (7 + j) & 0xff);
    const d = bytesDigest(b);
    expect(bytesDigest([...b])).toBe(d);
    for (let j = 0; j < 32; j++) expect(bytesDigest(b.map((x, i) => (i === j ? x ^ 1 : x)))).not.toBe(d);
    expect(bytesDigest([b[1]!, b[0]!, ...b.slice(2)])).not.toBe(d);
    expect(bytesDigest(b.slice(1))).not.toBe(d);
  });
});

describe('SeqList and the driver restore after releases', () => {
  const msg = (seq: number): T9000Message => ({ id: seq, src: { node: 0, vl: 0 }, dest: { node: 1, vl: 0 }, data: [], size: 0, cycle: 0, seq, addr: 0 });

  it('goes back to any length at or above what was released, and refuses below it in one line', () => {
    const l = new SeqList();
    for (let j = 0; j < 10; j++) l.push(msg(j));
    l.dropBefore(6);
    expect([l.released, l.length, l.live]).toEqual([6, 10, 4]);
    l.truncate(8);
    expect([l.length, l.at(7)?.seq, l.at(8)]).toEqual([8, 7, undefined]);
    l.truncate(6);
    expect([l.length, l.live]).toEqual([6, 0]);
    // control: one below what was released (before, the list kept length 6 and the next send got seq 6, not 5)
    expect(() => l.truncate(5)).toThrow(/^t9000 driver: cannot go back to message 5 of a virtual link: messages up to 5 were released/);
    expect(l.length).toBe(6);
  });

  it('a driver in summary mode refuses a restore to before its releases and changes nothing; retaining, it restores', () => {
    const lazy = buildC104Mesh(mesh, UNTIL, { summary: true });
    const full = buildC104Mesh(mesh, UNTIL, { eager: true });
    const pl = lazy.driver.stateProvider();
    const pf = full.driver.stateProvider();
    lazy.sim.step(C104_START + 500);
    full.sim.step(C104_START + 500);
    const early = pl.save();
    const earlyFull = pf.save();
    lazy.sim.step(UNTIL);
    full.sim.step(UNTIL);
    const sent = lazy.driver.sentCount;
    const lens = [...lazy.driver.bySource.values()].map((l) => l.length);
    expect(() => pl.restore(early)).toThrow(/were released \(retainMessages off/);
    expect(lazy.driver.sentCount).toBe(sent);
    expect([...lazy.driver.bySource.values()].map((l) => l.length)).toEqual(lens);
    pf.restore(earlyFull);
    expect(full.driver.sentCount).toBe((earlyFull as { messages: number }).messages);
    expect(full.driver.messages.length).toBe(full.driver.sentCount);
  });
});
