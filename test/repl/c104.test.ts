/**
 * The REPL on C104 networks (presets pair-c104, chain, mesh; harness/repl/
 * c104_target.ts) in script mode: ls/cd into switches and links, `links`
 * per direction, `cam` (interval table, hunt groups, connections),
 * `deadlock`, link events, wave/vcd of D/S wires with token twins.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReplEngine } from '../../harness/repl/engine.ts';
import { runScript } from '../../harness/repl/script.ts';
import { readVcd } from '../../traces/vcd/index.ts';
import { fails, ok } from './helpers.ts';

async function script(eng: ReplEngine, text: string): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runScript(eng, text, { write: (l) => out.push(l), writeError: (l) => err.push(l) });
  expect(err).toEqual([]);
  expect(code).toBe(0);
  return out.join('\n');
}

describe('REPL on C104 presets', () => {
  it('pair-c104: ls/cd into the switch and its links, cam shows the interval table, links go to Run, no deadlock', async () => {
    const eng = new ReplEngine({ preset: 'pair-c104' });
    const out = await script(eng, ['ls', 'ls net', 'cam', 'links', 'break event link-up', 'continue', 'delete', 'step 30', 'links', 'cd net.c104_0', 'cam', 'print in0.st', 'cd ../c104_0_link1', 'print tokens.tok', 'deadlock'].join('\n'));
    expect(out).toMatch(/\(icemu 0\) ls\n\/\n {2}net\/ +C104Network\n {2}t0\/ +T9000Endpoint\n {2}t1\/ +T9000Endpoint/);
    expect(out).toMatch(/net \(C104Network\)\n {2}c104_0\/ +C104\n {2}c104_0_link0\/ +\w+\n {2}c104_0_link1\//);
    expect(out).toMatch(/net\.c104_0: 4 labels, 1-byte headers, 2 intervals\n {2}labels 0\.\.1 -> group 0 links 0 \(t0\)\n {2}labels 2\.\.3 -> group 1 links 1 \(t1\)\n {2}inputs: all waiting for a header\n {2}connections: none/);
    expect(out).toMatch(/4 link direction\(s\) at cycle 0\n.*\n {2}net\.c104_0_link0 -> t0\.link0 +ErrorReset/);
    expect(out).toMatch(/stopped at cycle \d+: event breakpoint 1: t=\d+ link-up/);
    const run = out.split('(icemu ').find((b) => /^\d+\) links\n/.test(b) && /Run/.test(b))!;
    expect(run).toBeDefined();
    expect(run.match(/ Run +[1-9]\d* +[1-9]\d* /g)!.length).toBe(4); // every direction: Run, credit and grant
    expect(out).toMatch(/\n {2}in0\.st = 0 +0x0 +0b00 +head\n/);
    expect(out).toMatch(/\n {2}tokens\.tok = \d+ +0x[0-9a-f]+ +0b[01_]+ +(NULL|FCT|D 0x[0-9a-f]{2})\n/);
    expect(out).toMatch(/no deadlock at cycle \d+: no set of input routers waits only on itself$/);
  });

  it('mesh: cam per switch (hunt groups to neighbours), bad switch names are one line; chain has two switches', async () => {
    const eng = new ReplEngine({ preset: 'mesh' });
    const cam = await ok(eng, 'cam c104_0_0');
    expect(cam).toMatch(/^net\.c104_0_0: 8 labels, 1-byte headers, 3 intervals\n {2}labels 0\.\.1 -> group \d+ links 0,1,2,3 \(t9000_0_0\)\n {2}labels 2\.\.3 -> group \d+ links \d+ \(c104_0_1\.link\d+\)\n {2}labels 4\.\.7 -> group \d+ links \d+ \(c104_1_0\.link\d+\)/);
    expect(await ok(eng, 'cam 3')).toMatch(/^net\.c104_1_1:/);
    await fails(eng, 'cam c104_9_9', /^cam: no switch 'c104_9_9' \(did you mean .*\); switches: c104_0_0, c104_0_1, c104_1_0, c104_1_1 or 0\.\.3$/);
    await fails(eng, 'cam 1 2', /^cam: unexpected '2'/);
    expect(await ok(eng, 'links')).toMatch(/^40 link direction\(s\) at cycle 0\n/);
    const chain = new ReplEngine({ preset: 'chain' });
    expect(await ok(chain, 'cam 1')).toMatch(/^net\.c104_1: 4 labels/);
    expect(await ok(chain, 'links')).toMatch(/net\.c104_0_link1 -> net\.c104_1_link0 +ErrorReset/);
  });

  it('wave and vcd show a switch link end\'s D/S wires with token twins; Buzzard-only commands refuse', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'icemu-c104-'));
    const eng = new ReplEngine({ preset: 'pair-c104' });
    await ok(eng, 'run until net.c104_0_link0.linkState == Run');
    const vcd = join(dir, 's.vcd');
    await ok(eng, `vcd start ${vcd} net.c104_0_link0.dOut net.c104_0_link0.sOut net.c104_0_link0.tokens.tok`);
    await ok(eng, 'step 30');
    await ok(eng, 'vcd stop');
    expect(await ok(eng, 'wave net.c104_0_link0.sOut net.c104_0_link0.tokens.tok 20')).toMatch(/tokens\.tok \| .*(NULL|FCT)/);
    const names = readVcd(vcd).vars.map((v) => v.name);
    for (const n of ['c104_0_link0.dOut', 'c104_0_link0.sOut', 'tokens.tok_s']) expect(names.some((x) => x.endsWith(n)), n).toBe(true);
    await fails(eng, 'receive 1 0', /^receive: works on a Buzzard cube; this session is pair-c104/);
  });

  it('ring-deadlock: four messages all going clockwise deadlock; deadlock names the ring of waiting links, cam the blocked connection', async () => {
    const eng = new ReplEngine({ preset: 'ring-deadlock' });
    const out = await script(
      eng,
      [
        'run until t0.link0.linkState == Run && t1.link0.linkState == Run && t2.link0.linkState == Run && t3.link0.linkState == Run',
        'deadlock',
        'send t0 0 200',
        'send t1 1 200',
        'send t2 2 200',
        'send t3 3 200',
        'run 20000',
        'deadlock',
        'cam 0',
      ].join('\n'),
    );
    expect(out).toMatch(/\) deadlock\nno deadlock at cycle \d+/);
    const ring = /deadlock: ring of waiting links ((?:c104_\d\.link1 → ){4}c104_\d\.link1) \(8 inputs stuck: /.exec(out)!;
    expect(ring).not.toBeNull();
    expect(new Set(ring[1]!.split(' → ').slice(0, 4))).toEqual(new Set(['c104_0.link1', 'c104_1.link1', 'c104_2.link1', 'c104_3.link1']));
    expect(out).toMatch(/connections: in0 -> link1 \(c104_1\.link2\) blocked/);
    await ok(eng, 'back 20000');
    expect(await ok(eng, 'deadlock')).toMatch(/^no deadlock/);
  });
});
