/**
 * The debugger REPL in script mode (harness/repl/engine.ts, script.ts): every
 * command, the fixture sessions in test/repl/scripts/, bad input (one error
 * line, state untouched), model errors, Ctrl-C, completion and configs.
 * Reverse stepping has its own file (back.test.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReplEngine } from '../../harness/repl/engine.ts';
import { runScript } from '../../harness/repl/script.ts';
import { configFromJson, ConfigError, resolveConfig } from '../../harness/repl/presets.ts';
import { readVcd } from '../../traces/vcd/index.ts';

const SCRIPTS = join(import.meta.dirname, 'scripts');

async function script(eng: ReplEngine, text: string, file = '<test>'): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runScript(eng, text, { file, write: (l) => out.push(l), writeError: (l) => err.push(l) });
  return { code, out, err };
}

async function ok(eng: ReplEngine, cmd: string): Promise<string> {
  const r = await eng.exec(cmd);
  expect(r.error, `${cmd} -> ${r.error}`).toBeUndefined();
  return r.lines.join('\n');
}

/** Everything observable about the engine's state, to check that a failed command changed nothing. */
async function fingerprint(eng: ReplEngine): Promise<string> {
  const parts = [eng.sim.stateHash(), String(eng.cycle), eng.prompt];
  for (const c of ['info', 'messages', 'where']) parts.push(await ok(eng, c));
  return parts.join('\n');
}

describe('REPL fixture sessions (test/repl/scripts)', () => {
  it('session.txt: a packet from node 0 to node 7 crossing node 3, with cam, wave and back', async () => {
    const eng = new ReplEngine({ preset: 'cube3' });
    const { code, out, err } = await script(eng, readFileSync(join(SCRIPTS, 'session.txt'), 'utf8'), 'session.txt');
    const text = out.join('\n');
    expect(err).toEqual([]);
    expect(code).toBe(0);
    // the head reaches node 3's PBU 2 (link 2 from node 1) at the zero-load time: 23 + 31
    expect(text).toContain('(icemu 0) continue\nstopped at cycle 65: event breakpoint 1: t=54 head-arrives msg 0#0 node 3 pbu2 port 2');
    expect(text).toContain('node3.pbu2.inState = 8  0x8  0b1000  dest');
    // granted 30 cycles after c = 54, forwarded (S1) at 85 on port 3 towards node 7
    expect(text).toContain('stopped at cycle 85: condition node3.pbu2.outState != idle  [node3.pbu2.outState = 1 (bcast)]');
    expect(text).toMatch(/row +C +P +next unit +L words +dest +slot +src\n +0 +0 +3 +node7\.pbu3 +14 \(30 B\) +7 +0 +\?/);
    expect(text).toMatch(/cycle \|.*\|40 +\|50/);
    expect(text).toMatch(/node3\.pbu2\.inBit \| _+\/\\_+\/‾+\\/);
    const hashes = out.filter((l) => l.startsWith('cycle 85 state '));
    expect(hashes).toHaveLength(2);
    expect(hashes[0]).toBe(hashes[1]);
    expect(text).toMatch(/r0 +7 +0 +1 +4096 +0 +complete +20 B from 0/);
  });

  it('deadlock.txt: the constructed 4-PBU cycle with the §7 rule off is found and shown', async () => {
    const eng = new ReplEngine({ preset: 'deadlock2' });
    const { code, out } = await script(eng, readFileSync(join(SCRIPTS, 'deadlock.txt'), 'utf8'), 'deadlock.txt');
    const text = out.join('\n');
    expect(code).toBe(0);
    expect(text).toContain('deadlock at cycle 8005: node0.pbu1 -> node2.pbu2 -> node3.pbu1 -> node1.pbu2 -> node0.pbu1');
    expect(text).toContain('node output port slots stuck towards the set: 4 (node0.nop.slot2, node1.nop.slot1, node2.nop.slot1, node3.nop.slot2)');
    expect(text).toMatch(/node0 -2-> node2 +- +blocked \(receiver full\)/);
    // an unbounded run on the stuck network stops as idle and names the deadlock
    const r = await ok(eng, 'continue');
    expect(r).toMatch(/idle: nothing is moving and nothing is scheduled; 4 send\(s\) and 4 receive\(s\) not complete; deadlock: node0.pbu1 -> node2.pbu2/);
  });

  it('fails.txt: the script stops at its first error with file:line and status 1', async () => {
    const eng = new ReplEngine({ preset: 'cube2' });
    const { code, out, err } = await script(eng, readFileSync(join(SCRIPTS, 'fails.txt'), 'utf8'), 'fails.txt');
    expect(code).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^fails\.txt:5: error: no signal or memory named 'node0\.nop\.stat1'; did you mean .*node0\.nop\.state1/);
    expect(out.join('\n')).not.toContain('not reached');
    expect(eng.cycle).toBe(5);
  });

  it('load: a trace file schedules sends from now with matching receives (a broadcast too), all delivered', async () => {
    const eng = new ReplEngine({ preset: 'cube3' });
    await ok(eng, 'step 100');
    const l = await ok(eng, `load ${join(SCRIPTS, 'workload.txt')}`);
    expect(l).toMatch(/4 messages \(ids 0\.\.3\), unit cycles, sends at cycles 100\.\.130, receives posted now/);
    expect(await ok(eng, 'continue')).toMatch(/idle: nothing is moving and nothing is scheduled$/);
    const msgs = await ok(eng, 'messages');
    expect(msgs.match(/complete/g)!.length).toBe(4 + 3 + 7);
    expect(msgs).toMatch(/3 +3→\* +30 +5 +130 +complete/);
    expect(eng.rec.events.filter((e) => e.kind === 'message-complete').length).toBe(3 + 7);
    // a bad line: all or nothing, the error names file, line and field
    const before = await fingerprint(eng);
    const bad = await eng.exec(`load ${join(SCRIPTS, 'bad-workload.txt')}`);
    expect(bad.error).toMatch(/bad-workload\.txt:4: field 'destination': 9 is outside 0\.\.7/);
    expect(await fingerprint(eng)).toBe(before);
  });
});

