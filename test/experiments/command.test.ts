/**
 * `icemu experiment`: help, listing, one-line usage errors (exit 2), sharding
 * arithmetic, merge (all shards present, one run's parameters), run.json.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatHelp } from '../../harness/cli/args.ts';
import { experimentCommand } from '../../harness/commands/experiment.ts';
import { EXPERIMENTS, experimentNames } from '../../harness/experiments/registry.ts';
import { parseShard, shardIndices } from '../../harness/experiments/runner.ts';
import { icemuExperiment, listDir, removeDir, tempDir } from './helpers.ts';

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));
function dir(tag: string): string {
  const d = tempDir(tag);
  dirs.push(d);
  return d;
}

describe('icemu experiment: help and usage errors', () => {
  it('exports a command object shaped like the other commands', () => {
    expect(Object.keys(experimentCommand).sort()).toEqual(['run', 'spec']);
    expect(experimentCommand.spec.name).toBe('experiment');
  });

  it('--help is the formatted spec and names every option, every experiment, merge, list and the shard workflow', async () => {
    const h = await icemuExperiment(['--help']);
    expect(h.code).toBe(0);
    expect(h.out).toBe(formatHelp(experimentCommand.spec));
    for (const o of experimentCommand.spec.options) expect(h.out).toContain(`--${o.name}`);
    for (const e of EXPERIMENTS) {
      expect(h.out).toContain(e.name);
      expect(h.out).toContain(e.summary);
    }
    for (const s of ['merge', 'list', '--shard i/N', 'out/experiments/<name>', 'SLURM_ARRAY_TASK_ID', 'parallel', 'JOB_COMPLETION_INDEX']) expect(h.out).toContain(s);
    // each experiment-specific option says which experiments take it
    for (const o of ['messages-per-node', 'seed', 'delivery', 'trials', 'sizes']) {
      const takers = EXPERIMENTS.filter((e) => (e.options as readonly string[]).includes(o));
      expect(takers.length, o).toBeGreaterThan(0);
      const line = h.out.split('\n').find((l) => l.includes(`--${o}`))!;
      expect(takers.some((e) => line.includes(e.name) || line.includes(e.name.replace(/\.1\d$/, '.*'))), `${o}: ${line}`).toBe(true);
    }
  });

  it('list prints every experiment', async () => {
    const r = await icemuExperiment(['list']);
    expect(r.code).toBe(0);
    for (const n of experimentNames()) expect(r.out).toContain(n);
  });

  it('an unknown experiment is one error line listing the experiments, exit 2', async () => {
    const r = await icemuExperiment(['buzzard-fig5.99']);
    expect(r.code).toBe(2);
    expect(r.err.split('\n')).toHaveLength(1);
    expect(r.err).toBe(`icemu experiment: unknown experiment 'buzzard-fig5.99' (experiments: ${experimentNames().join(', ')})`);
    const none = await icemuExperiment([]);
    expect(none.code).toBe(2);
    expect(none.err.split('\n')).toHaveLength(1);
    expect(none.err).toContain(experimentNames().join(', '));
  });

  it('bad or misplaced options are one line, exit 2, naming the option and the allowed values', async () => {
    const cases: [string[], RegExp][] = [
      [['oliver-graphs', '--trials', '5'], /--trials does not apply to oliver-graphs \(it applies to buzzard-collisions\)/],
      [['oliver-graphs', '--shard', '2/2'], /--shard: i must be in 0\.\.1 for N = 2/],
      [['oliver-graphs', '--shard', 'two'], /--shard must look like i\/N/],
      [['buzzard-fig5.12', '--delivery', 'bogus'], /--delivery must be shared-port, per-link, or wormhole=MODE,packet=MODE .*\(got 'bogus'\)/],
      [['nbl-testjig', '--sizes', '60,30'], /--sizes must increase/],
      [['nbl-testjig', '--sizes', '60,x'], /--sizes must be whole numbers/],
      [['buzzard-collisions', '--trials', '0'], /--trials must be a whole number in 1\.\.100000000/],
      [['oliver-graphs', '--merge', 'd', '--shard', '0/2'], /--merge and --shard cannot be combined/],
      [['oliver-graphs', 'extra'], /unexpected argument 'extra'/],
      [['merge'], /merge needs one directory/],
      [['oliver-graphs', '--jobs', '0'], /--jobs must be a whole number in 1\.\.1024/],
    ];
    for (const [argv, re] of cases) {
      const r = await icemuExperiment(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err.split('\n'), argv.join(' ')).toHaveLength(1);
      expect(r.err, argv.join(' ')).toMatch(re);
    }
  });
});

describe('sharding and merging', () => {
  it('shard i/N runs every N-th point starting at i; the shards partition the points', () => {
    expect(parseShard('1/4')).toEqual({ index: 1, count: 4 });
    expect(shardIndices(10, { index: 1, count: 4 })).toEqual([1, 5, 9]);
    expect(shardIndices(3, { index: 3, count: 5 })).toEqual([]);
    expect(shardIndices(4)).toEqual([0, 1, 2, 3]);
    for (const N of [1, 2, 3, 7]) {
      const all = Array.from({ length: N }, (_, i) => shardIndices(20, { index: i, count: N })).flat().sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: 20 }, (_, k) => k));
    }
    expect(() => parseShard('0/0')).toThrow(/N must be in 1\.\.100000/);
  });

  it('an empty shard (more shards than points) is valid and merges', async () => {
    const d = dir('empty-shard');
    for (let i = 0; i < 7; i++) expect((await icemuExperiment(['oliver-graphs', '--shard', `${i}/7`, '--out', d, '--jobs', '1'])).code).toBe(0);
    const m = await icemuExperiment(['merge', d]);
    expect(m.code, m.err).toBe(0);
    expect(existsSync(join(d, 'oliver-graphs.json'))).toBe(true);
  });

  it('merge refuses missing shards, mixed runs and empty directories (one line, exit 1) and leaves no result behind', async () => {
    const d = dir('missing');
    expect((await icemuExperiment(['oliver-graphs', '--shard', '0/3', '--out', d, '--jobs', '1'])).code).toBe(0);
    const m = await icemuExperiment(['merge', d]);
    expect(m.code).toBe(1);
    expect(m.err).toMatch(/^icemu experiment merge: oliver-graphs: 3 of 5 points missing \(shards 1\/3, 2\/3 not found or incomplete in/);
    expect(existsSync(join(d, 'oliver-graphs.json'))).toBe(false);

    const mixed = dir('mixed');
    expect((await icemuExperiment(['buzzard-collisions', '--quick', '--trials', '10', '--shard', '0/2', '--out', mixed, '--jobs', '1'])).code).toBe(0);
    expect((await icemuExperiment(['buzzard-collisions', '--quick', '--trials', '20', '--shard', '1/2', '--out', mixed, '--jobs', '1'])).code).toBe(0);
    const mm = await icemuExperiment(['buzzard-collisions', '--merge', mixed]);
    expect(mm.code).toBe(1);
    expect(mm.err).toMatch(/parameters differ/);

    const empty = dir('empty');
    const me = await icemuExperiment(['merge', empty]);
    expect(me.code).toBe(1);
    expect(me.err).toMatch(/no shard files/);

    const bad = dir('bad');
    writeFileSync(join(bad, 'oliver-graphs.shard-0-of-1.json'), '{ not json');
    const mb = await icemuExperiment(['merge', bad]);
    expect(mb.code).toBe(1);
    expect(mb.err).toMatch(/not valid JSON/);
  });

  it('merge DIR merges every experiment found there; --merge DIR --out OUT only the named one, into OUT', async () => {
    const d = dir('two');
    for (const i of [0, 1]) {
      expect((await icemuExperiment(['oliver-graphs', '--shard', `${i}/2`, '--out', d, '--jobs', '1'])).code).toBe(0);
      expect((await icemuExperiment(['buzzard-collisions', '--quick', '--trials', '50', '--shard', `${i}/2`, '--out', d, '--jobs', '1'])).code).toBe(0);
    }
    const out = dir('two-out');
    const one = await icemuExperiment(['oliver-graphs', '--merge', d, '--out', out]);
    expect(one.code, one.err).toBe(0);
    expect(listDir(out).filter((f) => f.endsWith('.json'))).toEqual(['oliver-graphs.json', 'oliver-graphs.run.json']);
    const all = await icemuExperiment(['merge', d]);
    expect(all.code, all.err).toBe(0);
    expect(listDir(d)).toContain('buzzard-collisions.json');
    expect(listDir(d)).toContain('oliver-graphs.json');
    const run = JSON.parse(readFileSync(join(d, 'oliver-graphs.run.json'), 'utf8')) as Record<string, unknown>;
    expect(run).toMatchObject({ experiment: 'oliver-graphs', shards: 2 });
    expect(typeof run.wallMs).toBe('number');
  });
});
