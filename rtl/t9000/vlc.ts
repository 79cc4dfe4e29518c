/**
 * Virtual link control (docs/t9000.md#virtual-links): the control blocks of
 * all virtual links of one endpoint and the rules that tie packets to them
 * (seed 004 §3.1.1.1, spec §2):
 *  - a process's sends on a VL are taken in order from the VL's send queue
 *    (the process driver appends to it: memory `sendQ`, register `sendPosted{v}`);
 *    a message of m bytes is cut into packets of at most packetBytes (a 0-byte
 *    message is one empty packet); the last one ends with EOM;
 *  - one outstanding packet per VL: the next packet is queued for the link
 *    only when the previous one's ack has arrived (stop-and-wait);
 *  - a send completes when its last packet's ack arrives (`stream`), or, in
 *    `handshake` mode, when also that packet has left and then
 *    messageOverheadCycles have passed (docs/t9000.md#message-modes);
 *  - a data packet's header that arrives while a receive is waiting
 *    (`recvPosted{v}` > messages delivered) is acked at once; otherwise the
 *    ack is deferred until the process posts its receive;
 *  - a message is delivered when its EOM packet has arrived, every earlier
 *    packet of the VL has ended, and a receive is posted for it. Over a hunt
 *    group several packets of one VL can be arriving at once on different links
 *    (docs/t9000.md#receive-area): a packet's slot is fixed when its header
 *    arrives (header order), ends are marked per slot, and packets retire in
 *    header order (rHead); a header is acked at once only if a receive is surely
 *    posted for its message.
 * Per link it picks (round robin over the VLs, standing for the per-link FIFO
 * of seed §3.1.1.1) at most one ack and one data packet per cycle to push into
 * that link's transmit queues; with ackPriority off at most one of the two.
 *
 * Ports (per link k): from RxPort k evHdr/evAck/evEnd/evEom/evLen/rxVl and to
 * it rxBase; from TxPort k txDone/txDoneVl and to it ackPush/ackEntry/ackVl,
 * dataPush/dataEntry/dataVl.
 *
 * Control blocks in memory (docs/t9000.md#control-blocks; spec §2: "a
 * descriptor in memory per virtual link"): every field of the control blocks
 * is a kernel memory with one word per VL (the receive slots' fields one word
 * per VL and slot), so an endpoint may have up to MAX_VLS of them. A cycle's
 * writes to a field are staged and land at the clock edge, the last one per
 * word winning, as a register's next value would. Harness-facing memories
 * (word v = VL v): sendPosted, recvPosted (poked by the process driver, which
 * then calls `touch(v)`), sDone, rDone (messages completed), rLastStart /
 * rLastLen (slot sequence number and length of the last delivered message),
 * sAckWait, rDefer.
 *
 * Rooms: the control blocks' fields and their staging are
 * rtl/t9000/vlc_fields.ts (one `VlcFields` object per VLC, the state its
 * processes share), the round robin's picks rtl/t9000/vlc_pick.ts (the
 * one-pass rule and the 'scan' reference), the allocation-free sort of
 * `visited()` rtl/t9000/vlc_sort.ts; this file keeps the ports, the work list,
 * the view and the two processes.
 *
 * Work list (speed, not behaviour): only the VLs with something to do are
 * visited in a cycle: those whose control block is not resting, those named
 * by this cycle's link events, and those the driver touched. The list is a
 * cache of the memories: rebuilt from them by a full scan whenever the cycle
 * does not follow the last one seen (reset, restore, fast-forward); a
 * poke into these memories from outside names its block (Memory.onPoke,
 * as the driver's `touch(v)` after its pokes).
 * A VL's block is idle when no send is queued or in progress, no ack is
 * owed or deferred, no completed message waits, and no received packet is
 * unretired. It is resting when it is idle or waits only for a link event
 * (docs/t9000.md#control-blocks "Resting blocks"): no packet to enqueue
 * (sNeedEnq), no handshake hold counting down, no ack owed or deferred, no
 * completed message waiting, no packet unretired, and its send in progress
 * (or none queued), so what it waits for is an ack or a packet's departure
 * (evAck, txDone: link events that name it). Visiting a resting block
 * without an event for it changes nothing. `workList` picks the rule:
 * 'resting' (default), 'idle' (the rule before stop 22) or 'all' (every
 * block every cycle: the reference; test/t9000/work_list.test.ts).
 */
