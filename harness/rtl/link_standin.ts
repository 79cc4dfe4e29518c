/**
 * Stand-in for one DS-link end (`DsLinkEnd`, rtl/dslink), with the
 * same ports (rtl/dslink/chars.ts, ports.ts). Kept beside the real link for
 * tests that pin exact cycle counts: its timing has no FCTs or start-up
 * (docs/t9000.md, test/t9000/endpoint.test.ts).
 *
 * What it does: characters taken on txValid/txChar/txReady go through a
 * transmit buffer and leave bit-serially on dOut/sOut with DS encoding
 * (strobe toggles when data does not): a data character as a 10-bit token
 * (P, F = 0, 8 data bits LSB first), EOP as P101 and EOM as P110 (4 bits),
 * so a data byte costs 10 cycles and an end marker 4, as on the real link.
 * The receiving end decodes tokens from dIn/sIn into a receive buffer read
 * through rxValid/rxChar/rxPop.
 *
 * What it ignores: FCT and NULL traffic (no credit flow control, no link
 * start-up: `running` is 1 from reset, idle wires stay still), parity (P is
 * sent as 0 and not checked), errors. Back-pressure is local only: txReady
 * falls when the transmit buffer is full; a receive buffer that would
 * overflow stops the simulation with a unit assertion (there is no FCT to
 * hold the sender back). Bandwidths measured through it therefore follow
 * Eq 4.3 (no FCT cost), not Eqs 4.1/4.2.
 */
import { Module, type Signal } from '../../rtl/kernel/module.ts';
import { Fifo } from '../../rtl/lib/fifo.ts';
import { CHAR_EOM, CHAR_EOP, isData } from '../../rtl/dslink/chars.ts';
import type { DsLinkEndPorts } from '../../rtl/dslink/ports.ts';

export interface LinkStubConfig {
  /** Transmit buffer, characters (1..64). Default 1: the T9000's own queues stand before the link, so an ack waits behind at most one character (docs/t9000.md#transmit-port). */
  txBuffer?: number;
  /** Receive buffer, characters (1..4096). Default 256. */
  rxBuffer?: number;
}

export class LinkStub extends Module implements DsLinkEndPorts {
  readonly txValid: Signal;
  readonly txChar: Signal;
  readonly txReady: Signal;
  readonly rxValid: Signal;
  readonly rxChar: Signal;
  readonly rxPop: Signal;
  readonly running: Signal;
  readonly dOut: Signal;
  readonly sOut: Signal;
  readonly dIn: Signal;
  readonly sIn: Signal;

