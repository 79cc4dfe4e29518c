/**
 * Event recorder for T9000-style endpoints (docs/t9000.md#events): an
 * observer that turns running endpoints into the shared event vocabulary
 * (traces/events/vocabulary.ts) with cycle stamps, for the messages a
 * T9000Driver issued, and collects the bytes of every delivered message.
 * It reads the state vector and never writes it.
 *
 * Identification: the hardware carries no message ids; packets of one
 * virtual link are stop-and-wait and stay in order, so the k-th data packet
 * a transmit port starts for VL v is packet k of v's sends in order, and the
 * same holds for headers and acks arriving on the far side.
 *
 * Stamps (cycle t = the committed, settled cycle the observer sees):
 *   message-queued          the cycle the driver issued the send
 *   packet-injected         the first cycle after the packet's first header
 *                           character was taken by the link end (TxPort dataPkts
 *                           counts it); node = source, port = link, unit 'tx'
 *   head-arrives            the first cycle after the character following the
 *                           header was taken (the endpoint then knows it is a
 *                           data packet); node = destination, unit 'rx'
 *   ack                     the first cycle after the ack's EOP was taken at the
 *                           sender; node = source
 *   first-packet-delivered  the first cycle after packet 0's EOP/EOM was taken
 *                           (its bytes are in the receive area)
 *   message-complete        the first cycle in which the virtual link control
 *                           counts the message delivered (EOM in, receive posted)
 */
import type { Observer, Simulator } from '../../rtl/kernel/index.ts';
import type { T9000Endpoint } from '../../rtl/t9000/endpoint.ts';
import { sortInPlace } from '../../rtl/t9000/vlc_sort.ts';
import { writeTrace, type EventKind, type TraceEvent, type TraceHeader } from '../../traces/events/vocabulary.ts';
import { bytesDigest, type ChannelEnd, type T9000Driver, type T9000Message } from './t9000_driver.ts';
import { T9000Summary } from './t9000_summary.ts';

export interface Delivery {
  msg: number;
  node: number;
  vl: number;
  bytes: number[];
  cycle: number;
}

/** Where one observer of a VL's packets stands: message index (in the source VL's send order) and packet within it. */
interface Cursor {
  msg: number;
  pkt: number;
}

interface VlShadow {
  /** Data packets started (tx), acks received (ack) and data headers (rx) seen so far. */
  tx: Cursor;
  ack: Cursor;
  rx: Cursor;
  delivered: number;
  sDone: number;
  rDone: number;
}

export class T9000Recorder implements Observer {
  /** Reads T9000 registers only, never a DS-link NULL train's (Observer.skipsOwnedOnDemand). */
  readonly skipsOwnedOnDemand = true;
  readonly events: TraceEvent[] = [];
  readonly deliveries: Delivery[] = [];
  /**
   * Keep every event and delivery (default: `--events`, the REPL, tests).
   * Off: `events` and `deliveries` stay empty and only `summary` grows (a
   * long run's memory stays flat: docs/c104.md#lazy-workload); with the
   * driver's retainMessages off too, messages are released once followed.
   */
  keepEvents = true;
  /** Called with every event stamped, kept or not, and its message (a long run's own statistics: harness/rtl/c104_run_summary.ts). */
  onEvent: ((e: TraceEvent, m: T9000Message) => void) | null = null;
  /** Running statistics of every event stamped, kept or not (t9000_summary.ts). */
  readonly summary = new T9000Summary();
  readonly anomalies: string[] = [];
  readonly header: TraceHeader;
  private readonly shadow: VlShadow[][];
  /** Per link: counters last seen, and the packet whose data header last arrived on it (its end belongs to it). */
  private readonly prev: { dataPkts: number; acksIn: number; dataHdrs: number; hdrPos: Cursor }[][];
  private readonly packetBytes: number[];
  private lastCycle = -1;
  /**
   * Per node, per link: the slots of dataPkts, acksIn, dataHdrs and evEnd, so
   * a node where none moved is passed over without touching its units' Signal
   * objects (the Table 3.1 run has 1,024 endpoints, most quiet in a cycle:
   * docs/kernel.md "Stop 19").
   */
  private readonly portSlots: Int32Array[];
  /** onNode's scratch: the visited VLs whose completion counters moved this cycle. */
  private readonly moved: number[] = [];
  /** movedByControl's scratch: per VL, already in `moved` (all 0 between calls). */
  private readonly seen: Uint8Array;
  /**
   * Follow completions from the control's lists of changed counters (default)
   * rather than by scanning its work list every cycle (false: the reference,
   * the path before stop 22; test/traces/recorder_change_driven.test.ts runs
   * both on the same workloads and compares every event and delivery).
   */
  changeDriven = true;
  private queuedSeen = 0;
  private readonly detachFn: () => void;

