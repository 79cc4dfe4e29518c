/**
 * Snapshots: the whole machine state saved and restored (debugger `back`,
 * the fast/reference property's restores), the state hash and the value
 * dump for trace comparison.
 */
import { SimulatorAccess } from './peek_poke.ts';
import type { CounterState } from './counters.ts';
import type { Force, Stimulus } from './simulator_core.ts';
import { SimError } from './errors.ts';
import { stateHash } from './state_hash.ts';
import type { TimedWriteState } from './timed_write.ts';

export interface Snapshot {
  readonly cycle: number;
  readonly state: Float64Array;
  readonly mems: Float64Array[];
  readonly combDirty: Uint32Array;
  readonly seqDirty: Uint32Array;
  readonly needSettle: boolean;
  readonly poked: boolean;
  readonly forces: Force[];
  readonly stimuli: Stimulus[];
  readonly extras: unknown[];
  readonly counters: CounterState;
  readonly wakes: { cycle: number[]; proc: number[] };
  /** Pending timed register writes (absent in older snapshots: none). */
  readonly timedWrites?: TimedWriteState;
  readonly onDemand: unknown[];
  /** The mode it was saved in: the reference mode keeps no dirty sets (absent in older snapshots: taken as the mode restored into). */
  readonly mode?: 'activity' | 'plain';
}

/** Extra state (e.g. a workload RNG) saved and restored with the design. */
export interface StateProvider {
  save(): unknown;
  restore(v: unknown): void;
  /**
   * Throws (one line) if `v` cannot be restored, changing nothing. The kernel
   * asks every provider before it changes anything, so a refused restore
   * leaves the whole simulator where it was.
   */
  check?(v: unknown): void;
  hash?(): number;
}

export abstract class SimulatorSnapshots extends SimulatorAccess {
  private readonly providers: StateProvider[] = [];

  // ---------------------------------------------------------------- snapshots

  addStateProvider(p: StateProvider): void {
    this.providers.push(p);
  }

  /** The whole machine state: state vector, memories, pending stimulus, forces, providers. */
  save(): Snapshot {
    this.materialize();
    this.wake.late.flush(); // queued late-guard readers into the dirty set (late_guards.ts)
    return {
      cycle: this.clock.cycle,
      state: this.s.slice(),
      mems: this.net.memories.map((m) => m.data.slice()),
      combDirty: this.combDirty.snapshot(),
      seqDirty: this.seqDirty.snapshot(),
      needSettle: this.needSettle,
      poked: this.poked,
      forces: this.forces.map((f) => ({ ...f })),
      stimuli: this.stimuli.slice(),
      extras: this.providers.map((p) => p.save()),
      counters: this.counters.save(),
      wakes: this.wakes.save(),
      timedWrites: this.timedWrites.save(),
      onDemand: this.onDemand.save(),
      mode: this._mode,
    };
  }

  /**
   * Put the machine back to `snap`, all or nothing: the snapshot's shape and
   * every provider's `check` are asked first; the providers are restored
   * before the kernel's own state, and if one of them still throws, those
   * already restored are put back to where they were. So a failed restore
   * changes nothing and reports one error.
   */
  restore(snap: Snapshot): void {
    this.checkSnapshot(snap);
    this.providers.forEach((p, k) => p.check?.(snap.extras[k]));
    this.restoreProviders(snap.extras);
    this.s.set(snap.state);
    this.net.memories.forEach((m, k) => {
      m.data.set(snap.mems[k]!);
      m.pendCount = 0;
    });
    this.pendingMems.clear();
    this.combDirty.restore(snap.combDirty);
    this.seqDirty.restore(snap.seqDirty);
    this.wake.late.clear(); // the saved state flushed its own queue (save)
    this.needSettle = snap.needSettle;
    this.poked = snap.poked;
    this.forces = snap.forces.map((f) => ({ ...f }));
    this.forcedProc.fill(0);
    for (const f of this.forces) this.forcedProc[f.proc] = 1;
    this.stimuli = snap.stimuli.slice();
    this.clock.cycle = snap.cycle;
    this.counters.restore(snap.counters);
    this.clearTracked();
    this.wakes.restore(snap.wakes);
    this.timedWrites.restore(this._mode === 'activity' ? snap.timedWrites : undefined);
    this.onDemand.restore(snap.onDemand);
    // Saved in the reference mode, restored in the fast one: the reference
    // mode's dirty sets are empty (it runs every process every cycle), so
    // every process is marked as a switch to the fast mode does (setMode).
    // Restored in the reference mode (saved in the fast one): the providers
    // (token and NULL trains) came back holding values on demand and the
    // counters running from start times, neither of which the reference
    // mode does; both are handed back as a switch to the reference mode
    // hands them (setMode; the state vector holds the saved, materialized
    // values) (docs/kernel.md "Stop 21: review").
    if (this._mode === 'plain') {
      this.counters.stopAll(true);
      this.onDemand.thawAll();
    }
    if (snap.mode === 'plain' && this._mode === 'activity') {
      this.seqDirty.fill();
      this.combDirty.fill();
      this.needSettle = true;
    }
  }

  /** Everything the kernel's own restore steps could refuse, asked before any of them runs. */
  private checkSnapshot(snap: Snapshot): void {
    const mems = this.net.memories;
    const same =
      snap.state.length === this.s.length &&
      snap.mems.length === mems.length &&
      snap.mems.every((m, k) => m.length === mems[k]!.data.length) &&
      snap.combDirty.length === (this.combDirty.size + 31) >>> 5 &&
      snap.seqDirty.length === (this.seqDirty.size + 31) >>> 5 &&
      snap.counters.active.length === this.counters.n &&
      snap.extras.length === this.providers.length &&
      snap.onDemand.length === this.onDemand.size;
    if (!same) throw new SimError('bad-argument', 'restore: snapshot is from a different design');
  }

  /** Providers restored in order; if one throws, the ones before it get their own state back. */
  private restoreProviders(extras: readonly unknown[]): void {
    const before = this.providers.map((p) => p.save());
    for (let k = 0; k < this.providers.length; k++) {
      try {
        this.providers[k]!.restore(extras[k]);
      } catch (err) {
        for (let j = 0; j < k; j++) this.providers[j]!.restore(before[j]);
        throw err;
      }
    }
  }

  /**
   * A 64-bit hash (16 hex digits) of the cycle, every current value and every
   * memory word, and of state providers. Equal states give equal hashes.
   */
  stateHash(): string {
    this.settleIfNeeded();
    this.materialize();
    const cur = this.currentValues();
    return stateHash(this.clock.cycle, cur, cur.length, this.net.memories, this.providers);
  }

  /**
   * Every current value at its slot (`values()[sig.i]`), next-value slots 0
   * (for trace comparison in tests: the next values are no part of the state
   * between cycles; docs/kernel.md "Stop 20: state layout").
   */
  values(): Float64Array {
    this.settleIfNeeded();
    this.materialize();
    return this.slotValues();
  }
}
