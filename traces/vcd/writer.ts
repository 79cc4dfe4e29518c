/**
 * A streaming VCD (Value Change Dump) writer, IEEE Std 1364-2005 §18 (the
 * four-state VCD format, of which icemu uses only 0 and 1), with the GTKWave
 * `string` variable extension for FSM state names.
 *
 * Usage:
 *   const vcd = startVcd(sim, 'run.vcd', { signals: ['node1.**'] });
 *   sim.step(1000);
 *   vcd.close();                      // flush, close, rename run.vcd.tmp -> run.vcd
 *
 * Time (what one cycle is)
 * ------------------------
 * One simulator cycle is two VCD time units (`$timescale`, default `1ns`, so
 * a cycle shows as a 2 ns period; pick the timescale for your reading of the
 * clock, e.g. `10ns` for a 20 ns cycle). A synthetic clock `clk` in the top
 * scope marks the edges:
 *   - time 2c:   clk = 1, rising edge of cycle c: the registers committed at
 *                this edge and the comb logic settled from them (what the
 *                kernel's `Observer.onCycle` sees with `sim.cycle === c`);
 *   - time 2c+1: clk = 0; values poked by stimulus during cycle c, i.e.
 *                before the next edge (`Observer.onStimulus`), change here.
 * A fast-forwarded quiescent stretch (`Observer.onSkip`) produces only the
 * clock toggles of the skipped cycles: by the kernel's contract nothing else
 * changes. The dump starts with `$dumpvars` at time 2c0 (c0 = `sim.cycle`
 * when the writer was created, 0 for a fresh simulator). Should simulated
 * time go backwards (`sim.reset()`, restoring an earlier snapshot), VCD time
 * cannot: the writer notes it in a `$comment` and continues with all later
 * times shifted forward by an even offset, so clk = 1 stays on even times.
 *
 * Header (§18.2.1, §18.2.3)
 * -------------------------
 * `$date`, `$version icemu`, `$timescale`, then one `$scope module X $end`
 * per module: the root module's name is the top scope and nested scopes follow
 * the module tree. Each selected signal becomes
 *   `$var reg|wire WIDTH CODE name [msb:lsb] $end`
 * (`reg` for registers, `wire` for ports and wires; the `[msb:lsb]` range only
 * for vectors). Connected signals share one slot of the state vector (`sig.i`):
 * each slot gets one identifier code, and every selected alias is declared in
 * its own scope with that code, as §18.2.3.8 allows. Codes are short base-94
 * strings over the printable ASCII characters 33..126 (`!`..`~`).
 *
 * Selection
 * ---------
 * `signals`: globs over hierarchical names (`sim.glob`: `*` within a path
 * segment, `**` across dots); several allowed; a glob that matches nothing is
 * an error (it is almost always a typo). Without `signals` everything is
 * dumped, but only for designs of at most `maxDefaultSignals` (2000) signals:
 * a large design (a 64-node network) must be asked explicitly (`['**']`).
 *
 * Memories are not dumped unless `memories: true`; then each selected memory
 * of at most `maxMemoryWords` (default 256) words is dumped as one `reg` var
 * per word, named `mem[addr]`; larger memories are skipped and listed in a
 * header `$comment`.
 *
 * With `stateStrings: true`, every selected signal with `options.enum` (an FSM
 * state register) gets a twin `$var string 1 CODE name_s $end` beside it whose
 * value is the state name, written `sNAME CODE` (GTKWave extension; a value
 * outside the list shows as `?N`).
 *
 * Output and files
 * ----------------
 * Bytes are formatted straight into a fixed buffer and written in chunks
 * through an `OutputFile` (traces/files.ts): to a temporary file beside
 * `path`, renamed to `path` by `close()`, so a file under the final name is
 * always complete; a character device or a FIFO with a reader is written in
 * place and never replaced; a path that cannot be written is refused with one
 * line (`OutputPathError`). The header is written at once, so a full disk
 * fails before the run. `abort()` removes what was written. Open writers are
 * closed (validly) on process exit and on SIGINT when no other SIGINT
 * listener exists (the signal is then re-raised, exit status 130); when
 * another listener exists (a command or REPL that stops a run at a cycle
 * boundary on Ctrl-C), that listener decides. Node runs signal listeners
 * only when the event loop gets control, so long runs step in slices and
 * yield between them. `handleExit: false` leaves a writer out of all this
 * (its owner closes it).
 *
 * Hot path: per cycle the writer compares the selected slots of the state
 * vector with a Float64Array of the values last dumped and formats only the
 * changes into the byte buffer; it allocates nothing.
 */
