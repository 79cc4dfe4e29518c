/**
 * nbl-testjig: Littlefield's node-bandwidth-limit test jig (seed 001 §4.2,
 * Table 1; docs/sources.md, cost-models §3.2) run on the Buzzard node, clock by
 * clock (the RTL cube of rtl/buzzard).
 *
 * Littlefield's jig: the centre node of a 3×3 DELTA mesh receives a block of
 * S doubles from one neighbour (L = 1) or exchanges blocks with one, two or
 * three neighbours (L = 2, 4, 6: as many sending as receiving links); T(L) is
 * the time for the whole exchange, dT(L) the difference between adjacent S
 * and f(L) = dT(L)/dT(1). Here: node 0 of a Buzzard 3-cube with its three
 * neighbours (harness/workloads/littlefield.ts), every send and receive
 * issued at cycle 0, T(L) = the cycle at which every send and receive of the
 * exchange is complete (the completion flags the CPU would poll), in link
 * bit cycles. Differencing over S removes the fixed per-message costs, as in
 * the seed.
 */
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { CubeDriver } from '../rtl/cube_driver.ts';
import { scheduleWorkload } from '../rtl/run_workload.ts';
import { littlefieldJigWorkload } from '../workloads/littlefield.ts';
import { F_FITTED_VALUES, LITTLEFIELD_TABLE1, LITTLEFIELD_TABLE1_PRINTED, recomputeTable1 } from '../models/littlefield.ts';
import { defineExperiment, num, type ReportTable, type SeedCheck } from './types.ts';
import { intactBytes } from '../rtl/intact.ts';

export interface NblParams {
  readonly quick: boolean;
  readonly cubeDegree: number;
  readonly centre: number;
  readonly links: readonly (1 | 2 | 4 | 6)[];
  /** Block sizes S, doubles (8 bytes), increasing. */
  readonly sizes: readonly number[];
  readonly bytesPerElement: number;
}

export interface NblPt {
  readonly L: 1 | 2 | 4 | 6;
  readonly S: number;
}

export interface NblRes {
  /** Cycles from the first send until every send and receive of the exchange is complete. */
  readonly cycles: number;
  readonly messages: number;
  readonly bytes: number;
  /** Every receive got its bytes, unaltered. */
  readonly intact: boolean;
}

export function runJig(p: NblPt, q: NblParams): NblRes {
  const cube = new BuzzardCube({ n: q.cubeDegree });
  const sim = new Simulator(cube);
  const drv = new CubeDriver(sim, cube);
  const w = littlefieldJigWorkload({ cubeDegree: q.cubeDegree, centre: q.centre, L: p.L, S: p.S, bytesPerElement: q.bytesPerElement });
  const sched = scheduleWorkload(drv, w);
  const bytes = p.S * q.bytesPerElement;
  const bound = 40 * bytes * Math.max(1, p.L) + 20_000;
  const r = sim.runUntil(() => drv.allComplete(), bound);
  if (!r.reached) throw new Error(`nbl-testjig: L = ${p.L}, S = ${p.S} not complete within ${bound} cycles`);
  const intact = sched.every((m) => {
    const got = drv.received(m.receive);
    return got.error === 0 && got.length === m.send.data.length && intactBytes(got.bytes, m.send.data);
  });
  return { cycles: sim.cycle, messages: w.messages.length, bytes, intact };
}

function resolveParams(cli: { quick: boolean; sizes?: readonly number[] }): NblParams {
  const sizes = cli.sizes ? [...cli.sizes] : cli.quick ? [6, 12, 30, 60] : [...LITTLEFIELD_TABLE1.S];
  if (sizes.length < 2) throw new RangeError(`--sizes needs at least two block sizes (got ${sizes.join(',') || 'none'})`);
  sizes.forEach((s, i) => {
    if (!(Number.isInteger(s) && s >= 1 && s <= 20_000)) throw new RangeError(`--sizes: ${s} is not a whole number of doubles in 1..20000`);
    if (i > 0 && s <= sizes[i - 1]!) throw new RangeError(`--sizes must increase (got ${sizes.join(',')})`);
  });
  return { quick: cli.quick, cubeDegree: 3, centre: 0, links: [1, 2, 4, 6], sizes, bytesPerElement: 8 };
}

