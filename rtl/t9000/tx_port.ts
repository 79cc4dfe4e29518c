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
 *   queue in    ackPush, ackEntry[32], ackVl[VL_BITS], dataPush, dataEntry[32],
 *               dataVl[VL_BITS] (config.ts packEntry; the VL beside the entry)
 *   link        txValid, txChar[9] (out, combinational), txReady (in): rtl/dslink/chars.ts
 *   memory      rdAddr[20] (register), rdData[8] (in)
 *   done        txDone (register: 1 for the cycle after a data packet's last
 *               character was taken), txDoneVl[VL_BITS]
 * Observation registers: st (IDLE, WAIT, HDR, DATA, END), vl, isAck,
 *   dataPkts / acksSent (counts of packets whose first header character was taken).
 *
 * Side band (`addressing: 'node'`, docs/t9000.md#addressing): in the cycle a
 * packet's first header character is taken, the VL's `peerVl` (the far end's
 * control block) is pushed on the link's side-band lane (rtl/lib/side_band.ts).
 *
 * Timing: an idle packetiser offers the first header character of the
 * queue head in the cycle it sees it (an entry pushed into empty queues is
 * loaded directly and offered one cycle later: txValid depends on registers
 * and queue outputs only, never on this cycle's pushes); WAIT lasts
 * packetStartupCycles (data) or ackDelayCycles (acks), so the first header
 * character is offered exactly that many cycles later than with 0 (on a link
 * end that is ready then; a busy link end's wait overlaps it); then one character
 * per cycle as fast as the link takes them (txReady).
 */
import { Module, type Signal } from '../kernel/module.ts';
import { Fifo } from '../lib/fifo.ts';
import { CHAR_EOM, CHAR_EOP } from '../dslink/chars.ts';
import { unpackEntry, VL_BITS, type T9000Config } from './config.ts';
import { ADDR_BITS } from './node_memory.ts';
import type { SideBandLane } from '../lib/side_band.ts';

export const TX_STATES = ['IDLE', 'WAIT', 'HDR', 'DATA', 'END'] as const;
const IDLE = 0;
const WAIT = 1;
const HDR = 2;
const DATA = 3;
const END = 4;

/** The wires an idle packetiser reads at the head of one queue. */
interface QueueHead {
  readonly empty: Signal;
  readonly dout: Signal;
  readonly doutVl: Signal;
}

export class TxPort extends Module {
  readonly ackPush: Signal;
  readonly ackEntry: Signal;
  readonly ackVl: Signal;
  readonly dataPush: Signal;
  readonly dataEntry: Signal;
  readonly dataVl: Signal;
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
  /** The VL of each queued entry, in step with ackQ / dataQ. */
  readonly ackVlQ: Fifo | null;
  readonly dataVlQ: Fifo;

  constructor(parent: Module, name: string, cfg: Readonly<T9000Config>, lane: SideBandLane | null = null) {
    super(parent, name);
    const V = cfg.virtualLinks.length;
    const S = cfg.headerBytes;
    const headers = cfg.virtualLinks.map((v) => v.header);
    if (cfg.addressing === 'node' && !lane) throw new RangeError(`t9000 ${name}: addressing 'node' needs a side-band lane on every link`);
    const tags = lane ? cfg.virtualLinks.map((v) => v.peerVl ?? 0) : null;
    /** The first header character of a packet of VL v was taken: its tag goes out of band. */
    const tagOut = (v: number): void => {
      if (tags) lane!.push(tags[v]!);
    };
    const pri = cfg.ackPriority;
    const ackQ = (this.ackQ = pri ? new Fifo(this, 'ackQ', { width: 32, depth: V }) : null);
    const dataQ = (this.dataQ = new Fifo(this, 'dataQ', { width: 32, depth: pri ? V : 2 * V }));
    const ackVlQ = (this.ackVlQ = pri ? new Fifo(this, 'ackVlQ', { width: VL_BITS, depth: V }) : null);
    const dataVlQ = (this.dataVlQ = new Fifo(this, 'dataVlQ', { width: VL_BITS, depth: pri ? V : 2 * V }));

    const ackPush = (this.ackPush = this.input('ackPush'));
    const ackEntry = (this.ackEntry = this.input('ackEntry', 32));
    const ackVl = (this.ackVl = this.input('ackVl', VL_BITS));
    const dataPush = (this.dataPush = this.input('dataPush'));
    const dataEntry = (this.dataEntry = this.input('dataEntry', 32));
    const dataVl = (this.dataVl = this.input('dataVl', VL_BITS));
    const txValid = (this.txValid = this.output('txValid'));
    const txChar = (this.txChar = this.output('txChar', 9));
    const txReady = (this.txReady = this.input('txReady'));
    const rdAddr = (this.rdAddr = this.reg('rdAddr', ADDR_BITS));
    const rdData = (this.rdData = this.input('rdData', 8));
    const txDone = (this.txDone = this.reg('txDone'));
    const txDoneVl = (this.txDoneVl = this.reg('txDoneVl', VL_BITS));
    const st = (this.st = this.reg('st', 3, IDLE, { enum: TX_STATES }));
    const cnt = this.reg('cnt', 20);
    const vl = (this.vl = this.reg('vl', VL_BITS));
    const isAck = (this.isAck = this.reg('isAck'));
    const last = this.reg('last');
    const left = this.reg('left', 6);
    const wire = cfg.packetSentAt === 'wire';
    // packetSentAt 'wire': the packetiser marks a data packet's end marker handed over (endSeen, endVl); the drain
    // process waits for the link end's 1-character buffer to free (the marker taken onto the wires), then the
    // marker's 4 bit times, and raises txDone in the first cycle after its last bit
    const endSeen = wire ? this.reg('endSeen') : null;
    const endVl = wire ? this.reg('endVl', VL_BITS) : null;
    const drain = wire ? this.reg('drain', 3) : null;
    const dataPkts = (this.dataPkts = this.reg('dataPkts', 24));
    const acksSent = (this.acksSent = this.reg('acksSent', 24));

    // Queue heads and bypass: an entry pushed into an empty queue while the
    // packetiser is idle is taken straight away (no queue cycle); an idle
    // packetiser offers the entry's first header character in the same cycle.
    const ackHead = ackQ ? this.queueHead('ack') : null;
    const dataHead = this.queueHead('data');
    const ackEmpty = ackHead?.empty ?? null;
    const ackDout = ackHead?.dout ?? null;
    const ackDoutVl = ackHead?.doutVl ?? null;
    const { empty: dataEmpty, dout: dataDout, doutVl: dataDoutVl } = dataHead;
    const popAck = this.wire('popAck');
    const popData = this.wire('popData');
    const ackQPush = this.wire('ackQPush');
    const dataQPush = this.wire('dataQPush');
    const dataQDin = this.wire('dataQDin', 32);
    const dataQVlDin = this.wire('dataQVlDin', VL_BITS);
    const start = this.wire('start');
    const startEntry = this.wire('startEntry', 32);
    const startVl = this.wire('startVl', VL_BITS);
    if (ackQ) this.joinQueue(ackQ, ackVlQ!, ackHead!, { push: ackQPush, din: ackEntry, vlDin: ackVl, pop: popAck });
    this.joinQueue(dataQ, dataVlQ, dataHead, { push: dataQPush, din: dataQDin, vlDin: dataQVlDin, pop: popData });

    // The head of the queue an idle packetiser serves next (registers and queue
    // outputs only, so txValid never depends combinationally on this cycle's
    // pushes, which depend on what the receive side sees this cycle). The link
    // end no longer needs this; it is kept for the measured timing
    // (docs/t9000.md#transmit-port).
    const headGo = this.wire('headGo');
    const headAck = this.wire('headAck');
    const headEntry = this.wire('headEntry', 32);
    const headVl = this.wire('headVl', VL_BITS);
    const startNow = this.wire('startNow');
    this.comb(
      () => {
        const s = this.s;
        let go = 0;
        let fromAck = 0;
        let entry = 0;
        let v = 0;
        if (s[st.i]! === IDLE) {
          if (ackEmpty && s[ackEmpty.i]! === 0) [go, fromAck, entry, v] = [1, 1, s[ackDout!.i]!, s[ackDoutVl!.i]!];
          else if (s[dataEmpty.i]! === 0) [go, entry, v] = [1, s[dataDout.i]!, s[dataDoutVl.i]!];
        }
        s[headGo.i] = go;
        s[headAck.i] = fromAck;
        s[headEntry.i] = entry;
        s[headVl.i] = v;
      },
      { writes: [headGo, headAck, headEntry, headVl], reads: [st, dataEmpty, dataDout, dataDoutVl, ...(ackQ ? [ackEmpty!, ackDout!, ackDoutVl!] : [])], name: 'head' },
    );
    this.comb(
      () => {
        const s = this.s;
        const idle = s[st.i]! === IDLE;
        const aPush = s[ackPush.i]! !== 0;
        const dPush = s[dataPush.i]! !== 0;
        const hg = s[headGo.i]! !== 0;
        let aq = 0;
        let dq = 0;
        let ddin = 0;
        let dvl = 0;
        if (pri) {
          aq = aPush ? 1 : 0;
          dq = dPush ? 1 : 0;
          ddin = s[dataEntry.i]!;
          dvl = s[dataVl.i]!;
        } else {
          if (aPush && dPush) this.fail('ack and data pushed in one cycle into the shared queue (ackPriority off)');
          dq = aPush || dPush ? 1 : 0;
          ddin = aPush ? s[ackEntry.i]! : s[dataEntry.i]!;
          dvl = aPush ? s[ackVl.i]! : s[dataVl.i]!;
        }
        let pa = 0;
        let pd = 0;
        let go = 0;
        let entry = 0;
        let v = 0;
        if (hg) {
          go = 1;
          entry = s[headEntry.i]!;
          v = s[headVl.i]!;
          if (s[headAck.i]! !== 0) pa = 1;
          else pd = 1;
        } else if (idle) {
          // bypass: an entry pushed into empty queues is loaded directly (acks first)
          if (aq) [aq, go, entry, v] = [0, 1, s[ackEntry.i]!, s[ackVl.i]!];
          else if (dq) [dq, go, entry, v] = [0, 1, ddin, dvl];
        }
        s[popAck.i] = pa;
        s[popData.i] = pd;
        s[ackQPush.i] = aq;
        s[dataQPush.i] = dq;
        s[dataQDin.i] = ddin;
        s[dataQVlDin.i] = dvl;
        s[start.i] = go;
        s[startEntry.i] = entry;
        s[startVl.i] = v;
        s[startNow.i] = go;
      },
      {
        writes: [popAck, popData, ackQPush, dataQPush, dataQDin, dataQVlDin, start, startEntry, startVl, startNow],
        reads: [st, ackPush, ackEntry, ackVl, dataPush, dataEntry, dataVl, headGo, headAck, headEntry, headVl],
        name: 'pick',
      },
    );

    const startup = cfg.packetStartupCycles;
    const ackDelay = cfg.ackDelayCycles;
    const waitOf = (e: number): number => (e >= 2 ** 31 ? ackDelay : startup);
    this.comb(
      () => {
        const s = this.s;
        const q = s[st.i]!;
        let ch = 0;
        let v = 1;
        if (q === IDLE) {
          const e = s[startEntry.i]!;
          if (s[start.i]! !== 0 && waitOf(e) === 0) {
            const h = headers[s[startVl.i]!] ?? 0;
            ch = S === 2 ? (h >>> 8) & 0xff : h & 0xff;
          } else v = 0;
        } else if (q === HDR) {
          const h = headers[s[vl.i]!]!;
          ch = S === 2 && s[cnt.i]! === 0 ? (h >>> 8) & 0xff : h & 0xff;
        } else if (q === DATA) ch = s[rdData.i]!;
        else if (q === END) ch = s[isAck.i]! !== 0 || s[last.i]! === 0 ? CHAR_EOP : CHAR_EOM;
        else v = 0;
        s[txValid.i] = v;
        s[txChar.i] = ch;
      },
      { writes: [txValid, txChar], reads: [st, vl, cnt, rdData, isAck, last, start, startEntry, startVl], name: 'char' },
    );

    /** After the last header character: data, or the end marker. */
    const afterHeader = (_s: Float64Array, ack: boolean, left: number): number => (!ack && left > 0 ? DATA : END);
    this.seq(
      () => {
        const s = this.s;
        if (endSeen) {
          if (s[endSeen.i]! !== 0) s[endSeen.n] = 0;
        } else if (s[txDone.i]! !== 0) s[txDone.n] = 0;
        const q = s[st.i]!;
        if (q === IDLE) {
          if (s[start.i]! === 0) return;
          const raw = s[startEntry.i]!;
          const e = unpackEntry(raw);
          const ev = s[startVl.i]!;
          if (ev >= V) this.fail(`queue entry names virtual link ${ev}, outside 0..${V - 1}`);
          s[vl.n] = ev;
          s[isAck.n] = e.ack ? 1 : 0;
          s[last.n] = e.last ? 1 : 0;
          s[left.n] = e.len;
          s[rdAddr.n] = e.addr;
          const wait = waitOf(raw);
          if (wait > 1) {
            // this cycle is the first of the wait: the header is offered `wait` cycles after the cycle it could have gone in
            s[cnt.n] = wait - 1;
            s[st.n] = WAIT;
            return;
          }
          if (wait === 1) {
            s[cnt.n] = 0;
            s[st.n] = HDR;
            return;
          }
          s[cnt.n] = 0;
          s[st.n] = HDR;
          if (s[startNow.i]! === 0 || s[txReady.i]! === 0) return;
          // the first header character went with the start
          tagOut(ev);
          if (e.ack) s[acksSent.n] = (s[acksSent.i]! + 1) % 2 ** 24;
          else s[dataPkts.n] = (s[dataPkts.i]! + 1) % 2 ** 24;
          if (S === 1) s[st.n] = afterHeader(s, e.ack, e.len);
          else s[cnt.n] = 1;
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
            tagOut(s[vl.i]!);
            if (s[isAck.i]! !== 0) s[acksSent.n] = (s[acksSent.i]! + 1) % 2 ** 24;
            else s[dataPkts.n] = (s[dataPkts.i]! + 1) % 2 ** 24;
          }
          if (c + 1 < S) s[cnt.n] = c + 1;
          else {
            s[cnt.n] = 0;
            s[st.n] = afterHeader(s, s[isAck.i]! !== 0, s[left.i]!);
          }
        } else if (q === DATA) {
          s[rdAddr.n] = (s[rdAddr.i]! + 1) % 2 ** ADDR_BITS;
          const l = s[left.i]! - 1;
          s[left.n] = l;
          if (l === 0) s[st.n] = END;
        } else if (q === END) {
          s[st.n] = IDLE;
          if (s[isAck.i]! === 0) {
            if (endSeen) {
              s[endSeen.n] = 1;
              s[endVl!.n] = s[vl.i]!;
            } else {
              s[txDone.n] = 1;
              s[txDoneVl.n] = s[vl.i]!;
            }
          }
        }
      },
      { reads: [start, startEntry, startVl, startNow, txReady, ...(endSeen ? [endSeen] : [txDone]), st, cnt, vl, isAck, last, left, rdAddr, dataPkts, acksSent], name: 'packetiser' },
    );
    if (endSeen && endVl && drain) {
      // drain: 0 idle; 1 the marker waits in the link end's buffer; 4..2 its bits on the wires (LEN_CTL = 4)
      this.seq(
        () => {
          const s = this.s;
          if (s[txDone.i]! !== 0) s[txDone.n] = 0;
          const d = s[drain.i]!;
          if (s[endSeen.i]! !== 0) {
            s[drain.n] = 1;
            s[txDoneVl.n] = s[endVl.i]!;
          } else if (d === 1) {
            if (s[txReady.i]! !== 0) s[drain.n] = 4;
          } else if (d > 1) {
            s[drain.n] = d === 2 ? 0 : d - 1;
            if (d === 2) s[txDone.n] = 1;
          }
        },
        { reads: [endSeen, endVl, drain, txReady, txDone], name: 'drain' },
      );
    }
  }

  /** The head wires of one queue (`ack` or `data`): empty, the entry at the head and its VL. */
  private queueHead(prefix: 'ack' | 'data'): QueueHead {
    return { empty: this.wire(`${prefix}Empty`), dout: this.wire(`${prefix}Dout`, 32), doutVl: this.wire(`${prefix}DoutVl`, VL_BITS) };
  }

  /**
   * One queue is two FIFOs in step (docs/t9000.md#transmit-port): the entries
   * and, beside them, each entry's VL; both are pushed and popped by the same
   * wires, so they hold the same number of places at every cycle.
   */
  private joinQueue(q: Fifo, vlQ: Fifo, head: QueueHead, by: { push: Signal; din: Signal; vlDin: Signal; pop: Signal }): void {
    this.connect(q.empty, head.empty);
    this.connect(q.dout, head.dout);
    this.connect(by.push, q.push);
    this.connect(by.din, q.din);
    this.connect(by.pop, q.pop);
    this.connect(vlQ.dout, head.doutVl);
    this.connect(by.push, vlQ.push);
    this.connect(by.vlDin, vlQ.din);
    this.connect(by.pop, vlQ.pop);
  }
}
