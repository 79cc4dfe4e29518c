/**
 * Node output port of the Buzzard communication processor (seed 002 §5.4.4,
 * digest docs/sources.md, buzzard §8.4; interfaces: rtl/buzzard/DESIGN.md
 * "NodeOutputPort: slot j").
 *
 * n buffer slots, slot j (1..n) belonging to link j: it requests only
 * crossbar output O_j (A4), so all n slots may transmit at once. Every slot is
 * built from plain registers (not the lib ShiftRegister/Counter: one clocked
 * process per slot decides every load, shift and count in one place, as the
 * seed's slot controller does; the lib units would need a comb decode of the
 * same FSM):
 *
 *   pf{j}[32]        prefetch buffer (§8.4 "prefetch buffer (up to 32 bits)")
 *   pfAvail{j}       prefetch data available flag (a register; an output)
 *   refill{j}        prefetch refill request flag (a register; an output)
 *   cnt{j}[6]        counter: data bits of the current chunk still to shift
 *   cntLoad{j}[6]    counter load register: 25 (26 for 64-byte packets) /
 *                    32 / 16, latched from pfCount{j} with the prefetch
 *   sr{j}[32]        output shift register, MSB first; a chunk of k bits is
 *                    left-aligned when loaded, so the MSB is the next data bit
 *   hdr{j}[25|26]    header copy register: the packet head (preheader +
 *                    destination) kept for the retry after a refusal
 *   words{j}[L]      words still to send after the current one (from the L
 *                    field of the head the slot sends)
 *   state{j}[4]      slot controller FSM, enum SLOT_STATES
 *   pktDone{j}, refused{j}   one-cycle pulses (registers)
 *
 * Prefetch data layout (control-unit side, DESIGN.md): a head is
 * pfCount = 25 (26) with the preheader in bits 24..16 (25..16) and the
 * destination in bits 15..0; a 32-bit chunk carries the first word to send in
 * bits 31..16 and the second in 15..0; a 16-bit chunk carries its word in
 * bits 15..0.
 *
 * Slot FSM (one state per kind of bit on the line; `xout` is a mux of
 * registers: 1 in S1/PY1/Y1, the shift register MSB in PRE/DEST/DATA, else 0;
 * DESIGN.md "a bit driven from a register in cycle t is sampled by the
 * receiver at the end of cycle t"):
 *   IDLE  line 0. Step 1 (§8.4): pfAvail with a head → load sr and cnt from
 *         the prefetch and cntLoad, copy the head into hdr, words ← L, clear
 *         pfAvail and refill → ARB. (A data chunk here is a control-unit
 *         error: `fail`.)
 *   ARB   xreq{j} = bit j (arbitrate once per packet, A12). xgnt in cycle g →
 *         S1 from g+1 (lib crossbar: connected at the end of g).
 *   S1    line 1 (start). hold sampled: 1 → another S1 (stretch), 0 → S0.
 *   S0    line 0 → PRE.
 *   PRE   preheader bits (cnt 25..17): shift, cnt-1. Refusal point when not
 *         strict: the last preheader bit (cnt = 17) of a contrary packet with
 *         hold = 1 → abort. Else → PY1 (strict) or DEST.
 *   PY1   strict only (A2): post-preheader sync 1. Contrary and hold → abort
 *         (the refusal point); otherwise hold stretches it; → PY0.
 *   PY0   line 0 → DEST.
 *   DEST  destination bits (cnt 16..1). After the last: L = 0 ends the packet,
 *         else → Y1.
 *   Y1    sync 1 before every word after the destination. If the chunk is
 *         used up (cnt = 0) and pfAvail, the prefetch is moved in now. Leaves
 *         for Y0 when hold = 0 and data is there (cnt ≠ 0 or pfAvail): hold
 *         stretches it (§8.9 item 2), and so does a prefetch underrun (§8.9
 *         item 6, A12).
 *   Y0    line 0 → DATA.
 *   DATA  word bits; a word ends at cnt = 17 or cnt = 1. At a chunk end
 *         (cnt = 1) the next chunk is moved in at the same edge if pfAvail.
 *         The packet's last word ends it (step 5): xrelease{j} high during
 *         its last bit, pktDone{j} pulses in the next cycle, and the slot
 *         returns to step 1 at that same edge (a waiting head → ARB).
 * Abort (contrary refusal, DESIGN.md "Contrary refusal", §8.4 step 3):
 *   xrelease{j} is high in the refusal-point cycle (so the line is 0 from the
 *   next cycle), refused{j} pulses in the next cycle, sr/cnt/words are
 *   reloaded from the header copy and the slot goes back to ARB: it
 *   re-requests O_j from the next cycle; the crossbar grants only once the
 *   refusing receiver drops its block.
 *
 * Refill request (step 4): refill{j} is set at the edge where cnt goes
 * 24 → 23 (visible while cnt = 23), or when a chunk shorter than 24 bits (a
 * 16-bit last word) is moved into the shift register (its counter starts past
 * 23) — in both cases only if the prefetch buffer is empty and no pfLoad
 * arrives at that edge. It is cleared by pfLoad{j} (DESIGN.md "held until the
 * next pfLoad") and by step 1. Reading beyond the seed: a slot retrying a
 * refused head usually still holds the chunk that followed it in the
 * prefetch, so no second request is made.
 *
 * Step 3's test "counter load register = 25" (§8.4) is replaced by the FSM
 * knowing it is in the head (PRE/PY1): after the refill at 23 the control
 * unit may already have reloaded the load register with 32 for the next
 * chunk before the preheader has left.
 *
 * Control-unit protocol errors (`fail`): pfLoad while pfAvail; a pfCount other
 * than the head count, 32 or 16; a data chunk where a head is expected or a
 * head inside a packet; chunk sizes that do not add up to the L words of the
 * head; xgnt outside ARB.
 */
