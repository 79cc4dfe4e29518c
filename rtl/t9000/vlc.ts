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
 * it rxBase; from TxPort k txDone/txDoneVl and to it ackPush/ackEntry,
 * dataPush/dataEntry. Harness-facing registers per VL v: sendPosted{v},
 * recvPosted{v} (poked by the process driver), sDone{v}, rDone{v} (messages
 * completed), rLastStart{v}/rLastLen{v} (slot sequence number and length of
 * the last delivered message), sAckWait{v}, rDefer{v}.
 */
import { Module, type Memory, type Signal } from '../kernel/module.ts';
import { packEntry, rxAreaBase, type T9000Config } from './config.ts';
import { ADDR_BITS } from './node_memory.ts';

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
  dataPush: Signal;
  dataEntry: Signal;
}

export class VirtualLinkControl extends Module {
  readonly link: VlcLinkPorts[] = [];
  readonly sendQ: Memory;
  readonly sendPosted: Signal[];
  readonly recvPosted: Signal[];
  readonly sDone: Signal[];
  readonly rDone: Signal[];
  readonly rLastStart: Signal[];
  readonly rLastLen: Signal[];
  readonly sAckWait: Signal[];
  readonly rDefer: Signal[];

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
    this.sendPosted = this.regs('sendPosted', V, 24);
    this.recvPosted = this.regs('recvPosted', V, 24);
    const sStarted = this.regs('sStarted', V, 24);
    this.sDone = this.regs('sDone', V, 24);
    const sBusy = this.regs('sBusy', V, 1);
    const sNeedEnq = this.regs('sNeedEnq', V, 1);
    this.sAckWait = this.regs('sAckWait', V, 8);
    const sTxWait = this.regs('sTxWait', V, 8);
    const sLastPkt = this.regs('sLastPkt', V, 1);
    const sAddr = this.regs('sAddr', V, ADDR_BITS);
    const sLeft = this.regs('sLeft', V, 16);
    const sHold = this.regs('sHold', V, 20);
    this.rDone = this.regs('rDone', V, 24);
    this.rDefer = this.regs('rDefer', V, 1);
    const rAckReq = this.regs('rAckReq', V, 1);
    const rEomWait = this.regs('rEomWait', V, 1);
    const rInMsg = this.regs('rInMsg', V, 1);
    const rSeq = this.regs('rSeq', V, 16); // sequence number the next data header of v gets (its slot: rSeq mod rxSlots)
    // Several packets of one VL in flight over a hunt group (docs/t9000.md#receive-area):
    // rHead = oldest packet not yet retired; per slot, whether its packet has ended, with EOM, and its length.
    const rHead = this.regs('rHead', V, 16);
    const rPktEnd = this.regs('rPktEnd', V * SL, 1);
    const rPktEom = this.regs('rPktEom', V * SL, 1);
    const rPktLen = this.regs('rPktLen', V * SL, 6);
    const rDeferSeq = this.regs('rDeferSeq', V, 16); // the packet whose ack rDefer holds back
    const lnkSeq = this.regs('lnkSeq', L, 16); // sequence number of the packet arriving on link k
    const rMsgStart = this.regs('rMsgStart', V, 16);
    const rMsgLen = this.regs('rMsgLen', V, 16);
    this.rLastStart = this.regs('rLastStart', V, 16);
    this.rLastLen = this.regs('rLastLen', V, 16);
    const { sendPosted, recvPosted, sDone, rDone, rLastStart, rLastLen, sAckWait, rDefer } = this;
    const rrAck = this.regs('rrAck', L, 8);
    const rrData = this.regs('rrData', L, 8);

    for (let k = 0; k < L; k++) {
      this.link.push({
        evHdr: this.input(`evHdr${k}`),
        evAck: this.input(`evAck${k}`),
        evEnd: this.input(`evEnd${k}`),
        evEom: this.input(`evEom${k}`),
        evLen: this.input(`evLen${k}`, 6),
        rxVl: this.input(`rxVl${k}`, 8),
        rxBase: this.output(`rxBase${k}`, ADDR_BITS),
        sendOutstanding: this.output(`sendOutstanding${k}`),
        txDone: this.input(`txDone${k}`),
        txDoneVl: this.input(`txDoneVl${k}`, 8),
        ackPush: this.output(`ackPush${k}`),
        ackEntry: this.output(`ackEntry${k}`, 32),
        dataPush: this.output(`dataPush${k}`),
        dataEntry: this.output(`dataEntry${k}`, 32),
      });
    }
    const ports = this.link;
    // Picks per link: VL index + 1, or 0 (wires read by the seq process).
    const ackPick = Array.from({ length: L }, (_, k) => this.wire(`ackPick${k}`, 9));
    const dataPick = Array.from({ length: L }, (_, k) => this.wire(`dataPick${k}`, 9));

