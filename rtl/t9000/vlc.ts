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

    /** First VL at or after `from` (cyclically) on link k whose flag is set. */
    const scan = (k: number, from: number, flag: Signal[]): number => {
      const s = this.s;
      for (let j = 0; j < V; j++) {
        const v = (from + j) % V;
        if (vlLink[v] === k && s[flag[v]!.i]! !== 0) return v;
      }
      return -1;
    };
    this.comb(
      () => {
        const s = this.s;
        for (let k = 0; k < L; k++) {
          const pt = ports[k]!;
          const a = scan(k, s[rrAck[k]!.i]!, rAckReq);
          const d = pri || a < 0 ? scan(k, s[rrData[k]!.i]!, sNeedEnq) : -1;
          s[ackPick[k]!.i] = a + 1;
          s[dataPick[k]!.i] = d + 1;
          s[pt.ackPush.i] = a >= 0 ? 1 : 0;
          s[pt.ackEntry.i] = a >= 0 ? packEntry({ ack: true, vl: a, last: false, len: 0, addr: 0 }) : 0;
          s[pt.dataPush.i] = d >= 0 ? 1 : 0;
          if (d >= 0) {
            const left = s[sLeft[d]!.i]!;
            s[pt.dataEntry.i] = packEntry({ ack: false, vl: d, last: left <= P, len: Math.min(left, P), addr: s[sAddr[d]!.i]! });
          } else s[pt.dataEntry.i] = 0;
        }
      },
      {
        writes: [...ackPick, ...dataPick, ...ports.flatMap((p) => [p.ackPush, p.ackEntry, p.dataPush, p.dataEntry])],
        reads: [...rrAck, ...rrData, ...rAckReq, ...sNeedEnq, ...sLeft, ...sAddr],
        name: 'pick',
      },
    );
    this.comb(
      () => {
        const s = this.s;
        for (let k = 0; k < L; k++) {
          const v = s[ports[k]!.rxVl.i]!;
          s[ports[k]!.rxBase.i] = v < V ? rxBase0[v]! + 32 * (s[rSeq[v]!.i]! % SL) : 0;
        }
      },
      { writes: ports.map((p) => p.rxBase), reads: [...ports.map((p) => p.rxVl), ...rSeq], name: 'rxBase' },
    );

    // Per-cycle working copies (plain JS scratch, rebuilt from registers every cycle).
    const ackW = new Int32Array(V);
    const txW = new Int32Array(V);
    const rxSeen = new Int32Array(V);
    const completeRx = (v: number, len: number): void => {
      const s = this.s;
      s[rDone[v]!.n] = (s[rDone[v]!.i]! + 1) % C24;
      s[rLastStart[v]!.n] = s[rMsgStart[v]!.i]!;
      s[rLastLen[v]!.n] = len;
    };
    this.seq(
      () => {
        const s = this.s;
        ackW.fill(0);
        txW.fill(0);
        rxSeen.fill(0);
        // events from the ports
        for (let k = 0; k < L; k++) {
          const pt = ports[k]!;
          if (s[pt.txDone.i]! !== 0) txW[s[pt.txDoneVl.i]!]! += 1;
          if (s[pt.evAck.i]! !== 0) ackW[s[pt.rxVl.i]!]! += 1;
          const hdr = s[pt.evHdr.i]! !== 0;
          const end = s[pt.evEnd.i]! !== 0;
          if (!hdr && !end) continue;
          const v = s[pt.rxVl.i]!;
          if (rxSeen[v]++ > 0) this.fail(`two packet events for virtual link ${v} in one cycle (packets of one VL must arrive in order)`);
          const posted = s[recvPosted[v]!.i]! !== s[rDone[v]!.i]!;
          let msgLen = s[rMsgLen[v]!.i]!;
          let start = s[rMsgStart[v]!.i]!;
          if (hdr) {
            if (posted) s[rAckReq[v]!.n] = 1;
            else s[rDefer[v]!.n] = 1;
            if (s[rInMsg[v]!.i]! === 0) {
              start = s[rSeq[v]!.i]!;
              msgLen = 0;
              s[rMsgStart[v]!.n] = start;
              s[rInMsg[v]!.n] = 1;
            }
            s[rSeq[v]!.n] = (s[rSeq[v]!.i]! + 1) % 2 ** 16;
          }
          if (end) {
            msgLen += s[pt.evLen.i]!;
            s[rMsgLen[v]!.n] = msgLen;
            if (s[pt.evEom.i]! !== 0) {
              s[rInMsg[v]!.n] = 0;
              s[rMsgLen[v]!.n] = 0;
              if (posted) {
                s[rDone[v]!.n] = (s[rDone[v]!.i]! + 1) % C24;
                s[rLastStart[v]!.n] = start;
                s[rLastLen[v]!.n] = msgLen;
              } else {
                s[rEomWait[v]!.n] = 1;
                s[rLastLen[v]!.n] = msgLen; // kept until delivery
                s[rMsgStart[v]!.n] = start;
              }
            }
          } else if (hdr) s[rMsgLen[v]!.n] = msgLen;
        }
        // acks and data leaving this cycle (the picks of the comb process)
        for (let k = 0; k < L; k++) {
          const a = s[ackPick[k]!.i]! - 1;
          if (a >= 0) {
            s[rAckReq[a]!.n] = 0;
            s[rrAck[k]!.n] = (a + 1) % V;
          }
          const d = s[dataPick[k]!.i]! - 1;
          if (d >= 0) {
            const left = s[sLeft[d]!.i]!;
            const len = Math.min(left, P);
            s[sAddr[d]!.n] = (s[sAddr[d]!.i]! + len) % 2 ** ADDR_BITS;
            s[sLeft[d]!.n] = left - len;
            s[sLastPkt[d]!.n] = left <= P ? 1 : 0;
            s[sAckWait[d]!.n] = s[sAckWait[d]!.i]! + 1 - ackW[d]!;
            s[sTxWait[d]!.n] = s[sTxWait[d]!.i]! + 1 - txW[d]!;
            ackW[d] = 0;
            txW[d] = 0;
            // stop-and-wait: the next packet waits for this one's ack
            s[sNeedEnq[d]!.n] = 0;
            s[rrData[k]!.n] = (d + 1) % V;
          }
        }
        // per virtual link
        for (let v = 0; v < V; v++) {
          const rWaiting = s[recvPosted[v]!.i]! !== s[rDone[v]!.i]!;
          if (rWaiting && s[rDefer[v]!.i]! !== 0) {
            s[rDefer[v]!.n] = 0;
            s[rAckReq[v]!.n] = 1;
          }
          if (rWaiting && s[rEomWait[v]!.i]! !== 0) {
            s[rEomWait[v]!.n] = 0;
            completeRx(v, s[rLastLen[v]!.i]!);
          }
          let ackWait = s[sAckWait[v]!.i]!;
          let txWait = s[sTxWait[v]!.i]!;
          if (ackW[v]! > 0) {
            if (ackWait < ackW[v]!) this.fail(`ack for virtual link ${v}, which has no packet outstanding`);
            ackWait -= ackW[v]!;
            s[sAckWait[v]!.n] = ackWait;
          }
          if (txW[v]! > 0) {
            txWait -= txW[v]!;
            s[sTxWait[v]!.n] = txWait;
          }
          const hold = s[sHold[v]!.i]!;
          if (hold > 0) s[sHold[v]!.n] = hold - 1;
          if (s[sBusy[v]!.i]! !== 0) {
            if (s[sNeedEnq[v]!.i]! !== 0) continue;
            // the fault queues the next packet as soon as this one has left, without its ack
            if (noStopAndWait && txW[v]! > 0 && s[sLastPkt[v]!.i]! === 0 && s[sLeft[v]!.i]! > 0) {
              s[sNeedEnq[v]!.n] = 1;
              continue;
            }
            if (ackWait > 0) continue;
            if (s[sLastPkt[v]!.i]! === 0) {
              if (s[sLeft[v]!.i]! > 0 && !noStopAndWait) s[sNeedEnq[v]!.n] = 1;
              continue;
            }
            if (handshake && txWait > 0) continue;
            s[sBusy[v]!.n] = 0;
            s[sDone[v]!.n] = (s[sDone[v]!.i]! + 1) % C24;
            if (handshake) s[sHold[v]!.n] = overhead;
          } else if (hold === 0 && s[sendPosted[v]!.i]! !== s[sStarted[v]!.i]!) {
            const k = s[sStarted[v]!.i]!;
            const e = sendQ.data[v * Q + (k % Q)]!;
            s[sStarted[v]!.n] = (k + 1) % C24;
            s[sBusy[v]!.n] = 1;
            s[sAddr[v]!.n] = Math.floor(e / 65536);
            s[sLeft[v]!.n] = e % 65536;
            s[sLastPkt[v]!.n] = 0;
            s[sNeedEnq[v]!.n] = 1;
          }
        }
      },
      { name: 'control' },
    );
  }
}
