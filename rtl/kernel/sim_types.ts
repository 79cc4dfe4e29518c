/**
 * The simulator's option, observer, stimulus and force shapes, shared by
 * the core (simulator_core.ts), its snapshots and the public Simulator.
 */
import type { Simulator } from './simulator.ts';

export type SimMode = 'activity' | 'plain';

export interface SimOptions {
  /** 'activity' (default) skips processes whose inputs did not change; 'plain' runs all. */
  mode?: SimMode;
  /** Skip quiescent stretches (activity mode only). Default true. */
  fastForward?: boolean;
  /**
   * Debug mode: check that every value a process or commit produces fits its
   * signal's width, and that a seq process with declared `writes` wrote
   * nothing else. Default: on when the environment variable ICEMU_DEBUG is
   * '1' (the test set-up sets it), off otherwise (docs/kernel.md "Debug mode").
   */
  checks?: boolean;
  /**
   * Bytes per state-vector slot: 4 (a Uint32Array) or 8 (a Float64Array).
   * Default: the environment variable ICEMU_SLOT_BYTES if set, else 4
   * without checks and 8 with them (docs/kernel.md "Stop 23: 4-byte
   * slots"): every signal is 1..32 bits wide, so a slot's value is a uint32
   * and both read back the same number; the debug mode keeps 8 bytes so that
   * its width check sees a value that is not one (negative, fractional, too
   * wide) as the unit wrote it, before a Uint32Array would wrap it.
   */
  slotBytes?: 4 | 8;
  /**
   * What a changed memory word wakes of the comb processes that read their
   * memory at one address (CombOptions.readsAt): 'address' (default) only
   * those whose address signal holds the word's address; 'whole' (the
   * reference) all of them, as any other reader of the memory. Default: the
   * environment variable ICEMU_MEM_WAKE if set, else 'address'
   * (docs/kernel.md "Stop 24: kernel").
   */
  memoryWake?: 'address' | 'whole';
}

export interface Observer {
  /** After each committed cycle (and after reset, with cycle 0). */
  onCycle?(sim: Simulator): void;
  /** After stimulus poked values at the start of a step (before the clock edge). */
  onStimulus?(sim: Simulator): void;
  /**
   * A quiescent stretch was skipped: cycles from+1..to have the same state as
   * cycle `from`. Without this hook, onCycle is called for each skipped cycle.
   */
  onSkip?(sim: Simulator, from: number, to: number): void;
  /**
   * True when the observer reads the state vector only at slots that no
   * on-demand provider with `slots` owns (or through `peek`, which
   * materializes what it reads): those providers are then not materialized
   * for it every cycle (docs/kernel.md "On-demand values").
   */
  skipsOwnedOnDemand?: boolean;
}

export interface Stimulus {
  cycle: number;
  order: number;
  fn: (sim: Simulator) => void;
}

export interface Force {
  slot: number;
  value: number;
  proc: number;
}
