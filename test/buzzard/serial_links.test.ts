/**
 * The Buzzard links on serial lines (docs/kernel.md "Buzzard links on serial
 * lines", issue 8): the fast mode really leaves the bits to the lines (far
 * fewer process evaluations than with every bit a process run, same state),
 * and a line that is wrong by one cycle is seen by the fast/reference
 * comparison (negative control for test/buzzard/fast_reference.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { SenderLine } from '../../rtl/buzzard/link_lines.ts';
import { CubeDriver } from '../../harness/rtl/cube_driver.ts';
import { scheduleWorkload } from '../../harness/rtl/run_workload.ts';
import { buzzardCh5Workload } from '../../harness/workloads/index.ts';
import { fastReferenceDiff } from '../lib/lockstep_sim.ts';

function build(n: number, mode: SimMode, serialLinks: boolean) {
  const cube = new BuzzardCube({ n }, 'cube', { serialLinks });
  const sim = new Simulator(cube, { mode });
  const w = buzzardCh5Workload({ cubeDegree: n, meanBytes: 512, meanGapTicks: 1024, durationTicks: 2000, seed: 7 });
  scheduleWorkload(new CubeDriver(sim, cube), w);
  return { cube, sim };
}

/** Step both in lock-step; the first register or wire that differs, or null. */
function firstDiff(a: Simulator, b: Simulator, cycles: number): string | null {
  for (let c = 1; c <= cycles; c++) {
    a.step(1);
    b.step(1);
    const d = fastReferenceDiff(a, b, c);
    if (d) return d;
  }
  return null;
}

describe('Buzzard links on serial lines', () => {
  it('a loaded 3-cube in the fast mode: the same state as with every bit a process run, with far fewer evaluations', () => {
    const lines = build(3, 'activity', true);
    const bits = build(3, 'activity', false);
    lines.sim.step(6000);
    bits.sim.step(6000);
    expect(lines.sim.stateHash()).toBe(bits.sim.stateHash());
    // Links busy enough that the bits matter (the fcu counters are the same in both).
    let busy = 0;
    for (const node of lines.cube.nodes) for (const f of node.fcus) busy += lines.sim.peek(f.busyCycles);
    expect(busy / (3 * 8 * 6000)).toBeGreaterThan(0.08);
    const ratio = lines.sim.evaluations / bits.sim.evaluations;
    console.log(`serial lines: ${lines.sim.evaluations} evaluations, every bit a process run: ${bits.sim.evaluations} (ratio ${ratio.toFixed(3)}), link utilisation ${(busy / (3 * 8 * 6000)).toFixed(3)}`);
    expect(ratio).toBeLessThan(0.7);
  });

  it('negative control: one word posted a cycle late on one sender line is caught by the fast/reference comparison', () => {
    const fast = build(3, 'activity', true);
    const ref = build(3, 'plain', true);
    const mine = new Set(fast.cube.links!.lines);
    const send = SenderLine.prototype.send;
    let late = false;
    SenderLine.prototype.send = function (this: SenderLine, from: number, word: number, nbits: number): void {
      if (!late && mine.has(this) && nbits === 16 && from > 1500) {
        late = true;
        send.call(this, from + 1, word, nbits);
        return;
      }
      send.call(this, from, word, nbits);
    };
    try {
      // A unit assertion (a receiver's framing check) is a catch too.
      let diff: string | null;
      try {
        diff = firstDiff(fast.sim, ref.sim, 4000);
      } catch (e) {
        diff = String(e);
      }
      expect(late).toBe(true);
      expect(diff).not.toBeNull();
    } finally {
      SenderLine.prototype.send = send;
    }
    // Unperturbed, the same pair agrees.
    const f2 = build(3, 'activity', true);
    const r2 = build(3, 'plain', true);
    expect(firstDiff(f2.sim, r2.sim, 2500)).toBeNull();
  });
});
