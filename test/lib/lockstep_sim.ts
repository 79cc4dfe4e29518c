/**
 * Test helper: the same design built twice and run in lockstep, once in
 * 'plain' mode and once in 'activity' mode. Every poke goes to both, every
 * peek must agree, and after every step the whole state vector and every
 * memory must be identical. A process that reads a signal it did not declare
 * makes the activity copy miss an update, and this catches it.
 */
import { expect } from 'vitest';
import { Module, SimError, Simulator, type Signal } from '../../rtl/kernel/index.ts';

export class Lockstep<T extends Module> {
  readonly plain: T;
  readonly active: T;
  readonly simP: Simulator;
  readonly simA: Simulator;

  constructor(build: () => T) {
    this.plain = build();
    this.active = build();
    this.simP = new Simulator(this.plain, { mode: 'plain' });
    this.simA = new Simulator(this.active, { mode: 'activity' });
  }

  get cycle(): number {
    return this.simP.cycle;
  }

  poke(sel: (u: T) => Signal, v: number): void {
    this.simP.poke(sel(this.plain), v);
    this.simA.poke(sel(this.active), v);
  }

  peek(sel: (u: T) => Signal): number {
    const a = this.simP.peek(sel(this.plain));
    const b = this.simA.peek(sel(this.active));
    if (a !== b) {
      throw new Error(`cycle ${this.cycle}: ${sel(this.plain).path} is ${a} in plain mode but ${b} in activity mode`);
    }
    return a;
  }

  /** Step both; returns the error of the plain copy if it threw (both must throw alike). */
  step(): void {
    let eP: unknown = null;
    let eA: unknown = null;
    try {
      this.simP.step();
    } catch (e) {
      eP = e;
    }
    try {
      this.simA.step();
    } catch (e) {
      eA = e;
    }
    if (eP || eA) {
      expect(String(eA)).toBe(String(eP));
      throw eP;
    }
    this.compare();
  }

  compare(): void {
    const d = firstSlotDiff(this.simP, this.simA);
    if (d) throw new Error(`cycle ${this.cycle}: ${d.path} is ${d.a} in plain mode but ${d.b} in activity mode`);
    this.simP.net.memories.forEach((m, k) => {
      const ma = this.simA.net.memories[k]!;
      for (let a = 0; a < m.depth; a++) {
        if (m.data[a] !== ma.data[a]) throw new Error(`cycle ${this.cycle}: ${m.path}[${a}] differs between plain and activity mode`);
      }
    });
  }
}

/** The first state-vector slot (register or wire) whose value differs between two simulators of one design, or null. */
export function firstSlotDiff(a: Simulator, b: Simulator): { path: string; a: number; b: number } | null {
  const x = a.values();
  const y = b.values();
  for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return { path: a.net.slotSignal[k]!.path, a: x[k]!, b: y[k]! };
  return null;
}

/** firstSlotDiff of a fast-mode and a reference-mode run at `cycle`, as text, or null. */
export function fastReferenceDiff(fast: Simulator, ref: Simulator, cycle: number): string | null {
  const d = firstSlotDiff(fast, ref);
  return d && `cycle ${cycle}: ${d.path} is ${d.a} in the fast mode, ${d.b} in the reference mode`;
}

/** A small seeded PRNG (mulberry32) for stimulus inside properties. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Lock-step for `cycles` cycles with `act` before each step. A model error
 * (SimError) ends the run: Lockstep.step has checked it came alike in both
 * copies.
 */
export function runLockstep<T extends Module>(build: () => T, cycles: number, act: (ls: Lockstep<T>, c: number) => void): Lockstep<T> {
  const ls = new Lockstep(build);
  for (let c = 0; c < cycles; c++) {
    act(ls, c);
    try {
      ls.step();
    } catch (e) {
      if (e instanceof SimError) return ls;
      throw e;
    }
  }
  return ls;
}

/** Of `n` runs (`one(k)`), how many throw (the copies differ): for negative controls. */
export function runsSeen(n: number, one: (k: number) => void): number {
  let seen = 0;
  for (let k = 0; k < n; k++) {
    try {
      one(k);
    } catch {
      seen++;
    }
  }
  return seen;
}
