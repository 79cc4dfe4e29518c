/**
 * Packet-passing TLM options that the experiments use but no closed form
 * pinned by hand (docs/thesis-model.md#arbitration, #routing,
 * #synchronisation): the crossbar policies at one contended output, y-first
 * routing's path, the outstanding-message limit's drop count, T9000 ack
 * priority. Each with the setting that behaves otherwise as its control.
 */
import { describe, expect, it } from 'vitest';
import { runC104, type C104Config } from '../../harness/tlm/t9000-c104/index.ts';
import type { IterationPlan, ProcessProgram } from '../../harness/workloads/process-program.ts';

/** One process per node; the listed ones start at their time, send their messages once, then compute for a long time. */
class Timed implements ProcessProgram {
  readonly name = 'timed';
  readonly params = {};
  readonly mode = 'async' as const;
  readonly processes: number;
  constructor(
    readonly side: number,
    private readonly sends: Map<number, { at: number; to: { dest: number; bytes: number }[] }>,
  ) {
    this.processes = side * side;
  }
  nodeOf(p: number): number {
    return p;
  }
  plan(p: number, k: number): IterationPlan {
    return k === 0 ? { computeNs: 1, sends: this.sends.get(p)?.to ?? [] } : { computeNs: 1e9, sends: [] };
  }
  startNs(p: number): number {
    return this.sends.get(p)?.at ?? 0;
  }
  incoming(): number {
    return 0;
  }
}

function run(sends: Map<number, { at: number; to: { dest: number; bytes: number }[] }>, cfg: Partial<C104Config> = {}) {
  return runC104(new Timed(4, sends), { side: 4, recordEvents: true, ...cfg }, { fixedNs: 200_000, checkpointNs: 100_000, truncate: false });
}
/** Delivery time of each source node's message at its destination. */
function completion(r: ReturnType<typeof run>, src: number): number {
  const queued = r.events!.find((e) => e.kind === 'message-queued' && e.node === src)!;
  return r.events!.find((e) => e.kind === 'message-complete' && e.msg === queued.msg)!.t;
}

describe('crossbar policies at one contended output (y-first, 4×4: link 2→3 wanted from switch 6, the T9000 at 2 and switch 1)', () => {
  // Node 6 (2,1) takes link 2→3 first; node 2's packet (1 link crossed) and node 0's (3 links) wait at switch 2 for it.
  const at = (t2: number, t0: number) =>
    new Map([
      [6, { at: 0, to: [{ dest: 3, bytes: 32 }] }],
      [2, { at: t2, to: [{ dest: 3, bytes: 32 }] }],
      [0, { at: t0, to: [{ dest: 3, bytes: 32 }] }],
    ]);
  const order = (policy: C104Config['crossbarPolicy'], t2: number, t0: number) => {
    const r = run(at(t2, t0), { routing: 'yx', crossbarPolicy: policy });
    return completion(r, 0) < completion(r, 2) ? 'node 0 first' : 'node 2 first';
  };
  it('node 2 created at 150 ns, node 0 at 0 (arrives later): FIFO serves node 2; oldest-first, hops-first and net-first node 0', () => {
    expect(order('fifo', 150, 0)).toBe('node 2 first');
    expect(order('oldest-first', 150, 0)).toBe('node 0 first');
    expect(order('hops-first', 150, 0)).toBe('node 0 first');
    expect(order('net-first', 150, 0)).toBe('node 0 first');
  });
  it('node 0 created at 200 ns, after node 2: oldest-first serves node 2, hops-first still node 0', () => {
    expect(order('oldest-first', 150, 200)).toBe('node 2 first');
    expect(order('hops-first', 150, 200)).toBe('node 0 first');
    expect(order('fifo', 150, 200)).toBe('node 2 first');
  });
  it('random: both orders occur over network seeds', () => {
    const seen = new Set<string>();
    for (let s = 1; s <= 12; s++) {
      const r = run(at(150, 0), { routing: 'yx', crossbarPolicy: 'random', networkSeed: s });
      seen.add(completion(r, 0) < completion(r, 2) ? '0' : '2');
    }
    expect([...seen].sort()).toEqual(['0', '2']);
  });
});

