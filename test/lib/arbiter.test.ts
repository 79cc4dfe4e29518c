/**
 * Arbiters: the 1-of-2 module, the tree built from it, round-robin, FIFO order
 * and fixed priority (negative control). Properties run random request
 * patterns over many cycles; each property checks exact bounds and so can fail.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator, type Signal } from '../../rtl/kernel/index.ts';
import {
  Arbiter,
  Arbiter2,
  ArbiterTree,
  FifoArbiter,
  makeArbiter,
  RoundRobinArbiter,
  treeLeafDepths,
  type ArbiterPolicy,
} from '../../rtl/lib/arbiter.ts';
import { Lockstep, rng } from './lockstep_sim.ts';

// ---------------------------------------------------------------- harness

interface Scenario {
  M: number;
  L: number;
  seed: number;
  /** Probability that an idle requester raises its request in a cycle. */
  pReq: number;
  /** Probability that a requester asks again right after its grant. */
  pAgain: number;
  /** Probability that the output is blocked in a cycle. */
  pBlock: number;
  cycles: number;
}

interface Drive {
  arb: Arbiter;
  poke(sel: (a: Arbiter) => Signal, v: number): void;
  peek(sel: (a: Arbiter) => Signal): number;
  step(): void;
}

function single(arb: Arbiter, mode: 'plain' | 'activity'): Drive {
  const sim = new Simulator(arb, { mode });
  return { arb, poke: (f, v) => sim.poke(f(arb), v), peek: (f) => sim.peek(f(arb)), step: () => sim.step() };
}

function lockstep(build: () => Arbiter): Drive {
  const ls = new Lockstep(build);
  return { arb: ls.plain, poke: (f, v) => ls.poke(f, v), peek: (f) => ls.peek(f), step: () => ls.step() };
}

interface Checks {
  /** Other grants requester k may see once eligible before its own grant. */
  bound: (k: number) => number;
  /** Check that grants follow arrival order (FIFO policy). */
  fifoOrder?: boolean;
}

interface Outcome {
  violation: string | null;
  /** Largest number of other grants any eligible requester waited. */
  maxWait: number;
  grants: number;
}

/**
 * Drive random requests that are held until granted. Checks every cycle:
 * at most one grant; any/idx agree with the gnt lines; a grant only to a
 * current requester, never while blocked and never before the request has
 * been held for L+1 cycles (visible in t, granted at t+L at the earliest);
 * with latency L, a grant in every
 * unblocked cycle in which some request has been held for L+1 cycles (so for
 * L = 0: every unblocked cycle with a request); fairness: once a request is
 * eligible (held L+1 cycles), at most bound(k) grants go to others before it.
 */
