/**
 * Transmit port of one physical link (docs/t9000.md#transmit-port): the
 * link's ack queue and data queue (seed 004 §3.1.1.1: "data and
 * acknowledgement packets are queued separately at each link, and
 * acknowledgements take priority"), and the packetiser that turns the entry
 * at the head into characters for the DS-link end: the header (s bytes, most
 * significant first), the data bytes read from node memory, then EOP, or EOM
 * on the last packet of a message. An ack is header + EOP. A packet, once
 * started, runs to its end: nothing is interleaved with it on this link.
 *
 * With `ackPriority: false` (seed §5.4.4.2 `--noackpri`) acks and data share
 * one FIFO (`dataQ`); the virtual link control then never pushes both in one
 * cycle.
 *
 * Ports:
 *   queue in    ackPush, ackEntry[32], dataPush, dataEntry[32] (config.ts packEntry)
 *   link        txValid, txChar[9] (out, combinational), txReady (in): rtl/dslink/chars.ts
 *   memory      rdAddr[16] (register), rdData[8] (in)
 *   done        txDone (register: 1 for the cycle after a data packet's last
 *               character was taken), txDoneVl[8]
 * Observation registers: st (IDLE, WAIT, HDR, DATA, END), vl, isAck,
 *   dataPkts / acksSent (counts of packets whose first header character was taken).
 *
 * Timing: a queue entry is popped in the cycle IDLE sees it; WAIT lasts
 * packetStartupCycles (data) or ackDelayCycles (acks); then one character
 * per cycle as fast as the link takes them (txReady).
 */
import { Module, type Signal } from '../kernel/module.ts';
import { Fifo } from '../lib/fifo.ts';
import { CHAR_EOM, CHAR_EOP } from '../dslink/chars.ts';
import { unpackEntry, type T9000Config } from './config.ts';
import { ADDR_BITS } from './node_memory.ts';

export const TX_STATES = ['IDLE', 'WAIT', 'HDR', 'DATA', 'END'] as const;
const IDLE = 0;
const WAIT = 1;
const HDR = 2;
const DATA = 3;
const END = 4;

export class TxPort extends Module {
  readonly ackPush: Signal;
  readonly ackEntry: Signal;
  readonly dataPush: Signal;
  readonly dataEntry: Signal;
  readonly txValid: Signal;
  readonly txChar: Signal;
  readonly txReady: Signal;
  readonly rdAddr: Signal;
  readonly rdData: Signal;
  readonly txDone: Signal;
  readonly txDoneVl: Signal;
  readonly st: Signal;
  readonly vl: Signal;
  readonly isAck: Signal;
  readonly dataPkts: Signal;
  readonly acksSent: Signal;
  readonly ackQ: Fifo | null;
  readonly dataQ: Fifo;

