/**
 * Node input port of the Buzzard communication processor (seed 002 §5.4.5,
 * digest docs/sources.md, buzzard §8.5; interfaces: rtl/buzzard/DESIGN.md
 * "NodeInputPort").
 *
 * Receives packets from crossbar output O_0 (`inBit`) and drives `block`
 * (→ crossbar blocked{0}). It finds the start pattern S1 S0 and every sync
 * Y1 Y0 (stretched 1s allowed: the receiver waits for the 1→0 edge, §8.9
 * item 2), drops the preheader (A5) after latching its L field, and shifts
 * the destination, source and data words into the input shift register; each
 * word is pushed, with its last-word flag in bit 16, into a 17-bit FIFO
 * (DESIGN.md: the flag keeps packet boundaries for the control unit).
 *
 * Parts: the register `isr` (16 bits, MSB first, shifted in from inBit in
 * states PRE and WORD) is the seed's input shift register (serial in,
 * parallel out; a plain register of the controller rather than the lib
 * ShiftRegister, so that on serial lines it can move without a process run,
 * nip_line.ts); the lib Fifo `fifo` (17 bits × cfg.fifoDepth,
 * A14: 16 words) with its occupancy register `count` is the seed's FIFO and
 * FIFO counter ("shared by both sides"). The shift counter and the packet
 * word counter are plain registers `bits` and `words`: the seed's counts
 * (26, 18, "6th through 8th bits") do not fit the 9-bit preheader (A5), so
 * they count field bits and words directly.
 *
 * Controller `state` (enum INPUT_STATES), one transition per received bit:
 *   IDLE   line idle (0). A 1 → START.
 *   START  in the start 1s. A 0 (S0) → PRE, bits ← preheader length.
 *   PRE    preheader bits (§8.5 step 3). On the last one, words ← L
 *          (step 4) → YWAIT (strict, A2) or WORD for the destination.
 *   YWAIT  the first Y1 of a sync is due: the bit must be 1 (else `fail`) → Y1.
 *   Y1     in the sync 1s. A 0 (Y0) → WORD, bits ← 16.
 *   WORD   16 word bits. On the last one the word goes into the FIFO at that
 *          edge (step 5) with last = (words = 0); then → IDLE if it was the
 *          last, else words-1 → YWAIT.
 *
 * Flow control (§8.5 step 2: "The flow control line is wired to the FIFO
 * counter, whenever the counter is below its maximum value, input data flow
 * will be enabled"; §8.9 item 4: it may block at any sync point):
 *
 *     block = (count = fifoDepth) AND state ∈ {IDLE, START, YWAIT, Y1}
 *
 * i.e. the FIFO-full flag, shown only while the port is at a start or sync
 * point — exactly the cycles in which a sender samples hold (DESIGN.md: it
 * samples during S1 and every Y1). It is a function of registers only, so it
 * has register timing: the value in cycle t is what the sender sees in t.
 * Why a word never arrives without room: a word's first bit follows the 0 of
 * an S0/Y0 in cycle t+1, which a sender drives only after seeing hold = 0 in
 * cycle t, when this port was in IDLE/START/YWAIT/Y1 — so count(t) < depth.
 * The only pushes are at the last bit of a word, and none happens between t
 * and that word's own last bit (the words of a packet come one after the
 * other through this state machine; a new packet starts from IDLE); pops
 * only lower the count. So at the push count ≤ count(t) < depth.
 * Since the sender keeps driving 1 while hold is 1, a full FIFO simply
 * stretches the sync: no bit is lost. Before a packet, the crossbar's arbiter
 * withholds the grant while block is 1 (§8.3).
 *
 * Control-unit side: `pop` (in: remove the head word at the clock edge),
 * `dout[16]`, `doutLast` (the head word and its last-word flag), `count`
 * (the FIFO counter), `empty`. A pop while empty is a lib Fifo error.
 */
import { Module, type Signal } from '../kernel/module.ts';
import { Fifo } from '../lib/fifo.ts';
import { type BuzzardConfig, geometry } from './config.ts';
import type { LinkSet } from './link_lines.ts';
import { NipLine } from './nip_line.ts';

