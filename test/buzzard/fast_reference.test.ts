/**
 * The fast mode is the reference mode, bit for bit (issue 8; docs/kernel.md
 * "Fast and reference mode"). Random Buzzard workloads (cubes 2–4, rates,
 * lengths, routing, strict framing on and off, broadcasts) run in the fast
 * mode ('activity': exact and guarded sensitivity, commit lists, statistics
 * counters as edge time stamps, fast-forward) and in the reference mode
 * ('plain': every process every cycle, full commit, counters ticking every
 * cycle). At every cycle every wire (the link bits included) and every
 * register must be equal; at the end the memories (state hash), the event
 * traces and the VCD bytes of one node.
 *
 * Negative control: the same comparison with one timing of the fast mode
 * perturbed by a cycle (the statistics counters' edge time stamps) must fail.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { attachEvents } from '../../harness/rtl/events.ts';
import { messagePattern, scheduleWorkload } from '../../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../../harness/workloads/index.ts';
import { startVcd } from '../../traces/vcd/index.ts';
import { fastReferenceDiff } from '../lib/lockstep_sim.ts';

const dir = mkdtempSync(join(tmpdir(), 'icemu-fastref-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Params {
  n: number;
  strict: boolean;
  routing: 'quasi-adaptive' | 'e-cube';
  meanBytes: number;
  gapTicks: number;
  seed: number;
  broadcasts: { src: number; bytes: number; cycle: number }[];
  cycles: number;
  vcdNode: number;
  /** Small CAMs and FIFOs (contrary refusals, full input FIFOs): the unit guards' cases. */
  camHeight?: number;
  fifoDepth?: number;
  /** Fixed messages [source, destination, bytes, cycle] instead of the random workload. */
  sends?: [number, number, number, number][];
}

/** What the last compare() saw in its fast run: refusals and cycles with an input port's flow block up. */
const seen = { refusals: 0, blockCycles: 0 };

/**
 * Perturbation for the negative control: every statistics counter of the fast
 * mode starts counting one cycle late (its edge time stamp is off by one).
 * It reaches into the kernel's private CounterSet on purpose: only a test
 * should ever do that.
 */
function lateCounters(sim: Simulator): void {
  const set = (sim as unknown as { counters: { count(k: number, on: boolean): void; since: Float64Array; active: Uint8Array } }).counters;
  const count = set.count.bind(set);
  set.count = (k: number, on: boolean): void => {
    const was = set.active[k];
    count(k, on);
    if (was === 0 && set.active[k] === 1) set.since[k]! += 1;
  };
}

function build(p: Params, mode: SimMode, run: number, perturb = false) {
  const cube = new BuzzardCube({
    n: p.n,
    strictFraming: p.strict,
    routing: p.routing,
    ...(p.camHeight ? { camHeight: p.camHeight } : {}),
    ...(p.fifoDepth ? { fifoDepth: p.fifoDepth } : {}),
  });
  const sim = new Simulator(cube, { mode });
  const driver = new CubeDriver(sim, cube);
  const w = buzzardCh5Workload({ cubeDegree: p.n, meanBytes: p.meanBytes, meanGapTicks: p.gapTicks, durationTicks: (p.cycles * 0.6) / 4.5, seed: p.seed });
  if (p.sends) {
    p.sends.forEach(([s, d, bytes, cycle], k) => {
      driver.receive(d, s, bytes, 0, k + 1);
      driver.send(s, d, messagePattern(100 + k, bytes), cycle, k + 1);
    });
  } else scheduleWorkload(driver, w);
  const N = 1 << p.n;
  p.broadcasts.forEach((b, k) => {
    const type = 0x7000 + k;
    for (let a = 0; a < N; a++) if (a !== b.src) driver.receive(a, b.src, b.bytes, 0, type);
    driver.broadcast(b.src, messagePattern(5000 + k, b.bytes), b.cycle, type);
  });
  const rec = attachEvents(sim, cube, driver);
  const vcdPath = join(dir, `run${run}-${mode}${perturb ? '-perturbed' : ''}.vcd`);
  const vcd = startVcd(sim, vcdPath, { signals: [`node${p.vcdNode}.**`], stateStrings: true, date: '2026-01-01T00:00:00Z', handleExit: false });
  if (perturb) lateCounters(sim);
  return { sim, rec, vcd, vcdPath, driver, cube };
}

