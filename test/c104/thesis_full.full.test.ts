/**
 * Definition 5.1's standard setup (16, 8, 1, c, 1, 32) at the seed's full
 * size on the RTL (harness/rtl/c104_processes.ts: 16×16 C104 mesh, T9000
 * endpoints, DS-links; docs/c104.md#thesis-processes), closed loop in the
 * three synchronisation modes at c = 16 µs, held against the token-credit
 * TLM on the same draws (the 4×4 rule of thesis_processes.test.ts, 3%,
 * declared before these runs). Too slow for CI (each mode ~35k cycles at
 * ~150 cycles per CPU s):
 *   ICEMU_FULL=1 npx vitest run test/c104/thesis_full.full.test.ts
 * The figures of the run are in docs/c104.md#thesis-processes.
 */
import { describe, expect, it } from 'vitest';
import { PROCESS_START, runRtlProcesses } from '../../harness/rtl/c104_processes.ts';
import { SyntheticProgram, standardSetup } from '../../harness/workloads/thesis-synthetic.ts';
import { runC104 } from '../../harness/tlm/t9000-c104/run.ts';
import { TOKEN_CREDIT_PRESET } from '../../harness/tlm/t9000-c104/config.ts';
import { checkDeliveries } from '../../harness/commands/c104_sync.ts';
import { throughputAgrees } from './thesis_rule.ts';

const C_US = 16;
const WARM = 7500;
const WINDOW = 25_000;

describe.skipIf(!process.env.ICEMU_FULL)(`standard setup on the RTL at 16×16, c = ${C_US} µs (ICEMU_FULL=1)`, () => {
  for (const mode of ['loosely', 'async-blocking', 'async'] as const) {
    it(
      `${mode}: every delivery byte-exact and once, sends the program's draws; RTL throughput within 3% of the token-credit TLM`,
      () => {
        const p = new SyntheticProgram(standardSetup(C_US, mode, 1));
        const t0 = process.cpuUsage();
        const r = runRtlProcesses(p, { warmupCycles: WARM, windowCycles: WINDOW });
        const cpu = (process.cpuUsage(t0).user + process.cpuUsage(t0).system) / 1e6;
        const tp = Object.assign(Object.create(Object.getPrototypeOf(p) as object) as SyntheticProgram, p, { channelSlot: r.channelSlot });
        const t = runC104(tp, { ...TOKEN_CREDIT_PRESET, side: 16 }, { fixedNs: (PROCESS_START + WARM + WINDOW) * 10 });
        const tlm = t.summary.throughput;
        console.log(
          JSON.stringify({ mode, c: C_US, rtl: r.throughput, tlm, devPct: 100 * (r.throughput / tlm - 1), attempted: r.sendsAttempted, dropped: r.sendsDropped, iterations: r.iterations, sent: r.sent, delivered: r.delivered, cycles: r.cycles, cpuS: cpu, rssGB: process.memoryUsage().rss / 2 ** 30 }),
        );
        expect(r.sys.rec.anomalies).toEqual([]);
        expect(checkDeliveries(r)).toEqual({ wrong: 0, twice: 0 });
        expect(r.delivered).toBeGreaterThan(2000);
        for (const q of [0, 17, 136, 255]) {
          const got = r.sends[q]!.map((s) => [s.iter, s.dest, s.bytes]);
          const want: number[][] = [];
          for (let k = 0; want.length < got.length; k++) for (const s of p.plan(q, k).sends) want.push([k, s.dest, s.bytes]);
          expect(got).toEqual(want.slice(0, got.length));
        }
        expect(throughputAgrees(r.throughput, tlm), `RTL ${r.throughput} vs TLM ${tlm}`).toBe(true);
      },
      3 * 3600_000,
    );
  }
});
