/**
 * Definition 5.1's processes closed loop on the RTL (harness/rtl/c104_processes.ts,
 * docs/c104.md#thesis-processes) in the three synchronisation modes: every
 * message delivered exactly once and byte-exact, each process's sends are
 * the program's draws (the TLM's, same seed), the RTL's throughput agrees
 * with the token-credit TLM's within a measured tolerance (with a control
 * just outside it), and a control whose blocking sends do not wait changes
 * the RTL's behaviour.
 */
import { describe, expect, it } from 'vitest';
import { PROCESS_START, runRtlProcesses, type RtlProcessResult } from '../../harness/rtl/c104_processes.ts';
import { SyntheticProgram, standardSetup } from '../../harness/workloads/thesis-synthetic.ts';
import type { SyncMode } from '../../harness/workloads/process-program.ts';
import { runC104 } from '../../harness/tlm/t9000-c104/run.ts';
import { TOKEN_CREDIT_PRESET } from '../../harness/tlm/t9000-c104/config.ts';
import { THROUGHPUT_TOLERANCE, throughputAgrees } from './thesis_rule.ts';
import { BoundaryExchangeProgram } from '../../harness/workloads/boundary-exchange.ts';
import { checkDeliveries } from '../../harness/commands/c104_sync.ts';

const MODES = ['loosely', 'async-blocking', 'async'] as const;
const LONG = 240_000;


function checkExactlyOnce(r: RtlProcessResult): void {
  const { driver, rec } = r.sys;
  expect(rec.anomalies).toEqual([]);
  expect(r.sent).toBeGreaterThan(0);
  expect(r.delivered).toBe(r.sent);
  expect(r.completed).toBe(r.sent);
  const ids = rec.deliveries.map((d) => d.msg);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBe(driver.messages.length);
  for (const d of rec.deliveries) {
    const m = driver.messages[d.msg]!;
    expect(d.bytes).toEqual(m.data);
    expect([d.node, d.vl]).toEqual([m.dest.node, m.dest.vl]);
  }
}

describe('Def. 5.1 processes on the RTL (3×3, two 40-byte messages per iteration)', () => {
  const prog = (mode: SyncMode, seed = 5): SyntheticProgram =>
    new SyntheticProgram({ ...standardSetup(3, mode, seed), D: 3, d: 1, m: { law: 'constant', value: 2 }, M: { law: 'constant', value: 40 } });
  for (const mode of MODES) {
    it(
      `${mode}: every message delivered exactly once, byte-exact; each process's sends are the program's draws in order`,
      () => {
        const p = prog(mode);
        const r = runRtlProcesses(p, { warmupCycles: 1000, windowCycles: 6000, drainCycles: 40_000 });
        checkExactlyOnce(r);
        expect(r.iterations).toBeGreaterThan(9 * 3);
        for (let q = 0; q < p.processes; q++) {
          const got = r.sends[q]!.map((s) => [s.iter, s.dest, s.bytes]);
          const want: number[][] = [];
          for (let k = 0; want.length < got.length; k++) for (const s of p.plan(q, k).sends) want.push([k, s.dest, s.bytes]);
          expect(got).toEqual(want.slice(0, got.length));
          expect(got.length).toBeGreaterThanOrEqual(6);
        }
        // negative control: another seed's draws are not these sends
        const other = prog(mode, 6);
        const flat = (pp: SyntheticProgram, q: number): number[] => [0, 1, 2, 3].flatMap((k) => pp.plan(q, k).sends.map((s) => s.dest));
        expect(Array.from({ length: 9 }, (_, q) => flat(other, q))).not.toEqual(Array.from({ length: 9 }, (_, q) => r.sends[q]!.slice(0, 8).map((s) => s.dest)));
      },
      LONG,
    );
  }
});

describe('two processes per CPU (memory copies between them)', () => {
  for (const mode of ['loosely', 'async'] as const) {
    it(
      `${mode}: network messages exactly once, memory copies among the sends, the loop runs past them`,
      () => {
        const r = runRtlProcesses(new SyntheticProgram({ ...standardSetup(2, mode, 9), D: 3, d: 1, n: 2 }), { warmupCycles: 1000, windowCycles: 5000, drainCycles: 40_000 });
        checkExactlyOnce(r);
        const copies = r.sends.flat().filter((s) => s.msg < 0 && !s.dropped).length;
        expect(copies).toBeGreaterThan(5);
        expect(r.iterations).toBeGreaterThan(r.sent);
      },
      LONG,
    );
  }
});

