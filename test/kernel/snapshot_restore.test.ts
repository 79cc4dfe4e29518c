/**
 * A restore is all or nothing (rtl/kernel/snapshots.ts): when a state
 * provider refuses the saved value (its `check`) or its restore throws, the
 * kernel's state vector, cycle, memories and every other provider stay
 * where they were, and the error is the provider's one line. The control
 * replays the order before this fix (kernel state first, then providers)
 * and sees the kernel moved under a refused restore.
 */
import { describe, expect, it } from 'vitest';
import { Module, Signal, Simulator, SimError, type Snapshot, type StateProvider } from '../../rtl/kernel/index.ts';

class Counter extends Module {
  readonly v: Signal;
  constructor() {
    super(null, 'top');
    this.v = this.reg('v', 8, 0);
    this.seq(() => {
      this.s[this.v.n] = (this.s[this.v.i]! + 1) & 0xff;
    });
  }
}

/** A JS-side workload state: a number, and a flag that makes restoring a value refused. */
class Workload implements StateProvider {
  value = 0;
  constructor(private readonly guard: 'check' | 'throw' | 'none') {}
  save(): unknown {
    return this.value;
  }
  check(v: unknown): void {
    if (this.guard === 'check' && (v as number) < 0) throw new RangeError('workload: cannot go back before its released messages');
  }
  restore(v: unknown): void {
    if (this.guard === 'throw' && (v as number) < 0) throw new RangeError('workload: restore failed');
    this.value = v as number;
  }
}

function machine(guard: 'check' | 'throw' | 'none') {
  const sim = new Simulator(new Counter());
  const first = new Workload('none');
  const second = new Workload(guard);
  sim.addStateProvider(first);
  sim.addStateProvider(second);
  sim.step(3);
  first.value = 3;
  second.value = 3;
  const early = sim.save();
  sim.step(5);
  first.value = 8;
  second.value = 8;
  // a snapshot whose second provider's value cannot be restored
  const bad: Snapshot = { ...early, extras: [3, -1] };
  const seen = () => ({ cycle: sim.cycle, v: sim.peek('v'), hash: sim.stateHash(), first: first.value, second: second.value });
  return { sim, first, second, early, bad, seen, providers: [first, second] };
}

/** The order before the fix: the kernel's state restored, then the providers. */
function oldOrderRestore(sim: Simulator, providers: StateProvider[], snap: Snapshot): void {
  sim.restore({ ...snap, extras: providers.map((p) => p.save()) });
  providers.forEach((p, k) => p.restore(snap.extras[k]));
}

describe('restore is all or nothing', () => {
  it.each(['check', 'throw'] as const)('a provider that refuses (%s) leaves the kernel and the other providers unchanged', (guard) => {
    const m = machine(guard);
    const before = m.seen();
    expect(before).toMatchObject({ cycle: 8, v: 8, first: 8, second: 8 });
    expect(() => m.sim.restore(m.bad)).toThrow(guard === 'check' ? /^workload: cannot go back before its released messages$/ : /^workload: restore failed$/);
    expect(m.seen()).toEqual(before);
    // and the machine still runs on and restores a good snapshot
    m.sim.restore(m.early);
    expect(m.seen()).toMatchObject({ cycle: 3, v: 3, first: 3, second: 3 });
  });

  it('control: the old order (kernel first) is seen moving the kernel under a refused restore', () => {
    const m = machine('throw');
    const before = m.seen();
    expect(() => oldOrderRestore(m.sim, m.providers, m.bad)).toThrow(/restore failed/);
    const after = m.seen();
    expect(after).not.toEqual(before);
    expect(after.cycle).toBe(3);
  });

  it('a snapshot of another design is refused in one line before anything changes', () => {
    const m = machine('none');
    const before = m.seen();
    const cases: Snapshot[] = [
      { ...m.early, extras: [3] },
      { ...m.early, state: m.early.state.slice(1) },
      { ...m.early, counters: { ...m.early.counters, active: new Uint8Array(m.early.counters.active.length + 1) } as never },
    ];
    for (const snap of cases) {
      expect(() => m.sim.restore(snap)).toThrow(SimError);
      expect(() => m.sim.restore(snap)).toThrow(/^restore: snapshot is from a different design$/);
      expect(m.seen()).toEqual(before);
    }
  });
});