function runScenario(d: Drive, sc: Scenario, checks: Checks): Outcome {
  const { M, L } = sc;
  const r = rng(sc.seed);
  const req = new Array<number>(M).fill(0);
  const run = new Array<number>(M).fill(0);
  const waited = new Array<number>(M).fill(0);
  const queue: number[] = [];
  let prev = -1;
  let maxWait = 0;
  let grants = 0;
  const fail = (t: number, msg: string): Outcome => ({ violation: `cycle ${t}: ${msg}`, maxWait, grants });
  for (let t = 0; t < sc.cycles; t++) {
    const blocked = r() < sc.pBlock ? 1 : 0;
    for (let k = 0; k < M; k++) {
      if (k === prev) {
        req[k] = r() < sc.pAgain ? 1 : 0; // a new request, or none
        run[k] = 0;
      } else if (req[k] === 0 && r() < sc.pReq) {
        req[k] = 1;
        run[k] = 0;
      }
      if (req[k] === 1) {
        run[k]!++;
        if (run[k] === 1) queue.push(k); // arrival; same cycle: index order
      }
      d.poke((a) => a.req[k]!, req[k]!);
    }
    d.poke((a) => a.blocked, blocked);

    let w = -1;
    let n = 0;
    for (let k = 0; k < M; k++) {
      if (d.peek((a) => a.gnt[k]!) === 1) {
        n++;
        w = k;
      }
    }
    if (n > 1) return fail(t, `${n} grants in one cycle`);
    if (d.peek((a) => a.any) !== n) return fail(t, `any = ${d.peek((a) => a.any)} with ${n} grants`);
    if (n === 1 && d.peek((a) => a.idx) !== w) return fail(t, `idx = ${d.peek((a) => a.idx)} but gnt${w} is high`);
    if (w >= 0 && req[w] !== 1) return fail(t, `grant to ${w}, which is not requesting`);
    if (w >= 0 && blocked) return fail(t, `grant to ${w} while blocked`);
    if (w >= 0 && run[w]! < L + 1) return fail(t, `grant to ${w} after ${run[w]} cycles of request; latency is ${L}`);
    if (w < 0 && !blocked) {
      const k = run.findIndex((x) => x >= L + 1);
      if (k >= 0) return fail(t, `no grant although requester ${k} has held its request for ${run[k]} cycles (latency ${L}) and the output is not blocked`);
    }
    if (w >= 0) {
      grants++;
      for (let k = 0; k < M; k++) {
        if (k === w || run[k]! < L + 1) continue;
        waited[k]!++;
        maxWait = Math.max(maxWait, waited[k]!);
        if (waited[k]! > checks.bound(k)) return fail(t, `requester ${k} has seen ${waited[k]} other grants while eligible (bound ${checks.bound(k)})`);
      }
      waited[w] = 0;
      if (checks.fifoOrder) {
        if (queue[0] !== w) return fail(t, `grant to ${w} but the oldest request is ${queue[0]} (queue ${queue.join(',')})`);
        queue.shift();
      }
    }
    prev = w;
    d.step();
  }
  return { violation: null, maxWait, grants };
}

const scenarioArb = (maxM: number, cycles: number): fc.Arbitrary<Scenario> =>
  fc.record({
    M: fc.integer({ min: 2, max: maxM }),
    L: fc.integer({ min: 0, max: 3 }),
    seed: fc.integer(),
    pReq: fc.integer({ min: 1, max: 10 }).map((x) => x / 10),
    pAgain: fc.integer({ min: 0, max: 10 }).map((x) => x / 10),
    pBlock: fc.integer({ min: 0, max: 4 }).map((x) => x / 10),
    cycles: fc.constant(cycles),
  });

const fairPolicies: { policy: ArbiterPolicy; bound: string }[] = [
  { policy: 'tree', bound: '2^depth(k) − 1' },
  { policy: 'round-robin', bound: 'M − 1' },
  { policy: 'fifo', bound: 'M − 1' },
];

// ---------------------------------------------------------------- Arbiter2

describe('Arbiter2 (1-of-2 module, seed 002 §5.4.3)', () => {
  const setup = () => {
    const a = new Arbiter2(null, 'a');
    const sim = new Simulator(a, { mode: 'plain' });
    const set = (r0: number, r1: number, en: number) => {
      sim.poke(a.req0, r0);
      sim.poke(a.req1, r1);
      sim.poke(a.en, en);
      return [sim.peek(a.req), sim.peek(a.gnt0), sim.peek(a.gnt1)];
    };
    return { a, sim, set };
  };

  it('sends the OR of the requests up and grants nothing without en', () => {
    const { set } = setup();
    expect(set(0, 0, 1)).toEqual([0, 0, 0]);
    expect(set(1, 0, 0)).toEqual([1, 0, 0]);
    expect(set(0, 1, 0)).toEqual([1, 0, 0]);
    expect(set(1, 1, 0)).toEqual([1, 0, 0]);
  });

  it('alternates when both request: the side just granted loses priority', () => {
    const { sim, set } = setup();
    const seen: number[] = [];
    for (let t = 0; t < 6; t++) {
      const [, g0, g1] = set(1, 1, 1);
      expect(g0! + g1!).toBe(1);
      seen.push(g0 ? 0 : 1);
      sim.step();
    }
    expect(seen).toEqual([0, 1, 0, 1, 0, 1]);
  });

  it('updates priority only when it passes a grant down', () => {
    const { a, sim, set } = setup();
    set(1, 1, 0); // requests but no enable: no grant, no update
    sim.step(3);
    expect(sim.peek(a.pri)).toBe(0);
    expect(set(1, 1, 1)).toEqual([1, 1, 0]);
    sim.step();
    expect(sim.peek(a.pri)).toBe(1);
    set(0, 0, 1); // enable without requests: no update
    sim.step(2);
    expect(sim.peek(a.pri)).toBe(1);
    expect(set(0, 1, 1)).toEqual([1, 0, 1]); // lone request wins regardless of priority
    sim.step();
    expect(sim.peek(a.pri)).toBe(0);
  });
});

