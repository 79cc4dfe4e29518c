/**
 * The receive side of token trains on C104 networks, unobserved
 * (docs/kernel.md "Stop 20: receive side"): test/c104/fast_reference.test.ts
 * compares every value at every cycle, and its compare writes every
 * on-demand value into the state vector each cycle, so there a decoder
 * reading its inputs' slots would see right values even if the token train
 * had not written them (token_train.ts `onDecode`). Here the fast run is
 * looked at only every 97 to 389 cycles, as a bench run is (its recorder
 * reads no on-demand slot): equal to the reference at each look (every
 * wire and register, the T9000 control blocks), the same event trace and
 * deliveries at the end. Negative control: `DsTokenTrain.noDecodeWrite`
 * (onDecode writes nothing) is seen.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { meshNetwork, chainNetwork } from '../../rtl/c104/labelling.ts';
import { DsLinkEnd } from '../../rtl/dslink/index.ts';
import { DsTokenTrain } from '../../rtl/dslink/token_train.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import { firstSlotDiff } from '../lib/lockstep_sim.ts';
import { blockMemories, firstBlockDiff, pairChannels, pairMessages, postPairMessages } from '../c104/system_check.ts';

interface Case {
  net: 'pair-c104' | 'mesh-2x2';
  msgs: { src: number; dst: number; len: number; at: number }[];
  gaps: number[];
}

function build(c: Case, mode: 'plain' | 'activity'): C104System {
  const T = c.net === 'mesh-2x2' ? 4 : 2;
  const { msgs, pairs } = pairMessages(c.msgs, T);
  const spec = c.net === 'pair-c104' ? chainNetwork(1, 1) : meshNetwork({ w: 2, h: 2, routing: 'x-first', labelsPerNode: 1 });
  const channels = pairChannels(spec, pairs, T, true);
  const sys = makeC104System(spec, channels, { mode, t9000: { addressing: 'node' } });
  sys.driver.holdWhenFull = true;
  postPairMessages(sys, channels, msgs);
  return sys;
}

/** Tokens the token trains carried in a run, over every link direction. */
function trainTokens(s: C104System): number {
  let n = 0;
  for (const m of s.sim.net.modules) if (m instanceof DsLinkEnd && m.ser.tokTrain) n += m.ser.tokTrain.stats.tokens;
  return n;
}

/** The first difference at a look, or undefined. */
function unobserved(c: Case, cycles: number): string | undefined {
  const ref = build(c, 'plain');
  const fast = build(c, 'activity');
  const rb = blockMemories(ref.sim);
  const fb = blockMemories(fast.sim);
  for (let k = 0; ref.sim.cycle < cycles; k++) {
    const n = c.gaps[k % c.gaps.length]!;
    ref.sim.step(n);
    fast.sim.step(n);
    const d = firstSlotDiff(ref.sim, fast.sim);
    if (d) return `cycle ${ref.sim.cycle}: ${d.path} reference ${d.a} fast ${d.b}`;
    const m = firstBlockDiff(rb, fb);
    if (m) return `cycle ${ref.sim.cycle}: ${m}`;
  }
  if (JSON.stringify(ref.rec.events) !== JSON.stringify(fast.rec.events)) return 'event traces differ';
  if (JSON.stringify(ref.rec.deliveries) !== JSON.stringify(fast.rec.deliveries)) return 'deliveries differ';
  expect(fast.rec.deliveries.length).toBeGreaterThan(0);
  // Two 8-byte messages, the smallest case, put 85 tokens on trains since the trains hand over to each other (fewer NULLs on token trains).
  expect(trainTokens(fast)).toBeGreaterThan(40);
  return undefined;
}

const caseArb = fc.record({
  net: fc.constantFrom('pair-c104' as const, 'mesh-2x2' as const),
  msgs: fc.array(fc.record({ src: fc.nat(7), dst: fc.nat(7), len: fc.integer({ min: 8, max: 70 }), at: fc.nat(600) }), { minLength: 2, maxLength: 16 }),
  gaps: fc.array(fc.integer({ min: 97, max: 389 }), { minLength: 1, maxLength: 5 }),
});

afterEach(() => {
  DsTokenTrain.noDecodeWrite = false;
});

describe('C104 networks, token trains unobserved: fast mode = reference mode at each look', () => {
  it('random messages on a pair through a C104 and a 2x2 mesh (node addressing, held sends)', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        expect(unobserved(c, 4600)).toBeUndefined();
      }),
      { numRuns: 3 },
    );
  }, 300_000);

  it('negative control: onDecode writing nothing is seen', () => {
    DsTokenTrain.noDecodeWrite = true;
    const c: Case = { net: 'pair-c104', msgs: [{ src: 0, dst: 1, len: 60, at: 0 }, { src: 1, dst: 0, len: 60, at: 100 }], gaps: [211] };
    expect(unobserved(c, 3600)).toMatch(/^cycle \d+|differ/);
  });
});
