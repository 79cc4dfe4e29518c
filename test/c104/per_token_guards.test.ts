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
import { meshNetwork } from '../../rtl/c104/labelling.ts';
import { ROUTER_FAULT } from '../../rtl/c104/input_router.ts';
import type { C104Pipeline } from '../../rtl/c104/config.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import { blockMemories, firstBlockDiff, pairChannels, pairMessages, postPairMessages, type PairMessage } from './system_check.ts';

interface Case {
  w: number;
  h: number;
  msgs: PairMessage[];
  cycles: number;
  node: boolean;
  c104: { ackPriority?: boolean; routingDelay?: number; pipeline?: C104Pipeline };
}

function build(c: Case, mode: 'plain' | 'activity'): C104System {
  const T = c.w * c.h;
  const { msgs, pairs, labels } = pairMessages(c.msgs, T);
  const spec = meshNetwork({ w: c.w, h: c.h, routing: 'x-first', labelsPerNode: c.node ? 1 : labels });
  const channels = pairChannels(spec, pairs, T, c.node);
  const sys = makeC104System(spec, channels, { mode, t9000: c.node ? { addressing: 'node' } : {}, c104: c.c104 });
  sys.driver.holdWhenFull = true;
  postPairMessages(sys, channels, msgs);
  return sys;
}

/** First difference between the two runs (a slot named), or undefined. */
function lockstep(c: Case): string | undefined {
  const ref = build(c, 'plain');
  const fast = build(c, 'activity');
  const names = ref.sim.net.signals;
  const rb = blockMemories(ref.sim);
  const fb = blockMemories(fast.sim);
  for (let cyc = 0; cyc < c.cycles; cyc++) {
    ref.sim.step(1);
    fast.sim.step(1);
    const a = ref.sim.values();
    const b = fast.sim.values();
    for (let k = 0; k < a.length; k++) {
      if (a[k] !== b[k]) {
        const sig = names.find((s) => s.i === k || s.n === k);
        return `cycle ${ref.sim.cycle}: slot ${k} (${sig?.path ?? '?'}) reference ${a[k]} fast ${b[k]}`;
      }
    }
    const m = firstBlockDiff(rb, fb);
    if (m) return `cycle ${ref.sim.cycle}: ${m}`;
  }
  if (JSON.stringify(ref.rec.events) !== JSON.stringify(fast.rec.events)) return 'event traces differ';
  if (JSON.stringify(ref.rec.deliveries) !== JSON.stringify(fast.rec.deliveries)) return 'deliveries differ';
  expect(fast.rec.deliveries.length).toBeGreaterThan(0);
  return undefined;
}

const caseArb = fc.record({
  w: fc.constant(2),
  h: fc.integer({ min: 1, max: 2 }),
  msgs: fc.array(fc.record({ src: fc.nat(7), dst: fc.nat(7), len: fc.integer({ min: 0, max: 70 }), at: fc.nat(400) }), { minLength: 4, maxLength: 20 }),
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
  msgs: Array.from({ length: 12 }, (_, k) => ({ src: k % 4, dst: (k % 4) + 1 + (k >> 2), len: 40 + k, at: 0 })).map((m) => ({ ...m, dst: m.dst % 4 })),
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
