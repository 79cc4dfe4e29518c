/**
 * C104 networks with real DS-links and T9000s (harness/rtl/c104_system.ts):
 * the fast mode ('activity': exact and guarded sensitivity, commit lists,
 * the DS-link transmitter's `take` on its `more` register, the link state
 * machine's guarded reads) equals the reference mode ('plain': every
 * process every cycle), run in lockstep on random small networks under
 * random messages with held sends, under both T9000 addressings
 * (docs/t9000.md#addressing): every wire (the D/S wires included), every
 * register and every word of the T9000 control-block memories at every
 * cycle, the event trace and the delivered bytes.
 *
 * The fast run puts idle link directions on NULL trains computed on demand
 * (rtl/dslink/null_train.ts) and leaves them when traffic comes; the test
 * checks that it did.
 *
 * Negative controls: the same comparison with one token of one link held a
 * cycle longer in the fast run (its serialiser's `left` bumped mid-token,
 * so every later token on that link starts a cycle late), and with the
 * NULL trains' recorded period read one cycle off, must fail.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainNetwork, meshNetwork } from '../../rtl/c104/labelling.ts';
import type { NetworkSpec } from '../../rtl/c104/topology.ts';
import { DsLinkEnd } from '../../rtl/dslink/index.ts';
import { DsNullTrain } from '../../rtl/dslink/null_train.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import type { C104Pipeline } from '../../rtl/c104/config.ts';
import { firstStepDiff, pairChannels, pairMessages, postPairMessages } from './system_check.ts';

interface Case {
  net: 'pair-c104' | 'chain-2' | 'mesh-2x1' | 'mesh-2x2';
  msgs: { src: number; dst: number; len: number; at: number }[];
  cycles: number;
  /** T9000 addressing (docs/t9000.md#addressing); default 'virtual-link'. */
  addressing?: 'virtual-link' | 'node';
  /** The switches' pipeline (docs/c104.md#pipeline); default 'registered'. */
  pipeline?: C104Pipeline;
}

function specOf(c: Case, labels: number): NetworkSpec {
  if (c.net === 'pair-c104') return chainNetwork(1, labels);
  if (c.net === 'chain-2') return chainNetwork(2, labels);
  return meshNetwork({ w: 2, h: c.net === 'mesh-2x2' ? 2 : 1, routing: 'x-first', labelsPerNode: labels });
}

function build(c: Case, mode: 'plain' | 'activity'): C104System {
  const T = c.net === 'mesh-2x2' ? 4 : 2;
  const { msgs, pairs, labels } = pairMessages(c.msgs, T);
  const node = c.addressing === 'node';
  const spec = specOf(c, node ? 1 : labels);
  const channels = pairChannels(spec, pairs, T, node);
  const sys = makeC104System(spec, channels, { mode, t9000: node ? { addressing: 'node' } : {}, c104: c.pipeline ? { pipeline: c.pipeline, routingDelay: 0 } : undefined });
  sys.driver.holdWhenFull = true;
  postPairMessages(sys, channels, msgs);
  return sys;
}

/** NULL trains (rtl/dslink/null_train.ts) entered and left in a run, over every link direction. */
function trainStats(s: C104System): { entered: number; thawed: number } {
  const st = { entered: 0, thawed: 0 };
  for (const m of s.sim.net.modules) {
    if (!(m instanceof DsLinkEnd) || !m.ser.txTrain) continue;
    st.entered += m.ser.txTrain.stats.entered;
    st.thawed += m.ser.txTrain.stats.thawed;
  }
  return st;
}

/** First cycle where the two runs differ (a signal named), or undefined. */
function lockstep(c: Case, perturb?: (fast: C104System) => void): string | undefined {
  const ref = build(c, 'plain');
  const fast = build(c, 'activity');
  // The T9000 control blocks are memories (docs/t9000.md#control-blocks): compared word by word too.
  const diff = firstStepDiff(ref, fast, c.cycles, (cyc) => {
    if (perturb && cyc === 2700) perturb(fast);
  });
  if (diff) return diff;
  const ev = (s: C104System): string => JSON.stringify(s.rec.events);
  if (ev(ref) !== ev(fast)) return 'event traces differ';
  if (JSON.stringify(ref.rec.deliveries) !== JSON.stringify(fast.rec.deliveries)) return 'deliveries differ';
  expect(fast.rec.deliveries.length).toBeGreaterThan(0);
  // The fast run went through NULL trains on demand and left them (the reference never does).
  const st = trainStats(fast);
  expect(st.entered).toBeGreaterThan(0);
  expect(st.thawed).toBeGreaterThan(0);
  expect(trainStats(ref).entered).toBe(0);
  return undefined;
}

const caseArb = fc.record({
  net: fc.constantFrom('pair-c104' as const, 'chain-2' as const, 'mesh-2x1' as const, 'mesh-2x2' as const),
  msgs: fc.array(fc.record({ src: fc.nat(7), dst: fc.nat(7), len: fc.integer({ min: 0, max: 70 }), at: fc.nat(600) }), { minLength: 1, maxLength: 24 }),
  cycles: fc.constant(5200),
  addressing: fc.constantFrom('virtual-link' as const, 'node' as const),
});

describe('C104 system: fast mode = reference mode, every value at every cycle', () => {
  it('random small networks under random messages (held sends)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        expect(lockstep(c)).toBeUndefined();
      }),
      { numRuns: 3 },
    );
  }, 300_000);

  const variants: [string, Partial<Case>][] = [
    ["addressing 'node' (side-band tags through the switches)", { addressing: 'node' }],
    ["pipeline 'cut-through' (the header requested from the buffer head, no output register)", { pipeline: 'cut-through' }],
  ];
  for (const [name, over] of variants) {
    it(name, () => {
      fc.assert(
        fc.property(caseArb, (c) => {
          expect(lockstep({ ...c, ...over })).toBeUndefined();
        }),
        { numRuns: 2 },
      );
    }, 300_000);
  }

  it('negative control: NULL trains read one cycle off their recorded period are seen', () => {
    const c: Case = { net: 'pair-c104', msgs: [{ src: 0, dst: 1, len: 40, at: 600 }], cycles: 3400 };
    DsNullTrain.skew = 1;
    try {
      expect(lockstep(c)).toMatch(/^cycle \d+: slot \d+/);
    } finally {
      DsNullTrain.skew = 0;
    }
  });

  it('negative control: one token held a cycle longer on one link in the fast run is seen', () => {
    const c: Case = { net: 'pair-c104', msgs: [{ src: 0, dst: 1, len: 40, at: 0 }], cycles: 3000 };
    const diff = lockstep(c, (fast) => {
      const end = fast.endpoints[0]!.links[0]!;
      if (!(end instanceof DsLinkEnd)) throw new Error('expected a DsLinkEnd');
      const sim = fast.sim;
      const left = sim.peek(end.ser.left);
      sim.poke(end.ser.left, left + 1);
      sim.poke(end.ser.more, 1);
    });
    expect(diff).toMatch(/^cycle \d+: slot \d+/);
  });
});
