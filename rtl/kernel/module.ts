/**
 * Modules, signals and memories: the declarations a design is built from.
 *
 * A module declares ports (`input`, `output`), internal `wire`s, registers
 * (`reg`), memories and child modules, plus processes:
 *  - `comb(fn, {writes, reads?})`: combinational logic. It computes the
 *    wires/outputs in `writes` from the signals it reads. `reads` defaults to
 *    every input, wire and register of the module (and its memories); give it
 *    explicitly only to break a false combinational loop at module level (an
 *    arbiter module whose request goes up and whose grant comes down).
 *  - `seq(fn, {reads?})`: the clocked part. It writes next values of its own
 *    registers (`s[reg.n] = v`) and queues memory writes (`mem.write`).
 *
 * A process must be a pure function of what it reads: the activity-driven
 * scheduler skips it when none of those signals changed. A unit only sees
 * its own ports, wires, registers and memories (ARCHITECTURE.md, "exactly like
 * a netlist"); processes read and write the simulator's flat state vector
 * `this.s` through slot indices (`sig.i`, and `reg.n` for a register's next
 * value), which are assigned at elaboration.
 */
import type { CounterSet } from './counters.ts';
import type { OnDemand, SimMode } from './simulator.ts';
import { ElaborationError, SimError } from './errors.ts';
import { isValidLocalName } from './names.ts';

export type SignalKind = 'in' | 'out' | 'wire' | 'reg';

export interface SignalOptions {
  /** Names of the values of an FSM state register, for VCD string twins and the REPL. */
  enum?: readonly string[];
  /** Field layout for decoded display, e.g. CAM rows: [name, lsb, width]. */
  fields?: readonly (readonly [string, number, number])[];
}

/** The options of a signal declared without any: one shared object, not one per signal (docs/kernel.md "Footprint"). */
const NO_OPTIONS: SignalOptions = Object.freeze({});

export class Signal {
  /** Slot of the current value in the state vector (after elaboration). */
  i = -1;
  /** Slot of the next value (registers only, after elaboration). */
  n = -1;
  /** Index among the design's counter registers (Module.statCounter), or -1. */
  counterId = -1;
  readonly mask: number;
  constructor(
    readonly module: Module,
    readonly name: string,
    readonly kind: SignalKind,
    readonly width: number,
    readonly reset: number,
    readonly options: SignalOptions,
  ) {
    this.mask = width === 32 ? 0xffffffff : 2 ** width - 1;
  }
  /**
   * Hierarchical name, '' before elaboration. Computed, not stored: a large
   * design has millions of signals, and most runs never ask (docs/kernel.md
   * "Footprint").
   */
  get path(): string {
    const m = this.module;
    if (!m.named) return '';
    return m.path ? `${m.path}.${this.name}` : this.name;
  }
  toString(): string {
    if (this.path) return this.path;
    return this.module.parent ? `${this.module.localPath()}.${this.name}` : this.name;
  }
}

/**
 * The memories with pending writes this cycle, in first-write order: a list
 * and a count, emptied by resetting the count (an array emptied with
 * `length = 0` drops its backing store, and the first write of the next
 * cycle allocated a new one: docs/kernel.md "Stop 21: allocation and layout").
 */
export class PendingMemories {
  readonly list: Memory[] = [];
  n = 0;
  add(m: Memory): void {
    this.list[this.n++] = m;
  }
  clear(): void {
    this.n = 0;
  }
}

/**
 * A memory: `depth` words of `width` bits. Reads are asynchronous
 * (`mem.data[addr]`); writes are queued by a seq process (`mem.write`) and
 * land at the clock edge together with the registers.
 */