  constructor(
    readonly sim: Simulator,
    readonly driver: T9000Driver,
    workload: Record<string, unknown> = {},
  ) {
    const nodes = driver.nodes;
    this.header = { format: 'icemu-events', version: 1, model: 'rtl', unit: 'cycles', workload: { system: 't9000', ...workload } };
    this.packetBytes = nodes.map((n) => n.cfg.packetBytes);
    this.shadow = nodes.map((n) =>
      n.cfg.virtualLinks.map(() => ({ tx: { msg: 0, pkt: 0 }, ack: { msg: 0, pkt: 0 }, rx: { msg: 0, pkt: 0 }, delivered: 0, sDone: 0, rDone: 0 })),
    );
    this.prev = nodes.map((n) => n.tx.map(() => ({ dataPkts: 0, acksIn: 0, dataHdrs: 0, hdrPos: { msg: 0, pkt: 0 } })));
    this.seen = new Uint8Array(Math.max(0, ...nodes.map((n) => n.cfg.virtualLinks.length)));
    this.portSlots = nodes.map((n) => Int32Array.from(n.tx.flatMap((tx, k) => [tx.dataPkts.i, n.rx[k]!.acksIn.i, n.rx[k]!.dataHdrs.i, n.rx[k]!.evEnd.i])));
    this.detachFn = sim.observe(this);
  }

  detach(): void {
    this.detachFn();
  }

  write(path: string): void {
    writeTrace(path, this.header, this.events);
  }

  private packets(m: T9000Message): number {
    return Math.max(1, Math.ceil(m.size / this.packetBytes[m.src.node]!));
  }

  private emit(t: number, kind: EventKind, msg: T9000Message | undefined, node: number, extra: Partial<TraceEvent> = {}): void {
    if (!msg) {
      this.anomalies.push(`cycle ${t}: ${kind} at node ${node} for a packet no driver message accounts for`);
      return;
    }
    const e: TraceEvent = { t, kind, msg: msg.id, node, ...extra };
    this.summary.add(e, msg.cycle);
    this.onEvent?.(e, msg);
    if (this.keepEvents) this.events.push(e);
  }

  /**
   * Release the messages of the channel whose source is (node, vl) that every
   * cursor has passed (sent, acknowledged, header arrived, delivered), when
   * the driver does not retain messages.
   */
  private release(node: number, vl: number): void {
    if (this.driver.retainMessages) return;
    const list = this.driver.bySource.get(`${node}:${vl}`);
    if (!list) return;
    const dst = this.driver.peerOf({ node, vl });
    const a = this.shadow[node]![vl]!;
    const b = this.shadow[dst.node]![dst.vl]!;
    list.dropBefore(Math.min(a.tx.msg, a.ack.msg, b.rx.msg, b.delivered));
  }

  /**
   * One more packet seen by a cursor on the channel whose source is `src`:
   * emit `kind` for it, then advance.
   */
  private follow(t: number, kind: EventKind, c: Cursor, src: ChannelEnd, node: number, unit: string, port: number): void {
    const m = this.srcMsg(src.node, src.vl, c.msg);
    this.emit(t, kind, m, node, { packet: c.pkt, unit, port });
    if (m && ++c.pkt >= this.packets(m)) {
      c.msg++;
      c.pkt = 0;
    }
  }

  /** The message a source-ordered counter points at on the channel whose *source* is (node, vl). */
  private srcMsg(node: number, vl: number, idx: number): T9000Message | undefined {
    return this.driver.bySource.get(`${node}:${vl}`)?.at(idx);
  }

