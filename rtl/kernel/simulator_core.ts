/**
 * The simulator's core: state, the clock's loop (one cycle: stimuli, the
 * dirty seq processes, commit, settle), the dirty sets and the units' wake-up
 * and timed-write sink (docs/kernel.md). The options are resolved in
 * sim_options.ts; the public stepping API (step with fast-forward, runUntil,
 * stimuli, observers) is in stepping.ts; names, peek/poke and forces in
 * peek_poke.ts, snapshots in snapshots.ts, the commit's register loops in
 * commit.ts, the marking of readers in reader_index.ts, the per-process
 * records the hot loops read in tables.ts, the option and observer shapes in
 * sim_types.ts; `Simulator` (simulator.ts) is the one concrete class.
 */
import { CounterSet, type CounterState } from './counters.ts';
import { DirtySet } from './dirty_set.ts';
import { WakeQueue } from './wake_queue.ts';
import { TimedWrites } from './timed_write.ts';
import { OnDemandValues, type OnDemand } from './on_demand.ts';
import { generatedDispatch } from './dispatch.ts';
import { ReaderWake } from './reader_index.ts';
import { Commit, tooWide } from './commit.ts';
import { combRecords } from './tables.ts';
import { memReaders, type MemReaders } from './mem_readers.ts';
import { resolveSimOptions } from './sim_options.ts';
import { elaborate, type Netlist } from './elaborate.ts';
import { ElaborationError, SimError } from './errors.ts';
import { Memory, Module, PendingMemories, type ProcessDecl, Signal } from './module.ts';
import type { Simulator } from './simulator.ts';

import type { Force, Observer, SimMode, SimOptions, Stimulus } from './sim_types.ts';

export type { Force, Observer, SimMode, SimOptions, Stimulus };

export abstract class SimulatorCore {
  readonly net: Netlist;
  readonly s: Float64Array;
  protected _mode: SimMode;
  protected _fastForward: boolean;
  protected readonly wantFastForward: boolean;
  readonly clock = { cycle: 0 };
  /** Processes evaluated so far (a measure of work, for benchmarks). */
  evaluations = 0;
  /** Cycles skipped by fast-forward. */
  skipped = 0;
  /** Debug mode (SimOptions.checks). */
  readonly checks: boolean;
  /** Statistics counters (Module.statCounter), kept as edge time stamps in the fast mode. */
  protected readonly counters: CounterSet;
  /** Timed wake-ups: a binary min-heap of (cycle, seq process), parallel arrays. */
  protected readonly wakes = new WakeQueue();
  /** Timed register writes (timed_write.ts): fast mode only. */
  protected readonly timedWrites = new TimedWrites();
  /** Values computed on demand (serial lines, NULL trains): on_demand.ts. */
  protected readonly onDemand = new OnDemandValues();
  /** Some observer reads the slots of providers with `slots` directly. */
  protected observersNeedOwned = false;
  /** Between the commit and the end of a cycle: the state vector holds the next cycle's values. */
  protected postCommit = false;

  protected readonly combFns: (() => void)[];
  protected readonly seqDispatch: (p: number) => void;
  protected readonly combDispatch: (p: number) => void;
  protected readonly seqFns: (() => void)[];
  protected readonly combDirty: DirtySet;
  protected readonly seqDirty: DirtySet;
  /** Who wakes when a slot changes (reader_index.ts). */
  protected readonly wake: ReaderWake;
  /** The registers' commit and the tracked-write list (commit.ts). */
  protected readonly commit: Commit;
  protected needSettle = false;
  /** Something was poked since the last clock edge: observers get onStimulus before the next one. */
  protected poked = false;
  protected readonly oldOut: Float64Array;
  /**
   * Per comb process p, what runComb reads of it, on one line
   * (docs/kernel.md "Stop 22: kernel tables"): a process writing one slot x
   * has combRec[2p] = combRec[2p+1] = ~x (its old value kept in a local); otherwise
   * combRec[2p]..combRec[2p+1] is its range in the netlist's combWrites and
   * its old values' place in oldOut.
   */
  protected readonly combRec: Int32Array;
  protected readonly pendingMems = new PendingMemories();
  /** Who wakes when a memory word changes (mem_readers.ts). */
  protected readonly memWake: MemReaders;
  protected forces: Force[] = [];
  protected readonly forcedProc: Uint8Array;
  protected stimuli: Stimulus[] = [];
  protected stimulusOrder = 0;
  protected readonly observers: Observer[] = [];

