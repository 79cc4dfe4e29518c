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
 * a unit assertion.
 *
 * Ports:
 *   link     rxValid, rxChar[9] (in), rxPop (out, = rxValid)
 *   events   evHdr (a data packet's header has arrived), evAck (an ack),
 *            evEnd (a data packet ended), evEom (…with EOM), evLen[6] (its
 *            data bytes), rxVl[8] (register: the virtual link named by the
 *            header); all combinational, valid in the cycle the character is popped
 *   address  rxBase[16] (in): where the packet's first byte goes, given rxVl
 *   memory   wrEn, wrAddr[16], wrData[8]
 * Observation registers: st (HDR, FIRST, DATA), dataHdrs / acksIn (counts).
 */
import { Module, type Signal } from '../kernel/module.ts';
import { isData, CHAR_EOM, CHAR_EOP } from '../dslink/chars.ts';
import type { T9000Config } from './config.ts';
import { ADDR_BITS } from './node_memory.ts';

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
  readonly rxBase: Signal;
  readonly wrEn: Signal;
  readonly wrAddr: Signal;
  readonly wrData: Signal;
  readonly st: Signal;
  readonly dataHdrs: Signal;
  readonly acksIn: Signal;

  constructor(parent: Module, name: string, cfg: Readonly<T9000Config>) {
    super(parent, name);
    const V = cfg.virtualLinks.length;
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
    const rxVl = (this.rxVl = this.reg('rxVl', 8));
    const rxBase = (this.rxBase = this.input('rxBase', ADDR_BITS));
    const wrEn = (this.wrEn = this.output('wrEn'));
    const wrAddr = (this.wrAddr = this.output('wrAddr', ADDR_BITS));
    const wrData = (this.wrData = this.output('wrData', 8));
    const st = (this.st = this.reg('st', 2, HDR, { enum: RX_STATES }));
    const cnt = this.reg('cnt', 6);
    const hdrAcc = this.reg('hdrAcc', 16);
    const base = this.reg('base', ADDR_BITS);
    const dataHdrs = (this.dataHdrs = this.reg('dataHdrs', 24));
    const acksIn = (this.acksIn = this.reg('acksIn', 24));

    this.comb(
      () => {
        const s = this.s;
        const v = s[rxValid.i]!;
        const ch = s[rxChar.i]!;
        const q = s[st.i]!;
        let hdr = 0;
        let ack = 0;
        let end = 0;
        let eom = 0;
        let len = 0;
        let we = 0;
        let wa = 0;
        if (v !== 0 && q === FIRST) {
          if (ch === CHAR_EOP) ack = 1;
          else {
            hdr = 1;
            if (ch === CHAR_EOM) end = eom = 1;
            else {
              we = 1;
              wa = s[rxBase.i]!;
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
      { writes: [rxPop, evHdr, evAck, evEnd, evEom, evLen, wrEn, wrAddr, wrData], reads: [rxValid, rxChar, st, rxBase, base, cnt], name: 'decode' },
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
          if (h >= V) this.fail(`header ${h} names no virtual link (0..${V - 1})`);
          s[rxVl.n] = h;
          s[cnt.n] = 0;
          s[st.n] = FIRST;
        } else if (q === FIRST) {
          if (ch === CHAR_EOP) {
            s[acksIn.n] = (s[acksIn.i]! + 1) % 2 ** 24;
            s[st.n] = HDR;
            return;
          }
          s[dataHdrs.n] = (s[dataHdrs.i]! + 1) % 2 ** 24;
          if (ch === CHAR_EOM) {
            s[st.n] = HDR;
            return;
          }
          s[base.n] = s[rxBase.i]!;
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
      { reads: [rxValid, rxChar, st, cnt, hdrAcc, rxBase, rxVl, dataHdrs, acksIn], name: 'depacketiser' },
    );
  }
}
