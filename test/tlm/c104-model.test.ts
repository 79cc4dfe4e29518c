/**
 * The T9000/C104 TLM (harness/tlm/t9000-c104): zero-load closed forms,
 * contention, determinism, config validation.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { runC104, resolveC104Config, manhattan, type ContentionMode } from '../../harness/tlm/t9000-c104/index.ts';
import type { IterationPlan, ProcessProgram, SyncMode } from '../../harness/workloads/process-program.ts';
import { SyntheticProgram, standardSetup } from '../../harness/workloads/thesis-synthetic.ts';
import { formatTrace, parseTrace } from '../../traces/events/vocabulary.ts';

/** Processes that each send the given messages once at t = 0 (iteration 0), then compute for a long time. */
class OneShot implements ProcessProgram {
  readonly name = 'one-shot';
  readonly params = {};
  readonly processes: number;
  constructor(
    readonly side: number,
    private readonly sends: Map<number, { dest: number; bytes: number }[]>,
    readonly mode: SyncMode = 'async',
  ) {
    this.processes = side * side;
  }
  nodeOf(p: number): number {
    return p;
  }
  plan(p: number, k: number): IterationPlan {
    return k === 0 ? { computeNs: 1, sends: this.sends.get(p) ?? [] } : { computeNs: 1e9, sends: [] };
  }
  startNs(): number {
    return 0;
  }
  incoming(): number {
    return 0;
  }
}

function single(side: number, src: number, dst: number, bytes: number, cfg: Record<string, unknown> = {}) {
  return runC104(new OneShot(side, new Map([[src, [{ dest: dst, bytes }]]])), { side, recordEvents: true, ...cfg }, { fixedNs: 200_000, checkpointNs: 100_000, truncate: false });
}

describe('zero load: one packet crosses in DS-link serialisation + one header time per hop', () => {
  const modes: ContentionMode[] = ['full', 'contention-free', 'throttled'];
  it.each(modes)('%s: 32-byte packet, data transit = 3340 + (h − 1)·100 ns, ack = 140 + (h − 1)·100 ns', (mode) => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 63 }), fc.integer({ min: 0, max: 300 }), (src, dst, delay) => {
        fc.pre(src !== dst);
        const r = single(8, src, dst, 32, { mode, routingDelayNs: delay });
        const h = manhattan(src, dst, 8) + 2;
        const s = r.summary;
        expect(s.data.count).toBe(1);
        expect(s.meanHops).toBe(h);
        // The data packet is queued at t = 1 ns (after its 1 ns compute).
        expect(s.data.transport! * 1000).toBeCloseTo(3340 + (h - 1) * (100 + delay), 6);
        expect(s.data.routed! * 1000).toBeCloseTo(3340 + (h - 2) * (100 + delay), 6);
        expect(s.firstHopWait).toBe(0); // no throttling at zero load
        // The ack leaves when the data header arrives: (h − 1)·(100 + delay) + 100 after the data left.
        expect(s.ack.transport! * 1000).toBeCloseTo(140 + (h - 1) * (100 + delay), 6);
      }),
      { numRuns: 25 },
    );
  });

  it('a 0-byte message is one 140 ns packet; a 33-byte message is two packets, the second sent after the first ack', () => {
    const z = single(4, 0, 5, 0);
    expect(z.summary.data.transport! * 1000).toBeCloseTo(140 + 3 * 100, 6);
    const two = single(4, 0, 1, 33);
    expect(two.summary.data.count).toBe(2);
    const inj = two.events!.filter((e) => e.kind === 'packet-injected').map((e) => e.t);
    // Packet 0 at 1 ns; its ack is created when its header reaches the T9000 (1 + 2·100 + 100) and takes 140 + 2·100.
    expect(inj).toEqual([1, 1 + 300 + 340]);
  });

  it('no-comm delivers and acknowledges at once', () => {
    const r = single(4, 0, 15, 32, { mode: 'no-comm' });
    expect(r.summary.data.transport).toBe(0);
    expect(r.summary.ack.transport).toBe(0);
  });

  it('two-phase routing: the path goes via a random intermediate and the random header costs 100 ns per phase-1 link', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const r = single(4, 0, 15, 32, { routing: 'two-phase', networkSeed: seed });
      const s = r.summary;
      expect(s.data.count).toBe(1);
      expect(s.meanHops!).toBeGreaterThanOrEqual(manhattan(0, 15, 4) + 2);
    }
  });
});

