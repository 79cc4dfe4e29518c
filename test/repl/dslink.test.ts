/**
 * The REPL on a DS-link (preset dslink-pair, harness/repl/targets.ts) in
 * script mode: the hierarchy, `links` (state, credit, buffer fill per
 * direction), tokens decoded by print, wave and the VCD (D/S wires with
 * token string twins), `break event link-up / link-error`, time travel,
 * and Buzzard-only commands refused in one line.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReplEngine } from '../../harness/repl/engine.ts';
import { runScript } from '../../harness/repl/script.ts';
import { readVcd } from '../../traces/vcd/index.ts';
import { fails, ok } from './helpers.ts';

async function script(eng: ReplEngine, text: string): Promise<{ code: number; out: string; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runScript(eng, text, { write: (l) => out.push(l), writeError: (l) => err.push(l) });
  return { code, out: out.join('\n'), err };
}

describe('REPL preset dslink-pair', () => {
  it('start-up: ls/cd into the link, links shows each direction going from ErrorReset to Run with credit, print decodes tokens', async () => {
    const eng = new ReplEngine({ preset: 'dslink-pair' });
    const r = await script(
      eng,
      ['ls', 'ls a', 'links', 'break event link-up', 'continue', 'links', 'cd a.link0', 'print tokens.tok', 'print /b.link0.dec.tok', 'step 60', 'print tokens.tok', 'assert linkState == Run'].join('\n'),
    );
    expect(r.err).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/\(icemu 0\) ls\n\/\n {2}a\/ +T9000Endpoint\n {2}b\/ +T9000Endpoint/);
    expect(r.out).toMatch(/\(icemu 0\) ls a\n[^]*link0\/ +DsLinkEnd/);
    expect(r.out).toMatch(/2 link direction\(s\) at cycle 0\n {2}direction +state +credit +granted +tx +rx +token +errors\n {2}a -> b +ErrorReset +0 +0 +0\/1 +0\/56 +\S+ +0\n {2}b -> a +ErrorReset/);
    expect(r.out).toMatch(/stopped at cycle (\d+): event breakpoint 1: t=\1 link-up msg 0 node [01] [ab]\.link0 port 0/);
    // in Run, each sender holds credit from the FCTs it received, each receiver has granted credit
    const run = /link direction\(s\) at cycle [1-9]\d*\n.*\n {2}a -> b +Run +(\d+) +(\d+) +(\d+)\/1 +(\d+)\/56 +(\S+) +0\n {2}b -> a +Run +(\d+) +(\d+)/.exec(r.out)!;
    expect(run).not.toBeNull();
    expect(Number(run[1])).toBeGreaterThan(0);
    expect(Number(run[2])).toBeGreaterThan(0);
    expect(r.out).toMatch(/\n {2}tokens\.tok = 25[89] +0x10[23] +0b1_0000_001[01] +(FCT|NULL)/);
    expect(r.out).toMatch(/\n {2}b\.link0\.dec\.tok = \d+ +0x[0-9a-f]+ +0b[01_]+ +(FCT|NULL|D 0x[0-9a-f]{2}|-)\n/);
    expect(r.out).toMatch(/ok: linkState == Run/);
  });

  it('break event link-error stops at a parity error made by poking the D wire; links shows the error; back undoes it', async () => {
    const eng = new ReplEngine({ preset: 'dslink-pair' });
    await ok(eng, 'run until a.link0.linkState == Run && b.link0.linkState == Run');
    await ok(eng, 'step 20');
    const before = eng.sim.stateHash();
    const at = eng.cycle;
    await ok(eng, 'break event link-error node=1');
    await ok(eng, 'poke a.link0.dOut 1');
    await ok(eng, 'step');
    await ok(eng, 'poke a.link0.dOut 0');
    expect(await ok(eng, 'continue')).toMatch(/^stopped at cycle \d+: event breakpoint 1: t=\d+ link-error msg 0 node 1 b\.link0 port 0/);
    expect(await ok(eng, 'links')).toMatch(/b -> a +Error\w* .* 1 \(last parity, lost \d+\)/);
    await ok(eng, `back ${eng.cycle - at}`);
    expect(eng.sim.stateHash()).not.toBe(before); // the poke was typed at that cycle: it is replayed
    await ok(eng, `back 1`);
    await ok(eng, 'step');
    expect(eng.cycle).toBe(at);
    expect(eng.sim.stateHash()).toBe(before); // the poke, typed after the cycle back went to, is forgotten
    await fails(eng, 'break event link-error node=2', /^bad event filter 'node=2': node 2 is outside 0\.\.1$/);
  });

  it('wave and vcd start show the D and S wires with decoded-token string twins', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'icemu-dsl-'));
    const vcd = join(dir, 'link.vcd');
    const eng = new ReplEngine({ preset: 'dslink-pair' });
    await ok(eng, 'run until a.link0.linkState == Run');
    await ok(eng, `vcd start ${vcd} a.link0.dOut a.link0.sOut a.link0.tokens.tok`);
    await ok(eng, 'step 40');
    await ok(eng, 'vcd stop');
    const wave = await ok(eng, 'wave a.link0.dOut a.link0.sOut a.link0.tokens.tok 30');
    expect(wave).toMatch(/a\.link0\.dOut \| [_/‾\\]+\n/);
    expect(wave).toMatch(/a\.link0\.tokens\.tok \| .*(NULL|FCT)/);
    const dump = readVcd(vcd);
    const names = dump.vars.map((v) => v.name);
    expect(names.some((n) => n.endsWith('a.link0.dOut'))).toBe(true);
    expect(names.some((n) => n.endsWith('a.link0.sOut'))).toBe(true);
    expect(names.some((n) => n.endsWith('tokens.tok_s'))).toBe(true);
    expect(readFileSync(vcd, 'utf8')).toMatch(/\ns(NULL|FCT) /);
  });

  it('Buzzard-only commands say so in one line and change nothing; a checkpoint file needs the same hardware', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'icemu-dsl-'));
    const eng = new ReplEngine({ preset: 'dslink-pair' });
    await ok(eng, 'step 100');
    for (const cmd of ['send 0 1 20', 'cam', 'queues', 'trace on 0', 'stats', 'messages', 'deadlock']) {
      await fails(eng, cmd, /: works on a Buzzard cube; this session is dslink-pair \(T9000 pair over one DS-link/);
    }
    await ok(eng, `checkpoint save ${join(dir, 'cp.json')}`);
    const other = new ReplEngine({ preset: 'dslink-pair' });
    expect(await ok(other, `checkpoint load ${join(dir, 'cp.json')}`)).toMatch(/cycle 100/);
    expect(other.sim.stateHash()).toBe(eng.sim.stateHash());
    await fails(new ReplEngine({ preset: 'cube1' }), `checkpoint load ${join(dir, 'cp.json')}`, /made with another configuration/);
  });
});
