/**
 * The link-end port interface a chip core is written against, the join of two
 * ends by their wires and of a core to an end: the port contract of rtl/dslink/chars.ts as the real
 * DsLinkEnd declares it. Shared by the T9000 endpoint (rtl/t9000) and the C104
 * (rtl/c104), which depend on the DS-link and not on each other
 * (docs/dslink.md#units); a test stand-in with the same ports fits too.
 */
import type { Module, Signal } from '../kernel/module.ts';
import { DsLinkEnd } from './end.ts';
import { DsNullTrain } from './null_train.ts';
import { DsTokenTrain } from './token_train.ts';

/** One DS-link end's ports (chars.ts): a DsLinkEnd or a stand-in. */
export type DsLinkEndPorts = Module & Pick<DsLinkEnd, 'txValid' | 'txChar' | 'txReady' | 'rxValid' | 'rxChar' | 'rxPop' | 'running' | 'dOut' | 'sOut' | 'dIn' | 'sIn'>;

/** Join two link ends: A.dOut→B.dIn, A.sOut→B.sIn and the reverse (chars.ts). */
export function joinLinks(where: Module, a: DsLinkEndPorts, b: DsLinkEndPorts): void {
  where.connect(a.dOut, b.dIn);
  where.connect(a.sOut, b.sIn);
  where.connect(b.dOut, a.dIn);
  where.connect(b.sOut, a.sIn);
  linkNullTrains(a, b);
}

/**
 * Two DsLinkEnds joined wire to wire: in the fast mode each direction's
 * tokens go on a serial line (token_train.ts, docs/dslink.md#token-trains)
 * and its NULL trains on demand (null_train.ts). Not for a stand-in end, nor
 * across a wire-fault injector (the injector reads the wires every cycle;
 * such a link stays bit by bit, docs/dslink.md#null-trains), nor with
 * flow-through; NULL trains not when either end's idle transmitter holds
 * its wires (runIdle other than 'nulls').
 */
export function linkNullTrains(a: Module, b: Module): void {
  if (!(a instanceof DsLinkEnd && b instanceof DsLinkEnd)) return;
  // Flow-through makes the decoder's releases comb logic, outside what a train records: such a link stays bit by bit.
  if (a.cfg.flowThrough || b.cfg.flowThrough) return;
  // Tokens on a serial line (token_train.ts), in every run-idle mode.
  new DsTokenTrain(a, b);
  new DsTokenTrain(b, a);
  // Only idle links that send NULLs have NULL trains (docs/dslink.md#run-idle: the quiet modes hold their wires instead).
  if (a.cfg.runIdle !== 'nulls' || b.cfg.runIdle !== 'nulls') return;
  new DsNullTrain(a, b);
  new DsNullTrain(b, a);
}

/** A core's side of one link: what it offers (txValid, txChar) and pops (rxPop), and what it reads. */
export interface LinkCoreSide {
  txValid: Signal;
  txChar: Signal;
  txReady: Signal;
  rxValid: Signal;
  rxChar: Signal;
  rxPop: Signal;
}

/** Join a core's transmit and receive sides to a link end (the directions of chars.ts). */
export function attachCore(where: Module, core: LinkCoreSide, e: DsLinkEndPorts): void {
  where.connect(core.txValid, e.txValid);
  where.connect(core.txChar, e.txChar);
  where.connect(e.txReady, core.txReady);
  where.connect(e.rxValid, core.rxValid);
  where.connect(e.rxChar, core.rxChar);
  where.connect(core.rxPop, e.rxPop);
}