  constructor(root: Module, opts: SimOptions = {}) {
    const o = resolveSimOptions(opts);
    this._mode = o.mode;
    this.wantFastForward = o.fastForward;
    this.checks = o.checks;
    this._fastForward = this._mode === 'activity' && this.wantFastForward;
    this.net = elaborate(root);
    const net = this.net;
    const slotBytes = o.slotBytes;
    // 4-byte slots halve the state's cache lines (docs/kernel.md "Stop 23:
    // 4-byte slots"). The type stays Float64Array, which the units' code is
    // written against: both arrays index and read back the same numbers for
    // the uint32 values a slot holds.
    this.s = slotBytes === 4 ? (new Uint32Array(net.size) as unknown as Float64Array) : new Float64Array(net.size);
    for (const m of net.modules) {
      m.s = this.s;
      m.cycleRef = this.clock;
      m.elaborated = true;
    }
    for (const mem of net.memories) {
      mem.cycleOf = () => this.clock.cycle;
      mem.pendingSink = this.pendingMems;
    }
    const counterRegs = net.modules.flatMap((m) => m.statCounters);
    counterRegs.forEach((r, k) => {
      r.counterId = k;
      const x = r.i;
      if (net.combReaderStart[x] !== net.combReaderStart[x + 1] || net.seqReaderStart[x] !== net.seqReaderStart[x + 1] || net.combGuardStart[x] !== net.combGuardStart[x + 1] || net.seqGuardStart[x] !== net.seqGuardStart[x + 1]) {
        throw new ElaborationError('bad-process', `counter register ${r.path} is read by a process (give that process an explicit reads list without it): counters wake nobody in the fast mode`);
      }
    });
    this.counters = new CounterSet(counterRegs, this.s, this.clock);
    this.counters.perCycle = this._mode === 'plain';
    for (const m of net.modules) m.counterSink = this.counters;
    net.seq.forEach((p, k) => (p.index = k));
    for (const m of net.modules) m.wakeSink = this;
    for (const m of net.modules) {
      if (!m.slotBinders) continue;
      for (const bind of m.slotBinders) bind();
      m.slotBinders = null; // run once: a design is elaborated once
    }
    for (const m of net.modules) m.onElaborated();
    this.combFns = net.comb.map((p) => p.fn);
    this.seqFns = net.seq.map((p) => p.fn);
    this.seqDispatch = generatedDispatch(this.seqFns, net.seq);
    this.combDispatch = generatedDispatch(this.combFns, net.comb);
    this.combDirty = new DirtySet(net.comb.length);
    this.seqDirty = new DirtySet(net.seq.length);
    this.wake = new ReaderWake(net, this.s, this.combDirty, this.seqDirty);
    this.commit = new Commit(net, this.s, this.wake, this.clock, this.checks);
    this.forcedProc = new Uint8Array(net.comb.length);
    // As wide as a slot: with 4-byte slots every value a comb process leaves is a uint32 read back from the
    // Uint32Array, so a Uint32Array keeps it unchanged, in half the lines (docs/kernel.md "Stop 24: kernel").
    this.oldOut = slotBytes === 4 ? (new Uint32Array(net.combWrites.length) as unknown as Float64Array) : new Float64Array(net.combWrites.length);
    this.combRec = combRecords(net.combWriteStart, net.combWrites);
    this.memWake = memReaders(net, o.memoryWake);
    this.reset();
  }

  get cycle(): number {
    return this.clock.cycle;
  }

