/**
 * The seed 002 §4.4 transport simulator (docs/sources.md, buzzard §10.1), at
 * the level the seed describes it: whole messages on an n-cube, 1 tick per
 * byte, 1 tick of link set-up per hop, 40 ticks of buffer allocation,
 * priority by creation time. Three transports:
 *
 *  datagram     store-and-forward: at every hop a buffer is allocated at the
 *               next node (40 ticks), the link set up (1) and the whole
 *               message sent (M); the link is held for 41 + M ticks; the
 *               message goes on only when it is completely in the buffer.
 *  cut-through  datagram with cut-through, staged (config.cutThrough): a
 *               connection runs on through free links (set-up 1 tick each)
 *               and ends at the destination or at the first node whose next
 *               link is busy; there a buffer is allocated (40 ticks, the
 *               connection's links held) and the message streams in (M);
 *               from a buffer it leaves, as a new connection, when a link
 *               frees. A one-hop connection is a datagram hop.
 *  circuit      persistent circuit switching: the head acquires link after
 *               link (1 tick each) and, when blocked, keeps what it holds
 *               (as wormhole); when the circuit reaches the destination the
 *               receive buffer is allocated (40, config.destinationBuffer),
 *               the message streams (M ticks) and every link is released.
 *
 * Routing: 'fixed' (e-cube, lowest differing dimension first) or 'adaptive'
 * (any dimension that brings the message closer whose link is free, the
 * lowest first; when none is free the message waits on the e-cube link,
 * config.adaptiveWait; at every hop, or only at the source,
 * config.adaptiveHops).
 * Links: 'bi' (non-interfering bidirectional: one link per direction) or
 * 'uni' (one link per neighbour pair, used in one direction at a time).
 * A freed link goes to the oldest waiting message (creation time, §10.1).
 * Deadlock (§10.1: "a message may never block an earlier-created message
 * unless it is being received at its destination"): a circuit still being
 * set up that holds a link an older message wants gives up all its links and
 * starts its set-up again from the source. Buffers are unlimited (the seed
 * measured how many bytes a node would need: `maxBufferBytes`).
 *
 * Times out: per message, generation → last byte at the destination.
 */
import type { Workload } from '../workloads/types.ts';
import { bool, checkNumber, oneOf } from '../models/validate.ts';
import { EventQueue } from './event-queue.ts';
import { ctz } from './internal.ts';

export type Ch4Transport = 'datagram' | 'cut-through' | 'circuit';
export type Ch4Routing = 'fixed' | 'adaptive';
export type Ch4Links = 'uni' | 'bi';

export interface Ch4Config {
  readonly transport: Ch4Transport;
  readonly routing: Ch4Routing;
  readonly links: Ch4Links;
  /** §10.1: 1 tick per byte transmitted. */
  readonly ticksPerByte: number;
  /** §10.1: 1 tick link set-up between adjacent nodes. */
  readonly setupTicks: number;
  /** §10.1: 40 ticks buffer allocation. */
  readonly bufferTicks: number;
  /** Creation-time preemption of circuits in set-up (§10.1); false only as a negative control. */
  readonly creationPriority: boolean;
  /**
   * Cut-through reading (docs/buzzard-ch4.md#transports): 'staged' (default)
   * — a connection runs through free links (1 tick each) and ends at the
   * destination or at the first node whose next link is busy; there a buffer
   * is allocated (40 ticks) while the connection's links are held, then the
   * message streams in; a connection of one hop is a datagram hop.
   * 'buffer-at-block' — the earlier reading: the message streams on without
   * any allocation and pays the 40 ticks only where it blocks, overlapped
   * with its own arrival.
   */
  readonly cutThrough: 'staged' | 'buffer-at-block';
  /**
   * Adaptive routing when every profitable link is busy: 'ecube' (default)
   * waits on the e-cube (lowest) one only, so adaptivity is used only when a
   * profitable link is free on arrival; 'all' (the earlier reading) waits
   * on all of them and takes the first that frees
   * (docs/buzzard-ch4.md#links-and-routing).
   */
  readonly adaptiveWait: 'all' | 'ecube';
  /**
   * Which hops adaptive routing chooses: 'every' (default) — every hop, as
   * §4.2 defines it for datagrams ("routing decisions are made on a
   * hop-by-hop basis … fixed or adaptive"); 'first' — only the first hop at
   * the source, e-cube after it (the scheme the seed adopts in §4.5 and
   * chapter 5, not the one §4.4 describes). docs/buzzard-ch4.md#links-and-routing.
   */
  readonly adaptiveHops: 'every' | 'first';
  /** Every transport allocates the receive buffer at the destination (40 ticks, its links held), as the datagram does at every hop (default true; docs/buzzard-ch4.md#transports). */
  readonly destinationBuffer: boolean;
}

