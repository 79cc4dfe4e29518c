/**
 * Random small C104 networks with T9000 endpoints under random messages:
 * the kernel's lock-step tests' case (test/kernel/slot_bytes, mem_wake).
 */
import fc from 'fast-check';
import { chainNetwork, meshNetwork } from '../../rtl/c104/labelling.ts';
import { makeC104System, type C104System } from '../../harness/rtl/c104_system.ts';
import { pairChannels, pairMessages, postPairMessages } from '../c104/system_check.ts';

export interface SmallCase {
  net: 'chain-2' | 'mesh-2x2';
  msgs: { src: number; dst: number; len: number; at: number }[];
  addressing: 'virtual-link' | 'node';
}

export function buildSmall(c: SmallCase, mode: 'activity' | 'plain' = 'activity'): C104System {
  const T = c.net === 'mesh-2x2' ? 4 : 2;
  const { msgs, pairs, labels } = pairMessages(c.msgs, T);
  const node = c.addressing === 'node';
  const spec = c.net === 'chain-2' ? chainNetwork(2, node ? 1 : labels) : meshNetwork({ w: 2, h: 2, routing: 'x-first', labelsPerNode: node ? 1 : labels });
  const channels = pairChannels(spec, pairs, T, node);
  const sys = makeC104System(spec, channels, { mode, t9000: node ? { addressing: 'node' } : {} });
  sys.driver.holdWhenFull = true;
  postPairMessages(sys, channels, msgs);
  return sys;
}

export const smallCaseArb = fc.record({
  net: fc.constantFrom('chain-2' as const, 'mesh-2x2' as const),
  msgs: fc.array(fc.record({ src: fc.nat(7), dst: fc.nat(7), len: fc.integer({ min: 0, max: 70 }), at: fc.nat(600) }), { minLength: 1, maxLength: 16 }),
  addressing: fc.constantFrom('virtual-link' as const, 'node' as const),
});
