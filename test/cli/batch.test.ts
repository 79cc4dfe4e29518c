/**
 * Batch runs (harness/batch/): traffic patterns, window statistics and the
 * `icemu buzzard --config/--workload/--pattern/--json` options.
 */
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { patternWorkload, permutation, PATTERNS, CYCLES_PER_LINK_BYTE } from '../../harness/batch/patterns.ts';
import { latencyStats, percentile, summarise } from '../../harness/batch/stats.ts';
import { icemu } from './helpers.ts';

const dir = fs.mkdtempSync(join(tmpdir(), 'icemu-batch-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = icemu;

describe('traffic patterns', () => {
  it('the permutation patterns are permutations of the node addresses, with the stated maps', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.constantFrom('transpose', 'bit-complement', 'bit-reverse', 'shuffle' as const), (n, p) => {
        const N = 1 << n;
        const image = new Set<number>();
        for (let s = 0; s < N; s++) image.add(permutation(p, s, n)!);
        expect(image.size).toBe(N);
      }),
    );
    expect(permutation('bit-complement', 0b0011, 4)).toBe(0b1100);
    expect(permutation('bit-reverse', 0b0001, 4)).toBe(0b1000);
    expect(permutation('shuffle', 0b1001, 4)).toBe(0b0011);
    expect(permutation('transpose', 0b0011, 4)).toBe(0b1100);
    expect(permutation('uniform', 3, 4)).toBeUndefined();
  });

  it('random patterns: never to self, neighbour differs in one bit, hotspot sends its fraction to node 0; the rate sets the offered bytes', () => {
    for (const pattern of PATTERNS) {
      const w = patternWorkload({ n: 4, pattern, rate: 0.2, meanBytes: 64, durationCycles: 200_000, seed: 3 });
      expect(w.messages.length).toBeGreaterThan(100);
      for (const m of w.messages) {
        expect(m.dst).not.toBe(m.src);
        if (pattern === 'neighbour') expect(Math.log2(m.src ^ m.dst) % 1).toBe(0);
        const fixed = permutation(pattern, m.src, 4);
        if (fixed !== undefined) expect(m.dst).toBe(fixed);
      }
      const senders = new Set(w.messages.map((m) => m.src)).size;
      const offered = w.messages.reduce((a, m) => a + m.bytes, 0) / senders / 200_000;
      expect(offered * CYCLES_PER_LINK_BYTE).toBeGreaterThan(0.15);
      expect(offered * CYCLES_PER_LINK_BYTE).toBeLessThan(0.25);
    }
    const hot = patternWorkload({ n: 4, pattern: 'hotspot', rate: 0.2, meanBytes: 64, durationCycles: 200_000, seed: 3, hotspotFraction: 0.5 });
    const toZero = hot.messages.filter((m) => m.dst === 0 && m.src !== 0).length / hot.messages.filter((m) => m.src !== 0).length;
    expect(toZero).toBeGreaterThan(0.45);
    // the same seed gives the same workload, another seed another
    const a = patternWorkload({ n: 3, pattern: 'uniform', rate: 0.1, meanBytes: 32, durationCycles: 50_000, seed: 1 });
    expect(patternWorkload({ n: 3, pattern: 'uniform', rate: 0.1, meanBytes: 32, durationCycles: 50_000, seed: 1 }).messages).toEqual(a.messages);
    expect(patternWorkload({ n: 3, pattern: 'uniform', rate: 0.1, meanBytes: 32, durationCycles: 50_000, seed: 2 }).messages).not.toEqual(a.messages);
  });
});

describe('window statistics', () => {
  it('nearest-rank percentiles and a histogram that counts every value', () => {
    expect(percentile([1, 2, 3, 4], 50)).toBe(2);
    expect(percentile([1, 2, 3, 4], 99)).toBe(4);
    expect(percentile([], 50)).toBeNull();
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 200 }), (xs) => {
        const s = latencyStats(xs);
        expect(s.histogram.counts.reduce((a, b) => a + b, 0)).toBe(xs.length);
        expect(s.max).toBe(Math.max(...xs));
        expect(s.p50!).toBeLessThanOrEqual(s.p95!);
        expect(s.p95!).toBeLessThanOrEqual(s.p99!);
      }),
    );
  });

  const base = { n: 1, from: 100, to: 1100, runEnd: 2000, countersAtFrom: new Float64Array(6), countersAtEnd: Float64Array.from([950, 95, 10, 0, 0, 0]) };
  const msgs = Array.from({ length: 40 }, (_, k) => ({ id: k, cycle: 100 + 25 * k, bytes: 10 }));

  it('no warning when everything is delivered at a steady latency (negative control), warnings when it is not', () => {
    const steady = summarise({ ...base, scheduled: msgs, events: msgs.map((m) => ({ t: m.cycle + 50, kind: 'message-complete' as const, msg: m.id, node: 0 })) });
    expect(steady.warnings).toEqual([]);
    expect(steady.latency.mean).toBe(50);
    expect(steady.links[0]).toMatchObject({ node: 0, dimension: 0, neighbour: 1, utilisation: 950 / 1900, blocked: 95 / 1900, packets: 10 });
    const growing = summarise({ ...base, scheduled: msgs, events: msgs.map((m) => ({ t: m.cycle + 50 + 30 * m.id, kind: 'message-complete' as const, msg: m.id, node: 0 })) });
    expect(growing.warnings.join()).toMatch(/means still grow/);
    const lost = summarise({ ...base, scheduled: msgs, events: msgs.slice(0, 30).map((m) => ({ t: m.cycle + 50, kind: 'message-complete' as const, msg: m.id, node: 0 })) });
    expect(lost.warnings.join()).toMatch(/offered load not delivered: 10 of 40/);
  });
});