import { Module, type Signal } from '../kernel/module.ts';
import { type BuzzardConfig, geometry } from './config.ts';
import { SlotLine } from './slot_line.ts';
import type { LinkSet, LinkTap } from './link_lines.ts';

/** Slot controller states (register `state{j}`). */
export const SLOT_STATES = ['IDLE', 'ARB', 'S1', 'S0', 'PRE', 'PY1', 'PY0', 'DEST', 'Y1', 'Y0', 'DATA'] as const;
export type SlotStateName = (typeof SLOT_STATES)[number];
const IDLE = 0;
const ARB = 1;
const S1 = 2;
const S0 = 3;
const PRE = 4;
const PY1 = 5;
const PY0 = 6;
const DEST = 7;
const Y1 = 8;
const Y0 = 9;
const DATA = 10;

/** §8.4 step 4: "When the counter reaches 23, assert the prefetch refill request line." */
export const REFILL_AT = 23;
/** §8.4 refill: "the load register of the counter is set to 32"; the last load may be 16. */
export const CHUNK_BITS = 32;
export const LAST_CHUNK_BITS = 16;

const TWO32 = 4294967296;

/** One slot's ports and registers. */
export interface OutputSlot {
  /** Slot number j (1..n); crossbar output O_j. */
  readonly j: number;
  readonly xreq: Signal;
  readonly xout: Signal;
  readonly xrelease: Signal;
  readonly xgnt: Signal;
  readonly hold: Signal;
  readonly pfLoad: Signal;
  readonly pfData: Signal;
  readonly pfCount: Signal;
  readonly pfAvail: Signal;
  readonly refill: Signal;
  readonly pktDone: Signal;
  readonly refused: Signal;
  readonly idle: Signal;
  readonly state: Signal;
  readonly pf: Signal;
  readonly cnt: Signal;
  readonly cntLoad: Signal;
  readonly sr: Signal;
  readonly hdr: Signal;
  readonly words: Signal;
}

