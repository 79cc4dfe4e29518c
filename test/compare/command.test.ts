/**
 * `icemu compare` (harness/commands/compare.ts), driven through its command
 * object as harness/cli.ts will: help text complete and generated from the
 * spec, usage errors in one line listing the presets (exit 2 via
 * UsageError), the zero-load preset printing its table and writing its JSON
 * atomically (exit 0), --traces, and exit 1 when a tolerance is exceeded.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { compareCommand, runPreset } from '../../harness/commands/compare.ts';
import { formatHelp, parseArgs, UsageError } from '../../harness/cli/args.ts';
import { findPreset, PRESET_NAMES, type Preset } from '../../harness/compare/presets.ts';
import { checkTolerances, type Tolerance } from '../../harness/compare/tolerance.ts';
import { readTrace } from '../../traces/events/vocabulary.ts';

const dir = mkdtempSync(join(tmpdir(), 'icemu-compare-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function capture<T>(f: () => T): { value: T; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    return { value: f(), out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const call = (argv: string[]): number => {
  const { opts, positionals } = parseArgs(compareCommand.spec, argv);
  return compareCommand.run(opts, positionals);
};

describe('icemu compare', () => {
  it('help: usage, every preset and every option, generated from the spec', () => {
    const h = formatHelp(compareCommand.spec);
    expect(compareCommand.spec.name).toBe('compare');
    expect(h).toMatch(/^Usage: icemu compare <preset> \[options\]/);
    for (const p of PRESET_NAMES) expect(h).toContain(p);
    for (const o of ['--quick', '--out DIR', '--seed N', '--traces', '--quiet', '--help']) expect(h).toContain(o);
    expect(h).toContain('[default: out/compare]');
    expect(parseArgs(compareCommand.spec, ['--help']).help).toBe(true);
  });

  it('usage errors are one line naming the presets', () => {
    for (const argv of [['zero-lode'], [], ['zero-load', 'ch5-light']]) {
      let e: unknown;
      try {
        call(argv);
      } catch (x) {
        e = x;
      }
      expect(e, argv.join(' ')).toBeInstanceOf(UsageError);
      const msg = (e as Error).message;
      expect(msg.split('\n')).toHaveLength(1);
      expect(msg).toContain('zero-load, ch5-light, ch5-moderate');
    }
    expect(() => call(['zero-lode'])).toThrow("icemu compare: unknown preset 'zero-lode' (presets: zero-load, ch5-light, ch5-moderate, calibrated-light, calibrated-moderate, calibrated-heavy, c104-zero-load, c104-light, c104-moderate, t9000-uni, t9000-bi)");
    expect(() => call(['zero-load', '--seed', '-1'])).toThrow(/--seed must be a whole number in 0\.\./);
  });

  it('zero-load --quick: prints the table and PASS, writes the JSON atomically and the traces, exit 0', () => {
    const out = join(dir, 'a');
    const r = capture(() => call(['zero-load', '--quick', '--quiet', '--out', out, '--traces']));
    expect(r.value).toBe(0);
    expect(r.out).toMatch(/icemu compare zero-load \(quick\): RTL vs zero-load closed form/);
    expect(r.out).toMatch(/time mapping: 1 tick = 4\.5 cycles/);
    expect(r.out).toMatch(/^\s+metric\s+unit\s+joined\s+A mean\s+B mean\s+dev mean\s+p50\s+p90\s+p99\s+max\|dev\|/m);
    expect(r.out).toMatch(/^\s+fabric\s+cycles\s+\d+/m);
    expect(r.out).toContain('RESULT: PASS');
    expect(r.err).toBe('');
    const json = JSON.parse(readFileSync(join(out, 'zero-load.json'), 'utf8'));
    expect(json).toMatchObject({ preset: 'zero-load', quick: true, seed: 1, mapping: { cyclesPerTick: 4.5 }, check: { pass: true } });
    expect(json.comparison.metrics.map((m: { metric: string }) => m.metric)).toEqual(['queued', 'inject', 'fabric', 'per-hop', 'first', 'last', 'last-first']);
    expect(readdirSync(out).sort()).toEqual(['zero-load.a.jsonl', 'zero-load.b.jsonl', 'zero-load.json']); // no temporary file left
    const a = readTrace(join(out, 'zero-load.a.jsonl'));
    const b = readTrace(join(out, 'zero-load.b.jsonl'));
    expect([a.header.model, a.header.unit, b.header.model, b.header.unit]).toEqual(['rtl', 'cycles', 'analytic', 'cycles']);
    expect(a.events.filter((e) => e.kind === 'message-complete')).toHaveLength(json.comparison.a.messagesComplete);
  });

  it('a preset whose tolerance is exceeded exits 1, names the metric and still writes its JSON', () => {
    const real = findPreset('zero-load')!;
    // Negative control: the real zero-load run judged against a wrong declaration (per-hop deviation 1 cycle; it is 0).
    const broken: Preset = {
      name: 'zero-load-broken',
      summary: 'test preset',
      tolerances: [{ metric: 'per-hop', stat: 'p50', min: 1, max: 1, why: 'wrong on purpose' }],
      run(o) {
        const r = real.run(o);
        const tol: Tolerance[] = [{ metric: 'per-hop', stat: 'p50', min: 1, max: 1, why: 'wrong on purpose' }];
        return { ...r, result: { ...r.result, tolerances: tol, check: checkTolerances(r.result.comparison, tol) } };
      },
    };
    const out = join(dir, 'b');
    const r2 = capture(() => runPreset(broken, { quick: true, quiet: true, out, seed: 1 }));
    expect(r2.value).toBe(1);
    expect(r2.out).toContain('FAIL per-hop: absolute p50 deviation 0 cycles is outside the tolerance (per-hop absolute p50 = 1)');
    expect(r2.out).toContain('RESULT: FAIL (1 of 1 tolerances exceeded: per-hop)');
    expect(r2.err).toBe('icemu compare zero-load-broken: 1 tolerance(s) exceeded: per-hop');
    expect(existsSync(join(out, 'zero-load-broken.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'zero-load-broken.json'), 'utf8')).check.pass).toBe(false);
  });
});