export const CH4_DEFAULTS = Object.freeze({ ticksPerByte: 1, setupTicks: 1, bufferTicks: 40, creationPriority: true, cutThrough: 'staged' as const, destinationBuffer: true, adaptiveWait: 'ecube' as const, adaptiveHops: 'every' as const }); // §10.1

export interface Ch4Result {
  /** Per message: generation → last byte at the destination (NaN if not delivered). */
  readonly times: Float64Array;
  readonly delivered: number;
  /** Largest number of message bytes buffered at one node at any time (datagram, cut-through). */
  readonly maxBufferBytes: number;
  /** Circuits that gave up their links for an older message. */
  readonly preemptions: number;
  readonly makespan: number;
}

const E_READY = 2; // arg: message · 64 + epoch (a preempted circuit's old events are stale)
const E_RELEASE = 3; // the owner's transmission over a link ended
const E_DONE = 4;
const E_UNBUFFER = 5;
const E_GRANT = 6; // a free link: offer it to the oldest waiter
const E_FREEBUF = 7; // arg: message · N + node — the message's tail has left that node's buffer (staged cut-through)

export function resolveCh4Config(c: Partial<Ch4Config> & Pick<Ch4Config, 'transport' | 'routing' | 'links'>): Ch4Config {
  const s = 'ch4';
  const v = { ...CH4_DEFAULTS, ...c };
  return {
    transport: oneOf(s, 'transport', v.transport, ['datagram', 'cut-through', 'circuit'] as const),
    routing: oneOf(s, 'routing', v.routing, ['fixed', 'adaptive'] as const),
    links: oneOf(s, 'links', v.links, ['uni', 'bi'] as const),
    ticksPerByte: checkNumber(s, 'ticksPerByte', v.ticksPerByte, { min: 0, minExclusive: true, max: 1e6, what: 'ticks' }),
    setupTicks: checkNumber(s, 'setupTicks', v.setupTicks, { min: 0, max: 1e9, what: 'ticks' }),
    bufferTicks: checkNumber(s, 'bufferTicks', v.bufferTicks, { min: 0, max: 1e9, what: 'ticks' }),
    creationPriority: bool(s, 'creationPriority', v.creationPriority),
    cutThrough: oneOf(s, 'cutThrough', v.cutThrough, ['staged', 'buffer-at-block'] as const),
    destinationBuffer: bool(s, 'destinationBuffer', v.destinationBuffer),
    adaptiveWait: oneOf(s, 'adaptiveWait', v.adaptiveWait, ['all', 'ecube'] as const),
    adaptiveHops: oneOf(s, 'adaptiveHops', v.adaptiveHops, ['every', 'first'] as const),
  };
}