  /** 'activity' (the fast mode) or 'plain' (the reference mode: every process every cycle). */
  get mode(): SimMode {
    return this._mode;
  }
  get fastForward(): boolean {
    return this._fastForward;
  }

  /**
   * Switch between the fast and the reference mode between two cycles; the
   * state carries over, so a run can warm up fast and continue in the
   * reference mode (bench), or a debugger can cross-check a stretch. Entering
   * the activity mode evaluates everything once (every process is dirty).
   */
  setMode(mode: SimMode): void {
    if (mode !== 'activity' && mode !== 'plain') throw new SimError('bad-argument', `setMode: '${String(mode)}' is not 'activity' or 'plain'`);
    if (mode === this._mode) return;
    // On-demand values (serial lines) are brought up to date while the fast
    // mode still computes them; the reference mode then carries them on.
    // NULL trains hand their units back (thaw).
    if (this._mode === 'activity') this.materialize();
    this.onDemand.thawAll();
    this._mode = mode;
    this._fastForward = mode === 'activity' && this.wantFastForward;
    if (mode === 'plain') {
      this.counters.stopAll(true);
      this.timedWrites.clear(); // the reference mode's processes write them (timed_write.ts)
    }
    this.counters.perCycle = mode === 'plain';
    this.wake.late.clear();
    if (mode === 'activity') {
      this.seqDirty.fill();
      this.combDirty.fill();
      this.needSettle = true;
    } else {
      this.seqDirty.clear();
      this.combDirty.clear();
    }
  }

  /** Return every register and memory to its reset value; cycle 0. Stimuli and forces are dropped. */
  reset(): void {
    const net = this.net;
    const s = this.s;
    s.fill(0);
    for (let r = 0; r < net.nRegs; r++) {
      const v = net.regSignals[r]!.reset;
      s[net.regBase + 2 * r] = v;
      s[net.regBase + 2 * r + 1] = v;
    }
    for (let k = 0; k < net.tieSlots.length; k++) s[net.tieSlots[k]!] = net.tieValues[k]!;
    for (const m of net.memories) {
      m.data.fill(m.init);
      m.pendCount = 0;
    }
    this.pendingMems.clear();
    this.forces = [];
    this.forcedProc.fill(0);
    this.stimuli = [];
    this.counters.stopAll(false);
    this.wakes.clear();
    this.timedWrites.clear();
    this.clearTracked();
    this.onDemand.resetAll();
    this.clock.cycle = 0;
    this.settleAll();
    this.wake.late.clear();
    this.seqDirty.fill();
    this.combDirty.clear();
    this.needSettle = false;
    this.poked = false;
    for (const o of this.observers) o.onCycle?.(this.self);
  }

  protected stepOnce(): void {
    if (this.stimuli.length && this.stimuli[0]!.cycle <= this.clock.cycle) this.runStimuli();
    if (this.needSettle) this.settle();
    if (this.poked) {
      // Reported even when a peek already settled the poked values.
      this.poked = false;
      this.materializeForObservers();
      for (const o of this.observers) o.onStimulus?.(this.self);
    }
    if (this.wakes.next <= this.clock.cycle) this.wakes.popDue(this.clock.cycle, this.markDue);
    if (this._mode === 'activity') {
      const timed = this.timedWrites.next <= this.clock.cycle;
      if (timed) this.timedWrites.applyDue(this.clock.cycle, this.s);
      this.runDirtySeq();
      if (timed) this.commit.first(this.timedWrites.applied, this.timedWrites.nApplied);
      this.commitActive();
    } else {
      const fns = this.seqFns;
      const n = fns.length;
      if (this.checks) for (let p = 0; p < n; p++) this.runSeqChecked(p);
      else for (let p = 0; p < n; p++) fns[p]!();
      this.evaluations += n;
      this.commitPlain();
    }
    if (this.forces.length) this.releaseForces();
    this.postCommit = true;
    this.settle();
    this.postCommit = false;
    this.clock.cycle++;
    this.onDemand.stale(); // the on-demand values moved on
    const obs = this.observers;
    if (obs.length) this.materializeForObservers();
    for (let k = 0; k < obs.length; k++) obs[k]!.onCycle?.(this.self);
  }

