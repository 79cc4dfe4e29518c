/**
 * The crossbar arbiters of the Buzzard TLM (§5.4.3; buzzard-tlm.ts's header
 * comment): one arbiter per crossbar output, whose requesters are the
 * output's source slot and the node's PBUs. 'round-robin' (seed-level, a
 * rotating pointer, docs/readings.md A10) or 'tree' (RTL-calibrated, the
 * RTL's tree of toggling 1-of-2 arbiters, config.arbiter), with one
 * eligibility rule for both (eligible) and the fair PBU output order
 * (prefersOther, config.pbuOutputOrder 'rotate').
 */
import type { BuzzardTlm } from './buzzard-tlm.ts';
import { ARB, IDLE } from './internal.ts';

/**
 * Round-robin choice among the requesters of output qo (A10): 0 = the
 * source slot of that link, i = PBU i; the winner takes the output (state
 * ARB). A contrary head in the slot is passed over when `contrOK` is false
 * (§7 / A8). Shared by the packet and wormhole transports; in wormhole runs
 * no PBU is ever marked busy and contrary packets are always allowed.
 * Returns the winner, or -1 when nobody is eligible.
 */
export function arbitrate(sim: BuzzardTlm, qo: number, contrOK: boolean): number {
  const n = sim.n;
  const n1 = sim.n1;
  const x = sim.oNode[qo]!;
  const o = sim.oPort[qo]!;
  const ej = sim.oEj[qo]!;
  if (sim.tree && ej < 0) return arbitrateTree(sim, qo, contrOK);
  const start = ej >= 0 ? ej - x * n + 1 : sim.oRR[qo]!;
  const tries = ej >= 0 ? 1 : n1;
  let win = -1;
  for (let c = 0; c < tries; c++) {
    let idx = start + c;
    if (idx >= n1) idx -= n1;
    if (eligible(sim, x, o, idx, contrOK)) {
      win = idx;
      break;
    }
  }
  if (win < 0) return -1;
  sim.oRR[qo] = win + 1 === n1 ? 0 : win + 1;
  sim.oState[qo] = ARB;
  sim.oWin[qo] = win;
  return win;
}

/**
 * Whether requester idx (0 = the source slot of link o, i = PBU i) of node
 * x's output o may win it now; shared by the round-robin and tree
 * arbiters. May mark another output for arbitration (prefersOther).
 */
export function eligible(sim: BuzzardTlm, x: number, o: number, idx: number, contrOK: boolean): boolean {
  const n = sim.n;
  if (idx === 0) {
    if (o === 0) return false;
    const s = x * n + o - 1;
    const hm = sim.sHead[s]!;
    if (sim.sBusy[s] || hm < 0) return false;
    return !sim.mContr[hm] || contrOK;
  }
  if (idx === o) return false;
  const p = x * n + idx - 1;
  if (sim.pBusy[p] || sim.pReady[p * sim.n1 + o] === 0) return false;
  return !(sim.rotate && prefersOther(sim, x, p, o));
}

/**
 * pbuOutputOrder 'rotate': PBU p goes to the outputs it has packets for in
 * round-robin order after the one it used last. True when an output before
 * o in that order could take one of its packets now (idle, a free buffer
 * behind it); that output is marked for arbitration and o passes p over.
 */
export function prefersOther(sim: BuzzardTlm, x: number, p: number, o: number): boolean {
  const n1 = sim.n1;
  const last = sim.pLast[p]!;
  for (let j = 1; j <= n1; j++) {
    const o2 = (last + j) % n1;
    if (o2 === o) return false;
    if (sim.pReady[p * n1 + o2] === 0) continue;
    const q2 = sim.outIdx(x, p, o2);
    if (sim.oState[q2] !== IDLE) continue;
    if (o2 > 0 && sim.pFree[(x ^ (1 << (o2 - 1))) * sim.n + o2 - 1] === 0) continue;
    sim.markDirty(q2);
    return true;
  }
  return false;
}

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
  if (eligible(sim, x, o, 0, contrOK)) el[n + o - 1] = 1; // never for o = 0
  for (let i = 1; i <= n; i++) if (eligible(sim, x, o, i, contrOK)) el[i - 1] = 1;
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
