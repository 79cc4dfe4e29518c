/**
 * Names, peek, poke and forces: the simulator seen from outside the design
 * (testbench, REPL, VCD). A poke's wake-ups follow docs/kernel.md#poke.
 */
import { SimulatorStepping } from './stepping.ts';
import { SimError } from './errors.ts';
import { Memory, Module, Signal } from './module.ts';
import { globToRegExp, isGlob, nearestNames } from './names.ts';

export abstract class SimulatorAccess extends SimulatorStepping {
  /** Every name, for the near-name hint of an unknown one (built on the first miss). */
  private names: string[] | undefined;

  // ---------------------------------------------------------------- names

  /** A signal or memory by hierarchical name; the error suggests near names. */
  find(name: string): Signal | Memory {
    const x = this.net.byName.get(name);
    if (x) return x;
    const near = nearestNames(name, (this.names ??= [...this.net.byName.keys()]));
    throw new SimError('unknown-name', `no signal or memory named '${name}'${near.length ? `; did you mean ${near.join(', ')}?` : ''}`);
  }

  signal(name: string): Signal {
    const x = this.find(name);
    if (x instanceof Memory) throw new SimError('bad-argument', `${name} is a memory, not a signal`);
    return x;
  }

  /** Signals and memories whose names match a glob (see names.ts), in design order. */
  glob(pattern: string): (Signal | Memory)[] {
    if (!isGlob(pattern)) return this.net.byName.has(pattern) ? [this.net.byName.get(pattern)!] : [];
    const re = globToRegExp(pattern);
    const out: (Signal | Memory)[] = [];
    for (const [name, x] of this.net.byName) if (re.test(name)) out.push(x);
    return out;
  }

  /** Module by path ('' is the root). */
  module(path: string): Module | undefined {
    return this.net.modulesByPath.get(path);
  }


  // ---------------------------------------------------------------- peek / poke

  peek(x: string | Signal): number {
    const sig = typeof x === 'string' ? this.signal(x) : x;
    this.settleIfNeeded();
    this.materializeFor(sig.i);
    return this.s[sig.i]!;
  }

  /**
   * Set a value from outside the design (testbench, REPL).
   *  - An external input (a root input): holds until poked again.
   *  - A register: becomes its current value now, as if forced for this
   *    cycle; the next clock edge loads whatever its seq logic computes.
   *  - A comb-driven wire: forced to the value until after the next clock
   *    edge, then released to its driver.
   *  - A constant (tied) net cannot be poked.
   */
  poke(x: string | Signal, value: number): void {
    const sig = typeof x === 'string' ? this.signal(x) : x;
    if (!(Number.isInteger(value) && value >= 0 && value <= sig.mask)) {
      throw new SimError('bad-poke', `poke ${sig.path}: value ${value} does not fit ${sig.width} bits (allowed 0..${sig.mask})`, this.clock.cycle);
    }
    const slot = sig.i;
    this.onDemand.thawSlot(slot);
    const driver = this.net.slotDriver[slot];
    if (driver === 'tie') throw new SimError('bad-poke', `poke ${sig.path}: the net is tied to a constant`, this.clock.cycle);
    if (driver === 'reg') {
      this.s[slot + 1] = value; // its next value, beside it (docs/kernel.md "Stop 20: state layout")
      this.wakeWritersOf((slot - this.net.regBase) >> 1);
    }
    if (sig.counterId >= 0 || this.net.slotSignal[slot]!.counterId >= 0) this.counters.poked(slot, value);
    if (driver === 'comb') {
      const proc = this.net.slotCombDriver[slot]!;
      this.forces = this.forces.filter((f) => f.slot !== slot);
      this.forces.push({ slot, value, proc });
      this.forcedProc[proc] = 1;
    }
    if (this.s[slot] !== value) {
      this.s[slot] = value;
      this.markSlot(slot);
    }
    this.needSettle = true;
    this.poked = true;
  }

  /**
   * A poked register's next value is whatever its seq logic computes at the
   * next edge (poke's contract). The reference mode runs every process each
   * cycle, so the fast mode must run the processes that may write it too,
   * not only those that read it: a process that computes a register without
   * reading it would otherwise leave the poked value standing
   * (docs/kernel.md#poke). Pokes are rare, so a scan is fine.
   */
  private wakeWritersOf(r: number): void {
    if (this._mode !== 'activity') return;
    const net = this.net;
    for (let p = 0; p < net.seq.length; p++) {
      if (r >= net.seqRegLo[p]! && r < net.seqRegHi[p]!) this.seqDirty.add(p);
    }
  }

  peekMem(name: string | Memory, addr: number): number {
    const m = typeof name === 'string' ? this.memory(name) : name;
    this.checkAddr(m, addr);
    return m.data[addr]!;
  }

  pokeMem(name: string | Memory, addr: number, value: number): void {
    const m = typeof name === 'string' ? this.memory(name) : name;
    if (this.pokeWord(m, addr, value)) {
      this.markMemory(m);
      this.markAt(this.memWake.at[m.id]!, addr);
    }
    this.poked = true;
  }

  /**
   * `pokeMem(m, addr + j, values[j])` for j = 0, 1, .. in turn, with the
   * memory's readers woken once (a message's bytes written by the T9000
   * process driver: docs/kernel.md "Stop 23: endpoints per cycle"). Same
   * result and the same error, after the same words, as the word-by-word
   * pokes.
   */
  pokeMemBlock(name: string | Memory, addr: number, values: ArrayLike<number>): void {
    const m = typeof name === 'string' ? this.memory(name) : name;
    let changed = false;
    let j = 0;
    try {
      const at = this.memWake.at[m.id]!;
      for (; j < values.length; j++) {
        if (this.pokeWord(m, addr + j, values[j]!)) {
          changed = true;
          if (at.length !== 0) this.markAt(at, addr + j);
        }
      }
    } finally {
      if (changed) this.markMemory(m);
      if (j > 0) this.poked = true; // as the word pokes: only once one word went in
    }
  }

  /** One word of a poke, checked (address, width): true when the word changed. The caller wakes the memory's readers. */
  private pokeWord(m: Memory, addr: number, value: number): boolean {
    this.checkAddr(m, addr);
    if (!(Number.isInteger(value) && value >= 0 && value <= m.mask)) {
      throw new SimError('bad-poke', `poke ${m.path}[${addr}]: value ${value} does not fit ${m.width} bits`, this.clock.cycle);
    }
    if (m.data[addr] === value) return false;
    m.data[addr] = value;
    m.onPoke?.(addr);
    return true;
  }

  memory(name: string): Memory {
    const x = this.find(name);
    if (!(x instanceof Memory)) throw new SimError('bad-argument', `${name} is a signal, not a memory`);
    return x;
  }

  private checkAddr(m: Memory, addr: number): void {
    if (!(Number.isInteger(addr) && addr >= 0 && addr < m.depth)) {
      throw new SimError('bad-argument', `${m.path}: address ${addr} outside 0..${m.depth - 1}`);
    }
  }

}
