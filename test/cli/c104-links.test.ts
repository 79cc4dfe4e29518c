/**
 * `icemu c104` per-link statistics and `--workload` trace files (issue 13):
 * utilisation counts normal characters on the wire, unused links read 0,
 * the CSV beside --json has one row per directed link; trace files deliver
 * byte-exact, and each refusal is one line with exit 2.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { icemu } from './helpers.ts';

const dir = fs.mkdtempSync(join(tmpdir(), 'icemu-c104-links-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function oneLineExit2(r: { code: number; err: string }, re: RegExp): void {
  expect(r.code).toBe(2);
  expect(r.err.split('\n')).toHaveLength(1);
  expect(r.err).toMatch(re);
  expect(r.err).not.toMatch(/\n\s+at /);
}

interface CsvRow {
  from: string;
  to: string;
  kind: string;
  utilisation: number;
  blocked: number;
}

function readCsv(path: string): { header: string; rows: CsvRow[] } {
  const [header, ...lines] = fs.readFileSync(path, 'utf8').trim().split('\n');
  return {
    header: header!,
    rows: lines.map((l) => {
      const [from, to, kind, u, b] = l.split(',');
      return { from: from!, to: to!, kind: kind!, utilisation: Number(u), blocked: Number(b) };
    }),
  };
}

describe('icemu c104 per-link statistics', () => {
  it('a 2x1 mesh pattern: used links busy, the unused hunt-group links 0; one CSV row per directed link', async () => {
    const json = join(dir, 'mesh.json');
    const r = await icemu(['c104', 'mesh', '--width', '2', '--height', '1', '--pattern', 'bit-complement', '--rate', '0.05', '--bytes', '16', '--cycles', '20000', '--json', json, '-q']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/links \(18 directed\): utilisation mean [\d.]+%, max [\d.]+%; blocked mean [\d.]+%, max [\d.]+%, cycles 2000\.\.15999/);
    expect(r.out).toMatch(/per-link CSV .*mesh\.links\.csv/);
    const { header, rows } = readCsv(join(dir, 'mesh.links.csv'));
    expect(header).toBe('from,to,kind,utilisation,blocked_fraction,busy_cycles,blocked_cycles');
    // 2 endpoints x 4 hunt-group links x 2 directions + one switch-switch cable x 2 directions
    expect(rows).toHaveLength(18);
    expect(new Set(rows.map((x) => `${x.from}>${x.to}`)).size).toBe(18);
    const cable = rows.filter((x) => x.kind === 'switch-switch');
    expect(cable).toHaveLength(2);
    for (const x of cable) expect(x.utilisation).toBeGreaterThan(0);
    // virtual link 0 of each endpoint leaves on its link 0 and arrives on the far switch's link to it; links 2 and 3 carry nothing
    for (const x of rows.filter((y) => /\.link[23]$/.test(y.from) && y.kind === 'endpoint-switch')) expect(x.utilisation).toBe(0);
    const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(doc.links.perLink).toHaveLength(18);
    expect(doc.links.from).toBe(2000);
    expect(doc.links.summary.maxUtilisation).toBeGreaterThan(0);
    expect(doc.links.summary.maxUtilisation).toBeLessThanOrEqual(1);
  });
});

describe('icemu c104 blocked fraction', () => {
  it('a hotspot on a 4x2 mesh: links into the hotspot wait for credit', async () => {
    const json = join(dir, 'hot.json');
    const r = await icemu(['c104', 'mesh', '--width', '4', '--height', '2', '--pattern', 'hotspot', '--hotspot', '1', '--rate', '0.3', '--bytes', '64', '--cycles', '30000', '--json', json, '-q']);
    expect(r.code, r.err).toBe(0);
    const { rows } = readCsv(join(dir, 'hot.links.csv'));
    expect(rows).toHaveLength(84);
    const most = rows.reduce((a, b) => (b.blocked > a.blocked ? b : a));
    expect(most.blocked).toBeGreaterThan(0.005);
    expect(most.kind).toBe('switch-switch');
    for (const x of rows) expect(Math.max(x.blocked, x.utilisation)).toBeLessThanOrEqual(1);
  }, 60_000);
});

describe('icemu c104 --workload', () => {
  const trace = (name: string, text: string): string => {
    const p = join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  };

  it('pair-c104 streaming one way: every message delivered byte-exact; the data direction busier than the ack direction', async () => {
    const file = trace('oneway.txt', '# unit: ticks\n0 0 1 16\n10 0 1 8\n20 0 1 0\n20 0 1 200\n100 0 1 64\n');
    const json = join(dir, 'oneway.json');
    const r = await icemu(['c104', 'pair-c104', '--workload', file, '--json', json, '-q']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/trace file .*oneway\.txt: 5 messages \(unit ticks, 1 tick = 4\.5 cycles\) from cycle 2500/);
    expect(r.out).toMatch(/messages: 5 sent, 5 delivered \(5 byte-exact\)/);
    const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(doc.messages).toEqual({ sent: 5, delivered: 5, byteExact: 5, held: 0, heldForSendArea: 0 });
    expect(doc.virtualLinks).toBe(1);
    expect(doc.workload).toMatchObject({ cyclesPerTick: 4.5, startCycle: 2500 });
    const { rows } = readCsv(join(dir, 'oneway.links.csv'));
    expect(rows).toHaveLength(4); // two endpoints with one link each, both directions
    const at = (from: string): CsvRow => rows.find((x) => x.from.startsWith(from))!;
    // data t0 -> switch -> t1; only acknowledgements come back
    expect(at('t0.').utilisation).toBeGreaterThan(0.1);
    expect(at('t0.').utilisation).toBeGreaterThan(5 * at('t1.').utilisation);
    expect(at('t1.').utilisation).toBeGreaterThan(0);
    for (const x of rows) expect(x.blocked).toBe(0);
  });

  it('times in cycles are taken as given; an unused hunt-group link of a mesh reads 0', async () => {
    const file = trace('cycles.txt', '# unit: cycles\n0 0 3 32\n50 3 0 32\n400 1 2 5\n');
    const json = join(dir, 'cycles.json');
    const r = await icemu(['c104', 'mesh', '--width', '2', '--height', '2', '--workload', file, '--json', json, '-q']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/3 messages \(unit cycles\) from cycle 2500/);
    expect(r.out).toMatch(/messages: 3 sent, 3 delivered \(3 byte-exact\)/);
    const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(doc.workload.cyclesPerTick).toBe(1);
    expect(doc.links.perLink.find((x: CsvRow) => x.from === 't9000_0_0.link3').utilisation).toBe(0);
  });

  it('refusals: one line, exit 2, nothing written', async () => {
    const json = join(dir, 'never.json');
    oneLineExit2(await icemu(['c104', 'pair-c104', '--workload', trace('far.txt', '0 0 5 8\n'), '--json', json, '-q']), /^icemu c104: --workload .*far\.txt names node 5, but this network has 2 endpoints \(0\.\.1\); trace node i is endpoint i$/);
    oneLineExit2(await icemu(['c104', 'pair-c104', '--workload', trace('bc.txt', '0 0 1 8\n5 1 * 8\n'), '--json', json, '-q']), /^icemu c104: --workload .*bc\.txt: message 1 \(from node 1 at time 5\) is a broadcast; broadcast is a Buzzard feature$/);
    oneLineExit2(await icemu(['c104', 'pair-c104', '--workload', trace('long.txt', '0 0 1 8\n5 1 0 300\n'), '--json', json, '-q']), /^icemu c104: --workload .*long\.txt: message 1 \(1 -> 0, 300 bytes\) is longer than a virtual link's receive area \(256 bytes with 2 labels\)$/);
    oneLineExit2(await icemu(['c104', 'pair-c104', '--workload', join(dir, 'missing.txt'), '-q']), /^icemu c104: --workload: cannot read .*missing\.txt \(ENOENT\)$/);
    oneLineExit2(await icemu(['c104', 'pair-c104', '--workload', trace('bad.txt', '0 0 1\n'), '-q']), /^icemu c104: --workload: .*bad\.txt:1: expected 4 fields/);
    oneLineExit2(await icemu(['c104', 'pair-c104', '--workload', trace('us.txt', '# unit: us\n0 0 1 8\n'), '-q']), /unit 'us' is not supported/);
    oneLineExit2(await icemu(['c104', 'pair-c104', '--workload', trace('ok.txt', '0 0 1 8\n'), '--cycles-per-tick', 'x', '-q']), /--cycles-per-tick must be a number in \(0, 1000000\] \(got 'x'\)/);
    oneLineExit2(await icemu(['c104', 'pair-c104', '--cycles-per-tick', '4', '-q']), /--cycles-per-tick goes with --workload/);
    oneLineExit2(await icemu(['c104', 'mesh', '--width', '2', '--height', '1', '--workload', join(dir, 'ok.txt'), '--pattern', 'uniform', '-q']), /--workload and --pattern cannot be combined/);
    expect(fs.existsSync(json)).toBe(false);
  });

  it('more messages at once on one virtual link than the T9000 send queue holds: the sender waits, all delivered in order (docs/c104.md#held-sends)', async () => {
    const json = join(dir, 'burst.json');
    const file = trace('burst.txt', '# unit: cycles\n' + '0 0 1 8\n'.repeat(20));
    const r = await icemu(['c104', 'pair-c104', '--workload', file, '--json', json, '-q']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/messages: 20 sent, 20 delivered \(20 byte-exact\), 4 held/);
    const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(doc.messages).toMatchObject({ sent: 20, delivered: 20, byteExact: 20, held: 4 });
    const r2 = await icemu(['c104', 'pair-c104', '--messages', '20', '-q']);
    expect(r2.code).toBe(0);
    expect(r2.out).toMatch(/messages: 80 sent, 80 delivered \(80 byte-exact\), 16 held/);
    // In order on the one virtual link of the trace: message-complete events in id order.
    const events = join(dir, 'burst.jsonl');
    expect((await icemu(['c104', 'pair-c104', '--workload', file, '--events', events, '-q'])).code).toBe(0);
    const done = fs.readFileSync(events, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l)).filter((e) => e.kind === 'message-complete');
    expect(done.map((e) => e.msg)).toEqual([...Array(20).keys()]);
  });

  it('--pattern thesis: windowed random destinations on a square mesh, delivered byte-exact; its refusals are one line', async () => {
    const json = join(dir, 'thesis.json');
    const r = await icemu(['c104', 'mesh', '--width', '2', '--height', '2', '--pattern', 'thesis', '--window', '1', '--interval', '1500', '--cycles', '30000', '--json', json, '-q']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/thesis pattern: every endpoint sends 32 B every 1500 cycles to a random endpoint within \+-1/);
    const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(doc.messages.sent).toBeGreaterThan(40);
    expect(doc.messages.byteExact).toBe(doc.messages.delivered);
    oneLineExit2(await icemu(['c104', 'mesh', '--width', '4', '--height', '2', '--pattern', 'thesis', '-q']), /^icemu c104: --pattern thesis runs on a square mesh/);
    oneLineExit2(await icemu(['c104', 'mesh', '--window', '2', '-q']), /^icemu c104: --window goes with --pattern thesis$/);
    oneLineExit2(await icemu(['c104', 'mesh', '--pattern', 'thesis', '--rate', '0.1', '-q']), /--rate and --hotspot do not apply/);
  });

  it('Ctrl-C stops a run at a 2,000-cycle boundary: partial summary, valid JSON, exit 130', async () => {
    const { spawn } = await import('node:child_process');
    const json = join(dir, 'int.json');
    const child = spawn(process.execPath, ['bin/icemu.mjs', 'c104', 'pair-c104', '--messages', '1000', '--cycles', '100000000', '--json', json], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    for (let k = 0; k < 600 && !/elaborated/.test(stderr); k++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1500)); // under way
    child.kill('SIGINT');
    const code = await exited;
    expect(code, stderr).toBe(130);
    const m = /Interrupted at cycle ([\d,]+) of 100,000,000/.exec(stdout);
    expect(m, stdout).not.toBeNull();
    const at = Number(m![1]!.replace(/,/g, ''));
    expect(at % 2000).toBe(0);
    expect(stdout).toMatch(/messages: 4000 sent, \d+ delivered/);
    const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(doc).toMatchObject({ interrupted: true, cycles: at });
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  }, 60_000);
});
