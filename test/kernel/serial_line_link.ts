/**
 * A DS-link-style token link built twice, for the serial-line tests: a
 * bit-by-bit reference (shift registers, one evaluation per bit) and a fast
 * version on a DataStrobeLine with timed wake-ups (two evaluations per token
 * at each end). Both expose the same observable signals:
 *   link.tx.line, link.tx.strobe  the data and strobe wires
 *   link.tx.sent                  data tokens sent
 *   link.rx.token, link.rx.isCtrl the last token received (lsb-first word) and its flag
 *   link.rx.tokens                data tokens received
 *   link.rx.ready                 flow control: the sender sends a data token
 *                                 only while it is 1 (sampled at the last bit
 *                                 of the token before); the testbench pokes it
 * Tokens (lsb first, as DS-link tokens): data = [p, 0, d0..d7] (10 bits),
 * control = [p, 1, c0, c1] (4 bits); NULL = control code 2 here. `p` is the
 * parity of the token's own flag and data bits: a simplification of the
 * DS-link rule (which covers the previous token), enough for a timing test.
 * The link starts at cycle 1: the first token's first bit is on the wire in
 * cycle 1.
 */
import { DataStrobeLine, Module, type ProcessDecl, type Signal, type Simulator } from '../../rtl/kernel/index.ts';

const NULL = 2;

function parity(v: number): number {
  let p = 0;
  for (let x = v; x; x >>>= 1) p ^= x & 1;
  return p;
}
/** The next token: a data token with `byte`, or NULL. Returns [word, length]. */
export function token(byte: number | undefined): [number, number] {
  if (byte === undefined) {
    const body = 1 | (NULL << 1); // flag 1, code
    return [parity(body) | (body << 1), 4];
  }
  const body = byte << 1; // flag 0, data
  return [parity(body) | (body << 1), 10];
}

export interface LinkIo {
  readonly tx: Module & { line: Signal; strobe: Signal; sent: Signal };
  readonly rx: Module & { token: Signal; isCtrl: Signal; tokens: Signal; ready: Signal };
  /** Call once the simulator exists (fast version: attaches the line, schedules the first wake-ups). */
  start(sim: Simulator): void;
}

/** At a token boundary: a data token with the next byte while the receiver is ready, else NULL (flow control). */
function chooseToken(s: Float64Array, idx: Signal, sent: Signal, rdy: Signal, bytes: readonly number[]): [number, number] {
  const k = s[idx.i]!;
  const send = s[rdy.i] === 1 && k < bytes.length;
  if (send) {
    s[idx.n] = k + 1;
    s[sent.n] = s[sent.i]! + 1;
  }
  return token(send ? bytes[k] : undefined);
}

/** What both versions share: the modules, the observable registers and the flow-control wire. */
function shell(parent: Module) {
  const link = new Module(parent, 'link');
  const tx = new Module(link, 'tx') as LinkIo['tx'];
  const rx = new Module(link, 'rx') as LinkIo['rx'];
  const ready = (rx.ready = rx.reg('ready', 1, 1));
  const rdyOut = rx.output('rdy');
  rx.connect(ready, rdyOut);
  const line = (tx.line = tx.reg('line'));
  const strobe = (tx.strobe = tx.reg('strobe'));
  const sent = (tx.sent = tx.reg('sent', 16));
  const rdy = tx.input('rdy');
  return { link, tx, rx, rdyOut, line, strobe, sent, rdy };
}