  // ---------------------------------------------------------------- timed wake-ups

  /** WakeSink: run seq process `proc` at cycle `cycle`. */
  wakeAt(proc: ProcessDecl, cycle: number): void {
    if (!(Number.isInteger(cycle) && cycle >= this.clock.cycle)) {
      throw new SimError('bad-argument', `wakeAt ${proc.module.path}.${proc.name}: cycle ${cycle} is in the past (now ${this.clock.cycle})`, this.clock.cycle);
    }
    this.wakes.push(cycle, proc.index!);
  }

  /** WakeSink: a tracked process wrote the register whose next-value slot is `n`. */
  written(n: number): void {
    this.commit.written(n);
  }

  /** WakeSink: register `reg` takes `value` at the edge of `cycle` (fast mode only; timed_write.ts). */
  writeAt(reg: Signal, cycle: number, value: number): void {
    // The width and integer checks in debug mode only (a hot path: a DS-link token train writes twice a token).
    if (!(cycle >= this.clock.cycle) || (this.checks && (!Number.isInteger(cycle) || reg.n < 0 || !(Number.isInteger(value) && value >= 0 && value <= reg.mask)))) {
      throw new SimError('bad-argument', `writeAt ${reg.path}: cycle ${cycle} (now ${this.clock.cycle}) or value ${value} not allowed`, this.clock.cycle);
    }
    if (this._mode === 'activity') this.timedWrites.push(cycle, reg.n, value);
  }

  /** Drop the pending timed writes of register `reg` (timed_write.ts). */
  cancelWrites(reg: Signal): void {
    this.timedWrites.cancel(reg.n, this.clock.cycle, this.s);
  }

  /** Forget the tracked writes (after a commit that covered them). */
  protected clearTracked(): void {
    this.commit.clearTracked();
  }

  /** A due wake-up: mark the process (the reference mode runs every process anyway). */
  protected readonly markDue = (p: number): void => {
    if (this._mode === 'activity') this.seqDirty.add(p);
  };

  // ---------------------------------------------------------------- on-demand values

  /** Register a provider of on-demand slot values (e.g. a serial line's bit). */
  addOnDemand(p: OnDemand): void {
    this.onDemand.add(p);
  }

  /**
   * The cycle whose values the state vector holds: the current cycle, or the
   * next one while the combinational logic settles after a commit (a comb
   * process that hands on-demand values back needs to know which).
   */
  get stateCycle(): number {
    return this.clock.cycle + (this.postCommit ? 1 : 0);
  }

  /** Write every on-demand value (counters, serial lines) into the state vector for the current cycle. */
  protected materialize(): void {
    this.counters.materialize();
    this.onDemand.materializeAll(this.clock.cycle, this.s);
  }

  /** What a reader of `slot` (or of no owned slot, -1) needs: its owner, or the providers without slots. */
  protected materializeFor(slot: number): void {
    this.counters.materialize();
    this.onDemand.materializeFor(slot, this.clock.cycle, this.s);
  }

  /** Before observers: everything, unless every observer reads owned slots only through peek. */
  protected materializeForObservers(): void {
    if (this.observersNeedOwned) this.materialize();
    else this.materializeFor(-1);
  }

  protected settle(): void {
    this.needSettle = false;
    if (this._mode === 'activity') this.settleActive();
    else this.settleAll();
  }

  protected settleIfNeeded(): void {
    if (this.needSettle) this.settle();
  }

  /** Plain mode: run every comb process in order, then check every wire's width. */
  protected settleAll(): void {
    const fns = this.combFns;
    const n = fns.length;
    const forced = this.forces.length > 0;
    for (let p = 0; p < n; p++) {
      fns[p]!();
      if (forced && this.forcedProc[p]) this.applyForces(p);
    }
    this.evaluations += n;
    if (!this.checks) return;
    const s = this.s;
    const mask = this.net.slotMask;
    const W = this.net.nWires;
    for (let w = 0; w < W; w++) {
      const v = s[w]!;
      if (!(v >= 0 && v <= mask[w]! && (v >>> 0) === v)) this.tooWide(w, v);
    }
  }

