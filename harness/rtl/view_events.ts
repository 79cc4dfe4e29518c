/**
 * Link, buffer and deadlock events for `icemu view` (harness/view/): an
 * observer added beside the Buzzard event recorder (harness/rtl/events.ts)
 * that records what the message events do not say — when each link carries
 * a packet, when flow control holds its sender, when a packet buffer unit's
 * CAM is full, and a structural deadlock (harness/rtl/deadlock.ts) when one
 * forms. Kinds (traces/events/vocabulary.ts, appended; msg is 0):
 *
 *  link-busy / link-idle      node x, port p: the first cycle the flow
 *                             control unit of x's outgoing link p sees
 *                             xbusy = 1 / 0 (the crossbar's valid: a packet,
 *                             refused attempts included, is on the wire).
 *                             Busy cycles between them sum to the FCU's
 *                             busyCycles counter (tested).
 *  link-held / link-released  node x, port p: the first cycle txBlock = 1
 *                             (the receiving PBU blocks the link: a sender on
 *                             it is held in S1, and the crossbar grants it to
 *                             nobody) / the first cycle it is 0 again. Held
 *                             cycles that are also busy sum to the FCU's
 *                             holdCycles (tested).
 *  buffer-full / buffer-free  node x, unit 'pbuI', port i: the first cycle
 *                             the CAM of PBU i has camHeight rows used / fewer.
 *  deadlock                   found by findDeadlock at a check (every
 *                             `deadlockEvery` cycles); `ring` = its cycle of
 *                             PBUs, node = the first ring member's node.
 *                             Recorded once per distinct ring.
 *
 * Stamps are the cycle the observer sees (committed registers, settled
 * wires). Events are inserted into the recorder's list keeping it sorted by t.
 * Cost: 3 reads per link per cycle, nothing on a skipped quiescent stretch.
 */
import type { Observer, Simulator } from '../../rtl/kernel/index.ts';
import type { BuzzardCube } from '../../rtl/buzzard/network.ts';
import type { EventKind, TraceEvent } from '../../traces/events/vocabulary.ts';
import { findDeadlock, type Deadlock } from './deadlock.ts';

export interface ViewEventOptions {
  /** Check for a structural deadlock every this many cycles (0: never). Default 500. */
  deadlockEvery?: number;
}

/** Insert `e` into a list sorted by t, after every event with the same t. */
export function insertByTime(events: TraceEvent[], e: TraceEvent): void {
  let k = events.length;
  while (k > 0 && events[k - 1]!.t > e.t) k--;
  if (k === events.length) events.push(e);
  else events.splice(k, 0, e);
}

/** The `deadlock` event of a ring findDeadlock found at cycle t: ring members as `nodeX.pbuI`, node = the first one's. */
export function deadlockEvent(t: number, d: Deadlock): TraceEvent {
  const node = Number(/node(\d+)/.exec(d.cycle[0]!)?.[1] ?? 0);
  return { t, kind: 'deadlock', msg: 0, node, ring: d.cycle.map((u) => u.replace(/^.*?(node\d+\.pbu\d+)$/, '$1')) };
}

/** Attach to `sim` simulating `cube`; events go into `events` (the recorder's list). Returns detach. */
export function attachViewEvents(sim: Simulator, cube: BuzzardCube, events: TraceEvent[], opts: ViewEventOptions = {}): () => void {
  const n = cube.cfg.n;
  const H = cube.cfg.camHeight;
  const s = sim.s;
  const every = opts.deadlockEvery ?? 500;
  const busy: number[] = [];
  const block: number[] = [];
  const used: number[] = [];
  for (const nd of cube.nodes) {
    for (const f of nd.fcus) {
      busy.push(f.xbusy.i);
      block.push(f.txBlock.i);
    }
    for (const p of nd.pbus) used.push(p.cam.used.i);
  }
  const L = busy.length;
  const wasBusy = new Uint8Array(L);
  const wasHeld = new Uint8Array(L);
  const wasFull = new Uint8Array(L);
  const rings = new Set<string>();
  let lastCheck = sim.cycle;
  const emit = (t: number, kind: EventKind, id: number, unit?: string): void => {
    const node = Math.floor(id / n);
    const port = (id % n) + 1;
    insertByTime(events, unit ? { t, kind, msg: 0, node, unit, port } : { t, kind, msg: 0, node, port });
  };
  const observer: Observer = {
    onCycle(sm: Simulator): void {
      const t = sm.cycle;
      for (let k = 0; k < L; k++) {
        const b = s[busy[k]!] ? 1 : 0;
        const h = s[block[k]!] ? 1 : 0;
        const f = s[used[k]!] === H ? 1 : 0;
        if (b !== wasBusy[k]) {
          wasBusy[k] = b;
          emit(t, b ? 'link-busy' : 'link-idle', k);
        }
        if (h !== wasHeld[k]) {
          wasHeld[k] = h;
          emit(t, h ? 'link-held' : 'link-released', k);
        }
        if (f !== wasFull[k]) {
          wasFull[k] = f;
          emit(t, f ? 'buffer-full' : 'buffer-free', k, `pbu${(k % n) + 1}`);
        }
      }
      if (every > 0 && t - lastCheck >= every) {
        lastCheck = t;
        const d = findDeadlock(sm, cube);
        const key = d?.cycle.join(' ');
        if (d && key && !rings.has(key)) {
          rings.add(key);
          insertByTime(events, deadlockEvent(t, d));
        }
      }
    },
    onSkip(): void {},
  };
  return sim.observe(observer);
}
