/**
 * REPL presets with T9000 `addressing: 'node'` (docs/t9000.md#addressing):
 * `dslink-pair-node` (the pair harness) and `pair-c104-node` (one C104).
 * A message sent in the session crosses the link(s) with the far endpoint's
 * node number on the wire as its header and arrives on its virtual link;
 * `back` over a cycle where a side-band tag was in flight replays exactly
 * (the lanes are saved with the checkpoints); a checkpoint file of one
 * preset does not load into the other (control).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReplEngine } from '../../harness/repl/engine.ts';
import { fails, ok } from './helpers.ts';

describe("REPL presets with addressing 'node'", () => {
  it('dslink-pair-node: a message arrives on its VL; the header on the wire is b\'s node number; back over a tag in flight is exact', async () => {
    const eng = new ReplEngine({ preset: 'dslink-pair-node' });
    expect(eng.target?.title ?? '').toMatch(/addressing 'node'/);
    await ok(eng, 'run until a.link0.linkState == Run && b.link0.linkState == Run');
    const at = eng.cycle;
    const h = eng.sim.stateHash();
    expect(await ok(eng, 'send a 1 40')).toMatch(/^message 0: a vl 1 -> b vl 1, 40 bytes/);
    // the first token a sends is the header: node 1 (b), not the VL label
    expect(await ok(eng, 'run until a.link0.tokens.normalOnWire == 1')).toMatch(/condition/);
    expect(await ok(eng, 'print a.link0.tokens.tok')).toMatch(/= 1 +0x001 +0b[01_]+ +D 0x01/);
    await ok(eng, 'run until b.vlc.rDone1 == 1');
    expect(await ok(eng, 'print b.vlc.rDone0')).toMatch(/= 0 /);
    const end = eng.cycle;
    const done = eng.sim.stateHash();
    await ok(eng, `back ${end - at}`);
    expect(eng.cycle).toBe(at);
    expect(eng.sim.stateHash()).toBe(h);
    await ok(eng, `step ${end - at}`); // the send typed at that cycle is replayed, its tag through the lane
    expect(eng.sim.stateHash()).toBe(done);
  });

  it('pair-c104-node: a message through the switch is delivered on the partner block; checkpoint files need the same preset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'icemu-node-'));
    const eng = new ReplEngine({ preset: 'pair-c104-node' });
    await ok(eng, 'run until t0.link0.linkState == Run && t1.link0.linkState == Run');
    expect(await ok(eng, 'send t0 1 100')).toMatch(/^message 0: t0 vl 1 -> t1 vl 1, 100 bytes/);
    expect(await ok(eng, 'run until t1.vlc.rDone1 == 1')).toMatch(/condition t1\.vlc\.rDone1 == 1/);
    expect(await ok(eng, 'print t1.vlc.rDone0')).toMatch(/= 0 /);
    await ok(eng, `checkpoint save ${join(dir, 'n.json')}`);
    const same = new ReplEngine({ preset: 'pair-c104-node' });
    await ok(same, `checkpoint load ${join(dir, 'n.json')}`);
    expect(same.sim.stateHash()).toBe(eng.sim.stateHash());
    await fails(new ReplEngine({ preset: 'pair-c104' }), `checkpoint load ${join(dir, 'n.json')}`, /another configuration|different/);
  });
});
