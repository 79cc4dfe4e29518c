/**
 * Benches of the token layer's lock-step tests.
 *
 * WriteBench: a pair with a loaded token train a → b (data, EOP every 9th, EOM every 13th
 * character: 10- and 4-bit tokens) and characters b → a; b's sink stalls
 * from STALL to REFILL (a's credit runs out) and then pops in bursts (FCTs
 * owed and sent). Shared by the token layer's lock-step tests
 * (token_writes.test.ts, credit_flags.test.ts).
 */
import { Module, Simulator } from '../../rtl/kernel/index.ts';
import { DsLinkPair } from '../../rtl/dslink/pair.ts';
import type { RunIdle } from '../../rtl/dslink/config.ts';
import { chaosLockstep, warmCopies } from '../lib/chaos_lockstep.ts';
import type { RxHandover } from '../../rtl/dslink/rx_decoder.ts';
import { CHAR_EOM, CHAR_EOP } from '../../rtl/dslink/chars.ts';
import { CharSink, CharSource } from './bench.ts';
import { type Lockstep, runLockstep } from '../lib/lockstep_sim.ts';

export const START = 2700; // the link is in Run from ≈ 2,600
export const STALL = 2650;
export const REFILL = 3250;

export class WriteBench extends Module {
  readonly pair: DsLinkPair;
  constructor(rxHandover: RxHandover) {
    super(null, 'top');
    const pair = (this.pair = new DsLinkPair(this, 'link', { a: { rxHandover }, b: { rxHandover } }));
    // Data with an EOP every 9th and an EOM every 13th token: 10- and 4-bit tokens.
    const chars = Array.from({ length: 140 }, (_, k) => (k % 9 === 8 ? CHAR_EOP : k % 13 === 12 ? CHAR_EOM : (k * 53) & 255));
    new CharSource(this, 'srcA', pair.a, chars, [true], Array.from({ length: chars.length }, () => START));
    new CharSource(this, 'srcB', pair.b, Array.from({ length: 24 }, (_, k) => k), [true], Array.from({ length: 24 }, (_, k) => START + 30 * k));
    new CharSink(this, 'sinkA', pair.a);
    // b pops nothing from STALL to REFILL (a's credit runs out in the window), then in bursts.
    new CharSink(this, 'sinkB', pair.b, Array.from({ length: 3400 }, (_, c) => !(c >= STALL && c < REFILL) && c % 7 !== 0));
  }
}

/**
 * BurstBench: bursts of 25 characters a → b with gaps (token trains start,
 * hand over to NULLs and start again), a trickle b → a, b's sink stalling;
 * for random pokes (test/review/timed_write_chaos.test.ts,
 * test/dslink/tokv_writes.test.ts).
 */
export class BurstBench extends Module {
  constructor(runIdle: RunIdle) {
    super(null, 'top');
    const pair = new DsLinkPair(this, 'link', { a: { runIdle }, b: { runIdle } });
    new CharSource(this, 'srcA', pair.a, Array.from({ length: 400 }, (_, k) => (k * 37) & 255), [true], Array.from({ length: 400 }, (_, k) => START + (k % 50 < 25 ? 0 : 30 * k)));
    new CharSource(this, 'srcB', pair.b, Array.from({ length: 60 }, (_, k) => k), [true], Array.from({ length: 60 }, (_, k) => START + 40 * k));
    new CharSink(this, 'sinkA', pair.a);
    new CharSink(this, 'sinkB', pair.b, [...Array<boolean>(30).fill(false), ...Array<boolean>(50).fill(true)]);
  }
}

/**
 * The WriteBench in lock-step for `end` cycles (fast against the reference
 * mode, test/lib/lockstep_sim.ts), `check` looked at before each cycle's
 * `act` (pokes): the errors it found (credit_flags, credit_owed).
 */
export function runChecked(
  h: RxHandover,
  end: number,
  check: (ls: Lockstep<WriteBench>, seen: Set<string>) => string[],
  act: (ls: Lockstep<WriteBench>, c: number) => void,
  seen = new Set<string>(),
): string[] {
  const errs: string[] = [];
  runLockstep(
    () => new WriteBench(h),
    end,
    (ls, c) => {
      errs.push(...check(ls, seen));
      act(ls, c);
    },
  );
  return errs;
}

const warm = new Map<RunIdle, () => { ref: Simulator; fast: Simulator }>();

/** Of seeds 1..n, how many chaos lock-steps (600 cycles from cycle 3000 of a BurstBench, pokes of the slots `poked` names) differ. */
export function burstSeedsDiffering(runIdle: RunIdle, n: number, poked: RegExp): number {
  if (!warm.has(runIdle)) warm.set(runIdle, warmCopies((mode) => new Simulator(new BurstBench(runIdle), { mode }), 3000));
  let bad = 0;
  for (let seed = 1; seed <= n; seed++) {
    const { ref, fast } = warm.get(runIdle)!();
    if (chaosLockstep(ref, fast, seed, { cycles: 600, rate: 0.08, pokeable: (s) => poked.test(s.path) }).diff) bad++;
  }
  return bad;
}