export class Memory {
  path = '';
  readonly data: Float64Array;
  readonly mask: number;
  /** Pending writes this cycle: parallel arrays of address and value. */
  readonly pendAddr: Int32Array;
  readonly pendVal: Float64Array;
  pendCount = 0;
  /** Activity: index of this memory in the simulator (after elaboration). */
  id = -1;
  /** Cycle getter for error messages; set at elaboration. */
  cycleOf: () => number = () => 0;
  /** The simulator's list of memories with pending writes (set at elaboration), so commit visits only those. */
  pendingSink: PendingMemories | null = null;
  /**
   * Called after a word is poked from outside the design (Simulator.pokeMem:
   * the REPL, a testbench). A unit that keeps a cache of this memory (the
   * virtual link control's work list, rtl/t9000/vlc.ts) drops it here, as
   * the reference mode, which reads the memory every cycle, sees the poke.
   */
  onPoke: ((addr: number) => void) | null = null;
  constructor(
    readonly module: Module,
    readonly name: string,
    readonly width: number,
    readonly depth: number,
    readonly init: number,
    readonly writePorts: number,
  ) {
    this.data = new Float64Array(depth).fill(init);
    this.mask = width === 32 ? 0xffffffff : 2 ** width - 1;
    this.pendAddr = new Int32Array(writePorts);
    this.pendVal = new Float64Array(writePorts);
  }
  /** Queue a write for the coming clock edge (call from a seq process). */
  write(addr: number, value: number): void {
    if (this.pendCount >= this.writePorts) {
      throw new SimError(
        'unit-assertion',
        `memory ${this.path}: more than ${this.writePorts} write(s) in one cycle`,
        this.cycleOf(),
      );
    }
    if (!(addr >= 0 && addr < this.depth && (addr | 0) === addr)) {
      throw new SimError('unit-assertion', `memory ${this.path}: address ${addr} outside 0..${this.depth - 1}`, this.cycleOf());
    }
    if (!(value >= 0 && value <= this.mask && Math.floor(value) === value)) {
      throw new SimError('value-too-wide', `value ${value} does not fit ${this.width}-bit memory ${this.path}`, this.cycleOf());
    }
    if (this.pendCount === 0) this.pendingSink?.add(this);
    this.pendAddr[this.pendCount] = addr;
    this.pendVal[this.pendCount] = value;
    this.pendCount++;
  }
  read(addr: number): number {
    return this.data[addr]!;
  }
}

/**
 * Guarded reads (exact sensitivity, docs/kernel.md): the process reads
 * `reads` only while the guard `when` (a register or a comb-driven signal of
 * its module; not an output of the reader itself) allows it:
 *  - `is`: while `when` holds one of these values (`when` at most 5 bits);
 *  - `bits`: while `when & bits` is not 0 (`when` up to 32 bits: a per-bit
 *    enable, e.g. the crossbar's "input i requests or holds output j").
 * A change of one of `reads` wakes the process only while that holds; `when`
 * itself is a read, so entering such a state wakes it too. Plain mode
 * ignores the guard (it runs everything).
 *  - `bits` with `rise: true` ("wake on rise", docs/kernel.md "Stop 21:
 *    token layer"): `when` is not a plain read; a change of it wakes the
 *    process only when its new value has `when & bits` not 0. For a process
 *    that, while `when & bits` is 0, computes nothing its other reads do not
 *    already wake it for (the DS-link token choice's `advance` while `take`
 *    is 0): a one-cycle pulse wakes its reader once, not twice.
 *  - `bits` with `late: true` (seq processes only; rtl/kernel/late_guards.ts):
 *    a change of one of `reads` wakes the process if `when & bits` is not 0
 *    once the values of the coming edge have settled, not at the change.
 *  - `late` with `and` (a signal among `reads`; docs/kernel.md "Stop 25:
 *    token layer"): the guard holds while `when & bits` is not 0 and `and`
 *    is not 0, both looked at the edge; with `rise`, `when`'s change queues
 *    the process too (no wake at once). For a process that acts only while
 *    both stand (a FIFO's push and its enable).
 *  - `mems` (late only; rtl/kernel/late_mems.ts): memories of its module read
 *    under the same test, not among its plain reads.
 */
export type GuardedReads =
  | { when: Signal; is: readonly number[]; reads: readonly Signal[] }
  | { when: Signal; bits: number; reads: readonly Signal[]; rise?: boolean; late?: boolean; and?: Signal; mems?: readonly Memory[] };

export interface CombOptions {
  writes: readonly Signal[];
  reads?: readonly (Signal | Memory)[];
  /** Reads that matter only in some states (see GuardedReads); only with `reads`. */
  readsWhen?: readonly GuardedReads[];
  /**
   * Memories this process reads at one address only, the value of `addr`
   * (a signal in `reads`): a write to `mem` wakes it only when it changed the
   * word at that address, not a write anywhere in `mem` (docs/kernel.md
   * "Stop 24: kernel"). `mem` itself is then not in `reads`. An address
   * outside the memory reads no word (no write wakes it).
   */
  readsAt?: readonly AddressedRead[];
  /** Name used in loop reports and profiles. */
  name?: string;
}

