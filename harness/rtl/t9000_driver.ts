/**
 * The process driver of T9000-style endpoints (docs/t9000.md#process-driver):
 * it stands where the T9000's CPU stands and issues the sends and receives a
 * workload schedules, through the simulator's stimulus (like CubeDriver for
 * Buzzard): a send writes the message bytes into the endpoint's send area,
 * appends (address, length) to the virtual link's send queue and raises
 * word v of `vlc.sendPosted`; a receive raises word v of `vlc.recvPosted`
 * (the control blocks are memories: rtl/t9000/vlc.ts), then `vlc.touch(v)`.
 *
 * Channels: the driver is told which (endpoint, virtual link) pairs are the
 * two ends of one virtual link, so a message sent on one end is known to be
 * delivered on the other (the event recorder, t9000_events.ts, uses this).
 *
 * Loops (`sendLoop`, `receiveLoop`) model a process that repeats a blocking
 * send (or receive): the next one is issued in the cycle after the previous
 * one completed (the recorder calls `onSendDone` / `onDelivered`).
 *
 * A full send queue (sendQueueDepth sends posted and not yet done on one
 * virtual link): by default a send that finds it full is an error (a
 * RangeError, mid-run). With `holdWhenFull` the sending process waits
 * instead (docs/c104.md#held-sends): the send is held, in order behind any
 * other held send of its virtual link, and enters the queue in the cycle a
 * send of that virtual link completes. Its message keeps the cycle it was
 * issued (message times count the wait); its bytes are written into the send
 * area when it enters the queue.
 */
import type { Memory, Simulator, StateProvider } from '../../rtl/kernel/index.ts';
import type { T9000Endpoint } from '../../rtl/t9000/endpoint.ts';
import { MessageBacklog } from './t9000_backlog.ts';
import { SendArea, type SendAreaSaved } from './t9000_send_area.ts';

export interface ChannelEnd {
  node: number;
  vl: number;
}

export interface T9000Message {
  id: number;
  src: ChannelEnd;
  dest: ChannelEnd;
  /** The bytes sent; emptied once they are in the send area when retainMessages is off (`digest` keeps their check). */
  data: number[];
  /** Its length in bytes. */
  size: number;
  /** bytesDigest of the bytes, set when `data` was emptied. */
  digest?: number;
  /** Cycle the send was issued (message-queued). */
  cycle: number;
  /** Index of this message among the sends on its source VL. */
  seq: number;
  addr: number;
}

interface Loop {
  remaining: number;
  make: () => number[];
  addr: number;
}

const key = (e: ChannelEnd): string => `${e.node}:${e.vl}`;

/** FNV-1a over bytes (each & 0xff): what a released message keeps of its bytes for the recorder's byte check. */
export function bytesDigest(bytes: ArrayLike<number>): number {
  let h = 0x811c9dc5;
  for (let j = 0; j < bytes.length; j++) h = Math.imul(h ^ (bytes[j]! & 0xff), 0x01000193);
  return h >>> 0;
}

/** Where a VL fed by `post` keeps its messages: slots of the driver's backlog chained oldest first (t9000_backlog.ts). */
interface PackedChain {
  readonly backlog: MessageBacklog;
  readonly src: ChannelEnd;
  readonly dest: ChannelEnd;
  head: number;
  tail: number;
  count: number;
  /** Packed messages not yet in the send queue (the last `waiting` of the chain), and how many of those are held. */
  waiting: number;
  held: number;
}

/**
 * One source VL's messages in send order, indexed by `seq`; entries before
 * `dropBefore(n)` are released (retainMessages off: a long run keeps only the
 * messages still in flight, docs/c104.md#lazy-workload). A VL fed by
 * `T9000Driver.post` keeps them packed (`packed`), and `at` makes the
 * T9000Message when it is asked for.
 */
