/**
 * The token-credit (RTL-calibrated) mode of the T9000/C104 TLM
 * (harness/tlm/t9000-c104/token-network.ts) held against the RTL C104 mesh
 * with T9000 endpoints and real DS-links, at zero load on a 4×4 mesh
 * (one message at a time; both sides tie a channel to T9000 link
 * `end number mod 4`, the TLM's t9000Links 'per-channel'): every stamp
 * equal (the declared bounds of harness/compare/c104_rtl.ts are 0…0), each
 * bound with a control 1 cycle outside; the TLM's 'hunt-group' link choice
 * equals the RTL with every channel on link 0, and differs from the RTL's
 * spread channels (a control).
 * The full set (7 paths × 10 sizes, about 40 s of RTL) runs with ICEMU_FULL=1.
 */
import { describe, expect, it } from 'vitest';
import { runRtlMesh, runTlmMesh, zeroLoadDeviations, STAMPS, ZERO_LOAD_BOUNDS } from '../../harness/compare/c104_rtl.ts';
import { resolveC104Config, runC104, TOKEN_CREDIT_PRESET } from '../../harness/tlm/t9000-c104/index.ts';
import { SyntheticProgram } from '../../harness/workloads/thesis-synthetic.ts';
import type { TimedMessage } from '../../harness/workloads/timed-messages.ts';

const FULL = Boolean(process.env.ICEMU_FULL);

function zeroLoadMessages(pairs: readonly (readonly [number, number])[], sizes: readonly number[]): TimedMessage[] {
  const out: TimedMessage[] = [];
  let t = 0;
  for (const [src, dst] of pairs) for (const bytes of sizes) out.push({ t: (t += 30_000), src, dst, bytes });
  return out;
}

// Paths on the 4×4 mesh (node y·4 + x): 1 hop east, 1 hop north, 6 hops NE, 2 hops, 6 hops NW, 6 hops SE, 4 hops.
const PAIRS_FULL = [[0, 1], [0, 4], [0, 15], [5, 10], [3, 12], [12, 3], [7, 8]] as const;
const SIZES_FULL = [0, 1, 2, 8, 31, 32, 33, 64, 65, 100];
const PAIRS_QUICK = [[0, 1], [0, 15], [3, 12], [7, 8]] as const;
const SIZES_QUICK = [0, 1, 32, 33, 65];

