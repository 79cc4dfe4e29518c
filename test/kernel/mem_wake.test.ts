/**
 * Memory readers at one address (CombOptions.readsAt, docs/kernel.md "Stop
 * 24: kernel"): a changed word wakes a reader only while its address signal
 * holds that word's address. The reference is the whole-memory wake
 * (SimOptions.memoryWake 'whole', or ICEMU_MEM_WAKE=whole): every write to
 * the memory wakes every reader, as before stop 24.
 *
 * Proof: random small C104 networks with T9000 endpoints (the node memory's
 * transmit ports read it at one address each) under random messages, the
 * addressed wake against the whole-memory wake and against the reference
 * mode in lock-step: every wire, register and control-block memory word at
 * every cycle, the events and the deliveries equal. Negative control: with
 * the addressed readers dropped (memWakeFault, test-only) no write wakes a
 * transmit port, and the same comparison finds the stale byte.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ElaborationError, Module, type Memory, type Signal, SimError, Simulator } from '../../rtl/kernel/index.ts';
import { memWakeFault } from '../../rtl/kernel/mem_readers.ts';
import { firstStepDiff } from '../c104/system_check.ts';
import { buildSmall, smallCaseArb, type SmallCase } from './small_c104.ts';

const ENV = process.env.ICEMU_MEM_WAKE;
afterEach(() => {
  memWakeFault.dropAddressed = false;
  if (ENV === undefined) delete process.env.ICEMU_MEM_WAKE;
  else process.env.ICEMU_MEM_WAKE = ENV;
});

/** Build with ICEMU_MEM_WAKE set to `wake` (as a user would). */
function withWake<T>(wake: 'address' | 'whole', build: () => T): T {
  process.env.ICEMU_MEM_WAKE = wake;
  try {
    return build();
  } finally {
    if (ENV === undefined) delete process.env.ICEMU_MEM_WAKE;
    else process.env.ICEMU_MEM_WAKE = ENV;
  }
}

type Case = SmallCase;
const build = buildSmall;
const caseArb = smallCaseArb;

/** A memory of 16 bytes, two read ports at addresses a0, a1 (registers, poked from outside) and one write port. */
class Ram extends Module {
  readonly mem: Memory;
  readonly a: Signal[];
  readonly d: Signal[];
  readonly we: Signal;
  readonly wa: Signal;
  readonly wd: Signal;
  constructor(wrong?: 'memory-also-read' | 'address-not-read') {
    super(null, 'top');
    const mem = (this.mem = this.memory('mem', 8, 16));
    this.a = [this.reg('a0', 5), this.reg('a1', 5)];
    this.d = [this.wire('d0', 8), this.wire('d1', 8)];
    this.we = this.reg('we', 1);
    this.wa = this.reg('wa', 4);
    this.wd = this.reg('wd', 8);
    for (let k = 0; k < 2; k++) {
      const a = this.a[k]!;
      const d = this.d[k]!;
      const reads = wrong === 'memory-also-read' ? [a, mem] : wrong === 'address-not-read' ? [] : [a];
      this.comb(
        () => {
          const x = this.s[a.i]!;
          this.s[d.i] = x < 16 ? mem.data[x]! : 0;
        },
        { writes: [d], reads, readsAt: [{ mem, addr: a }], name: `read${k}` },
      );
    }
    this.seq(() => {
      if (this.s[this.we.i] === 1) mem.write(this.s[this.wa.i]!, this.s[this.wd.i]!);
    }, { reads: [this.we, this.wa, this.wd], writes: [] });
  }
}

describe('memory readers at one address', () => {
  it('a write wakes the reader at its address only; an address change, a poke and a block poke wake it too', () => {
    /** Readers at 3 and 7; 42 written at 3 through the write port: the evaluations of those cycles. */
    const writeAt3 = (sim: Simulator): number => {
      sim.poke('a0', 3);
      sim.poke('a1', 7);
      sim.step(1);
      const ev0 = sim.evaluations;
      sim.poke('we', 1);
      sim.poke('wa', 3);
      sim.poke('wd', 42);
      sim.step(1); // the write lands at this edge
      sim.poke('we', 0);
      sim.step(1);
      expect(sim.peek('d0')).toBe(42);
      expect(sim.peek('d1')).toBe(0);
      return sim.evaluations - ev0;
    };
    const sim = new Simulator(new Ram());
    const r = sim.net.root as Ram;
    // Readers run: read0 for the write at 3; not read1 (address 7).
    const readRuns = writeAt3(sim);
    sim.pokeMem(r.mem, 7, 9);
    expect(sim.peek('d1')).toBe(9);
    sim.pokeMemBlock(r.mem, 2, [5, 6, 7]);
    expect(sim.peek('d0')).toBe(6);
    sim.poke('a1', 4);
    expect(sim.peek('d1')).toBe(7);
    sim.poke('a1', 20); // outside the memory: reads 0, and no write wakes it
    expect(sim.peek('d1')).toBe(0);
    // The whole-memory wake runs both readers for the same write.
    expect(writeAt3(new Simulator(new Ram(), { memoryWake: 'whole' }))).toBe(readRuns + 1);
  });

  it('the option and ICEMU_MEM_WAKE choose; a bad value or a bad declaration is one error', () => {
    expect(() => new Simulator(new Ram(), { memoryWake: 'some' as 'whole' })).toThrow(SimError);
    expect(() => withWake('bogus' as 'whole', () => new Simulator(new Ram()))).toThrow(/ICEMU_MEM_WAKE/);
    expect(() => new Simulator(new Ram('memory-also-read'))).toThrow(ElaborationError);
    expect(() => new Simulator(new Ram('address-not-read'))).toThrow(/readsAt/);
  });

  it('random small C104 networks under random messages: addressed wake = whole-memory wake = reference mode, every value at every cycle', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const whole = withWake('whole', () => build(c));
        const addr = withWake('address', () => build(c));
        const plain = withWake('address', () => build(c, 'plain'));
        expect(firstStepDiff(whole, addr, 3200)).toBeUndefined();
        expect(JSON.stringify(addr.rec.events)).toBe(JSON.stringify(whole.rec.events));
        expect(JSON.stringify(addr.rec.deliveries)).toBe(JSON.stringify(whole.rec.deliveries));
        expect(addr.sim.stateHash()).toBe(whole.sim.stateHash());
        expect(addr.sim.evaluations).toBeLessThanOrEqual(whole.sim.evaluations);
        expect(firstStepDiff(plain, withWake('address', () => build(c)), 3200)).toBeUndefined();
      }),
      { numRuns: 3 },
    );
  }, 300_000);

  it('negative control: with the addressed readers dropped, the comparison finds a stale byte', () => {
    // The second message's bytes are written where the port's address rests after the first (the send area's bump allocator).
    const c: Case = { net: 'chain-2', msgs: [{ src: 0, dst: 1, len: 4, at: 0 }, { src: 0, dst: 1, len: 9, at: 300 }], addressing: 'virtual-link' };
    const whole = withWake('whole', () => build(c));
    memWakeFault.dropAddressed = true;
    const wrong = withWake('address', () => build(c));
    memWakeFault.dropAddressed = false;
    // (the slot number follows the netlist's layout, which other units' options change: not part of the check)
    expect(firstStepDiff(whole, wrong, 3200)).toMatch(/^cycle 2801: slot \d+ \(t0\.mem\.rdData0\) reference 31 fast 0$/);
    // The same case without the fault: equal.
    expect(firstStepDiff(withWake('whole', () => build(c)), withWake('address', () => build(c)), 3200)).toBeUndefined();
  });
});
