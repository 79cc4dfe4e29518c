/**
 * Values computed on demand (docs/kernel.md "On-demand values"): slots of the
 * state vector that the fast mode does not write every cycle (the bit on a
 * serial line, the registers of a DS-link direction carrying a NULL train)
 * and that a provider writes when someone reads them. The simulator owns one
 * set and asks it to write what a reader needs: everything once per state
 * before observers that read the state vector directly, only a slot's owner
 * for a peek.
 */

/**
 * A slot whose value is computed on demand (docs/kernel.md "On-demand
 * values"), e.g. the bit on a serial line at the current cycle: written into
 * the state vector before observers and in peek / values / hashes / save.
 */
export interface OnDemand {
  materialize(cycle: number, s: Float64Array): void;
  /**
   * The first cycle after `cycle` at which the value may differ (Infinity:
   * constant from now on). Fast-forward does not skip past it. Without it,
   * a quiescent design is never skipped while this provider exists.
   */
  nextChange?(cycle: number): number;
  save?(): unknown;
  restore?(v: unknown): void;
  /**
   * Slots (current-value slots of registers) this provider writes. A poke of
   * one of them first calls `thaw`, so the poked value is not overwritten.
   */
  slots?: readonly number[];
  /**
   * Hand the values back to the processes: write the current values into
   * the state vector for good and stop providing them. Called before a poke
   * of one of `slots` and before a mode switch (the reference mode runs
   * every process every cycle, so nothing may be held on demand there).
   */
  thaw?(): void;
  /** Simulator.reset: forget everything (the state vector is back at reset values). */
  reset?(): void;
}

export class OnDemandValues {
  private readonly all: OnDemand[] = [];
  /** Provider owning a slot (OnDemand.slots), for thaw-before-poke. */
  private readonly bySlot = new Map<number, OnDemand>();
  /** Providers without `slots`: written before every observer and peek. */
  private readonly eager: OnDemand[] = [];
  /** The on-demand values are in the state vector for the current state (cleared when the state moves on). */
  private fresh = false;
  /** The same for the providers without `slots`. */
  private eagerFresh = false;

  get size(): number {
    return this.all.length;
  }

  add(p: OnDemand): void {
    this.all.push(p);
    for (const x of p.slots ?? []) this.bySlot.set(x, p);
    if (!p.slots) this.eager.push(p);
    this.stale();
  }

  /** The last cycle a fast-forward from `cycle` may reach: a value changing at t must be seen by observers at t. */
  nextChange(cycle: number): number {
    let t = Infinity;
    for (const p of this.all) t = Math.min(t, p.nextChange ? p.nextChange(cycle) : cycle + 1);
    return t - 1;
  }

  /** Every value, once per state: observers peek many signals per cycle, and a large design has many providers (one per DS-link direction). */
  materializeAll(cycle: number, s: Float64Array): void {
    if (this.fresh) return;
    this.fresh = true;
    this.eagerFresh = true;
    const od = this.all;
    for (let k = 0; k < od.length; k++) od[k]!.materialize(cycle, s);
  }

  /** What a reader of `slot` (or of no owned slot, -1) needs: its owner, or the providers without slots. */
  materializeFor(slot: number, cycle: number, s: Float64Array): void {
    if (this.fresh) return;
    const owner = slot >= 0 ? this.bySlot.get(slot) : undefined;
    if (owner) {
      owner.materialize(cycle, s);
      return;
    }
    if (this.eagerFresh) return;
    this.eagerFresh = true;
    const od = this.eager;
    for (let k = 0; k < od.length; k++) od[k]!.materialize(cycle, s);
  }

  /** The values moved on (a new cycle, a poke, a restore). */
  stale(): void {
    this.fresh = false;
    this.eagerFresh = false;
  }

  /** Before a poke of `slot`: its owner hands its values back, so the poke is not overwritten. */
  thawSlot(slot: number): void {
    this.bySlot.get(slot)?.thaw?.();
    this.stale();
  }

  /** Before a mode switch: every provider hands its values back. */
  thawAll(): void {
    for (const p of this.all) p.thaw?.();
    this.stale();
  }

  /** Simulator.reset. */
  resetAll(): void {
    for (const p of this.all) p.reset?.();
    this.stale();
  }

  save(): unknown[] {
    return this.all.map((p) => p.save?.());
  }

  restore(saved: readonly unknown[]): void {
    this.all.forEach((p, k) => p.restore?.(saved[k]));
    this.stale();
  }
}