export class SeqList {
  private items: T9000Message[] = [];
  private base = 0;
  /** Set by the driver at the first `post` on this VL: its messages are then packed. */
  packed: PackedChain | null = null;
  get length(): number {
    return this.base + (this.packed ? this.packed.count : this.items.length);
  }
  /** Messages held (not yet released). */
  get live(): number {
    return this.packed ? this.packed.count : this.items.length;
  }
  at(i: number): T9000Message | undefined {
    const p = this.packed;
    if (!p) return i >= this.base ? this.items[i - this.base] : undefined;
    const k = i - this.base;
    // only messages already in the send queue: the recorder's cursors never pass them
    if (k < 0 || k >= p.count - p.waiting) return undefined;
    let s = p.head;
    for (let j = 0; j < k; j++) s = p.backlog.next(s);
    const b = p.backlog;
    return { id: b.id(s), src: p.src, dest: p.dest, data: [], size: b.size(s), digest: b.digest(s), cycle: b.cycle(s), seq: i, addr: b.addr(s) };
  }
  push(m: T9000Message): void {
    this.items.push(m);
  }
  /** Forget the messages before index n (compacting once the dead part is the larger). */
  dropBefore(n: number): void {
    const p = this.packed;
    if (p) {
      for (; this.base < n && p.count > p.waiting; this.base++, p.count--) {
        const s = p.head;
        p.head = p.backlog.next(s);
        p.backlog.free(s);
      }
      return;
    }
    const dead = Math.min(n, this.length) - this.base;
    if (dead <= 0) return;
    if (dead >= this.items.length) {
      this.items = [];
      this.base += dead;
    } else if (2 * dead >= this.items.length) {
      this.items = this.items.slice(dead);
      this.base += dead;
    } else return;
  }
  /** Messages released so far (indices below this are gone). */
  get released(): number {
    return this.base;
  }
  /** Keep the first n (a restore to an earlier cycle); n below `released` cannot be restored: those messages are gone. */
  truncate(n: number): void {
    if (n < this.base) throw new RangeError(`t9000 driver: cannot go back to message ${n} of a virtual link: messages up to ${this.base - 1} were released (retainMessages off, docs/c104.md#lazy-workload)`);
    if (this.packed) throw new RangeError('t9000 driver: cannot go back in time on a virtual link fed by post (its messages are packed, docs/c104.md#lazy-workload)');
    this.items.length = n - this.base;
  }
}

/** What `stateProvider` saves: lengths of the append-only lists, copies of the rest. */
interface DriverSaved {
  messages: number;
  bySource: [string, number][];
  areas: SendAreaSaved[];
  posted: [string, number][];
  recvPosted: [string, number][];
}

export class T9000Driver {
  /** Every message sent, by id (empty when retainMessages is off). */
  readonly messages: T9000Message[] = [];
  /** Messages per source VL, in send order. */
  readonly bySource = new Map<string, SeqList>();
  /**
   * Keep every message (default). Off: `messages` stays empty and the event
   * recorder releases a message from `bySource` once all its packets were
   * followed and it was delivered, so a long run's memory is what is in
   * flight (docs/c104.md#lazy-workload). The REPL and the checks of whole
   * runs keep them.
   */
  retainMessages = true;
  /** Messages sent so far (ids are 0 .. sentCount − 1). */
  sentCount = 0;
  private readonly peer = new Map<string, ChannelEnd>();
  /** Each node's send area (t9000_send_area.ts): a queued message's buffer is not written again until its send is done. */
  readonly areas: SendArea[];
  private readonly posted = new Map<string, number>();
  private readonly recvPosted = new Map<string, number>();
  private readonly sendLoops = new Map<string, Loop>();
  private readonly recvLoops = new Map<string, number>();
  /** Held sends per source VL (holdWhenFull), oldest first. */
  private readonly held = new Map<string, (() => boolean)[]>();
  /** Per node, the source VLs whose oldest held send waits for room in the send area (retried when any send of the node completes). */
  private readonly roomWait: Set<string>[];
  /** Wait instead of failing when a virtual link's send queue is full (see the file header). */
  holdWhenFull = false;
  /** Sends that had to wait, so far (holdWhenFull): for room in their queue, behind a held send of their VL, or for a free send-area buffer. */
  heldCount = 0;
  /** Of those, how often the oldest held send of a VL found no free buffer in its send area (docs/c104.md#send-area). */
  roomHeldCount = 0;
  /** Messages issued by `post` and not yet in their send queue, packed (t9000_backlog.ts). */
  readonly backlog = new MessageBacklog();
  /**
   * A message's bytes go into the send area in one block write (default;
   * docs/kernel.md "Stop 23: endpoints per cycle"); false: a poke per byte,
   * the reference (test/t9000/block_write.test.ts runs both in lock-step).
   */
  blockWrites = true;

