/**
 * T9000 `addressing: 'node'` on C104 networks (docs/t9000.md#addressing):
 * a header names the destination endpoint, the far end's control block
 * travels as a side-band tag (rtl/lib/side_band.ts).
 *  - random messages on random meshes up to 4×4 are delivered exactly once,
 *    byte-exact, in order per virtual link (property); negative control: one
 *    side-band tag dropped makes the same property fail;
 *  - a network with more partners per endpoint than 'virtual-link' labels
 *    allow (255) builds and delivers;
 *  - the D/S wires carry the node header exactly (decoded by the reference
 *    decoder, rtl/dslink/tokens.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chainNetwork, meshNetwork } from '../../rtl/c104/labelling.ts';
import { makeC104System, nodeChannels } from '../../harness/rtl/c104_system.ts';
import { C104ConfigError } from '../../rtl/c104/interval_table.ts';
import { nodeHeaderPackets } from '../t9000/wire_packets.ts';
import type { SideBandOptions } from '../../rtl/lib/side_band.ts';
import { checkDeliveries, run } from './system_check.ts';

const NODE = { addressing: 'node' as const };

type Msg = { ch: number; back: boolean; len: number };

/** One random mesh run in node mode; throws (or fails an expect) when anything is off. */
function meshRun(w: number, h: number, pairs: [number, number][], msgs: Msg[], sideBand?: SideBandOptions): void {
  const spec = meshNetwork({ w, h, routing: 'x-first', labelsPerNode: 1 });
  const n = w * h;
  const ps = pairs.map(([a, b]) => [a % n, b % n] as [number, number]).filter(([a, b]) => a !== b);
  if (ps.length === 0) return;
  const { channels } = nodeChannels(ps, n);
  const sys = makeC104System(spec, channels, { t9000: NODE, sideBand });
  expect(run(sys, channels, msgs, 400000)).toBe(true);
  checkDeliveries(sys);
  sys.sim.step(3000); // the last acks arrive
  expect(sys.sideBand!.inFlight()).toBe(0);
}

const meshArb = fc.tuple(
  fc.integer({ min: 1, max: 4 }),
  fc.integer({ min: 2, max: 4 }),
  fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 8 }),
  fc.array(fc.record({ ch: fc.nat(), back: fc.boolean(), len: fc.integer({ min: 0, max: 80 }) }), { minLength: 2, maxLength: 12 }),
);

describe("addressing 'node' on T9000 + C104 meshes", () => {
  it('random messages on random meshes (up to 4×4) are delivered exactly once, byte-exact, in order per virtual link', () => {
    fc.assert(
      fc.property(meshArb, ([w, h, pairs, msgs]) => meshRun(w, h, pairs, msgs)),
      { numRuns: 4, seed: 9 },
    );
  });

  it('negative control: one side-band tag dropped makes the same property fail', () => {
    // Two channels into endpoint 1 (from 0 and from 2) so a lost tag shifts the next packet onto the wrong VL.
    const fixed: [number, number][] = [[0, 1], [2, 1], [0, 1]];
    const msgs: Msg[] = Array.from({ length: 9 }, (_, k) => ({ ch: k, back: false, len: 5 + k }));
    expect(() => meshRun(3, 1, fixed, msgs)).not.toThrow();
    const r = fc.check(
      fc.property(fc.constant(0), () => meshRun(3, 1, fixed, msgs, { dropPushAt: 1 })),
      { numRuns: 1 },
    );
    expect(r.failed).toBe(true);
  });

  it('a 5×5 mesh where every endpoint talks to all 24 others builds and delivers (virtual-link addressing would need 600 labels)', () => {
    const spec = meshNetwork({ w: 5, h: 5, routing: 'x-first', labelsPerNode: 1 });
    const pairs: [number, number][] = [];
    for (let a = 0; a < 25; a++) for (let b = a + 1; b < 25; b++) pairs.push([a, b]);
    const { channels, blocks } = nodeChannels(pairs, 25);
    expect(blocks).toBe(24);
    expect(() => makeC104System(meshNetwork({ w: 5, h: 5, routing: 'x-first', labelsPerNode: 24 }), [])).toThrow(C104ConfigError);
    const sys = makeC104System(spec, channels, { t9000: NODE });
    expect(Math.max(...sys.endpoints.map((e) => e.cfg.virtualLinks.length))).toBe(24);
    const msgs: Msg[] = pairs.map((_, k) => ({ ch: k, back: k % 2 === 1, len: 8 }));
    expect(run(sys, channels, msgs, 400000)).toBe(true);
    checkDeliveries(sys);
  });
});

describe("addressing 'node': the wires carry the node header exactly", () => {
  it('every packet on the D/S wires of both endpoints of pair-c104 starts with the destination node (2-byte headers too), and only then data, EOP or EOM', () => {
    for (const headerBytes of [1, 2] as const) {
      // pair-c104 with node labels 0 and 1 (1-byte) or 0 and 300 (2-byte: both header bytes matter)
      const spec0 = chainNetwork(1, 1);
      const b = headerBytes === 1 ? 1 : 300;
      const spec = {
        ...spec0,
        headerBytes,
        switches: spec0.switches.map((t) => ({ ...t, headerBytes, labels: 2 * b, intervals: [{ lo: 0, hi: b - 1, group: 0 }, { lo: b, hi: 2 * b - 1, group: 1 }] })),
        terminals: spec0.terminals.map((t, i) => ({ ...t, label: i * b })),
      };
      const { channels } = nodeChannels([[0, 1], [0, 1]], 2);
      const sys = makeC104System(spec, channels, { t9000: NODE });
      const wires = sys.endpoints.map(() => ({ d: [] as number[], s: [] as number[] }));
      sys.sim.observe({
        onCycle: (sim) => {
          sys.endpoints.forEach((ep, i) => {
            wires[i]!.d.push(sim.peek(ep.links[0]!.dOut));
            wires[i]!.s.push(sim.peek(ep.links[0]!.sOut));
          });
        },
      });
      const msgs: Msg[] = Array.from({ length: 6 }, (_, k) => ({ ch: k, back: k % 3 === 0, len: 20 + 9 * k }));
      expect(run(sys, channels, msgs, 200000)).toBe(true);
      sys.sim.step(2000); // the last acks leave
      checkDeliveries(sys);
      let packets = 0;
      sys.endpoints.forEach((_ep, i) => (packets += nodeHeaderPackets(wires[i]!, headerBytes, spec.terminals[1 - i]!.label)));
      const sent = sys.endpoints.reduce((n, ep) => n + ep.tx.reduce((m, tx) => m + sys.sim.peek(tx.dataPkts) + sys.sim.peek(tx.acksSent), 0), 0);
      expect(packets).toBe(sent);
      expect(packets).toBeGreaterThan(2 * msgs.length);
    }
  });
});