// ---------------------------------------------------------------- structure

describe('ArbiterTree structure (Fig. 5.6)', () => {
  it('a 1-of-8 tree has seven Arbiter2 children, a 1-of-5 has four', () => {
    const count = (M: number) => {
      const t = new ArbiterTree(null, 't', { size: M });
      expect(t.children.every((c) => c instanceof Arbiter2)).toBe(true);
      return t.children.length;
    };
    expect(count(8)).toBe(7);
    expect(count(5)).toBe(4);
    expect(count(2)).toBe(1);
    expect(count(33)).toBe(32);
    expect(count(1)).toBe(0);
  });

  it('is balanced: depth ⌈log2 M⌉ and the bound 2^d − 1 < 2M (= M − 1 for powers of two)', () => {
    for (let M = 1; M <= 64; M++) {
      const depth = treeLeafDepths(M);
      const D = Math.ceil(Math.log2(M));
      expect(Math.max(...depth)).toBe(D);
      for (const d of depth) {
        expect(2 ** d - 1).toBeLessThan(2 * M);
        if ((M & (M - 1)) === 0) expect(2 ** d - 1).toBe(M - 1);
      }
    }
    const t = new ArbiterTree(null, 't', { size: 5 });
    expect(t.depth).toEqual([3, 3, 2, 2, 2]);
    expect(t.nodes.map((n) => n.name)).toEqual(['a', 'a0', 'a00', 'a1']);
    const sim = new Simulator(t);
    expect(sim.signal('a00.pri').path).toBe('a00.pri');
  });
});

// ---------------------------------------------------------------- latency

describe('request-to-grant latency', () => {
  for (const policy of ['tree', 'round-robin', 'fifo', 'fixed-priority'] as const) {
    it(`${policy}: a lone request raised in cycle t is granted in exactly t+L (L = 0..3), for one cycle`, () => {
      for (let L = 0; L <= 3; L++) {
        for (const k of [0, 2, 4]) {
          const arb = makeArbiter(null, 'arb', { size: 5, latency: L, policy });
          const sim = new Simulator(arb);
          const t0 = 3;
          sim.step(t0);
          sim.poke(arb.req[k]!, 1);
          const grants: number[] = [];
          for (let t = t0; t < t0 + L + 4; t++) {
            if (sim.peek(arb.gnt[k]!) === 1) grants.push(t);
            sim.step();
            // The requester drops its request from the cycle after its grant.
            if (grants.length) sim.poke(arb.req[k]!, 0);
          }
          expect(grants, `L=${L} k=${k}`).toEqual([t0 + L]);
        }
      }
    });
  }

  it('the default latency is 2 cycles (§5.4.3)', () => {
    expect(makeArbiter(null, 'a', { size: 4 }).latency).toBe(2);
  });

  it('a request dropped before its grant is never granted, and re-raising restarts the latency', () => {
    for (const policy of ['tree', 'round-robin', 'fifo', 'fixed-priority'] as const) {
      const arb = makeArbiter(null, 'arb', { size: 3, latency: 3, policy });
      const sim = new Simulator(arb);
      sim.poke(arb.req[1]!, 1);
      sim.step(2); // held for cycles 0, 1
      sim.poke(arb.req[1]!, 0);
      let seen = 0;
      for (let t = 0; t < 6; t++) {
        seen += sim.peek(arb.gnt[1]!);
        sim.step();
      }
      expect(seen, policy).toBe(0);
      const t0 = sim.cycle;
      sim.poke(arb.req[1]!, 1);
      const r = sim.runUntil((s) => s.peek(arb.gnt[1]!) === 1, 10);
      expect(sim.cycle - t0, policy).toBe(3);
      expect(r.reached).toBe(true);
    }
  });

  it('blocked holds the grant back; a request that waited is granted in the first unblocked cycle', () => {
    const arb = makeArbiter(null, 'arb', { size: 4, latency: 2, policy: 'tree' });
    const sim = new Simulator(arb);
    sim.poke(arb.blocked, 1);
    sim.poke(arb.req[3]!, 1);
    for (let t = 0; t < 5; t++) {
      expect(sim.peek(arb.any)).toBe(0);
      sim.step();
    }
    sim.poke(arb.blocked, 0);
    expect(sim.peek(arb.gnt[3]!)).toBe(1);
  });
});