/** A memory read at the address a signal holds (CombOptions.readsAt). */
export interface AddressedRead {
  mem: Memory;
  addr: Signal;
}

export interface SeqOptions {
  reads?: readonly (Signal | Memory)[];
  /** Reads that matter only in some states (see GuardedReads); only with `reads`. */
  readsWhen?: readonly GuardedReads[];
  /**
   * The registers this process writes (default: every register of its
   * module). Declaring them lets the commit visit only those when the
   * process ran (docs/kernel.md "Commit"); the debug mode checks the claim.
   * 'tracked': the process writes every register through `this.put(reg, v)`,
   * which records it, and the commit visits just what was written.
   */
  writes?: readonly Signal[] | 'tracked';
  name?: string;
}

export interface ProcessDecl {
  kind: 'comb' | 'seq';
  module: Module;
  fn: () => void;
  name: string;
  writes: readonly Signal[];
  reads: readonly (Signal | Memory)[] | undefined;
  readsWhen: readonly GuardedReads[];
  /** Comb processes: memories read at one address (CombOptions.readsAt). */
  readsAt?: readonly AddressedRead[];
  /** Seq processes: index in the simulator's seq list (after elaboration), for timed wake-ups. */
  index?: number;
  /** Seq processes that write through Module.put (SeqOptions.writes 'tracked'). */
  tracked?: boolean;
}

/** The simulator side of timed wake-ups and tracked writes (set at elaboration). */
export interface WakeSink {
  wakeAt(proc: ProcessDecl, cycle: number): void;
  /** Register `reg` takes `value` at the edge of `cycle` without a process running (fast mode only; timed_write.ts). */
  writeAt(reg: Signal, cycle: number, value: number): void;
  /** Drop the pending timed writes of register `reg`. */
  cancelWrites(reg: Signal): void;
  /** A tracked process wrote the next value of the register whose next slot is `n`. */
  written(n: number): void;
  /** 'activity' or 'plain' (Simulator.mode). */
  readonly mode: SimMode;
  /** The cycle whose values the state vector holds now (Simulator.stateCycle). */
  readonly stateCycle: number;
  /** Register an on-demand provider (Simulator.addOnDemand), e.g. from Module.onElaborated. */
  addOnDemand(p: OnDemand): void;
}

export interface Connection {
  a: Signal;
  b: Signal;
  where: Module;
}

export interface Tie {
  sig: Signal;
  value: number;
}

/**
 * Base class of every unit. Subclasses declare everything in their
 * constructor; after elaboration the structure is frozen.
 */
export class Module {
  readonly children: Module[] = [];
  readonly signals: Signal[] = [];
  readonly memories: Memory[] = [];
  readonly processes: ProcessDecl[] = [];
  /** The state vector, shared by the whole design; set at elaboration. */
  s: Float64Array = new Float64Array(0);
  /** Connections and ties made anywhere in the design are recorded at the root. */
  readonly connections: Connection[] = [];
  readonly ties: Tie[] = [];
  /** Hierarchical path ('' for the root). Set at elaboration. */
  path = '';
  /** Elaboration has named this module (its path and its signals' paths are known). */
  named = false;
  elaborated = false;
  /** Current cycle, for assertion messages; the simulator sets this. */
  cycleRef: { cycle: number } = { cycle: 0 };
  /** Statistics counter registers declared here (Module.statCounter). */
  readonly statCounters: Signal[] = [];
  /** The simulator's counters (set at elaboration). */
  counterSink: CounterSet | null = null;
  /** The simulator's timed wake-ups (set at elaboration). */
  wakeSink: WakeSink | null = null;
  /** What `whenSlots` registered (null: nothing), run once the slots are known. */
  slotBinders: (() => void)[] | null = null;

  constructor(
    readonly parent: Module | null,
    readonly name: string,
  ) {
    if (!isValidLocalName(name)) {
      throw new ElaborationError('bad-name', `bad module name '${name}': use letters, digits and _ (not starting with a digit)`);
    }
    if (parent) {
      if (parent.elaborated) throw new ElaborationError('already-elaborated', `cannot add ${name} to ${parent.localPath()}: design already elaborated`);
      parent.children.push(this);
    }
  }

  get root(): Module {
    let m: Module = this;
    while (m.parent) m = m.parent;
    return m;
  }

