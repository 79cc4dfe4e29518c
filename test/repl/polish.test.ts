/**
 * The REPL items of issue 13: completion spaces, coloured tables, packet
 * labels in traces, extra arguments and out-of-range event filters, the
 * print limit, display, bits in conditions, checkpoint files.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { checkConfig } from '../../rtl/buzzard/config.ts';
import type { EventRecorder } from '../../harness/rtl/events.ts';
import { fitLabel, nodeTraceColumns } from '../../harness/rtl/node_trace.ts';
import { ReplEngine } from '../../harness/repl/engine.ts';
import { fails, ok, stripAnsi } from './helpers.ts';

describe('REPL completion', () => {
  it('adds a space after a unique finished word, none after a module prefix or when several remain', () => {
    const eng = new ReplEngine({ preset: 'cube2' });
    expect(eng.complete('ste')).toEqual([['step '], 'ste']);
    expect(eng.complete('s')[0].length).toBeGreaterThan(1);
    expect(eng.complete('s')[0].every((w) => !w.endsWith(' '))).toBe(true);
    expect(eng.complete('print node0.nip.cou')).toEqual([['node0.nip.count '], 'node0.nip.cou']);
    expect(eng.complete('print node0.ni')).toEqual([['node0.nip.'], 'node0.ni']);
    expect(eng.complete('cd node1.pbu')[0]).toEqual(['node1.pbu1.', 'node1.pbu2.']);
    expect(eng.complete('vcd sta')).toEqual([['start '], 'sta']);
  });
});

describe('links in a colour terminal', () => {
  it('aligns the columns by what the terminal shows, not by escape codes', async () => {
    const eng = new ReplEngine({ preset: 'cube3', color: true });
    await ok(eng, 'send 0 7 200');
    await ok(eng, 'send 1 6 200');
    await ok(eng, 'send 3 5 200');
    await ok(eng, 'step 120');
    const out = await ok(eng, 'links all');
    expect(out).toContain('\u001b['); // really coloured
    const lines = stripAnsi(out).split('\n').slice(1);
    const at = lines[0]!.indexOf('busy cycles');
    expect(at).toBeGreaterThan(0);
    const states = new Set<string>();
    for (const l of lines.slice(1)) {
      // the busy-cycles column starts at the same place in every row
      expect(l.slice(at - 2, at), l).toBe('  ');
      expect(l[at], l).toMatch(/\d/);
      states.add(l.slice(lines[0]!.indexOf('state'), lines[0]!.indexOf('packet')).trim());
    }
    expect(states.size).toBeGreaterThan(1); // differently coloured states side by side
  });
});

describe('packet labels in node traces', () => {
  it('fitLabel never cuts a packet number into another number', () => {
    fc.assert(
      fc.property(fc.nat(999), fc.nat(999), fc.nat(99999), fc.integer({ min: 0, max: 14 }), fc.boolean(), (src, dest, k, w, withSrc) => {
        const label = withSrc ? `${src}→${dest}#${k}` : `→${dest}#${k}`;
        const s = fitLabel(label, w);
        expect(s.length).toBeLessThanOrEqual(Math.max(w, 0));
        if (s === label) return;
        const m = /#(\d+)$/.exec(s);
        if (m) expect(Number(m[1])).toBe(k);
        else expect(s === '#…' || s === '…' || s === '').toBe(true);
        if (s.includes('→')) expect(s).toBe(`→${dest}#${k}`);
      }),
    );
  });

  it('a PBU cell shows packet 733 as #733, never #73', () => {
    const cube = new BuzzardCube(checkConfig({ n: 3 }));
    const sim = new Simulator(cube);
    const pkt = { src: 2, dest: 5, packet: 733 };
    const fake = { pbuTx: () => pkt, pbuRx: () => pkt, slotPacket: () => pkt, nipPacket: () => undefined } as unknown as EventRecorder;
    const cols = nodeTraceColumns(cube, 2, fake);
    const pbu = cols.find((c) => c.header === 'pbu1')!;
    const slots = cols.find((c) => c.header === 'slots')!;
    for (const [col, text] of [
      [pbu, pbu.value(sim)],
      [slots, slots.value(sim)],
    ] as const) {
      const cut = text.slice(0, Math.max(col.width ?? 0, col.header.length)); // what the line tracer keeps
      expect(cut).not.toMatch(/#73(?!3)/);
      expect(cut).toMatch(/#733/);
    }
  });
});

describe('extra arguments and impossible filters are errors', () => {
  it('step 1 2, break event head-arrives node=99 and friends give one line and change nothing', async () => {
    const eng = new ReplEngine({ preset: 'cube3' });
    await ok(eng, 'send 0 7 20');
    await ok(eng, 'step 3');
    await fails(eng, 'step 1 2', /^step: unexpected '2' \(usage: step \[n\]\)$/);
    await fails(eng, 'break event head-arrives node=99', /^bad event filter 'node=99': node 99 is outside 0\.\.7$/);
    await fails(eng, 'break event head-arrives port=4', /port 4 is outside 0\.\.3/);
    await fails(eng, 'next-event head-arrives node=8', /node 8 is outside 0\.\.7/);
    await fails(eng, 'back 1 2', /^back: unexpected '2'/);
    await fails(eng, 'continue now', /^continue: unexpected 'now'/);
    await fails(eng, 'set width 80 90', /^set: unexpected '90'/);
    expect(await ok(eng, 'break event head-arrives node=7')).toMatch(/^event breakpoint 1/);
  });
});

describe('print of thousands of lines', () => {
  it('stops at the print limit with a count of the rest', async () => {
    const eng = new ReplEngine({ preset: 'cube3' });
    const all = await ok(eng, 'set print-limit 1000000');
    expect(all).toBe('print-limit = 1000000');
    const full = (await ok(eng, 'print node*.**')).split('\n');
    expect(full.length).toBeGreaterThan(1000);
    await ok(eng, 'set print-limit 50');
    const cut = (await ok(eng, 'print node*.**')).split('\n');
    expect(cut.length).toBe(51);
    expect(cut.slice(0, 50)).toEqual(full.slice(0, 50));
    expect(cut[50]).toBe(`... ${full.length - 50} more lines not shown (print-limit 50: set print-limit N, or narrow the name)`);
    await fails(eng, 'set print-limit 0', /^print-limit: '0' is not a whole number/);
  });
});

describe('display (gdb)', () => {
  it('shows names and expressions now and after every stop; undisplay and info display; bad ones change nothing', async () => {
    const eng = new ReplEngine({ preset: 'cube2' });
    await ok(eng, 'send 0 3 40');
    expect(await ok(eng, 'display node0.nip.count')).toMatch(/^1: node0\.nip\.count = 0 /);
    expect(await ok(eng, 'display node0.nop.state1 == IDLE && node0.nop.state1[0] == 0')).toBe('2: node0.nop.state1 == IDLE && node0.nop.state1[0] == 0 = 1');
    expect(await ok(eng, 'display node*.nip.count')).toMatch(/^3: node\*\.nip\.count\n {3}node0\.nip\.count = 0[^]*node3\.nip\.count = 0/);
    const after = await ok(eng, 'step 30');
    expect(after.split('\n')[0]).toBe('cycle 30');
    expect(after).toMatch(/\n1: node0\.nip\.count = \d+[^]*\n2: .* = [01]\n3: node\*\.nip\.count\n/);
    expect(await ok(eng, 'time')).toBe('cycle 30 (busy)'); // nothing moved: no displays
    expect(await ok(eng, 'back 5')).toMatch(/\n1: node0\.nip\.count = /);
    expect(await ok(eng, 'info display')).toBe('1: node0.nip.count\n2: node0.nop.state1 == IDLE && node0.nop.state1[0] == 0\n3: node*.nip.count');
    await fails(eng, 'display node0.nip.cont', /^no signal or memory named 'node0\.nip\.cont'/);
    await fails(eng, 'display node0.nip.count[40] == 1', /the signal has \d+ bits/);
    await fails(eng, 'undisplay 9', /^undisplay: no display 9/);
    expect(await ok(eng, 'undisplay 1 3')).toBe('removed display 1, 3');
    expect(await ok(eng, 'step')).toMatch(/^cycle 26\n2: /);
    expect(await ok(eng, 'undisplay')).toBe('removed 1 display(s)');
    expect(await ok(eng, 'step')).toBe('cycle 27');
  });

  it('conditions take bit selects and bitwise operators on real signals', async () => {
    const eng = new ReplEngine({ preset: 'cube2' });
    await ok(eng, 'poke node1.mem.mem[5] 0xa5');
    expect(await ok(eng, 'assert node1.mem.mem[5][7:4] == 0xa && (node1.mem.mem[5] & 0xf) == 5 && node1.mem.mem[5][2] == 1')).toMatch(/^ok/);
    await fails(eng, 'assert node1.mem.mem[5][3:0] == 4', /^assertion failed at cycle 0/);
    await fails(eng, 'break node0.nip.count & ', /expected a signal name/);
  });
});

describe('checkpoint save FILE / checkpoint load FILE', () => {
  it('a saved session loads into a new one at the same cycle with the same state hash, and back still works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'icemu-cp-'));
    const file = join(dir, 'session.json');
    const a = new ReplEngine({ preset: 'cube2' });
    await ok(a, 'send 0 3 40');
    await ok(a, 'step 25');
    await ok(a, 'poke node1.mem.mem[7] 0x1234');
    await ok(a, 'receive 3 0 100');
    await ok(a, 'step 400');
    const hash = a.sim.stateHash();
    expect(await ok(a, `checkpoint save ${file}`)).toBe(`checkpoint saved to ${file}: cycle 425, 3 stimulus command(s) to replay`);
    expect(readdirSync(dir)).toEqual(['session.json']); // no temporary file left
    const b = new ReplEngine({ preset: 'cube2' });
    await ok(b, 'step 7');
    await ok(b, 'send 1 2 10'); // a different history, replaced by the load
    await ok(b, 'display node0.nip.count');
    const out = await ok(b, `checkpoint load ${file}`);
    expect(out).toMatch(new RegExp(`^checkpoint loaded from .*: cycle 425 \\(was 7\\), 3 stimulus command\\(s\\) replayed, state ${hash}\\n1: node0\\.nip\\.count = `));
    expect(b.cycle).toBe(425);
    expect(b.sim.stateHash()).toBe(hash);
    await ok(a, 'back 300');
    await ok(b, 'back 300');
    expect(b.sim.stateHash()).toBe(a.sim.stateHash());
    expect(await ok(b, 'messages')).toBe(await ok(a, 'messages'));
  });

  it('bad paths and bad files give one line and change nothing; devices and FIFOs are never replaced or read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'icemu-cp-'));
    const eng = new ReplEngine({ preset: 'cube2' });
    await ok(eng, 'send 0 3 40');
    await ok(eng, 'step 30');
    const good = join(dir, 'good.json');
    await ok(eng, `checkpoint save ${good}`);
    const body = JSON.parse(readFileSync(good, 'utf8')) as { hash: string; commands: { text: string }[] };
    const write = (name: string, text: string): string => (writeFileSync(join(dir, name), text), join(dir, name));
    const fifo = join(dir, 'fifo');
    spawnSync('mkfifo', [fifo]);
    await fails(eng, 'checkpoint load', /^checkpoint load: which file\?$/);
    await fails(eng, `checkpoint load ${join(dir, 'missing.json')}`, /missing\.json: no such file or directory/);
    await fails(eng, `checkpoint load ${dir}`, /: is a directory$/);
    await fails(eng, `checkpoint load ${fifo}`, /fifo: not a regular file$/);
    await fails(eng, `checkpoint load ${write('junk.json', '{')}`, /not JSON/);
    await fails(eng, `checkpoint load ${write('other.json', '{"format":"x"}')}`, /not an icemu checkpoint file/);
    await fails(eng, `checkpoint load ${write('hash.json', JSON.stringify({ ...body, hash: 'ffff' }))}`, /the replay reached state \S+, not the saved ffff .*; nothing changed$/);
    await fails(eng, `checkpoint load ${write('cmd.json', JSON.stringify({ ...body, commands: [{ cycle: 0, text: 'quit' }] }))}`, /command 1: 'quit' is not a stimulus command/);
    const cube3 = new ReplEngine({ preset: 'cube3' });
    await fails(cube3, `checkpoint load ${good}`, /made with another configuration/);
    await fails(eng, `checkpoint save ${join(dir, 'good.json', 'x.json')}`, /^checkpoint save: .*good\.json.*not a directory$/);
    await fails(eng, `checkpoint save ${fifo}`, /^checkpoint save: /); // a FIFO without a reader is refused
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(await ok(eng, 'checkpoint save /dev/null')).toMatch(/^checkpoint saved to \/dev\/null/);
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    await fails(eng, 'checkpoint a b', /^checkpoint: unexpected 'b'/);
  });
});
