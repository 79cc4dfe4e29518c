/**
 * The simulator's public stepping API on top of the core's clock loop
 * (simulator_core.ts): `step` with fast-forward over quiet stretches,
 * `runUntil`, stimuli, observers and the state views the hash and snapshots
 * read (docs/kernel.md).
 */
import { SimulatorCore } from './simulator_core.ts';
import { SimError } from './errors.ts';
import type { Simulator } from './simulator.ts';
import type { Observer, Stimulus } from './sim_types.ts';

export abstract class SimulatorStepping extends SimulatorCore {
  // ---------------------------------------------------------------- stepping

  /** Advance `n` cycles. */
  step(n = 1): void {
    if (!(Number.isInteger(n) && n >= 0)) throw new SimError('bad-argument', `step: cycle count ${n} is not a whole number >= 0`);
    let left = n;
    while (left > 0) {
      if (this.fastForward && this.noPendingWork()) {
        const next = Math.min(this.nextStimulus, this.wakes.next, this.timedWrites.next, this.nextOnDemandChange());
        const target = Math.min(this.clock.cycle + left, next);
        const skip = target - this.clock.cycle;
        if (skip > 0) {
          const from = this.clock.cycle;
          this.clock.cycle = target;
          this.onDemand.stale(); // the on-demand values moved on
          this.skipped += skip;
          left -= skip;
          this.notifySkip(from, target);
          continue;
        }
      }
      this.stepOnce();
      left--;
    }
  }

  /**
   * Step until `pred` holds (checked after each cycle, and once before the
   * first), at most `maxCycles` cycles. Returns whether it held and how many
   * cycles ran. Fast-forward is not used: the predicate sees every cycle.
   */
  runUntil(pred: (sim: Simulator) => boolean, maxCycles: number): { reached: boolean; cycles: number } {
    if (!(Number.isInteger(maxCycles) && maxCycles >= 0)) throw new SimError('bad-argument', `runUntil: maxCycles ${maxCycles} is not a whole number >= 0`);
    this.settleIfNeeded();
    if (pred(this.self)) return { reached: true, cycles: 0 };
    for (let k = 1; k <= maxCycles; k++) {
      this.stepOnce();
      if (pred(this.self)) return { reached: true, cycles: k };
    }
    return { reached: false, cycles: maxCycles };
  }

  /**
   * True when nothing will change until the next stimulus (activity mode
   * only). An on-demand value that still changes (a still NULL train's wires
   * schedule nothing but move every cycle) is a change: the REPL must not
   * call such a design idle nor step over its watches.
   */
  get quiescent(): boolean {
    return this._mode === 'activity' && this.noPendingWork() && this.wakes.size === 0 && this.timedWrites.size === 0 && this.nextOnDemandChange() === Infinity;
  }

  /** The first cycle after this one at which an on-demand value may change (Infinity: none will). */
  private nextOnDemandChange(): number {
    return this.onDemand.size ? this.onDemand.nextChange(this.clock.cycle) : Infinity;
  }

  /** No process dirty, no settle, poke, force or running counter pending (timed wake-ups and stimuli not considered). */
  protected noPendingWork(): boolean {
    return this.seqDirty.count === 0 && this.wake.late.n === 0 && !this.needSettle && !this.poked && this.forces.length === 0 && !this.counters.anyActive;
  }

  // ---------------------------------------------------------------- state views

  /**
   * The current values in the order they had before next values moved beside
   * them (wires, then registers by index): what the state hash and `values()`
   * read, so hashes in users' checkpoint files stay valid (docs/kernel.md
   * "Stop 20: state layout"). The caller materializes first.
   */
  protected currentValues(): Float64Array {
    const net = this.net;
    const out = new Float64Array(net.nWires + net.nRegs);
    out.set(this.s.subarray(0, net.nWires));
    for (let r = 0, x = net.regBase; r < net.nRegs; r++, x += 2) out[net.nWires + r] = this.s[x]!;
    return out;
  }

  /** A copy of the state vector with the next-value slots 0: `values()`. */
  protected slotValues(): Float64Array {
    const out = Float64Array.from(this.s); // a Float64Array whatever the slots' width
    for (let x = this.net.regBase + 1; x < out.length; x += 2) out[x] = 0;
    return out;
  }

  /** Cycle of the next timed wake-up, or Infinity. */
  get nextWake(): number {
    return this.wakes.next;
  }

  // ---------------------------------------------------------------- stimulus

  /** Run `fn` at the start of cycle `cycle` (before that cycle's clock edge). */
  schedule(cycle: number, fn: (sim: Simulator) => void): void {
    if (!(Number.isInteger(cycle) && cycle >= this.clock.cycle)) {
      throw new SimError('bad-argument', `schedule: cycle ${cycle} is in the past (now ${this.clock.cycle})`);
    }
    const st: Stimulus = { cycle, order: this.stimulusOrder++, fn };
    let lo = 0;
    let hi = this.stimuli.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.stimuli[mid]!.cycle <= cycle) lo = mid + 1;
      else hi = mid;
    }
    this.stimuli.splice(lo, 0, st);
  }

  /** Cycle of the next scheduled stimulus, or Infinity. */
  get nextStimulus(): number {
    return this.stimuli.length ? this.stimuli[0]!.cycle : Infinity;
  }

  // ---------------------------------------------------------------- observers

  observe(o: Observer): () => void {
    this.observers.push(o);
    this.observersNeedOwned = this.observers.some((x) => !x.skipsOwnedOnDemand);
    return () => {
      const k = this.observers.indexOf(o);
      if (k >= 0) this.observers.splice(k, 1);
      this.observersNeedOwned = this.observers.some((x) => !x.skipsOwnedOnDemand);
    };
  }

  protected notifySkip(from: number, to: number): void {
    for (const o of this.observers) {
      if (o.onSkip) o.onSkip(this.self, from, to);
      else if (o.onCycle) {
        const saved = this.clock.cycle;
        for (let c = from + 1; c <= to; c++) {
          this.clock.cycle = c;
          o.onCycle(this.self);
        }
        this.clock.cycle = saved;
      }
    }
  }
}
