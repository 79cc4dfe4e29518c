/**
 * The REPL on an idle DS-link whose directions are still NULL trains
 * (rtl/dslink/null_train.ts, docs/dslink.md#still-trains: the serialiser's
 * `more` and `take` and every bit-level register on demand, nothing
 * evaluated): a watch on `more`, a breakpoint on the D wire and one on
 * `take` stop at the same cycles, with the same values printed, in the fast
 * mode and in the reference mode ('plain'), and a `send` ends the still
 * stretch alike. (test/dslink/still_train_review.test.ts has the model's review.)
 */
import { describe, expect, it } from 'vitest';
import { ReplEngine } from '../../harness/repl/engine.ts';
import { DsLinkEnd } from '../../rtl/dslink/end.ts';
import { ok } from './helpers.ts';

/** The commands' outputs, one REPL per kernel mode; the fast one's a->b train is still where `mid` says. */
async function session(mode: 'plain' | 'activity', cmds: string[], mid: (eng: ReplEngine) => void): Promise<string[]> {
  const eng = new ReplEngine({ preset: 'dslink-pair' });
  eng.sim.setMode(mode);
  const out: string[] = [];
  for (const [k, c] of cmds.entries()) {
    out.push(await ok(eng, c));
    if (k === 1 && mode === 'activity') mid(eng);
  }
  return out;
}

describe('REPL on still NULL trains: the same stops as the reference mode', () => {
  // A defect this review found: the fast mode's `continue` stopped at once
  // with "idle: nothing is moving and nothing is scheduled" at cycle 4946
  // while the reference stopped at 4949 on the watch (a.link0.ser.more 1 -> 0):
  // Simulator.quiescent ignored the on-demand values, and a still train
  // schedules nothing while its wires, `more` and `take` move every cycle.
  // quiescent now asks the on-demand providers' nextChange; with the old
  // getter this test fails.
  it('watch more, break on the D wire and on take, print, send: identical transcripts', async () => {
    const cmds = [
      'run until a.link0.linkState == Run && b.link0.linkState == Run',
      'step 3000',
      'watch a.link0.ser.more',
      'continue',
      'continue',
      'print a.link0.ser.take a.link0.ser.more a.link0.dOut a.link0.sOut',
      'delete 1',
      'break a.link0.dOut == 1 && a.link0.ser.left == 2',
      'continue',
      'continue',
      'delete 2',
      'break a.link0.ser.take == 1',
      'continue',
      'step 3',
      'print a.link0.ser.take a.link0.tokens.tok',
      'send a 0 4',
      'continue',
      'continue',
      'print a.link0.tokens.tok a.link0.ser.take',
    ];
    let stillAt = false;
    const fast = await session('activity', cmds, (eng) => {
      const end = eng.sim.module('a.link0') as DsLinkEnd;
      stillAt = end.ser.txTrain!.still;
    });
    const ref = await session('plain', cmds, () => {});
    expect(stillAt).toBe(true);
    expect(fast.join('\n')).toMatch(/stopped at cycle \d+: watch 1/);
    expect(fast.join('\n')).toMatch(/stopped at cycle \d+: breakpoint 2/);
    expect(fast).toEqual(ref);
  }, 120_000);
});
