import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commands } from '../../harness/cli.ts';
import { formatHelp } from '../../harness/cli/args.ts';
import { readVcd } from '../../traces/vcd/index.ts';
import { icemu } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'icemu-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = icemu;

describe('icemu CLI', () => {
  it('--help lists every command, and each command help lists every option it accepts', async () => {
    const top = await run(['--help']);
    expect(top.code).toBe(0);
    // the top help names the built hardware and the commands that run it, and claims nothing 'being built'
    expect(top.out).toMatch(/Buzzard hypercube[\s\S]*\(icemu buzzard\)[\s\S]*C104 routing switch[\s\S]*\(icemu c104\)/);
    expect(top.out).not.toMatch(/being built/);
    for (const c of commands) {
      expect(top.out).toContain(c.spec.name);
      const h = await run([c.spec.name, '--help']);
      expect(h.code).toBe(0);
      expect(h.out).toBe(formatHelp(c.spec));
      for (const o of c.spec.options) expect(h.out).toContain(`--${o.name}`);
      expect((await run(['help', c.spec.name])).out).toBe(h.out);
    }
  });

  it('rejects unknown commands and bad options with one line and exit status 2', async () => {
    const a = await run(['dmeo']);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/^icemu: unknown command 'dmeo' \(did you mean demo\?\)/);
    const b = await run(['demo', '--cycles', 'many']);
    expect(b.code).toBe(2);
    expect(b.err).toBe("icemu demo: --cycles must be a whole number in 1..100000000 (got 'many')");
    const c = await run(['demo', '--latency', '9']);
    expect(c.err).toMatch(/--latency must be a whole number in 0\.\.8/);
    const d = await run(['demo', '--bogus']);
    expect(d.err).toMatch(/unknown option '--bogus'/);
    const e = await run(['demo', '--policy', 'lottery', '--no-vcd']);
    expect(e.code).toBe(2);
    expect(e.err).toMatch(/--policy must be one of tree, round-robin, fifo, fixed-priority/);
    for (const r of [a, b, c, d, e]) expect(r.err.split('\n')).toHaveLength(1);
  });

  it('demo runs, prints the trace excerpt and summary, and writes a VCD and a GTKWave save file', async () => {
    const vcd = join(dir, 'demo.vcd');
    const r = await run(['demo', '--cycles', '300', '--vcd', vcd, '--trace', '5', '--quiet']);
    expect(r.code).toBe(0);
    const traceLines = r.out.split('\n').filter((l) => /^\s+\d+ \|/.test(l));
    expect(traceLines.map((l) => Number(l.split('|')[0]))).toEqual([0, 1, 2, 3, 4]);
    expect(r.out).toMatch(/req0\s+96\s+\d+/);
    expect(r.out).toContain(`Waveform: ${vcd}`);
    expect(existsSync(vcd)).toBe(true);
    expect(existsSync(vcd + '.tmp')).toBe(false);
    const dump = readVcd(vcd);
    const names = dump.vars.map((v) => v.name);
    expect(names).toContain('demo.arb.gnt0');
    expect(names).toContain('demo.fifo.count');
    const gtkw = readFileSync(join(dir, 'demo.gtkw'), 'utf8');
    expect(gtkw).toContain(`[dumpfile] "demo.vcd"`); // relative to the save file
    expect(gtkw).toMatch(/^\*-?[\d.]+ -1( -1){26}$/m); // zoomed to fit
    expect(gtkw).toContain('[timestart] 0');
    expect(gtkw).toMatch(/@24\ndemo\.fifo\.count\[\d+:0\]/); // a count, in decimal
    // the same seed gives the same run; another seed a different one
    const again = await run(['demo', '--cycles', '300', '--no-vcd', '--trace', '0']);
    const other = await run(['demo', '--cycles', '300', '--no-vcd', '--trace', '0', '--seed', '7']);
    const table = (s: string): string => s.split('\n').filter((l) => l.startsWith('req')).join('\n');
    expect(table(again.out)).toBe(table(r.out));
    expect(table(other.out)).not.toBe(table(r.out));
  });

  it('the installed launcher bin/icemu.mjs runs the CLI', () => {
    const out = execFileSync(process.execPath, ['bin/icemu.mjs', '--version'], { encoding: 'utf8' });
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    expect(out.trim()).toBe(pkg.version);
    const bad = spawnSync(process.execPath, ['bin/icemu.mjs', 'demo', '--cycles', '0'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe("icemu demo: --cycles must be a whole number in 1..100000000 (got '0')");
  });
});

describe('icemu buzzard (the main job)', () => {
  it('runs a small cube and prints the results table', async () => {
    const r = await run(['buzzard', '--n', '3', '--cycles', '60000', '--gap-ticks', '1024', '--no-vcd', '--quiet']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/mean message time, first packet\s+[\d.]+\s+[\d.]+/);
    expect(r.out).toMatch(/mean message time, last byte\s+[\d.]+/);
    expect(r.out).toMatch(/mean per-hop head latency, 1st pkts\s+[\d.]+/);
    expect(r.out).toMatch(/link utilisation, measured\s+[\d.]+%/);
    const m = /messages: (\d+) generated, (\d+) complete/.exec(r.out)!;
    // at this load the 3-cube saturates (the seed's heaviest rate): most, not all, messages finish in the run
    expect(Number(m[1])).toBeGreaterThan(20);
    expect(Number(m[2])).toBeGreaterThan(Number(m[1]) / 2);
    expect(Number(m[2])).toBeLessThanOrEqual(Number(m[1]));
    expect(r.out).toContain(`(${m[2]} messages)`);
    const bad = await run(['buzzard', '--n', '2', '--vcd-node', '4']);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe('icemu buzzard: --vcd-node must be in 0..3 for a 2-cube (got 4)');
  });
});