export const nblTestjig = defineExperiment<NblPt, NblRes, NblParams>({
  name: 'nbl-testjig',
  summary: "Littlefield's f(L) test jig on the Buzzard node (RTL): centre node exchanging with L/2 neighbours, T(L), dT(L), f(L) = dT(L)/dT(1) beside the DELTA's Table 1",
  source: 'seed 001 (Littlefield 1992) §4.2 Table 1 "Values of f(L) from a testjig program" (docs/sources.md, cost-models §3.2)',
  method: 'RTL Buzzard 3-cube (rtl/buzzard, every unit clock by clock, seed framing: 31-cycle head latency), node 0 and its three neighbours; sends and receives issued at cycle 0; time to the last completion flag, in link bit cycles',
  options: ['sizes'],
  params: resolveParams,
  points: (q) => q.sizes.flatMap((S) => q.links.map((L) => ({ L, S }))),
  cost: (p) => p.S * (p.L === 1 ? 1 : p.L),
  runPoint: runJig,
  assemble: (q, points, results) => {
    const T = (L: number, S: number): number => results[points.findIndex((p) => p.L === L && p.S === S)]!.cycles;
    const Ls = q.links;
    const S = q.sizes;
    const iv = S.slice(1).map((s, i) => ({ from: S[i]!, to: s }));
    const dT = (L: number): number[] => iv.map(({ from, to }) => T(L, to) - T(L, from));
    const f = (L: number): number[] => dT(L).map((d, i) => d / dT(1)[i]!);
    const delta = recomputeTable1();
    const sameSizes = S.length === LITTLEFIELD_TABLE1.S.length && S.every((s, i) => s === LITTLEFIELD_TABLE1.S[i]);
    const lastI = iv.length - 1;
    const fLast = (L: 2 | 4 | 6): number => f(L)[lastI]!;
    const fFirst = (L: 2 | 4 | 6): number => f(L)[0]!;
    const inRange = Ls.filter((L) => L > 1).every((L) => f(L).every((x) => x >= 0.95 && x <= L + 0.05));
    const checks: SeedCheck[] = [
      {
        id: 'intact',
        statement: 'the jig delivers every block intact (precondition)',
        seed: '-',
        measured: `${results.filter((r) => r.intact).length} of ${results.length} runs byte-exact`,
        rule: 'holds if every run is byte-exact',
        holds: results.every((r) => r.intact),
      },
      {
        id: 'nbl-range',
        statement: 'seed 001 §2: 1 ≤ f(L) ≤ L (f = 1 perfect overlap, f = L no overlap)',
        seed: 'DELTA Table 1: f(2) 1.6–1.9, f(4) 2.1–3.9, f(6) 3.5–5.8 (from its times)',
        measured: Ls.filter((L) => L > 1).map((L) => `f(${L}) ${f(L).map((x) => x.toFixed(2)).join(', ')}`).join('; '),
        rule: 'holds if every measured f(L) is within [1, L] (±0.05)',
        holds: inRange,
      },
      {
        id: 'long-messages-nbl',
        statement: 'seed 001 §4.2: "long messages are almost perfectly NBL constrained (f(L) = L)"',
        seed: `DELTA at S ${LITTLEFIELD_TABLE1.S[2]}→${LITTLEFIELD_TABLE1.S[3]}: f(2) ${delta.f[2][2]!.toFixed(2)}, f(4) ${delta.f[4][2]!.toFixed(2)}, f(6) ${delta.f[6][2]!.toFixed(2)}`,
        measured: `Buzzard at S ${iv[lastI]!.from}→${iv[lastI]!.to}: f(2) ${fLast(2).toFixed(2)}, f(4) ${fLast(4).toFixed(2)}, f(6) ${fLast(6).toFixed(2)}`,
        rule: 'holds if f(L) ≥ 0.9·L for L = 2, 4, 6 at the largest blocks',
        holds: ([2, 4, 6] as const).every((L) => fLast(L) >= 0.9 * L),
      },
      {
        id: 'short-messages-overlap',
        statement: 'seed 001 §4.2: "shorter messages show some overlap (f(L) < L)", i.e. f(L) grows with the block size',
        seed: `DELTA f(L) at the smallest vs largest interval: f(2) ${delta.f[2][0]!.toFixed(2)}→${delta.f[2][2]!.toFixed(2)}, f(4) ${delta.f[4][0]!.toFixed(2)}→${delta.f[4][2]!.toFixed(2)}, f(6) ${delta.f[6][0]!.toFixed(2)}→${delta.f[6][2]!.toFixed(2)}`,
        measured: ([2, 4, 6] as const).map((L) => `f(${L}) ${fFirst(L).toFixed(2)}→${fLast(L).toFixed(2)}`).join(', '),
        rule: 'holds if f(L) at the smallest interval is below f(L) at the largest for L = 2, 4, 6',
        holds: ([2, 4, 6] as const).every((L) => fFirst(L) < fLast(L)),
      },
      {
        id: 'buzzard-half-nbl',
        statement: '[derived] Buzzard node: sends leave on separate node-output-port slots and links (A4) but every arriving block passes the one node input port (crossbar output O_0, §8.3, §8.5), so for long blocks f(L) → L/2',
        seed: 'f(2) → 1, f(4) → 2, f(6) → 3 (expectation from the hardware description, not a seed number)',
        measured: `f(2) ${fLast(2).toFixed(2)}, f(4) ${fLast(4).toFixed(2)}, f(6) ${fLast(6).toFixed(2)} at the largest blocks`,
        rule: 'holds if within 10% of L/2 for L = 2, 4, 6',
        holds: ([2, 4, 6] as const).every((L) => Math.abs(fLast(L) - L / 2) <= 0.1 * (L / 2)),
      },
    ];
    const tables: ReportTable[] = [
      {
        title: `Buzzard node (RTL ${q.cubeDegree}-cube, node ${q.centre}): T(L) in link bit cycles, in Littlefield's Table 1 layout`,
        columns: ['S', 'T(1)', 'dT(1)', 'T(2)', 'dT(2)', 'f(2)', 'T(4)', 'dT(4)', 'f(4)', 'T(6)', 'dT(6)', 'f(6)'],
        rows: S.flatMap((s, i) => {
          const row: (string | number | null)[] = [s, T(1, s), null, T(2, s), null, null, T(4, s), null, null, T(6, s), null, null];
          if (i === 0) return [row];
          const k = i - 1;
          const between: (string | number | null)[] = [`${S[k]}→${s}`, null, dT(1)[k]!, null, dT(2)[k]!, f(2)[k]!, null, dT(4)[k]!, f(4)[k]!, null, dT(6)[k]!, f(6)[k]!];
          return [between, row];
        }),
        digits: [0, 0, 0, 0, 0, 2, 0, 0, 2, 0, 0, 2],
        notes: [`S = block size in doubles (${q.bytesPerElement} bytes); L = 1: receive one block; L = 2k: exchange with k neighbours.`],
      },
      {
        title: "Littlefield's Table 1 (Intel Touchstone DELTA, µs) as printed",
        columns: ['S', 'T(1)', 'dT(1)', 'T(2)', 'dT(2)', 'f(2)', 'T(4)', 'dT(4)', 'f(4)', 'T(6)', 'dT(6)', 'f(6)'],
        rows: LITTLEFIELD_TABLE1.S.flatMap((s, i) => {
          const row: (string | number | null)[] = [s, LITTLEFIELD_TABLE1.T[1][i]!, null, LITTLEFIELD_TABLE1.T[2][i]!, null, null, LITTLEFIELD_TABLE1.T[4][i]!, null, null, LITTLEFIELD_TABLE1.T[6][i]!, null, null];
          if (i === 0) return [row];
          const k = i - 1;
          const P = LITTLEFIELD_TABLE1_PRINTED;
          return [[`${LITTLEFIELD_TABLE1.S[k]}→${s}`, null, P.dT[1][k]!, null, P.dT[2][k]!, P.f[2][k]!, null, P.dT[4][k]!, P.f[4][k]!, null, P.dT[6][k]!, P.f[6][k]!], row];
        }),
        digits: [0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 1],
        notes: ['Printed f(6) 60→120 = 3.8 (the times give 3.54); the last f(6) is OCR ".8" (the times give 5.84). docs/sources.md, cost-models §3.2.'],
      },
      {
        title: 'f(L) side by side',
        columns: ['interval', 'L', 'Buzzard f(L)', 'DELTA printed', 'DELTA from T', 'fitted NBL', 'nominal NBL'],
        rows: iv.flatMap((v, k) =>
          ([2, 4, 6] as const).map((L) => [
            `${v.from}→${v.to}`,
            L,
            f(L)[k]!,
            sameSizes ? LITTLEFIELD_TABLE1_PRINTED.f[L][k]! : null,
            sameSizes ? delta.f[L][k]! : null,
            F_FITTED_VALUES[L],
            L,
          ]),
        ),
        digits: [0, 0, 2, 1, 2, 1, 0],
        notes: sameSizes ? [] : ['DELTA columns only where the block sizes are the seed\'s (60, 120, 300, 600).'],
      },
    ];
    const cyclesPerByte = dT(1)[lastI]! / ((iv[lastI]!.to - iv[lastI]!.from) * q.bytesPerElement);
    return {
      tables,
      checks,
      plots: [
        {
          id: 'time',
          title: 'Test jig on the Buzzard node: T(L) against block size',
          xLabel: 'block size S (doubles)',
          yLabel: 'T(L) (link bit cycles)',
          series: Ls.map((L) => ({ name: `L = ${L}`, points: S.map((s) => [s, T(L, s)] as [number, number]) })),
        },
        {
          id: 'f',
          title: 'f(L) = dT(L)/dT(1): Buzzard node (solid) vs DELTA Table 1 (dashed)',
          xLabel: 'upper block size of the interval (doubles)',
          yLabel: 'f(L)',
          xLog: true,
          series: [
            ...([2, 4, 6] as const).map((L, k) => ({ name: `Buzzard f(${L})`, color: ['#1f77b4', '#d62728', '#2ca02c'][k], points: iv.map((v, i) => [v.to, f(L)[i]!] as [number, number]) })),
            ...([2, 4, 6] as const).map((L, k) => ({
              name: `DELTA f(${L})`,
              color: ['#1f77b4', '#d62728', '#2ca02c'][k],
              dashed: true,
              points: LITTLEFIELD_TABLE1.S.slice(1).map((s, i) => [s, delta.f[L][i]!] as [number, number]),
            })),
          ],
        },
      ],
      notes: [
        `One block moves at ${num(cyclesPerByte, 2)} cycles per byte (L = 1, largest interval): 8 data bits in 9 bit times on the wire plus the packet overheads (4-byte header, preheader, syncs: 299 bits per 28 data bytes = 10.68 per byte).`,
        'Times are link bit cycles of the RTL; the DELTA times are µs of Intel software (csend/crecv) on a different machine: only the ratios f(L) compare.',
        q.quick ? '--quick: blocks of 6…60 doubles (a tenth of the seed\'s).' : `Block sizes ${S.join(', ')} doubles as in the seed.`,
      ],
      data: { intervals: iv.map((v) => `${v.from}→${v.to}`), dT: { 1: dT(1), 2: dT(2), 4: dT(4), 6: dT(6) }, f: { 2: f(2), 4: f(4), 6: f(6) }, cyclesPerByte },
    };
  },
});
