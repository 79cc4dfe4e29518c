/**
 * Recorded runs for the view tests: a loaded 3-cube under the chapter-5
 * workload, and the constructed 2-cube deadlock of test/buzzard/deadlock.test.ts
 * (contrary refusal off; the ring node0.pbu1 → node2.pbu2 → node3.pbu1 →
 * node1.pbu2), both with the recorder and the view events attached.
 */
import { Simulator } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { attachEvents, type EventRecorder } from '../../harness/rtl/events.ts';
import { attachViewEvents } from '../../harness/rtl/view_events.ts';
import { scheduleWorkload } from '../../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../../harness/workloads/index.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { vi } from 'vitest';
import { main } from '../../harness/cli.ts';
import { formatTrace } from '../../traces/events/vocabulary.ts';
import { CONSTRUCTED_BYTES, CONSTRUCTED_SENDS } from '../buzzard/constructed_deadlock.ts';

export interface Recorded {
  sim: Simulator;
  cube: BuzzardCube;
  rec: EventRecorder;
  text: string;
}

/** A 3-cube under a heavy chapter-5 load for `cycles` cycles. */
export function loadedCube3(cycles = 12_000, view = true): Recorded {
  const cube = new BuzzardCube({ n: 3 });
  const sim = new Simulator(cube);
  const driver = new CubeDriver(sim, cube);
  const w = buzzardCh5Workload({ cubeDegree: 3, meanBytes: 512, meanGapTicks: 1024, durationTicks: (cycles * 0.8) / 4.5, seed: 7 });
  scheduleWorkload(driver, w, { cyclesPerTick: 4.5 });
  const rec = attachEvents(sim, cube, driver);
  if (view) attachViewEvents(sim, cube, rec.events);
  sim.step(cycles);
  return { sim, cube, rec, text: formatTrace(rec.header, rec.events) };
}

/** The constructed deadlock, run until the view events record it (or `bound`). */
export function deadlockedCube2(bound = 30_000): Recorded {
  const cube = new BuzzardCube({ n: 2, camHeight: 2, contraryRefusal: false });
  const sim = new Simulator(cube);
  const driver = new CubeDriver(sim, cube);
  const payload = (k: number): number[] => Array.from({ length: CONSTRUCTED_BYTES }, (_, i) => (k * 37 + i * 11) & 0xff);
  CONSTRUCTED_SENDS.forEach(([src, dst, at], k) => {
    driver.receive(dst, src, CONSTRUCTED_BYTES, 0, k + 1);
    driver.send(src, dst, payload(k), at, k + 1);
  });
  const rec = attachEvents(sim, cube, driver);
  attachViewEvents(sim, cube, rec.events, { deadlockEvery: 100 });
  while (sim.cycle < bound && !rec.events.some((e) => e.kind === 'deadlock')) sim.step(100);
  sim.step(300);
  return { sim, cube, rec, text: formatTrace(rec.header, rec.events) };
}

/**
 * A recorded `icemu c104 mesh` run (2x2 mesh, every message delivered), as
 * the command writes it: `icemu c104 mesh --width 2 --height 2 --messages 2
 * --bytes 8 --events <path>`. Returns the trace text.
 */
export async function recordC104Mesh(path: string): Promise<string> {
  const r = await runIcemu(['c104', 'mesh', '--width', '2', '--height', '2', '--messages', '2', '--bytes', '8', '--seed', '1', '--events', path, '--quiet']);
  if (r.code !== 0) throw new Error(`icemu c104 mesh exited ${r.code}: ${r.err.join('; ')}`);
  return readFileSync(path, 'utf8');
}

/** Run an icemu command in-process, its console output captured. */
export async function runIcemu(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    return { code: await main(argv), out, err };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** `icemu c104 mesh` with 40-byte messages: long enough that links are held (no credit) and switch input buffers fill. */
export async function recordC104MeshHeld(path: string): Promise<string> {
  const r = await runIcemu(['c104', 'mesh', '--width', '2', '--height', '2', '--messages', '2', '--bytes', '40', '--seed', '1', '--events', path, '--quiet']);
  if (r.code !== 0) throw new Error(`icemu c104 mesh exited ${r.code}: ${r.err.join('; ')}`);
  return readFileSync(path, 'utf8');
}

/**
 * A deadlock recorded from the REPL: `icemu repl ring-deadlock` (4 C104s in a
 * ring, cyclic labelling, small buffers), `events start`, two messages from
 * every endpoint two switches clockwise, run, `deadlock`, `events stop`.
 * Returns the trace text and the REPL's output.
 */
export async function recordReplRingDeadlock(dir: string): Promise<{ text: string; out: string[] }> {
  const trace = join(dir, 'ring.jsonl');
  const script = join(dir, 'ring.icemu');
  const sends = [0, 1, 2, 3].flatMap((k) => [`send ${k} ${k} 96`, `send ${k} ${k} 96`]);
  writeFileSync(script, [`events start ${trace}`, ...sends, 'run 8000', 'deadlock', 'events stop', ''].join('\n'));
  const r = await runIcemu(['repl', 'ring-deadlock', '--script', script]);
  if (r.code !== 0) throw new Error(`icemu repl ring-deadlock exited ${r.code}: ${r.err.join('; ')}`);
  return { text: readFileSync(trace, 'utf8'), out: r.out };
}