  constructor(
    readonly sim: Simulator,
    readonly nodes: readonly T9000Endpoint[],
  ) {
    this.areas = nodes.map((ep, a) => new SendArea(ep.cfg.sendAreaBytes, (vl, n) => this.sendDone(a, vl, n)));
    this.roomWait = nodes.map(() => new Set());
  }

  /**
   * The driver's bookkeeping (messages, send-area heap, posted counts) as a
   * simulator state provider, so snapshots carry it for time travel (the
   * REPL's back, restore and checkpoint files). Loops and held sends
   * (holdWhenFull) are not saved: the REPL issues single sends and receives
   * only, and does not hold.
   */
  stateProvider(): StateProvider {
    return {
      save: (): DriverSaved => ({
        messages: this.sentCount,
        bySource: [...this.bySource].map(([k, l]) => [k, l.length]),
        areas: this.areas.map((x) => x.save()),
        posted: [...this.posted],
        recvPosted: [...this.recvPosted],
      }),
      check: (v) => this.checkRestore(v as DriverSaved),
      restore: (v) => {
        const s = v as DriverSaved;
        this.checkRestore(s);
        const lens = new Map(s.bySource);
        this.sentCount = s.messages;
        if (this.retainMessages) this.messages.length = s.messages;
        for (const [k, l] of this.bySource) {
          const n = lens.get(k);
          if (n === undefined) this.bySource.delete(k);
          else l.truncate(n);
        }
        s.areas.forEach((x, a) => this.areas[a]!.restore(x));
        this.posted.clear();
        for (const [k, n] of s.posted) this.posted.set(k, n);
        this.recvPosted.clear();
        for (const [k, n] of s.recvPosted) this.recvPosted.set(k, n);
      },
    };
  }

  /** Throws, changing nothing, when `s` cannot be restored: a released message cannot come back (retainMessages off), nor can posted (packed) ones. */
  private checkRestore(s: DriverSaved): void {
    // A snapshot written before the send area kept its taken buffers (docs/c104.md#send-area) has only the old bump place.
    if (!Array.isArray(s.areas) || s.areas.length !== this.areas.length) throw new RangeError('t9000 driver: this snapshot has no send-area state for these endpoints (written before docs/c104.md#send-area); it cannot be restored');
    const lens = new Map(s.bySource);
    for (const [k, l] of this.bySource) {
      const n = lens.get(k);
      if (n !== undefined && n < l.released) l.truncate(n);
    }
    if ([...this.bySource.values()].some((l) => l.packed)) throw new RangeError('t9000 driver: cannot go back in time on virtual links fed by post (their messages are packed, docs/c104.md#lazy-workload)');
  }

  node(a: number): T9000Endpoint {
    const n = this.nodes[a];
    if (!n) throw new RangeError(`t9000 driver: node ${a} is outside 0..${this.nodes.length - 1}`);
    return n;
  }

  private checkVl(e: ChannelEnd): void {
    const V = this.node(e.node).cfg.virtualLinks.length;
    if (!(Number.isInteger(e.vl) && e.vl >= 0 && e.vl < V)) throw new RangeError(`t9000 driver: virtual link ${e.vl} of node ${e.node} is outside 0..${V - 1}`);
  }

  /** Declare a virtual link between two ends (both directions). */
  channel(a: ChannelEnd, b: ChannelEnd): void {
    this.checkVl(a);
    this.checkVl(b);
    this.peer.set(key(a), b);
    this.peer.set(key(b), a);
  }

  peerOf(e: ChannelEnd): ChannelEnd {
    const p = this.peer.get(key(e));
    if (!p) throw new RangeError(`t9000 driver: node ${e.node} virtual link ${e.vl} is not one end of a declared channel`);
    return p;
  }

  /** Refuses, up front, a message longer than node a's whole send area. */
  private checkFits(a: number, bytes: number): void {
    const size = this.node(a).cfg.sendAreaBytes;
    if (bytes > size) throw new RangeError(`t9000 driver: message of ${bytes} bytes exceeds node ${a}'s send area (${size} bytes)`);
  }

  /** Whether the send numbered n (1, 2, ... in posting order) on node a's virtual link vl is done: its sDone count passed it (wrap-safe, counts are 24 bits). */
  private sendDone(a: number, vl: number, n: number): boolean {
    const posted = this.posted.get(`${a}:${vl}`) ?? 0;
    const done = this.sim.peekMem(this.node(a).vlc.sDone, vl);
    const outstanding = (((posted - done) % 2 ** 24) + 2 ** 24) % 2 ** 24;
    return n <= posted - outstanding;
  }

