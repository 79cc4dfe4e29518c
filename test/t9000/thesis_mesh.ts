/**
 * Shared by the stop 22 tests (docs/kernel.md "Stop 22: harness per cycle"):
 * a C104 mesh under the thesis's windowed random traffic
 * (harness/rtl/c104_thesis_workload.ts), sends held when a queue is full,
 * built but not run, with a hook between building and issuing the messages.
 */
import fc from 'fast-check';
import { expect } from 'vitest';
import { firstStepDiff } from '../c104/system_check.ts';
import { meshNetwork } from '../../rtl/c104/labelling.ts';
import { makeC104System, nodeChannels, type C104System } from '../../harness/rtl/c104_system.ts';
import { channelPairs, thesisWindowWorkload } from '../../harness/rtl/c104_thesis_workload.ts';
import type { ChannelEnd } from '../../harness/rtl/t9000_driver.ts';
import type { EndpointFault } from '../../rtl/t9000/config.ts';
import type { SimMode } from '../../rtl/kernel/index.ts';

export interface ThesisMeshCase {
  side: number;
  window: number;
  interval: number;
  bytes: number;
  seed: number;
  node: boolean;
  handshake: boolean;
  /** Handshake mode: the CPU's cycles per message after a send completes (T9000Config.messageOverheadCycles). */
  overhead: number;
}

export const THESIS_START = 2500; // after link start-up

export const thesisMeshArb = fc.record({
  side: fc.integer({ min: 2, max: 4 }),
  window: fc.integer({ min: 1, max: 2 }),
  interval: fc.integer({ min: 15, max: 200 }),
  bytes: fc.integer({ min: 1, max: 70 }),
  seed: fc.integer({ min: 1, max: 1e6 }),
  node: fc.boolean(),
  handshake: fc.boolean(),
  overhead: fc.integer({ min: 0, max: 40 }),
});

/**
 * `c` built, its messages issued in [THESIS_START, end); `setup` runs first (on
 * the built system, before any message); `fault`: the endpoints' (negative
 * controls). `post`: the sends go through the driver's `post` (packed, as the
 * long runs: retainMessages off) instead of `send`; `mode`: the simulator's
 * (default 'activity'; 'plain' is the reference mode).
 */
export function thesisMesh(c: ThesisMeshCase, end: number, setup: (sys: C104System) => void = () => {}, fault: EndpointFault = 'none', o: { post?: boolean; mode?: SimMode } = {}): C104System {
  const post = o.post ?? false;
  const T = c.side * c.side;
  const msgs = thesisWindowWorkload({ side: c.side, window: c.window, intervalCycles: c.interval, bytes: c.bytes, start: THESIS_START, end, seed: c.seed });
  const { pairs, labels } = channelPairs(msgs, T);
  const spec = meshNetwork({ w: c.side, h: c.side, routing: 'x-first', labelsPerNode: c.node ? 1 : Math.max(1, labels) });
  const next = spec.terminals.map((t) => t.label);
  const channels: [ChannelEnd, ChannelEnd][] = c.node ? nodeChannels(pairs, T).channels : pairs.map(([a, b]) => [{ node: a, vl: next[a]!++ }, { node: b, vl: next[b]!++ }]);
  const sys = makeC104System(spec, channels, { mode: o.mode ?? 'activity', t9000: { fault, ...(c.node ? { addressing: 'node' as const } : {}), ...(c.handshake ? { messageMode: 'handshake' as const, messageOverheadCycles: c.overhead } : {}) } });
  setup(sys);
  sys.driver.holdWhenFull = true;
  if (post) sys.driver.retainMessages = false;
  const endOf = new Map<number, ChannelEnd>();
  for (const [a, b] of channels) {
    endOf.set(a.node * T + b.node, a);
    endOf.set(b.node * T + a.node, b);
  }
  for (const m of msgs) {
    const src = endOf.get(m.src * T + m.dst)!;
    const dst = endOf.get(m.dst * T + m.src)!;
    const data = Array.from({ length: m.bytes }, (_, j) => (m.id * 7 + j) & 0xff);
    if (post) sys.driver.post(src.node, src.vl, data, m.t);
    else sys.driver.send(src.node, src.vl, data, m.t);
    sys.driver.receive(dst.node, dst.vl, m.t);
  }
  return sys;
}

/**
 * The lock-step property of the stop 23 tests: on random meshes (side at
 * most 3) the system `fast` builds equals the one `ref` builds at every
 * cycle (every wire, register and control-block word: firstStepDiff), with
 * the same events and some deliveries.
 */
export function assertEqualOnRandomMeshes(ref: (c: ThesisMeshCase) => C104System, fast: (c: ThesisMeshCase) => C104System, cycles: number, seed: number): void {
  fc.assert(
    fc.property(thesisMeshArb.map((c) => ({ ...c, side: Math.min(c.side, 3) })), (c) => {
      const r = ref(c);
      const f = fast(c);
      expect(firstStepDiff(r, f, cycles)).toBeUndefined();
      expect(f.rec.events).toEqual(r.rec.events);
      expect(f.rec.deliveries.length).toBeGreaterThan(0);
    }),
    { numRuns: 3, seed },
  );
}
