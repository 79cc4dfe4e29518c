/**
 * Serial lines: a one-bit wire carried as posted words (ARCHITECTURE.md
 * "Speed without giving up the clock"; docs/kernel.md "Serial lines").
 *
 * A bit-serial link spends most of its simulation time shifting bits that
 * nobody looks at. A SerialLine lets the sender post "this word starts on
 * the wire at cycle t, one bit per cycle" and lets the receiver be woken (a
 * timed wake-up, `Module.wakeAt`) only at the cycles where it must act: a
 * token or word boundary, a sync point, a flow-control check. The bit on the
 * wire at any cycle is computed on demand, so peek, the VCD, the REPL and
 * breakpoints still see every bit of every cycle.
 *
 * API (sender):
 *   line.send(start, word, nbits, order?)   nbits (1..32) bits of `word`
 *       from cycle `start`, one per cycle ('msb-first' default: bit nbits-1
 *       first; 'lsb-first': bit 0 first, as DS-link tokens). Returns the
 *       first cycle after the run.
 *   line.level(start, bit)   a constant level from `start` until the next
 *       post: the idle line, a stretched sync '1' (Buzzard §5.4.8), a
 *       DS-link that is disconnected or in reset.
 *   Posts go in time order. A post that starts before the previous run ends
 *   cuts that run short at its start (a level is usually what is cut; a
 *   sender that aborts a word, as a refused Buzzard packet does, may cut a
 *   word). Posting into the past (before the current cycle) is an error:
 *   what the wire carried is history.
 * API (receiver and observers):
 *   line.bitAt(c)            the bit on the wire in cycle c.
 *   line.bits(from, nbits, order?)  nbits (1..32) bits from cycle `from` on,
 *       packed as the sender's `send` would take them: what a receiver that
 *       wakes at a token's last bit latches in one go.
 *   line.wordAt(c)           the posted word covering cycle c ({start,
 *       word, nbits}; undefined on a level or idle): a receiver that
 *       computes a shift register on demand reads its word whole.
 *   line.endOfPosts          first cycle not yet covered by a word run
 *       (Infinity when a level is open-ended).
 *   line.forget(before)      drop runs that ended before `before` (bounded
 *       memory; bitAt earlier than that then throws).
 * The state vector (VCD, peek):
 *   line.attach(sim, reg)    the register `reg` (declared by the owning
 *       module and written by no process) holds the bit at the current cycle
 *       whenever anyone looks (Simulator.addOnDemand). No process may be
 *       woken by it: receivers use timed wake-ups.
 *
 * Data/strobe (DS-link, seed 003/004: "the strobe changes whenever the data
 * does not"): a DataStrobeLine is a SerialLine plus `encodeFrom(c0)`: from
 * cycle c0 exactly one of data and strobe changes every cycle, so
 * strobe(c) = data(c) XOR parity(c) with parity(c) = 1 − ((c − c0) mod 2);
 * `strobeAt(c)` computes it; `attachStrobe(sim, reg)` puts it in the state
 * vector. Before c0 (or after `stopEncoding(c1)`, a disconnect) both wires
 * are at the posted level and the strobe is 0.
 *
 * How a DS-link end would use it (test/kernel/serial_line.test.ts does this,
 * against a bit-by-bit reference):
 *  - the sender, woken at the last bit of each token (cycle e), samples its
 *    flow-control state, posts the next token with `send(e + 1, token,
 *    10 | 4, 'lsb-first')` and asks to be woken at its last bit;
 *  - the receiver wakes at the token's second bit (the flag: data or
 *    control, hence the length), then at its last bit, and latches
 *    `bits(start, len, 'lsb-first')` at that edge, exactly where a
 *    bit-by-bit receiver latches its shift register.
 * For Buzzard (DESIGN.md "Framing"): a sender posts S1 S0 + preheader +
 * destination, then each "10" sync and word; at a sync point it checks hold
 * and, while held, posts `level(c, 1)` and is woken by hold dropping (hold
 * is an ordinary read), then posts the 0 and the word.
 */
import { SimError } from './errors.ts';
import type { Signal } from './module.ts';
import type { Simulator } from './simulator.ts';

export type BitOrder = 'msb-first' | 'lsb-first';

/** One run on the wire: `nbits` bits of `word` from `start`, or a level (nbits = Infinity). */
interface Run {
  start: number;
  /** First cycle after the run (may be lowered when a later post cuts it). */
  end: number;
  word: number;
  nbits: number;
  lsbFirst: boolean;
}

function checkBits(what: string, nbits: number): void {
  if (!(Number.isInteger(nbits) && nbits >= 1 && nbits <= 32)) throw new SimError('bad-argument', `${what}: nbits ${nbits} outside 1..32`);
}

