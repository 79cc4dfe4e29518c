/**
 * The lock-step runner of the fast-path tests of stops 24 and 25
 * (word_arrival.test.ts, slot_events.test.ts): a cube in the fast mode
 * beside the same cube in the reference mode ('plain'), the fast run with a
 * snapshot saved and restored across a switch to the reference mode and
 * back, then a few cycles in the reference mode; every wire and register
 * at every cycle, at the end every memory word and the event traces.
 */
import fc from 'fast-check';
import type { BuzzardNodeOptions } from '../../rtl/buzzard/node.ts';
import type { Simulator } from '../../rtl/kernel/index.ts';
import { fastReferenceDiff } from '../lib/lockstep_sim.ts';
import { buildCube, cubeParams, stepOrError as step, type CubeParams } from './random_cube.ts';

export interface SwitchParams extends CubeParams {
  /** The fast run: save here, step, restore the snapshot after a switch to the reference mode and back (-1: none). */
  snapAt: number;
  /** The fast run: this many cycles in the reference mode from snapAt + 40. */
  plainFor: number;
}

export const switchParams: fc.Arbitrary<SwitchParams> = fc
  .tuple(cubeParams, fc.integer({ min: 300, max: 1400 }), fc.integer({ min: 1, max: 3 }))
  .map(([p, snapAt, plainFor]) => ({ ...p, snapAt, plainFor }));

/** The fast run (`options`) beside the reference run; the first difference as text, or null. `seen`: the reference after each cycle. */
export function compareWithSwitches(p: SwitchParams, options: BuzzardNodeOptions, seen?: (ref: Simulator) => void): string | null {
  const fast = buildCube(p, 'activity', options);
  const ref = buildCube(p, 'plain', options);
  for (let c = 0; c <= p.cycles; c++) {
    if (c > 0) {
      if (c === p.snapAt) {
        // a snapshot with timed writes pending, restored into the reference mode and back
        const snap = fast.sim.save();
        fast.sim.setMode('plain');
        fast.sim.restore(snap);
        fast.sim.setMode('activity');
        fast.sim.restore(snap);
      }
      if (c === p.snapAt + 40) fast.sim.setMode('plain');
      if (c === p.snapAt + 40 + p.plainFor) fast.sim.setMode('activity');
      const ea = step(fast.sim);
      const eb = step(ref.sim);
      if (ea !== eb) return `cycle ${c}: fast mode ${ea || 'ran'}, reference mode ${eb || 'ran'}`;
      if (ea) return `cycle ${c}: both stopped: ${ea}`;
    }
    const d = fastReferenceDiff(fast.sim, ref.sim, c);
    if (d) return d;
    seen?.(ref.sim);
  }
  if (fast.sim.stateHash() !== ref.sim.stateHash()) return 'state hashes (memories) differ at the end';
  if (!ref.rec.events.some((e) => e.kind === 'head-arrives')) return 'no packet moved: the workload did not exercise the links';
  if (JSON.stringify(fast.rec.events) !== JSON.stringify(ref.rec.events)) return 'event traces differ';
  return null;
}

/** Runs of the seq processes whose name matches `name` over p.cycles in the fast mode (the kernel's process table: a test may look). */
export function seqRuns(p: CubeParams, name: RegExp, options: BuzzardNodeOptions): number {
  const { sim } = buildCube(p, 'activity', options);
  const inner = sim as unknown as { net: { seq: { name: string }[] }; seqFns: (() => void)[] };
  let runs = 0;
  inner.net.seq.forEach((d, k) => {
    if (!name.test(d.name)) return;
    const fn = inner.seqFns[k]!;
    inner.seqFns[k] = () => {
      runs++;
      fn();
    };
  });
  sim.step(p.cycles);
  return runs;
}
