/**
 * `icemu c104` option checks: one output file per option (`distinctOutputs`,
 * as `icemu buzzard`), and an option of another preset is refused rather
 * than ignored (one line, status 2); controls: the same options on their own
 * preset, and distinct files, run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { icemu } from '../cli/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'icemu-c104-opts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = icemu;

const small = ['--messages', '1', '--bytes', '4', '--quiet'];

describe('icemu c104 option checks', () => {
  it('--events and --json naming one file: one line, status 2, nothing written', async () => {
    const f = join(dir, 'same.json');
    const r = await run(['c104', 'pair-c104', ...small, '--events', f, '--json', f]);
    expect(r.code).toBe(2);
    expect(r.err.split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/same\.json.*also named by --events \(one run, one file each\)/);
    expect(existsSync(f)).toBe(false);
  });

  it('control: distinct --events and --json files are both written', async () => {
    const e = join(dir, 'e.jsonl');
    const j = join(dir, 'j.json');
    const r = await run(['c104', 'pair-c104', ...small, '--events', e, '--json', j]);
    expect(r.code).toBe(0);
    expect(JSON.parse(readFileSync(j, 'utf8'))).toBeTypeOf('object');
    expect(readFileSync(e, 'utf8').length).toBeGreaterThan(0);
  });

  it.each([
    [['chain', '--width', '3'], '--width goes with the mesh preset, not chain'],
    [['chain', '--height', '2'], '--height goes with the mesh preset, not chain'],
    [['pair-c104', '--routing', 'y-first'], '--routing goes with the mesh preset, not pair-c104'],
    [['mesh', '--switches', '3'], '--switches goes with the chain preset, not mesh'],
    [['chain', '--dim', '3'], '--dim goes with the puma preset, not chain'],
    [['puma', '--width', '2'], '--width goes with the mesh preset, not puma'],
  ])('%j: refused in one line, status 2', async (args, msg) => {
    const r = await run(['c104', ...args, ...small]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`icemu c104: ${msg}`);
  });

  it('a --config key of another preset is refused too', async () => {
    const cfg = join(dir, 'chain.json');
    writeFileSync(cfg, JSON.stringify({ preset: 'chain', width: 3 }));
    const r = await run(['c104', '--config', cfg, ...small]);
    expect(r.code).toBe(2);
    expect(r.err).toBe('icemu c104: --width goes with the mesh preset, not chain');
  });

  it.each([
    [['chain', '--switches', '3'], /chain of 3 C104s/],
    [['mesh', '--width', '2', '--height', '1', '--routing', 'y-first'], /2x1 mesh .* y-first routing/],
  ])('control: %j on its own preset runs', async (args, what) => {
    const r = await run(['c104', ...args, ...small]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(what);
  });
});