import { OutputFile, type OutputTarget } from '../files.ts';
import type { Memory } from '../../rtl/kernel/module.ts';
import { ascii, DEFAULT_MAX_MEMORY_WORDS, layoutVcd, type VcdOptions, type VcdVarInfo } from './declarations.ts';
import type { Observer, Simulator } from '../../rtl/kernel/simulator.ts';

export type { VcdOptions, VcdVarInfo } from './declarations.ts';
export { vcdIdCode } from './declarations.ts';

const DEFAULT_CHUNK = 1 << 16;
const TIMESCALE_RE = /^(1|10|100)\s*(s|ms|us|ns|ps|fs)$/;

// ------------------------------------------------------------ the writer

export class VcdWriter implements Observer {
  readonly path: string;
  /** Where the bytes go until close: a temporary file beside `path` (or the device itself, traces/files.ts). */
  readonly tmpPath: string;
  readonly timescale: string;
  /** Every declared variable, in declaration order (the clock first). */
  readonly vars: readonly VcdVarInfo[];
  /** Name of the synthetic clock in the top scope (`clk`, or `clk_` if the root module already has a `clk`). */
  readonly clockName: string;
  /** Set by `startVcd`: removes the writer from the simulator on close. */
  detach: (() => void) | undefined;

  private file: OutputFile | undefined;
  private closed = false;
  private readonly handleExit: boolean;
  private readonly target: string | OutputTarget;

  // output buffer
  private out: Uint8Array;
  private pos = 0;
  private readonly digits = new Uint8Array(24);
  private bytes = 0;

  // dumped slots: entry k shows state slot slots[k]
  private readonly slots: Int32Array;
  private readonly widths: Int32Array;
  private readonly last: Float64Array;
  private readonly codes: Uint8Array[];
  /** Entries whose slot is a root input (only pokes change them). */
  private readonly extEntries: Int32Array;
  /** Per entry: index of its state-string twin, or -1. */
  private readonly twinOf: Int32Array;
  private readonly twinCodes: Uint8Array[];
  private readonly twinNames: Uint8Array[][];
  // dumped memories: words memBase[j] .. memBase[j] + depth - 1 of memLast
  private readonly mems: Memory[];
  private readonly memBase: Int32Array;
  private readonly memLast: Float64Array;
  private readonly memCodes: Uint8Array[];
  private readonly clockCode: Uint8Array;

  /** Last VCD time written (-1 before the first), the offset added after time went backwards, last cycle seen. */
  private time = -1;
  private offset = 0;
  private lastCycle: number;

  /**
   * Declare the selected variables, open `path.tmp` and dump the current
   * values at time 2 * sim.cycle. Pending pokes are settled first (as a
   * `peek` would), so the initial wires agree with the registers. Attach the
   * writer with `sim.observe(writer)` (or use `startVcd`).
   */
  constructor(sim: Simulator, path: string | OutputTarget, opts: VcdOptions = {}) {
    const net = sim.net;
    const timescale = opts.timescale ?? '1ns';
    if (!TIMESCALE_RE.test(timescale)) {
      throw new Error(`vcd: timescale '${timescale}' is not 1, 10 or 100 followed by s, ms, us, ns, ps or fs`);
    }
    const chunk = opts.chunkSize ?? DEFAULT_CHUNK;
    if (!(Number.isInteger(chunk) && chunk >= 256)) throw new Error(`vcd: chunkSize ${chunk} is not a whole number >= 256`);
    const maxWords = opts.maxMemoryWords ?? DEFAULT_MAX_MEMORY_WORDS;
    if (!(Number.isInteger(maxWords) && maxWords >= 1)) throw new Error(`vcd: maxMemoryWords ${maxWords} is not a whole number >= 1`);

    this.path = typeof path === 'string' ? path : path.path;
    this.target = path;
    this.tmpPath = '';
    this.timescale = timescale;
    this.handleExit = opts.handleExit ?? true;
    this.out = new Uint8Array(chunk);

    const L = layoutVcd(sim, opts, timescale, maxWords);
    const { clockName, clockCode, slots, entryCode, twinOfEntry, twinCode, twinNames, dumpMems, memBase, memWords, memCodes } = L;
    this.clockName = clockName;
    this.clockCode = ascii(clockCode);

    this.slots = Int32Array.from(slots);
    this.widths = Int32Array.from(slots, (s) => net.slotSignal[s]!.width);
    this.last = new Float64Array(slots.length);
    this.codes = entryCode.map(ascii);
    this.extEntries = Int32Array.from(
      slots.flatMap((s, k) => (net.slotDriver[s] === 'external' ? [k] : [])),
    );
    this.twinOf = Int32Array.from(twinOfEntry);
    this.twinCodes = twinCode.map(ascii);
    this.twinNames = twinNames;
    this.mems = dumpMems;
    this.memBase = Int32Array.from(memBase);
    this.memLast = new Float64Array(memWords);
    this.memCodes = memCodes.map(ascii);

    this.vars = L.vars;

    // ---- open the temporary file; then dump the initial values (§18.2.3.6 $dumpvars)
    this.lastCycle = sim.cycle;
    const file = new OutputFile(this.target, { label: opts.label, onExit: this.handleExit ? () => this.close() : 'none' });
    this.file = file;
    (this as { tmpPath: string }).tmpPath = file.writePath;
    try {
      this.putBytes(ascii(L.header));
      sim.values(); // settle any pending pokes so wires agree with registers
      const c = sim.cycle;
      this.time = 2 * c;
      this.startTime = this.time;
      this.putByte(35); // '#'
      this.putUint(this.time);
      this.putByte(10);
      this.putBytes(ascii('$dumpvars\n'));
      this.putScalar(1, this.clockCode);
      const s = sim.s;
      for (let k = 0; k < this.slots.length; k++) this.emit(k, (this.last[k] = s[this.slots[k]!]!));
      for (let j = 0; j < this.mems.length; j++) {
        const m = this.mems[j]!;
        const base = this.memBase[j]!;
        for (let a = 0; a < m.depth; a++) {
          const v = (this.memLast[base + a] = m.data[a]!);
          this.putValue(v, m.width, this.memCodes[base + a]!);
        }
      }
      this.putBytes(ascii('$end\n'));
      this.fall(c);
      // Write the header now, so an unwritable target (a full disk, /dev/full) fails before the run.
      this.flush();
    } catch (e) {
      this.closed = true;
      file.abort();
      throw e;
    }
  }

