/**
 * The credit unit's `status` guarded by `rxOutHigh` (rtl/dslink/credit.ts,
 * docs/dslink.md#owed-guard, docs/kernel.md "Stop 25: token layer"): the
 * count writes rxOutHigh = (rxOut > rxDepth − 8) with rxOut; `status` gives
 * fctOwed = 0 while it is 1 and reads rxOut and rxCount only while it is 0.
 *
 * The reading: at every cycle, in both modes, fctOwed equals the formula of
 * the reference form (`DsCredit.statusPlain`: rxDepth − rxCount − rxOut ≥ 8
 * and rxOut + 8 ≤ creditCap, from the counters of that cycle) and rxOutHigh
 * = (rxOut > rxDepth − 8), except in the cycle of a poke of rxOut (the flag
 * follows at the next edge); fctOwed and rxOutHigh each seen at 0 and 1.
 * The option against its reference: the same bench built with
 * `statusPlain`, every shared wire and register equal at every cycle.
 * Lock-step (fast against the reference mode, every slot at every cycle)
 * with pokes at 10 phases of a token of b's rxOut (0, 40, 55), rxOutHigh (0,
 * 1), the receive buffer's count, and the enable dropping. Negative controls:
 * `DsCredit.highOffByOne` (rxOutHigh from rxOut ≥ rxDepth − 8) and
 * `DsCredit.owedBlind` (rxCount not read under the guard) break the reading.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Simulator, type Signal } from '../../rtl/kernel/index.ts';
import { DsCredit } from '../../rtl/dslink/credit.ts';
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { S_ERROR_RESET } from '../../rtl/dslink/link_fsm.ts';
import type { RxHandover } from '../../rtl/dslink/rx_decoder.ts';
import { type Lockstep, runLockstep } from '../lib/lockstep_sim.ts';
import { runChecked, WriteBench } from './loaded_stream.ts';

const T0 = 3150;
const PHASES = 10;
const LEN = 160;
const END = 3500;

afterEach(() => {
  DsCredit.statusPlain = false;
  DsCredit.highOffByOne = false;
  DsCredit.owedBlind = false;
});

/** Where fctOwed or rxOutHigh differs from the reference's formula in the current cycle, in either copy. */
function owedErrors(ls: Lockstep<WriteBench>, seen: Set<string>): string[] {
  const errs: string[] = [];
  const c = ls.cycle;
  for (const [sim, u, mode] of [[ls.simP, ls.plain, 'plain'], [ls.simA, ls.active, 'activity']] as [Simulator, WriteBench, string][]) {
    for (const e of [u.pair.a, u.pair.b] as DsLinkEnd[]) {
      const cr = e.credit;
      const D = e.cfg.rxBufferTokens;
      const ro = sim.peek(cr.rxOut);
      const want = D - sim.peek(e.rxBuf.count) - ro >= 8 && ro + 8 <= e.cfg.creditCap ? 1 : 0;
      const fo = sim.peek(cr.fctOwed);
      const hi = sim.peek(cr.rxOutHigh!);
      seen.add(`fo${fo}`).add(`hi${hi}`);
      if (fo !== want) errs.push(`${mode} ${cr.path}.fctOwed at ${c}`);
      if (hi !== (ro > D - 8 ? 1 : 0)) errs.push(`${mode} ${cr.path}.rxOutHigh at ${c}`);
    }
  }
  return errs;
}

const run = (h: RxHandover, act: (ls: Lockstep<WriteBench>, c: number) => void, seen = new Set<string>()): string[] => runChecked(h, END, owedErrors, act, seen);

/** A control seen either way: the reading broken, or the fast copy off the reference. */
function controlSeen(): boolean {
  try {
    return run('checked', () => {}).length > 0;
  } catch (e) {
    return /plain mode but/.test(String(e));
  }
}

