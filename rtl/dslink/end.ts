/**
 * One end of a DS-link: the port contract of rtl/dslink/chars.ts, built from
 * the units of SpaceWire Light's split (docs/dslink.md#units):
 *
 *   txBuf  (lib Fifo)        transmit buffer, normal characters from the core
 *   tokens (DsTxTokens)      what to send next: FCT > normal > NULL, parity
 *   ser    (DsTxSerialiser)  bits → Data/Strobe wires  (reference mode)
 *   deser  (DsRxDeserialiser) wires → bits → framed tokens, sync, disconnect
 *   dec    (DsRxDecoder)     parity, escape, NULL; checked delivery
 *   credit (DsCredit)        FCT flow control in both directions
 *   fsm    (DsLinkFsm)       link start-up, errors, lost counts, flush
 *   rxBuf  (lib Fifo)        receive buffer, normal characters for the core
 *
 * Contract ports (chars.ts, unchanged): dOut, sOut, dIn, sIn; txValid,
 * txChar[9], txReady; rxValid, rxChar[9], rxPop; running.
 * Added ports:
 *   linkStart (input, only with config linkStart: 'port')
 *   linkState[4] (output, enum LINK_STATES), txCredit (output: credit held),
 *   errCount[16] (output: link errors so far)
 * txReady is also 0 in a named error state and while the transmit buffer is
 * flushed after an error in Run (docs/dslink.md#errors).
 *
 * Flow-through (config flowThrough, docs/dslink.md#flow-through): the glue
 * passes a character past an empty buffer in the same cycle, on both sides:
 * the decoder's character to the core (rxValid, rxChar) and the core's
 * character to the token choice (tokens.txEmpty, tokens.txChar).
 */
import { Module, type Signal } from '../kernel/module.ts';
import { bitsToHold } from '../lib/check.ts';
import { Fifo } from '../lib/fifo.ts';
import { CHAR_BITS } from './chars.ts';
import { checkDsLinkConfig, timing, type DsLinkConfig } from './config.ts';
import { DsCredit } from './credit.ts';
import { DsLinkFsm, LINK_STATES } from './link_fsm.ts';
import { DsRxDecoder } from './rx_decoder.ts';
import { DsRxDeserialiser } from './rx_deserialiser.ts';
import { RX_TOKEN_PORTS } from './rx_token_link.ts';
import { DsTxSerialiser } from './tx_serialiser.ts';
import { DsTxTokens } from './tx_tokens.ts';

export class DsLinkEnd extends Module {
  readonly cfg: DsLinkConfig;
  // contract ports
  readonly dOut: Signal;
  readonly sOut: Signal;
  readonly dIn: Signal;
  readonly sIn: Signal;
  readonly txValid: Signal;
  readonly txChar: Signal;
  readonly txReady: Signal;
  readonly rxValid: Signal;
  readonly rxChar: Signal;
  readonly rxPop: Signal;
  readonly running: Signal;
  // added ports
  readonly linkStart: Signal | null;
  readonly linkState: Signal;
  readonly txCredit: Signal;
  readonly errCount: Signal;
  // units
  readonly txBuf: Fifo;
  readonly rxBuf: Fifo;
  readonly tokens: DsTxTokens;
  readonly ser: DsTxSerialiser;
  readonly deser: DsRxDeserialiser;
  readonly dec: DsRxDecoder;
  readonly credit: DsCredit;
  readonly fsm: DsLinkFsm;

