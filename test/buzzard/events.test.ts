/**
 * The RTL event recorder (harness/rtl/events.ts): the event stream of a
 * running cube is complete and consistent with the e-cube paths (computed
 * here, independently of rtl/buzzard/routing.ts), the per-hop stamps follow
 * the 31-cycle head timing at zero load, delivery stamps are the cycles the
 * data reach node memory, and the stream survives a JSON-lines round trip.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { type BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { CubeDriver, type SentMessage } from '../../harness/rtl/cube_driver.ts';
import { attachEvents, writeEventTrace, type EventRecorder } from '../../harness/rtl/events.ts';
import { formatTrace, parseTrace, readTrace, type TraceEvent } from '../../traces/events/vocabulary.ts';
import { FLAG, readBytes } from '../../rtl/buzzard/header_blocks.ts';

function setup(cfg: Partial<BuzzardConfig>, mode: SimMode = 'activity') {
  const cube = new BuzzardCube(cfg);
  const sim = new Simulator(cube, { mode });
  const drv = new CubeDriver(sim, cube);
  const rec = attachEvents(sim, cube, drv);
  return { cube, sim, drv, rec };
}

const bytes = (len: number, seed: number): number[] => Array.from({ length: len }, (_, i) => ((seed * 31 + i * 7) % 255) + 1);

/** Packets of a message (32-byte packets: 14 16-bit words after destination and source; 6-byte prefix = 3 words). */
const packetsOf = (len: number): number => Math.max(1, Math.ceil((3 + Math.ceil(len / 2)) / 14));

/** The hops of a packet: first over `first`, then ascending e-cube. Each hop: the dimension and the node reached. */
function hopsOf(src: number, dest: number, first: number): { dim: number; node: number }[] {
  const out: { dim: number; node: number }[] = [];
  let at = src ^ (1 << (first - 1));
  out.push({ dim: first, node: at });
  while (at !== dest) {
    let b = 0;
    while (!(((at ^ dest) >> b) & 1)) b++;
    at ^= 1 << b;
    out.push({ dim: b + 1, node: at });
  }
  return out;
}
const lowestDim = (a: number, b: number): number => {
  let k = 0;
  while (!(((a ^ b) >> k) & 1)) k++;
  return k + 1;
};

