/**
 * Bench entry for the T9000 endpoint pair (issue 9 "Use"): two endpoints
 * joined by the real DS-link, each streaming 32-byte messages to the other
 * (two sends queued, blocking receives), measured once both link ends run.
 * One cycle is one link bit time per direction, so link bits simulated per
 * wall second = 2 × cycles/s.
 */
import { Module as ModuleCtor, type Module, type Simulator } from '../rtl/kernel/index.ts';
import { DsLinkPair } from '../rtl/dslink/pair.ts';
import { attachT9000Pair, buildT9000Pair, dsLinks } from '../harness/rtl/t9000_pair.ts';
import type { T9000Endpoint } from '../rtl/t9000/endpoint.ts';

export interface PairBenchCase {
  name: string;
  build: () => Module;
  mode: 'activity';
  chunk: number;
  prepare: (sim: Simulator, top: Module) => void;
  linkBitsPerCycle?: number;
  note: string;
}

export function t9000PairBenchCase(): PairBenchCase {
  let ends: { a: T9000Endpoint; b: T9000Endpoint } | null = null;
  return {
    name: 't9000/pair-dslink/stream-32B-bi',
    build: () => {
      const d = buildT9000Pair(2, { rxSlots: 4 }, dsLinks());
      ends = { a: d.a, b: d.b };
      return d.top;
    },
    mode: 'activity',
    chunk: 2000,
    prepare: (sim) => {
      const { a, b } = ends!;
      const { driver } = attachT9000Pair(sim, a, b);
      const n = 1_000_000; // more messages than any benchmark run sends
      const data = Array.from({ length: 32 }, (_, j) => j);
      driver.receiveLoop(1, 0, n, 0);
      driver.receiveLoop(0, 1, n, 0);
      driver.sendLoop(0, 0, n, 0, () => data, true, 2);
      driver.sendLoop(1, 1, n, 60, () => data, true, 2);
      sim.runUntil((x) => x.peek(a.links[0]!.running) === 1 && x.peek(b.links[0]!.running) === 1, 100_000);
    },
    linkBitsPerCycle: 2,
    note: 'T9000 pair on one DS-link, both directions streaming 32-byte messages (Eq 4.2 load); link bits/s = 2 x cycles/s',
  };
}

/**
 * A bare DS-link pair (rtl/dslink/pair.ts) with idle cores, timed once both
 * ends run: NULLs both ways, nothing else. In the fast mode each direction
 * is a NULL train on demand (rtl/dslink/null_train.ts); `mode: 'plain'` is
 * the bit-by-bit reference beside it.
 */
export function dslinkIdleBenchCase(mode: 'activity' | 'plain'): Omit<PairBenchCase, 'mode' | 'prepare'> & { mode: 'activity' | 'plain'; prepare: (sim: Simulator) => void } {
  return {
    name: `dslink/pair/idle/${mode}`,
    build: () => {
      const top = new ModuleCtor(null, 'top');
      const pair = new DsLinkPair(top, 'link');
      for (const e of [pair.a, pair.b]) {
        top.tie(e.txValid, 0);
        top.tie(e.txChar, 0);
        top.tie(e.rxPop, 0);
      }
      return top;
    },
    mode,
    chunk: 5000,
    prepare: (sim) => sim.step(2000), // start-up: both ends reach Run by cycle ~1,300
    note: `a bare DS-link pair, links up, no traffic (NULLs both ways), ${mode === 'plain' ? "reference mode ('plain', bit by bit)" : 'fast mode (NULL trains on demand)'}`,
  };
}