describe("'loosely' coupling", () => {
  /** Deliveries (network) of an iteration-k message that reached the receiver before it began iteration k (before the drain, where halted receivers take all). */
  const early = (r: RtlProcessResult, stop: number): number => {
    const info = new Map<number, { dest: number; iter: number }>();
    for (const list of r.sends) for (const s of list) if (s.msg >= 0) info.set(s.msg, s);
    let n = 0;
    for (const d of r.sys.rec.deliveries) {
      if (d.cycle >= stop) continue;
      const m = info.get(d.msg)!;
      const at = r.began[m.dest]![m.iter];
      if (at === undefined || d.cycle < at) n++;
    }
    return n;
  };
  const prog = (mode: SyncMode): SyntheticProgram => new SyntheticProgram({ ...standardSetup(1, mode, 7), D: 3, d: 1, c: { law: 'exp', mean: 2 } });
  it(
    "a receiver takes a message of iteration k only once it has begun k; control: 'async' takes some earlier",
    () => {
      const o = { warmupCycles: 1000, windowCycles: 6000, drainCycles: 40_000, iterations: 400 };
      const loose = runRtlProcesses(prog('loosely'), o);
      checkExactlyOnce(loose);
      const stop = PROCESS_START + o.warmupCycles + o.windowCycles;
      expect(loose.sys.rec.deliveries.filter((d) => d.cycle < stop).length).toBeGreaterThan(50);
      expect(early(loose, stop)).toBe(0);
      expect(early(runRtlProcesses(prog('async'), o), stop)).toBeGreaterThan(0);
    },
    LONG,
  );
});

describe('RTL vs token-credit TLM throughput (4×4, ±2, c = 5 µs, 32 B)', () => {
  const W = 20_000;
  const WARM = 5000;
  for (const mode of MODES) {
    it(
      `${mode}: packets per CPU per ms within ${THROUGHPUT_TOLERANCE * 100}%; a value just outside fails`,
      () => {
        const p = new SyntheticProgram({ ...standardSetup(5, mode, 3), D: 4, d: 2 });
        const r = runRtlProcesses(p, { warmupCycles: WARM, windowCycles: W });
        const tp = Object.assign(Object.create(Object.getPrototypeOf(p) as object) as SyntheticProgram, p, { channelSlot: r.channelSlot });
        const t = runC104(tp, { ...TOKEN_CREDIT_PRESET, side: 4 }, { fixedNs: (PROCESS_START + WARM + W) * 10 });
        expect(throughputAgrees(r.throughput, t.summary.throughput)).toBe(true);
        // the rule's controls: just inside and just outside the band around the TLM's value
        const tlm = t.summary.throughput;
        for (const s of [1, -1]) {
          expect(throughputAgrees(tlm * (1 + s * (THROUGHPUT_TOLERANCE - 0.002)), tlm)).toBe(true);
          expect(throughputAgrees(tlm * (1 + s * (THROUGHPUT_TOLERANCE + 0.002)), tlm)).toBe(false);
        }
      },
      LONG,
    );
  }
});

describe('blocking-send control', () => {
  it(
    "async-blocking sends that do not wait for completion change the RTL's iterations and throughput",
    () => {
      const p = new SyntheticProgram({ ...standardSetup(0.5, 'async-blocking', 3), D: 3, d: 1 });
      const o = { warmupCycles: 1000, windowCycles: 8000, drainCycles: 40_000 };
      const blocking = runRtlProcesses(p, o);
      const control = runRtlProcesses(p, { ...o, unblockedSendsControl: true });
      checkExactlyOnce(blocking);
      // Blocking: an iteration lasts compute + a send's round trip; the control's lasts the compute only.
      expect(control.iterations).toBeGreaterThan(1.3 * blocking.iterations);
      expect(control.throughput).toBeGreaterThan(1.3 * blocking.throughput);
    },
    LONG,
  );
});

describe("mode 'exchange' (the boundary exchange on the same driver, c104_exchange.ts)", () => {
  it(
    '2×2 mesh (N = 4): every message byte-exact and once, four per process per iteration on its channel ends; no drain',
    () => {
      const prog = new BoundaryExchangeProgram({ N: 4, bytes: 32, periodNs: 500 });
      const r = runRtlProcesses(prog, { warmupCycles: 1000, windowCycles: 6000, cpuLinks: 2 });
      expect(r.sys.rec.anomalies).toEqual([]);
      expect(checkDeliveries(r)).toEqual({ wrong: 0, twice: 0 });
      expect(r.delivered).toBeGreaterThan(100);
      // control blocks are the program's channel end numbers
      for (let p = 0; p < 16; p++) for (let s = 0; s < 4; s++) {
        const q = prog.peerOf(p, s);
        if (prog.nodeOf(p) !== prog.nodeOf(q)) expect(r.channelSlot(p, q)).toBe(prog.channelSlot(p, q));
      }
      for (let p = 0; p < 16; p++) {
        const its = r.began[p]!.length - 1;
        expect(its).toBeGreaterThanOrEqual(3);
        // each begun iteration sends to the four torus neighbours in slot order
        expect(r.sends[p]!.slice(0, 8).map((x) => x.dest)).toEqual([0, 1, 2, 3, 0, 1, 2, 3].map((s) => prog.peerOf(p, s)));
      }
      expect(() => runRtlProcesses(prog, { warmupCycles: 0, windowCycles: 1000, drainCycles: 100 })).toThrow(/no drain/);
    },
    LONG,
  );
});
