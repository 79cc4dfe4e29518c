/**
 * `icemu c104 mesh --pattern thesis --sync MODE` (harness/commands/c104_sync.ts,
 * docs/c104.md#thesis-processes): the closed-loop run's summary is the
 * library's (same seed, same figures), and bad combinations are one error
 * line and exit 2.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { icemu } from '../cli/helpers.ts';
import { runRtlProcesses } from '../../harness/rtl/c104_processes.ts';
import { SyntheticProgram } from '../../harness/workloads/thesis-synthetic.ts';

const dir = mkdtempSync(join(tmpdir(), 'icemu-c104-sync-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = icemu;

describe('icemu c104 --pattern thesis --sync', () => {
  it(
    'async-blocking on a 3x3 mesh: the JSON summary equals the library run of the same program',
    async () => {
      const json = join(dir, 's.json');
      const r = await run(['c104', 'mesh', '--width', '3', '--height', '3', '--pattern', 'thesis', '--window', '1', '--interval', '300', '--sync', 'async-blocking', '--cycles', '12000', '--seed', '4', '--json', json, '--quiet']);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/Throughput: [\d.]+ data packets per CPU per ms/);
      const s = (JSON.parse(readFileSync(json, 'utf8')) as { sync: Record<string, number> }).sync;
      const prog = new SyntheticProgram({ D: 3, d: 1, n: 1, c: { law: 'constant', value: 3 }, m: { law: 'constant', value: 1 }, M: { law: 'constant', value: 32 }, mode: 'async-blocking', window: 'pm-d', startPhase: 'random', seed: 4 });
      // default --warmup: 10% of --cycles (1,200) lies inside link start-up (2,500): the window is the rest of the run
      const lib = runRtlProcesses(prog, { warmupCycles: 0, windowCycles: 12000 - 2500 });
      expect(s.throughputPacketsPerCpuPerMs).toBe(lib.throughput);
      expect(s.sendsAttempted).toBe(lib.sendsAttempted);
      expect(s.sendsDropped).toBe(0);
      expect(s.throughputPacketsPerCpuPerMs).toBeGreaterThan(0);
    },
    120_000,
  );

  it('refusals: one line, exit 2', async () => {
    for (const argv of [
      ['c104', 'mesh', '--sync', 'async'],
      ['c104', 'mesh', '--pattern', 'thesis', '--sync', 'sometimes'],
      ['c104', 'mesh', '--width', '4', '--height', '3', '--pattern', 'thesis', '--sync', 'async'],
      ['c104', 'mesh', '--pattern', 'thesis', '--sync', 'async', '--routing', 'y-first'],
    ]) {
      const r = await run(argv);
      expect(r.code).toBe(2);
      expect(r.err.split('\n')).toHaveLength(1);
      expect(r.err).toMatch(/^icemu c104: /);
    }
  });
});