// ---------------------------------------------------------------- properties

describe('arbiter properties (random request patterns)', () => {
  for (const { policy, bound } of fairPolicies) {
    it(`${policy}: one grant at most, only to requesters, none while blocked, grant when due, fairness bound ${bound}`, () => {
      let modeFlip = 0;
      fc.assert(
        fc.property(scenarioArb(33, 250), (sc) => {
          const mode = modeFlip++ % 2 === 0 ? 'plain' : 'activity';
          const arb = makeArbiter(null, 'arb', { size: sc.M, latency: sc.L, policy });
          const out = runScenario(single(arb, mode), sc, { bound: (k) => arb.fairnessBound(k), fifoOrder: policy === 'fifo' });
          if (out.violation) throw new Error(`${mode}: ${out.violation}`);
        }),
        { numRuns: 100 },
      );
    });
  }

  it('the fairness bounds are the ones proved: tree 2^depth − 1, round-robin and FIFO M − 1', () => {
    const t = new ArbiterTree(null, 't', { size: 6 });
    expect([0, 1, 2, 3, 4, 5].map((k) => t.fairnessBound(k))).toEqual([7, 7, 3, 7, 7, 3]);
    expect(new RoundRobinArbiter(null, 'r', { size: 6 }).fairnessBound()).toBe(5);
    expect(new FifoArbiter(null, 'f', { size: 6 }).fairnessBound()).toBe(5);
  });

  it('the tree bound is tight: with everyone holding, a leaf of a 1-of-8 waits exactly 7 grants', () => {
    for (const L of [0, 2]) {
      const arb = makeArbiter(null, 'arb', { size: 8, latency: L, policy: 'tree' });
      const out = runScenario(single(arb, 'activity'), { M: 8, L, seed: 1, pReq: 1, pAgain: 1, pBlock: 0, cycles: 200 }, { bound: (k) => arb.fairnessBound(k) });
      expect(out.violation).toBeNull();
      expect(out.maxWait).toBe(7);
    }
  });

  it('negative control: fixed priority FAILS the same fairness property', () => {
    const result = fc.check(
      fc.property(scenarioArb(33, 250), (sc) => {
        const arb = makeArbiter(null, 'arb', { size: sc.M, latency: sc.L, policy: 'fixed-priority' });
        const depth = treeLeafDepths(sc.M);
        const out = runScenario(single(arb, 'plain'), sc, { bound: (k) => 2 ** depth[k]! - 1 });
        if (out.violation) throw new Error(out.violation);
      }),
      { numRuns: 60, seed: 42 },
    );
    expect(result.failed).toBe(true);
    expect(String(result.errorInstance)).toMatch(/other grants while eligible/);
  });

  it('FIFO grants in arrival order, ties by lowest index', () => {
    const arb = makeArbiter(null, 'arb', { size: 4, latency: 0, policy: 'fifo' });
    const sim = new Simulator(arb);
    // cycle 0: 2 and 3 arrive together: the lower index goes first
    sim.poke(arb.req[3]!, 1);
    sim.poke(arb.req[2]!, 1);
    expect(sim.peek(arb.idx)).toBe(2);
    sim.step();
    sim.poke(arb.req[2]!, 0);
    sim.poke(arb.req[0]!, 1); // arrives after 3
    sim.poke(arb.req[1]!, 1);
    expect(sim.peek(arb.idx)).toBe(3); // 3 waited since cycle 0
    sim.step();
    sim.poke(arb.req[3]!, 0);
    sim.poke(arb.req[2]!, 1); // arrives after 0 and 1
    expect(sim.peek(arb.idx)).toBe(0);
    sim.step();
    sim.poke(arb.req[0]!, 0);
    expect(sim.peek(arb.idx)).toBe(1);
    sim.step();
    sim.poke(arb.req[1]!, 0);
    expect(sim.peek(arb.idx)).toBe(2);
  });

  it('every policy gives identical traces in plain and activity mode (lockstep)', () => {
    fc.assert(
      fc.property(fc.constantFrom<ArbiterPolicy>('tree', 'round-robin', 'fifo', 'fixed-priority'), scenarioArb(12, 120), (policy, sc) => {
        const d = lockstep(() => makeArbiter(null, 'arb', { size: sc.M, latency: sc.L, policy }));
        const out = runScenario(d, sc, { bound: () => Infinity });
        if (out.violation) throw new Error(out.violation);
      }),
      { numRuns: 50 },
    );
  });
});