describe('icemu buzzard batch options', () => {
  it('--pattern with --json writes the summary and the per-link CSV; --config and --workload choose the cube and the messages', async () => {
    const json = join(dir, 'run.json');
    const r = await run(['buzzard', '--n', '2', '--cycles', '20000', '--pattern', 'uniform', '--rate', '0.1', '--mean-bytes', '64', '--json', json, '--no-vcd', '--quiet']);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/Measurement window: cycles 2000\.\.15999/);
    expect(r.out).toMatch(/latency to last byte \(cycles\)\s+mean\s+[\d.]+\s+p50\s+\d+\s+p95\s+\d+\s+p99\s+\d+\s+max\s+\d+/);
    expect(r.out.split('\n').at(-2)).toMatch(/^Simulated 20,000 cycles in [\d.]+ s \([\d.]+ k?cycles\/s\)$/);
    const doc = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(doc.format).toBe('icemu-buzzard-run/1');
    expect(doc.summary.latency.count).toBeGreaterThan(5);
    expect(doc.summary.links).toHaveLength(8);
    const csv = fs.readFileSync(join(dir, 'run.links.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('node,dimension,neighbour,utilisation,blocked_fraction,packets');
    expect(csv).toHaveLength(9);

    const cfg = join(dir, 'cube.json');
    fs.writeFileSync(cfg, '{"n": 1, "routing": "e-cube"}');
    const trace = join(dir, 'msgs.txt');
    fs.writeFileSync(trace, '# unit: cycles\n# cube: 1\n0 0 1 20\n100 1 0 30\n');
    const c = await run(['buzzard', '--config', cfg, '--workload', trace, '--cycles', '5000', '--no-vcd', '--quiet']);
    expect(c.code, c.err).toBe(0);
    expect(c.out).toMatch(/1-cube \(2 nodes, config .*cube\.json\), e-cube routing/);
    expect(c.out).toMatch(/messages: 2 generated, 2 complete/);
  });

  it('the VCD starts where the dumped node first carries traffic, or at --vcd-from; its save file shows state names', async () => {
    const { readVcd } = await import('../../traces/vcd/index.ts');
    const vcd = join(dir, 'w', 'b.vcd');
    const r = await run(['buzzard', '--n', '2', '--cycles', '20000', '--pattern', 'uniform', '--rate', '0.2', '--mean-bytes', '64', '--vcd', vcd, '--vcd-node', '1', '--vcd-cycles', '800', '--quiet']);
    expect(r.code, r.err).toBe(0);
    const from = Number(/Waveform of node 1, cycles (\d+)\.\./.exec(r.out)![1]);
    const d = readVcd(vcd);
    const toggles = d.vars.filter((v) => /node1\.fcu\d\.(txBit|rxBit)$/.test(v.name)).reduce((a, v) => a + d.changes(v.name).length, 0);
    expect(toggles).toBeGreaterThan(20); // bits move on the node's links inside the window
    expect(from).toBeGreaterThan(0);
    const gtkw = fs.readFileSync(join(dir, 'w', 'b.gtkw'), 'utf8');
    expect(gtkw).toMatch(/node1\.pbu1\.inState_s/);
    expect(gtkw).toContain(`[timestart] ${2 * from}`);
    const fixed = await run(['buzzard', '--n', '2', '--cycles', '5000', '--vcd', vcd, '--vcd-from', '100', '--vcd-cycles', '50', '--signals', 'node0.nip.*', '--quiet', '--no-vcd-strings']);
    expect(fixed.code, fixed.err).toBe(0);
    const d2 = readVcd(vcd);
    expect(d2.vars.every((v) => v.name === 'cube.clk' || v.name.startsWith('cube.node0.nip.'))).toBe(true);
    expect(d2.vars.some((v) => v.type === 'string')).toBe(false);
    expect(d2.endTime).toBe(2 * 150 + 1);
  });

  it('bad batch options: one line, exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['buzzard', '--pattern', 'zigzag'], /--pattern must be one of uniform, transpose/],
      [['buzzard', '--rate', '0.1'], /--rate goes with --pattern/],
      [['buzzard', '--pattern', 'uniform', '--rate', 'fast'], /--rate must be a number/],
      [['buzzard', '--workload', join(dir, 'none.txt')], /--workload: cannot read/],
      [['buzzard', '--config', join(dir, 'none.json')], /--config: cannot read config file/],
      [['buzzard', '--cycles', '1000', '--warmup', '900'], /--warmup must be below 800/],
      [['buzzard', '--n', '2', '--signals', 'nosuch.*'], /--signals: no signal or memory matches/],
    ];
    for (const [argv, re] of cases) {
      const r = await run(argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err).toMatch(re);
      expect(r.err.split('\n')).toHaveLength(1);
    }
  });
});