/** Controller states (register `state`). */
export const INPUT_STATES = ['IDLE', 'START', 'PRE', 'YWAIT', 'Y1', 'WORD'] as const;
export type InputStateName = (typeof INPUT_STATES)[number];
const IDLE = 0;
const START = 1;
const PRE = 2;
const YWAIT = 3;
const Y1 = 4;
const WORD = 5;

function bitsFor(n: number): number {
  return n <= 1 ? 1 : 32 - Math.clz32(n);
}

export class NodeInputPort extends Module {
  readonly cfg: BuzzardConfig;
  readonly depth: number;
  readonly inBit: Signal;
  readonly block: Signal;
  readonly pop: Signal;
  readonly dout: Signal;
  readonly doutLast: Signal;
  readonly count: Signal;
  readonly empty: Signal;
  readonly state: Signal;
  readonly bits: Signal;
  readonly words: Signal;
  readonly isr: Signal;
  readonly fifo: Fifo;
  /** The receiving end on a cube's serial lines (absent for the unit alone). */
  readonly line: NipLine | null;

  constructor(parent: Module | null, name: string, cfg: BuzzardConfig, links?: LinkSet) {
    super(parent, name);
    this.cfg = cfg;
    const g = geometry(cfg);
    const lb = g.lengthBits;
    const lMask = (1 << lb) - 1;
    const preBits = g.preheaderBits;
    const strict = cfg.strictFraming;
    const depth = (this.depth = cfg.fifoDepth);

    const inBit = (this.inBit = this.input('inBit'));
    const block = (this.block = this.output('block'));
    const pop = (this.pop = this.input('pop'));
    const dout = (this.dout = this.output('dout', 16));
    const doutLast = (this.doutLast = this.output('doutLast'));
    const count = (this.count = this.output('count', bitsFor(depth)));
    const empty = (this.empty = this.output('empty'));
    const state = (this.state = this.reg('state', 3, IDLE, { enum: INPUT_STATES }));
    const bits = (this.bits = this.reg('bits', 5));
    const words = (this.words = this.reg('words', lb));

    // Serial in, parallel out: the seed's input shift register has no serial output.
    const isr = (this.isr = this.reg('isr', 16));
    const fifo = (this.fifo = new Fifo(this, 'fifo', { width: 17, depth }));

    // Wiring to the FIFO.
    const push = this.wire('push');
    const pushData = this.wire('pushData', 17);
    const head = this.wire('head', 17);
    this.connect(push, fifo.push);
    this.connect(pushData, fifo.din);
    this.connect(pop, fifo.pop);
    this.connect(fifo.dout, head);
    this.connect(fifo.count, count);
    this.connect(fifo.empty, empty);
    // The FIFO's full flag (= count at depth), the flow control's guard.
    const full = this.wire('full');
    this.connect(fifo.full, full);

    // `lastBit` = (state = WORD and bits = 1), the cycle of a word's last bit,
    // kept as a register loaded by the controller from its next values: the
    // same value in the same cycle as the comb of the current ones, but it
    // changes twice per word instead of the bit counter's every cycle.
    const lastBit = this.reg('lastBit');
    // Slot indices in the closures (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
    let bitsI = 0, bitsN = 0, blockI = 0, doutI = 0, doutLastI = 0, fullI = 0, headI = 0, inBitI = 0, isrI = 0, isrN = 0, lastBitI = 0, lastBitN = 0, pushI = 0, pushDataI = 0, stateI = 0, stateN = 0, wordsI = 0, wordsN = 0;
    this.whenSlots(() => {
      [bitsI, bitsN, blockI, doutI, doutLastI, fullI, headI, inBitI, isrI, isrN, lastBitI, lastBitN, pushI, pushDataI, stateI, stateN, wordsI, wordsN] = [bits.i, bits.n, block.i, dout.i, doutLast.i, full.i, head.i, inBit.i, isr.i, isr.n, lastBit.i, lastBit.n, push.i, pushData.i, state.i, state.n, words.i, words.n];
    });

    // On a cube's serial lines the controller wakes only at its events and
    // the line bit comes from the crossbar output's tap (nip_line.ts).
    const line = (this.line = links ? new NipLine(this, links, { state, bits, isr, inBit }, { IDLE, START, PRE, YWAIT, Y1, WORD }) : null);

    // Datapath: push a word at its last bit.
    this.comb(
      () => {
        const s = this.s;
        const last = s[lastBitI] === 1;
        s[pushI] = last ? 1 : 0;
        s[pushDataI] = last ? (((s[isrI]! << 1) & 0xffff) | (line ? line.bitNow() : s[inBitI]!)) + (s[wordsI] === 0 ? 65536 : 0) : 0;
      },
      {
        writes: [push, pushData],
        reads: [lastBit, words],
        // Exact sensitivity (docs/kernel.md): the shift register and the line
        // bit matter only in the last bit's cycle, not on every incoming bit.
        readsWhen: [{ when: lastBit, is: [1], reads: [isr, inBit] }],
        name: 'datapath',
      },
    );

    // Flow control: the FIFO counter at its maximum, shown at start/sync points.
    this.comb(
      () => {
        const s = this.s;
        const st = s[stateI]!;
        s[blockI] = s[fullI] === 1 && (st === IDLE || st === START || st === YWAIT || st === Y1) ? 1 : 0;
      },
      // Exact (docs/kernel.md "Stop 19: unit guards"): below a full FIFO the
      // block is 0 in every state, so the state is read only while full (the
      // FIFO's comb flag, count = depth), and a count change below depth
      // (two per word) does not wake it.
      { writes: [block], reads: [full], readsWhen: [{ when: full, is: [1], reads: [state] }], name: 'flow' },
    );

    // Control-unit view of the head word.
    this.comb(
      () => {
        const s = this.s;
        const h = s[headI]!;
        s[doutI] = h & 0xffff;
        s[doutLastI] = h >>> 16;
      },
      { writes: [dout, doutLast], reads: [head], name: 'head' },
    );

    // Controller (§8.5 steps 1–5, counts per A5).
    const proc = this.seq(
      () => {
        const s = this.s;
        if (line) line.before(this.cycleRef.cycle);
        const st = s[stateI]!;
        const b = s[inBitI]!;
        const k = s[bitsI]!;
        if (st === PRE || st === WORD) s[isrN] = ((s[isrI]! << 1) | b) & 0xffff;
        switch (st) {
          case IDLE:
            if (b === 1) s[stateN] = START;
            break;
          case START:
            if (b === 0) {
              s[stateN] = PRE;
              s[bitsN] = preBits;
            }
            break;
          case PRE:
            s[bitsN] = k - 1;
            if (k === 1) {
              s[wordsN] = ((s[isrI]! << 1) | b) & lMask;
              if (strict) s[stateN] = YWAIT;
              else {
                s[stateN] = WORD;
                s[bitsN] = 16;
              }
            }
            break;
          case YWAIT:
            if (b !== 1) this.fail('expected the sync 1 (Y1) after a field, got 0');
            s[stateN] = Y1;
            break;
          case Y1:
            if (b === 0) {
              s[stateN] = WORD;
              s[bitsN] = 16;
            }
            break;
          case WORD:
            s[bitsN] = k - 1;
            if (k === 1) {
              const w = s[wordsI]!;
              if (w === 0) s[stateN] = IDLE;
              else {
                s[wordsN] = w - 1;
                s[stateN] = YWAIT;
              }
            }
            break;
          default:
            this.fail(`bad state ${st}`);
        }
        s[lastBitN] = s[stateN] === WORD && s[bitsN] === 1 ? 1 : 0;
        if (line) line.after(this.cycleRef.cycle);
      },
      // On serial lines the bit, the bit counter and the shift register move
      // between the controller's events without waking it.
      { reads: line ? [state, words] : [state, inBit, bits, words, isr], writes: [state, bits, words, isr, lastBit], name: 'ctl' },
    );
    if (line) line.waker.proc = proc;
  }
}
