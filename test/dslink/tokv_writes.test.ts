/**
 * The decoder's tokV registers by timed writes (docs/kernel.md "Stop 24:
 * token layer"; rx_decoder.ts tokvAhead): in a token train with the
 * checked handover, the decoder's run at a token's hdrV writes what its run
 * at the token's end (tokV) would write — prevPar, esc, pendKind, pendVal,
 * from the token's bits, which are on the line — as timed register writes
 * at that edge, and the decoder is next woken at the following hdrV. A run
 * in between (a poke, the enable) drops them and restores the run at tokV;
 * a thaw, a handover to the NULL train or the train ending does too.
 *
 * Lock-step (fast copy against the reference mode, every wire and register
 * at every cycle: test/lib/lockstep_sim.ts) on the loaded stream of
 * token_writes.test.ts (data, EOP and EOM tokens, a's credit exhausted and
 * refilled, characters b → a), at each of 10 phases of a token: pokes of
 * each register the writes set (b's esc, pendKind, pendVal, prevPar), of
 * `dead`, and of the deserialiser's registers and outputs (acc, cnt,
 * tokPay, tokCtl: a thaw of the train); random pokes of these between
 * snapshots and mode switches (test/lib/chaos_lockstep.ts) on a pair with
 * trains both ways in both run-idle modes. Snapshots with these writes
 * pending and mode switches: token_writes.test.ts (its cases run with them).
 * Negative controls: the writes one edge late (DsRxDecoder.tokvLate) fail
 * the lock-step at every phase and in every chaos seed tried; the writes
 * left standing by a run between hdrV and tokV (DsRxDecoder.noRetract: a
 * poked esc) or by a thaw (DsRxDecoder.noDrop: a poked deserialiser count)
 * fail it at some phases and in some seeds.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Signal } from '../../rtl/kernel/index.ts';
import type { DsLinkEnd } from '../../rtl/dslink/end.ts';
import type { RunIdle } from '../../rtl/dslink/config.ts';
import { DsRxDecoder } from '../../rtl/dslink/rx_decoder.ts';
import { runLockstep, runsSeen, type Lockstep } from '../lib/lockstep_sim.ts';
import { WriteBench, burstSeedsDiffering } from './loaded_stream.ts';

const T0 = 3150; // inside the loaded stream (token_writes.test.ts)
const PHASES = 10;
const LEN = 160;

type Act = (ls: Lockstep<WriteBench>, c: number) => void;
const run = (act: Act): Lockstep<WriteBench> => runLockstep(() => new WriteBench('checked'), T0 + LEN, act);

const B = (u: WriteBench): DsLinkEnd => u.pair.b;
const pokes: [string, (u: WriteBench) => Signal, number][] = [
  ['b esc 1', (u) => B(u).dec.esc, 1],
  ['b esc 0', (u) => B(u).dec.esc, 0],
  ['b pendKind none', (u) => B(u).dec.pendKind, 0],
  ['b pendKind char', (u) => B(u).dec.pendKind, 3],
  ['b pendVal 5', (u) => B(u).dec.pendVal, 5],
  ['b prevPar 0', (u) => B(u).dec.prevPar, 0],
  ['b prevPar 1', (u) => B(u).dec.prevPar, 1],
  ['b dead 1', (u) => B(u).dec.dead, 1],
  ['b deser acc 3', (u) => B(u).deser.acc, 3],
  ['b deser cnt 0', (u) => B(u).deser.cnt, 0],
  ['b deser tokPay 7', (u) => B(u).deser.out.tokPay, 7],
  ['b deser tokCtl 1', (u) => B(u).deser.out.tokCtl, 1],
];

// These tests measure stop 24's timed writes at tokV (DsRxDecoder.tokvByRun = false, the default since stop 25).
beforeEach(() => {
  DsRxDecoder.tokvByRun = false;
});

afterEach(() => {
  DsRxDecoder.tokvLate = false;
  DsRxDecoder.tokvByRun = false;
  DsRxDecoder.noRetract = false;
  DsRxDecoder.noDrop = false;
});

const pokeAt = (sel: (u: WriteBench) => Signal, v: number) => (k: number) => run((l, c) => c === T0 + k && l.poke(sel, v));

describe("DS-link decoder: the held token's registers by timed writes", () => {
  it('the writes fire in the window: b is woken at hdrV only, the tokV registers change by writes', () => {
    let ahead = 0;
    let last = -1;
    run((l, c) => {
      const at = l.active.pair.b.dec.tokTrain!.recv.tokvAt;
      if (c >= T0 && at > c && at !== last) {
        ahead++;
        last = at;
      }
    });
    expect(ahead).toBeGreaterThan(8);
  });

  for (const [title, sel, v] of pokes) {
    it(`${title}, at ${PHASES} phases: equal at every cycle`, () => {
      for (let k = 0; k < PHASES; k++) run((l, c) => c === T0 + k && l.poke(sel, v));
    });
  }

  it('the reference option (DsRxDecoder.tokvByRun: the run at tokV, stop 23): equal at every cycle', () => {
    DsRxDecoder.tokvByRun = true;
    run(() => {});
  });

  it('negative control: the writes one edge late, the copies differ at every phase', () => {
    DsRxDecoder.tokvLate = true;
    expect(runsSeen(PHASES, () => run(() => {}))).toBe(PHASES);
  });

  it('negative control: a run between hdrV and tokV (a poked esc) leaving the writes standing is seen', () => {
    DsRxDecoder.noRetract = true;
    expect(runsSeen(PHASES, pokeAt((u) => B(u).dec.esc, 1))).toBeGreaterThan(0);
  });

  it('negative control: a thaw (a poked deserialiser count) leaving the writes standing is seen', () => {
    DsRxDecoder.noDrop = true;
    expect(runsSeen(PHASES, pokeAt((u) => B(u).deser.cnt, 0))).toBeGreaterThan(0);
  });
});

// ---------------------------------------------------------------- random pokes

const POKED = /dec\.(esc|pendKind|pendVal|prevPar|dead|got)|deser\.(acc|cnt|out\.tok)/;
const differing = (runIdle: RunIdle, n: number): number => burstSeedsDiffering(runIdle, n, POKED);

describe('DS-link decoder: tokV writes pending, random pokes, snapshots, mode switches', () => {
  for (const runIdle of ['nulls', 'one-null'] as const) {
    it(`runIdle ${runIdle}: fast = reference at every cycle`, { timeout: 120_000 }, () => {
      expect(differing(runIdle, Number(process.env.ICEMU_FULL) ? 400 : 40)).toBe(0);
    });
  }

  it('negative control: the writes one edge late are caught', { timeout: 120_000 }, () => {
    DsRxDecoder.tokvLate = true;
    expect(differing('nulls', 5)).toBe(5);
  });

  it('negative controls: the writes left standing after a run or a thaw are caught in some seeds', { timeout: 120_000 }, () => {
    DsRxDecoder.noRetract = true;
    expect(differing('nulls', 40)).toBeGreaterThan(0);
    DsRxDecoder.noRetract = false;
    DsRxDecoder.noDrop = true;
    expect(differing('nulls', 20)).toBeGreaterThan(0);
  });
});
