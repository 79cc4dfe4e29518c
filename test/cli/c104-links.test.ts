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
