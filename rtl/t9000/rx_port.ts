/**
 * Receive port of one physical link (docs/t9000.md#receive-port): takes
 * characters from the DS-link end as they arrive (the T9000 input never
 * blocks: one packet's space is reserved per virtual link, seed 004 §3.1.1.1,
 * §4.2.3), assembles the header (s bytes, most significant first), tells a
 * data packet from an ack by the character after the header (EOP right after
 * the header = an ack; data or EOM = a data packet, EOM alone = an empty
 * last packet, e.g. a 0-byte message), writes data bytes into the virtual
 * link's receive area and reports to the virtual link control.
 *
 * With `addressing: 'virtual-link'` the header is the label of the local
 * virtual link (docs/t9000.md#addressing); a label with no control block is
 * a unit assertion. With `addressing: 'node'` the header names this endpoint
 * and the VL is the packet's side-band tag, taken from the link's side-band
 * lane as the header completes (rtl/lib/side_band.ts); a header with no tag
 * in flight, or a tag naming no control block, is a unit assertion.
 *
 * Early header (docs/t9000.md#acks): when the header names a VL with no
 * packet of its own awaiting an ack (`sendOutstanding` = 0 from the virtual
 * link control), the packet can only be data, so evHdr is raised as the
 * header completes (seed 004 §3.1.1.1: acked "upon receipt of the packet's
 * header"); otherwise at the next character, which tells data from an ack.
 *
 * Ports:
 *   link     rxValid, rxChar[9] (in), rxPop (out, = rxValid)
 *   events   evHdr (a data packet's header has arrived), evAck (an ack),
 *            evEnd (a data packet ended), evEom (…with EOM), evLen[6] (its
 *            data bytes), rxVl[VL_BITS] (register: the virtual link named by the
 *            header, register), curVl[VL_BITS] (the VL events of this cycle are
 *            about: the header being completed, else rxVl); all
 *            combinational, valid in the cycle the character is popped
 *   lookup   rxBase[20] (in): where the packet's first byte goes, for curVl;
 *            sendOutstanding (in): curVl has a packet awaiting its ack
 *   memory   wrEn, wrAddr[16], wrData[8]
 * Observation registers: st (HDR, FIRST, DATA), dataHdrs / acksIn (counts).
 */
import { Module, type Signal } from '../kernel/module.ts';
import { isData, CHAR_EOM, CHAR_EOP } from '../dslink/chars.ts';
import { VL_BITS, type T9000Config } from './config.ts';
import { ADDR_BITS } from './node_memory.ts';
import type { SideBandLane } from '../lib/side_band.ts';

export const RX_STATES = ['HDR', 'FIRST', 'DATA'] as const;
const HDR = 0;
const FIRST = 1;
const DATA = 2;

export class RxPort extends Module {
  readonly rxValid: Signal;
  readonly rxChar: Signal;
  readonly rxPop: Signal;
  readonly evHdr: Signal;
  readonly evAck: Signal;
  readonly evEnd: Signal;
  readonly evEom: Signal;
  readonly evLen: Signal;
  readonly rxVl: Signal;
  readonly curVl: Signal;
  readonly rxBase: Signal;
  readonly sendOutstanding: Signal;
  readonly wrEn: Signal;
  readonly wrAddr: Signal;
  readonly wrData: Signal;
  readonly st: Signal;
  readonly dataHdrs: Signal;
  readonly acksIn: Signal;