  /** Activity mode: run the dirty comb processes in order; mark readers of changed outputs. */
  protected settleActive(): void {
    // DirtySet.drain, inlined: a process may add later processes to the set
    // while it runs, so each word and summary word is re-read until empty.
    const set = this.combDirty;
    const words = set.words;
    const summary = set.summary;
    let visited = 0;
    for (let sw = 0; sw < summary.length; sw++) {
      while (summary[sw] !== 0) {
        const sb = summary[sw]!;
        const wlow = sb & -sb;
        const wi = (sw << 5) + (31 - Math.clz32(wlow));
        let bits: number;
        while ((bits = words[wi]!) !== 0) {
          const low = bits & -bits;
          words[wi] = bits ^ low;
          set.count--;
          visited++;
          this.runComb((wi << 5) + (31 - Math.clz32(low)));
        }
        summary[sw]! &= ~wlow;
      }
    }
    this.evaluations += visited;
  }

  /** Run the dirty seq processes in index order (DirtySet.drain, inlined: this is the hottest loop). */
  protected runDirtySeq(): void {
    if (this.wake.late.n !== 0) this.wake.late.resolve(); // the values of this edge: the late guards' readers (late_guards.ts)
    const set = this.seqDirty;
    const words = set.words;
    const summary = set.summary;
    const ran = this.commit.ran;
    let nRan = 0;
    for (let sw = 0; sw < summary.length; sw++) {
      let sb = summary[sw]!;
      while (sb !== 0) {
        const wlow = sb & -sb;
        const wi = (sw << 5) + (31 - Math.clz32(wlow));
        let bits = words[wi]!;
        words[wi] = 0;
        while (bits !== 0) {
          const low = bits & -bits;
          bits ^= low;
          const p = (wi << 5) + (31 - Math.clz32(low));
          if (this.checks) this.runSeqChecked(p);
          else this.seqDispatch(p);
          ran[nRan++] = p;
        }
        sb ^= wlow;
      }
      summary[sw] = 0;
    }
    set.count = 0;
    this.commit.nRan = nRan;
    this.evaluations += nRan;
  }

  protected readonly runComb = (p: number): void => {
    const s = this.s;
    const a = this.combRec[2 * p]!;
    // One slot: its old value in a local. Several: in oldOut (a..b of combWrites).
    const one = ~a;
    const b = this.combRec[2 * p + 1]!;
    const wl = this.net.combWrites;
    const old = this.oldOut;
    const o = a < 0 ? s[one]! : 0;
    for (let k = a; k < b; k++) old[k] = s[wl[k]!]!;
    // One call site of the dispatch, so V8 inlines it once.
    this.combDispatch(p);
    if (this.forces.length > 0 && this.forcedProc[p]) this.applyForces(p);
    if (a < 0) {
      const v = s[one]!;
      if (v !== o) this.changed(one, v);
      return;
    }
    for (let k = a; k < b; k++) {
      const slot = wl[k]!;
      const v = s[slot]!;
      if (v !== old[k]) this.changed(slot, v);
    }
  };

  /** A comb process changed `slot` to `v`: check it (debug mode), wake its readers. */
  protected changed(slot: number, v: number): void {
    if (this.checks && !(v >= 0 && v <= this.net.slotMask[slot]! && (v >>> 0) === v)) this.tooWide(slot, v);
    this.wake.mark(slot);
  }

  /** Commit (plain mode): all registers take their next values at once. */
  protected commitPlain(): void {
    this.commit.plain();
    this.commitMemories(false);
  }

  /** Commit (activity mode): the registers the processes that ran may write (commit.ts), then memories. */
  protected commitActive(): void {
    this.commit.active();
    this.commitMemories(true);
  }

