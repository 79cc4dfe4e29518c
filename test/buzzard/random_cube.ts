/**
 * Random Buzzard workloads for the lock-step tests of the per-word changes
 * (word_folds.test.ts, stop 23; word_arrival.test.ts, stop 24): cube sizes
 * 2–4, rates, lengths, routing, strict framing on and off, broadcasts, small
 * CAMs and FIFOs half the time; a cube built with its chapter-5 workload,
 * broadcasts and event recorder.
 */
import fc from 'fast-check';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import type { BuzzardNodeOptions } from '../../rtl/buzzard/node.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { attachEvents } from '../../harness/rtl/events.ts';
import { messagePattern, scheduleWorkload } from '../../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../../harness/workloads/index.ts';

export interface CubeParams {
  n: number;
  strict: boolean;
  routing: 'quasi-adaptive' | 'e-cube';
  meanBytes: number;
  gapTicks: number;
  seed: number;
  broadcasts: { src: number; bytes: number; cycle: number }[];
  cycles: number;
  camHeight?: number;
  fifoDepth?: number;
}

/** The cube of `p` with its workload and broadcasts scheduled and an event recorder attached. */
export function buildCube(p: CubeParams, mode: SimMode, options: BuzzardNodeOptions) {
  const cube = new BuzzardCube(
    { n: p.n, strictFraming: p.strict, routing: p.routing, ...(p.camHeight ? { camHeight: p.camHeight } : {}), ...(p.fifoDepth ? { fifoDepth: p.fifoDepth } : {}) },
    'cube',
    options,
  );
  const sim = new Simulator(cube, { mode });
  const driver = new CubeDriver(sim, cube);
  scheduleWorkload(driver, buzzardCh5Workload({ cubeDegree: p.n, meanBytes: p.meanBytes, meanGapTicks: p.gapTicks, durationTicks: (p.cycles * 0.6) / 4.5, seed: p.seed }));
  const N = 1 << p.n;
  p.broadcasts.forEach((b, k) => {
    const type = 0x7000 + k;
    for (let a = 0; a < N; a++) if (a !== b.src) driver.receive(a, b.src, b.bytes, 0, type);
    driver.broadcast(b.src, messagePattern(5000 + k, b.bytes), b.cycle, type);
  });
  const rec = attachEvents(sim, cube, driver);
  return { sim, rec, driver, cube };
}

export const cubeParams: fc.Arbitrary<CubeParams> = fc
  .record({
    n: fc.integer({ min: 2, max: 4 }),
    strict: fc.boolean(),
    routing: fc.constantFrom('quasi-adaptive' as const, 'e-cube' as const),
    meanBytes: fc.integer({ min: 8, max: 160 }),
    gapTicks: fc.integer({ min: 30, max: 200 }),
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    nb: fc.array(fc.record({ src: fc.nat(15), bytes: fc.integer({ min: 1, max: 90 }), cycle: fc.integer({ min: 0, max: 1500 }) }), { maxLength: 2 }),
    cycles: fc.integer({ min: 1500, max: 3000 }),
    small: fc.boolean(),
  })
  .map(({ nb, small, ...r }) => ({
    ...r,
    broadcasts: nb.map((b) => ({ ...b, src: b.src % (1 << r.n) })),
    ...(small ? { camHeight: 2, fifoDepth: 2 } : {}),
  }));

/** A loaded 3-cube: cut-through reads on the heels of the writes at many PBUs. */
export const LOADED: CubeParams = { n: 3, strict: false, routing: 'quasi-adaptive', meanBytes: 60, gapTicks: 40, seed: 7, broadcasts: [], cycles: 2500 };

/** One cycle; a unit assertion (part of the behaviour compared) as its text, else ''. */
export function stepOrError(sim: Simulator): string {
  try {
    sim.step(1);
    return '';
  } catch (e) {
    return String(e);
  }
}