  // ---------------------------------------------------------- Observer

  onCycle(sim: Simulator): void {
    if (this.closed) return;
    const c = sim.cycle;
    // Root inputs change only by poke. If they were poked without the kernel
    // settling at the next step (a peek in between), onStimulus was not
    // called: dump them now, still at time 2(c-1)+1, where they belong.
    if (c === this.lastCycle + 1) this.diffEntries(sim, this.extEntries);
    this.lastCycle = c;
    this.at(2 * c);
    this.putScalar(1, this.clockCode);
    this.diff(sim);
    this.fall(c);
  }

  onStimulus(sim: Simulator): void {
    if (this.closed) return;
    this.at(2 * sim.cycle + 1);
    this.diff(sim);
  }

  onSkip(_sim: Simulator, from: number, to: number): void {
    if (this.closed) return;
    // Only the clock moves; write its toggles directly (no per-signal work).
    const code = this.clockCode;
    const need = 2 * (code.length + 26);
    for (let c = from + 1; c <= to; c++) {
      if (this.pos + need > this.out.length) this.flush();
      this.at(2 * c);
      this.putScalar(1, code);
      this.at(2 * c + 1);
      this.putScalar(0, code);
    }
    this.lastCycle = to;
  }

  // ---------------------------------------------------------- files

  /** Write the buffered bytes to the temporary file. */
  flush(): void {
    if (this.pos === 0) return;
    let done = 0;
    const f = this.file!;
    try {
      f.write(this.out, 0, this.pos);
    } catch (e) {
      this.closed = true;
      this.detach?.();
      throw e;
    }
    this.bytes += this.pos;
    this.pos = 0;
  }