/** Run both modes side by side; the first difference as text, or null. */
function compare(p: Params, run: number, perturb: boolean): string | null {
  const fast = build(p, 'activity', run, perturb);
  const ref = build(p, 'plain', run);
  /** Step one simulator; a unit assertion is part of the behaviour being compared. */
  const step = (sim: Simulator): string => {
    try {
      sim.step(1);
      return '';
    } catch (e) {
      return String(e);
    }
  };
  seen.refusals = 0;
  seen.blockCycles = 0;
  try {
    for (let c = 0; c <= p.cycles; c++) {
      if (c > 0) {
        const ea = step(fast.sim);
        const eb = step(ref.sim);
        if (ea !== eb) return `cycle ${c}: fast mode ${ea || 'ran'}, reference mode ${eb || 'ran'}`;
        // Both stopped at the same assertion in the same cycle: the modes agree, but a unit
        // assertion on a valid workload is a design bug (the broadcast arrival-key one was
        // hidden here while this returned null), so it fails the comparison too.
        if (ea) return `cycle ${c}: both modes stopped: ${ea}`;
      }
      const d = fastReferenceDiff(fast.sim, ref.sim, c);
      if (d) return d;
      if (fast.cube.nodes.some((nd) => fast.sim.peek(nd.nip.block) === 1)) seen.blockCycles++;
    }
    seen.refusals = fast.cube.nodes.reduce((a, nd) => a + nd.cu!.slots.reduce((b, sl) => b + fast.sim.peek(sl.refusals), 0), 0);
    if (!fast.rec.events.some((e) => e.kind === 'head-arrives')) return 'no packet moved: the workload did not exercise the links';
    if (fast.sim.stateHash() !== ref.sim.stateHash()) return 'state hashes (memories) differ at the end';
    const ea = JSON.stringify(fast.rec.events);
    const eb = JSON.stringify(ref.rec.events);
    if (ea !== eb) return 'event traces differ';
    fast.vcd.close();
    ref.vcd.close();
    if (!readFileSync(fast.vcdPath).equals(readFileSync(ref.vcdPath))) return 'VCD bytes differ';
    return null;
  } finally {
    fast.vcd.close();
    ref.vcd.close();
  }
}

const params: fc.Arbitrary<Params> = fc
  .record({
    n: fc.integer({ min: 2, max: 4 }),
    strict: fc.boolean(),
    routing: fc.constantFrom('quasi-adaptive' as const, 'e-cube' as const),
    meanBytes: fc.integer({ min: 8, max: 160 }),
    gapTicks: fc.integer({ min: 40, max: 200 }),
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    nb: fc.array(fc.record({ src: fc.nat(15), bytes: fc.integer({ min: 1, max: 90 }), cycle: fc.integer({ min: 0, max: 1500 }) }), { maxLength: 2 }),
    cycles: fc.integer({ min: 1500, max: 3000 }),
    vcdNode: fc.nat(15),
  })
  .map(({ nb, ...r }) => ({ ...r, broadcasts: nb.map((b) => ({ ...b, src: b.src % (1 << r.n) })), vcdNode: r.vcdNode % (1 << r.n) }));