  onCycle(sim: Simulator): void {
    const t = sim.cycle;
    if (t <= this.lastCycle) {
      this.anomalies.push(`time went back to cycle ${t}: shadow state is no longer valid`);
      this.resync(sim);
    }
    this.lastCycle = t;
    const msgs = this.driver.messages;
    while (this.keepEvents && this.queuedSeen < msgs.length && msgs[this.queuedSeen]!.cycle < t) {
      const m = msgs[this.queuedSeen++]!;
      this.events.push({ t: m.cycle, kind: 'message-queued', msg: m.id, node: m.src.node, unit: 'vlc', port: this.driver.node(m.src.node).cfg.virtualLinks[m.src.vl]!.link });
    }
    const s = sim.s;
    // Index loops, not forEach and for-of: this runs for every endpoint every
    // cycle, and a closure or an iterator per endpoint was garbage each time
    // (docs/kernel.md "Stop 21: allocation and layout").
    const nodes = this.driver.nodes;
    for (let node = 0; node < nodes.length; node++) {
      const ep = nodes[node]!;
      const vlc = ep.vlc;
      if (this.quiet(s, node) && (this.changeDriven ? vlc.sDoneMovedCount() + vlc.rDoneMovedCount() : vlc.visitedCount()) === 0) continue;
      this.onNode(sim, s, t, ep, node);
    }
  }

  /** onCycle at one endpoint where something may have moved. */
  private onNode(sim: Simulator, s: Float64Array, t: number, ep: T9000Endpoint, node: number): void {
    const sh = this.shadow[node]!;
    for (let k = 0; k < ep.tx.length; k++) {
      const tx = ep.tx[k]!;
      const pv = this.prev[node]![k]!;
      const rx = ep.rx[k]!;
      const dp = s[tx.dataPkts.i]!;
      if (dp !== pv.dataPkts) {
        pv.dataPkts = dp;
        const v = s[tx.vl.i]!;
        this.follow(t, 'packet-injected', sh[v]!.tx, { node, vl: v }, node, 'tx', k);
      }
      const ai = s[rx.acksIn.i]!;
      if (ai !== pv.acksIn) {
        pv.acksIn = ai;
        const v = s[rx.rxVl.i]!;
        this.follow(t, 'ack', sh[v]!.ack, { node, vl: v }, node, 'rx', k);
        this.release(node, v);
      }
      const dh = s[rx.dataHdrs.i]!;
      if (dh !== pv.dataHdrs) {
        pv.dataHdrs = dh;
        const v = s[rx.rxVl.i]!;
        pv.hdrPos = { ...sh[v]!.rx };
        this.follow(t, 'head-arrives', sh[v]!.rx, this.driver.peerOf({ node, vl: v }), node, 'rx', k);
      }
      // a packet's end marker is popped at the edge closing this cycle: stamp t + 1. The
      // packet is the one whose header last arrived on this link (over a hunt group the
      // ends of one VL's packets need not come in header order, docs/t9000.md#receive-area);
      // a header decided in this same cycle (EOM right after it) is not counted yet.
      if (s[rx.evEnd.i]! !== 0) {
        const v = s[rx.rxVl.i]!;
        const pos = s[rx.evHdr.i]! !== 0 ? sh[v]!.rx : pv.hdrPos;
        const src = this.driver.peerOf({ node, vl: v });
        if (pos.pkt === 0) this.emit(t + 1, 'first-packet-delivered', this.srcMsg(src.node, src.vl, pos.msg), node, { packet: 0, unit: 'rx', port: k });
      }
    }
    const vlc = ep.vlc;
    const n = this.changeDriven ? this.movedByControl(vlc, sh) : this.movedOnWorkList(vlc, sh);
    const moved = this.moved;
    if (n > 1) sortInPlace(moved, n);
    for (let i = 0; i < n; i++) {
      const v = moved[i]!;
      const w = sh[v]!;
      const sd = vlc.sDone.data[v]!;
      while (w.sDone !== sd) {
        w.sDone = (w.sDone + 1) % 2 ** 24;
        this.driver.onSendDone(node, v, t);
      }
      const rd = vlc.rDone.data[v]!;
      while (w.rDone !== rd) {
        w.rDone = (w.rDone + 1) % 2 ** 24;
        this.deliver(sim, ep, node, v, w, t);
      }
    }
  }

  /**
   * The reference: of the VLs the control visited this cycle (the only ones
   * that can have completed anything; rtl/t9000/vlc.ts, work list), those
   * whose completion counters moved, into `moved`; returns how many. Past
   * saturation nearly every VL has work, so this scans ~24 VLs per endpoint
   * every cycle at 8x8 (docs/kernel.md "Stop 22: harness per cycle").
   */
  private movedOnWorkList(vlc: T9000Endpoint['vlc'], sh: VlShadow[]): number {
    const work = vlc.visitedUnsorted();
    const nWork = vlc.visitedCount();
    const sDone = vlc.sDone.data;
    const rDone = vlc.rDone.data;
    const moved = this.moved;
    let n = 0;
    for (let i = 0; i < nWork; i++) {
      const v = work[i]!;
      const w = sh[v]!;
      if (w.sDone !== sDone[v] || w.rDone !== rDone[v]) moved[n++] = v;
    }
    return n;
  }