/** Check the event stream of one message; returns its per-packet path times for further checks. */
function checkMessage(events: TraceEvent[], m: SentMessage, firstPortMustBe?: number): number[][] {
  const mine = events.filter((e) => e.msg === m.id);
  const of = (kind: TraceEvent['kind']): TraceEvent[] => mine.filter((e) => e.kind === kind);
  const where = `message ${m.id} (${m.src}→${m.dest}, ${m.data.length} B)`;

  const queued = of('message-queued');
  expect(queued, `${where}: message-queued`).toHaveLength(1);
  expect(queued[0]).toMatchObject({ node: m.src, unit: 'nop' });
  const first = queued[0]!.port!;
  if (firstPortMustBe !== undefined) expect(first, `${where}: first port`).toBe(firstPortMustBe);
  expect((m.src ^ m.dest) & (1 << (first - 1)), `${where}: first port ${first} is profitable`).not.toBe(0);

  const npk = packetsOf(m.data.length);
  const injected = of('packet-injected');
  expect(injected.map((e) => e.packet).sort((a, b) => a! - b!), `${where}: injected packets`).toEqual(Array.from({ length: npk }, (_, k) => k));
  const hops = hopsOf(m.src, m.dest, first);
  const times: number[][] = [];
  for (let k = 0; k < npk; k++) {
    const pk = mine.filter((e) => e.packet === k && e.kind !== 'message-queued' && e.kind !== 'first-packet-delivered' && e.kind !== 'message-complete');
    const one = (kind: TraceEvent['kind'], node: number, unit: string, port: number): TraceEvent => {
      const hit = pk.filter((e) => e.kind === kind && e.node === node && e.unit === unit && e.port === port);
      expect(hit, `${where} packet ${k}: ${kind} at node ${node} ${unit} port ${port}`).toHaveLength(1);
      return hit[0]!;
    };
    // source: grant of O_first to slot `first`, then the S1 on the link
    const g0 = one('grant', m.src, 'nop', first);
    const inj = one('packet-injected', m.src, 'nop', first);
    const path = [queued[0]!.t, g0.t, inj.t];
    expect(g0.t, `${where} packet ${k}: grant one cycle before the S1`).toBe(inj.t - 1);
    let upstream = inj.t;
    hops.forEach((h, q) => {
      const out = q + 1 < hops.length ? hops[q + 1]!.dim : 0;
      const ha = one('head-arrives', h.node, `pbu${h.dim}`, h.dim);
      const gr = one('grant', h.node, `pbu${h.dim}`, out);
      const fw = one('packet-forwarded', h.node, `pbu${h.dim}`, out);
      // no wire delay: the S1 reaches the PBU in the cycle it was sent
      expect(ha.t, `${where} packet ${k}: head at node ${h.node} = upstream S1`).toBe(upstream);
      expect(gr.t, `${where} packet ${k}: grant after head at node ${h.node}`).toBeGreaterThan(ha.t);
      expect(fw.t, `${where} packet ${k}: forwarded one cycle after grant at node ${h.node}`).toBe(gr.t + 1);
      path.push(ha.t, gr.t, fw.t);
      upstream = fw.t;
    });
    const nip = one('head-arrives', m.dest, 'nip', 0);
    expect(nip.t, `${where} packet ${k}: head at the node input port`).toBe(upstream);
    path.push(nip.t);
    // nothing else for this packet
    expect(pk, `${where} packet ${k}: no other events`).toHaveLength(2 + 3 * hops.length + 1);
    for (let q = 1; q < path.length; q++) expect(path[q]!, `${where} packet ${k}: times along the path`).toBeGreaterThanOrEqual(path[q - 1]!);
    times.push(path);
  }
  // packets leave the source in order
  for (let k = 1; k < npk; k++) expect(times[k]![2]!, `${where}: packet ${k} injected after packet ${k - 1}`).toBeGreaterThan(times[k - 1]![2]!);

  const fpd = of('first-packet-delivered');
  const mc = of('message-complete');
  expect(fpd, `${where}: first-packet-delivered`).toHaveLength(1);
  expect(mc, `${where}: message-complete`).toHaveLength(1);
  expect(fpd[0]).toMatchObject({ node: m.dest, packet: 0, unit: 'nip', port: 0 });
  expect(mc[0]).toMatchObject({ node: m.dest, packet: npk - 1, unit: 'nip', port: 0 });
  expect(fpd[0]!.t, `${where}: first packet delivered after its head reached the node input port`).toBeGreaterThan(times[0]!.at(-1)!);
  expect(fpd[0]!.t, `${where}: first-packet-delivered <= message-complete`).toBeLessThanOrEqual(mc[0]!.t);
  expect(mc[0]!.t, `${where}: complete after the last head arrived`).toBeGreaterThan(times[npk - 1]!.at(-1)!);
  expect(mine, `${where}: total events`).toHaveLength(1 + npk * (2 + 3 * hops.length + 1) + 2);
  return times;
}

function expectSorted(events: TraceEvent[]): void {
  for (let k = 1; k < events.length; k++) expect(events[k]!.t).toBeGreaterThanOrEqual(events[k - 1]!.t);
}

/** Messages from several sources, crossing at intermediate PBUs, two of them queued on the same slot. */
function mixedWorkload(drv: CubeDriver): void {
  const spec: [number, number, number, number][] = [
    // src, dest, bytes, cycle
    [0, 7, 40, 10],
    [5, 2, 60, 12],
    [6, 1, 20, 15],
    [1, 0, 4, 20],
    [2, 7, 90, 25],
    [0, 3, 30, 30], // behind 0→7 in slot 1's send queue
    [4, 7, 28, 40],
  ];
  spec.forEach(([s, d, len, at], k) => {
    drv.receive(d, s, 128, 0, k + 1);
    drv.send(s, d, bytes(len, k), at, k + 1);
  });
}

