/**
 * On-demand providers that own register slots (docs/kernel.md "On-demand
 * values"): a poke of an owned slot thaws the provider first, a mode switch
 * and a reset thaw or reset it, `peek` writes just the owner of what it
 * reads, and observers that declare `skipsOwnedOnDemand` do not make the
 * kernel write owned slots every cycle (the others still see them).
 */
import { describe, expect, it } from 'vitest';
import { Module, Simulator, type OnDemand } from '../../rtl/kernel/index.ts';

/** A register `r` whose value is the cycle number (mod 256) while the provider holds it. */
function build() {
  const top = new Module(null, 'top');
  const r = top.reg('r', 8);
  const other = top.reg('other', 8);
  top.seq(() => void (top.s[other.n] = (top.s[other.i]! + 1) % 256), { reads: [other], writes: [other], name: 'count' });
  const calls = { materialize: 0, thaw: 0, reset: 0 };
  let held = true;
  const p: OnDemand & { slots: number[] } = {
    slots: [],
    materialize(cycle, s) {
      if (!held) return;
      calls.materialize++;
      s[r.i] = cycle % 256;
      s[r.n] = cycle % 256;
    },
    thaw() {
      if (held) calls.thaw++;
      held = false;
    },
    reset() {
      calls.reset++;
      held = true;
    },
  };
  const sim = new Simulator(top, { mode: 'activity', fastForward: false });
  p.slots = [r.i];
  sim.addOnDemand(p);
  return { sim, r, other, calls, isHeld: () => held };
}

describe('on-demand providers with slots', () => {
  it('peek writes the owner only when its slot is read; an observer that skips owned slots sees them stale, another sees them', () => {
    const { sim, r, other, calls } = build();
    const seen: number[] = [];
    const stop = sim.observe({ skipsOwnedOnDemand: true, onCycle: (s) => void seen.push(s.s[r.i]!) });
    sim.step(5);
    expect(calls.materialize).toBe(0);
    expect(seen.every((v) => v === 0)).toBe(true);
    expect(sim.peek(other)).toBe(5);
    expect(calls.materialize).toBe(0);
    expect(sim.peek(r)).toBe(5);
    expect(calls.materialize).toBe(1);
    stop();
    const all: number[] = [];
    sim.observe({ onCycle: (s) => void all.push(s.s[r.i]!) });
    sim.step(3);
    expect(all).toEqual([6, 7, 8]);
  });

  it('a poke of an owned slot thaws first (the poked value stays); a mode switch thaws; reset resets', () => {
    const { sim, r, calls, isHeld } = build();
    sim.step(4);
    sim.poke(r, 77);
    expect(calls.thaw).toBe(1);
    expect(isHeld()).toBe(false);
    expect(sim.peek(r)).toBe(77);
    sim.reset();
    expect(calls.reset).toBe(1);
    expect(isHeld()).toBe(true);
    sim.setMode('plain');
    expect(calls.thaw).toBe(2);
  });

  it('stateCycle is the next cycle while the logic settles after a commit, the current one otherwise', () => {
    const top = new Module(null, 'top');
    const c = top.reg('c', 8);
    const w = top.wire('w', 8);
    const seen: [number, number][] = [];
    let sim: Simulator | null = null;
    top.comb(() => {
      top.s[w.i] = top.s[c.i]!;
      if (sim) seen.push([top.s[c.i]!, sim.stateCycle]);
    }, { writes: [w], reads: [c] });
    top.seq(() => void (top.s[c.n] = top.s[c.i]! + 1), { reads: [c], writes: [c] });
    sim = new Simulator(top, { mode: 'activity' });
    sim.step(3);
    // c counts the cycles: the comb process sees c = k while the state holds cycle k.
    expect(seen.slice(-3)).toEqual([[1, 1], [2, 2], [3, 3]]);
    expect(sim.stateCycle).toBe(sim.cycle);
  });
});