  constructor(parent: Module | null, name: string, config: Partial<DsLinkConfig> = {}) {
    super(parent, name);
    const cfg = (this.cfg = checkDsLinkConfig(config));
    const tm = timing(cfg);

    const dOut = (this.dOut = this.output('dOut'));
    const sOut = (this.sOut = this.output('sOut'));
    const dIn = (this.dIn = this.input('dIn'));
    const sIn = (this.sIn = this.input('sIn'));
    const txValid = (this.txValid = this.input('txValid'));
    const txChar = (this.txChar = this.input('txChar', CHAR_BITS));
    const txReady = (this.txReady = this.output('txReady'));
    const rxValid = (this.rxValid = this.output('rxValid'));
    const rxChar = (this.rxChar = this.output('rxChar', CHAR_BITS));
    const rxPop = (this.rxPop = this.input('rxPop'));
    const running = (this.running = this.output('running'));
    this.linkStart = cfg.linkStart === 'port' ? this.input('linkStart') : null;
    const linkState = (this.linkState = this.output('linkState', 4, { enum: LINK_STATES }));
    const txCredit = (this.txCredit = this.output('txCredit', bitsToHold(cfg.creditCap)));
    const errCount = (this.errCount = this.output('errCount', 16));
    const flow = cfg.flowThrough;
    // Without flow-through the push/pop/valid glue is folded into the FIFOs
    // (rtl/lib/fifo.ts; docs/kernel.md "Stop 21: FIFOs and C104 per token"):
    // four combs that ran twice per character are gone. Their outputs are
    // registers written by their clock edges (registeredOut: docs/kernel.md
    // "Stop 22: FIFOs and C104"), so their `out` combs are gone too.
    const txBuf = (this.txBuf = new Fifo(this, 'txBuf', { width: CHAR_BITS, depth: cfg.txBufferTokens, pushEnable: !flow, popOr: !flow, registeredOut: !flow }));
    const rxBuf = (this.rxBuf = new Fifo(this, 'rxBuf', { width: CHAR_BITS, depth: cfg.rxBufferTokens, pushEnable: !flow, valid: !flow, registeredOut: !flow }));
    const tokens = (this.tokens = new DsTxTokens(this, 'tokens', { ignoreCredit: cfg.ignoreCredit, runIdle: cfg.runIdle }));
    const ser = (this.ser = new DsTxSerialiser(this, 'ser'));
    const deser = (this.deser = new DsRxDeserialiser(this, 'deser', { disconnectCycles: tm.disconnectCycles, flow: cfg.flowThrough }));
    const quietRun = cfg.runIdle !== 'nulls';
    const dec = (this.dec = new DsRxDecoder(this, 'dec', { checkParity: cfg.checkParity, handover: cfg.rxHandover, nullPairs: quietRun, flow }));
    const credit = (this.credit = new DsCredit(this, 'credit', { rxDepth: cfg.rxBufferTokens, creditCap: cfg.creditCap }));
    // Woken on take's rise; the serialiser wakes them while take stays 1 (docs/kernel.md "Stop 21: token layer").
    ser.holdWake.push(tokens.advanceProc, credit.countProc);
    const fsm = (this.fsm = new DsLinkFsm(this, 'fsm', { timing: tm, txDepth: cfg.txBufferTokens, autoStart: cfg.autoStart, quietRun }));

    // wires
    this.connect(ser.data, dOut);
    this.connect(ser.strobe, sOut);
    this.connect(dIn, deser.dIn);
    this.connect(sIn, deser.sIn);
    // transmit: core → txBuf → tokens → ser
    this.connect(txChar, txBuf.din);
    if (!flow) {
      // push = txValid and txReady; pop = sendNormal or flushPop.
      this.connect(txValid, txBuf.push);
      this.connect(txReady, txBuf.pushEn!);
      this.connect(tokens.sendNormal, txBuf.pop);
      this.connect(fsm.flushPop, txBuf.pop2!);
      this.connect(txBuf.empty, tokens.txEmpty);
      this.connect(txBuf.dout, tokens.txChar);
    }
    this.connect(ser.take, tokens.take);
    this.connect(tokens.tokBits, ser.tokBits);
    this.connect(tokens.tokLen, ser.tokLen);
    this.connect(fsm.txEnable, ser.enable);
    this.connect(fsm.txEnable, tokens.enable);
    this.connect(fsm.fctAllowed, tokens.fctAllowed);
    this.connect(fsm.run, tokens.run);
    this.connect(credit.fctOwed, tokens.fctOwed);
    this.connect(credit.creditOk, tokens.creditOk);
    // receive: deser → dec → rxBuf → core
    this.connect(fsm.rxEnable, deser.enable);
    this.connect(fsm.rxEnable, dec.enable);
    for (const [k] of RX_TOKEN_PORTS) this.connect(deser.out[k], dec.in[k]);
    this.connect(dec.char, rxBuf.din);
    if (!flow) {
      // push = gotChar and rxAccept; rxValid = not empty.
      this.connect(dec.gotChar, rxBuf.push);
      this.connect(credit.rxAccept, rxBuf.pushEn!);
      this.connect(rxPop, rxBuf.pop);
      this.connect(rxBuf.dout, rxChar);
      this.connect(rxBuf.valid!, rxValid);
    }
    // credit
    this.connect(fsm.creditClear, credit.clear);
    this.connect(dec.gotFct, credit.gotFct);
    this.connect(dec.gotChar, credit.gotChar);
    this.connect(tokens.sendFct, credit.sendFct);
    this.connect(tokens.sendNormal, credit.sendNormal);
    this.connect(rxBuf.count, credit.rxCount);
    // link state machine
    if (this.linkStart) this.connect(this.linkStart, fsm.linkStart);
    else this.tie(fsm.linkStart, 1);
    this.connect(dec.gotNull, fsm.gotNull);
    this.connect(dec.gotFct, fsm.gotFct);
    this.connect(dec.gotChar, fsm.gotChar);
    this.connect(deser.disc, fsm.disc);
    if (dec.nullPair && fsm.nullPair) this.connect(dec.nullPair, fsm.nullPair);
    this.connect(dec.errParity, fsm.errParity);
    this.connect(dec.errEscape, fsm.errEscape);
    this.connect(credit.errCredit, fsm.errCredit);
    this.connect(credit.errOverrun, fsm.errOverrun);
    this.connect(txBuf.count, fsm.txCount);
    this.connect(tokens.normalOnWire, fsm.normalOnWire);
    this.connect(ser.left, fsm.serLeft);
    this.connect(dec.pendKind, fsm.pendKind);
    this.connect(fsm.running, running);
    this.connect(fsm.state, linkState);
    this.connect(credit.txCredit, txCredit);
    this.connect(fsm.errCount, errCount);

    // Glue logic sees the units' status through wires of its own.
    const w = (sig: Signal, nm: string): Signal => {
      const x = this.wire(nm, sig.width);
      this.connect(sig, x);
      return x;
    };
    const txFull = w(txBuf.full, 'txFull');
    const txBlock = w(fsm.txBlock, 'txBlock');
    // One process per glue output, each reading only what that output
    // depends on: a process reading txValid and writing txReady or rxValid
    // makes a core whose txValid depends on those elaborate as a false
    // combinational loop (docs/dslink.md#units).
    const glue = (out: Signal, reads: Signal[], f: (s: Float64Array) => number): void =>
      this.comb(() => void (this.s[out.i] = f(this.s)), { writes: [out], reads, name: out.name });
    glue(txReady, [txFull, txBlock], (s) => (s[txFull.i] === 0 && s[txBlock.i] === 0 ? 1 : 0));
    if (flow) {
      const txPush = this.wire('txPush');
      const txPop = this.wire('txPop');
      const rxPush = this.wire('rxPush');
      this.connect(txPush, txBuf.push);
      this.connect(txPop, txBuf.pop);
      this.connect(rxPush, rxBuf.push);
      const sendNormal = w(tokens.sendNormal, 'sendNormal');
      const flushPop = w(fsm.flushPop, 'flushPop');
      const gotChar = w(dec.gotChar, 'gotChar');
      const rxAccept = w(credit.rxAccept, 'rxAccept');
      const rxEmpty = w(rxBuf.empty, 'rxEmpty');
      // Flow-through glue (docs/dslink.md#flow-through). Transmit: with the
      // buffer empty, the core's character is the token choice's head and, when
      // sent at once, is not pushed.
      const txEmpty = w(txBuf.empty, 'txEmpty');
      const txHead = w(txBuf.dout, 'txHead');
      const offer = (s: Float64Array): boolean => s[txValid.i] === 1 && s[txBlock.i] === 0;
      /** A glue wire of our own driving a unit's input (a process may write only its module's signals). */
      const into = (input: Signal, nm: string): Signal => {
        const x = this.wire(nm, input.width);
        this.connect(x, input);
        return x;
      };
      glue(into(tokens.txEmpty, 'tokEmpty'), [txEmpty, txValid, txBlock], (s) => (s[txEmpty.i] === 1 && !offer(s) ? 1 : 0));
      glue(into(tokens.txChar, 'tokChar'), [txEmpty, txHead, txChar], (s) => (s[txEmpty.i] === 1 ? s[txChar.i]! : s[txHead.i]!));
      glue(txPush, [txFull, txBlock, txValid, txEmpty, sendNormal], (s) => (s[txFull.i] === 0 && offer(s) && !(s[txEmpty.i] === 1 && s[sendNormal.i] === 1) ? 1 : 0));
      glue(txPop, [sendNormal, flushPop, txEmpty], (s) => ((s[sendNormal.i] === 1 && s[txEmpty.i] === 0) || s[flushPop.i] === 1 ? 1 : 0));
      // Receive: with the buffer empty, the decoder's character is offered to
      // the core at once and, when popped at once, is not pushed.
      const decChar = w(dec.char, 'decChar');
      const rxHead = w(rxBuf.dout, 'rxHead');
      const arriving = (s: Float64Array): boolean => s[gotChar.i] === 1 && s[rxAccept.i] === 1;
      glue(rxValid, [rxEmpty, gotChar, rxAccept], (s) => (s[rxEmpty.i] === 0 || arriving(s) ? 1 : 0));
      glue(rxChar, [rxEmpty, rxHead, decChar], (s) => (s[rxEmpty.i] === 1 ? s[decChar.i]! : s[rxHead.i]!));
      glue(into(rxBuf.pop, 'rxBufPop'), [rxPop, rxEmpty], (s) => (s[rxPop.i] === 1 && s[rxEmpty.i] === 0 ? 1 : 0));
      glue(rxPush, [gotChar, rxAccept, rxEmpty, rxPop], (s) => (arriving(s) && !(s[rxEmpty.i] === 1 && s[rxPop.i] === 1) ? 1 : 0));
    }

    // NULL trains (null_train.ts): an enable change hands the values of
    // either direction through this end back before any process reads them.
    const txOn = w(fsm.txEnable, 'txOn');
    const rxOn = w(fsm.rxEnable, 'rxOn');
    const watch = this.wire('trainWatch', 2);
    this.comb(
      () => {
        this.ser.txTrain?.thaw();
        this.dec.rxTrain?.thaw();
        this.ser.tokTrain?.thaw();
        this.deser.tokTrain?.thaw();
        this.s[watch.i] = this.s[txOn.i]! + 2 * this.s[rxOn.i]!;
      },
      { writes: [watch], reads: [txOn, rxOn], name: 'trainWatch' },
    );
  }

  /** The NULL train this end sends (if joined to another DsLinkEnd) provides its values on demand. */
  override onElaborated(): void {
    const train = this.ser.txTrain;
    if (train) {
      train.bind();
      this.wakeSink!.addOnDemand(train);
    }
    const tt = this.ser.tokTrain;
    if (tt) {
      tt.bind();
      this.wakeSink!.addOnDemand(tt);
    }
  }
}