import { Module, type Memory, type Signal } from '../kernel/module.ts';
import { packDataEntry, packEntry, rxAreaBase, VL_BITS, type T9000Config } from './config.ts';
import { ADDR_BITS } from './node_memory.ts';
import { VlcFields } from './vlc_fields.ts';
import { NO_CANDIDATE, VlcPick } from './vlc_pick.ts';
import { sortInPlace } from './vlc_sort.ts';

const C24 = 2 ** 24;

export interface VlcLinkPorts {
  evHdr: Signal;
  evAck: Signal;
  evEnd: Signal;
  evEom: Signal;
  evLen: Signal;
  rxVl: Signal;
  rxBase: Signal;
  sendOutstanding: Signal;
  txDone: Signal;
  txDoneVl: Signal;
  ackPush: Signal;
  ackEntry: Signal;
  ackVl: Signal;
  dataPush: Signal;
  dataEntry: Signal;
  dataVl: Signal;
}

export class VirtualLinkControl extends Module {
  readonly link: VlcLinkPorts[] = [];
  readonly sendQ: Memory;
  readonly sendPosted: Memory;
  readonly recvPosted: Memory;
  readonly sDone: Memory;
  readonly rDone: Memory;
  readonly rLastStart: Memory;
  readonly rLastLen: Memory;
  readonly sAckWait: Memory;
  readonly rDefer: Memory;
  /** Mark VL v as having work (the driver calls it after poking sendPosted/recvPosted). */
  readonly touch: (v: number) => void;
  /** Which blocks a cycle visits (see the header): 'resting' (default), 'idle' or 'all' (the reference). */
  workList: 'resting' | 'idle' | 'all' = 'resting';
  /**
   * How the round robin's picks are found: 'pass' (default), one pass over the
   * work list for every link and both kinds; 'scan', a scan per link and kind
   * (the reference, the rule before stop 23; test/t9000/vlc_pick.test.ts).
   */
  pickRule: 'pass' | 'scan' = 'pass';
  /**
   * A control run with no block on its work list ends after the picks (true,
   * default: it would stage nothing); false: it goes through, the reference
   * (test/t9000/vlc_pick.test.ts).
   */
  skipEmpty = true;
  /** The VLs visited in the latest cycle (a superset of those whose control block changed), ascending; one array reused, valid until the next call. */
  readonly visited: () => readonly number[];
  /** How many VLs the latest cycle visited (visited()'s length, without its sort). */
  readonly visitedCount: () => number;
  /** The same VLs in work-list order, not sorted: the first visitedCount() entries; the list itself, valid until the next cycle. */
  readonly visitedUnsorted: () => Int32Array;
  /**
   * The VLs whose sDone (rDone) the control's latest run changed, in work-list
   * order: the first sDoneMovedCount() (rDoneMovedCount()) entries, valid until
   * its next run. Only that run writes the two counters, so an observer that
   * reads these after every cycle sees every completion without scanning the
   * work list (the event recorder: docs/kernel.md "Stop 22: harness per
   * cycle"). A poke into sDone/rDone is not listed.
   */
  readonly sDoneMoved: Int32Array;
  readonly rDoneMoved: Int32Array;
  readonly sDoneMovedCount: () => number;
  readonly rDoneMovedCount: () => number;