describe('routing', () => {
  const path = (routing: C104Config['routing']) => {
    const r = run(new Map([[0, { at: 0, to: [{ dest: 5, bytes: 32 }] }]]), { routing });
    return { nodes: r.events!.filter((e) => e.kind === 'head-arrives').map((e) => e.node), done: completion(r, 0) };
  };
  it('node 0 → 5 (1,1): x-first through switch 1, y-first through switch 4, the same time at zero load', () => {
    const xy = path('xy');
    const yx = path('yx');
    expect(xy.nodes).toContain(1);
    expect(xy.nodes).not.toContain(4);
    expect(yx.nodes).toContain(4);
    expect(yx.nodes).not.toContain(1);
    expect(yx.done).toBe(xy.done);
  });
});

describe('the outstanding-message limit (async, per process)', () => {
  const burst = (n: number) => new Map([[0, { at: 0, to: Array.from({ length: n }, () => ({ dest: 3, bytes: 32 })) }]]);
  it('20 sends at once with a limit of 16: 4 dropped and counted, 16 delivered', () => {
    const s = run(burst(20), { outstandingLimit: 16 }).summary;
    expect([s.sendsAttempted, s.saturationFailures, s.data.count]).toEqual([20, 4, 16]);
  });
  it('controls: a limit of 20 drops none; 16 sends with a limit of 16 drop none', () => {
    const a = run(burst(20), { outstandingLimit: 20 }).summary;
    expect([a.saturationFailures, a.data.count]).toEqual([0, 20]);
    expect(run(burst(16), { outstandingLimit: 16 }).summary.saturationFailures).toBe(0);
  });
});

describe('T9000 ack priority (CPU link width 1)', () => {
  // Node 3 queues six data packets to node 0 at t = 0; node 0's message to node 3 arrives while they are going out.
  const sends = new Map([
    [3, { at: 0, to: Array.from({ length: 6 }, () => ({ dest: 0, bytes: 32 })) }],
    [0, { at: 0, to: [{ dest: 3, bytes: 32 }] }],
  ]);
  it('on: the ack leaves node 3 after the data packet on the link; off: behind the five queued data packets (5 × 3.34 µs more)', () => {
    const ackQueue = (on: boolean) => {
      const s = run(sends, { cpuLinkWidth: 1, t9000AckPriority: on }).summary;
      return s.ack.queue! * s.ack.count; // µs, summed over the acks
    };
    const on = ackQueue(true);
    const off = ackQueue(false);
    // On: two acks wait, each for at most the one data packet on its link (node 0's for its own packet, node 3's for its first).
    expect(on).toBeLessThanOrEqual(2 * 3.34);
    // Off: node 3's ack also waits for the five data packets still queued when it was made: 5 × 3.34 µs more, exactly.
    expect(off - on).toBeCloseTo(5 * 3.34, 6);
  });
});

describe('C104 ack priority (y-first, 4×4)', () => {
  // Link 2→3 is held by node 6's packet; node 2's data packet waits for it at switch 2, then the ack of node 3's message
  // to node 0 (made at node 0, on its way back to node 3) arrives and waits too.
  const sends = new Map([
    [6, { at: 0, to: [{ dest: 3, bytes: 32 }] }],
    [2, { at: 150, to: [{ dest: 3, bytes: 32 }] }],
    [3, { at: 0, to: [{ dest: 0, bytes: 32 }] }],
  ]);
  it("on: the ack crosses first and node 2's packet completes one ack time (140 ns) later than with it off (FIFO: data first)", () => {
    const done = (c104AckPriority: boolean) => completion(run(sends, { routing: 'yx', c104AckPriority }), 2);
    expect(done(true) - done(false)).toBe(140);
  });
});

/** Process 0 starts at `at0` and sends `msgs` to process 3 in iteration 0; every later iteration computes `periodNs`; process 3 expects them in iteration 0. */
class Pair implements ProcessProgram {
  readonly name = 'pair';
  readonly params = {};
  readonly processes = 16;
  readonly side = 4;
  constructor(
    readonly mode: 'loosely' | 'async-blocking' | 'async',
    private readonly msgs: number,
    private readonly at0: number,
    private readonly periodNs: number,
  ) {}
  nodeOf(p: number): number {
    return p;
  }
  plan(p: number, k: number): IterationPlan {
    return { computeNs: k === 0 ? 1 : this.periodNs, sends: p === 0 && k === 0 ? Array.from({ length: this.msgs }, () => ({ dest: 3, bytes: 32 })) : [] };
  }
  startNs(p: number): number {
    return p === 0 ? this.at0 : 0;
  }
  incoming(p: number, k: number): number {
    return p === 3 && k === 0 ? this.msgs : 0;
  }
}

