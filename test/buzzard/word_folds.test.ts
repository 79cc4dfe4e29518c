/**
 * Stop 23's per-word folds (docs/kernel.md "Stop 23: Buzzard per word")
 * against stop 22's process structure, their reference (`wordFolds: false`):
 * the folded cube in the fast mode ('activity') and the reference structure
 * in the reference mode ('plain': every process every cycle), run side by
 * side on random workloads (cubes 2–4, rates, lengths, routing, strict
 * framing on and off, broadcasts; small CAMs and FIFOs). The two designs
 * have different process and register sets, so they are compared by name:
 * at every cycle every wire and register of the reference structure (the
 * link bits and the RAM ports included) against the signal of the same path
 * in the folded one; at the end every memory word, the event traces and the
 * state of the drivers. The folded design's own registers are the RAM
 * ports' drivers (joined to the ports, so compared through them).
 *
 * Negative controls: two deliberately wrong folds (pbu_kit.ts WRONG_FOLD)
 * must be caught; the control, the right fold, must not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Simulator, SimMode, Signal } from '../../rtl/kernel/index.ts';
import { WRONG_FOLD } from '../../rtl/buzzard/pbu_kit.ts';
import { DualPortRam } from '../../rtl/lib/dual_port_ram.ts';
import { buildCube, cubeParams, stepOrError as step, LOADED, type CubeParams } from './random_cube.ts';

type Params = CubeParams;

const build = (p: Params, mode: SimMode, wordFolds: boolean) => buildCube(p, mode, { wordFolds });

/** The folded design's registers that the reference structure does not have (the PBU's RAM ports' drivers; the RAM's inline pointers, mapped below). */
const FOLD_ONLY = /\.pbu\d+\.(waddrR|rreqR)$|\.ram\.[wr]ptr$/;
/** The reference's RAM arbiter children: their pointers are the folded RAM's wptr/rptr; every other signal of theirs is a port of the RAM (same net) or tied to 0. */
const ARB = /^(.*\.ram)\.([wr])arb\.(.*)$/;

/** Per-cycle words moved through the buffer RAMs (writes granted), to show the runs did work. */
let wordsSeen = 0;

/** Run the folded fast design beside the reference structure; the first difference as text, or null. */
function compare(p: Params): string | null {
  const fold = build(p, 'activity', true);
  const ref = build(p, 'plain', false);
  const byPath = new Map<string, Signal>();
  for (const s of fold.sim.net.signals) byPath.set(s.path, s);
  const pairs: [number, number, string][] = [];
  const compared = new Set<number>();
  const arbs: Signal[] = [];
  for (const s of ref.sim.net.signals) {
    const a = ARB.exec(s.path);
    if (a && a[3] !== 'ptr') {
      arbs.push(s);
      continue;
    }
    const f = byPath.get(a ? `${a[1]}.${a[2]}ptr` : s.path);
    if (!f) return `${s.path} of the reference structure is missing in the folded one`;
    compared.add(s.i);
    byPath.delete(f.path);
    pairs.push([s.i, f.i, s.path]);
  }
  const tied = new Set(ref.sim.net.tieSlots);
  const loose = arbs.filter((s) => !compared.has(s.i) && !tied.has(s.i));
  if (loose.length) return `${loose[0]!.path}: an arbiter signal of the reference that is neither a RAM port nor tied`;
  const extra = [...byPath.keys()].filter((k) => !FOLD_ONLY.test(k));
  if (extra.length) return `the folded structure has signals the reference has not: ${extra.slice(0, 3).join(', ')}`;
  const wgnt = ref.sim.net.signals.filter((s) => /\.ram\.wgnt\d+$/.test(s.path)).map((s) => s.i);
  wordsSeen = 0;
  for (let c = 0; c <= p.cycles; c++) {
    if (c > 0) {
      const ea = step(fold.sim);
      const eb = step(ref.sim);
      if (ea !== eb) return `cycle ${c}: folded ${ea || 'ran'}, reference ${eb || 'ran'}`;
      if (ea) return `cycle ${c}: both stopped: ${ea}`;
    }
    const x = ref.sim.values();
    const y = fold.sim.values();
    for (const [a, b, path] of pairs) if (x[a] !== y[b]) return `cycle ${c}: ${path} is ${y[b]} folded, ${x[a]} in the reference structure`;
    for (const a of wgnt) wordsSeen += x[a]!;
  }
  const mf = new Map(fold.sim.net.memories.map((m) => [m.path, m]));
  for (const m of ref.sim.net.memories) {
    const f = mf.get(m.path);
    if (!f) return `memory ${m.path} missing in the folded structure`;
    for (let a = 0; a < m.depth; a++) if (m.data[a] !== f.data[a]) return `${m.path}[${a}] differs at the end`;
  }
  if (!ref.rec.events.some((e) => e.kind === 'head-arrives')) return 'no packet moved: the workload did not exercise the links';
  if (JSON.stringify(fold.rec.events) !== JSON.stringify(ref.rec.events)) return 'event traces differ';
  return null;
}

const params = cubeParams;

type Wrong = typeof WRONG_FOLD.mode | 'ramPtr';

function withWrong(mode: Wrong, p: Params): string | null {
  if (mode === 'ramPtr') DualPortRam.wrongInlinePtr = true;
  else WRONG_FOLD.mode = mode;
  try {
    return compare(p);
  } finally {
    WRONG_FOLD.mode = 'none';
    DualPortRam.wrongInlinePtr = false;
  }
}

describe('stop 23 folds = stop 22 process structure (issue 8)', () => {
  it('property: every wire and register of the reference structure at every cycle, memories and events agree on random workloads', () => {
    fc.assert(
      fc.property(params, (p) => {
        expect(compare(p)).toBeNull();
      }),
      { numRuns: 6 },
    );
  }, 600_000);

  it.each([false, true])('small CAMs and FIFOs under heavy load, strict framing %s: agree', (strict) => {
    expect(compare({ ...LOADED, n: 2, strict, camHeight: 2, fifoDepth: 2, meanBytes: 120, gapTicks: 30 })).toBeNull();
    expect(wordsSeen).toBeGreaterThan(500);
  }, 120_000);

  it('control: the right fold on a loaded 3-cube agrees', () => {
    expect(compare(LOADED)).toBeNull();
    expect(wordsSeen).toBeGreaterThan(1000);
  }, 120_000);

  // ramPtr: the RAM's inline commit leaves the write pointer at the client it served (rtl/lib/dual_port_ram.ts)
  it.each(['currentInAddr', 'outputOnly', 'ramPtr'] as const)('negative control: the wrong fold %s is caught', (mode) => {
    expect(withWrong(mode, LOADED)).toMatch(/^cycle \d+: node\d+\.(pbu\d+|ram)\.[\w.]+ is /);
  }, 120_000);
});
