/**
 * c104-two-phase (seed 004 Figs 4.9, 4.10): every verdict rule with a
 * control just outside its bound (synthetic results through the
 * experiment's own check function), and (ICEMU_FULL=1) the quick run on
 * the 8×8 mesh, where the statements are claimed (5 packet-passing points,
 * token passing split equally at 210 and at 198/2). The full run's figures
 * are in docs/thesis-model.md#figs-49-410.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { c104TwoPhase, NEARLY_10, twoPhaseChecks, twoPhaseConfig, WITHIN_2 } from '../../harness/experiments/c104-two-phase.ts';
import { resolveC104Config } from '../../harness/tlm/t9000-c104/index.ts';
import { exchangeRate } from '../../harness/experiments/c104-table43.ts';
import { PacketNetwork } from '../../harness/tlm/t9000-c104/packet-network.ts';

const ok = (x: number) => ({ exchangesPerMs: x, converged: true });
const holds = (checks: ReturnType<typeof twoPhaseChecks>, id: string) => checks.find((c) => c.id === id)!.holds;
const steps = (inBand: number, up: number) => new Map([[35, ok(1000)], [50, ok(1000 * (1 + inBand))], [70, ok(1000 * (1 + up))], [85, ok(1000 * (1 + up))]]);

describe('c104-two-phase verdict rules and controls', () => {
  it('steps: flat within a 35-token band and a rise above 2% holds; 1% inside a band or a 2% rise fails', () => {
    expect(holds(twoPhaseChecks(steps(0.009, 0.05), new Map(), undefined), 'f4.9-steps')).toBe(true);
    expect(holds(twoPhaseChecks(steps(0.011, 0.05), new Map(), undefined), 'f4.9-steps')).toBe(false);
    expect(holds(twoPhaseChecks(steps(0, 0.019), new Map(), undefined), 'f4.9-steps')).toBe(false);
  });

  it(`asymptote: packet ${NEARLY_10[0]}–${NEARLY_10[1]}% below token at the largest common buffer holds; 0.01 point outside fails`, () => {
    const v = (below: number) => holds(twoPhaseChecks(new Map([[35, ok(1)], [210, ok(1000 * (1 - below / 100))]]), new Map([[210, ok(1000)]]), undefined), 'f4.9-asymptote');
    expect(v(NEARLY_10[0])).toBe(true);
    expect(v(NEARLY_10[1])).toBe(true);
    expect(v(NEARLY_10[0] - 0.01)).toBe(false);
    expect(v(NEARLY_10[1] + 0.01)).toBe(false);
  });

  it(`Fig. 4.10: token 198/2 within ±${WITHIN_2}% of packet 200 holds; 0.01% outside fails`, () => {
    const v = (dev: number) => holds(twoPhaseChecks(new Map([[200, ok(1000)]]), new Map(), ok(1000 * (1 + dev / 100))), 'f4.10-198-200');
    expect(v(WITHIN_2)).toBe(true);
    expect(v(-WITHIN_2)).toBe(true);
    expect(v(WITHIN_2 + 0.01)).toBe(false);
    expect(v(-WITHIN_2 - 0.01)).toBe(false);
  });

  it('configurations: two-phase everywhere; token split equally or 198/2 with the thesis T9000 layer; packet buffer on the input', () => {
    const t = resolveC104Config({ side: 8, ...twoPhaseConfig({ model: 'token-balanced', buffer: 140 }) });
    expect([t.routing, t.linkModel, t.inputBufferTokens, t.outputBufferTokens, t.t9000Links, t.virtualLinks]).toEqual(['two-phase', 'token-credit', 70, 70, 'hunt-group', 'per-message']);
    const t2 = resolveC104Config({ side: 8, ...twoPhaseConfig({ model: 'token-198', buffer: 200 }) });
    expect([t2.inputBufferTokens, t2.outputBufferTokens]).toEqual([198, 2]);
    const p = resolveC104Config({ side: 8, ...twoPhaseConfig({ model: 'packet', buffer: 35 }) });
    expect([p.routing, p.linkModel, p.inputBufferTokens]).toEqual(['two-phase', 'packet', 35]);
  });
});

/**
 * docs/thesis-model.md#figs-49-410, "Where band 1's rise sits": the in-band rise is acks (2–3 tokens, their own room)
 * passing a waiting data packet, and the phase-2 buffers holding two 34-token packets at 68. The control removes both
 * by patching the packet model's room rule for this test only (not an option: the seed gives no such rule).
 */
describe("Fig. 4.9's in-band rise, measured (8×8 packet passing, two-phase)", () => {
  afterEach(() => vi.restoreAllMocks());
  const rate = (buffer: number) => exchangeRate(8, 4, twoPhaseConfig({ model: 'packet', buffer })).exchangesPerMs;
  const rates = (bs: number[]) => new Map(bs.map((b) => [b, rate(b)] as const));
  it('default: steps at 36 and 38 (ack room) and 68 (two phase-2 packets) inside the 35–69 band', () => {
    const r = rates([35, 36, 37, 38, 67, 68, 69]);
    const up = (a: number, b: number) => r.get(b)! / r.get(a)! - 1;
    // Measured: 1694, 1771, 1771, 1903, 1902, 2044, 2044 (+4.5%, +7.5%, +7.5%).
    expect([up(35, 36), up(37, 38), up(67, 68)].every((x) => x > 0.03), [...r].join(' ')).toBe(true);
    expect(Math.abs(up(36, 37)) + Math.abs(up(68, 69)), [...r].join(' ')).toBeLessThan(0.005);
  }, 120_000);
  it('control: every packet, data or ack, given one phase-1 data packet\'s room (35 tokens): flat within each band, a step at 70', () => {
    vi.spyOn(PacketNetwork.prototype as unknown as { need(): number }, 'need').mockReturnValue(35);
    const r = rates([35, 38, 50, 68, 69, 70, 85]);
    // Measured: 1649 at 35–69, 2084 at 70 and 85 (+26.4%).
    const band1 = [35, 38, 50, 68, 69].map((b) => r.get(b)!);
    expect(Math.max(...band1) / Math.min(...band1) - 1, [...r].join(' ')).toBeLessThan(0.005);
    expect(Math.abs(r.get(85)! / r.get(70)! - 1), [...r].join(' ')).toBeLessThan(0.005);
    expect(r.get(70)! / r.get(69)! - 1, [...r].join(' ')).toBeGreaterThan(0.2);
  }, 120_000);
});

const FULL = Boolean(process.env.ICEMU_FULL);

// The quick run takes about 2.5 min here (the token-credit points about 70 s each): ICEMU_FULL=1 only.
describe.skipIf(!FULL)('c104-two-phase --quick (8×8 mesh, ICEMU_FULL=1)', () => {
  const q = c104TwoPhase.params({ quick: true });
  const pts = c104TwoPhase.points(q);
  const rep = c104TwoPhase.assemble(q, pts, pts.map((p) => c104TwoPhase.runPoint(p, q)));

  it('every point runs; the verdicts are as recorded in docs/thesis-model.md#figs-49-410', () => {
    expect(rep.checks.map((c) => [c.id, c.holds])).toEqual(QUICK_VERDICTS);
  });
}, 1_800_000);

// docs/thesis-model.md#figs-49-410: within-band difference 12.9% (35 vs 50 tokens), packet 15.3% below token at 210, 198/2 +0.78%.
const QUICK_VERDICTS: [string, boolean | null][] = [
  ['f4.9-steps', false],
  ['f4.9-asymptote', false],
  ['f4.10-198-200', true],
];