  constructor(parent: Module, name: string, cfg: Readonly<T9000Config>) {
    super(parent, name);
    const V = cfg.virtualLinks.length;
    const L = cfg.links;
    const P = cfg.packetBytes;
    const Q = cfg.sendQueueDepth;
    const SL = cfg.rxSlots;
    const vlLink = cfg.virtualLinks.map((v) => v.link);
    const handshake = cfg.messageMode === 'handshake';
    const overhead = cfg.messageOverheadCycles;
    const noStopAndWait = cfg.fault === 'no-stop-and-wait';
    const eomCompletes = cfg.fault === 'eom-completes';
    const pri = cfg.ackPriority;
    const rxBase0 = Array.from({ length: V }, (_, v) => rxAreaBase(cfg, v));

    this.sendQ = this.memory('sendQ', 32, V * Q);
    const sendQ = this.sendQ;
    // The control blocks' fields, one kernel memory each (rtl/t9000/vlc_fields.ts).
    const blocks = new VlcFields(this, V, SL);
    const { fields, stagedFields, sendPosted, recvPosted, sStarted, sDone, sBusy, sNeedEnq, sAckWait, sTxWait, sLastPkt, sAddr, sLeft, sHold } = blocks;
    const { rDone, rDefer, rAckReq, rEomWait, rInMsg, rSeq, rHead, rPktEnd, rPktEom, rPktLen, rDeferSeq, rMsgStart, rMsgLen, rLastStart, rLastLen } = blocks;
    this.sendPosted = sendPosted.mem;
    this.recvPosted = recvPosted.mem;
    this.sDone = sDone.mem;
    this.rDone = rDone.mem;
    this.rLastStart = rLastStart.mem;
    this.rLastLen = rLastLen.mem;
    this.sAckWait = sAckWait.mem;
    this.rDefer = rDefer.mem;
    const lnkSeq = this.regs('lnkSeq', L, 16); // sequence number of the packet arriving on link k
    const rrAck = this.regs('rrAck', L, VL_BITS);
    const rrData = this.regs('rrData', L, VL_BITS);

    for (let k = 0; k < L; k++) {
      this.link.push({
        evHdr: this.input(`evHdr${k}`),
        evAck: this.input(`evAck${k}`),
        evEnd: this.input(`evEnd${k}`),
        evEom: this.input(`evEom${k}`),
        evLen: this.input(`evLen${k}`, 6),
        rxVl: this.input(`rxVl${k}`, VL_BITS),
        rxBase: this.output(`rxBase${k}`, ADDR_BITS),
        sendOutstanding: this.output(`sendOutstanding${k}`),
        txDone: this.input(`txDone${k}`),
        txDoneVl: this.input(`txDoneVl${k}`, VL_BITS),
        ackPush: this.output(`ackPush${k}`),
        ackEntry: this.output(`ackEntry${k}`, 32),
        ackVl: this.output(`ackVl${k}`, VL_BITS),
        dataPush: this.output(`dataPush${k}`),
        dataEntry: this.output(`dataEntry${k}`, 32),
        dataVl: this.output(`dataVl${k}`, VL_BITS),
      });
    }
    const ports = this.link;
    // Picks per link: VL index + 1, or 0 (wires read by the seq process).
    const ackPick = Array.from({ length: L }, (_, k) => this.wire(`ackPick${k}`, VL_BITS + 1));
    const dataPick = Array.from({ length: L }, (_, k) => this.wire(`dataPick${k}`, VL_BITS + 1));

    // ------------------------------------------------------------------
    // The work list (see the header): act[v] = v is on it.
    const act = new Uint8Array(V);
    const work = new Int32Array(V);
    let nWork = 0;
    let lastCycle = -2;
    const touch = (v: number): void => {
      if (act[v] === 0) {
        act[v] = 1;
        work[nWork++] = v;
      }
    };
    this.touch = (v: number): void => {
      if (!(Number.isInteger(v) && v >= 0 && v < V)) throw new RangeError(`vlc.touch: virtual link ${v} is outside 0..${V - 1}`);
      touch(v);
    };
    const idle = (v: number): boolean =>
      sendPosted.data[v] === sStarted.data[v] &&
      sBusy.data[v] === 0 &&
      sNeedEnq.data[v] === 0 &&
      sAckWait.data[v] === 0 &&
      sTxWait.data[v] === 0 &&
      sHold.data[v] === 0 &&
      rAckReq.data[v] === 0 &&
      rDefer.data[v] === 0 &&
      rEomWait.data[v] === 0 &&
      rSeq.data[v] === rHead.data[v];
    // Resting (the header): waits only for a link event that names it. The fault drops
    // the sHold term (a wrong guard: a handshake hold would stop counting down).
    const holdRests = cfg.fault === 'rest-on-hold';
    const resting = (v: number): boolean =>
      sNeedEnq.data[v] === 0 &&
      (sHold.data[v] === 0 || holdRests) &&
      rAckReq.data[v] === 0 &&
      rDefer.data[v] === 0 &&
      rEomWait.data[v] === 0 &&
      rSeq.data[v] === rHead.data[v] &&
      (sBusy.data[v] !== 0 || sendPosted.data[v] === sStarted.data[v]);
    // A word poked from outside names its block as the driver's `touch` does
    // (the REPL's `poke vlc.sHold[3] 2` has no touch): the next run keeps it
    // on the list unless it rests (docs/kernel.md "Stop 22: review").
    // Words are per block (depth V) or per block and slot (v * per + k).
    for (const m of [sendQ, ...fields.map((f) => f.mem)]) {
      const per = m.depth / V;
      m.onPoke = (addr) => touch(Math.floor(addr / per));
    }
    let lastRule = this.workList;
    /** Whether the rule in force lets v off the list. */
    const off = (v: number): boolean => (this.workList === 'resting' ? resting(v) : this.workList === 'idle' ? idle(v) : false);
    /** Bring the work list up to this cycle: rebuilt after a jump (or a change of rule), pruned of idle (resting) blocks on a new cycle, plus this cycle's link events. */
    const prepare = (): void => {
      const s = this.s;
      const c = this.cycleRef.cycle;
      if ((c !== lastCycle && c !== lastCycle + 1) || this.workList !== lastRule) {
        lastRule = this.workList;
        act.fill(0);
        nWork = 0;
        for (let v = 0; v < V; v++) if (!off(v)) touch(v);
      } else if (c !== lastCycle) {
        let n = 0;
        for (let i = 0; i < nWork; i++) {
          const v = work[i]!;
          if (off(v)) act[v] = 0;
          else work[n++] = v;
        }
        nWork = n;
      }
      lastCycle = c;
      for (let k = 0; k < L; k++) {
        const pt = ports[k]!;
        if (s[pt.evAck.i]! !== 0 || s[pt.evHdr.i]! !== 0 || s[pt.evEnd.i]! !== 0) touch(s[pt.rxVl.i]!);
        if (s[pt.txDone.i]! !== 0) touch(s[pt.txDoneVl.i]!);
      }
    };
    // One array reused (an observer calls this for every endpoint every cycle: docs/kernel.md "Stop 19").
    const vis: number[] = [];
    this.visited = (): readonly number[] => {
      vis.length = nWork;
      for (let k = 0; k < nWork; k++) vis[k] = work[k]!;
      sortInPlace(vis, nWork);
      return vis;
    };
    this.visitedCount = (): number => nWork;
    this.visitedUnsorted = (): Int32Array => work;
    this.sDoneMoved = sDone.changed!;
    this.rDoneMoved = rDone.changed!;
    this.sDoneMovedCount = (): number => sDone.nChanged;
    this.rDoneMovedCount = (): number => rDone.nChanged;

    // ------------------------------------------------------------------
    // This cycle's view, shared by the comb and seq processes (plain scratch
    // arrays rebuilt from the memories and port inputs every time, for the VLs
    // on the work list; both processes see the same inputs in one cycle, so
    // they agree).
    const ackArr = new Int32Array(V); // acks arriving for v
    const txArr = new Int32Array(V); // data packets of v fully handed to the link
    const hdrArr = new Int32Array(V); // data packet headers arriving for v
    const ackWant = new Uint8Array(V); // v wants to send an ack now
    const candKind = new Uint8Array(V); // 0 none, 1 next packet of the current message, 2 first packet of the next message
    const candAddr = new Int32Array(V);
    const candLeft = new Int32Array(V);
    const NONE = NO_CANDIDATE;
    const CONT = 1;
    const NEWMSG = 2;
    const M16 = 2 ** 16;
    /** Receives posted for v and not yet used by a delivered message. */
    const postedAhead = (v: number): number => (recvPosted.data[v]! - rDone.data[v]! + C24) % C24;
    /**
     * A receive is surely posted for the message of a data packet with `before`
     * unretired packets of v ahead of it: each of those may end its message, and a
     * completed message may be waiting for its receive (rEomWait). With nothing
     * ahead this is the one-link rule "a receive is waiting".
     */
    const recvReadyFor = (v: number, before: number): boolean => postedAhead(v) > rEomWait.data[v]! + before;
    const unretired = (v: number): number => (rSeq.data[v]! - rHead.data[v]! + M16) % M16;
    /** The deferred ack of v may go: its packet has retired (its message is the one waiting or done), or enough receives are posted. */
    const deferReady = (v: number): boolean => {
      const d = (rDeferSeq.data[v]! - rHead.data[v]! + M16) % M16;
      return d >= M16 / 2 ? postedAhead(v) > 0 : recvReadyFor(v, d);
    };
    const view = (): void => {
      const s = this.s;
      prepare();
      for (let i = 0; i < nWork; i++) {
        const v = work[i]!;
        ackArr[v] = 0;
        txArr[v] = 0;
        hdrArr[v] = 0;
      }
      for (let k = 0; k < L; k++) {
        const pt = ports[k]!;
        const v = s[pt.rxVl.i]!;
        if (s[pt.evAck.i]! !== 0) ackArr[v]! += 1;
        if (s[pt.evHdr.i]! !== 0) hdrArr[v]! += 1;
        if (s[pt.txDone.i]! !== 0) txArr[s[pt.txDoneVl.i]!]! += 1;
      }
      for (let i = 0; i < nWork; i++) {
        const v = work[i]!;
        ackWant[v] = rAckReq.data[v]! !== 0 || (hdrArr[v]! > 0 && recvReadyFor(v, unretired(v))) || (rDefer.data[v]! !== 0 && deferReady(v)) ? 1 : 0;
        candKind[v] = NONE;
        const queued = sendPosted.data[v]! !== sStarted.data[v]! && sHold.data[v]! === 0;
        const aw = sAckWait.data[v]! - ackArr[v]!;
        if (sBusy.data[v]! === 0) {
          if (queued) candKind[v] = NEWMSG;
        } else if (sNeedEnq.data[v]! !== 0) candKind[v] = CONT;
        else if (sLastPkt.data[v]! === 0) {
          // stop-and-wait: the next packet once the ack is in (the fault: once this packet has left)
          if (sLeft.data[v]! > 0 && (noStopAndWait ? txArr[v]! > 0 : aw === 0 && ackArr[v]! > 0)) candKind[v] = CONT;
        } else if (!handshake && aw === 0 && ackArr[v]! > 0 && queued) candKind[v] = NEWMSG; // the send completes now; the next one starts at once
        if (candKind[v] === CONT) {
          candAddr[v] = sAddr.data[v]!;
          candLeft[v] = sLeft.data[v]!;
        } else if (candKind[v] === NEWMSG) {
          const e = sendQ.data[v * Q + (sStarted.data[v]! % Q)]!;
          candAddr[v] = Math.floor(e / 65536);
          candLeft[v] = e % 65536;
        }
      }
    };
    // Per link, the VL the round robin picks for an ack and for a data packet (rtl/t9000/vlc_pick.ts).
    // The fault: every VL counted as on link 0 (a wrong bucket, for the controls).
    const picker = new VlcPick(V, L, vlLink, cfg.fault === 'pick-one-link');
    const { bestAck, bestData } = picker;
    const pickAll = (): void => picker.pick(this.pickRule, this.s, rrAck, rrData, work, nWork, ackWant, candKind);
    const memories = fields.map((f) => f.mem);
    const ACK_ENTRY = packEntry({ ack: true, last: false, len: 0, addr: 0 });

    this.comb(
      () => {
        const s = this.s;
        view();
        pickAll();
        for (let k = 0; k < L; k++) {
          const pt = ports[k]!;
          const a = bestAck[k]!;
          const d = pri || a < 0 ? bestData[k]! : -1;
          s[ackPick[k]!.i] = a + 1;
          s[dataPick[k]!.i] = d + 1;
          s[pt.ackPush.i] = a >= 0 ? 1 : 0;
          s[pt.ackEntry.i] = a >= 0 ? ACK_ENTRY : 0;
          s[pt.ackVl.i] = a >= 0 ? a : 0;
          s[pt.dataPush.i] = d >= 0 ? 1 : 0;
          s[pt.dataEntry.i] = d >= 0 ? packDataEntry(candLeft[d]! <= P, Math.min(candLeft[d]!, P), candAddr[d]!) : 0;
          s[pt.dataVl.i] = d >= 0 ? d : 0;
        }
      },
      {
        writes: [...ackPick, ...dataPick, ...ports.flatMap((p) => [p.ackPush, p.ackEntry, p.ackVl, p.dataPush, p.dataEntry, p.dataVl])],
        reads: [...rrAck, ...rrData, ...memories, sendQ, ...ports.flatMap((p) => [p.rxVl, p.evAck, p.evHdr, p.evEnd, p.txDone, p.txDoneVl])],
        name: 'pick',
      },
    );
    this.comb(
      () => {
        const s = this.s;
        for (let k = 0; k < L; k++) {
          const v = s[ports[k]!.rxVl.i]!;
          s[ports[k]!.rxBase.i] = v < V ? rxBase0[v]! + 32 * (rSeq.data[v]! % SL) : 0;
          s[ports[k]!.sendOutstanding.i] = v < V && sAckWait.data[v]! > 0 ? 1 : 0;
        }
      },
      { writes: ports.flatMap((p) => [p.rxBase, p.sendOutstanding]), reads: [...ports.map((p) => p.rxVl), rSeq.mem, sAckWait.mem], name: 'rxLookup' },
    );

    const rxSeen = new Int32Array(V);
    const endNow = new Uint8Array(V * SL);
    const hdrNow = new Uint8Array(V);
    const touched = new Int32Array(V * SL); // endNow entries set this cycle
    let nTouched = 0;
    const eomNow = new Uint8Array(V * SL);
    const lenNow = new Uint8Array(V * SL);
    const pickedAck = new Uint8Array(V);
    const pickedData = new Uint8Array(V);
    // The fault: a run with one block on the list ends early too (a wrong guard, for the controls).
    const skipBelow = cfg.fault === 'skip-one-block' ? 1 : 0;
    this.seq(
      () => {
        const s = this.s;
        view();
        for (let i = 0; i < nWork; i++) {
          const v = work[i]!;
          rxSeen[v] = 0;
          pickedAck[v] = 0;
          pickedData[v] = 0;
        }
        for (let k = 0; k < L; k++) {
          const a = s[ackPick[k]!.i]! - 1;
          if (a >= 0) {
            pickedAck[a] = 1;
            s[rrAck[k]!.n] = (a + 1) % V;
          }
          const d = s[dataPick[k]!.i]! - 1;
          if (d >= 0) {
            pickedData[d] = 1;
            s[rrData[k]!.n] = (d + 1) % V;
          }
        }
        // No block on the list: no link event named one (each puts its block on the list),
        // so what follows stages nothing; the run after a real one, woken by its own writes,
        // usually ends here (docs/kernel.md "Stop 23: endpoints per cycle").
        if (this.skipEmpty && nWork <= skipBelow) {
          sDone.nChanged = rDone.nChanged = 0;
          return;
        }
        // receive side: data headers take the next sequence number (header order, fixed
        // slot); ends are marked on their packet's slot; packets retire in header order
        // and a message completes when its EOM packet retires (docs/t9000.md#receive-area)
        for (let k = 0; k < L; k++) {
          const pt = ports[k]!;
          const hdr = s[pt.evHdr.i]! !== 0;
          const end = s[pt.evEnd.i]! !== 0;
          if (!hdr && !end) continue;
          const v = s[pt.rxVl.i]!;
          let q = s[lnkSeq[k]!.i]!;
          if (hdr) {
            if (rxSeen[v]++ > 0) this.fail(`two data headers for virtual link ${v} in one cycle (one outstanding packet per VL)`);
            q = rSeq.data[v]!;
            if (unretired(v) + 1 > SL) this.fail(`virtual link ${v}: more packets in flight than rxSlots (${SL}); docs/t9000.md#receive-area`);
            if (!recvReadyFor(v, unretired(v))) {
              rDefer.set(v, 1); // ack deferred until a receive is posted for its message
              rDeferSeq.set(v, q);
            }
            rSeq.set(v, (q + 1) % M16);
            hdrNow[v] = 1;
            s[lnkSeq[k]!.n] = q;
          }
          if (end) {
            // the fault: the rule before issue 10, a message completes at its EOM even if
            // earlier packets are still arriving (their late ends are then dropped)
            if (eomCompletes && s[pt.evEom.i]! !== 0) {
              for (let p = rHead.data[v]!; p !== q; p = (p + 1) % M16) {
                const j = v * SL + (p % SL);
                if (endNow[j] === 0) touched[nTouched++] = j;
                endNow[j] = 1;
                eomNow[j] = lenNow[j] = 0;
              }
            }
            if ((q - rHead.data[v]! + M16) % M16 >= M16 / 2) continue; // retired already (only under the fault)
            const j = v * SL + (q % SL);
            if (endNow[j] === 0) touched[nTouched++] = j;
            endNow[j] = 1;
            eomNow[j] = s[pt.evEom.i]!;
            lenNow[j] = s[pt.evLen.i]!;
            rPktEnd.set(j, 1);
            rPktEom.set(j, eomNow[j]!);
            rPktLen.set(j, lenNow[j]!);
          }
        }
        for (let i = 0; i < nWork; i++) {
          const v = work[i]!;
          let head = rHead.data[v]!;
          const seqEnd = (rSeq.data[v]! + hdrNow[v]!) % M16; // one past the newest header, this cycle's included
          if (head === seqEnd) continue;
          const posted = postedAhead(v) > 0;
          let inMsg = rInMsg.data[v]! !== 0;
          let start = rMsgStart.data[v]!;
          let msgLen = rMsgLen.data[v]!;
          for (;;) {
            const j = v * SL + (head % SL);
            const ended = endNow[j]! !== 0 || rPktEnd.data[j]! !== 0;
            if (!ended || head === seqEnd) break;
            const eom = endNow[j]! !== 0 ? eomNow[j]! : rPktEom.data[j]!;
            if (eom !== 0 && rEomWait.data[v]! !== 0) break; // one completed message waits for its receive at a time
            if (!inMsg) {
              inMsg = true;
              start = head;
              msgLen = 0;
            }
            msgLen += endNow[j]! !== 0 ? lenNow[j]! : rPktLen.data[j]!;
            rPktEnd.set(j, 0);
            head = (head + 1) % M16;
            if (eom !== 0) {
              inMsg = false;
              rLastLen.set(v, msgLen);
              if (posted) {
                rDone.set(v, (rDone.data[v]! + 1) % C24);
                rLastStart.set(v, start);
              } else rEomWait.set(v, 1); // delivered when the receive is posted
              msgLen = 0;
              break; // at most one message completes per VL per cycle
            }
          }
          rHead.set(v, head);
          rInMsg.set(v, inMsg ? 1 : 0);
          rMsgStart.set(v, start);
          rMsgLen.set(v, msgLen);
        }
        for (let i = 0; i < nTouched; i++) endNow[touched[i]!] = 0;
        nTouched = 0;
        for (let i = 0; i < nWork; i++) {
          const v = work[i]!;
          hdrNow[v] = 0;
          // acks
          if (ackWant[v]) {
            rAckReq.set(v, pickedAck[v] ? 0 : 1);
            rDefer.set(v, 0);
          }
          const rWaiting = recvPosted.data[v]! !== rDone.data[v]!;
          if (rWaiting && rEomWait.data[v]! !== 0) {
            rEomWait.set(v, 0);
            rDone.set(v, (rDone.data[v]! + 1) % C24);
            rLastStart.set(v, rMsgStart.data[v]!);
          }
          // send side
          let aw = sAckWait.data[v]!;
          if (ackArr[v]! > aw) this.fail(`ack for virtual link ${v}, which has no packet outstanding`);
          aw -= ackArr[v]!;
          let txw = sTxWait.data[v]! - txArr[v]!;
          let busy = sBusy.data[v]! !== 0;
          let last = sLastPkt.data[v]! !== 0;
          const hold = sHold.data[v]!;
          if (hold > 0) sHold.set(v, hold - 1);
          const kind = candKind[v]!;
          // a send completes when its last packet's ack is in (handshake: and the packet has left)
          if (busy && last && aw === 0 && sNeedEnq.data[v]! === 0 && (!handshake || txw === 0) && (ackArr[v]! > 0 || txArr[v]! > 0)) {
            busy = false;
            sDone.set(v, (sDone.data[v]! + 1) % C24);
            if (handshake) sHold.set(v, overhead);
          }
          if (kind === NEWMSG) {
            sStarted.set(v, (sStarted.data[v]! + 1) % C24);
            busy = true;
            last = false;
          }
          let addr = candAddr[v]!;
          let left = candLeft[v]!;
          let need = kind !== NONE;
          if (pickedData[v]) {
            const len = Math.min(left, P);
            addr = (addr + len) % 2 ** ADDR_BITS;
            last = left <= P;
            left -= len;
            aw += 1;
            txw += 1;
            need = false;
          }
          sBusy.set(v, busy ? 1 : 0);
          sAckWait.set(v, aw);
          sTxWait.set(v, txw);
          sNeedEnq.set(v, need ? 1 : 0);
          if (kind !== NONE) {
            sAddr.set(v, addr);
            sLeft.set(v, left);
            sLastPkt.set(v, last ? 1 : 0);
          }
        }
        // Only the fields written this cycle (an unwritten field's flush writes nothing); the
        // completion counters' lists of moved words are emptied as its flush would.
        sDone.nChanged = rDone.nChanged = 0;
        for (let i = 0; i < stagedFields.length; i++) stagedFields[i]!.flush();
        stagedFields.length = 0;
      },
      { name: 'control' },
    );
  }
}
