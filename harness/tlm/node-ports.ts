/**
 * RTL-calibrated details of the Buzzard TLM's crossbar (buzzard-tlm.ts),
 * measured on the RTL (docs/buzzard-ch5.md#rtl-calibrated-tlm): the tree
 * arbiter of each crossbar output (config.arbiter 'tree'), the node input
 * port's early release (config.nipReleaseTicks, nipPbuReleaseTicks) and a
 * PBU's early release on a link (config.pbuReleaseTicks).
 */
import type { BuzzardTlm } from './buzzard-tlm.ts';
import { ARB, IDLE } from './internal.ts';
import { releaseSource } from './packet.ts';

/**
 * config.arbiter 'tree': the RTL's crossbar arbiter for output qo, a
 * balanced tree of 1-of-2 arbiters over 2n inputs (PBU i on input i − 1,
 * slot j on input n + j − 1); a node with requests on both sides grants
 * its priority side, and every node on the granted path gives priority to
 * the side it did not grant. Same eligibility as the round-robin choice.
 */
export function arbitrateTree(sim: BuzzardTlm, qo: number, contrOK: boolean): number {
  const n = sim.n;
  const x = sim.oNode[qo]!;
  const o = sim.oPort[qo]!;
  const el = sim.tElig;
  el.fill(0);
  let any = false;
  if (sim.eligible(x, o, 0, contrOK)) el[n + o - 1] = 1; // never for o = 0
  for (let i = 1; i <= n; i++) if (sim.eligible(x, o, i, contrOK)) el[i - 1] = 1;
  for (let k = 0; k < 2 * n; k++) if (el[k]) any = true;
  if (!any) return -1;
  const base = qo * (2 * n - 1);
  let lo = 0;
  let cnt = 2 * n;
  let node = 0;
  while (cnt > 1) {
    const nl = Math.ceil(cnt / 2);
    let l = 0;
    let r = 0;
    for (let k = lo; k < lo + nl; k++) l |= el[k]!;
    for (let k = lo + nl; k < lo + cnt; k++) r |= el[k]!;
    const side = l && r ? sim.tPri[base + node]! : l ? 0 : 1;
    sim.tPri[base + node] = 1 - side;
    if (side === 0) {
      cnt = nl;
      node += 1;
    } else {
      lo += nl;
      cnt -= nl;
      node += nl;
    }
  }
  const win = lo < n ? lo + 1 : 0;
  sim.oState[qo] = ARB;
  sim.oWin[qo] = win;
  return win;
}

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