/** Bit-by-bit reference. */
export function referenceLink(parent: Module, bytes: readonly number[]): LinkIo {
  const { link, tx, rx, rdyOut, line, strobe, sent, rdy } = shell(parent);
  const lineOut = tx.output('lineOut');
  tx.connect(line, lineOut);
  const sr = tx.reg('sr', 10);
  const cnt = tx.reg('cnt', 4);
  const idx = tx.reg('idx', 16);
  tx.seq(() => {
    const s = tx.s;
    const c = s[cnt.i]!;
    let nextBit: number;
    if (c > 1) {
      nextBit = s[sr.i]! & 1;
      s[sr.n] = s[sr.i]! >>> 1;
      s[cnt.n] = c - 1;
    } else {
      // last bit of a token (or link start at cycle 0): choose the next token
      const [w, len] = chooseToken(s, idx, sent, rdy, bytes);
      nextBit = w & 1;
      s[sr.n] = w >>> 1;
      s[cnt.n] = len;
    }
    s[line.n] = nextBit;
    s[strobe.n] = s[strobe.i]! ^ (nextBit === s[line.i] ? 1 : 0);
  });

  const token_ = (rx.token = rx.reg('token', 10));
  const isCtrl = (rx.isCtrl = rx.reg('isCtrl'));
  const tokens = (rx.tokens = rx.reg('tokens', 16));
  const inBit = rx.input('inBit');
  const sh = rx.reg('sh', 10);
  const rcnt = rx.reg('rcnt', 4);
  const rlen = rx.reg('rlen', 4);
  const started = rx.reg('started');
  rx.seq(() => {
    const s = rx.s;
    if (s[started.i] === 0) {
      s[started.n] = 1; // cycle 0: nothing on the wire yet
      return;
    }
    const b = s[inBit.i]!;
    const k = s[rcnt.i]!;
    const v = s[sh.i]! + b * (1 << k);
    const len = k === 1 ? (b ? 4 : 10) : s[rlen.i]!;
    s[rlen.n] = len;
    if (k + 1 === len) {
      s[token_.n] = v;
      s[isCtrl.n] = (v >>> 1) & 1;
      if (((v >>> 1) & 1) === 0) s[tokens.n] = s[tokens.i]! + 1;
      s[sh.n] = 0;
      s[rcnt.n] = 0;
    } else {
      s[sh.n] = v;
      s[rcnt.n] = k + 1;
    }
  });
  link.connect(lineOut, inBit);
  link.connect(rdyOut, rdy);
  return { tx, rx, start: () => {} };
}

/**
 * The same link on a DataStrobeLine with timed wake-ups. `skew` (test-only
 * negative control) posts every token that many cycles late.
 */
export function fastLink(parent: Module, bytes: readonly number[], skew = 0): LinkIo & { wire: DataStrobeLine } {
  // line and strobe are on-demand registers here: the wire's bits at the current cycle.
  const { link, tx, rx, rdyOut, line, strobe, sent, rdy } = shell(parent);
  const wire = new DataStrobeLine('link', 0);
  const idx = tx.reg('idx', 16);
  const txEnd = tx.reg('txEnd', 32); // cycle of the current token's last bit
  // eslint-disable-next-line prefer-const
  let txProc: ProcessDecl;
  txProc = tx.seq(
    () => {
      const s = tx.s;
      const now = tx.cycleRef.cycle;
      if (now !== s[txEnd.i]) return; // acts only at token boundaries (the reference mode runs it every cycle)
      const [w, len] = chooseToken(s, idx, sent, rdy, bytes);
      const end = wire.send(now + 1 + skew, w, len, 'lsb-first') - 1;
      s[txEnd.n] = end;
      tx.wakeAt(txProc, end);
    },
    { reads: [], writes: [sent, idx, txEnd], name: 'tx' },
  );

  const token_ = (rx.token = rx.reg('token', 10));
  const isCtrl = (rx.isCtrl = rx.reg('isCtrl'));
  const tokens = (rx.tokens = rx.reg('tokens', 16));
  const rxStart = rx.reg('rxStart', 32, 1); // first cycle of the token being received
  const rxLen = rx.reg('rxLen', 4);
  // eslint-disable-next-line prefer-const
  let rxProc: ProcessDecl;
  rxProc = rx.seq(
    () => {
      const s = rx.s;
      const now = rx.cycleRef.cycle;
      const st = s[rxStart.i]!;
      if (now === st + 1) {
        // the flag bit: control or data, hence the length
        const len = wire.bitAt(now) ? 4 : 10;
        s[rxLen.n] = len;
        rx.wakeAt(rxProc, st + len - 1);
      } else if (s[rxLen.i] !== 0 && now === st + s[rxLen.i]! - 1) {
        // the last bit: latch the whole token, as the shift register would
        const len = s[rxLen.i]!;
        const v = wire.bits(st, len, 'lsb-first');
        s[token_.n] = v;
        s[isCtrl.n] = (v >>> 1) & 1;
        if (((v >>> 1) & 1) === 0) s[tokens.n] = s[tokens.i]! + 1;
        s[rxStart.n] = st + len;
        s[rxLen.n] = 0;
        rx.wakeAt(rxProc, st + len + 1);
        wire.forget(st); // keep the line's history short
      }
    },
    { reads: [], writes: [token_, isCtrl, tokens, rxStart, rxLen], name: 'rx' },
  );
  link.connect(rdyOut, rdy);
  return {
    tx,
    rx,
    wire,
    start: (sim) => {
      wire.attach(sim, line);
      wire.attachStrobe(sim, strobe);
      wire.encodeFrom(1 + skew);
      tx.wakeAt(txProc, 0);
      rx.wakeAt(rxProc, 2);
    },
  };
}