  /** The path as far as it is known before elaboration (for messages). */
  localPath(): string {
    if (this.path) return this.path;
    const parts: string[] = [];
    for (let m: Module | null = this; m && m.parent; m = m.parent) parts.unshift(m.name);
    return parts.join('.') || this.name;
  }

  private addSignal(name: string, kind: SignalKind, width: number, reset: number, options: SignalOptions): Signal {
    this.checkOpen(name);
    if (!(Number.isInteger(width) && width >= 1 && width <= 32)) {
      throw new ElaborationError('bad-width', `${this.localPath()}.${name}: width ${width} outside 1..32`);
    }
    const sig = new Signal(this, name, kind, width, reset, options);
    if (!(Number.isInteger(reset) && reset >= 0 && reset <= sig.mask)) {
      throw new ElaborationError('bad-width', `${this.localPath()}.${name}: reset value ${reset} does not fit ${width} bits`);
    }
    this.signals.push(sig);
    return sig;
  }

  private checkOpen(name: string): void {
    if (this.elaborated) throw new ElaborationError('already-elaborated', `cannot declare ${name} in ${this.localPath()}: design already elaborated`);
    if (!isValidLocalName(name)) {
      throw new ElaborationError('bad-name', `bad name '${name}' in ${this.localPath()}: use letters, digits and _ (not starting with a digit)`);
    }
  }

  input(name: string, width = 1, options: SignalOptions = NO_OPTIONS): Signal {
    return this.addSignal(name, 'in', width, 0, options);
  }
  output(name: string, width = 1, options: SignalOptions = NO_OPTIONS): Signal {
    return this.addSignal(name, 'out', width, 0, options);
  }
  wire(name: string, width = 1, options: SignalOptions = NO_OPTIONS): Signal {
    return this.addSignal(name, 'wire', width, 0, options);
  }
  /** A register. It may drive a net directly (connect it to other modules' inputs). */
  reg(name: string, width = 1, reset = 0, options: SignalOptions = NO_OPTIONS): Signal {
    return this.addSignal(name, 'reg', width, reset, options);
  }
  /**
   * A statistics counter register (rtl/kernel/counters.ts, docs/kernel.md
   * "Counters"): it counts the edges at which a seq process of this module
   * calls `tally(reg, true)`, modulo 2^width, and is kept as edge time stamps
   * in the fast mode. No process may read it.
   */
  statCounter(name: string, width = 32): Signal {
    const r = this.reg(name, width, 0);
    this.statCounters.push(r);
    return r;
  }
  /** From a seq process: counter `reg` counts this edge if `on` (in the fast mode: every edge until tally(reg, false)). */
  tally(reg: Signal, on: boolean): void {
    this.counterSink!.count(reg.counterId, on);
  }
  /** Arrays of ports/registers named `name0..name{count-1}`. */
  inputs(name: string, count: number, width = 1): Signal[] {
    return Array.from({ length: count }, (_, k) => this.input(`${name}${k}`, width));
  }
  outputs(name: string, count: number, width = 1): Signal[] {
    return Array.from({ length: count }, (_, k) => this.output(`${name}${k}`, width));
  }
  regs(name: string, count: number, width = 1, reset = 0, options: SignalOptions = {}): Signal[] {
    return Array.from({ length: count }, (_, k) => this.reg(`${name}${k}`, width, reset, options));
  }
  memory(name: string, width: number, depth: number, opts: { init?: number; writePorts?: number } = {}): Memory {
    this.checkOpen(name);
    if (!(Number.isInteger(width) && width >= 1 && width <= 32)) {
      throw new ElaborationError('bad-width', `${this.localPath()}.${name}: memory width ${width} outside 1..32`);
    }
    if (!(Number.isInteger(depth) && depth >= 1 && depth <= 1 << 24)) {
      throw new ElaborationError('bad-width', `${this.localPath()}.${name}: memory depth ${depth} outside 1..16777216`);
    }
    const mem = new Memory(this, name, width, depth, opts.init ?? 0, opts.writePorts ?? 1);
    this.memories.push(mem);
    return mem;
  }

  comb(fn: () => void, opts: CombOptions): void {
    this.checkOpen('comb');
    this.processes.push({ kind: 'comb', module: this, fn, name: opts.name ?? `comb${this.processes.length}`, writes: opts.writes, reads: opts.reads, readsWhen: opts.readsWhen ?? [], readsAt: opts.readsAt });
  }
  /** Declare a seq process; the handle is what `wakeAt` takes. */
  seq(fn: () => void, opts: SeqOptions = {}): ProcessDecl {
    this.checkOpen('seq');
    const tracked = opts.writes === 'tracked';
    const writes = opts.writes === 'tracked' || opts.writes === undefined ? [] : opts.writes;
    const d: ProcessDecl = { kind: 'seq', module: this, fn, name: opts.name ?? `seq${this.processes.length}`, writes, reads: opts.reads, readsWhen: opts.readsWhen ?? [], tracked };
    this.processes.push(d);
    return d;
  }