describe('fast mode = reference mode (issue 8)', () => {
  let run = 0;
  it('property: every wire, link bit and register at every cycle, memories, events and VCD bytes agree on random workloads', () => {
    fc.assert(
      fc.property(params, (p) => {
        expect(compare(p, run++, false)).toBeNull();
      }),
      { numRuns: 6 },
    );
  });

  // The unit guards (docs/kernel.md "Stop 19: unit guards"): a node output
  // port's release reads the header and the refusal point only while hold is
  // up, and a node input port's flow control reads its state only while the
  // FIFO is full. The random workloads above rarely refuse a packet or fill a
  // FIFO; 2-row CAMs and 2-word FIFOs under heavy load refuse (full FIFOs stay rare: the control unit drains them), in both
  // framings (a guard on the wrong value of hold or full fails here).
  it.each([false, true])('small CAMs and FIFOs, strict framing %s: contrary refusals, both modes agree', (strict) => {
    // events.test.ts's crossing traffic: contrary packets from slot 2 refused at nodes 2 and 0 (§5.3, A8)
    const sends: [number, number, number, number][] = [[0, 3, 200, 6], [0, 3, 200, 7], [2, 3, 200, 8], [2, 3, 200, 9], [2, 1, 200, 10], [2, 1, 200, 11], [1, 3, 400, 6], [1, 3, 400, 6], [0, 3, 400, 8]];
    const p: Params = { n: 2, strict, routing: 'quasi-adaptive', meanBytes: 8, gapTicks: 40, seed: 1, broadcasts: [], cycles: 4000, vcdNode: 3, camHeight: 2, fifoDepth: 2, sends };
    expect(compare(p, run++, false)).toBeNull();
    expect(seen.refusals).toBeGreaterThan(0);
    console.log(`[small CAMs/FIFOs, strict ${strict}] refusals ${seen.refusals}, cycles with a flow block up ${seen.blockCycles}`);
  }, 120_000);

  it('a broadcast beside a unicast from its source over the same first link (once a control-unit assertion at cycle 2584): both modes agree and every message arrives byte-exact', () => {
    // Node 0's broadcast and its unicast 0 -> 5 both reach node 5 through node 1 (first-step
    // direction 1). Node 1's PBU holds a broadcast packet for its local copy (O_0 first, A11)
    // while the unicast's packet overtakes it towards O_3, so node 5 sees their packets
    // interleaved. The arrival key (source, direction) alone merged them; a broadcast is now
    // keyed (source, 0) (docs/readings.md broadcast-arrival-key).
    const p: Params = { n: 3, strict: false, routing: 'quasi-adaptive', meanBytes: 44, gapTicks: 177, seed: 10433, broadcasts: [{ src: 0, bytes: 63, cycle: 57 }], cycles: 3000, vcdNode: 5 };
    expect(compare(p, run++, false)).toBeNull();
    const fast = build(p, 'activity', run++);
    fast.vcd.close();
    const { sim, driver } = fast;
    for (let c = 0; c < 8000 && !driver.allComplete(); c += 100) sim.step(100);
    expect(driver.allComplete()).toBe(true);
    const bcast = driver.sent.filter((m) => m.broadcast);
    expect(bcast).toHaveLength(1);
    const overlapping = driver.sent.filter((m) => !m.broadcast && m.src === 0 && m.dest === 5);
    expect(overlapping.length).toBeGreaterThan(0); // the unicast that shares node 5's key
    let broadcastCopies = 0;
    for (const r of driver.receives) {
      const m = driver.sent.find((s) => s.src === r.source && s.type === r.type && (s.broadcast || s.dest === r.node))!;
      const got = driver.received(r);
      expect({ node: r.node, type: r.type, progress: got.progress, error: got.error, length: got.length, bytes: got.bytes }).toEqual({
        node: r.node,
        type: r.type,
        progress: 3,
        error: 0,
        length: m.data.length,
        bytes: m.data,
      });
      if (m.broadcast) broadcastCopies++;
    }
    expect(broadcastCopies).toBe(7);
    expect(driver.sendFlag(bcast[0]!)).toEqual({ progress: 3, error: 0 });
  });

  it('smallest form (2-cube): node 1 busy receiving holds the broadcast packet for its local copy, the unicast 0 -> 3 overtakes it; both modes deliver every message byte-exact', () => {
    // Failed before the fix with "node3.cu: packet from node 0 (direction 1) carries data beyond its message" at cycle 939.
    for (const mode of ['activity', 'plain'] as const) {
      const cube = new BuzzardCube({ n: 2, strictFraming: false, routing: 'e-cube' });
      const sim = new Simulator(cube, { mode });
      const d = new CubeDriver(sim, cube);
      for (const src of [2, 3]) {
        d.receive(1, src, 200, 0, src);
        d.send(src, 1, messagePattern(src, 200), 0, src);
      }
      for (let a = 1; a < 4; a++) d.receive(a, 0, 40, 0, 0x7000);
      d.broadcast(0, messagePattern(9, 40), 10, 0x7000);
      d.receive(3, 0, 20, 0, 5);
      d.send(0, 3, messagePattern(5, 20), 100, 5);
      for (let c = 0; c < 20000 && !d.allComplete(); c += 100) sim.step(100);
      expect(d.allComplete(), mode).toBe(true);
      for (const r of d.receives) {
        const m = d.sent.find((s) => s.src === r.source && s.type === r.type)!;
        const got = d.received(r);
        expect([mode, r.node, got.progress, got.error, got.bytes]).toEqual([mode, r.node, 3, 0, m.data]);
      }
    }
  });

  it('negative control: counters whose edge time stamps are one cycle late in the fast mode are caught', () => {
    const p: Params = { n: 3, strict: false, routing: 'quasi-adaptive', meanBytes: 60, gapTicks: 80, seed: 3, broadcasts: [], cycles: 2000, vcdNode: 0 };
    const diff = compare(p, run++, true);
    expect(diff).not.toBeNull();
    expect(diff).toMatch(/^cycle \d+: node\d+\.fcu\d+\.(busy|hold)Cycles is /);
  });
});