describe('RTL event recorder', () => {
  it('emits a complete, consistent stream along the e-cube paths for a mixed workload', () => {
    const { sim, drv, rec } = setup({ n: 3, routing: 'e-cube' });
    mixedWorkload(drv);
    expect(sim.runUntil(() => drv.allComplete(), 30_000).reached).toBe(true);
    sim.step(20);
    expect(rec.anomalies).toEqual([]);
    expectSorted(rec.events);
    for (const m of drv.sent) checkMessage(rec.events, m, lowestDim(m.src, m.dest));
    // every event belongs to a driver message
    expect(rec.events.every((e) => e.msg >= 0 && e.msg < drv.sent.length)).toBe(true);
    // the data arrived (the stream describes a run that worked)
    for (const r of drv.receives) expect(drv.received(r).error).toBe(0);
    // nothing after the run drained: every message completed exactly once
    const done = rec.events.filter((e) => e.kind === 'message-complete');
    expect(done.map((e) => e.msg).sort((x, y) => x - y)).toEqual(drv.sent.map((m) => m.id));
  });

  it('messages queued on the same slot leave in queue order', () => {
    const { sim, drv, rec } = setup({ n: 3, routing: 'e-cube' });
    drv.receive(1, 0, 64, 0, 1);
    drv.receive(3, 0, 64, 0, 2);
    drv.receive(5, 0, 64, 0, 3);
    const a = drv.send(0, 1, bytes(50, 1), 5, 1);
    const b = drv.send(0, 3, bytes(10, 2), 6, 2);
    const c = drv.send(0, 5, bytes(30, 3), 200, 3);
    expect(sim.runUntil(() => drv.allComplete(), 20_000).reached).toBe(true);
    expect(rec.anomalies).toEqual([]);
    const inj = rec.events.filter((e) => e.kind === 'packet-injected').map((e) => `${e.msg}#${e.packet}`);
    expect(inj).toEqual(['0#0', '0#1', '1#0', '2#0', '2#1']);
    for (const m of [a, b, c]) checkMessage(rec.events, m, 1);
  });

  it('follows quasi-adaptive (contrary) first hops', () => {
    const { sim, drv, rec } = setup({ n: 3, routing: 'quasi-adaptive' });
    // three messages 0→7 at once: the control unit spreads them over slots 1, 2, 3 (shortest queue)
    for (let k = 0; k < 3; k++) {
      drv.receive(7, 0, 64, 0, k + 1);
      drv.send(0, 7, bytes(30 + 10 * k, k), 10 + k, k + 1);
    }
    drv.receive(6, 1, 64, 0, 9);
    drv.send(1, 6, bytes(40, 9), 12, 9);
    expect(sim.runUntil(() => drv.allComplete(), 30_000).reached).toBe(true);
    expect(rec.anomalies).toEqual([]);
    for (const m of drv.sent) checkMessage(rec.events, m);
    const firsts = drv.sent.slice(0, 3).map((m) => rec.events.find((e) => e.msg === m.id && e.kind === 'message-queued')!.port);
    expect(new Set(firsts)).toEqual(new Set([1, 2, 3]));
  });

  it('reports a refused-and-retried contrary packet once (the attempt that went through)', () => {
    // 2-row CAMs and crossing traffic: contrary packets from slot 2 are refused at node 2 / node 0 (§5.3, A8)
    const { sim, drv, cube, rec } = setup({ n: 2, camHeight: 2, routing: 'quasi-adaptive' });
    let k = 0;
    for (const [s, d] of [
      [0, 3],
      [0, 3],
      [2, 3],
      [2, 3],
      [2, 1],
      [2, 1],
    ] as const) {
      k++;
      drv.receive(d, s, 200, 0, k);
      drv.send(s, d, bytes(200, k), 5 + k, k);
    }
    expect(sim.runUntil(() => drv.allComplete(), 40_000).reached).toBe(true);
    const refusals = cube.nodes.reduce((a, nd) => a + nd.cu!.slots.reduce((b, sl) => b + sim.peek(sl.refusals), 0), 0);
    expect(refusals).toBeGreaterThan(10);
    expect(rec.anomalies).toEqual([]);
    for (const m of drv.sent) checkMessage(rec.events, m);
  });

  for (const strict of [false, true]) {
    const perHop = strict ? 33 : 31;
    it(`at zero load, head-arrives at successive PBUs differ by exactly ${perHop} cycles (strictFraming ${strict})`, () => {
      const { sim, drv, rec } = setup({ n: 4, routing: 'e-cube', strictFraming: strict });
      drv.receive(15, 0, 64, 0);
      const m = drv.send(0, 15, bytes(20, 5), 10);
      expect(sim.runUntil(() => drv.allComplete(), 10_000).reached).toBe(true);
      expect(rec.anomalies).toEqual([]);
      checkMessage(rec.events, m, 1);
      const heads = rec.events.filter((e) => e.kind === 'head-arrives' && e.unit !== 'nip');
      expect(heads.map((e) => [e.node, e.unit])).toEqual([
        [1, 'pbu1'],
        [3, 'pbu2'],
        [7, 'pbu3'],
        [15, 'pbu4'],
      ]);
      const dt = heads.slice(1).map((e, k) => e.t - heads[k]!.t);
      expect(dt).toEqual([perHop, perHop, perHop]);
      // inside the hop: grant at c + perHop - 1, S1 out at c + perHop
      for (const h of heads) {
        const g = rec.events.find((e) => e.kind === 'grant' && e.node === h.node && e.unit === h.unit)!;
        const f = rec.events.find((e) => e.kind === 'packet-forwarded' && e.node === h.node && e.unit === h.unit)!;
        expect([g.t - h.t, f.t - h.t]).toEqual([perHop - 1, perHop]);
      }
      // the source's S1 is the first PBU's head
      expect(rec.events.find((e) => e.kind === 'packet-injected')!.t).toBe(heads[0]!.t);
    });
  }

  it('stamps delivery with the first cycle the data are in node memory', () => {
    const { sim, drv, rec } = setup({ n: 3, routing: 'e-cube' });
    const r = drv.receive(7, 0, 64, 0);
    const data = bytes(40, 3);
    drv.send(0, 7, data, 10);
    // packet 0 carries the 6-byte prefix and data bytes 0..21; the last packet ends with byte 39
    const mem = drv.mem(7);
    let firstSeen = -1;
    let lastSeen = -1;
    let flagSeen = -1;
    sim.observe({
      onCycle(s) {
        if (firstSeen < 0 && readBytes(mem, r.buffer + 20, 2).every((v, k) => v === data[20 + k])) firstSeen = s.cycle;
        if (lastSeen < 0 && readBytes(mem, r.buffer, 40).every((v, k) => v === data[k])) lastSeen = s.cycle;
        if (flagSeen < 0 && drv.received(r).progress === FLAG.complete) flagSeen = s.cycle;
      },
    });
    expect(sim.runUntil(() => drv.allComplete(), 10_000).reached).toBe(true);
    const fpd = rec.events.find((e) => e.kind === 'first-packet-delivered')!;
    const mc = rec.events.find((e) => e.kind === 'message-complete')!;
    expect(firstSeen).toBeGreaterThan(0);
    expect(fpd.t).toBe(firstSeen);
    expect(mc.t).toBe(lastSeen);
    expect(fpd.t).toBeLessThan(mc.t);
    expect(mc.t).toBeLessThan(flagSeen); // the completion flag (3) is written after the data
  });

  it('events survive a JSON-lines round trip (string and file)', () => {
    const { sim, drv, rec } = setup({ n: 3, routing: 'e-cube' });
    mixedWorkload(drv);
    expect(sim.runUntil(() => drv.allComplete(), 30_000).reached).toBe(true);
    expect(rec.events.length).toBeGreaterThan(50);
    const back = parseTrace(formatTrace(rec.header, rec.events));
    expect(back.header).toEqual(rec.header);
    expect(back.header).toMatchObject({ format: 'icemu-events', version: 1, model: 'rtl', unit: 'cycles' });
    expect(back.events).toEqual(rec.events);
    const dir = mkdtempSync(join(tmpdir(), 'icemu-events-'));
    try {
      const a = join(dir, 'a.jsonl');
      const b = join(dir, 'b.jsonl');
      rec.write(a);
      writeEventTrace(b, rec);
      expect(readTrace(a)).toEqual({ header: rec.header, events: rec.events });
      expect(readTrace(b).events).toEqual(rec.events);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('random workloads: complete streams, no anomalies, identical in plain and activity modes', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 3 }).chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.constantFrom<'e-cube' | 'quasi-adaptive'>('e-cube', 'quasi-adaptive'),
            fc.array(fc.record({ src: fc.nat((1 << n) - 1), dst: fc.nat((1 << n) - 1), len: fc.integer({ min: 1, max: 120 }), at: fc.nat(400) }), { minLength: 1, maxLength: 6 }),
          ),
        ),
        ([n, routing, msgs]) => {
          const run = (mode: SimMode): { rec: EventRecorder; drv: CubeDriver } => {
            const { sim, drv, rec } = setup({ n, routing }, mode);
            msgs
              .filter((m) => m.src !== m.dst)
              .forEach((m, k) => {
                drv.receive(m.dst, m.src, m.len, 0, k + 1);
                drv.send(m.src, m.dst, bytes(m.len, k), m.at, k + 1);
              });
            expect(sim.runUntil(() => drv.allComplete(), 40_000).reached).toBe(true);
            return { rec, drv };
          };
          const act = run('activity');
          expect(act.rec.anomalies).toEqual([]);
          expectSorted(act.rec.events);
          for (const m of act.drv.sent) {
            checkMessage(act.rec.events, m, routing === 'e-cube' ? lowestDim(m.src, m.dest) : undefined);
            checked++;
          }
          expect(run('plain').rec.events).toEqual(act.rec.events);
        },
      ),
      { numRuns: 6, seed: 20240611 },
    );
    expect(checked).toBeGreaterThan(5);
  });
});
