/**
 * REPL breakpoints and watches on a link bit, a PBU's incoming shift register
 * and a statistics counter stop at the same cycles in the fast mode and in
 * the reference mode (issue 8; docs/kernel.md "Fast and reference mode").
 */
import { describe, expect, it } from 'vitest';
import { ReplEngine } from '../../harness/repl/engine.ts';

async function session(mode: 'activity' | 'plain'): Promise<string[]> {
  const eng = new ReplEngine({ preset: 'cube3' });
  eng.sim.setMode(mode);
  const out: string[] = [];
  const run = async (cmd: string): Promise<void> => {
    const r = await eng.exec(cmd);
    out.push(`${cmd} => ${r.lines.join(' | ')}${r.error ? ` ! ${r.error}` : ''}`);
  };
  await run('send 0 7 60');
  await run('recv 7 any 100 any');
  await run('watch node0.fcu1.txBit');
  for (let k = 0; k < 6; k++) await run('c');
  await run('delete');
  await run('watch node1.pbu1.inShift');
  for (let k = 0; k < 6; k++) await run('c');
  await run('delete');
  await run('b node0.fcu1.busyCycles == 40');
  await run('c');
  await run('print node0.fcu1.busyCycles');
  await run('b node3.fcu3.txBit == 1 && node3.pbu2.inState == dest');
  await run('c');
  return out;
}

describe('REPL in the fast and the reference mode', () => {
  it('watches and breakpoints on a link bit, a shift register and a counter fire at the same cycles', async () => {
    const fast = await session('activity');
    const ref = await session('plain');
    expect(fast).toEqual(ref);
    expect(fast.filter((l) => /stopped at cycle \d+/.test(l)).length).toBeGreaterThanOrEqual(13);
  });
});
