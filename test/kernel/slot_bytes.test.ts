/**
 * 4-byte state-vector slots (docs/kernel.md "Stop 23: 4-byte slots"): a
 * run on a Uint32Array state equals the same run on a Float64Array state,
 * every wire, register and control-block memory word at every cycle, the
 * event trace and the deliveries, on random small C104 networks under random
 * messages, with the debug checks off as in a user's run (the test set-up
 * turns them on, and with them the default is 8 bytes).
 *
 * Negative control: a unit writing a value that is no uint32 (-1 on a
 * 32-bit wire; the debug mode's width check names it) reads back differently
 * from the two vectors, and the same comparison sees it.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Module, type Signal, SimError, Simulator } from '../../rtl/kernel/index.ts';
import { firstStepDiff } from '../c104/system_check.ts';
import { buildSmall, smallCaseArb, type SmallCase } from './small_c104.ts';

const ENV = { debug: process.env.ICEMU_DEBUG, bytes: process.env.ICEMU_SLOT_BYTES };
afterEach(() => {
  for (const [k, v] of [['ICEMU_DEBUG', ENV.debug], ['ICEMU_SLOT_BYTES', ENV.bytes]] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

/** Build with the debug checks off and the state vector's slots `bytes` wide (through the environment, as a user would). */
function withSlots<T>(bytes: 4 | 8, build: () => T): T {
  process.env.ICEMU_DEBUG = '0';
  process.env.ICEMU_SLOT_BYTES = String(bytes);
  try {
    return build();
  } finally {
    process.env.ICEMU_DEBUG = ENV.debug;
    if (ENV.bytes === undefined) delete process.env.ICEMU_SLOT_BYTES;
    else process.env.ICEMU_SLOT_BYTES = ENV.bytes;
  }
}

type Case = SmallCase;
const build = buildSmall;
const caseArb = smallCaseArb;

describe('4-byte slots equal 8-byte slots', () => {
  it('the default: 8 bytes with the debug checks, 4 without; ICEMU_SLOT_BYTES and the option choose', () => {
    const top = (): Module => new (class extends Module {
      constructor() {
        super(null, 'top');
        this.reg('r', 32, 0xffffffff);
      }
    })();
    expect(new Simulator(top(), { checks: true }).s).toBeInstanceOf(Float64Array);
    expect(new Simulator(top(), { checks: false }).s).toBeInstanceOf(Uint32Array);
    expect(new Simulator(top(), { checks: true, slotBytes: 4 }).s).toBeInstanceOf(Uint32Array);
    expect(withSlots(8, () => new Simulator(top()).s)).toBeInstanceOf(Float64Array);
    expect(withSlots(4, () => new Simulator(top()).s)).toBeInstanceOf(Uint32Array);
    // runComb's old outputs as wide as a slot (stop 24); the property below compares the two widths in lock-step
    // (a Uint8Array there was caught: docs/kernel.md "Stop 24: kernel").
    expect((new Simulator(top(), { checks: false }) as unknown as { oldOut: unknown }).oldOut).toBeInstanceOf(Uint32Array);
    expect((new Simulator(top(), { checks: true }) as unknown as { oldOut: unknown }).oldOut).toBeInstanceOf(Float64Array);
    expect(new Simulator(top(), { checks: false }).peek('r')).toBe(0xffffffff);
    expect(new Simulator(top(), { checks: false }).values()).toBeInstanceOf(Float64Array);
    expect(() => new Simulator(top(), { slotBytes: 2 as 4 })).toThrow(SimError);
  });

  it('random small C104 networks under random messages: every value at every cycle, events, deliveries', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const wide = withSlots(8, () => build(c));
        const narrow = withSlots(4, () => build(c));
        expect(wide.sim.s).toBeInstanceOf(Float64Array);
        expect(narrow.sim.s).toBeInstanceOf(Uint32Array);
        expect(firstStepDiff(wide, narrow, 3200)).toBeUndefined();
        expect(JSON.stringify(narrow.rec.events)).toBe(JSON.stringify(wide.rec.events));
        expect(JSON.stringify(narrow.rec.deliveries)).toBe(JSON.stringify(wide.rec.deliveries));
        expect(narrow.sim.evaluations).toBe(wide.sim.evaluations);
        expect(narrow.sim.stateHash()).toBe(wide.sim.stateHash());
      }),
      { numRuns: 3 },
    );
  }, 300_000);

  it('negative control: a value that is no uint32 reads back differently, and the comparison sees it', () => {
    class Bad extends Module {
      readonly w: Signal;
      constructor() {
        super(null, 'top');
        const r = this.reg('r', 8);
        this.w = this.wire('w', 32);
        this.comb(() => void (this.s[this.w.i] = this.s[r.i]! === 3 ? -1 : this.s[r.i]!), { reads: [r], writes: [this.w] });
        this.seq(() => void (this.s[r.n] = (this.s[r.i]! + 1) & 255), { writes: [r] });
      }
    }
    const wide = new Simulator(new Bad(), { checks: false, slotBytes: 8 });
    const narrow = new Simulator(new Bad(), { checks: false, slotBytes: 4 });
    let diff: string | undefined;
    for (let c = 0; c < 6 && !diff; c++) {
      wide.step(1);
      narrow.step(1);
      const a = wide.values(), b = narrow.values();
      for (let k = 0; k < a.length && !diff; k++) if (a[k] !== b[k]) diff = `cycle ${wide.cycle} slot ${k}: ${a[k]} / ${b[k]}`;
    }
    expect(diff).toBe('cycle 3 slot 0: -1 / 4294967295');
    // The debug mode (8 bytes) names the unit's write.
    expect(() => new Simulator(new Bad(), { checks: true }).step(4)).toThrow(/w/);
  });
});
