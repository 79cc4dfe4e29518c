/**
 * `icemu c104` batch options (issue 13): --config FILE, --pattern with
 * --rate, --json FILE; each with a bad-input case (one line, exit 2, no
 * output file written).
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { icemu } from './helpers.ts';

const dir = fs.mkdtempSync(join(tmpdir(), 'icemu-c104-batch-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function oneLineExit2(r: { code: number; err: string }, re: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.err.split('\n')).toHaveLength(1);
  expect(r.err).toMatch(re);
  expect(r.err).not.toMatch(/\n\s+at /);
}

describe('icemu c104 --config', () => {
  it('takes the options and the preset from a JSON file; the command line wins', async () => {
    const cfg = join(dir, 'pair.json');
    fs.writeFileSync(cfg, JSON.stringify({ preset: 'pair-c104', messages: 2, bytes: 8, policy: 'random' }));
    const a = await icemu(['c104', '--config', cfg, '-q']);
    expect(a.code, a.err).toBe(0);
    expect(a.out).toMatch(/two T9000s through one C104; policy random,.*2 virtual links, 2 messages of 8 B each way/);
    expect(a.out).toMatch(/messages: 8 sent, 8 delivered/);
    const b = await icemu(['c104', '--config', cfg, '--bytes', '4', '--policy', 'fifo', '-q']);
    expect(b.code, b.err).toBe(0);
    expect(b.out).toMatch(/policy fifo,.*2 messages of 4 B each way/);
  });

  it('bad files: one line, exit 2', async () => {
    const bad = (name: string, text: string): string => {
      const p = join(dir, name);
      fs.writeFileSync(p, text);
      return p;
    };
    oneLineExit2(await icemu(['c104', '--config', join(dir, 'missing.json'), '-q']), /^icemu c104: --config .*missing\.json: cannot read it \(ENOENT\)$/);
    oneLineExit2(await icemu(['c104', '--config', bad('notjson.json', '{ width: 4'), '-q']), /--config .*: not JSON/);
    oneLineExit2(await icemu(['c104', '--config', bad('str.json', '{"width": "3"}'), '-q']), /"width" must be an integer \(got "3"\)/);
    oneLineExit2(await icemu(['c104', '--config', bad('range.json', '{"width": 65}'), '-q']), /--config .*: --width must be a whole number in 1\.\.64 \(got '65'\)/);
    oneLineExit2(await icemu(['c104', '--config', bad('key.json', '{"widht": 4}'), '-q']), /unknown key "widht"/);
    oneLineExit2(await icemu(['c104', '--config', bad('out.json', '{"json": "x.json"}'), '-q']), /unknown key "json"/);
    oneLineExit2(await icemu(['c104', '--config', bad('preset.json', '{"preset": "torus"}'), '-q']), /--preset must be one of pair-c104, chain, mesh, puma \(got 'torus'\)/);
  });
});

describe('icemu c104 --pattern, --rate, --json', () => {
  it('a pattern on a 4x2 mesh: the window statistics, and the JSON summary', async () => {
    const json = join(dir, 'out', 'm.json');
    const r = await icemu(['c104', 'mesh', '--width', '4', '--height', '2', '--pattern', 'bit-complement', '--rate', '0.05', '--bytes', '16', '--cycles', '20000', '--json', json, '-q']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/bit-complement pattern at 0\.05 DS-link bandwidths per endpoint: \d+ messages, mean 16 B/);
    expect(r.out).toMatch(/Measurement window: cycles 2000\.\./);
    expect(r.out).toMatch(/latency to last byte \(cycles\)\s+mean\s+[\d.]+\s+p50\s+\d+\s+p95\s+\d+\s+p99\s+\d+\s+max\s+\d+/);
    expect(r.out).toMatch(/throughput: offered [\d.]+, delivered [\d.]+ link bandwidths per node \(1 byte per 10 cycles\)/);
    const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(doc.format).toBe('icemu-c104-run/1');
    expect(doc.preset).toBe('mesh');
    expect(doc.options).toMatchObject({ width: 4, height: 2, pattern: 'bit-complement', rate: 0.05, hotspot: null, bytes: 16 });
    // bit-complement pairs every endpoint with one partner: 4 channels on 8 endpoints
    expect(doc.virtualLinks).toBe(4);
    expect(doc.messages.sent).toBeGreaterThan(5);
    expect(doc.messages.delivered).toBe(doc.messages.sent);
    expect(doc.window.latency.count).toBeGreaterThan(3);
    expect(doc.window.messages.inWindow).toBe(doc.window.latency.count);
    expect(doc.window.warnings).toEqual([]);
  });

  it('--json without a pattern saves the run summary', async () => {
    const json = join(dir, 'plain.json');
    const r = await icemu(['c104', 'pair-c104', '--messages', '2', '--bytes', '8', '--json', json, '-q']);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(doc).toMatchObject({ preset: 'pair-c104', messages: { sent: 8, delivered: 8 }, window: null });
    expect(doc.means.messageTime).toBeGreaterThan(0);
  });

  it('bad pattern input and bad outputs: one line, exit 2, before the run, nothing written', async () => {
    const json = join(dir, 'never.json');
    oneLineExit2(await icemu(['c104', '--width', '4', '--height', '2', '--pattern', 'tornado', '--json', json, '-q']), /--pattern must be one of uniform, transpose/);
    oneLineExit2(await icemu(['c104', '--width', '4', '--height', '2', '--pattern', 'uniform', '--rate', 'fast', '--json', json, '-q']), /--rate must be a number in \(0, 100\]/);
    oneLineExit2(await icemu(['c104', '--pattern', 'uniform', '--json', json, '-q']), /--pattern needs a power-of-two number of endpoints; this network has 9/);
    oneLineExit2(await icemu(['c104', '--rate', '0.1', '-q']), /--rate goes with --pattern/);
    oneLineExit2(await icemu(['c104', '--width', '4', '--height', '2', '--pattern', 'hotspot', '--hotspot', '2', '-q']), /--hotspot must be a fraction in 0\.\.1 \(got '2'\)/);
    oneLineExit2(await icemu(['c104', '--width', '4', '--height', '2', '--pattern', 'uniform', '--cycles', '10000', '--warmup', '9000', '-q']), /--warmup must be below 8000/);
    oneLineExit2(await icemu(['c104', '--width', '4', '--height', '2', '--pattern', 'uniform', '--cycles', '3000', '-q']), /--cycles 3000 is too short for --pattern/);
    oneLineExit2(await icemu(['c104', 'puma', '--dim', '2', '--pattern', 'uniform', '-q']), /puma gives each processor one virtual link label/);
    expect(fs.existsSync(json)).toBe(false);
    oneLineExit2(await icemu(['c104', 'pair-c104', '--json', '/proc/nope/x.json', '-q']), /^icemu c104: --json \/proc\/nope/);
    const d = join(dir, 'adir');
    fs.mkdirSync(d);
    const r = await icemu(['c104', 'pair-c104', '--json', d, '-q']);
    oneLineExit2(r, /^icemu c104: --json /);
    expect(r.out).not.toMatch(/Simulated/); // refused before the run
  });
});
