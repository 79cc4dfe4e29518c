/**
 * Token trains on a serial line (rtl/dslink/token_train.ts,
 * docs/dslink.md#token-trains): in the fast mode a direction sending token
 * after token posts them on a DataStrobeLine; the serialiser runs twice a
 * token and the deserialiser four times, the wires and the per-bit registers
 * computed on demand. Held against the bit-by-bit reference mode ('plain')
 * at every cycle: every wire (D and S included) and register of the design
 * (test/lib/lockstep_sim.ts), with bursts both ways, receiver stalls (credit
 * runs out, NULLs between characters), a flipped bit on the D wire (an
 * error and a restart), both handovers, every run-idle mode,
 * pokes into on-demand registers and the D wire, mode switches, snapshots
 * and VCD bytes. Negative control: every token posted one cycle late
 * (DsTokenTrain.late) is seen. REPL watches and breakpoints on a D wire stop
 * at the same cycles in both modes.
 */
import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Module, SimError, Simulator, type Signal } from '../../rtl/kernel/index.ts';
import { startVcd } from '../../traces/vcd/index.ts';
import { CHAR_EOM, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import type { RunIdle } from '../../rtl/dslink/config.ts';
import { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import { DsTokenTrain } from '../../rtl/dslink/token_train.ts';
import { ReplEngine } from '../../harness/repl/engine.ts';
import { Lockstep } from '../lib/lockstep_sim.ts';
import { CharSink, CharSource } from './bench.ts';

type Handover = 'checked' | 'on-arrival';
interface Send {
  at: number;
  ch: number;
}

class TokBench extends Module {
  readonly pair: DsLinkPair;
  constructor(aToB: Send[], bToA: Send[], popB: boolean[], handover: Handover, runIdle: RunIdle) {
    super(null, 'top');
    const cfg = { rxHandover: handover, runIdle };
    const pair = (this.pair = new DsLinkPair(this, 'link', { a: cfg, b: cfg }));
    new CharSource(this, 'srcA', pair.a, aToB.map((x) => x.ch), [true], aToB.map((x) => x.at));
    new CharSource(this, 'srcB', pair.b, bToA.map((x) => x.ch), [true], bToA.map((x) => x.at));
    new CharSink(this, 'sinkA', pair.a);
    new CharSink(this, 'sinkB', pair.b, popB);
  }
}

/** Bursts: a start cycle and a run of characters offered from then on (the source offers them back to back). */
const burstArb = fc
  .array(fc.record({ at: fc.integer({ min: 2600, max: 6000 }), chars: fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constant(CHAR_EOP), fc.constant(CHAR_EOM)), { minLength: 1, maxLength: 40 }) }), { maxLength: 5 })
  .map((bs) => bs.flatMap((b) => b.chars.map((ch) => ({ at: b.at, ch }))).sort((x, y) => x.at - y.at));

function trains(b: TokBench): DsTokenTrain[] {
  return [b.pair.a.ser.tokTrain!, b.pair.b.ser.tokTrain!];
}

function run(aToB: Send[], bToA: Send[], popB: boolean[], handover: Handover, runIdle: RunIdle, cycles: number, extra?: (ls: Lockstep<TokBench>, c: number) => void) {
  const ls = new Lockstep(() => new TokBench(aToB, bToA, popB, handover, runIdle));
  for (let c = 0; c < cycles; c++) {
    extra?.(ls, c);
    try {
      ls.step();
    } catch (e) {
      // A poke can leave the deserialiser framing past its 8-bit `acc` (a
      // flag poked mid-token): both copies stop with the same error (Lockstep.step asserts it).
      if (e instanceof SimError && e.kind === 'value-too-wide') break;
      throw e;
    }
  }
  const st = trains(ls.active).map((t) => t.stats);
  return { ls, entered: st[0]!.entered + st[1]!.entered, thawed: st[0]!.thawed + st[1]!.thawed, tokens: st[0]!.tokens + st[1]!.tokens };
}

/**
 * One stimulus in a train (in both copies), undone `len` cycles later:
 * a snapshot restored (both go back to the cycle it was taken), a switch of the fast copy to
 * the reference mode and back, a poke of a register a train computes on
 * demand (serialiser or deserialiser, either direction) or of an enable
 * input (a force: the train leaves through trainWatch), a reset of both
 * (cycle 0, the links start again).
 */
interface Stim {
  kind: 'snap' | 'mode' | 'poke' | 'reset';
  at: number;
  len: number;
  reg: number;
}
const stimArb = fc.record({ kind: fc.constantFrom<Stim['kind']>('snap', 'mode', 'poke', 'reset'), at: fc.integer({ min: 2700, max: 6000 }), len: fc.integer({ min: 1, max: 200 }), reg: fc.nat(19) });

function pokedReg(u: TokBench, k: number): Signal {
  const end = k & 1 ? u.pair.b : u.pair.a;
  const regs = [end.ser.sh, end.ser.left, end.ser.data, end.deser.xPrev, end.deser.cnt, end.deser.acc, end.deser.pBit, end.deser.flag, end.ser.enable, end.deser.enable];
  return regs[k >>> 1]!;
}