export class SerialLine {
  /** Runs in time order; runs[head..] are live (older ones forgotten). */
  private runs: Run[] = [];
  private head = 0;
  /** Cycles before this were forgotten. */
  private horizon = 0;
  private clock: { readonly cycle: number } = { cycle: 0 };

  constructor(
    readonly name: string,
    /** The level before anything is posted (Buzzard: 0, DESIGN.md "The line idles at 0"). */
    readonly idle: 0 | 1 = 0,
  ) {}

  /** Post `nbits` bits of `word`, the first in cycle `start`; returns the first cycle after them. */
  send(start: number, word: number, nbits: number, order: BitOrder = 'msb-first'): number {
    // The checks' messages are built only on failure: a string per post was garbage (docs/kernel.md "Stop 21: allocation and layout").
    if (!(Number.isInteger(nbits) && nbits >= 1 && nbits <= 32)) checkBits(`${this.name}.send`, nbits);
    if (!(word >= 0 && word < 2 ** nbits && Number.isInteger(word))) throw new SimError('bad-argument', `${this.name}.send: word ${word} does not fit ${nbits} bits`);
    this.post({ start, end: start + nbits, word, nbits, lsbFirst: order === 'lsb-first' });
    return start + nbits;
  }

  /** A constant level from cycle `start` until the next post. */
  level(start: number, bit: 0 | 1): void {
    this.post({ start, end: Infinity, word: bit, nbits: Infinity, lsbFirst: false });
  }

  private post(r: Run): void {
    if (!Number.isInteger(r.start) || r.start < this.clock.cycle) {
      throw new SimError('bad-argument', `${this.name}: post at cycle ${r.start} is in the past (now ${this.clock.cycle})`, this.clock.cycle);
    }
    for (;;) {
      const last = this.runs.length > this.head ? this.runs[this.runs.length - 1]! : undefined;
      if (!last) break;
      if (r.start < last.start) throw new SimError('bad-argument', `${this.name}: post at cycle ${r.start} before the previous one (cycle ${last.start}); post in time order`, this.clock.cycle);
      if (r.start > last.start) {
        if (r.start < last.end) last.end = r.start;
        break;
      }
      this.runs.pop(); // same start: the new post replaces it
    }
    this.runs.push(r);
  }

  /** The run covering cycle c, or undefined (idle before the first post). */
  private runAt(c: number): Run | undefined {
    if (c < this.horizon) throw new SimError('bad-argument', `${this.name}: cycle ${c} was forgotten (history kept from cycle ${this.horizon})`);
    const runs = this.runs;
    // Usually the last run or the one before: scan back from the end.
    for (let k = runs.length - 1; k >= this.head; k--) {
      const r = runs[k]!;
      if (r.start <= c) return c < r.end ? r : undefined;
    }
    return undefined;
  }

  bitAt(c: number): 0 | 1 {
    const r = this.runAt(c);
    if (!r) return this.idle; // before the first post, or after a word with nothing posted behind it
    if (r.nbits === Infinity) return r.word as 0 | 1;
    const k = c - r.start;
    const pos = r.lsbFirst ? k : r.nbits - 1 - k;
    return (Math.floor(r.word / 2 ** pos) % 2) as 0 | 1;
  }

  /** The posted word covering cycle c (not a level), or undefined. */
  wordAt(c: number): { readonly start: number; readonly word: number; readonly nbits: number } | undefined {
    const r = this.runAt(c);
    return r && r.nbits !== Infinity ? r : undefined;
  }

  /** `nbits` bits from cycle `from` on, packed as `send` would take them. */
  bits(from: number, nbits: number, order: BitOrder = 'msb-first'): number {
    checkBits(`${this.name}.bits`, nbits);
    if (order === 'msb-first') return this.bitsMsb(from, from + nbits);
    let v = 0;
    for (let k = 0; k < nbits; k++) v += this.bitAt(from + k) * 2 ** k;
    return v;
  }

  /**
   * The bits of cycles from..to-1 (at most 32), msb first: a run's slice at
   * once instead of a bit at a time (a receiver catching up a field reads
   * it here; issue 8). Equal to the bit loop (test/kernel/serial_line.test.ts).
   */
  bitsMsb(from: number, to: number): number {
    let v = 0;
    let c = from;
    while (c < to) {
      const r = this.runAt(c);
      const e = r ? Math.min(to, r.end) : c + 1; // idle between runs: a bit at a time
      const k = e - c;
      let slice: number;
      if (!r) slice = this.idle;
      else if (r.nbits === Infinity) slice = r.word === 1 ? 2 ** k - 1 : 0;
      else if (!r.lsbFirst) slice = Math.floor(r.word / 2 ** (r.start + r.nbits - e)) % 2 ** k; // a later post may have cut r.end
      else {
        slice = 0;
        for (let x = c; x < e; x++) slice = slice * 2 + (Math.floor(r.word / 2 ** (x - r.start)) % 2);
      }
      v = v * 2 ** k + slice;
      c = e;
    }
    return v;
  }

