/**
 * The events added for icemu view (harness/rtl/view_events.ts): link busy
 * and held periods add up to the flow control units' own counters, a full
 * CAM is reported exactly while cam.used = camHeight, the message events
 * are unchanged by attaching it, and the constructed deadlock is recorded
 * with its ring.
 */
import { describe, expect, it } from 'vitest';
import { deadlockedCube2, loadedCube3 } from './traces.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';

/** Per (node, port): cycles in [0, end) in which every one of the on/off pairs is on. */
function covered(events: readonly TraceEvent[], pairs: [string, string][], end: number): Map<string, number> {
  const on = new Map<string, boolean[]>();
  const since = new Map<string, number>();
  const sum = new Map<string, number>();
  const close = (k: string, t: number): void => {
    if (since.has(k)) sum.set(k, (sum.get(k) ?? 0) + t - since.get(k)!);
    since.delete(k);
  };
  for (const e of events) {
    const j = pairs.findIndex(([a, b]) => e.kind === a || e.kind === b);
    if (j < 0) continue;
    const k = `${e.node}.${e.port}`;
    const st = on.get(k) ?? pairs.map(() => false);
    on.set(k, st);
    close(k, e.t);
    st[j] = e.kind === pairs[j]![0];
    if (st.every(Boolean)) since.set(k, e.t);
  }
  for (const k of [...since.keys()]) close(k, end);
  return sum;
}
const BUSY: [string, string] = ['link-busy', 'link-idle'];
const HELD: [string, string] = ['link-held', 'link-released'];

describe('view events of the Buzzard recorder', () => {
  const run = loadedCube3(12_000);
  const { sim, cube, rec } = run;

  it('link-busy/link-idle periods sum to each FCU busyCycles; busy and held together to holdCycles', () => {
    const end = sim.cycle; // an FCU counts cycle t at the clock edge that ends it: cycles 0..sim.cycle-1
    const busy = covered(rec.events, [BUSY], end);
    const held = covered(rec.events, [BUSY, HELD], end);
    let total = 0;
    let totalHeld = 0;
    cube.nodes.forEach((nd, x) =>
      nd.fcus.forEach((f, j) => {
        const k = `${x}.${j + 1}`;
        expect(busy.get(k) ?? 0, `busy ${k}`).toBe(sim.peek(f.busyCycles));
        expect(held.get(k) ?? 0, `held ${k}`).toBe(sim.peek(f.holdCycles));
        total += busy.get(k) ?? 0;
        totalHeld += held.get(k) ?? 0;
      }),
    );
    expect(total).toBeGreaterThan(10_000); // a loaded run, not a vacuous pass
    console.log(`[view events] 3-cube, 12,000 cycles: ${total} busy link-cycles, ${totalHeld} of them held; ${covered(rec.events, [HELD], end).size} links blocked at some time`);
  });

  it('buffer-full is reported at a PBU exactly while its CAM is full (2-row CAMs of the deadlock run, checked at the end)', () => {
    const d = deadlockedCube2();
    const state = new Map<string, boolean>();
    for (const e of d.rec.events) if (e.kind === 'buffer-full' || e.kind === 'buffer-free') state.set(`${e.node}.${e.port}`, e.kind === 'buffer-full');
    let full = 0;
    d.cube.nodes.forEach((nd, x) =>
      nd.pbus.forEach((p, i) => {
        const isFull = d.sim.peek(p.cam.used) === d.cube.cfg.camHeight;
        expect(state.get(`${x}.${i + 1}`) ?? false, `node${x}.pbu${i + 1}`).toBe(isFull);
        if (isFull) full++;
      }),
    );
    expect(full).toBeGreaterThanOrEqual(4); // the four ring members at least
    for (const e of d.rec.events) if (e.kind === 'buffer-full') expect(e.unit).toBe(`pbu${e.port}`);
  });

  it('attaching it leaves the message events as they were; the list stays sorted by t', () => {
    const plain = loadedCube3(12_000, false);
    const VIEW = new Set(['link-busy', 'link-idle', 'link-held', 'link-released', 'buffer-full', 'buffer-free', 'deadlock']);
    expect(rec.events.filter((e) => !VIEW.has(e.kind))).toEqual(plain.rec.events);
    for (let k = 1; k < rec.events.length; k++) expect(rec.events[k]!.t).toBeGreaterThanOrEqual(rec.events[k - 1]!.t);
    expect(rec.header.topology).toEqual({ kind: 'buzzard-ncube', n: 3 });
  });

  it('the constructed deadlock is recorded once, with its ring', () => {
    const d = deadlockedCube2();
    const dl = d.rec.events.filter((e) => e.kind === 'deadlock');
    expect(dl).toHaveLength(1);
    expect(dl[0]!.ring).toEqual(['node0.pbu1', 'node2.pbu2', 'node3.pbu1', 'node1.pbu2']);
    expect(dl[0]!.node).toBe(0);
  });
});