/** Run the §4.4 simulator on a (unicast) workload. Deterministic. */
export function runCh4(w: Workload, config: Partial<Ch4Config> & Pick<Ch4Config, 'transport' | 'routing' | 'links'>): Ch4Result {
  const cfg = resolveCh4Config(config);
  const n = w.cubeDegree;
  const N = 2 ** n;
  const M = w.messages.length;
  const tau = cfg.ticksPerByte;
  const q = new EventQueue(4096);
  const owner = new Int32Array(N * n).fill(-1);
  const waiters: number[][] = Array.from({ length: N * n }, () => []);
  const cur = new Int32Array(M);
  const ready = new Float64Array(M); // when the message may leave cur (datagram / buffered: tail in and buffer allocated)
  const waiting = new Uint8Array(M);
  const streaming = new Uint8Array(M); // circuit: set up, being received
  const held: number[][] = Array.from({ length: M }, () => []);
  const epoch = new Uint8Array(M);
  const readyAt = (t: number, m: number): void => q.push(t, E_READY, m * 64 + epoch[m]!);
  const times = new Float64Array(M).fill(NaN);
  const buf = new Float64Array(N);
  const bufAt = new Int32Array(M).fill(-1);
  let maxBuf = 0;
  let delivered = 0;
  let preemptions = 0;
  let makespan = 0;
  let now = 0;
  const ct = cfg.transport === 'cut-through';
  const staged = ct && cfg.cutThrough === 'staged';
  const dstBuf = cfg.destinationBuffer ? cfg.bufferTicks : 0;
  const circuit = cfg.transport === 'circuit';
  const linkOf = (x: number, d: number): number => (cfg.links === 'bi' ? x * n + d : Math.min(x, x ^ (1 << d)) * n + d);
  const bytes = (m: number): number => w.messages[m]!.bytes * tau;

  function candidates(m: number): number[] {
    const x = cur[m]!;
    const diff = x ^ w.messages[m]!.dst;
    // adaptiveHops 'first': only the source's choice is adaptive, every later hop e-cube
    if (cfg.routing === 'fixed' || (cfg.adaptiveHops === 'first' && x !== w.messages[m]!.src)) return [ctz(diff)];
    const out: number[] = [];
    for (let d = 0; d < n; d++) if (diff & (1 << d)) out.push(d);
    return out;
  }

  /** The links a blocked message waits on (and wants, for creation-time priority). */
  function waitCands(m: number): number[] {
    const c = candidates(m);
    return cfg.adaptiveWait === 'all' ? c : c.slice(0, 1);
  }

  function buffer(m: number, x: number): void {
    if (bufAt[m] === x) return;
    unbuffer(m);
    bufAt[m] = x;
    buf[x] += w.messages[m]!.bytes;
    if (buf[x]! > maxBuf) maxBuf = buf[x]!;
  }
  function unbuffer(m: number): void {
    if (bufAt[m]! >= 0) buf[bufAt[m]!] -= w.messages[m]!.bytes;
    bufAt[m] = -1;
  }

  /** Message m takes link L (dimension d) from its node at time now. */
  function take(m: number, L: number, d: number): void {
    owner[L] = m;
    waiting[m] = 0;
    const x = cur[m]!;
    const y = x ^ (1 << d);
    const s = cfg.setupTicks;
    const dst = w.messages[m]!.dst;
    if (circuit) {
      held[m]!.push(L);
      cur[m] = y;
      if (y === dst) {
        streaming[m] = 1;
        q.push(now + s + dstBuf + bytes(m), E_DONE, m);
      } else readyAt(now + s, m);
      return;
    }
    if (staged) {
      // the connection grows by one hop; it ends at the destination or where the next link is busy (request)
      held[m]!.push(L);
      cur[m] = y;
      if (y === dst) endConnection(m, now + s + cfg.bufferTicks + bytes(m), true);
      else readyAt(now + s, m);
      return;
    }
    if (cfg.transport === 'datagram') {
      // buffer allocation at y, set-up, the whole message; the link is held throughout
      const end = now + cfg.bufferTicks + s + bytes(m);
      cur[m] = y;
      ready[m] = end;
      q.push(end, E_RELEASE, L);
      if (y === dst) q.push(end, E_DONE, m);
      else readyAt(end, m); // then stored at y (buffer) until the next hop has it all
      return;
    }
    // cut-through: the head goes on after the set-up; the link carries the stream until the tail has passed
    const end = now + s + bytes(m);
    cur[m] = y;
    ready[m] = end; // if it blocks at y, it can leave only once its tail is in (and a buffer allocated, see request)
    q.push(end, E_RELEASE, L);
    if (bufAt[m]! >= 0) q.push(end, E_UNBUFFER, m);
    if (y === dst) q.push(end + dstBuf, E_DONE, m);
    else readyAt(now + s, m);
  }

  /** Staged cut-through: the connection ends at `end` (buffer allocated, tail in): its links are released, the old buffer freed. */
  function endConnection(m: number, end: number, done: boolean): void {
    for (const L of held[m]!) q.push(end, E_RELEASE, L);
    held[m] = [];
    if (bufAt[m]! >= 0) {
      q.push(end, E_FREEBUF, m * N + bufAt[m]!);
      bufAt[m] = -1;
    }
    if (done) q.push(end, E_DONE, m);
    else {
      // stored here from the allocation on; it may leave once its tail is in
      bufAt[m] = cur[m]!;
      buf[cur[m]!] += w.messages[m]!.bytes;
      if (buf[cur[m]!]! > maxBuf) maxBuf = buf[cur[m]!]!;
      ready[m] = end;
    }
  }

  /** Message m at node cur[m] asks for its next link. */
  function request(m: number): void {
    const cands = candidates(m);
    for (const d of cands) {
      const L = linkOf(cur[m]!, d);
      // a free link goes to the oldest message waiting for it (creation-time priority), not to a newcomer
      if (owner[L]! < 0 && !olderWaiting(L, m)) return take(m, L, d);
    }
    if (circuit && cfg.creationPriority) {
      for (const d of waitCands(m)) {
        const L = linkOf(cur[m]!, d);
        const o = owner[L]!;
        if (o > m && !streaming[o]) {
          preempt(o);
          return take(m, L, d);
        }
      }
    }
    if (staged && held[m]!.length) {
      // blocked: the connection ends here — a buffer is allocated (40 ticks, its links held), the message streams in
      endConnection(m, now + cfg.bufferTicks + bytes(m), false);
    } else if (ct && !staged && cur[m] !== w.messages[m]!.src) {
      // blocked ('buffer-at-block'): buffered here (40 ticks, and its tail must be in); not at its source
      buffer(m, cur[m]!);
      ready[m] = Math.max(ready[m]!, now + cfg.bufferTicks);
    }
    waiting[m] = 1;
    for (const d of waitCands(m)) waiters[linkOf(cur[m]!, d)]!.push(m);
  }

  /** A circuit in set-up gives up its links for an older message and starts again from its source. */
  function preempt(o: number): void {
    preemptions++;
    const links = held[o]!;
    held[o] = [];
    for (const L of links) {
      owner[L] = -1;
      q.push(now, E_GRANT, L);
    }
    cur[o] = w.messages[o]!.src;
    waiting[o] = 0;
    epoch[o] = (epoch[o]! + 1) & 63;
    readyAt(now + cfg.setupTicks, o);
  }

  function olderWaiting(L: number, m: number): boolean {
    for (const k of waiters[L]!) if (k < m && waiting[k] && waitCands(k).some((d) => linkOf(cur[k]!, d) === L)) return true;
    return false;
  }

  function grant(L: number): void {
    if (owner[L]! >= 0) return;
    const list = waiters[L]!;
    // the oldest message still waiting for this link (lazy removal)
    let best = -1;
    let bi = -1;
    for (let k = 0; k < list.length; k++) {
      const m = list[k]!;
      if (!waiting[m] || !waitCands(m).some((d) => linkOf(cur[m]!, d) === L)) continue;
      if (best < 0 || m < best) {
        best = m;
        bi = k;
      }
    }
    if (best >= 0 && !circuit && ready[best]! > now) {
      // not yet able to leave (tail not in / buffer not allocated): offer the link again then
      waiters[L] = list.filter((m) => waiting[m]);
      q.push(ready[best]!, E_GRANT, L);
      return;
    }
    waiters[L] = list.filter((m, k) => k !== bi && waiting[m]);
    if (best < 0) return;
    const d = waitCands(best).find((dd) => linkOf(cur[best]!, dd) === L)!;
    take(best, L, d);
  }

  let gi = 0;
  for (;;) {
    const tg = gi < M ? w.messages[gi]!.t : Infinity;
    if (tg <= q.peekTime()) {
      if (gi >= M) break;
      now = tg;
      const m = gi++;
      cur[m] = w.messages[m]!.src;
      ready[m] = now;
      request(m);
      continue;
    }
    if (q.size === 0) break;
    q.pop();
    now = q.time;
    const a = q.arg;
    switch (q.type) {
      case E_READY: {
        const m = a >> 6;
        if ((a & 63) !== epoch[m]) break; // stale (the circuit was preempted)
        if (cfg.transport === 'datagram') buffer(m, cur[m]!);
        request(m);
        break;
      }
      case E_RELEASE:
        owner[a] = -1;
        grant(a);
        break;
      case E_GRANT:
        grant(a);
        break;
      case E_UNBUFFER:
        if (bufAt[a] !== cur[a]) unbuffer(a);
        break;
      case E_FREEBUF:
        buf[a % N] -= w.messages[(a / N) | 0]!.bytes;
        break;
      case E_DONE:
        times[a] = now - w.messages[a]!.t;
        delivered++;
        makespan = Math.max(makespan, now);
        unbuffer(a);
        if (circuit) {
          for (const L of held[a]!) {
            owner[L] = -1;
            q.push(now, E_GRANT, L);
          }
          held[a] = [];
        }
        break;
    }
  }
  return { times, delivered, maxBufferBytes: maxBuf, preemptions, makespan };
}
