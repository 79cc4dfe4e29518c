/**
 * Steady-state measurement of a C104 mesh RTL (T9000 + C104 per node, real
 * DS-links; harness/rtl/c104_system.ts) under seed 004's Table 3.1 workload
 * (harness/rtl/c104_thesis_workload.ts: one process per endpoint sending
 * `bytes` every `interval` cycles to a random endpoint within ±window;
 * held sends, docs/c104.md#held-sends): build, warm up, time one window.
 * Reports cycles/s (wall and CPU), process evaluations per cycle, ns per
 * evaluation and the window's link utilisation (normal characters on the
 * wire, harness/rtl/c104_links.ts).
 *
 *   npx tsx bench/c104.ts [side] [window] [interval] [warmup] [cycles] [mode]
 *   e.g. npx tsx bench/c104.ts 3 16 100 20000 5000
 * The Table 3.1 run itself (32×32, ±16, 20 ms = 2M cycles) is
 * bench/c104-table31-rtl.ts.
 *
 * The switches elaborate only their connected slices (C104 option
 * `slices: 'connected'`, docs/c104.md#compact-slices; the same values on
 * every connected link as 'all', test/c104/slices.test.ts) unless a case
 * says `slices: 'all'`; the JSON states which.
 */
import type { SimMode } from '../rtl/kernel/index.ts';
import { meshNetwork } from '../rtl/c104/labelling.ts';
import { makeC104System, nodeChannels, type C104System } from '../harness/rtl/c104_system.ts';
import { attachC104LinkMeter } from '../harness/rtl/c104_links.ts';
import { channelPairs, thesisWindowStream, type ThesisWorkloadOptions } from '../harness/rtl/c104_thesis_workload.ts';
import { feedMessages } from '../harness/rtl/c104_feed.ts';
import type { ChannelEnd } from '../harness/rtl/t9000_driver.ts';
import { timeWindow, type WindowTiming } from './steady.ts';

/** Traffic starts after DS-link start-up (as icemu c104). */
export const C104_START = 2500;

export interface C104MeshCase {
  side: number;
  window: number;
  interval: number;
  bytes?: number;
  warmup: number;
  cycles: number;
  /** Mode of the whole run (default activity); measureMode switches for the timed window only. */
  mode?: SimMode;
  measureMode?: SimMode;
  seed?: number;
  /** No traffic: the links run (NULLs both ways) and nothing else happens. */
  idle?: boolean;
  /** T9000 addressing (docs/t9000.md#addressing); default 'virtual-link'. */
  addressing?: 'virtual-link' | 'node';
  /**
   * A virtual link for every pair the workload can draw (both within ±window
   * in x and y), not only for the pairs of this run's messages: the control
   * blocks of the full Table 3.1 run (20 ms draws every such pair), with the
   * messages of the shorter run. Node addressing only.
   */
  allPartners?: boolean;
  /** C104 slices elaborated (docs/c104.md#compact-slices); default 'connected' in the benches. */
  slices?: 'all' | 'connected';
}

/** Every pair of distinct endpoints of a side×side mesh within ±window in x and y (terminal x·side + y), each once. */
export function windowPairs(side: number, window: number): [number, number][] {
  const pairs: [number, number][] = [];
  for (let a = 0; a < side * side; a++) {
    const [ax, ay] = [Math.floor(a / side), a % side];
    for (let b = a + 1; b < side * side; b++) {
      const [bx, by] = [Math.floor(b / side), b % side];
      if (Math.abs(ax - bx) <= window && Math.abs(ay - by) <= window) pairs.push([a, b]);
    }
  }
  return pairs;
}

export interface C104MeshResult extends WindowTiming {
  slices: 'all' | 'connected';
  linkUtilisation: number;
  messagesDelivered: number;
  held: number;
}

