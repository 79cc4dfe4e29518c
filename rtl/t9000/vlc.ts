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
 *  - a message is delivered when its EOM packet has arrived and a receive is
 *    posted for it.
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
    const rInFlight = this.regs('rInFlight', V, 8); // data packets whose header is in and whose end is not
    const rSeq = this.regs('rSeq', V, 16);
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
        const rWaiting = s[recvPosted[v]!.i]! !== s[rDone[v]!.i]!;
        ackWant[v] = s[rAckReq[v]!.i]! !== 0 || (rWaiting && (hdrArr[v]! > 0 || s[rDefer[v]!.i]! !== 0)) ? 1 : 0;
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
          ...rrAck, ...rrData, ...rAckReq, ...rDefer, ...recvPosted, ...rDone, ...sendPosted, ...sStarted, ...sHold, ...sBusy, ...sNeedEnq,
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
        // receive side: packets arriving
        for (let k = 0; k < L; k++) {
          const pt = ports[k]!;
          const hdr = s[pt.evHdr.i]! !== 0;
          const end = s[pt.evEnd.i]! !== 0;
          if (!hdr && !end) continue;
          const v = s[pt.rxVl.i]!;
          if (rxSeen[v]++ > 0) this.fail(`two packet events for virtual link ${v} in one cycle (packets of one VL must arrive in order)`);
          const posted = s[recvPosted[v]!.i]! !== s[rDone[v]!.i]!;
          let msgLen = s[rMsgLen[v]!.i]!;
          let start = s[rMsgStart[v]!.i]!;
          // packets of one VL must end in the order their headers came (one path);
          // overtaking over a hunt group is not modelled: stop loudly rather than mis-assemble
          const inFlight = s[rInFlight[v]!.i]! + (hdr ? 1 : 0) - (end ? 1 : 0);
          s[rInFlight[v]!.n] = inFlight;
          if (end && s[pt.evEom.i]! !== 0 && inFlight !== 0) {
            this.fail(`virtual link ${v}: a message's last packet ended while another of its packets was still arriving (packets overtook each other; docs/t9000.md#receive-area)`);
          }
          if (hdr) {
            if (!posted) s[rDefer[v]!.n] = 1; // ack deferred until a receive is posted
            if (s[rInMsg[v]!.i]! === 0) {
              start = s[rSeq[v]!.i]!;
              msgLen = 0;
              s[rMsgStart[v]!.n] = start;
              s[rInMsg[v]!.n] = 1;
            }
            s[rSeq[v]!.n] = (s[rSeq[v]!.i]! + 1) % 2 ** 16;
            s[rMsgLen[v]!.n] = msgLen;
          }
          if (end) {
            msgLen += s[pt.evLen.i]!;
            s[rMsgLen[v]!.n] = msgLen;
            if (s[pt.evEom.i]! !== 0) {
              s[rInMsg[v]!.n] = 0;
              s[rMsgLen[v]!.n] = 0;
              s[rLastLen[v]!.n] = msgLen;
              s[rMsgStart[v]!.n] = start;
              if (posted) {
                s[rDone[v]!.n] = (s[rDone[v]!.i]! + 1) % C24;
                s[rLastStart[v]!.n] = start;
              } else s[rEomWait[v]!.n] = 1; // delivered when the receive is posted
            }
          }
        }
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