  /** Flush, close and move the temporary file to `path`; detach from the simulator. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.detach?.();
    this.detach = undefined;
    this.flush();
    this.closed = true;
    this.file!.commit();
  }

  /** Stop and remove what was written (a failed run). Idempotent. */
  abort(): void {
    this.detach?.();
    this.detach = undefined;
    this.closed = true;
    this.file?.abort();
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The VCD time of the first value dump (2 x the cycle the writer started at). */
  startTime = 0;

  /** The last VCD time written so far. */
  get lastTime(): number {
    return this.time;
  }

  /** Bytes written so far (including the buffer). */
  get size(): number {
    return this.bytes + this.pos;
  }

  // ---------------------------------------------------------- formatting

  /** Compare every dumped slot and memory word with its last dumped value; write the changes. */
  private diff(sim: Simulator): void {
    const s = sim.s;
    const slots = this.slots;
    const last = this.last;
    const n = slots.length;
    for (let k = 0; k < n; k++) {
      const v = s[slots[k]!]!;
      if (v !== last[k]) {
        last[k] = v;
        this.emit(k, v);
      }
    }
    const mems = this.mems;
    for (let j = 0; j < mems.length; j++) {
      const m = mems[j]!;
      const data = m.data;
      const base = this.memBase[j]!;
      const ml = this.memLast;
      for (let a = 0; a < m.depth; a++) {
        const v = data[a]!;
        if (v !== ml[base + a]) {
          ml[base + a] = v;
          this.putValue(v, m.width, this.memCodes[base + a]!);
        }
      }
    }
  }

  private diffEntries(sim: Simulator, entries: Int32Array): void {
    const s = sim.s;
    for (let j = 0; j < entries.length; j++) {
      const k = entries[j]!;
      const v = s[this.slots[k]!]!;
      if (v !== this.last[k]) {
        this.last[k] = v;
        this.emit(k, v);
      }
    }
  }

  private emit(k: number, v: number): void {
    this.putValue(v, this.widths[k]!, this.codes[k]!);
    const t = this.twinOf[k]!;
    if (t >= 0) this.putState(t, v);
  }

  /** Move VCD time to `t` (plus the offset), writing `#t` if it advanced (§18.2.3.8 simulation time). */
  private at(t: number): void {
    let u = t + this.offset;
    if (u === this.time) return;
    if (u < this.time) {
      // Time went backwards (reset/restore). Keep VCD time increasing and
      // keep clk = 1 on even times: shift by an even amount.
      const target = (this.time + 1 - u) % 2 === 0 ? this.time + 1 : this.time + 2;
      this.offset += target - u;
      this.putBytes(ascii(`$comment simulation went back to cycle ${Math.floor(t / 2)}; later times are offset by ${this.offset} $end\n`));
      u = target;
    }
    this.time = u;
    this.ensure(24);
    this.out[this.pos++] = 35; // '#'
    this.putUint(u);
    this.out[this.pos++] = 10;
  }

  private fall(c: number): void {
    this.at(2 * c + 1);
    this.putScalar(0, this.clockCode);
  }

  /** §18.2.3.8 value changes: scalar `0id`/`1id`, vector `b<bits> id` without leading zeros. */
  private putValue(v: number, width: number, code: Uint8Array): void {
    if (width === 1) {
      this.putScalar(v, code);
      return;
    }
    this.ensure(width + code.length + 3);
    const out = this.out;
    let p = this.pos;
    out[p++] = 98; // 'b'
    if (v === 0) out[p++] = 48;
    else for (let b = 31 - Math.clz32(v); b >= 0; b--) out[p++] = 48 + ((v >>> b) & 1);
    out[p++] = 32;
    for (let j = 0; j < code.length; j++) out[p++] = code[j]!;
    out[p++] = 10;
    this.pos = p;
  }

  private putScalar(v: number, code: Uint8Array): void {
    this.ensure(code.length + 2);
    const out = this.out;
    let p = this.pos;
    out[p++] = 48 + v;
    for (let j = 0; j < code.length; j++) out[p++] = code[j]!;
    out[p++] = 10;
    this.pos = p;
  }

  /** GTKWave string value: `sNAME code`. */
  private putState(t: number, v: number): void {
    const names = this.twinNames[t]!;
    const code = this.twinCodes[t]!;
    const name = v < names.length ? names[v] : undefined;
    this.ensure((name ? name.length : 24) + code.length + 3);
    this.out[this.pos++] = 115; // 's'
    if (name) for (let j = 0; j < name.length; j++) this.out[this.pos++] = name[j]!;
    else {
      this.out[this.pos++] = 63; // '?'
      this.putUint(v);
    }
    this.out[this.pos++] = 32;
    for (let j = 0; j < code.length; j++) this.out[this.pos++] = code[j]!;
    this.out[this.pos++] = 10;
  }

  /** Decimal digits of a whole number < 2^53, without allocating. */
  private putUint(t: number): void {
    const d = this.digits;
    let n = 0;
    do {
      const q = Math.floor(t / 10);
      d[n++] = 48 + (t - q * 10);
      t = q;
    } while (t > 0);
    this.ensure(n);
    while (n > 0) this.out[this.pos++] = d[--n]!;
  }

  private putByte(b: number): void {
    this.ensure(1);
    this.out[this.pos++] = b;
  }

  private putBytes(b: Uint8Array): void {
    if (this.pos + b.length > this.out.length) this.flush();
    if (b.length > this.out.length) {
      this.file!.write(b);
      this.bytes += b.length;
      return;
    }
    this.out.set(b, this.pos);
    this.pos += b.length;
  }

  private ensure(n: number): void {
    if (this.pos + n > this.out.length) {
      this.flush();
      if (n > this.out.length) this.out = new Uint8Array(n * 2);
    }
  }
}

/**
 * Create a VCD writer for `sim`, attach it (`sim.observe`) and return it.
 * The header and the initial values are written at once; call `close()` when
 * done (or let process exit / Ctrl-C do it).
 */
export function startVcd(sim: Simulator, path: string | OutputTarget, opts: VcdOptions = {}): VcdWriter {
  const w = new VcdWriter(sim, path, opts);
  w.detach = sim.observe(w);
  return w;
}