  constructor(parent: Module | null, name: string, cfg: LinkStubConfig = {}) {
    super(parent, name);
    const txq = new Fifo(this, 'txq', { width: 9, depth: cfg.txBuffer ?? 1 });
    const rxq = new Fifo(this, 'rxq', { width: 9, depth: cfg.rxBuffer ?? 256 });
    const txValid = (this.txValid = this.input('txValid'));
    const txChar = (this.txChar = this.input('txChar', 9));
    const txReady = (this.txReady = this.output('txReady'));
    this.rxValid = this.output('rxValid');
    this.rxChar = this.output('rxChar', 9);
    this.rxPop = this.input('rxPop');
    this.running = this.reg('running', 1, 1);
    const dOut = (this.dOut = this.reg('dOut'));
    const sOut = (this.sOut = this.reg('sOut'));
    const dIn = (this.dIn = this.input('dIn'));
    const sIn = (this.sIn = this.input('sIn'));
    const shBits = this.reg('shBits', 10);
    const shLen = this.reg('shLen', 4);
    const rxPrevD = this.reg('rxPrevD');
    const rxPrevS = this.reg('rxPrevS');
    const rxAcc = this.reg('rxAcc', 10);
    const rxCnt = this.reg('rxCnt', 4);
    const txPush = this.wire('txPush');
    const txPop = this.wire('txPop');
    const rxPush = this.wire('rxPush');
    const rxDin = this.wire('rxDin', 9);

    const txFull = this.wire('txFull');
    const txEmpty = this.wire('txEmpty');
    const txHead = this.wire('txHead', 9);
    const rxEmpty = this.wire('rxEmpty');
    this.connect(txq.full, txFull);
    this.connect(txq.empty, txEmpty);
    this.connect(txq.dout, txHead);
    this.connect(rxq.empty, rxEmpty);
    this.connect(txChar, txq.din);
    this.connect(txPush, txq.push);
    this.connect(txPop, txq.pop);
    this.connect(rxPush, rxq.push);
    this.connect(rxDin, rxq.din);
    this.connect(this.rxPop, rxq.pop);
    this.connect(rxq.dout, this.rxChar);
    this.comb(
      () => {
        const s = this.s;
        s[txReady.i] = s[txFull.i]! === 0 ? 1 : 0;
        s[txPush.i] = s[txValid.i]! !== 0 && s[txFull.i]! === 0 ? 1 : 0;
        s[txPop.i] = s[shLen.i]! === 0 && s[txEmpty.i]! === 0 ? 1 : 0;
      },
      { writes: [txReady, txPush, txPop], reads: [txValid, txFull, txEmpty, shLen], name: 'txFlags' },
    );
    // separate from the transmit side: no combinational path from txValid to rxValid
    this.comb(
      () => {
        this.s[this.rxValid.i] = this.s[rxEmpty.i]! === 0 ? 1 : 0;
      },
      { writes: [this.rxValid], reads: [rxEmpty], name: 'rxFlags' },
    );
    // receive decoder: a bit arrives whenever D or S changes
    this.comb(
      () => {
        const s = this.s;
        const d = s[dIn.i]!;
        let push = 0;
        let ch = 0;
        if (d !== s[rxPrevD.i]! || s[sIn.i]! !== s[rxPrevS.i]!) {
          const c = s[rxCnt.i]! + 1;
          const acc = s[rxAcc.i]! + d * 2 ** (c - 1);
          const ctrl = c >= 2 && (acc & 2) !== 0;
          if (ctrl && c === 4) {
            push = 1;
            ch = acc >> 2 === 0b10 ? CHAR_EOP : CHAR_EOM; // tokenBits: EOP sends 0 then 1, EOM 1 then 0
          } else if (!ctrl && c === 10) {
            push = 1;
            ch = acc >> 2;
          }
        }
        s[rxPush.i] = push;
        s[rxDin.i] = ch;
      },
      { writes: [rxPush, rxDin], reads: [dIn, sIn, rxPrevD, rxPrevS, rxCnt, rxAcc], name: 'decode' },
    );
    this.seq(
      () => {
        const s = this.s;
        // receive
        const d = s[dIn.i]!;
        if (d !== s[rxPrevD.i]! || s[sIn.i]! !== s[rxPrevS.i]!) {
          s[rxPrevD.n] = d;
          s[rxPrevS.n] = s[sIn.i]!;
          const c = s[rxCnt.i]! + 1;
          const acc = s[rxAcc.i]! + d * 2 ** (c - 1);
          if (s[rxPush.i]! !== 0) {
            s[rxCnt.n] = 0;
            s[rxAcc.n] = 0;
          } else {
            s[rxCnt.n] = c;
            s[rxAcc.n] = acc;
          }
        }
        // transmit
        let len = s[shLen.i]!;
        let bits = s[shBits.i]!;
        if (len === 0) {
          if (s[txPop.i]! === 0) return;
          [bits, len] = tokenBits(s[txHead.i]!);
        }
        const b = bits & 1;
        const prevD = s[dOut.i]!;
        s[dOut.n] = b;
        if (b === prevD) s[sOut.n] = s[sOut.i]! ^ 1;
        s[shBits.n] = bits >> 1;
        s[shLen.n] = len - 1;
      },
      { reads: [dIn, sIn, rxPrevD, rxPrevS, rxCnt, rxAcc, rxPush, shLen, shBits, txPop, txHead, dOut, sOut], name: 'serdes' },
    );
  }
}

/**
 * Token bits in transmission order as an integer read LSB first, and the
 * token's length: data = P(0), F(0), d0..d7; EOP = P, 1, 0, 1; EOM = P, 1, 1, 0
 * (spec §16 V2: EOP = P101, EOM = P110 in transmission order).
 */
export function tokenBits(ch: number): [number, number] {
  if (isData(ch)) return [ch << 2, 10];
  if (ch === CHAR_EOP) return [0b1010, 4]; // P=0, F=1, 0, 1 → bit0=0, bit1=1, bit2=0, bit3=1
  if (ch === CHAR_EOM) return [0b0110, 4]; // P=0, F=1, 1, 0
  throw new RangeError(`link stub: character ${ch} is not data, EOP or EOM`);
}