  /**
   * A free buffer of `bytes` in node a's send area for the send entering the
   * queue of VL `k` (t9000_send_area.ts), or −1: no free gap fits until a
   * queued send of the node completes, and the send waits (holdWhenFull;
   * retried by `onSendDone`). Without holdWhenFull, or with nothing queued
   * to wait for, a RangeError naming the bytes in queued messages.
   */
  private room(a: number, k: string, bytes: number): number {
    const area = this.areas[a]!;
    const at = area.alloc(bytes);
    if (at >= 0) {
      this.roomWait[a]!.delete(k);
      return at;
    }
    if (!this.holdWhenFull || area.idle) {
      throw new RangeError(`t9000 driver: node ${a}'s send area (${area.size} bytes) has no free ${bytes} bytes for a message on virtual link ${k.split(':')[1]}: ${area.takenBytes} bytes are in queued messages (a larger sendAreaBytes, or holdWhenFull, docs/c104.md#send-area)`);
    }
    if (!this.roomWait[a]!.has(k)) this.roomHeldCount++;
    this.roomWait[a]!.add(k);
    return -1;
  }

  /**
   * Schedule a send of `data` on (node, vl) at `cycle`. `addr` reuses a buffer
   * already holding the bytes (a process sending one buffer again); without
   * it the message takes a free buffer when it enters the send queue (its
   * `addr` is set then) and its bytes are written there.
   */
  send(node: number, vl: number, data: number[], cycle: number, addr?: number): T9000Message {
    return this.issue(node, vl, data, cycle, addr, addr === undefined);
  }

  /** `send`; `write`: the bytes are written at `addr` (given: a pinned buffer of a loop) or at a buffer taken on entering the queue. */
  private issue(node: number, vl: number, data: number[], cycle: number, addr: number | undefined, write: boolean): T9000Message {
    const src = { node, vl };
    const dest = this.peerOf(src);
    if (data.length > 65535) throw new RangeError(`t9000 driver: message length ${data.length} is outside 0..65535`);
    const ep = this.node(node);
    const k = key(src);
    const list = this.bySource.get(k) ?? new SeqList();
    this.bySource.set(k, list);
    if (list.packed) throw new RangeError(`t9000 driver: node ${node} virtual link ${vl} is fed by post; post and send do not mix on one virtual link`);
    this.checkFits(node, data.length);
    // A send takes its buffer when it enters the queue (docs/c104.md#send-area); 0 until then.
    const at = addr ?? 0;
    const msg: T9000Message = { id: this.sentCount++, src, dest, data, size: data.length, cycle, seq: list.length, addr: at };
    if (this.retainMessages) this.messages.push(msg);
    list.push(msg);
    const enqueue = (sim: Simulator): boolean => {
      const vlc = ep.vlc;
      const n = (this.posted.get(k) ?? 0) + 1;
      const done = sim.peekMem(vlc.sDone, vl);
      const Q = ep.cfg.sendQueueDepth;
      if (n - 1 - done >= Q) {
        if (!this.holdWhenFull) throw new RangeError(`t9000 driver: node ${node} virtual link ${vl} has ${Q} sends queued (sendQueueDepth); cannot queue message ${msg.id}`);
        return false;
      }
      if (addr === undefined) {
        const got = this.room(node, k, data.length);
        if (got < 0) return false;
        msg.addr = got;
        this.areas[node]!.take(got, data.length, vl, n);
      } else this.areas[node]!.hold(addr, data.length, vl, n);
      if (write) this.writeBytes(sim, ep.nodeMem.mem, msg.addr, data);
      // A long run keeps what is in flight small: the bytes are in the send area now (docs/c104.md#lazy-workload).
      if (write && !this.retainMessages) {
        msg.digest = bytesDigest(data);
        msg.data = [];
      }
      sim.pokeMem(vlc.sendQ, vl * Q + ((n - 1) % Q), msg.addr * 65536 + data.length);
      sim.pokeMem(vlc.sendPosted, vl, n % 2 ** 24);
      vlc.touch(vl);
      this.posted.set(k, n);
      return true;
    };
    this.sim.schedule(cycle, (sim) => {
      const waiting = this.held.get(k);
      if (waiting?.length || !enqueue(sim)) {
        this.heldCount++;
        const w = waiting ?? [];
        this.held.set(k, w);
        w.push(() => enqueue(sim));
      }
    });
    return msg;
  }