  constructor(parent: Module, name: string, cfg: Readonly<T9000Config>) {
    super(parent, name);
    const V = cfg.virtualLinks.length;
    const S = cfg.headerBytes;
    const headers = cfg.virtualLinks.map((v) => v.header);
    const pri = cfg.ackPriority;
    const ackQ = (this.ackQ = pri ? new Fifo(this, 'ackQ', { width: 32, depth: V }) : null);
    const dataQ = (this.dataQ = new Fifo(this, 'dataQ', { width: 32, depth: pri ? V : 2 * V }));

    const ackPush = (this.ackPush = this.input('ackPush'));
    const ackEntry = (this.ackEntry = this.input('ackEntry', 32));
    const dataPush = (this.dataPush = this.input('dataPush'));
    const dataEntry = (this.dataEntry = this.input('dataEntry', 32));
    const txValid = (this.txValid = this.output('txValid'));
    const txChar = (this.txChar = this.output('txChar', 9));
    const txReady = (this.txReady = this.input('txReady'));
    const rdAddr = (this.rdAddr = this.reg('rdAddr', ADDR_BITS));
    const rdData = (this.rdData = this.input('rdData', 8));
    const txDone = (this.txDone = this.reg('txDone'));
    const txDoneVl = (this.txDoneVl = this.reg('txDoneVl', 8));
    const st = (this.st = this.reg('st', 3, IDLE, { enum: TX_STATES }));
    const cnt = this.reg('cnt', 20);
    const vl = (this.vl = this.reg('vl', 8));
    const isAck = (this.isAck = this.reg('isAck'));
    const last = this.reg('last');
    const left = this.reg('left', 6);
    const dataPkts = (this.dataPkts = this.reg('dataPkts', 24));
    const acksSent = (this.acksSent = this.reg('acksSent', 24));

    // queue inputs
    const popAck = this.wire('popAck');
    const popData = this.wire('popData');
    const qPush = this.wire('qPush');
    const qDin = this.wire('qDin', 32);
    if (ackQ) {
      this.connect(ackPush, ackQ.push);
      this.connect(ackEntry, ackQ.din);
      this.connect(popAck, ackQ.pop);
      this.connect(dataPush, qPush);
      this.connect(dataEntry, qDin);
    } else {
      this.comb(
        () => {
          const s = this.s;
          const a = s[ackPush.i]!;
          if (a !== 0 && s[dataPush.i]! !== 0) this.fail('ack and data pushed in one cycle into the shared queue (ackPriority off)');
          s[qPush.i] = a !== 0 || s[dataPush.i]! !== 0 ? 1 : 0;
          s[qDin.i] = a !== 0 ? s[ackEntry.i]! : s[dataEntry.i]!;
        },
        { writes: [qPush, qDin], reads: [ackPush, ackEntry, dataPush, dataEntry], name: 'share' },
      );
    }
    this.connect(qPush, dataQ.push);
    this.connect(qDin, dataQ.din);
    this.connect(popData, dataQ.pop);

    // the queues' outputs, seen through this unit's own wires
    const ackEmpty = ackQ ? this.wire('ackEmpty') : null;
    const ackDout = ackQ ? this.wire('ackDout', 32) : null;
    const dataEmpty = this.wire('dataEmpty');
    const dataDout = this.wire('dataDout', 32);
    if (ackQ) {
      this.connect(ackQ.empty, ackEmpty!);
      this.connect(ackQ.dout, ackDout!);
    }
    this.connect(dataQ.empty, dataEmpty);
    this.connect(dataQ.dout, dataDout);
    this.comb(
      () => {
        const s = this.s;
        const idle = s[st.i]! === IDLE;
        const ackReady = ackEmpty !== null && s[ackEmpty.i]! === 0;
        s[popAck.i] = idle && ackReady ? 1 : 0;
        s[popData.i] = idle && !ackReady && s[dataEmpty.i]! === 0 ? 1 : 0;
      },
      { writes: [popAck, popData], reads: ackEmpty ? [st, ackEmpty, dataEmpty] : [st, dataEmpty], name: 'pick' },
    );

    this.comb(
      () => {
        const s = this.s;
        const q = s[st.i]!;
        let ch = 0;
        let v = 1;
        if (q === HDR) {
          const h = headers[s[vl.i]!]!;
          ch = S === 2 && s[cnt.i]! === 0 ? (h >>> 8) & 0xff : h & 0xff;
        } else if (q === DATA) ch = s[rdData.i]!;
        else if (q === END) ch = s[isAck.i]! !== 0 || s[last.i]! === 0 ? CHAR_EOP : CHAR_EOM;
        else v = 0;
        s[txValid.i] = v;
        s[txChar.i] = ch;
      },
      { writes: [txValid, txChar], reads: [st, vl, cnt, rdData, isAck, last], name: 'char' },
    );

    const startup = cfg.packetStartupCycles;
    const ackDelay = cfg.ackDelayCycles;
    this.seq(
      () => {
        const s = this.s;
        if (s[txDone.i]! !== 0) s[txDone.n] = 0;
        const q = s[st.i]!;
        if (q === IDLE) {
          const src = s[popAck.i]! !== 0 ? ackDout! : s[popData.i]! !== 0 ? dataDout : null;
          if (!src) return;
          const e = unpackEntry(s[src.i]!);
          if (e.vl >= V) this.fail(`queue entry names virtual link ${e.vl}, outside 0..${V - 1}`);
          s[vl.n] = e.vl;
          s[isAck.n] = e.ack ? 1 : 0;
          s[last.n] = e.last ? 1 : 0;
          s[left.n] = e.len;
          s[rdAddr.n] = e.addr;
          const wait = e.ack ? ackDelay : startup;
          s[cnt.n] = wait;
          s[st.n] = wait > 0 ? WAIT : HDR;
          if (wait === 0) s[cnt.n] = 0;
          return;
        }
        if (q === WAIT) {
          const c = s[cnt.i]! - 1;
          s[cnt.n] = c;
          if (c === 0) s[st.n] = HDR;
          return;
        }
        if (s[txReady.i]! === 0) return;
        if (q === HDR) {
          const c = s[cnt.i]!;
          if (c === 0) {
            if (s[isAck.i]! !== 0) s[acksSent.n] = (s[acksSent.i]! + 1) % 2 ** 24;
            else s[dataPkts.n] = (s[dataPkts.i]! + 1) % 2 ** 24;
          }
          if (c + 1 < S) s[cnt.n] = c + 1;
          else {
            s[cnt.n] = 0;
            s[st.n] = s[isAck.i]! === 0 && s[left.i]! > 0 ? DATA : END;
          }
        } else if (q === DATA) {
          s[rdAddr.n] = (s[rdAddr.i]! + 1) % 2 ** ADDR_BITS;
          const l = s[left.i]! - 1;
          s[left.n] = l;
          if (l === 0) s[st.n] = END;
        } else if (q === END) {
          s[st.n] = IDLE;
          if (s[isAck.i]! === 0) {
            s[txDone.n] = 1;
            s[txDoneVl.n] = s[vl.i]!;
          }
        }
      },
      { reads: [popAck, popData, ...(ackDout ? [ackDout] : []), dataDout, txReady, txDone, st, cnt, vl, isAck, last, left, rdAddr, dataPkts, acksSent], name: 'packetiser' },
    );
  }
}
