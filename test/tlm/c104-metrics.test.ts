/**
 * The T9000/C104 TLM's metrics (docs/thesis-model.md#metrics), each against
 * a hand-computed value on a small run: T9000 queue time against throttling
 * (the same wait taken in the T9000 or at the first internal link), lifetime
 * from first output, routed lifetime over data and acks (Table 6.2's
 * reading), the per-CPU load map, the acks each node owes (Fig. 5.6) and CPU
 * utilisation. Transport time and
 * routed lifetime at zero load are in c104-model.test.ts; the per-switch load
 * map too.
 */
import { describe, expect, it } from 'vitest';
import { runC104 } from '../../harness/tlm/t9000-c104/index.ts';
import type { IterationPlan, ProcessProgram, SyncMode } from '../../harness/workloads/process-program.ts';

const RUN = { fixedNs: 100_000, checkpointNs: 50_000, truncate: false };

/** Each process sends its messages at t = 1 ns (after 1 ns of compute), then computes for a long time. */
function oneShot(side: number, sends: Map<number, { dest: number; bytes: number }[]>): ProcessProgram {
  return {
    name: 'one-shot',
    params: {},
    mode: 'async' as SyncMode,
    side,
    processes: side * side,
    nodeOf: (p) => p,
    plan: (p, k): IterationPlan => (k === 0 ? { computeNs: 1, sends: sends.get(p) ?? [] } : { computeNs: 1e9, sends: [] }),
    startNs: () => 0,
    incoming: () => 0,
  };
}

/** One process, on CPU 0 of a 4×4 mesh, computing 10 µs per iteration and sending nothing. */
const loop: ProcessProgram = { name: 'loop', params: {}, mode: 'async', side: 4, processes: 1, nodeOf: () => 0, plan: () => ({ computeNs: 10_000, sends: [] }), startNs: () => 0, incoming: () => 0 };

describe('queue time, lifetime from first output, routed lifetime (two 32-byte packets 0 → 15 on a 4×4 mesh, 8 links)', () => {
  // Each packet crosses in 3340 + 7·100 = 4040 ns alone; the second waits one packet time (3340 ns) for the first.
  const two = new Map([[0, [{ dest: 15, bytes: 32 }, { dest: 15, bytes: 32 }]]]);
  const run = (cpuLinkWidth: number) => runC104(oneShot(4, two), { side: 4, cpuLinkWidth }, RUN).summary;
  it('CPU link width 1: the second data packet waits 3340 ns in the T9000 (queue 1.67 µs mean); lifetime = transport − queue', () => {
    const s = run(1);
    expect(s.data.count).toBe(2);
    expect(s.data.transport! * 1000).toBeCloseTo((4040 + 4040 + 3340) / 2, 6);
    expect(s.data.queue! * 1000).toBeCloseTo(3340 / 2, 6);
    expect(s.data.lifetime! * 1000).toBeCloseTo(4040, 6);
    expect(s.data.routed! * 1000).toBeCloseTo(3340 + 600, 6);
    expect(s.firstHopWait).toBe(0);
  });
  it('control, width 4: the same wait is taken at the first internal link (throttling), not in the T9000: queue 0, lifetime = transport', () => {
    const s = run(4);
    expect(s.data.transport! * 1000).toBeCloseTo((4040 + 4040 + 3340) / 2, 6);
    expect(s.data.queue).toBe(0);
    expect(s.data.lifetime! * 1000).toBeCloseTo((4040 + 4040 + 3340) / 2, 6);
    expect(s.firstHopWait! * 1000).toBeCloseTo(3340 / 4, 6);
  });
  it('routed lifetime over data and acks together: (2 · 3940 + 2 · 740) / 4 ns', () => {
    const s = run(4);
    expect(s.ack.routed! * 1000).toBeCloseTo(140 + 600, 6);
    expect(s.routedAll! * 1000).toBeCloseTo((2 * 3940 + 2 * 740) / 4, 6);
  });
});

describe('load map and CPU utilisation', () => {
  it('per source CPU: data packets delivered per ms (node 0 two, node 2 one, in 0.1 ms)', () => {
    const r = runC104(oneShot(4, new Map([[0, [{ dest: 3, bytes: 32 }, { dest: 5, bytes: 32 }]], [2, [{ dest: 3, bytes: 32 }]]])), { side: 4 }, RUN);
    expect(r.loadMap).toEqual([20, 0, 10, ...Array(13).fill(0)]);
  });
  it('acks owed per node: node 15 owes the ack of 0 → 15 from its creation (header in, 801 ns) to its delivery (1641 ns); none at the end', () => {
    const one = new Map([[0, [{ dest: 15, bytes: 32 }]]]);
    const at = (ns: number) => runC104(oneShot(4, one), { side: 4 }, { fixedNs: ns, checkpointNs: ns / 2, truncate: false }).ackBacklog;
    expect(at(800)).toEqual(Array(16).fill(0));
    expect(at(1_000)).toEqual([...Array(15).fill(0), 1]);
    expect(at(1_640)).toEqual([...Array(15).fill(0), 1]);
    expect(at(1_700)).toEqual(Array(16).fill(0));
  });
  it('CPU utilisation: completed compute over CPUs × window — one of 16 CPUs, 9 periods of 10 µs complete in 95 µs', () => {
    const s = runC104(loop, { side: 4 }, { fixedNs: 95_000, checkpointNs: 5_000, truncate: false }).summary;
    expect(s.cpuUtilisation).toBeCloseTo((9 * 10_000) / (16 * 95_000), 12);
    // Control: every CPU computing all the time (16 processes) reads 9 / 9.5 of 100%, not 1/16 of it.
    const all = runC104({ ...loop, processes: 16, nodeOf: (p) => p }, { side: 4 }, { fixedNs: 95_000, checkpointNs: 5_000, truncate: false }).summary;
    expect(all.cpuUtilisation).toBeCloseTo(90 / 95, 12);
  });
});
