/**
 * RTL-calibrated releases of the Buzzard TLM's ports (buzzard-tlm.ts),
 * measured on the RTL (docs/buzzard-ch5.md#rtl-calibrated-tlm): the node
 * input port's early release (config.nipReleaseTicks, nipPbuReleaseTicks)
 * and a PBU's early release on a link (config.pbuReleaseTicks).
 */
import type { BuzzardTlm } from './buzzard-tlm.ts';
import { IDLE } from './internal.ts';
import { releaseSource } from './packet.ts';

/**
 * config.nipReleaseTicks: the node input port is free for the next packet;
 * the current one's tail is remembered for its EV_TXEND. With an argument
 * ≥ oCount (config.nipPbuReleaseTicks): the sending PBU may be granted again.
 */
export function nipFree(sim: BuzzardTlm, arg: number): void {
  if (arg >= sim.oCount) {
    const qo = arg - sim.oCount;
    const x = sim.oNode[qo]!;
    const p = x * sim.n + sim.tWin[qo]! - 1;
    sim.pBusy[p] = 0;
    for (let o2 = 0; o2 < sim.n1; o2++) if (sim.pReady[p * sim.n1 + o2]! > 0) sim.markDirty(sim.outIdx(x, p, o2));
    return;
  }
  const qo = arg;
  sim.tMsg[qo] = sim.oMsg[qo]!;
  sim.tPkt[qo] = sim.oPkt[qo]!;
  sim.tWin[qo] = sim.oWin[qo]!;
  sim.tSrcBuf[qo] = sim.oSrcBuf[qo]!;
  sim.oState[qo] = IDLE;
  sim.markDirty(qo);
}

/**
 * config.pbuReleaseTicks: the PBU forwarding on link output qo is done with
 * its packet before the last bit: its buffer is freed and it may be granted
 * another output now; the link itself is released at the last bit (txEnd).
 */
export function pbuFree(sim: BuzzardTlm, qo: number): void {
  const x = sim.oNode[qo]!;
  releaseSource(sim, qo, x * sim.n + sim.oWin[qo]! - 1, sim.oSrcBuf[qo]!, false);
}
