/**
 * The link-end port interface a chip core is written against, and the join of
 * two ends by their wires: the port contract of rtl/dslink/chars.ts as the real
 * DsLinkEnd declares it. Shared by the T9000 endpoint (rtl/t9000) and the C104
 * (rtl/c104), which depend on the DS-link and not on each other
 * (docs/dslink.md#units); a test stand-in with the same ports fits too.
 */
import type { Module } from '../kernel/module.ts';
import type { DsLinkEnd } from './end.ts';

/** One DS-link end's ports (chars.ts): a DsLinkEnd or a stand-in. */
export type DsLinkEndPorts = Module & Pick<DsLinkEnd, 'txValid' | 'txChar' | 'txReady' | 'rxValid' | 'rxChar' | 'rxPop' | 'running' | 'dOut' | 'sOut' | 'dIn' | 'sIn'>;

/** Join two link ends: A.dOut→B.dIn, A.sOut→B.sIn and the reverse (chars.ts). */
export function joinLinks(where: Module, a: DsLinkEndPorts, b: DsLinkEndPorts): void {
  where.connect(a.dOut, b.dIn);
  where.connect(a.sOut, b.sIn);
  where.connect(b.dOut, a.dIn);
  where.connect(b.sOut, a.sIn);
}