/** The bench built with and without `statusPlain`, stepped side by side: the first shared slot that differs, or null. */
function againstPlain(): string | null {
  const fast = new Simulator(new WriteBench('checked'), { mode: 'activity' });
  DsCredit.statusPlain = true;
  const ref = new Simulator(new WriteBench('checked'), { mode: 'activity' });
  DsCredit.statusPlain = false;
  const at = new Map<string, number>();
  fast.net.slotSignal.forEach((sig, k) => at.set(sig.path + (k === sig.i ? '' : "'"), k));
  const pairs: [number, number, string][] = [];
  ref.net.slotSignal.forEach((sig, k) => {
    const key = sig.path + (k === sig.i ? '' : "'");
    const j = at.get(key);
    if (j !== undefined) pairs.push([k, j, key]);
  });
  // Every slot of the reference form has its twin (the guarded form only adds rxOutHigh).
  expect(pairs.length).toBe(ref.net.slotSignal.filter((x) => x !== undefined).length);
  expect(pairs.length).toBeGreaterThan(100);
  for (let c = 0; c < END; c++) {
    fast.step();
    ref.step();
    const x = ref.values();
    const y = fast.values();
    for (const [k, j, key] of pairs) if (x[k] !== y[j]) return `cycle ${c}: ${key} is ${x[k]} in the reference form but ${y[j]}`;
  }
  return null;
}

const B = (u: WriteBench): DsLinkEnd => u.pair.b;
const pokes: [string, (u: WriteBench) => Signal, number][] = [
  ['b rxOut 0', (u) => B(u).credit.rxOut, 0],
  ['b rxOut 40', (u) => B(u).credit.rxOut, 40],
  ['b rxOut 55', (u) => B(u).credit.rxOut, 55],
  ['b rxOutHigh 0', (u) => B(u).credit.rxOutHigh!, 0],
  ['b rxOutHigh 1', (u) => B(u).credit.rxOutHigh!, 1],
  ['b rxBuf.count 3', (u) => B(u).rxBuf.count, 3],
  ['b state ErrorReset (enable drops)', (u) => B(u).fsm.state, S_ERROR_RESET],
];

describe('DS-link credit status guarded by rxOutHigh', () => {
  for (const h of ['checked', 'on-arrival'] as const) {
    it(`${h}: fctOwed = the reference's formula and rxOutHigh = (rxOut > rxDepth - 8) at every cycle in both modes, each seen at 0 and 1`, () => {
      const seen = new Set<string>();
      expect(run(h, () => {}, seen)).toEqual([]);
      expect([...seen].sort()).toEqual(['fo0', 'fo1', 'hi0', 'hi1']);
    });
  }

  it('against the reference form (statusPlain): every shared wire and register equal at every cycle', () => {
    expect(againstPlain()).toBe(null);
  });

  for (const [title, sel, v] of pokes) {
    it(`checked: ${title}, at ${PHASES} phases: lock-step equal at every cycle`, () => {
      for (let k = 0; k < PHASES; k++) runLockstep(() => new WriteBench('checked'), T0 + LEN, (l, c) => c === T0 + k && l.poke(sel, v));
    });
  }

  it('a poked rxOut: the flag follows at the next edge (the reading holds again one cycle later)', () => {
    // Checked before each cycle's pokes: the poked cycle itself (the one exception) is not looked at.
    expect(run('checked', (l, c) => c === T0 && l.poke((u) => B(u).credit.rxOut, 30))).toEqual([]);
  });

  it('negative control: rxOutHigh one too low (rxOut >= rxDepth - 8), the reading fails', () => {
    DsCredit.highOffByOne = true;
    expect(controlSeen()).toBe(true);
    expect(againstPlain()).not.toBe(null);
  });

  it('negative control: status blind to rxCount under the guard, the reading fails', () => {
    DsCredit.owedBlind = true;
    expect(controlSeen()).toBe(true);
    expect(againstPlain()).not.toBe(null);
  });
});