export class NodeOutputPort extends Module {
  readonly cfg: BuzzardConfig;
  /** Head chunk bits: preheader + destination (25, or 26 for 64-byte packets; §8.4 "25 bits"). */
  readonly headCount: number;
  readonly lengthBits: number;
  /** slots[j-1] is slot j. */
  readonly slots: readonly OutputSlot[];

  /**
   * `links`/`taps` (a cube's serial lines, docs/kernel.md "Buzzard links on
   * serial lines"): slot j posts its fields on a line carried by crossbar
   * output taps[j]; without them every bit is a process run (the unit alone).
   */
  /**
   * `slotEvents` (default true; serial lines only; docs/kernel.md "Stop 25:
   * Buzzard"): each slot runs at its step list's events only (slot_line.ts
   * `events`): it reads hold, xgnt and, on its rise, pfLoad, not its own
   * registers. `false` keeps stop 24's reads (test/buzzard/slot_events.test.ts
   * compares them at every cycle).
   */
  constructor(parent: Module | null, name: string, cfg: BuzzardConfig, links?: LinkSet, taps?: readonly LinkTap[], slotEvents = true) {
    super(parent, name);
    this.cfg = cfg;
    const g = geometry(cfg);
    const n = g.n;
    const n1 = n + 1;
    const lb = (this.lengthBits = g.lengthBits);
    const headCount = (this.headCount = g.preheaderBits + 16);
    const strict = cfg.strictFraming;
    const contraryBit = headCount - 1; // C is the first preheader bit (A20 order C, P, L)
    const lMask = (1 << lb) - 1;
    const preEnd = 17; // cnt of the last preheader bit: 16 destination bits follow
    const slots: OutputSlot[] = [];

    for (let j = 1; j <= n; j++) {
      const xreq = this.output(`xreq${j}`, n1);
      const xout = this.output(`xout${j}`);
      const xrelease = this.output(`xrelease${j}`);
      const xgnt = this.input(`xgnt${j}`);
      const hold = this.input(`hold${j}`);
      const pfLoad = this.input(`pfLoad${j}`);
      const pfData = this.input(`pfData${j}`, 32);
      const pfCount = this.input(`pfCount${j}`, 6);
      const pfAvail = this.reg(`pfAvail${j}`);
      const refill = this.reg(`refill${j}`);
      const pktDone = this.reg(`pktDone${j}`);
      const refused = this.reg(`refused${j}`);
      const idle = this.output(`idle${j}`);
      const state = this.reg(`state${j}`, 4, IDLE, { enum: SLOT_STATES });
      const pf = this.reg(`pf${j}`, 32);
      const cnt = this.reg(`cnt${j}`, 6);
      const cntLoad = this.reg(`cntLoad${j}`, 6);
      const sr = this.reg(`sr${j}`, 32);
      const hdr = this.reg(`hdr${j}`, headCount);
      const words = this.reg(`words${j}`, lb);
      // Slot indices in the closures (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
      let atRefI = 0, atRefN = 0, cntI = 0, cntN = 0, cntLoadI = 0, cntLoadN = 0, hdrI = 0, hdrN = 0, holdI = 0, idleRN = 0, lastRI = 0, lastRN = 0, pfI = 0, pfN = 0, pfAvailI = 0, pfAvailN = 0, pfCountI = 0, pfDataI = 0, pfLoadI = 0, pktDoneI = 0, pktDoneN = 0, refillI = 0, refillN = 0, refusedI = 0, refusedN = 0, srI = 0, srN = 0, stateI = 0, stateN = 0, wordsI = 0, wordsN = 0, xgntI = 0, xoutRN = 0, xreleaseI = 0, xreqRN = 0;
      this.whenSlots(() => {
        [atRefI, atRefN, cntI, cntN, cntLoadI, cntLoadN, hdrI, hdrN, holdI, idleRN, lastRI, lastRN, pfI, pfN, pfAvailI, pfAvailN, pfCountI, pfDataI, pfLoadI, pktDoneI, pktDoneN, refillI, refillN, refusedI, refusedN, srI, srN, stateI, stateN, wordsI, wordsN, xgntI, xoutRN, xreleaseI, xreqRN] = [atRef.i, atRef.n, cnt.i, cnt.n, cntLoad.i, cntLoad.n, hdr.i, hdr.n, hold.i, idleR.n, lastR.i, lastR.n, pf.i, pf.n, pfAvail.i, pfAvail.n, pfCount.i, pfData.i, pfLoad.i, pktDone.i, pktDone.n, refill.i, refill.n, refused.i, refused.n, sr.i, sr.n, state.i, state.n, words.i, words.n, xgnt.i, xoutR.n, xrelease.i, xreqR.n];
      });
      slots.push({ j, xreq, xout, xrelease, xgnt, hold, pfLoad, pfData, pfCount, pfAvail, refill, pktDone, refused, idle, state, pf, cnt, cntLoad, sr, hdr, words });

      const reqBit = 2 ** j;

      // Line bit, crossbar request and idle: functions of registers only, so
      // kept in registers loaded from the slot's next values at each edge
      // (the same values in the same cycles as a comb of the current ones,
      // without a second evaluation per bit; docs/kernel.md, issue 8).
      const xreqR = this.reg(`xreqR${j}`, n1, 0);
      const xoutR = this.reg(`xoutR${j}`, 1, 0);
      const idleR = this.reg(`idleR${j}`, 1, 1); // reset: IDLE with an empty prefetch
      // The last bit of the packet (the register part of the release below).
      const lastR = this.reg(`lastR${j}`, 1, 0);
      // The refusal point (state PRE with cnt = 17), for the release below:
      // the bit counter itself moves without a process run on serial lines.
      const atRef = this.reg(`atRef${j}`, 1, 0);
      this.connect(xreqR, xreq);
      this.connect(xoutR, xout);
      this.connect(idleR, idle);
      const outputs = (): void => {
        const s = this.s;
        const st = s[stateN]!;
        const c = s[cntN]!;
        s[xreqRN] = st === ARB ? reqBit : 0;
        s[xoutRN] = st === S1 || st === PY1 || st === Y1 ? 1 : st === PRE || st === DEST || st === DATA ? s[srN]! >>> 31 : 0;
        s[idleRN] = st === IDLE && s[pfAvailN] === 0 ? 1 : 0;
        s[lastRN] = st === DEST ? (c === 1 && s[wordsN] === 0 ? 1 : 0) : st === DATA ? ((c === 1 || c === preEnd) && s[wordsN] === 1 ? 1 : 0) : 0;
        s[atRefN] = st === PRE && c === preEnd ? 1 : 0;
      };

      // Release: during the last bit of the packet (lastR), or in the
      // refusal-point cycle of an aborted contrary packet (DESIGN.md, crossbar
      // timing). Kept apart from out{j}: it reads hold, which the crossbar
      // derives from xreq while not connected. The non-strict refusal point is
      // the atRef register, not the bit counter, so neither a bit nor a
      // counter that moves without a process run (serial lines) needs to wake
      // it (docs/kernel.md "Exact sensitivity").
      this.comb(
        () => {
          const s = this.s;
          let r = s[lastRI]!;
          if (r === 0 && s[holdI] === 1 && Math.floor(s[hdrI]! / 2 ** contraryBit) === 1) {
            if (strict ? s[stateI] === PY1 : s[atRefI] === 1) r = 1;
          }
          s[xreleaseI] = r;
        },
        {
          writes: [xrelease],
          reads: [lastR, hold],
          // Exact (docs/kernel.md "Stop 19: unit guards"): the refusal test
          // matters only while hold is 1, and reads the state only in strict
          // framing (A2's PY1), else the atRef register.
          readsWhen: [{ when: hold, is: [1], reads: strict ? [hdr, state] : [hdr, atRef] }],
          name: `rel${j}`,
        },
      );

      // Per-cycle values shared by the slot's seq process and its step helpers.
      // The helpers are created once here, not inside the process, so a cycle
      // allocates nothing.
      let av = false;
      let load = false;
      let c = 0;
      let avNext = false;
      let rfNext = 0;
      let next = 0;
      const isHead = (): boolean => this.s[cntLoadI] === headCount;
      /** Left-align the low k bits of v in the 32-bit shift register. */
      const align = (v: number, k: number): number => (v % 2 ** k) * 2 ** (32 - k);
      /** Step 1: move a head from the prefetch buffer into the slot. */
      const startPacket = (): void => {
        const s = this.s;
        if (!isHead()) this.fail(`slot ${j}: the prefetch holds a ${s[cntLoadI]}-bit data chunk where a packet head (${headCount} bits) is expected`);
        const h = s[pfI]! % 2 ** headCount;
        s[srN] = align(h, headCount);
        s[cntN] = headCount;
        s[hdrN] = h;
        s[wordsN] = Math.floor(h / 65536) & lMask;
        avNext = false;
        rfNext = 0;
        next = ARB;
      };
      /** Move a data chunk from the prefetch buffer into the shift register and counter. */
      const takeChunk = (): void => {
        const s = this.s;
        if (isHead()) this.fail(`slot ${j}: a packet head was loaded before the last word of the packet in progress`);
        const k = s[cntLoadI]!;
        s[srN] = align(s[pfI]!, k);
        s[cntN] = k;
        avNext = false;
        if (k <= REFILL_AT && !load) rfNext = 1;
      };
      /** One data bit leaves: shift and count (step 2); refill request at 23 (step 4). */
      const shift = (): void => {
        const s = this.s;
        s[srN] = (s[srI]! * 2) % TWO32;
        s[cntN] = c - 1;
        if (c - 1 === REFILL_AT && !av && !load) rfNext = 1;
      };
      /** Refusal: drop the packet, keep its head, re-arbitrate (step 3 → step 1). */
      const abort = (): void => {
        const s = this.s;
        const h = s[hdrI]!;
        s[srN] = align(h, headCount);
        s[cntN] = headCount;
        s[wordsN] = Math.floor(h / 65536) & lMask;
        s[refusedN] = 1;
        next = ARB;
      };
      /** The last bit of a word has just left (cnt = c before the shift). */
      const endOfWord = (dest: boolean): void => {
        const s = this.s;
        const left = dest ? s[wordsI]! : s[wordsI]! - 1;
        s[wordsN] = left;
        if (left === 0) {
          // Step 5: the packet is complete.
          if (c !== 1) this.fail(`slot ${j}: the packet's last word left with ${c - 1} chunk bits unsent (chunk sizes do not match L)`);
          s[pktDoneN] = 1;
          if (av) startPacket();
          else next = IDLE;
          return;
        }
        next = Y1;
        if (c === 1 && av) takeChunk();
      };
      const contrary = (): boolean => Math.floor(this.s[hdrI]! / 2 ** contraryBit) === 1;

      // On a cube's serial lines (slot_line.ts): the bit counter, the shift
      // register and the line bit move between the slot's events without a
      // process run, so they are not among its reads.
      const line = links && taps ? new SlotLine(this, `${name}.slot${j}`, links, taps[j]!, { state, cnt, sr, xoutR, xrelease, pfAvail, words, pktDone, refused }, { IDLE, ARB, S1, S0, PY1, PY0, Y1, Y0, PRE, DEST, DATA }, slotEvents) : null;
      const events = line !== null && slotEvents;
      const proc = this.seq(
        () => {
          const s = this.s;
          if (line) line.before(this.cycleRef.cycle);
          const st = s[stateI]!;
          const hd = s[holdI] === 1;
          load = s[pfLoadI] === 1;
          av = s[pfAvailI] === 1;
          c = s[cntI]!;
          avNext = av;
          rfNext = s[refillI]!;
          next = st;
          if (s[pktDoneI] === 1) s[pktDoneN] = 0;
          if (s[refusedI] === 1) s[refusedN] = 0;

          // Control-unit side: latch a prefetch load (DESIGN.md pfLoad/pfData/pfCount).
          if (load) {
            if (av) this.fail(`slot ${j}: pfLoad while the prefetch buffer still holds unsent data (pfAvail${j} = 1)`);
            const k = s[pfCountI]!;
            if (k !== headCount && k !== CHUNK_BITS && k !== LAST_CHUNK_BITS) {
              this.fail(`slot ${j}: pfCount ${k} is not ${headCount} (head), ${CHUNK_BITS} or ${LAST_CHUNK_BITS}`);
            }
            s[pfN] = s[pfDataI]!;
            s[cntLoadN] = k;
            avNext = true;
            rfNext = 0;
          }

          if (s[xgntI] === 1 && st !== ARB) this.fail(`slot ${j}: granted in state ${SLOT_STATES[st]}`);
          switch (st) {
            case IDLE:
              if (av) startPacket();
              break;
            case ARB:
              if (s[xgntI] === 1) next = S1;
              break;
            case S1:
              if (!hd) next = S0;
              break;
            case S0:
              next = PRE;
              break;
            case PRE:
              shift();
              if (c === preEnd) {
                if (!strict && hd && contrary()) abort();
                else next = strict ? PY1 : DEST;
              }
              break;
            case PY1:
              if (hd && contrary()) abort();
              else if (!hd) next = PY0;
              break;
            case PY0:
              next = DEST;
              break;
            case DEST:
              shift();
              if (c === 1) endOfWord(true);
              break;
            case Y1: {
              const ready = c !== 0 || av;
              if (c === 0 && av) takeChunk();
              if (!hd && ready) next = Y0;
              break;
            }
            case Y0:
              next = DATA;
              break;
            case DATA:
              shift();
              if (c === 1 || c === preEnd) endOfWord(false);
              break;
            default:
              this.fail(`slot ${j}: bad state ${st}`);
          }
          s[stateN] = next;
          s[pfAvailN] = avNext ? 1 : 0;
          s[refillN] = rfNext;
          outputs();
          if (line) line.after(this.cycleRef.cycle);
        },
        {
          reads: events ? [hold, xgnt] : line ? [state, hold, xgnt, pfLoad, pfData, pfCount, pfAvail, refill, pktDone, refused, pf, cntLoad, hdr, words] : [state, hold, xgnt, pfLoad, pfData, pfCount, pfAvail, refill, pktDone, refused, pf, cnt, cntLoad, sr, hdr, words],
          // Events only: the control unit's load strobe on its rise (it loads only
          // with pfLoad 0, cu_transmit.ts); a strobe held over an edge (a
          // protocol error the step reports) is seen by the late guard on the
          // prefetch flag, which every load changes.
          readsWhen: events ? [{ when: pfLoad, bits: 1, reads: [pfData, pfCount, pfAvail], rise: true, late: true }] : [],
          // Its own slot's registers only: the commit visits these, not all n slots' (docs/kernel.md "Commit").
          writes: [pfAvail, refill, pktDone, refused, state, pf, cnt, cntLoad, sr, hdr, words, xreqR, xoutR, idleR, lastR, atRef],
          name: `slot${j}`,
        },
      );
      if (line) line.waker.proc = proc;
    }
    this.slots = slots;
  }

  /** Slot j (1..n). */
  slot(j: number): OutputSlot {
    const sl = this.slots[j - 1];
    if (!sl) throw new RangeError(`NodeOutputPort: no slot ${j} (1..${this.slots.length})`);
    return sl;
  }
}
