/**
 * The command-line audit's defect classes (users' files are sacred: bad
 * input is one line and exit status 2, and `--help` says what is built).
 * Each class has a control: the same words written the accepted way pass.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatHelp, parseArgs, UsageError, type CommandSpec } from '../../harness/cli/args.ts';
import { EXPERIMENTS } from '../../harness/experiments/registry.ts';
import { experimentCommand } from '../../harness/commands/experiment.ts';
import { icemu } from './helpers.ts';

const dir = fs.mkdtempSync(join(tmpdir(), 'icemu-audit-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** One error line, exit 2, matching re. */
async function refused(argv: string[], re: RegExp): Promise<void> {
  const r = await icemu(argv);
  expect(r.code, `${argv.join(' ')}: ${r.err}`).toBe(2);
  expect(r.err).toMatch(re);
  expect(r.err.split('\n')).toHaveLength(1);
}

const spec: CommandSpec = {
  name: 't',
  summary: '',
  usage: '',
  options: [
    { name: 'json', type: 'string', arg: 'FILE', description: '' },
    { name: 'vcd', type: 'string', arg: 'FILE', default: 'out/x.vcd', description: '' },
    { name: 'no-vcd', type: 'flag', description: '' },
    { name: 'rates', type: 'list', arg: 'R,R', description: '' },
    { name: 'quiet', short: 'q', type: 'flag', description: '' },
  ],
};

describe('a missing value does not swallow the next option', () => {
  it('refuses `--json --no-vcd` (it would have written a file named --no-vcd) and `--json -q`', () => {
    expect(() => parseArgs(spec, ['--json', '--no-vcd'])).toThrow(/^icemu t: --json needs a value \(FILE\)$/);
    expect(() => parseArgs(spec, ['--json', '-q'])).toThrow(/--json needs a value/);
  });

  it('control: such a value written inline, and values that only start with one dash, are values', () => {
    expect(parseArgs(spec, ['--json=--no-vcd']).opts.json).toBe('--no-vcd');
    expect(parseArgs(spec, ['--json', '-x.json']).opts.json).toBe('-x.json');
    expect(parseArgs(spec, ['--rates', '-1']).opts.rates).toEqual(['-1']);
  });

  it('end to end: buzzard --json --no-vcd and experiment --out --quick, one line, exit 2, no file made', async () => {
    const cwd = fs.readdirSync('.');
    await refused(['buzzard', '--json', '--no-vcd'], /--json needs a value/);
    await refused(['experiment', 'c104-ch6', '--out', '--quick'], /--out needs a value/);
    expect(fs.readdirSync('.')).toEqual(cwd);
  });
});

describe('an empty list is refused, not read as the default', () => {
  it('parseArgs: --rates "" and --rates ","', () => {
    expect(() => parseArgs(spec, ['--rates', ''])).toThrow(/^icemu t: --rates needs a value \(R,R\), got ''$/);
    expect(() => parseArgs(spec, ['--rates', ','])).toThrow(/--rates needs a value/);
    expect(parseArgs(spec, ['--rates', '0.1,0.2']).opts.rates).toEqual(['0.1', '0.2']); // control
  });

  it('end to end: sweep --rates "" (ran the whole default sweep), experiment --sizes "", buzzard --signals ""', async () => {
    await refused(['sweep', '--rates', ''], /--rates needs a value/);
    await refused(['experiment', 'nbl-testjig', '--quick', '--sizes', ''], /--sizes needs a value/);
    await refused(['buzzard', '--signals', ''], /--signals needs a value/);
  });
});

describe('--x and --no-x together', () => {
  it('are refused; either alone is accepted (control)', async () => {
    expect(() => parseArgs(spec, ['--vcd', 'a.vcd', '--no-vcd'])).toThrow(/^icemu t: --vcd and --no-vcd cannot be combined$/);
    expect(() => parseArgs(spec, ['--no-vcd', '--vcd', 'a.vcd'])).toThrow(/cannot be combined/);
    expect(parseArgs(spec, ['--no-vcd']).opts['no-vcd']).toBe(true);
    expect(parseArgs(spec, ['--vcd', 'a.vcd']).opts.vcd).toBe('a.vcd');
    await refused(['demo', '--no-vcd', '--vcd', join(dir, 'd.vcd')], /--vcd and --no-vcd cannot be combined/);
  });
});