  /** From a seq process declared with writes 'tracked': set the next value of register `reg` and record the write. */
  put(reg: Signal, v: number): void {
    this.s[reg.n] = v;
    this.wakeSink!.written(reg.n);
  }

  /**
   * Timed wake-up (docs/kernel.md "Timed wake-ups"): run seq process `proc`
   * of this module at cycle `cycle` (its clock edge), even if nothing it reads
   * changed. From a process or a stimulus; `cycle` must not be in the past.
   * The reference mode runs every process every cycle anyway, so a process
   * woken this way must leave the state unchanged in the cycles it did not
   * ask for (typically: it acts when the cycle is the one it waits for).
   */
  wakeAt(proc: ProcessDecl, cycle: number): void {
    if (proc.module !== this) throw new SimError('bad-argument', `${this.path}: wakeAt for ${proc.module.path}.${proc.name}, a process of another module`);
    this.wakeSink!.wakeAt(proc, cycle);
  }

  /**
   * Timed register write (docs/kernel.md "Timed register writes"): register
   * `reg` of this module takes `value` at the edge of `cycle`, committed by
   * the kernel without running a process (a process of the module running at
   * that edge and writing `reg` overrides it). Only for a value the module's
   * own seq logic would write there; a no-op in the reference mode, which
   * runs that logic every cycle.
   */
  writeAt(reg: Signal, cycle: number, value: number): void {
    if (reg.module !== this || reg.kind !== 'reg') throw new SimError('bad-argument', `${this.path}: writeAt for ${reg.path}, not a register of this module`);
    this.wakeSink!.writeAt(reg, cycle, value);
  }

  /** Drop the pending timed writes of register `reg` of this module (writeAt). */
  cancelWrites(reg: Signal): void {
    this.wakeSink!.cancelWrites(reg);
  }

  /** Join two signals into one net (ports of this module or of its children). */
  connect(a: Signal, b: Signal): void {
    if (this.elaborated) throw new ElaborationError('already-elaborated', `cannot connect ${a} and ${b}: design already elaborated`);
    if (a.width !== b.width) {
      throw new ElaborationError('width-mismatch', `width mismatch: ${a} is ${a.width} bits, ${b} is ${b.width} bits`);
    }
    this.root.connections.push({ a, b, where: this });
  }
  /** Drive a net with a constant. */
  tie(sig: Signal, value: number): void {
    if (!(Number.isInteger(value) && value >= 0 && value <= sig.mask)) {
      throw new ElaborationError('width-mismatch', `tie ${sig} = ${value}: value does not fit ${sig.width} bits`);
    }
    this.root.ties.push({ sig, value });
  }

  /**
   * Called once after elaboration, when every signal has its slot (`sig.i`,
   * `reg.n`). Override it to cache slot indices in typed arrays, so that hot
   * processes index the state vector directly instead of going through
   * Signal objects.
   */
  onElaborated(): void {}

  /**
   * Run `bind` once every signal has its slot, before onElaborated: a hot
   * process copies the slot indices it uses into its closure's variables
   * there, so each run reads numbers from its own context instead of going
   * through Signal objects spread over the heap (docs/kernel.md "Stop 20:
   * cost per evaluation").
   */
  whenSlots(bind: () => void): void {
    (this.slotBinders ??= []).push(bind);
  }

  /** Throw a unit assertion naming this module and the cycle. */
  fail(message: string): never {
    throw new SimError('unit-assertion', `${this.path || this.name}: ${message}`, this.cycleRef.cycle);
  }
}

/** An empty slot table, the value of a closure's table before Module.whenSlots fills it. */
export const NO_SLOTS: Int32Array = new Int32Array(0);

/** The current-value (`'i'`) or next-value (`'n'`) slots of `sigs`, for a closure's table in Module.whenSlots. */
export function slotsOf(sigs: readonly Signal[], which: 'i' | 'n'): Int32Array {
  return Int32Array.from(sigs, (x) => x[which]);
}