describe('every REPL command in script mode', () => {
  it('time, hierarchy and print commands', async () => {
    const eng = new ReplEngine({ preset: 'cube2' });
    expect(await ok(eng, 'help')).toMatch(/step \(s\) +advance n clock cycles/);
    expect(await ok(eng, 'help step')).toMatch(/^usage: step \[n\]/);
    expect(await ok(eng, 'h expressions')).toMatch(/compare := bitor/);
    expect(await ok(eng, 'time')).toBe('cycle 0 (busy)');
    expect(await ok(eng, 's')).toBe('cycle 1');
    expect(await ok(eng, 'step 9')).toBe('cycle 10');
    expect(await ok(eng, 'run 5')).toBe('cycle 15');
    expect(await ok(eng, 'continue')).toMatch(/^stopped at cycle \d+: idle: nothing is moving and nothing is scheduled$/);
    expect(await ok(eng, 'ls')).toMatch(/^\/ \(BuzzardCube\)\n  node0\//);
    expect(await ok(eng, 'cd node1')).toBe('scope node1');
    expect(await ok(eng, 'pwd')).toBe('node1');
    expect(eng.prompt).toMatch(/^\(icemu \d+ node1\) $/);
    expect(await ok(eng, 'ls pbu2')).toMatch(/node1\.pbu2 \(PacketBufferUnit\)[^]*inState +reg\[4\] +waitStart \(2\)/);
    expect(await ok(eng, 'p pbu2.inState')).toBe('  pbu2.inState = 2  0x2  0b0010  waitStart');
    expect(await ok(eng, 'print nip')).toMatch(/^node1\.nip:\n[^]*  state += 0  0x0  0b000  IDLE[^]*packet: -/);
    expect(await ok(eng, 'print /node0.pbu1.cam.row0')).toMatch(/node0\.pbu1\.cam\.row0 = \d+  0x[0-9a-f]+  0b[01_]+  contrary=0 port=15 len=0 dest=0 slot=0  \(free row\)/);
    expect(await ok(eng, 'print node*.nip.count')).toMatch(/^(  node\d\.nip\.count = 0  0x00  0b00000\n){3}  node3\.nip\.count = 0  0x00  0b00000$/);
    expect(await ok(eng, 'print node0.nip.fifo.mem[0..9]')).toBe('  node0.nip.fifo.mem[0..7] = 00000 00000 00000 00000 00000 00000 00000 00000\n  node0.nip.fifo.mem[8..9] = 00000 00000');
    expect(await ok(eng, 'cd ..')).toBe('scope /');
    expect(await ok(eng, 'where')).toMatch(/^cycle \d+ \(idle: nothing moving, nothing scheduled\), scope \/\nlast stop: stopped at cycle/);
  });

  it('stimulus, breakpoints, watches, events and views', async () => {
    const eng = new ReplEngine({ preset: 'cube2' });
    expect(await ok(eng, 'send 0 3 40')).toBe('message 0: node 0 -> node 3, 40 bytes, type 1, issued at cycle 0');
    expect(await ok(eng, 'recv 3 any 100 any')).toBe('receive r0: node 3 from any, 100-byte buffer, type any, posted at cycle 0');
    expect(await ok(eng, 'next-event')).toMatch(/^stopped at cycle 11: event t=11 message-queued msg 0 node 0 nop port 1$/);
    expect(await ok(eng, 'ne packet-injected')).toMatch(/event t=23 packet-injected msg 0#0 node 0 nop port 1/);
    expect(await ok(eng, 'b node1.pbu1.inState == camLoad')).toBe('breakpoint 1: node1.pbu1.inState == camLoad');
    expect(await ok(eng, 'watch node3.nip.state')).toBe('watch 2: node3.nip.state (1 signal)');
    expect(await ok(eng, 'break event head-arrives unit=nip')).toBe('event breakpoint 3: head-arrives unit=nip');
    expect(await ok(eng, 'info breakpoints')).toMatch(/1 +breakpoint +0 +node1\.pbu1\.inState == camLoad\n2 +watch +0 +node3\.nip\.state\n3 +event +0 +head-arrives unit=nip/);
    // c = 23 (S1 on the link), camLoad at c + 27
    expect(await ok(eng, 'c')).toBe('stopped at cycle 50: breakpoint 1: node1.pbu1.inState == camLoad  [node1.pbu1.inState = 9 (camLoad)]');
    // the row is written at the end of the camLoad cycle: reserved (free row register 12) but not yet in the CAM
    expect(await ok(eng, 'queues 1')).toMatch(/pbu1 +0\/13 +12 +camLoad +idle +0→3#0 +-/);
    expect(await ok(eng, 'step')).toBe('cycle 51');
    expect(await ok(eng, 'cam node1 pbu1')).toMatch(/^node1\.pbu1 CAM: 1\/13 rows used, free row register 12, input sync[^]*\n  0 +0 +2 +node3\.pbu2 +15 \(32 B\) +3 +0 +\?\n  free rows 1\.\.12/);
    expect(await ok(eng, 'links')).toMatch(/^8 links at cycle 51: 1 carrying bits, 0 held by their receiver, 0 blocked while idle, 7 idle\n.*\n  node0 -1-> node1 +[01] +carrying bits +0→3#0/);
    expect(await ok(eng, 'links all')).toMatch(/node3 -2-> node1 +- +idle/);
    const c2 = await ok(eng, 'continue');
    expect(c2).toMatch(/^stopped at cycle \d+: (watch 2: node3\.nip\.state: IDLE -> START|event breakpoint 3: t=\d+ head-arrives msg 0#0 node 3 nip port 0)/);
    expect(await ok(eng, 'delete 1 2')).toBe('deleted 1, 2');
    expect(await ok(eng, 'delete')).toBe('deleted 1 breakpoint(s)/watch(es)');
    expect(await ok(eng, 'run until node3.cu.rxSt == R_IDLE && node3.nip.count == 0 && node3.nip.state == IDLE')).toMatch(/^stopped at cycle \d+: condition /);
    expect(await ok(eng, 'c')).toMatch(/idle: nothing is moving and nothing is scheduled$/);
    expect(await ok(eng, 'msgs')).toMatch(/0 +0→3 +40 +1 +0 +complete[^]*r0 +3 +any +any +100 +0 +complete +40 B from 0/);
    expect(await ok(eng, 'deadlock')).toMatch(/^no deadlock at cycle \d+/);
    expect(await ok(eng, 'stats')).toMatch(/messages: 1 sent \(1 complete\); receives: 1 posted \(1 complete\)\nevents: \d+ \(message-queued 1, packet-injected 2, head-arrives \d+/);
    expect(await ok(eng, 'assert node3.nip.count == 0')).toBe('ok: node3.nip.count == 0');
    expect(await ok(eng, 'echo hello there')).toBe('hello there');
    expect((await eng.exec('quit')).quit).toBe(true);
    expect((await eng.exec('q')).quit).toBe(true);
    // gdb's `quit [status]`: the status reaches the script's exit status; a bad one is an error, not a quit
    expect(await eng.exec('quit')).toMatchObject({ quit: true, status: 0 });
    expect(await eng.exec('quit 5')).toMatchObject({ quit: true, status: 5 });
    expect(await runScript(eng, 'echo a\nquit 3\necho never', { write: () => undefined })).toBe(3);
    expect(await runScript(eng, 'echo a\nquit\n', { write: () => undefined })).toBe(0);
    for (const bad of ['quit 256', 'quit -1', 'quit x', 'quit 1 2']) {
      const r = await eng.exec(bad);
      expect(r.quit, bad).toBeUndefined();
      expect(r.error, bad).toMatch(/^quit( status)?: /);
    }
  });

  it('poke, trace, wave, checkpoint/restore, hash, set, vcd', async () => {
    const eng = new ReplEngine({ preset: 'cube2' });
    await ok(eng, 'step 5');
    expect(await ok(eng, 'poke node0.fcu1.busyCycles 0x10')).toBe('node0.fcu1.busyCycles := 16  0x00000010  0b0000_0000_0000_0000_0000_0000_0001_0000 (register: holds until its logic next writes it)');
    expect(await ok(eng, 'print node0.fcu1.busyCycles')).toMatch(/= 16 /);
    expect(await ok(eng, 'poke node0.mem.mem[64] 0xdeadbeef')).toBe('node0.mem.mem[64] := 3735928559 (0xdeadbeef)');
    expect(await ok(eng, 'print node0.mem.mem[64]')).toBe('  node0.mem.mem[64] = deadbeef');
    expect(await ok(eng, 'poke node0.pbu1.cam.key 5')).toMatch(/\(wire: forced until the next clock edge\)$/);
    expect(await ok(eng, 'set-signal node0.cu.irqCause error')).toMatch(/= 3  0x3  0b11  error/);
    expect(await ok(eng, 'send 0 1 10')).toMatch(/^message 0/);
    const on = await ok(eng, 'trace on node1');
    expect(on).toMatch(/^trace on: node1, one line per cycle while running\ncycle +kernel cycle/);
    const tr = await ok(eng, 'step 30');
    expect(tr).toMatch(/^ +cycle \| pbu1 +\| pbu2 +\| links +\| slots +\| nip +\| cu/);
    expect(tr.split('\n').filter((l) => /^ +\d+ \|/.test(l))).toHaveLength(30);
    expect(tr).toMatch(/ 29 \| S\.\. d 0→1#0/);
    expect(await ok(eng, 'info traces')).toBe('traces: node1; vcd: off');
    expect(await ok(eng, 'trace off')).toBe('trace off: node1');
    expect(await ok(eng, 'step 3')).toBe('cycle 38');
    const w = await ok(eng, 'wave node1.pbu1.inBit node1.pbu1.inState 20');
    expect(w.split('\n')).toEqual([
      'cycles 19..38',
      '             cycle |  |20       |30      ',
      '  node1.pbu1.inBit | _________/\\_____/\\_/',
      'node1.pbu1.inState | waitStart XXprehead~',
    ]);
    expect(await ok(eng, 'checkpoint')).toBe('checkpoint c1 at cycle 38');
    const h38 = await ok(eng, 'hash');
    await ok(eng, 'run 500');
    expect(await ok(eng, 'cp later')).toBe('checkpoint later at cycle 538');
    const h538 = await ok(eng, 'hash');
    expect(await ok(eng, 'restore c1')).toBe('restored checkpoint c1: cycle 38 (was 538)');
    expect(await ok(eng, 'hash')).toBe(h38);
    expect(await ok(eng, 'restore later')).toBe('restored checkpoint later: cycle 538 (was 38)');
    expect(await ok(eng, 'hash')).toBe(h538);
    expect(await ok(eng, 'info checkpoints')).toMatch(/^checkpoints: c1 \(cycle 38\), later \(cycle 538\); \d+ automatic/);
    expect(await ok(eng, 'delete checkpoint later')).toBe('deleted checkpoint later');
    expect(await ok(eng, 'set run-limit 1000')).toBe('run-limit = 1000');
    expect(await ok(eng, 'set checkpoint-every 100')).toBe('checkpoint-every = 100');
    expect(await ok(eng, 'set width 80')).toBe('width = 80');
    // VCD of node 1's PBU 1 over 40 cycles, read back
    const dir = mkdtempSync(join(tmpdir(), 'icemu-repl-'));
    const path = join(dir, 'sub', 'pbu.vcd');
    expect(await ok(eng, `vcd start ${path} node1.pbu1.*`)).toBe(`vcd: writing ${path} (node1.pbu1.*) from cycle 538; vcd stop closes it and writes ${join(dir, 'sub', 'pbu.gtkw')}`);
    expect(await ok(eng, 'info traces')).toBe(`traces: off; vcd: ${path}`);
    await ok(eng, 'step 40');
    expect(existsSync(join(dir, 'sub', 'pbu.gtkw'))).toBe(false); // the save file comes with the complete dump
    expect(await ok(eng, 'vcd stop')).toBe(`vcd: closed ${path}; save file ${join(dir, 'sub', 'pbu.gtkw')}`);
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(join(dir, 'sub', 'pbu.gtkw'), 'utf8')).toMatch(/node1\.pbu1\.inState/);
    const dump = readVcd(path);
    expect(dump.vars.some((v) => v.name.endsWith('node1.pbu1.inState'))).toBe(true);
  });

  it('bad input gives one error line and leaves the state as it was', async () => {
    const eng = new ReplEngine({ preset: 'cube2' });
    await ok(eng, 'send 0 3 30');
    await ok(eng, 'step 40');
    await ok(eng, 'break node0.nip.count > 3');
    await ok(eng, 'cp a');
    const cases: [string, RegExp][] = [
      ['frobnicate', /^unknown command 'frobnicate'; type help for the list$/],
      ['stpe 3', /^unknown command 'stpe' \(did you mean step\?\)/],
      ['step x', /^cycle count: 'x' is not a whole number in 1\.\./],
      ['step 0', /^cycle count: '0' is not a whole number/],
      ['run 3 4', /^run: unexpected '4'/],
      ['run until', /^missing condition/],
      ['run until node0.nip.cont > 1', /^no signal or memory named 'node0\.nip\.cont'; did you mean node0\.nip\.count/],
      ['break node3.pbu1.cam.free == 0', /^no signal or memory named 'node3\.pbu1\.cam\.free'; did you mean .*node3\.pbu1\.cam\.freeRow/],
      ['break node*.nip.fifo.count > 12 &&', /^expected a signal name, a number or '\(' but found end of input$/],
      ['break node0.nip.count = 3', /^'=' at column 17: use == to compare$/],
      ['break node0.nip.state == IDEL', /^no signal or memory named 'IDEL'/],
      ['break node0.mem.mem > 3', /is a memory: name a word, node0\.mem\.mem\[addr\]/],
      ['break node9.*.count > 1', /^no signal or memory matches 'node9\.\*\.count'$/],
      ['break event arrive', /^unknown event kind 'arrive'/],
      ['break event grant nod=1', /^bad event filter 'nod=1'/],
      ['watch', /^watch: give one name or glob$/],
      ['print', /^print: what\?/],
      ['print node0.nip.fifo.mem[16]', /^address: '16' is not a whole number in 0\.\.15$/],
      ['print node0.nip.count[3]', /is not a memory/],
      ['cd node7', /^no module 'node7'; did you mean node0, node1, node2/],
      ['ls nodex', /^no module 'nodex'/],
      ['send 0 0 10', /^send: source and destination are both node 0$/],
      ['send 0 4 10', /^send dst: node '4' is outside 0\.\.3$/],
      ['send 0 1 0', /^bytes: '0' is not a whole number in 1\.\./],
      ['send 0 1', /^usage: send <src> <dst> <bytes> \[type\]$/],
      ['send 0 1 10 0x8000', /^type: '0x8000' is not a whole number in 1\.\.32767$/],
      ['send 0 1 300000', /^send: node 0 has \d+ bytes of user memory left$/],
      ['receive 2 5', /^receive src: node '5' is outside 0\.\.3$/],
      ['load /no/such/file.txt', /^load: cannot read \/no\/such\/file\.txt \(ENOENT\)$/],
      ['poke node0.nip.count', /^usage: poke/],
      ['poke node0.fcu1.busyPrev 2', /^poke node0\.fcu1\.busyPrev: value 2 does not fit 1 bits \(allowed 0\.\.1\)$/],
      ['poke node0.pbu1.inState sleeping', /^bad value 'sleeping': not a number or a state of node0\.pbu1\.inState/],
      ['poke node0.pbu1.freeRows 1x', /^bad value '1x'/],
      ['poke node*.nip.count 1', /^poke: 'node\*\.nip\.count' matches 4 signals/],
      ['poke node0.nip.fifo.mem[99] 1', /^address: '99' is not a whole number in 0\.\.15$/],
      ['trace', /^usage: trace on\|off \[node\]$/],
      ['trace on', /^trace on: which node\?/],
      ['trace off 2', /^trace off: node 2 is not traced$/],
      ['wave', /^usage: wave/],
      ['wave node0.pbu1.inState 0', /^cycles: '0' is not a whole number in 1\.\.2000$/],
      ['wave node*.** 10', /^wave: \d+ signals match; at most 48$/],
      ['cam 0', /^cam: which packet buffer unit\?/],
      ['cam 0 3', /^cam: unit '3' is not a packet buffer unit 1\.\.2/],
      ['queues', /^queues: which node\?/],
      ['links some', /^links: unexpected 'some'/],
      ['restore nope', /^restore: no checkpoint 'nope'; have a$/],
      ['restore', /^restore: which checkpoint\? \(a\)$/],
      ['checkpoint 9 lives', /^checkpoint: bad name/],
      ['back 41', /^back 41: only 40 cycles have run$/],
      ['back -1', /^cycle count: '-1' is not a whole number/],
      ['delete 9', /^delete: no breakpoint 9/],
      ['delete checkpoint zz', /^delete checkpoint: no checkpoint 'zz' \(have a\)$/],
      ['info everything', /^info: unknown topic 'everything'/],
      ['vcd stop', /^vcd stop: no VCD is being written$/],
      ['vcd start', /^usage: vcd start <file> \[globs\] \| vcd stop$/],
      ['vcd start /tmp/x.vcd nothing.here', /^vcd start: no signal matches 'nothing\.here'$/],
      // the REPL names its own command, not the command line's --vcd / --events option
      [`vcd start ${tmpdir()}`, new RegExp(`^vcd start: ${tmpdir()}: is a directory$`)],
      [`events start ${tmpdir()}`, new RegExp(`^events start: ${tmpdir()}: is a directory$`)],
      ['set run-limit 0', /^run-limit: '0' is not a whole number/],
      ['assert node0.nip.count == 5', /^assertion failed at cycle 40: node0\.nip\.count == 5  \[node0\.nip\.count = 0\]$/],
      ['help nosuch', /^help: no command 'nosuch'/],
    ];
    const before = await fingerprint(eng);
    for (const [cmd, re] of cases) {
      const r = await eng.exec(cmd);
      expect(r.error, cmd).toBeDefined();
      expect(r.error, cmd).toMatch(re);
      expect(r.error!.includes('\n'), cmd).toBe(false);
    }
    expect(await fingerprint(eng)).toBe(before);
    // blank lines and comments are no-ops
    expect(await eng.exec('   # just a comment')).toEqual({ lines: [] });
  });

  it('a model error while stepping puts the model back at the start of the failing cycle', async () => {
    const eng = new ReplEngine({ preset: 'cube2' });
    await ok(eng, 'step 5');
    await ok(eng, 'poke node0.pbu1.inState camLoad'); // breaks the PBU's framing check
    const h = eng.sim.stateHash();
    const r = await eng.exec('step 3');
    expect(r.error).toMatch(/^cycle 5: node0\.pbu1: framing: no Y1 after the destination word; the model is back at cycle 5, before the failing clock edge/);
    expect(eng.cycle).toBe(5);
    expect(eng.sim.stateHash()).toBe(h);
    await ok(eng, 'poke node0.pbu1.inState waitStart');
    expect(await ok(eng, 'step 3')).toBe('cycle 8');
    await ok(eng, 'send 0 3 20');
    expect(await ok(eng, 'continue')).toMatch(/idle/);
    expect(await ok(eng, 'messages')).toMatch(/0 +0→3 +20 +1 +8 +complete/);
  });

  it('interrupt() (Ctrl-C) stops a long run at a cycle boundary and the REPL goes on', async () => {
    const eng = new ReplEngine({ preset: 'cube2' });
    await ok(eng, 'send 0 3 200000');
    const pending = eng.exec('run 100000000');
    expect(eng.busy).toBe(true);
    expect((await eng.exec('time')).error).toMatch(/still running/);
    await new Promise((r) => setTimeout(r, 150));
    expect(eng.interrupt()).toBe(true);
    const r = await pending;
    expect(r.error).toBeUndefined();
    expect(r.lines.join('\n')).toMatch(/^stopped at cycle (\d+): interrupted \(Ctrl-C\)$/);
    const at = eng.cycle;
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(100000000);
    expect(eng.interrupt()).toBe(false);
    expect(await ok(eng, 'step')).toBe(`cycle ${at + 1}`);
    expect(await ok(eng, 'back')).toMatch(new RegExp(`^cycle ${at} \\(back 1 from ${at + 1}`));
  });
});

describe('REPL completion', () => {
  it('completes commands, words, hierarchical names (relative to the scope), event kinds and checkpoints; a finished unique word gets a space, a module prefix does not', async () => {
    const eng = new ReplEngine({ preset: 'cube2' });
    expect(eng.complete('pri')).toEqual([['print '], 'pri']);
    expect(eng.complete('ba')).toEqual([['back '], 'ba']);
    expect(eng.complete('print node0.nop.sta')).toEqual([['node0.nop.state1', 'node0.nop.state2'], 'node0.nop.sta']);
    expect(eng.complete('print no')[0]).toEqual(['node0.', 'node1.', 'node2.', 'node3.']);
    expect(eng.complete('break node1.pbu1.freeRows == 0 && node1.nip.co')).toEqual([['node1.nip.count '], 'node1.nip.co']);
    expect(eng.complete('cd node1.p')[0]).toEqual(['node1.pbu1.', 'node1.pbu2.']);
    expect(eng.complete('break event hea')).toEqual([['head-arrives '], 'hea']);
    expect(eng.complete('run u')).toEqual([['until '], 'u']);
    expect(eng.complete('trace o')).toEqual([['on', 'off'], 'o']);
    expect(eng.complete('cam no')[0]).toEqual(['node0', 'node1', 'node2', 'node3']);
    await ok(eng, 'cp first');
    expect(eng.complete('restore f')).toEqual([['first '], 'f']);
    await ok(eng, 'cd node2.pbu1');
    expect(eng.complete('print inSt')).toEqual([['inState '], 'inSt']);
    expect(eng.complete('print /node3.ni')).toEqual([['/node3.nip.'], '/node3.ni']);
    expect(eng.complete('help exp')).toEqual([['expressions '], 'exp']);
  });
});

describe('REPL presets and config files', () => {
  it('resolves presets, reads JSON configs and rejects bad ones with one clear line', () => {
    expect(resolveConfig(undefined).config.n).toBe(3);
    expect(resolveConfig('deadlock2').config).toMatchObject({ n: 2, camHeight: 2, contraryRefusal: false });
    expect(() => resolveConfig('cube33')).toThrow(/unknown preset 'cube33' \(did you mean cube3.*\); presets: cube1, cube2, cube3/);
    expect(configFromJson('{"n": 2, "camHeight": 4, "cu": {"memoryAccess": 2}}', 'a.json')).toMatchObject({ n: 2, camHeight: 4, cu: { memoryAccess: 2, instructionStart: 4 } });
    expect(() => configFromJson('{"n": 12}', 'a.json')).toThrow(/^a\.json: buzzard\.n: 12 is outside 1\.\.10$/);
    expect(() => configFromJson('{"camHeigth": 4}', 'a.json')).toThrow(/^a\.json: unknown field 'camHeigth' \(did you mean camHeight\?\); fields: n, camHeight/);
    expect(() => configFromJson('{"cu": {"speed": 1}}', 'a.json')).toThrow(/unknown field 'cu\.speed'/);
    expect(() => configFromJson('{n: 2}', 'a.json')).toThrow(/^a\.json: not valid JSON/);
    expect(() => configFromJson('[2]', 'a.json')).toThrow(ConfigError);
    const dir = mkdtempSync(join(tmpdir(), 'icemu-repl-'));
    const f = join(dir, 'tiny.json');
    writeFileSync(f, JSON.stringify({ n: 1, routing: 'e-cube' }));
    const eng = new ReplEngine({ preset: f });
    expect(eng.cube.nodes).toHaveLength(2);
    expect(eng.configName).toBe(f);
  });
});

describe('icemu repl --script (a subprocess, as the CLI runs it)', () => {
  const ROOT = join(import.meta.dirname, '..', '..');
  const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
  const run = (args: string[], input?: string) => spawnSync(TSX, ['harness/repl/main.ts', ...args], { cwd: ROOT, encoding: 'utf8', input, env: { ...process.env, NO_COLOR: '1' } });

  it('exits 0 after a good script, 1 at the first failing command, 2 for a bad preset', () => {
    const good = run(['cube2', '-q', '--script', '-'], 'send 0 3 10\nreceive 3 0\ncontinue\nassert node3.nip.count == 0\n');
    expect(good.stderr).toBe('');
    expect(good.status).toBe(0);
    expect(good.stdout).toMatch(/^message 0: node 0 -> node 3, 10 bytes[^]*stopped at cycle \d+: idle[^]*ok: node3\.nip\.count == 0\n$/);
    const bad = run(['cube2', '--script', join(SCRIPTS, 'fails.txt')]);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toContain('(icemu 5) print node0.nop.state1\n  node0.nop.state1 = 0');
    expect(bad.stderr.trim().split('\n')).toEqual([expect.stringMatching(/fails\.txt:5: error: no signal or memory named 'node0\.nop\.stat1'; did you mean/)]);
    const preset = run(['cube9', '--script', '-'], '');
    expect(preset.status).toBe(2);
    expect(preset.stderr.trim()).toMatch(/^icemu repl: unknown preset 'cube9' \(did you mean cube1, cube2, cube3\?\); presets: /);
  });
});