describe('options that would be ignored are refused', () => {
  it('--hotspot without --pattern hotspot (buzzard, sweep); a rate named twice (sweep)', async () => {
    await refused(['buzzard', '--n', '1', '--cycles', '1000', '--no-vcd', '--hotspot', '0.5'], /^icemu buzzard: --hotspot goes with --pattern hotspot$/);
    await refused(['buzzard', '--n', '1', '--cycles', '1000', '--no-vcd', '--pattern', 'uniform', '--hotspot', '0.5'], /--hotspot goes with --pattern hotspot/);
    await refused(['sweep', '--hotspot', '0.5'], /^icemu sweep: --hotspot goes with --pattern hotspot$/);
    await refused(['sweep', '--rates', '0.1,0.1'], /--rates names a rate twice/);
    await refused(['sweep', 'merge'], /merge needs the directory/);
  });

  it('control: --pattern hotspot --hotspot 0.5 runs', async () => {
    const r = await icemu(['buzzard', '--n', '1', '--cycles', '1000', '--no-vcd', '-q', '--pattern', 'hotspot', '--hotspot', '0.5']);
    expect(r.code, r.err).toBe(0);
  }, 60_000);
});

describe('sweep --quick keeps the sizes the command line gives', () => {
  const params = (out: string) => JSON.parse(fs.readFileSync(join(out, 'buzzard-sweep.json'), 'utf8')).params as { cycles: number; meanBytes: number; rates: number[] };
  it('--cycles and --mean-bytes beside --quick are used (before, --quick replaced them silently); without them, the quick sizes (control)', async () => {
    const a = join(dir, 'sa');
    const r = await icemu(['sweep', '--quick', '--cycles', '3000', '--mean-bytes', '32', '--rates', '0.1', '--jobs', '1', '-q', '--out', a]);
    expect(r.code, r.err).toBe(0);
    expect(params(a)).toMatchObject({ cycles: 3000, meanBytes: 32, rates: [0.1] });
    const b = join(dir, 'sb');
    const s = await icemu(['sweep', '--quick', '--rates', '0.1', '--jobs', '1', '-q', '--out', b]);
    expect(s.code, s.err).toBe(0);
    expect(params(b)).toMatchObject({ cycles: 15_000, meanBytes: 64 });
  }, 120_000);
});

/** Experiments an option's help text names (by name or by a trailing-* glob such as buzzard-fig5.*). */
function named(description: string): string[] {
  const words = description.match(/[a-z0-9.-]+\*?/g) ?? [];
  return EXPERIMENTS.map((e) => e.name).filter((n) => words.some((w) => w === n || (w.endsWith('*') && n.startsWith(w.slice(0, -1)))));
}

describe('experiment --help names every experiment a per-experiment option applies to', () => {
  const help = formatHelp(experimentCommand.spec);
  for (const o of ['messages-per-node', 'seed', 'delivery', 'model', 'rtl-reuse', 'trials', 'sizes'] as const) {
    it(`--${o}`, () => {
      const line = experimentCommand.spec.options.find((x) => x.name === o)!;
      expect(help).toContain(line.description);
      const takers = EXPERIMENTS.filter((e) => e.options.includes(o)).map((e) => e.name);
      expect(named(line.description).sort()).toEqual([...takers].sort());
    });
  }

  it('control: the help text before the audit (--seed naming only buzzard-fig5.* and buzzard-collisions) is seen short', () => {
    const takers = EXPERIMENTS.filter((e) => e.options.includes('seed')).map((e) => e.name);
    expect(named('buzzard-fig5.*, buzzard-collisions: random seed of the workload (default 1)').sort()).not.toEqual([...takers].sort());
  });
});

it('UsageError is what the parser throws (main prints it as one line, exit 2)', () => {
  expect(() => parseArgs(spec, ['--json'])).toThrow(UsageError);
});

describe('a list option given replaces its default', () => {
  const withDefault: CommandSpec = { ...spec, options: [...spec.options.filter((o) => o.name !== 'rates'), { name: 'rates', type: 'list', default: ['0.02', '0.4'], arg: 'R,R', description: '' }] };
  it('--rates 0.5 is [0.5] (before: the defaults and 0.5); two --rates add up; none keeps the default (control)', () => {
    expect(parseArgs(withDefault, ['--rates', '0.5']).opts.rates).toEqual(['0.5']);
    expect(parseArgs(withDefault, ['--rates', '0.5', '--rates', '0.6,0.7']).opts.rates).toEqual(['0.5', '0.6', '0.7']);
    expect(parseArgs(withDefault, []).opts.rates).toEqual(['0.02', '0.4']);
  });
});