  /**
   * `send` for long runs (retainMessages off): the message waits packed in
   * the backlog, not as an object with its bytes, until it enters the send
   * queue (docs/c104.md#lazy-workload); the same stimuli in the same order
   * as `send`, so the run is the same. `data` are send-area bytes (integers
   * 0..255); a VL fed by post takes only posts, in nondecreasing cycles
   * (so the oldest packed message is always the next to enter the queue).
   * Returns the message's id.
   */
  post(node: number, vl: number, data: ArrayLike<number>, cycle: number): number {
    if (this.retainMessages) throw new RangeError('t9000 driver: post needs retainMessages off (a retaining driver keeps message objects: use send)');
    const src = { node, vl };
    this.peerOf(src);
    if (data.length > 65535) throw new RangeError(`t9000 driver: message length ${data.length} is outside 0..65535`);
    for (let j = 0; j < data.length; j++) {
      const b = data[j]!;
      if (!(Number.isInteger(b) && b >= 0 && b <= 255)) throw new RangeError(`t9000 driver: byte ${j} of a message on node ${node} virtual link ${vl} is ${b}, not 0..255`);
    }
    const k = key(src);
    const list = this.bySource.get(k) ?? new SeqList();
    this.bySource.set(k, list);
    if (!list.packed && list.length) throw new RangeError(`t9000 driver: node ${node} virtual link ${vl} was fed by send; post and send do not mix on one virtual link`);
    const p = (list.packed ??= { backlog: this.backlog, src, dest: this.peerOf(src), head: -1, tail: -1, count: 0, waiting: 0, held: 0 });
    const b = this.backlog;
    if (p.count && cycle < b.cycle(p.tail)) throw new RangeError(`t9000 driver: post on node ${node} virtual link ${vl} at cycle ${cycle}, before its previous post (cycle ${b.cycle(p.tail)})`);
    const id = this.sentCount++;
    this.checkFits(node, data.length);
    const slot = b.put(id, cycle, data, -1);
    if (p.count) b.setNext(p.tail, slot);
    else p.head = slot;
    p.tail = slot;
    p.count++;
    p.waiting++;
    this.sim.schedule(cycle, (sim) => {
      if (p.held > 0 || !this.enqueuePacked(sim, p)) {
        this.heldCount++;
        p.held++;
      }
    });
    return id;
  }

  /** `send`'s enqueue for the oldest packed message of a VL not yet queued: false when the queue is full (it keeps waiting). */
  private enqueuePacked(sim: Simulator, p: PackedChain): boolean {
    const { node, vl } = p.src;
    const ep = this.node(node);
    const vlc = ep.vlc;
    const k = key(p.src);
    const n = (this.posted.get(k) ?? 0) + 1;
    const Q = ep.cfg.sendQueueDepth;
    const b = this.backlog;
    let s = p.head;
    for (let j = p.count - p.waiting; j > 0; j--) s = b.next(s);
    if (n - 1 - sim.peekMem(vlc.sDone, vl) >= Q) {
      if (!this.holdWhenFull) throw new RangeError(`t9000 driver: node ${node} virtual link ${vl} has ${Q} sends queued (sendQueueDepth); cannot queue message ${b.id(s)}`);
      return false;
    }
    const data = b.read(s);
    const addr = this.room(node, k, data.length);
    if (addr < 0) return false;
    b.setAddr(s, addr);
    this.areas[node]!.take(addr, data.length, vl, n);
    b.dropBytes(s, bytesDigest(data));
    p.waiting--;
    this.writeBytes(sim, ep.nodeMem.mem, addr, data);
    sim.pokeMem(vlc.sendQ, vl * Q + ((n - 1) % Q), addr * 65536 + data.length);
    sim.pokeMem(vlc.sendPosted, vl, n % 2 ** 24);
    vlc.touch(vl);
    this.posted.set(k, n);
    return true;
  }

  /** Write a message's bytes at `addr` of node memory `mem` (see `blockWrites`). */
  protected writeBytes(sim: Simulator, mem: Memory, addr: number, data: ArrayLike<number>): void {
    if (this.blockWrites) sim.pokeMemBlock(mem, addr, data);
    else for (let j = 0; j < data.length; j++) sim.pokeMem(mem, addr + j, data[j]!);
  }