  /**
   * The same VLs from the control's own lists of the sDone and rDone words
   * its latest run changed (vlc.sDoneMoved/rDoneMoved): work per completion,
   * not per visited VL. A VL on both lists is taken once (`seen`).
   */
  private movedByControl(vlc: T9000Endpoint['vlc'], sh: VlShadow[]): number {
    const sDone = vlc.sDone.data;
    const rDone = vlc.rDone.data;
    const moved = this.moved;
    const seen = this.seen;
    let n = 0;
    for (let pass = 0; pass < 2; pass++) {
      const list = pass === 0 ? vlc.sDoneMoved : vlc.rDoneMoved;
      const count = pass === 0 ? vlc.sDoneMovedCount() : vlc.rDoneMovedCount();
      for (let i = 0; i < count; i++) {
        const v = list[i]!;
        const w = sh[v]!;
        if (seen[v] === 0 && (w.sDone !== sDone[v] || w.rDone !== rDone[v])) {
          seen[v] = 1;
          moved[n++] = v;
        }
      }
    }
    for (let i = 0; i < n; i++) seen[moved[i]!] = 0;
    return n;
  }

  /** Nothing the per-link part of onCycle reacts to has moved at `node`: its three counters as last seen, no packet end. */
  private quiet(s: Float64Array, node: number): boolean {
    const sl = this.portSlots[node]!;
    const pv = this.prev[node]!;
    for (let k = 0; k < pv.length; k++) {
      const p = pv[k]!;
      const b = 4 * k;
      if (s[sl[b]!] !== p.dataPkts || s[sl[b + 1]!] !== p.acksIn || s[sl[b + 2]!] !== p.dataHdrs || s[sl[b + 3]!] !== 0) return false;
    }
    return true;
  }

  /**
   * After a restore to an earlier cycle: take the counters as they are now,
   * emitting nothing, so the counters that went back are not followed round
   * their whole 24-bit range (which hung the recorder).
   */
  private resync(sim: Simulator): void {
    const s = sim.s;
    this.driver.nodes.forEach((ep, node) => {
      ep.tx.forEach((tx, k) => {
        const pv = this.prev[node]![k]!;
        pv.dataPkts = s[tx.dataPkts.i]!;
        pv.acksIn = s[ep.rx[k]!.acksIn.i]!;
        pv.dataHdrs = s[ep.rx[k]!.dataHdrs.i]!;
      });
      this.shadow[node]!.forEach((w, v) => {
        w.sDone = ep.vlc.sDone.data[v]!;
        w.rDone = ep.vlc.rDone.data[v]!;
      });
    });
  }

  private deliver(sim: Simulator, ep: T9000Endpoint, node: number, v: number, w: VlShadow, t: number): void {
    const src = this.driver.peerOf({ node, vl: v });
    const m = this.srcMsg(src.node, src.vl, w.delivered++);
    const len = sim.peekMem(ep.vlc.rLastLen, v);
    const start = sim.peekMem(ep.vlc.rLastStart, v);
    const cfg = ep.cfg;
    const bytes: number[] = [];
    for (let j = 0; j < len; j++) {
      const slot = (start + Math.floor(j / cfg.packetBytes)) % cfg.rxSlots;
      bytes.push(sim.peekMem(ep.nodeMem.mem, cfg.sendAreaBytes + (v * cfg.rxSlots + slot) * 32 + (j % cfg.packetBytes)));
    }
    this.emit(t, 'message-complete', m, node, { unit: 'vlc', port: cfg.virtualLinks[v]!.link });
    this.summary.delivery(m !== undefined && m.size === len && (m.digest === undefined ? m.data.every((x, j) => x === bytes[j]) : bytesDigest(bytes) === m.digest));
    if (this.keepEvents) this.deliveries.push({ msg: m ? m.id : -1, node, vl: v, bytes, cycle: t });
    this.release(src.node, src.vl);
    this.driver.onDelivered(node, v, t);
  }

  /** Events sorted by time (stable). */
  sorted(): TraceEvent[] {
    return [...this.events].sort((a, b) => a.t - b.t);
  }
}