describe('contention', () => {
  it('two packets for one output: the second waits for the first to drain (FIFO)', () => {
    // Nodes 0 and 2 on a 4×4 mesh both send to node 3 (same row): 2 is on 0's path, so both need link 2→3.
    const r = runC104(new OneShot(4, new Map([[0, [{ dest: 3, bytes: 32 }]], [2, [{ dest: 3, bytes: 32 }]]])), { side: 4, recordEvents: true }, { fixedNs: 100_000, checkpointNs: 50_000, truncate: false });
    const done = r.events!.filter((e) => e.kind === 'message-complete').map((e) => e.t).sort((a, b) => a - b);
    // Node 2's packet: 3 links, delivered at 1 + 200 + 3340. Node 0's waits at switch 2 for link 2→3 until 1 + 100 + 3340 (node 2's tail leaves it).
    expect(done[0]).toBe(1 + 200 + 3340);
    expect(done[1]).toBeGreaterThan(done[0]!);
    // Per-switch load: node 0's packet is forwarded by switches 0, 1, 2, 3; node 2's by 2, 3; the acks return 3→2(→1→0).
    expect(r.switchLoadMap!.map((x) => (x * 100_000) / 1e6)).toEqual([2, 2, 4, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it('throttling (Def. 5.2): two packets from one node for the same first internal link — the second waits one packet time', () => {
    const r = runC104(new OneShot(4, new Map([[0, [{ dest: 3, bytes: 32 }, { dest: 3, bytes: 32 }]]])), { side: 4 }, { fixedNs: 100_000, checkpointNs: 50_000, truncate: false });
    // Data: 0 and 3340 ns of wait; the two acks from node 3 leave 3340 ns apart on an idle path: no wait.
    expect(r.summary.firstHopWait! * 1000).toBeCloseTo(3340 / 4, 6);
  });

  it('a full input buffer holds the next packet back until the whole packet fits (70 tokens = two data packets)', () => {
    const sends = new Map([[0, Array.from({ length: 6 }, () => ({ dest: 15, bytes: 32 }))]]);
    const big = runC104(new OneShot(4, sends), { side: 4, cpuLinkWidth: 1 }, { fixedNs: 200_000, checkpointNs: 100_000, truncate: false });
    const small = runC104(new OneShot(4, sends), { side: 4, cpuLinkWidth: 1, inputBufferTokens: 34 }, { fixedNs: 200_000, checkpointNs: 100_000, truncate: false });
    expect(big.summary.data.count).toBe(6);
    expect(small.summary.data.count).toBe(6);
    expect(small.summary.data.transport!).toBeGreaterThan(big.summary.data.transport!);
  });

  it('Fig. 5.1\'s two readings of link utilisation: equal without waits for room; connected above transmitting when a held connection waits for room downstream', () => {
    const alone = single(4, 0, 15, 32).summary;
    expect(alone.networkUtilisation).toBeGreaterThan(0);
    expect(alone.networkConnectedUtilisation).toBe(alone.networkUtilisation);
    // A saturated 6×6 mesh (async, c = 1 µs): connections wait for room in full input buffers.
    const sat = (mode: ContentionMode) => runC104(new SyntheticProgram({ ...standardSetup(1, 'async'), D: 6, d: 3 }), { side: 6, mode }, { fixedNs: 300_000, truncate: false }).summary;
    const full = sat('full');
    expect(full.networkConnectedUtilisation).toBeGreaterThan(full.networkUtilisation * 1.1);
    // The contention-free models never hold a connection: the two readings are one.
    const cf = sat('throttled');
    expect(cf.networkConnectedUtilisation).toBe(cf.networkUtilisation);
  });
});

describe('the three network models under contention (docs/thesis-model.md#contention-modes)', () => {
  const done = (mode: ContentionMode, sends: Map<number, { dest: number; bytes: number }[]>) => {
    const r = runC104(new OneShot(4, sends), { side: 4, mode, recordEvents: true }, { fixedNs: 100_000, checkpointNs: 50_000, truncate: false });
    return { done: r.events!.filter((e) => e.kind === 'message-complete').map((e) => e.t).sort((a, b) => a - b), wait: r.summary.firstHopWait };
  };
  // Two packets from node 0 for node 15 share their first internal link 0→1; alone each takes 1 + 3340 + 7·100 ns.
  const sameSource = new Map([[0, [{ dest: 15, bytes: 32 }, { dest: 15, bytes: 32 }]]]);
  // Nodes 0 and 2 for node 3: they meet on link 2→3, the first internal link of node 2 only; alone 1 + 3340 + 4·100 and + 2·100.
  const downstream = new Map([[0, [{ dest: 3, bytes: 32 }]], [2, [{ dest: 3, bytes: 32 }]]]);
  it('full: both waits (the second packet one packet time behind the first)', () => {
    expect(done('full', sameSource)).toEqual({ done: [4041, 4041 + 3340], wait: 3340 / 4 / 1000 });
    expect(done('full', downstream).done).toEqual([3541, 3541 + 3340]);
  });
  it('throttled: the wait for the same first internal link (Def. 5.2) only; the downstream meeting costs nothing', () => {
    expect(done('throttled', sameSource)).toEqual({ done: [4041, 4041 + 3340], wait: 3340 / 4 / 1000 });
    expect(done('throttled', downstream).done).toEqual([3541, 3741]);
  });
  it('contention-free: neither (every packet its zero-load time)', () => {
    expect(done('contention-free', sameSource)).toEqual({ done: [4041, 4041], wait: 0 });
    expect(done('contention-free', downstream).done).toEqual([3541, 3741]);
  });
});

describe('determinism and streams', () => {
  it('same seeds → identical results; another network seed changes random arbitration only', () => {
    const run = (networkSeed: number) => runC104(new SyntheticProgram({ ...standardSetup(4, 'async'), D: 6, d: 3 }), { side: 6, crossbarPolicy: 'random', networkSeed }, { fixedNs: 400_000, truncate: false });
    const a = run(3);
    const b = run(3);
    const c = run(4);
    expect(JSON.stringify(a.summary)).toBe(JSON.stringify(b.summary));
    expect(a.eventsDispatched).toBe(b.eventsDispatched);
    expect(JSON.stringify(a.summary)).not.toBe(JSON.stringify(c.summary));
    // The workload is the same: the same sends were attempted.
    expect(c.summary.sendsAttempted).toBe(a.summary.sendsAttempted);
  });
});

describe('event vocabulary', () => {
  it('a run emits the shared vocabulary in ns, in time order per message, and it round-trips through the trace format', () => {
    const r = single(4, 0, 15, 32);
    const kinds = r.events!.map((e) => e.kind);
    expect(kinds).toEqual(['message-queued', 'packet-injected', 'head-arrives', 'grant', 'packet-forwarded', 'head-arrives', 'grant', 'packet-forwarded', 'head-arrives', 'grant', 'packet-forwarded', 'head-arrives', 'grant', 'packet-forwarded', 'head-arrives', 'grant', 'packet-forwarded', 'head-arrives', 'grant', 'packet-forwarded', 'head-arrives', 'grant', 'packet-forwarded', 'first-packet-delivered', 'message-complete']);
    const text = formatTrace({ format: 'icemu-events', version: 1, model: 'tlm', unit: 'ns' }, r.events!);
    expect(parseTrace(text).events).toEqual(r.events);
  });
});

describe('plan shortcuts', () => {
  it('computeNs / sendCount shortcuts change nothing: the same run without them is identical (async at saturation, loosely)', () => {
    for (const mode of ['async', 'loosely'] as const) {
      const prog = new SyntheticProgram({ ...standardSetup(1, mode), D: 6, d: 3 });
      const plain: ProcessProgram = { name: prog.name, params: prog.params, mode: prog.mode, side: prog.side, processes: prog.processes, nodeOf: (p) => prog.nodeOf(p), plan: (p, k) => prog.plan(p, k), startNs: (p) => prog.startNs(p), incoming: (p, k) => prog.incoming(p, k) };
      const a = runC104(prog, { side: 6 }, { fixedNs: 300_000 });
      const b = runC104(plain, { side: 6 }, { fixedNs: 300_000 });
      expect(JSON.stringify(b.summary)).toBe(JSON.stringify(a.summary));
      expect(b.eventsDispatched).toBe(a.eventsDispatched);
      if (mode === 'async') expect(a.summary.saturationFailures).toBeGreaterThan(0);
    }
  });
});

describe('config validation', () => {
  it('names the field and the range', () => {
    expect(() => resolveC104Config({ inputBufferTokens: 20 })).toThrow(/c104.inputBufferTokens: 20 is outside 34\.\./);
    expect(() => resolveC104Config({ cpuLinkWidth: 0 })).toThrow(/c104.cpuLinkWidth/);
    expect(() => resolveC104Config({ crossbarPolicy: 'lifo' as never })).toThrow(/c104.crossbarPolicy/);
    expect(() => resolveC104Config({ side: 32 })).toThrow(/c104.headerBytes: 1 addresses at most 256 nodes/);
    expect(() => resolveC104Config({ linkModel: 'token-credit', crossbarPolicy: 'random' })).toThrow(/c104.crossbarPolicy: the token-credit link model supports only "fifo"/);
    expect(() => resolveC104Config({ bogus: 1 } as never)).toThrow(/c104.bogus: unknown field/);
    expect(resolveC104Config({ side: 32, headerBytes: 2 }).side).toBe(32);
  });
});
