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
import { checkDeliveries } from '../../harness/commands/c104_sync.ts';
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

  it(
    '--processes 2: the summary equals the library run of n = 2; every delivery byte-exact and once; sends are the TLM program\'s draws',
    async () => {
      const json = join(dir, 'n2.json');
      const argv = ['c104', 'mesh', '--width', '3', '--height', '3', '--pattern', 'thesis', '--window', '1', '--interval', '600', '--sync', 'async-blocking', '--processes', '2', '--cycles', '14000', '--seed', '7', '--json', json, '--quiet'];
      const r = await run(argv);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/async-blocking, 2 per endpoint/);
      expect(r.out).toMatch(/Deliveries: 0 with wrong bytes or no message, 0 delivered twice/);
      const s = (JSON.parse(readFileSync(json, 'utf8')) as { sync: Record<string, number> }).sync;
      expect(s.processesPerEndpoint).toBe(2);
      expect(s.messagesWrongBytes).toBe(0);
      expect(s.messagesDeliveredTwice).toBe(0);
      const spec = (n: number) => ({ D: 3, d: 1, n, c: { law: 'constant', value: 6 }, m: { law: 'constant', value: 1 }, M: { law: 'constant', value: 32 }, mode: 'async-blocking', window: 'pm-d', startPhase: 'random', seed: 7 }) as const;
      const prog = new SyntheticProgram(spec(2));
      const lib = runRtlProcesses(prog, { warmupCycles: 0, windowCycles: 14000 - 2500 });
      expect(s.throughputPacketsPerCpuPerMs).toBe(lib.throughput);
      expect(s.sendsAttempted).toBe(lib.sendsAttempted);
      expect(s.iterations).toBe(lib.iterations);
      expect(s.messagesDelivered).toBe(lib.delivered);
      expect(lib.delivered).toBeGreaterThan(50);
      expect(checkDeliveries(lib)).toEqual({ wrong: 0, twice: 0 });
      // 18 processes, each its own draws in order (memory copies between the two of one CPU included)
      expect(lib.sends).toHaveLength(18);
      let copies = 0;
      for (let q = 0; q < 18; q++) {
        const got = lib.sends[q]!.map((x) => [x.iter, x.dest, x.bytes]);
        const want: number[][] = [];
        for (let k = 0; want.length < got.length; k++) for (const x of prog.plan(q, k).sends) want.push([k, x.dest, x.bytes]);
        expect(got).toEqual(want.slice(0, got.length));
        expect(got.length).toBeGreaterThanOrEqual(3);
        copies += lib.sends[q]!.filter((x) => x.msg < 0).length;
      }
      expect(copies).toBeGreaterThan(0);
      // controls: one process per endpoint is another run; a wrong byte and a second delivery are counted
      const one = runRtlProcesses(new SyntheticProgram(spec(1)), { warmupCycles: 0, windowCycles: 14000 - 2500 });
      expect(one.sendsAttempted).not.toBe(s.sendsAttempted);
      const d0 = lib.sys.rec.deliveries[0]!;
      d0.bytes[0] = (d0.bytes[0]! + 1) & 0xff;
      lib.sys.rec.deliveries.push(lib.sys.rec.deliveries[1]!);
      expect(checkDeliveries(lib)).toEqual({ wrong: 1, twice: 1 });
    },
    240_000,
  );

  it('--help names --processes', async () => {
    const r = await run(['c104', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/--processes N \(with --sync\) runs N processes per endpoint/);
    expect(r.out).toMatch(/--processes .*processes per endpoint \(Def. 5.1's n, default 1\)/);
  });

  it('refusals: one line, exit 2', async () => {
    for (const argv of [
      ['c104', 'mesh', '--pattern', 'thesis', '--processes', '2'],
      ['c104', 'mesh', '--pattern', 'thesis', '--sync', 'async', '--processes', '0'],
      ['c104', 'mesh', '--pattern', 'thesis', '--sync', 'async', '--processes', '65'],
      ['c104', 'mesh', '--pattern', 'thesis', '--sync', 'async', '--processes', 'two'],
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