/**
 * The commits' read lists (docs/kernel.md "Stop 22: Buzzard"): the
 * round-robin commit woken on the rise of `any` and by idx while any is 1,
 * the 1-of-2 module's on the rises of its grants, its grants (down) reading
 * the requests and pri only while en is 1. Each wrong list (a static
 * switch read at construction) makes the activity copy differ from the plain
 * one in the lockstep property above.
 */
describe('arbiter commits woken on grant rises (negative controls)', () => {
  const differs = (policy: ArbiterPolicy, set: (on: boolean) => void): number => {
    let failed = 0;
    set(true);
    try {
      for (let seed = 1; seed <= 40; seed++) {
        const sc: Scenario = { M: 2 + (seed % 6), L: 0, seed, pReq: 0.5, pAgain: 0.7, pBlock: 0.2, cycles: 120 };
        try {
          const d = lockstep(() => makeArbiter(null, 'arb', { size: sc.M, latency: sc.L, policy }));
          runScenario(d, sc, { bound: () => Infinity });
        } catch {
          failed++;
        }
      }
    } finally {
      set(false);
    }
    return failed;
  };
  it('round-robin commit without idx under its rise guard: plain and activity differ', () => {
    expect(differs('round-robin', (on) => (RoundRobinArbiter.wrongNoIdx = on))).toBeGreaterThan(0);
  });
  it('1-of-2 commit not woken by gnt1: plain and activity differ (tree policy)', () => {
    expect(differs('tree', (on) => (Arbiter2.wrongNoGnt1 = on))).toBeGreaterThan(0);
  });
  it('1-of-2 grants reading the requests while en is 0 instead of 1: plain and activity differ (tree policy)', () => {
    expect(differs('tree', (on) => (Arbiter2.wrongDownGuard = on))).toBeGreaterThan(0);
  });
  it('control: the same runs with the right lists agree', () => {
    expect(differs('round-robin', () => {})).toBe(0);
    expect(differs('tree', () => {})).toBe(0);
  });
});

// ---------------------------------------------------------------- config

describe('arbiter config validation', () => {
  it('names the field and the allowed range', () => {
    expect(() => makeArbiter(null, 'a', { size: 0 })).toThrow('arbiter.size: 0 is outside 1..64');
    expect(() => makeArbiter(null, 'a', { size: 65 })).toThrow('arbiter.size: 65 is outside 1..64');
    expect(() => makeArbiter(null, 'a', { size: 2.5 })).toThrow(/arbiter\.size/);
    expect(() => makeArbiter(null, 'a', { size: 4, latency: 9 })).toThrow('arbiter.latency: 9 is outside 0..8');
    expect(() => makeArbiter(null, 'a', { size: 4, latency: -1 })).toThrow(/arbiter\.latency/);
    expect(() => makeArbiter(null, 'a', { size: 4, policy: 'lottery' as ArbiterPolicy })).toThrow(
      "arbiter.policy: 'lottery' is not one of 'tree', 'round-robin', 'fifo', 'fixed-priority'",
    );
  });

  it('the factory builds the requested policy', () => {
    expect(makeArbiter(null, 'a', { size: 3 })).toBeInstanceOf(ArbiterTree);
    expect(makeArbiter(null, 'a', { size: 3, policy: 'round-robin' }).policy).toBe('round-robin');
    expect(makeArbiter(null, 'a', { size: 3, policy: 'fifo' }).policy).toBe('fifo');
    expect(makeArbiter(null, 'a', { size: 3, policy: 'fixed-priority' }).policy).toBe('fixed-priority');
  });
});