    // ------------------------------------------------------------------
    // This cycle's view, shared by the comb and seq processes (plain scratch
    // arrays rebuilt from registers and port inputs every time; both
    // processes see the same inputs in one cycle, so they agree).
    const ackArr = new Int32Array(V); // acks arriving for v
    const txArr = new Int32Array(V); // data packets of v fully handed to the link
    const hdrArr = new Int32Array(V); // data packet headers arriving for v
    const ackWant = new Uint8Array(V); // v wants to send an ack now
    const candKind = new Uint8Array(V); // 0 none, 1 next packet of the current message, 2 first packet of the next message
    const candAddr = new Int32Array(V);
    const candLeft = new Int32Array(V);
    const NONE = 0;
    const CONT = 1;
    const NEWMSG = 2;
    const M16 = 2 ** 16;
    /** Receives posted for v and not yet used by a delivered message. */
    const postedAhead = (v: number): number => (this.s[recvPosted[v]!.i]! - this.s[rDone[v]!.i]! + C24) % C24;
    /**
     * A receive is surely posted for the message of a data packet with `before`
     * unretired packets of v ahead of it: each of those may end its message, and a
     * completed message may be waiting for its receive (rEomWait). With nothing
     * ahead this is the one-link rule "a receive is waiting".
     */
    const recvReadyFor = (v: number, before: number): boolean => postedAhead(v) > s0(rEomWait[v]!) + before;
    const s0 = (r: Signal): number => this.s[r.i]!;
    const unretired = (v: number): number => (s0(rSeq[v]!) - s0(rHead[v]!) + M16) % M16;
    /** The deferred ack of v may go: its packet has retired (its message is the one waiting or done), or enough receives are posted. */
    const deferReady = (v: number): boolean => {
      const d = (s0(rDeferSeq[v]!) - s0(rHead[v]!) + M16) % M16;
      return d >= M16 / 2 ? postedAhead(v) > 0 : recvReadyFor(v, d);
    };
    const view = (): void => {
      const s = this.s;
      ackArr.fill(0);
      txArr.fill(0);
      hdrArr.fill(0);
      for (let k = 0; k < L; k++) {
        const pt = ports[k]!;
        const v = s[pt.rxVl.i]!;
        if (s[pt.evAck.i]! !== 0) ackArr[v]! += 1;
        if (s[pt.evHdr.i]! !== 0) hdrArr[v]! += 1;
        if (s[pt.txDone.i]! !== 0) txArr[s[pt.txDoneVl.i]!]! += 1;
      }
      for (let v = 0; v < V; v++) {
        ackWant[v] = s[rAckReq[v]!.i]! !== 0 || (hdrArr[v]! > 0 && recvReadyFor(v, unretired(v))) || (s[rDefer[v]!.i]! !== 0 && deferReady(v)) ? 1 : 0;
        candKind[v] = NONE;
        const queued = s[sendPosted[v]!.i]! !== s[sStarted[v]!.i]! && s[sHold[v]!.i]! === 0;
        const aw = s[sAckWait[v]!.i]! - ackArr[v]!;
        if (s[sBusy[v]!.i]! === 0) {
          if (queued) candKind[v] = NEWMSG;
        } else if (s[sNeedEnq[v]!.i]! !== 0) candKind[v] = CONT;
        else if (s[sLastPkt[v]!.i]! === 0) {
          // stop-and-wait: the next packet once the ack is in (the fault: once this packet has left)
          if (s[sLeft[v]!.i]! > 0 && (noStopAndWait ? txArr[v]! > 0 : aw === 0 && ackArr[v]! > 0)) candKind[v] = CONT;
        } else if (!handshake && aw === 0 && ackArr[v]! > 0 && queued) candKind[v] = NEWMSG; // the send completes now; the next one starts at once
        if (candKind[v] === CONT) {
          candAddr[v] = s[sAddr[v]!.i]!;
          candLeft[v] = s[sLeft[v]!.i]!;
        } else if (candKind[v] === NEWMSG) {
          const e = sendQ.data[v * Q + (s[sStarted[v]!.i]! % Q)]!;
          candAddr[v] = Math.floor(e / 65536);
          candLeft[v] = e % 65536;
        }
      }
    };
    /** First VL at or after `from` (cyclically) on link k for which `want` holds. */
    const scan = (k: number, from: number, want: (v: number) => boolean): number => {
      for (let j = 0; j < V; j++) {
        const v = (from + j) % V;
        if (vlLink[v] === k && want(v)) return v;
      }
      return -1;
    };
    const wantsAck = (v: number): boolean => ackWant[v] !== 0;
    const wantsData = (v: number): boolean => candKind[v] !== NONE;

