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
    const help = await ok(eng, 'help');
    expect(help).toMatch(/\n {2}receive \(recv\) +\[Buzzard only\] post a receive/);
    expect(help).toMatch(/\n {2}send +send a message on a virtual link of a T9000 endpoint/);
    expect(help).toMatch(/\n {2}links \(l\) +each direction of each DS-link/);
    expect(help).toMatch(/\n {2}step \(s\) +advance/);
    for (const cmd of ['receive 1 0', 'load x.txt', 'cam', 'queues', 'trace on 0', 'stats', 'messages', 'deadlock']) {
      await fails(eng, cmd, /: works on a Buzzard cube; this session is dslink-pair \(T9000 pair over one DS-link/);
    }
    await ok(eng, `checkpoint save ${join(dir, 'cp.json')}`);
    const other = new ReplEngine({ preset: 'dslink-pair' });
    expect(await ok(other, `checkpoint load ${join(dir, 'cp.json')}`)).toMatch(/cycle 100/);
    expect(other.sim.stateHash()).toBe(eng.sim.stateHash());
    await fails(new ReplEngine({ preset: 'cube1' }), `checkpoint load ${join(dir, 'cp.json')}`, /made with another configuration/);
  });
});

describe('send on T9000 sessions', () => {
  it('a message crosses the DS-link: credit and the token move, the far end receives it; back and checkpoint files are exact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'icemu-dsl-'));
    const eng = new ReplEngine({ preset: 'dslink-pair' });
    await ok(eng, 'run until a.link0.linkState == Run && b.link0.linkState == Run');
    expect(await ok(eng, 'send a 0 300')).toMatch(/^message 0: a vl 0 -> b vl 0, 300 bytes, issued at cycle \d+ \(receive posted\)$/);
    await ok(eng, 'step 100');
    expect(await ok(eng, 'links')).toMatch(/a -> b +Run +\d+ +\d+ +\d\/1 +\d+\/56 +D 0x[0-9a-f]{2} +0/);
    const h = eng.sim.stateHash();
    const at = eng.cycle;
    expect(await ok(eng, 'run until b.vlc.rDone[0] == 1')).toMatch(/condition b\.vlc\.rDone\[0\] == 1/);
    expect(await ok(eng, 'print b.vlc.rDone[1]')).toMatch(/= 0+$/); // only VL 0 got a message
    await ok(eng, `back ${eng.cycle - at}`);
    expect(eng.sim.stateHash()).toBe(h);
    await ok(eng, 'run until b.vlc.rDone[0] == 1'); // the replayed driver delivers it again
    await ok(eng, `checkpoint save ${join(dir, 's.json')}`);
    const other = new ReplEngine({ preset: 'dslink-pair' });
    await ok(other, `checkpoint load ${join(dir, 's.json')}`);
    expect(other.sim.stateHash()).toBe(eng.sim.stateHash());
    expect(await ok(other, 'send b 1 10')).toMatch(/^message 1: b vl 1 -> a vl 1/); // the driver's count came back too
    await fails(eng, 'send c 0 1', /^send: no endpoint 'c'/);
    await fails(eng, 'send a 2 1', /^virtual link: '2' is not a whole number in 0\.\.1$/);
    await fails(eng, 'send a 0 5000', /^bytes: '5000' is not a whole number in 0\.\.4096$/);
    await fails(eng, 'send a 0', /^usage: send <endpoint> <vl> <bytes>$/);
  });

  it('pair-c104: a message through the switch shows as a connection in cam', async () => {
    const eng = new ReplEngine({ preset: 'pair-c104' });
    await ok(eng, 'run until t0.link0.linkState == Run && t1.link0.linkState == Run');
    expect(await ok(eng, 'send t0 0 200')).toMatch(/^message 0: t0 vl 0 -> t1 vl 2, 200 bytes/);
    expect(await ok(eng, 'run until net.c104_0.in0.st == conn')).toMatch(/condition net\.c104_0\.in0\.st == conn/);
    expect(await ok(eng, 'cam')).toMatch(/inputs: in0 conn header 2\n {2}connections: in0 -> link1 \(t1\)/);
    expect(await ok(eng, 'run until t1.vlc.rDone[2] == 1')).toMatch(/condition t1\.vlc\.rDone\[2\] == 1/);
    await fails(eng, 'send t0 2 10', /^send: virtual link 2 of t0 is not one end of a channel$/);
  });
});