  /** Debug mode: run seq process p and check that it wrote no register of its module beyond its declared writes. */
  protected runSeqChecked(p: number): void {
    const net = this.net;
    const decl = net.seq[p]!;
    if (!decl.writes.length && !decl.tracked) {
      this.seqFns[p]!();
      return;
    }
    const lo = net.seqRegLo[p]!;
    const hi = net.seqRegHi[p]!;
    const next = (r: number): number => this.s[net.regBase + 2 * r + 1]!;
    const before = Array.from({ length: hi - lo }, (_, k) => next(lo + k));
    this.seqFns[p]!();
    const own = new Set<number>();
    for (let j = net.seqWriteStart[p]!; j < net.seqWriteStart[p + 1]!; j++) own.add(net.seqWriteList[j]!);
    for (let r = lo; r < hi; r++) {
      if (decl.tracked ? this.commit.trackedMark[r] === 1 : own.has(r)) continue;
      if (next(r) !== before[r - lo]) {
        throw new SimError('unit-assertion', `${decl.module.path}.${decl.name} wrote register ${net.regSignals[r]!.path}, which it does not ${decl.tracked ? 'record with put' : 'declare in its writes'}`, this.clock.cycle);
      }
    }
  }

  protected commitMemories(mark: boolean): void {
    const pending = this.pendingMems;
    const list = pending.list;
    for (let k = 0; k < pending.n; k++) {
      const m = list[k]!;
      const at = this.memWake.at[m.id]!;
      let changed = false;
      for (let j = 0; j < m.pendCount; j++) {
        const a = m.pendAddr[j]!;
        const v = m.pendVal[j]!;
        if (m.data[a] !== v) {
          m.data[a] = v;
          changed = true;
          if (mark && at.length !== 0) this.markAt(at, a);
        }
      }
      m.pendCount = 0;
      if (changed && mark) this.markMemory(m);
    }
    pending.clear();
  }

  /** Slot `slot` changed: its readers wake, and its guarded readers whose guard is in a reading state (reader_index.ts). */
  protected markSlot(slot: number): void {
    this.wake.mark(slot);
  }

  /** A word of memory m changed: its whole-memory readers wake (its readers at one address: markAt). */
  protected markMemory(m: Memory): void {
    const comb = this.memWake.comb[m.id]!;
    for (const p of comb) this.combDirty.add(p);
    for (const q of this.net.memSeqReaders[m.id]!) this.seqDirty.add(q);
    const late = this.net.lateMems.readers[m.id]!;
    for (let k = 0; k < late.length; k++) this.wake.late.push(late[k]!); // wakes at the edge if its guard holds (late_mems.ts)
    this.needSettle = this.needSettle || comb.length > 0;
  }

  /** Word `addr` of a memory changed: of its readers at one address (pairs in `at`: process, address slot), those at `addr` wake (mem_readers.ts). */
  protected markAt(at: Int32Array, addr: number): void {
    const s = this.s;
    for (let k = 0; k < at.length; k += 2) {
      if (s[at[k + 1]!] === addr) {
        this.combDirty.add(at[k]!);
        this.needSettle = true;
      }
    }
  }

  protected tooWide(slot: number, v: number): never {
    return tooWide(this.net, slot, v, this.clock.cycle);
  }

  protected runStimuli(): void {
    while (this.stimuli.length && this.stimuli[0]!.cycle <= this.clock.cycle) {
      const st = this.stimuli.shift()!;
      st.fn(this.self);
    }
  }

  protected applyForces(p: number): void {
    for (const f of this.forces) if (f.proc === p) this.s[f.slot] = f.value;
  }

  protected releaseForces(): void {
    for (const f of this.forces) {
      this.forcedProc[f.proc] = 0;
      this.combDirty.add(f.proc);
      // Its readers too: the driver may give back the forced value, no change a
      // reader woken on rise sees (docs/kernel.md "Stop 21: token layer").
      this.markSlot(f.slot);
    }
    this.forces = [];
  }

  /** This core as the Simulator it always is (the class is abstract; Simulator is its one concrete subclass), for observers and stimuli. */
  protected get self(): Simulator {
    return this as unknown as Simulator;
  }
}
