/**
 * Stop 25's slot events (docs/kernel.md "Stop 25: Buzzard"): a node output
 * port slot runs at its step list's events only (slot_line.ts `events`): it
 * reads hold, xgnt and the control unit's load strobe on its rise, not its
 * own registers; its link end asks for the edges where the step acts (the
 * counts 24, 18 and 2 only where they do something, the stretching states'
 * first edge, a pulse's fall, the prefetch flag's change in IDLE or a Y1),
 * and the edge of the 0 before a field (S0, PY0, Y0) is applied by its
 * catch-up. The fast mode (slot events, the default) against the reference
 * mode ('plain': every process every cycle) on random workloads (cubes 2–4,
 * rates, lengths, routing, strict framing on and off, broadcasts, small
 * CAMs and FIFOs half the time), with a snapshot saved and restored and a
 * switch to the reference mode and back in the fast run; a source stalling
 * mid-packet (its slot waits in a Y1 for a chunk, then in IDLE for a head):
 * every wire (link bits included) and every register at every cycle, at the
 * end every memory word and the event traces.
 *
 * The buffer RAM's late reads (`ramLateReads`, on by default; its own
 * lock-step and controls: test/lib/dual_port_ram_late.test.ts) run in the
 * same cubes, and its access runs are counted against stop 24's reads.
 *
 * Negative controls (slot_line.ts SLOT_FAULT), each caught: the counts 18
 * and 2 of a packet's last word skipped ('noLastEvent'), the count 24 with
 * the prefetch empty skipped ('noRefillEvent'), no wake-up at a change of
 * the prefetch flag in IDLE or a Y1 ('noAvWake'), the field behind a 0
 * not posted at the 0 ('noZeroPost').
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { SLOT_FAULT } from '../../rtl/buzzard/slot_line.ts';
import { fastReferenceDiff } from '../lib/lockstep_sim.ts';
import { compareWithSwitches, seqRuns, switchParams, type SwitchParams } from './switch_compare.ts';
import { fabricDriver, type DriverPacket } from './fabric_driver.ts';
import { LOADED as LOADED_CUBE } from './random_cube.ts';

const compare = (p: SwitchParams): string | null => compareWithSwitches(p, { slotEvents: true, ramLateReads: true });

const LOADED: SwitchParams = { ...LOADED_CUBE, snapAt: 900, plainFor: 2 };

/**
 * Node 0 sends two packets to node 3 over node 1 (fabric_driver.ts): the
 * first's fourth chunk held back until `stallTo` (its slot stretches a Y1
 * with an empty prefetch, §8.9 item 6), the second released later (the slot
 * waits in IDLE for its head). The first difference, or null.
 */
function stalledSource(stallTo: number): string | null {
  const words = Array.from({ length: 14 }, (_, k) => 0x1111 * (k + 1));
  const pkt: DriverPacket = { release: 0, contrary: 0, port: 2, dest: 3, words: [(1 << 12) | 0, ...words], chunkRelease: [0, 0, 0, stallTo, stallTo + 30] };
  const late: DriverPacket = { release: stallTo + 200, contrary: 0, port: 2, dest: 3, words: [(1 << 12) | 0, 0x0102, 0x0304], chunkRelease: [] };
  const program: DriverPacket[][][] = [[[pkt, late]]];
  const make = (mode: SimMode) => {
    const cube = new BuzzardCube({ n: 2 }, 'cube', { driver: fabricDriver(program) });
    return new Simulator(cube, { mode });
  };
  const fast = make('activity');
  const ref = make('plain');
  for (let c = 1; c <= stallTo + 600; c++) {
    fast.step(1);
    ref.step(1);
    const d = fastReferenceDiff(fast, ref, c);
    if (d) return d;
  }
  return null;
}

describe('stop 25 slot events = reference mode (issue 8)', () => {
  it('property: every wire, link bit and register at every cycle, memories and events agree on random workloads (snapshots and mode switches in the fast run)', () => {
    fc.assert(
      fc.property(switchParams, (p) => {
        expect(compare(p)).toBeNull();
      }),
      { numRuns: 6 },
    );
  }, 600_000);

  it.each([false, true])('small CAMs and FIFOs under heavy load, strict framing %s: agree', (strict) => {
    expect(compare({ ...LOADED, n: 2, strict, camHeight: 2, fifoDepth: 2, meanBytes: 120, gapTicks: 30, snapAt: 700, plainFor: 2 })).toBeNull();
  }, 120_000);

  it('a loaded 3-cube agrees, and its slots and RAM accesses run less often than with stop 24 reads', () => {
    expect(compare(LOADED)).toBeNull();
    const events = seqRuns(LOADED, /^slot\d+$/, { slotEvents: true });
    const reads = seqRuns(LOADED, /^slot\d+$/, { slotEvents: false });
    const late = seqRuns(LOADED, /^access$/, { ramLateReads: true });
    const early = seqRuns(LOADED, /^access$/, { ramLateReads: false });
    console.log(`[loaded 3-cube, ${LOADED.cycles} cycles] slot runs: events ${events}, stop 24 reads ${reads}; RAM access runs: late reads ${late}, stop 24 reads ${early}`);
    expect(events).toBeLessThan(reads * 0.7);
    expect(late).toBeLessThan(early * 0.8);
  }, 120_000);

  it('a source stalling mid-packet (a Y1 and an IDLE waiting for the prefetch) agrees', () => {
    expect(stalledSource(300)).toBeNull();
  }, 120_000);

  it.each(['noLastEvent', 'noRefillEvent', 'noAvWake', 'noZeroPost'] as const)('negative control: slot events %s are caught', (mode) => {
    SLOT_FAULT.mode = mode;
    try {
      const diff = compare(LOADED) ?? stalledSource(300);
      expect(diff).toMatch(/^cycle \d+: /);
    } finally {
      SLOT_FAULT.mode = '';
    }
  }, 120_000);
});
