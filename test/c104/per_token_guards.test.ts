/**
 * Stop 21's per-token cuts (docs/kernel.md "Stop 21: FIFOs and C104 per
 * token"): the C104 router's clock edge reads by state, the DS-link end's
 * glue folded into its FIFOs. The fast mode ('activity') equals the
 * reference mode ('plain') at every cycle, every value (wires, registers,
 * T9000 control-block memories), events and deliveries, on small C104
 * networks under random messages with the switch options that change what
 * the router's edge reads (ack priority, routing delay, pipeline, header
 * deletion through node addressing). The router's guard has a wrong-guard
 * negative control that the same comparison sees; the FIFO's (a push
 * enable changing alone under a held push, which no C104 run here produces:
 * its changes come with a count change) is in test/lib/fifo_glue.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROUTER_FAULT } from '../../rtl/c104/input_router.ts';
import type { C104Pipeline } from '../../rtl/c104/config.ts';
import { buildMeshCase, CROWD_MSGS, firstStepDiff, meshMsgsArb, sameTraces, type MeshCase } from './system_check.ts';

type Case = MeshCase & { c104: { ackPriority?: boolean; routingDelay?: number; pipeline?: C104Pipeline } };

/** First difference between the two runs (a slot named), or undefined. */
function lockstep(c: Case): string | undefined {
  const ref = buildMeshCase(c, 'plain');
  const fast = buildMeshCase(c, 'activity');
  return firstStepDiff(ref, fast, c.cycles) ?? sameTraces(ref, fast);
}

const caseArb = fc.record({
  w: fc.constant(2),
  h: fc.integer({ min: 1, max: 2 }),
  msgs: meshMsgsArb,
  cycles: fc.constant(4600),
  node: fc.boolean(),
  c104: fc.record({
    ackPriority: fc.boolean(),
    routingDelay: fc.integer({ min: 0, max: 3 }),
    pipeline: fc.constantFrom('registered' as const, 'cut-through' as const),
  }),
});

/** A loaded 2x2 mesh: every endpoint sends to every other at once (contention, full output buffers, held cores). */
const crowd: Case = {
  w: 2,
  h: 2,
  msgs: CROWD_MSGS,
  cycles: 4200,
  node: false,
  c104: {},
};

describe('stop 21: per-token guards and folds, fast = reference at every cycle', () => {
  it('random 2x1 and 2x2 meshes, ack priority, routing delays, pipelines, both addressings', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        expect(lockstep(c)).toBeUndefined();
      }),
      { numRuns: 4 },
    );
  }, 300_000);

  it('the crowded 2x2 mesh (the controls\' case without their fault)', () => {
    expect(lockstep(crowd)).toBeUndefined();
  }, 120_000);

  const controls: [string, () => () => void][] = [
    ['the router\'s edge blind to `release` while connected (a packet\'s end missed)', () => {
      ROUTER_FAULT.endBlind = true;
      return () => (ROUTER_FAULT.endBlind = false);
    }],
    ['the router\'s stream blind to the flow control while connected (a character sent into a full output)', () => {
      ROUTER_FAULT.streamBlind = true;
      return () => (ROUTER_FAULT.streamBlind = false);
    }],
  ];
  for (const [name, inject] of controls) {
    it(`negative control: ${name} is seen`, () => {
      const undo = inject();
      try {
        expect(lockstep(crowd)).toMatch(/^cycle \d+: |differ/);
      } finally {
        undo();
      }
    }, 120_000);
  }
});