    this.comb(
      () => {
        const s = this.s;
        view();
        for (let k = 0; k < L; k++) {
          const pt = ports[k]!;
          const a = scan(k, s[rrAck[k]!.i]!, wantsAck);
          const d = pri || a < 0 ? scan(k, s[rrData[k]!.i]!, wantsData) : -1;
          s[ackPick[k]!.i] = a + 1;
          s[dataPick[k]!.i] = d + 1;
          s[pt.ackPush.i] = a >= 0 ? 1 : 0;
          s[pt.ackEntry.i] = a >= 0 ? packEntry({ ack: true, vl: a, last: false, len: 0, addr: 0 }) : 0;
          s[pt.dataPush.i] = d >= 0 ? 1 : 0;
          s[pt.dataEntry.i] = d >= 0 ? packEntry({ ack: false, vl: d, last: candLeft[d]! <= P, len: Math.min(candLeft[d]!, P), addr: candAddr[d]! }) : 0;
        }
      },
      {
        writes: [...ackPick, ...dataPick, ...ports.flatMap((p) => [p.ackPush, p.ackEntry, p.dataPush, p.dataEntry])],
        reads: [
          ...rrAck, ...rrData, ...rAckReq, ...rDefer, ...rDeferSeq, ...rEomWait, ...rSeq, ...rHead, ...recvPosted, ...rDone, ...sendPosted, ...sStarted, ...sHold, ...sBusy, ...sNeedEnq,
          ...sLastPkt, ...sLeft, ...sAddr, ...sAckWait, sendQ,
          ...ports.flatMap((p) => [p.rxVl, p.evAck, p.evHdr, p.txDone, p.txDoneVl]),
        ],
        name: 'pick',
      },
    );
    this.comb(
      () => {
        const s = this.s;
        for (let k = 0; k < L; k++) {
          const v = s[ports[k]!.rxVl.i]!;
          s[ports[k]!.rxBase.i] = v < V ? rxBase0[v]! + 32 * (s[rSeq[v]!.i]! % SL) : 0;
          s[ports[k]!.sendOutstanding.i] = v < V && s[sAckWait[v]!.i]! > 0 ? 1 : 0;
        }
      },
      { writes: ports.flatMap((p) => [p.rxBase, p.sendOutstanding]), reads: [...ports.map((p) => p.rxVl), ...rSeq, ...sAckWait], name: 'rxLookup' },
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
    this.seq(
      () => {
        const s = this.s;
        view();
        rxSeen.fill(0);
        pickedAck.fill(0);
        pickedData.fill(0);
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
            q = s[rSeq[v]!.i]!;
            if (unretired(v) + 1 > SL) this.fail(`virtual link ${v}: more packets in flight than rxSlots (${SL}); docs/t9000.md#receive-area`);
            if (!recvReadyFor(v, unretired(v))) {
              s[rDefer[v]!.n] = 1; // ack deferred until a receive is posted for its message
              s[rDeferSeq[v]!.n] = q;
            }
            s[rSeq[v]!.n] = (q + 1) % M16;
            hdrNow[v] = 1;
            s[lnkSeq[k]!.n] = q;
          }
          if (end) {
            // the fault: the rule before issue 10, a message completes at its EOM even if
            // earlier packets are still arriving (their late ends are then dropped)
            if (eomCompletes && s[pt.evEom.i]! !== 0) {
              for (let p = s[rHead[v]!.i]!; p !== q; p = (p + 1) % M16) {
                const j = v * SL + (p % SL);
                if (endNow[j] === 0) touched[nTouched++] = j;
                endNow[j] = 1;
                eomNow[j] = lenNow[j] = 0;
              }
            }
            if ((q - s[rHead[v]!.i]! + M16) % M16 >= M16 / 2) continue; // retired already (only under the fault)
            const j = v * SL + (q % SL);
            if (endNow[j] === 0) touched[nTouched++] = j;
            endNow[j] = 1;
            eomNow[j] = s[pt.evEom.i]!;
            lenNow[j] = s[pt.evLen.i]!;
            s[rPktEnd[j]!.n] = 1;
            s[rPktEom[j]!.n] = eomNow[j]!;
            s[rPktLen[j]!.n] = lenNow[j]!;
          }
        }
        for (let v = 0; v < V; v++) {
          let head = s[rHead[v]!.i]!;
          const seqEnd = (s[rSeq[v]!.i]! + hdrNow[v]!) % M16; // one past the newest header, this cycle's included
          if (head === seqEnd) continue;
          const posted = postedAhead(v) > 0;
          let inMsg = s[rInMsg[v]!.i]! !== 0;
          let start = s[rMsgStart[v]!.i]!;
          let msgLen = s[rMsgLen[v]!.i]!;
          for (;;) {
            const j = v * SL + (head % SL);
            const ended = endNow[j]! !== 0 || s[rPktEnd[j]!.i]! !== 0;
            if (!ended || head === seqEnd) break;
            const eom = endNow[j]! !== 0 ? eomNow[j]! : s[rPktEom[j]!.i]!;
            if (eom !== 0 && s[rEomWait[v]!.i]! !== 0) break; // one completed message waits for its receive at a time
            if (!inMsg) {
              inMsg = true;
              start = head;
              msgLen = 0;
            }
            msgLen += endNow[j]! !== 0 ? lenNow[j]! : s[rPktLen[j]!.i]!;
            s[rPktEnd[j]!.n] = 0;
            head = (head + 1) % M16;
            if (eom !== 0) {
              inMsg = false;
              s[rLastLen[v]!.n] = msgLen;
              if (posted) {
                s[rDone[v]!.n] = (s[rDone[v]!.i]! + 1) % C24;
                s[rLastStart[v]!.n] = start;
              } else s[rEomWait[v]!.n] = 1; // delivered when the receive is posted
              msgLen = 0;
              break; // at most one message completes per VL per cycle
            }
          }
          s[rHead[v]!.n] = head;
          s[rInMsg[v]!.n] = inMsg ? 1 : 0;
          s[rMsgStart[v]!.n] = start;
          s[rMsgLen[v]!.n] = msgLen;
        }
        for (let i = 0; i < nTouched; i++) endNow[touched[i]!] = 0;
        nTouched = 0;
        hdrNow.fill(0);
        for (let v = 0; v < V; v++) {
          // acks
          if (ackWant[v]) {
            s[rAckReq[v]!.n] = pickedAck[v] ? 0 : 1;
            s[rDefer[v]!.n] = 0;
          }
          const rWaiting = s[recvPosted[v]!.i]! !== s[rDone[v]!.i]!;
          if (rWaiting && s[rEomWait[v]!.i]! !== 0) {
            s[rEomWait[v]!.n] = 0;
            s[rDone[v]!.n] = (s[rDone[v]!.i]! + 1) % C24;
            s[rLastStart[v]!.n] = s[rMsgStart[v]!.i]!;
          }
          // send side
          let aw = s[sAckWait[v]!.i]!;
          if (ackArr[v]! > aw) this.fail(`ack for virtual link ${v}, which has no packet outstanding`);
          aw -= ackArr[v]!;
          let txw = s[sTxWait[v]!.i]! - txArr[v]!;
          let busy = s[sBusy[v]!.i]! !== 0;
          let last = s[sLastPkt[v]!.i]! !== 0;
          const hold = s[sHold[v]!.i]!;
          if (hold > 0) s[sHold[v]!.n] = hold - 1;
          const kind = candKind[v]!;
          // a send completes when its last packet's ack is in (handshake: and the packet has left)
          if (busy && last && aw === 0 && s[sNeedEnq[v]!.i]! === 0 && (!handshake || txw === 0) && (ackArr[v]! > 0 || txArr[v]! > 0)) {
            busy = false;
            s[sDone[v]!.n] = (s[sDone[v]!.i]! + 1) % C24;
            if (handshake) s[sHold[v]!.n] = overhead;
          }
          if (kind === NEWMSG) {
            s[sStarted[v]!.n] = (s[sStarted[v]!.i]! + 1) % C24;
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
          s[sBusy[v]!.n] = busy ? 1 : 0;
          s[sAckWait[v]!.n] = aw;
          s[sTxWait[v]!.n] = txw;
          s[sNeedEnq[v]!.n] = need ? 1 : 0;
          if (kind !== NONE) {
            s[sAddr[v]!.n] = addr;
            s[sLeft[v]!.n] = left;
            s[sLastPkt[v]!.n] = last ? 1 : 0;
          }
        }
      },
      { name: 'control' },
    );
  }
}