describe('synchronisation modes (docs/thesis-model.md#synchronisation)', () => {
  const go = (prog: Pair) => runC104(prog, { side: 4, recordEvents: true }, { fixedNs: 200_000, checkpointNs: 100_000, truncate: false });
  it("async-blocking: the second message is queued when the first one's ack is back (5 links: header 500 ns out, ack 540 ns back); async queues both at once", () => {
    const queued = (mode: 'async-blocking' | 'async') => go(new Pair(mode, 2, 0, 1e9)).events!.filter((e) => e.kind === 'message-queued').map((e) => e.t);
    const [a, b] = queued('async-blocking');
    expect(b! - a!).toBe(500 + 540);
    const [c, d] = queued('async');
    expect(d).toBe(c);
  });
  it("loosely: process 3 leaves iteration 0 only when process 0's message (sent at 50 µs) has arrived: 15 iterations of 10 µs in 200 µs; async (control) 20", () => {
    const iterations = (mode: 'loosely' | 'async') => go(new Pair(mode, 1, 50_000, 10_000)).processWork.iterations[3];
    expect(iterations('loosely')).toBe(15);
    expect(iterations('async')).toBe(20);
  });
});

/** Loosely synchronous: process 0 sends one message to process 3 at once; process 3 computes `firstNs` before iteration 0's sends; later iterations compute 10 µs. */
class SlowReceiver implements ProcessProgram {
  readonly name = 'slow-receiver';
  readonly params = {};
  readonly processes = 16;
  readonly side = 4;
  readonly mode = 'loosely' as const;
  constructor(private readonly firstNs: number) {}
  nodeOf(p: number): number {
    return p;
  }
  plan(p: number, k: number): IterationPlan {
    return { computeNs: k > 0 ? 10_000 : p === 3 ? this.firstNs : 1, sends: p === 0 && k === 0 ? [{ dest: 3, bytes: 32 }] : [] };
  }
  startNs(): number {
    return 0;
  }
  incoming(p: number, k: number): number {
    return p === 3 && k === 0 ? 1 : 0;
  }
}

describe('receivePosting (loosely synchronous; docs/thesis-model.md#synchronisation)', () => {
  const iterations0 = (receivePosting: C104Config['receivePosting'], firstNs: number) =>
    runC104(new SlowReceiver(firstNs), { side: 4, receivePosting }, { fixedNs: 200_000, checkpointNs: 100_000, truncate: false }).processWork.iterations[0];
  it("'after-sends': the ack waits for the receiver's 50 µs compute (sent at 50 µs, back 540 ns later): process 0 completes 15 iterations in 200 µs; 'iteration-start' (control) acks at the header, 20", () => {
    expect(iterations0('after-sends', 50_000)).toBe(15);
    expect(iterations0('iteration-start', 50_000)).toBe(20);
  });
  it("a receiver that posts before the header arrives (1 ns compute) gives both readings the same run", () => {
    expect(iterations0('after-sends', 1)).toBe(iterations0('iteration-start', 1));
  });
});

describe('hunt groups (docs/thesis-model.md#packet-passing)', () => {
  // Nodes 1, 4, 6 and 9 send 32 bytes to node 5 at once, each into switch 5 by its own internal link.
  const sends = new Map([1, 4, 6, 9].map((n): [number, { at: number; to: { dest: number; bytes: number }[] }] => [n, { at: 0, to: [{ dest: 5, bytes: 32 }] }]));
  const times = (cpuLinkWidth: number) => [1, 4, 6, 9].map((n) => completion(run(sends, { cpuLinkWidth }), n)).sort((a, b) => a - b);
  it('width 4: the four packets take the four links to T9000 5 together; width 1 (control): one after another, 3340 ns apart', () => {
    const wide = times(4);
    expect(new Set(wide).size).toBe(1);
    const narrow = times(1);
    expect(narrow[0]).toBe(wide[0]);
    expect(narrow.slice(1).map((t, i) => t - narrow[i]!)).toEqual([3340, 3340, 3340]);
  });
});
