/**
 * Structural deadlock detector for a running network of C104 switches (RTL,
 * rtl/c104/). Like the Buzzard detector (deadlock.ts) it does not time out
 * on progress: it reads the committed state of every input router and the
 * crossbar and finds a set of inputs none of which can ever move again.
 * Readings: docs/c104.md#deadlock-detector.
 *
 * An input router (switch s, link k) WAITS when:
 *  - it requests its hunt group (state 'req') and every link j of the group
 *    is either connected to another input i of s (target: router (s, i)) or
 *    free but blocked, its transmit buffer full (target: the router behind
 *    link j, the input of the switch at its far end); a free link with room,
 *    or a blocked link whose far end is an endpoint (which always drains,
 *    spec §5.2's consumption assumption), means it is not waiting;
 *  - it is connected (state 'conn') and the connected output is blocked
 *    (the crossbar's flow control `fc`):
 *    target the router behind that output (none if it is an endpoint).
 * A router in any other situation can move (or waits for data from
 * upstream: a victim, not a cause). A set S is DEADLOCKED when every member
 * waits and, for every member, all of its targets are in S: none can move
 * before another does. The largest such set is found by removing, until
 * nothing changes, every waiting router with a target outside the set.
 *
 * Soundness condition: the link ends must be quiescent, i.e. a full
 * transmit buffer means the far receive buffer is full too (no character on
 * its way). Callers check after a period without progress.
 */
import type { Simulator } from '../../rtl/kernel/index.ts';
import type { C104 } from '../../rtl/c104/c104.ts';
import type { CheckedNetwork } from '../../rtl/c104/topology.ts';

export interface C104Deadlock {
  /** The waiting links around one cycle, as channel names `switch.linkJ`, first repeated at the end. */
  ring: string[];
  /** Every deadlocked input, `switch.inK`. */
  members: string[];
}

const REQ = 2;
const CONN = 3;

export function findC104Deadlock(sim: Simulator, switches: readonly C104[], net: CheckedNetwork): C104Deadlock | null {
  const N = 32;
  const key = (s: number, k: number): number => s * N + k;
  /** Per waiting router: its targets, each with the channel it waits on. */
  const targets = new Map<number, { router: number; channel: string }[]>();
  switches.forEach((sw, s) => {
    const name = net.spec.switches[s]!.name;
    const behind = (j: number): number => {
      const p = net.peer[s]![j];
      return p && p.kind === 'switch' ? key(p.sw, p.link) : -1;
    };
    for (let k = 0; k < N; k++) {
      // Crossbar indices: docs/c104.md#compact-slices (a link not elaborated has no router).
      const x = sw.xOf[k]!;
      if (x < 0) continue;
      const r = sw.routers[k]!;
      const st = sim.peek(r.st);
      const list: { router: number; channel: string }[] = [];
      let waits = false;
      if (st === REQ) {
        waits = true;
        const gm = sim.peek(r.gm);
        for (let j = 0; j < N && waits; j++) {
          if (((gm >>> j) & 1) === 0) continue;
          const channel = `${name}.link${j}`;
          const xj = sw.xOf[j]!;
          if (sim.peek(sw.xbar.valid[xj]!) === 1) list.push({ router: key(s, sw.linkOf[sim.peek(sw.xbar.src[xj]!)]!), channel });
          else if (sim.peek(sw.blocked[j]!) === 1 && behind(j) >= 0) list.push({ router: behind(j), channel });
          else waits = false;
        }
      } else if (st === CONN && sim.peek(sw.xbar.fc[x]!) === 1) {
        const j = sw.linkOf[sim.peek(sw.xbar.gidx[x]!)]!;
        if (behind(j) >= 0) {
          waits = true;
          list.push({ router: behind(j), channel: `${name}.link${j}` });
        }
      }
      if (waits) targets.set(key(s, k), list);
    }
  });
  const set = new Set(targets.keys());
  for (let changed = true; changed; ) {
    changed = false;
    for (const v of [...set]) {
      if (targets.get(v)!.some((t) => !set.has(t.router))) {
        set.delete(v);
        changed = true;
      }
    }
  }
  if (set.size === 0) return null;
  const routerName = (v: number): string => `${net.spec.switches[Math.floor(v / N)]!.name}.in${v % N}`;
  // Follow first targets from any member until a router repeats: that is a ring.
  const start = [...set][0]!;
  const seen = new Map<number, number>();
  const path: { router: number; channel: string }[] = [];
  let v = start;
  while (!seen.has(v)) {
    seen.set(v, path.length);
    const t = targets.get(v)![0]!;
    path.push(t);
    v = t.router;
  }
  const loop = path.slice(seen.get(v)!).map((t) => t.channel);
  // A router waiting for a link held by another input of its switch, which waits behind that same link, names it twice.
  const ring = loop.filter((c, i) => c !== loop[(i + loop.length - 1) % loop.length] || loop.length === 1);
  ring.push(ring[0]!);
  return { ring, members: [...set].sort((a, b) => a - b).map(routerName) };
}

export function describeC104Deadlock(d: C104Deadlock): string {
  return `deadlock: ring of waiting links ${d.ring.join(' → ')} (${d.members.length} inputs stuck: ${d.members.join(', ')})`;
}