describe('repl: an unknown preset lists every preset the REPL opens', () => {
  it('names the network presets too (before: the Buzzard cubes only), with near names', async () => {
    await refused(['repl', 'dslink-pear', '--script', '/dev/null'], /unknown preset 'dslink-pear' \(did you mean dslink-pair[^)]*\); presets: cube1, .*dslink-pair, .*ring-deadlock; or give a JSON config file$/);
  });
  it('control: a network preset opens', async () => {
    const r = await icemu(['repl', 'dslink-pair', '--script', '/dev/null', '-q']);
    expect(r.code, r.err).toBe(0);
  }, 60_000);
});

describe('a trace or waveform window that starts past the run is refused before it', () => {
  it('buzzard --trace-from / --vcd-from at or past --cycles, demo --trace-from (before: an empty window after the whole run)', async () => {
    await refused(['buzzard', '--n', '1', '--cycles', '1000', '--no-vcd', '--trace', '5', '--trace-from', '1000'], /^icemu buzzard: --trace-from must be below --cycles \(1000\) \(got 1000\)$/);
    await refused(['buzzard', '--n', '1', '--cycles', '1000', '--vcd', join(dir, 'b.vcd'), '--vcd-from', '5000'], /--vcd-from must be below --cycles/);
    await refused(['demo', '--cycles', '10', '--no-vcd', '--trace-from', '10'], /^icemu demo: --trace-from must be below --cycles \(10\) \(got 10\)$/);
  });

  it('control: the last cycle is a window; --trace 0 or --no-vcd leave the window options unread', async () => {
    const d = await icemu(['demo', '--cycles', '10', '--no-vcd', '--trace-from', '9', '--trace', '1', '-q']);
    expect(d.code, d.err).toBe(0);
    expect(d.out.split('\n').filter((l) => /^\s+\d+ \|/.test(l)).map((l) => Number(l.split('|')[0]))).toEqual([9]);
    const b = await icemu(['buzzard', '--n', '1', '--cycles', '1000', '--no-vcd', '-q', '--trace-from', '5000', '--vcd-from', '5000']);
    expect(b.code, b.err).toBe(0);
  }, 60_000);
});

describe('one run, one file per output; view never writes over its trace', () => {
  it('buzzard: --json and --events naming one file, --json naming the VCD\'s .gtkw: refused before the run, nothing written', async () => {
    const f = join(dir, 'same.out');
    await refused(['buzzard', '--n', '1', '--cycles', '1000', '--no-vcd', '--events', f, '--json', f], /^icemu buzzard: --json .*same\.out: also named by --events/);
    await refused(['buzzard', '--n', '1', '--cycles', '1000', '--vcd', join(dir, 's.vcd'), '--json', join(dir, 's.gtkw')], /--json .*s\.gtkw: also named by --vcd \(its \.gtkw\)/);
    expect(fs.existsSync(f)).toBe(false);
    expect(fs.existsSync(join(dir, 's.vcd'))).toBe(false);
  });

  it('view: --out naming the trace (or a link to it) is refused and the trace is intact; --subcube on a small cube is refused', async () => {
    const trace = join(dir, 't.jsonl');
    expect((await icemu(['buzzard', '--n', '1', '--cycles', '1000', '--no-vcd', '-q', '--events', trace])).code).toBe(0);
    const bytes = fs.readFileSync(trace);
    await refused(['view', trace, '--out', trace], /^icemu view: --out .*t\.jsonl is the trace being read/);
    fs.symlinkSync(trace, join(dir, 'link.html'));
    await refused(['view', trace, '--out', join(dir, 'link.html')], /is the trace being read/);
    expect(fs.readFileSync(trace).equals(bytes)).toBe(true);
    await refused(['view', trace, '--subcube', '1', '--out', join(dir, 'p.html')], /^icemu view: --subcube goes with Buzzard traces of cubes above degree 6 \(this trace: a 1-cube\)$/);
  }, 60_000);

  it('control: distinct files, /dev/null twice, and view into another file all run', async () => {
    const r = await icemu(['buzzard', '--n', '1', '--cycles', '1000', '--no-vcd', '-q', '--events', join(dir, 'e.jsonl'), '--json', join(dir, 'e.json')]);
    expect(r.code, r.err).toBe(0);
    const n = await icemu(['buzzard', '--n', '1', '--cycles', '1000', '--no-vcd', '-q', '--events', '/dev/null', '--json', '/dev/null']);
    expect(n.code, n.err).toBe(0);
    const v = await icemu(['view', join(dir, 'e.jsonl'), '--out', join(dir, 'e.html')]);
    expect(v.code, v.err).toBe(0);
    expect(fs.readFileSync(join(dir, 'e.html'), 'utf8')).toMatch(/^<!doctype html>/i);
  }, 60_000);
});