describe('token-credit TLM vs RTL at zero load, 4×4 mesh', () => {
  const msgs = FULL ? zeroLoadMessages(PAIRS_FULL, SIZES_FULL) : zeroLoadMessages(PAIRS_QUICK, SIZES_QUICK);
  const rtl = runRtlMesh(msgs, { side: 4 });
  const tlm = runTlmMesh(msgs, { side: 4, ...TOKEN_CREDIT_PRESET });
  const hunt = runTlmMesh(msgs, { side: 4, ...TOKEN_CREDIT_PRESET, t9000Links: 'hunt-group' });

  it('both sides deliver every message', () => {
    expect(rtl.complete).toBe(true);
    expect(tlm.complete).toBe(true);
  });

  it('every stamp of every message is within the declared bounds', () => {
    const devs = zeroLoadDeviations(rtl.times, tlm.times);
    for (const d of devs) expect(d.pass, `${d.stamp}: ${d.min}…${d.max} cycles, bound ${d.bound.join('…')}`).toBe(true);
  });

  it('every stamp of every message is equal (0…0 cycles)', () => {
    for (const d of zeroLoadDeviations(rtl.times, tlm.times)) expect([d.stamp, d.min, d.max]).toEqual([d.stamp, 0, 0]);
  });

  it('controls: each bound, moved 1 cycle inside its measured extreme, fails', () => {
    const devs = zeroLoadDeviations(rtl.times, tlm.times);
    for (const s of STAMPS) {
      const d = devs.find((x) => x.stamp === s)!;
      const lower = { ...ZERO_LOAD_BOUNDS, [s]: [d.min + 1, ZERO_LOAD_BOUNDS[s][1]] };
      const upper = { ...ZERO_LOAD_BOUNDS, [s]: [ZERO_LOAD_BOUNDS[s][0], d.max - 1] };
      expect(zeroLoadDeviations(rtl.times, tlm.times, lower).find((x) => x.stamp === s)!.pass, `${s} lower`).toBe(false);
      expect(zeroLoadDeviations(rtl.times, tlm.times, upper).find((x) => x.stamp === s)!.pass, `${s} upper`).toBe(false);
    }
  });

  it('control: the TLM shifted 1 cycle past a declared bound fails', () => {
    const devs = zeroLoadDeviations(rtl.times, tlm.times);
    // Shift by the room left to the nearest bound plus one cycle: some stamp lands 1 cycle outside.
    const room = Math.min(...devs.map((d) => d.bound[1] - d.max));
    const shifted = zeroLoadDeviations(rtl.times, tlm.times, ZERO_LOAD_BOUNDS, room + 1);
    expect(shifted.some((d) => !d.pass)).toBe(true);
    expect(zeroLoadDeviations(rtl.times, tlm.times, ZERO_LOAD_BOUNDS, room).every((d) => d.pass)).toBe(true);
    // And 1 cycle below the lower bounds.
    const below = Math.min(...devs.map((d) => d.min - d.bound[0]));
    expect(zeroLoadDeviations(rtl.times, tlm.times, ZERO_LOAD_BOUNDS, -below - 1).some((d) => !d.pass)).toBe(true);
  });

  it("the 'hunt-group' link choice equals the RTL with every channel on link 0 (the link it takes when all are idle)", () => {
    const link0 = runRtlMesh(msgs, { side: 4, link0: true });
    for (const d of zeroLoadDeviations(link0.times, hunt.times)) expect([d.stamp, d.min, d.max]).toEqual([d.stamp, 0, 0]);
  });

  it("control: the 'hunt-group' link choice against the RTL's spread channels is not matched exactly", () => {
    expect(zeroLoadDeviations(rtl.times, hunt.times).every((d) => d.pass)).toBe(false);
  });
}, 300_000);

describe('token-credit mode: configuration and delivery', () => {
  it('refuses what it does not model, one line naming the field', () => {
    expect(() => resolveC104Config({ ...TOKEN_CREDIT_PRESET, routing: 'two-phase' })).toThrow(/c104\.routing: the token-credit link model supports xy and yx/);
    expect(() => resolveC104Config({ ...TOKEN_CREDIT_PRESET, mode: 'throttled' })).toThrow(/c104\.mode: the token-credit link model supports only "full"/);
    expect(() => resolveC104Config({ ...TOKEN_CREDIT_PRESET, crossbarPolicy: 'random' })).toThrow(/c104\.crossbarPolicy/);
    expect(() => resolveC104Config({ ...TOKEN_CREDIT_PRESET, inputBufferTokens: 7 })).toThrow(/c104\.inputBufferTokens/);
    expect(() => resolveC104Config({ t9000Links: 'per-channel' })).toThrow(/c104\.t9000Links: 'per-channel' is modelled by the token-credit link model only/);
  });

  it('a loaded synthetic run delivers and acknowledges every message and is deterministic', () => {
    const k = (value: number) => ({ law: 'constant' as const, value });
    const prog = new SyntheticProgram({ D: 4, d: 2, n: 1, c: k(2), m: k(1), M: k(64), mode: 'async-blocking', window: 'pm-d', startPhase: 'random', seed: 3 });
    const run = () => runC104(prog, { side: 4, ...TOKEN_CREDIT_PRESET }, { fixedNs: 500_000, truncate: false });
    const a = run();
    const b = run();
    expect(a.summary).toEqual(b.summary);
    expect(a.eventsDispatched).toBe(b.eventsDispatched);
    expect(a.summary.data.count).toBeGreaterThan(500);
    expect(a.summary.ack.count).toBeGreaterThanOrEqual(a.summary.data.count - 16);
    expect(a.summary.networkUtilisation).toBeGreaterThan(0);
  });
});