function applyStim(ls: Lockstep<TokBench>, st: Stim, start: boolean, snap: [unknown, unknown] | null, keep: (v: [unknown, unknown]) => void): void {
  if (st.kind === 'snap') {
    if (start) keep([ls.simP.save(), ls.simA.save()]);
    else {
      ls.simP.restore(snap![0] as never);
      ls.simA.restore(snap![1] as never);
    }
  } else if (st.kind === 'reset') {
    if (start) {
      ls.simP.reset();
      ls.simA.reset();
    }
  } else if (st.kind === 'mode') ls.simA.setMode(start ? 'plain' : 'activity');
  else if (start) {
    const r = (u: TokBench): Signal => pokedReg(u, st.reg);
    ls.poke(r, (ls.peek(r) + 1) % 2 ** r(ls.plain).width);
  }
}

const dir = mkdtempSync(join(tmpdir(), 'icemu-tok-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  DsTokenTrain.late = 0;
});

const stream: Send[] = Array.from({ length: 60 }, (_, k) => ({ at: 3000, ch: k % 7 === 6 ? CHAR_EOP : (k * 37) & 255 }));

describe('DS-link tokens on a serial line = bit by bit', () => {
  it('property: random bursts both ways, stalls, both handovers, every run-idle mode, a stimulus in a train: every value at every cycle', () => {
    let entered = 0;
    let thawed = 0;
    let tokens = 0;
    let errors = 0;
    // How often each stimulus found a train running (the draws reach the train's exits, not only its steady state).
    const inTrain: Record<Stim['kind'], number> = { snap: 0, mode: 0, poke: 0, reset: 0 };
    fc.assert(
      fc.property(
        burstArb,
        burstArb,
        fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
        fc.constantFrom<Handover>('checked', 'on-arrival'),
        fc.constantFrom<RunIdle>('nulls', 'one-null', 'silent'),
        fc.option(fc.integer({ min: 2600, max: 6000 }), { freq: 2 }),
        stimArb,
        (aToB, bToA, pop, handover, runIdle, flipAt, stim) => {
          const popB = pop.some((x) => x) ? pop : [true];
          let snap: [unknown, unknown] | null = null;
          let fired: number | null = null;
          const extra = (ls: Lockstep<TokBench>, c: number): void => {
            // A flipped bit on the D wire: a parity or escape error, the link restarts (both modes alike).
            if (c === flipAt) ls.poke((u) => u.pair.a.ser.data, 1 - ls.peek((u) => u.pair.a.ser.data));
            if (c < stim.at) return;
            // The stimulus at the first cycle from `at` on where the fast copy runs a train (undone `len` later).
            if (fired === null && trains(ls.active).some((t) => t.active)) {
              fired = c;
              inTrain[stim.kind]++;
              applyStim(ls, stim, true, snap, (v) => (snap = v));
            } else if (fired !== null && c === fired + stim.len) applyStim(ls, stim, false, snap, (v) => (snap = v));
          };
          const r = run(aToB, bToA, popB, runIdle === 'silent' ? 'on-arrival' : handover, runIdle, 6500, extra);
          if (flipAt !== null) errors += r.ls.peek((u) => u.pair.b.errCount);
          entered += r.entered;
          thawed += r.thawed;
          tokens += r.tokens;
        },
      ),
      { numRuns: 60 },
    );
    // The property tested the token path, not only the bit path, errors, and each stimulus in a train.
    expect(errors).toBeGreaterThan(0);
    expect(entered).toBeGreaterThan(10);
    expect(thawed).toBeGreaterThan(10);
    expect(tokens).toBeGreaterThan(500);
    for (const k of Object.keys(inTrain) as Stim['kind'][]) expect(inTrain[k], k).toBeGreaterThan(0);
  }, 300_000);

  it('no NULL train entered at the edge where the serialiser is disabled (null_train.ts): its recording ends as an error turns the link off', () => {
    // Found by the property: a flipped D bit at 3898 (a restart), another at
    // 5990; b's serialiser is disabled at 5998, the edge where its NULL
    // recording completed, and the train took the wires on for the period.
    const flip = (ls: Lockstep<TokBench>, c: number): void => {
      if (c === 3898 || c === 5990) ls.poke((u) => u.pair.a.ser.data, 1 - ls.peek((u) => u.pair.a.ser.data));
    };
    run([], [{ at: 3885, ch: CHAR_EOP }], [false], 'checked', 'nulls', 6100, flip);
  });

  it('a streaming direction evaluates its serialiser and deserialiser a few times a token, not every bit', () => {
    const count = (mode: 'plain' | 'activity'): { evals: number; tokens: number } => {
      const b = new TokBench(stream, [], [true], 'checked', 'nulls');
      const sim = new Simulator(b, { mode });
      sim.step(3000);
      const e0 = sim.evaluations;
      sim.step(400);
      return { evals: sim.evaluations - e0, tokens: trains(b)[0]!.stats.tokens };
    };
    const fast = count('activity');
    expect(fast.tokens).toBeGreaterThan(30);
    // without trains (the reference mode runs everything) vs with: far fewer evaluations
    const plain = count('plain');
    expect(fast.evals).toBeLessThan(plain.evals / 3);
  });

  it('a poke into an on-demand register and into the D wire, a switch to the reference mode and back: still equal', () => {
    run(stream, stream, [true, false], 'checked', 'nulls', 4000, (ls, c) => {
      if (c === 3040) {
        expect(trains(ls.active).some((t) => t.active)).toBe(true);
        ls.poke((u) => u.pair.b.deser.acc, 5); // thawed first, then poked
      }
      if (c === 3200) ls.simA.setMode('plain');
      if (c === 3230) ls.simA.setMode('activity');
      if (c === 3300) ls.poke((u) => u.pair.a.ser.data, 1); // a wire flip: a parity or escape error follows, in both
    });
  });

  it('the VCD of every signal is byte-identical (D/S wires, decoded-token twins, every register)', () => {
    const vcdOf = (mode: 'plain' | 'activity'): string => {
      const b = new TokBench(stream, stream.slice(0, 20), [true, true, false], 'checked', 'nulls');
      const sim = new Simulator(b, { mode });
      const path = join(dir, `tok-${mode}.vcd`);
      const w = startVcd(sim, path, { date: '2026-01-01T00:00:00Z', handleExit: false });
      sim.step(3600);
      w.close();
      if (mode === 'activity') expect(trains(b).reduce((n, x) => n + x.stats.tokens, 0)).toBeGreaterThan(60);
      return readFileSync(path, 'utf8');
    };
    expect(vcdOf('activity')).toBe(vcdOf('plain'));
  });

  it('snapshots carry a train: restore in the middle of one and replay the same values', () => {
    const b = new TokBench(stream, [], [true], 'on-arrival', 'nulls');
    const sim = new Simulator(b, { mode: 'activity' });
    sim.step(3050);
    expect(trains(b)[0]!.active).toBe(true);
    const snap = sim.save();
    const after = (): string[] => Array.from({ length: 500 }, () => (sim.step(1), Array.from(sim.values()).join(',')));
    const a = after();
    sim.restore(snap);
    expect(after()).toEqual(a);
  });

  it('negative control: every token posted one cycle late is seen', () => {
    DsTokenTrain.late = 1;
    expect(() => run(stream, [], [true], 'checked', 'nulls', 3300)).toThrow(/in plain mode but .* in activity mode/);
  });

  it('links with flow-through or through the wire-fault injector stay bit by bit (no token trains)', () => {
    expect(new DsLinkPair(null, 'p', { faults: true }).a.ser.tokTrain).toBeNull();
    const ft = { rxHandover: 'on-arrival' as const, flowThrough: true };
    expect(new DsLinkPair(null, 'f', { a: ft, b: ft }).a.ser.tokTrain).toBeNull();
    const q = new DsLinkPair(null, 'q', { a: { runIdle: 'one-null' }, b: { runIdle: 'one-null' } });
    expect(q.a.ser.tokTrain?.rx).toBe(q.b);
  });
});