  /** Schedule a receive on (node, vl) at `cycle`. */
  receive(node: number, vl: number, cycle: number): void {
    this.checkVl({ node, vl });
    const vlc = this.node(node).vlc;
    const k = key({ node, vl });
    this.sim.schedule(cycle, (sim) => {
      const n = (this.recvPosted.get(k) ?? 0) + 1;
      this.recvPosted.set(k, n);
      sim.pokeMem(vlc.recvPosted, vl, n % 2 ** 24);
      vlc.touch(vl);
    });
  }

  /**
   * A process sending `count` messages made by `make` on (node, vl), the first
   * at `cycle`. `ahead` = sends kept queued on the VL: 1 is a blocking send
   * (the next is issued in the cycle after the previous completed); 2 lets the
   * endpoint start the next message in the very cycle the previous one's last
   * ack arrives (a zero-cost CPU turnaround, docs/t9000.md#process-driver).
   * `reuseBuffer`: every message is sent from the first one's buffer.
   */
  sendLoop(node: number, vl: number, count: number, cycle: number, make: () => number[], reuseBuffer = false, ahead = 1): void {
    if (count <= 0) return;
    if (!(Number.isInteger(ahead) && ahead >= 1 && ahead <= this.node(node).cfg.sendQueueDepth)) {
      throw new RangeError(`t9000 driver: ahead ${ahead} is outside 1..${this.node(node).cfg.sendQueueDepth} (sendQueueDepth)`);
    }
    const first = make();
    // A reused buffer is the loop's for good: taken now (pinned), its bytes written when the first send enters the queue.
    let m: T9000Message;
    if (reuseBuffer) {
      this.checkFits(node, first.length);
      const at = this.areas[node]!.alloc(first.length);
      if (at < 0) throw new RangeError(`t9000 driver: node ${node}'s send area has no free ${first.length} bytes for a send loop's buffer`);
      this.areas[node]!.take(at, first.length, vl, -1);
      m = this.issue(node, vl, first, cycle, at, true);
    } else m = this.send(node, vl, first, cycle);
    const lp: Loop = { remaining: count - 1, make: reuseBuffer ? () => first : make, addr: reuseBuffer ? m.addr : -1 };
    this.sendLoops.set(key({ node, vl }), lp);
    for (let k = 1; k < ahead && lp.remaining > 0; k++, lp.remaining--) this.send(node, vl, lp.make(), cycle, lp.addr >= 0 ? lp.addr : undefined);
  }

  /** A process repeating a blocking receive `count` times, the first at `cycle`. */
  receiveLoop(node: number, vl: number, count: number, cycle: number): void {
    if (count <= 0) return;
    this.receive(node, vl, cycle);
    this.recvLoops.set(key({ node, vl }), count - 1);
  }

  /** Called by the recorder in the cycle a send on (node, vl) completed. */
  onSendDone(node: number, vl: number, cycle: number): void {
    const k = key({ node, vl });
    this.retryHeld(k, cycle);
    // Its buffer is free now: sends of other VLs of the node that wait for room try again.
    for (const w of this.roomWait[node]!) if (w !== k) this.retryHeld(w, cycle);
    const lp = this.sendLoops.get(k);
    if (!lp || lp.remaining <= 0) return;
    lp.remaining--;
    this.send(node, vl, lp.make(), cycle, lp.addr >= 0 ? lp.addr : undefined);
  }

  /** The oldest held send of VL k tries to enter its queue in `cycle`. */
  private retryHeld(k: string, cycle: number): void {
    const waiting = this.held.get(k);
    if (waiting?.length) this.sim.schedule(cycle, () => void (waiting[0]!() && waiting.shift()));
    const p = this.bySource.get(k)?.packed;
    if (p?.held) this.sim.schedule(cycle, (sim) => void (this.enqueuePacked(sim, p) && p.held--));
  }

  /** Called by the recorder in the cycle a message was delivered on (node, vl). */
  onDelivered(node: number, vl: number, cycle: number): void {
    const k = key({ node, vl });
    const r = this.recvLoops.get(k);
    if (r === undefined || r <= 0) return;
    this.recvLoops.set(k, r - 1);
    this.receive(node, vl, cycle);
  }
}