  /** The first cycle after `c` at which the bit may change (Infinity: constant from then on, as far as posted). */
  nextChange(c: number): number {
    const runs = this.runs;
    for (let k = runs.length - 1; k >= this.head; k--) {
      const r = runs[k]!;
      if (r.start <= c) {
        if (c < r.end && r.nbits !== Infinity) return c + 1; // inside a word
        const after = runs[k + 1];
        return after ? after.start : r.end; // a level (or idle after a word) until the next post
      }
    }
    return runs.length > this.head ? runs[this.head]!.start : Infinity;
  }

  /** First cycle not covered by a posted word (Infinity when the last post is a level). */
  get endOfPosts(): number {
    const last = this.runs[this.runs.length - 1];
    return last && this.runs.length > this.head ? last.end : this.horizon;
  }

  /** Drop runs that ended before cycle `before`. */
  forget(before: number): void {
    while (this.head < this.runs.length - 1 && this.runs[this.head]!.end <= before) this.head++;
    this.horizon = Math.max(this.horizon, before);
    if (this.head > 64 && this.head * 2 > this.runs.length) {
      this.runs = this.runs.slice(this.head);
      this.head = 0;
    }
  }

  /** Keep `reg` (a register of the owning module that no process writes) equal to the bit of the current cycle. */
  attach(sim: Simulator, reg: Signal): void {
    this.clock = sim.clock;
    onDemandRegister(sim, reg, {
      value: (c) => this.bitAt(c),
      nextChange: (c) => this.nextChange(c),
      save: () => this.save(),
      restore: (v) => this.restore(v as LineState),
    });
  }

  save(): LineState {
    return { runs: this.runs.slice(this.head).map((r) => ({ ...r })), horizon: this.horizon };
  }

  restore(st: LineState): void {
    this.runs = st.runs.map((r) => ({ ...r }));
    this.head = 0;
    this.horizon = st.horizon;
  }
}

export interface LineState {
  runs: Run[];
  horizon: number;
}

/** A SerialLine carrying the data wire of a data/strobe pair (see the file header). */
export class DataStrobeLine extends SerialLine {
  /** Encoding intervals: [from, to) with the strobe parity origin at `from`. */
  private from = Infinity;
  private to = Infinity;

  /** From cycle c0 on, exactly one of data and strobe changes every cycle. */
  encodeFrom(c0: number): void {
    this.from = c0;
    this.to = Infinity;
  }

  /** From cycle c1 on, no encoding (disconnect, reset): the strobe is 0. */
  stopEncoding(c1: number): void {
    this.to = c1;
  }

  strobeAt(c: number): 0 | 1 {
    if (c < this.from || c >= this.to) return 0;
    const parity = 1 - ((c - this.from) % 2);
    return (this.bitAt(c) ^ parity) as 0 | 1;
  }

  attachStrobe(sim: Simulator, reg: Signal): void {
    onDemandRegister(sim, reg, {
      value: (c) => this.strobeAt(c),
      // Encoding: one of the two wires changes every cycle.
      nextChange: (c) => (c + 1 >= this.from && c + 1 < this.to ? c + 1 : Math.min(this.nextChange(c), c < this.from ? this.from : c < this.to ? this.to : Infinity)),
      save: () => this.saveEncoding(),
      restore: (v) => this.restoreEncoding(v as EncodingState),
    });
  }

  /** The encoding interval, for a snapshot (a user that is its own on-demand provider saves it with the runs). */
  saveEncoding(): EncodingState {
    return { from: this.from, to: this.to };
  }

  restoreEncoding(st: EncodingState): void {
    this.from = st.from;
    this.to = st.to;
  }
}

export interface EncodingState {
  from: number;
  to: number;
}

/** A register (current and next slot) whose value is a function of the cycle, kept up to date on demand. */
function onDemandRegister(
  sim: Simulator,
  reg: Signal,
  f: { value(c: number): number; nextChange(c: number): number; save(): unknown; restore(v: unknown): void },
): void {
  const cur = reg.i;
  const nxt = reg.n;
  sim.addOnDemand({
    materialize: (cycle, s) => {
      const b = f.value(cycle);
      s[cur] = b;
      s[nxt] = b;
    },
    nextChange: f.nextChange,
    save: f.save,
    restore: f.restore,
  });
}