  constructor(parent: Module, name: string, cfg: Readonly<T9000Config>, lane: SideBandLane | null = null) {
    super(parent, name);
    const V = cfg.virtualLinks.length;
    if (cfg.addressing === 'node' && !lane) throw new RangeError(`t9000 ${name}: addressing 'node' needs a side-band lane on every link`);
    const byTag = cfg.addressing === 'node' ? lane : null;
    const S = cfg.headerBytes;
    const P = cfg.packetBytes;
    const rxValid = (this.rxValid = this.input('rxValid'));
    const rxChar = (this.rxChar = this.input('rxChar', 9));
    const rxPop = (this.rxPop = this.output('rxPop'));
    const evHdr = (this.evHdr = this.output('evHdr'));
    const evAck = (this.evAck = this.output('evAck'));
    const evEnd = (this.evEnd = this.output('evEnd'));
    const evEom = (this.evEom = this.output('evEom'));
    const evLen = (this.evLen = this.output('evLen', 6));
    const rxVl = (this.rxVl = this.reg('rxVl', VL_BITS));
    const curVl = (this.curVl = this.output('curVl', VL_BITS));
    const rxBase = (this.rxBase = this.input('rxBase', ADDR_BITS));
    const sendOutstanding = (this.sendOutstanding = this.input('sendOutstanding'));
    const hdrDone = this.wire('hdrDone');
    const early = this.reg('early');
    const wrEn = (this.wrEn = this.output('wrEn'));
    const wrAddr = (this.wrAddr = this.output('wrAddr', ADDR_BITS));
    const wrData = (this.wrData = this.output('wrData', 8));
    const st = (this.st = this.reg('st', 2, HDR, { enum: RX_STATES }));
    const cnt = this.reg('cnt', 6);
    const hdrAcc = this.reg('hdrAcc', 16);
    const base = this.reg('base', ADDR_BITS);
    const dataHdrs = (this.dataHdrs = this.reg('dataHdrs', 24));
    const acksIn = (this.acksIn = this.reg('acksIn', 24));

    // the header being completed this cycle, and the VL this cycle's events are about
    this.comb(
      () => {
        const s = this.s;
        let done = 0;
        let vl = s[rxVl.i]!;
        if (s[st.i]! === HDR && s[rxValid.i]! !== 0 && s[cnt.i]! === S - 1 && isData(s[rxChar.i]!)) {
          const h = S === 1 ? s[rxChar.i]! : s[hdrAcc.i]! * 256 + s[rxChar.i]!;
          done = 1;
          const t = byTag ? byTag.peek() : h;
          vl = t >= 0 && t < V ? t : 0;
        }
        s[hdrDone.i] = done;
        s[curVl.i] = vl;
      },
      // Outside HDR the outputs are (0, rxVl) whatever the link brings: the other reads wake it only in HDR
      // (docs/kernel.md "Stop 23: endpoints per cycle"). The fault guards on DATA instead (a wrong guard).
      { writes: [hdrDone, curVl], reads: [st, rxVl], readsWhen: [{ when: st, is: [cfg.fault === 'header-guard-data' ? DATA : HDR], reads: [rxValid, rxChar, cnt, hdrAcc] }], name: 'header' },
    );
    this.comb(
      () => {
        const s = this.s;
        const v = s[rxValid.i]!;
        const ch = s[rxChar.i]!;
        const q = s[st.i]!;
        const wasEarly = s[early.i]! !== 0;
        let hdr = 0;
        let ack = 0;
        let end = 0;
        let eom = 0;
        let len = 0;
        let we = 0;
        let wa = 0;
        if (s[hdrDone.i]! !== 0 && s[sendOutstanding.i]! === 0) hdr = 1;
        else if (v !== 0 && q === FIRST) {
          if (ch === CHAR_EOP) ack = wasEarly ? 0 : 1;
          else {
            hdr = wasEarly ? 0 : 1;
            if (ch === CHAR_EOM) end = eom = 1;
            else {
              we = 1;
              wa = wasEarly ? s[base.i]! : s[rxBase.i]!;
            }
          }
        } else if (v !== 0 && q === DATA) {
          if (isData(ch)) {
            we = 1;
            wa = (s[base.i]! + s[cnt.i]!) % 2 ** ADDR_BITS;
          } else {
            end = 1;
            eom = ch === CHAR_EOM ? 1 : 0;
            len = s[cnt.i]!;
          }
        }
        s[rxPop.i] = v;
        s[evHdr.i] = hdr;
        s[evAck.i] = ack;
        s[evEnd.i] = end;
        s[evEom.i] = eom;
        s[evLen.i] = len;
        s[wrEn.i] = we;
        s[wrAddr.i] = wa;
        s[wrData.i] = we ? ch & 0xff : 0;
      },
      { writes: [rxPop, evHdr, evAck, evEnd, evEom, evLen, wrEn, wrAddr, wrData], reads: [rxValid, rxChar, st, rxBase, base, cnt, hdrDone, sendOutstanding, early], name: 'decode' },
    );

    this.seq(
      () => {
        const s = this.s;
        if (s[rxValid.i]! === 0) return;
        const ch = s[rxChar.i]!;
        const q = s[st.i]!;
        if (q === HDR) {
          if (!isData(ch)) this.fail(`${ch === CHAR_EOP ? 'EOP' : 'EOM'} where a header byte was expected`);
          const c = s[cnt.i]!;
          const h = c === 0 ? ch : s[hdrAcc.i]! * 256 + ch;
          if (c + 1 < S) {
            s[hdrAcc.n] = h;
            s[cnt.n] = c + 1;
            return;
          }
          if (byTag && cfg.nodeHeader >= 0 && h !== cfg.nodeHeader) this.fail(`header ${h} is not this endpoint's node header ${cfg.nodeHeader} (misrouted)`);
          const v = byTag ? byTag.shift() : h;
          if (byTag && v < 0) this.fail(`header ${h} arrived with no side-band tag in flight on this link`);
          if (v >= V) this.fail(`${byTag ? 'side-band tag' : 'header'} ${v} names no virtual link (0..${V - 1})`);
          s[rxVl.n] = v;
          s[cnt.n] = 0;
          s[st.n] = FIRST;
          const e = s[evHdr.i]!;
          s[early.n] = e;
          if (e !== 0) {
            s[dataHdrs.n] = (s[dataHdrs.i]! + 1) % 2 ** 24;
            s[base.n] = s[rxBase.i]!;
          }
        } else if (q === FIRST) {
          const wasEarly = s[early.i]! !== 0;
          s[early.n] = 0;
          if (ch === CHAR_EOP) {
            if (wasEarly) this.fail(`ack on virtual link ${s[rxVl.i]}, which has no packet awaiting one`);
            s[acksIn.n] = (s[acksIn.i]! + 1) % 2 ** 24;
            s[st.n] = HDR;
            return;
          }
          if (!wasEarly) s[dataHdrs.n] = (s[dataHdrs.i]! + 1) % 2 ** 24;
          if (ch === CHAR_EOM) {
            s[st.n] = HDR;
            return;
          }
          if (!wasEarly) s[base.n] = s[rxBase.i]!;
          s[cnt.n] = 1;
          s[st.n] = DATA;
        } else {
          if (isData(ch)) {
            const c = s[cnt.i]!;
            if (c >= P) this.fail(`packet for virtual link ${s[rxVl.i]} longer than ${P} data bytes`);
            s[cnt.n] = c + 1;
          } else {
            s[cnt.n] = 0;
            s[st.n] = HDR;
          }
        }
      },
      { reads: [rxValid, rxChar, st, cnt, hdrAcc, rxBase, rxVl, dataHdrs, acksIn, evHdr, early], name: 'depacketiser' },
    );
  }
}