describe('REPL on a DS-link in the fast and the reference mode', () => {
  async function session(mode: 'activity' | 'plain'): Promise<string[]> {
    const eng = new ReplEngine({ preset: 'dslink-pair' });
    eng.sim.setMode(mode);
    const out: string[] = [];
    const exec = async (cmd: string): Promise<void> => {
      const r = await eng.exec(cmd);
      out.push(`${cmd} => ${r.lines.join(' | ')}${r.error ? ` ! ${r.error}` : ''}`);
    };
    await exec('run until a.link0.linkState == Run && b.link0.linkState == Run');
    await exec('send a 0 200');
    await exec('step 30');
    await exec('watch a.link0.dOut');
    for (let k = 0; k < 8; k++) await exec('c');
    await exec('delete');
    await exec('watch b.link0.deser.acc');
    for (let k = 0; k < 5; k++) await exec('c');
    await exec('delete');
    await exec('b b.link0.deser.cnt == 5 && a.link0.dOut == 1');
    for (let k = 0; k < 3; k++) await exec('c');
    const end = eng.sim.module('a.link0');
    if (mode === 'activity') tokens = end instanceof DsLinkEnd ? (end.ser.tokTrain?.stats.tokens ?? 0) : -1;
    return out;
  }
  let tokens = 0;

  it('watches and breakpoints on a D wire and a deserialiser register fire at the same cycles', async () => {
    const fast = await session('activity');
    const ref = await session('plain');
    expect(fast).toEqual(ref);
    expect(fast.filter((l) => /stopped at cycle \d+/.test(l)).length).toBeGreaterThanOrEqual(14);
    expect(tokens).toBeGreaterThan(5); // the fast session's wires were on a token train
  });
});