/**
 * A square mesh under the thesis workload, sends issued up to `until` (held
 * sends on). The messages are drawn lazily (harness/rtl/c104_thesis_workload.ts
 * thesisWindowStream): once to find the pairs that talk (unless allPartners),
 * then again as the run goes (harness/rtl/c104_feed.ts). `summary`: the recorder keeps
 * running statistics only and the driver releases delivered messages (a long
 * run's memory stays flat); default: every event and message kept. `eager`:
 * every send issued before the run (the reference the lazy feed is tested
 * against, test/c104/lazy_workload.test.ts).
 */
export function buildC104Mesh(c: C104MeshCase, until: number, { summary = false, eager = false }: { summary?: boolean; eager?: boolean } = {}): C104System {
  const T = c.side * c.side;
  const wl: ThesisWorkloadOptions = { side: c.side, window: c.window, intervalCycles: c.interval, bytes: c.bytes ?? 32, start: C104_START, end: c.idle ? C104_START : until, seed: c.seed ?? 1 };
  const drawn = c.allPartners ? { pairs: [], labels: 0 } : channelPairs(thesisWindowStream(wl), T);
  const node = c.addressing === 'node';
  if (c.allPartners && !node) throw new RangeError('bench c104: allPartners needs node addressing');
  const { pairs, labels } = c.allPartners ? { pairs: windowPairs(c.side, c.window), labels: 0 } : drawn;
  const spec = meshNetwork({ w: c.side, h: c.side, routing: 'x-first', labelsPerNode: node ? 1 : labels });
  const next = spec.terminals.map((t) => t.label);
  const channels: [ChannelEnd, ChannelEnd][] = node ? nodeChannels(pairs, T).channels : pairs.map(([a, b]) => [{ node: a, vl: next[a]!++ }, { node: b, vl: next[b]!++ }]);
  const sys = makeC104System(spec, channels, { mode: c.mode, c104: { slices: c.slices ?? 'connected' }, ...(node ? { t9000: { addressing: 'node' as const } } : {}) });
  sys.driver.holdWhenFull = true;
  if (summary) {
    sys.driver.retainMessages = false;
    sys.rec.keepEvents = false;
  }
  const endOf = new Map<number, ChannelEnd>();
  for (const [a, b] of channels) {
    endOf.set(a.node * T + b.node, a);
    endOf.set(b.node * T + a.node, b);
  }
  feedMessages(
    sys.sim,
    thesisWindowStream(wl),
    (m) => {
      const src = endOf.get(m.src * T + m.dst)!;
      const dst = endOf.get(m.dst * T + m.src)!;
      const data = Array.from({ length: m.bytes }, (_, j) => (m.id + j) & 0xff);
      // summary mode: the message waits packed until it enters its send queue (docs/c104.md#lazy-workload)
      if (summary) sys.driver.post(src.node, src.vl, data, m.t);
      else sys.driver.send(src.node, src.vl, data, m.t);
      sys.driver.receive(dst.node, dst.vl, m.t);
    },
    C104_START,
    eager,
  );
  return sys;
}

export function measureC104Mesh(c: C104MeshCase): C104MeshResult {
  const sys = buildC104Mesh(c, c.warmup + c.cycles);
  const { sim } = sys;
  sim.step(c.warmup);
  if (c.measureMode) sim.setMode(c.measureMode);
  const meter = attachC104LinkMeter(sys, sim.cycle + 1, sim.cycle + 1 + c.cycles);
  const d0 = sys.rec.deliveries.length;
  const w = timeWindow(sim, c.cycles);
  const links = meter.stats();
  meter.detach();
  return {
    ...w,
    slices: c.slices ?? 'connected',
    linkUtilisation: links.reduce((a, l) => a + l.utilisation, 0) / Math.max(1, links.length),
    messagesDelivered: sys.rec.deliveries.length - d0,
    held: sys.driver.heldCount,
  };
}

if (process.argv[1]?.endsWith('c104.ts')) {
  const [side = '3', window = '16', interval = '100', warmup = '20000', cycles = '5000', mode = 'activity'] = process.argv.slice(2);
  const r = measureC104Mesh({ side: +side, window: +window, interval: +interval, warmup: +warmup, cycles: +cycles, measureMode: mode as SimMode });
  console.log(JSON.stringify(r));
}
