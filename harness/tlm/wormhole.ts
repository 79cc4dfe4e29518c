/**
 * The wormhole transport of the Buzzard TLM (the fluid worm of
 * buzzard-tlm.ts's header comment): a worm's head arbitrates hop by hop like
 * a packet, the worm holds every link it has until its tail has passed, the
 * source slot frees at τ_1 (or at delivery, config.wormholeSlotFree).
 */
import type { BuzzardTlm } from './buzzard-tlm.ts';
import { arbitrate } from './crossbar.ts';
import { BUSY, EV_GRANT, EV_HEAD, EV_RELEASE, EV_SLOTFREE, IDLE } from './internal.ts';

export function tryWorm(sim: BuzzardTlm, qo: number): void {
  if (sim.oState[qo] !== IDLE) return;
  const n = sim.n;
  const n1 = sim.n1;
  const x = sim.oNode[qo]!;
  const o = sim.oPort[qo]!;
  const win = arbitrate(sim, qo, true);
  if (win < 0) return;
  let msg: number;
  if (win === 0) {
    const s = x * n + o - 1;
    msg = sim.sHead[s]!;
    sim.sBusy[s] = 1;
  } else {
    const p = x * n + win - 1;
    msg = sim.pWait[p]!;
    sim.pWait[p] = -1;
    sim.pReady[p * n1 + o]--;
  }
  sim.oMsg[qo] = msg;
  sim.q.push(sim.now + sim.arb, EV_GRANT, qo);
}

export function grantWorm(sim: BuzzardTlm, qo: number): void {
  const n1 = sim.n1;
  const x = sim.oNode[qo]!;
  const o = sim.oPort[qo]!;
  const msg = sim.oMsg[qo]!;
  const now = sim.now;
  sim.oState[qo] = BUSY;
  sim.oSince[qo] = now;
  const k = ++sim.mHop[msg]!; // this grant is for channel k (link k, or the node input port when o = 0)
  sim.mPathQ[msg * n1 + k - 1] = qo;
  sim.mPathG[msg * n1 + k - 1] = now;
  const tpb = sim.tpb;
  const bytes = sim.mBytes[msg]!;
  const Wt = (sim.H + bytes) * tpb; // worm on the wire
  const Ft = sim.H * tpb + sim.arb; // per-node buffer, in ticks of link time
  // Node buffers the worm fills; with F = 0 (no header, no arbitration) nodes hold nothing and the worm keeps every link to the end.
  const c = Ft > 0 ? Math.max(1, Math.ceil(Wt / Ft)) : Infinity;
  sim.busy[qo] += Wt;
  const s = sim.mSrc[msg]! * sim.n + sim.mDim[msg]! - 1;
  const win = sim.oWin[qo]!;
  if (k === 1) sim.mInj[msg] = now;
  if (sim.rec) {
    const unit = win === 0 ? 'nop' : `pbu${win}`;
    sim.emit(now, 'grant', msg, x, 0, unit, o);
    sim.emit(now, win === 0 ? 'packet-injected' : 'packet-forwarded', msg, x, 0, unit, o);
  }
  if (o > 0) {
    sim.mCur[msg] = x ^ (1 << (o - 1));
    sim.q.push(now + sim.H * tpb, EV_HEAD, msg);
    const tail = now + Wt - (c - 1) * Ft;
    if (k === c && sim.slotAtTail) sim.q.push(tail, EV_SLOTFREE, s); // τ_1
    if (k - c >= 1) sim.q.push(tail, EV_RELEASE, sim.mPathQ[msg * n1 + k - c - 1]!); // channel k−c at τ_{k−c+1}
    return;
  }
  // Node input port granted (k = d + 1): the worm streams at link rate from now.
  const d = k - 1;
  const firstT = now + (sim.H + Math.min(sim.P, bytes)) * tpb;
  sim.mFirst[msg] = firstT;
  if (sim.rec) {
    sim.emit(now + sim.H * tpb, 'head-arrives', msg, x, 0, 'nip', 0);
    sim.emit(firstT, 'first-packet-delivered', msg, x, 0, 'nip', 0);
  }
  if (!sim.slotAtTail) sim.q.push(now + Wt, EV_SLOTFREE, s); // wormholeSlotFree 'delivered': with the last byte
  else if (c >= d + 1) sim.q.push(now + Wt - d * Ft, EV_SLOTFREE, s); // τ_1
  for (let j = Math.max(1, d + 1 - c); j <= d; j++) sim.q.push(now + Wt - (d - j) * Ft, EV_RELEASE, sim.mPathQ[msg * n1 + j - 1]!); // τ_{j+1}
  sim.q.push(now + Wt, EV_RELEASE, qo);
}

export function headWorm(sim: BuzzardTlm, msg: number): void {
  const n = sim.n;
  const y = sim.mCur[msg]!;
  const k = sim.mHop[msg]!;
  const i = sim.oPort[sim.mPathQ[msg * sim.n1 + k - 1]!]!; // dimension of the link the head came in on
  const p = y * n + i - 1;
  if (sim.pWait[p]! >= 0) throw new Error(`tlm: internal error: two worm heads in input unit ${i} of node ${y}`);
  sim.pWait[p] = msg;
  const o = sim.nextPort(y, sim.mDst[msg]!);
  sim.pReady[p * sim.n1 + o]++;
  sim.markDirty(sim.outIdx(y, p, o));
  if (sim.rec) sim.emit(sim.now, 'head-arrives', msg, y, 0, `pbu${i}`, i);
}

export function release(sim: BuzzardTlm, qo: number): void {
  sim.oState[qo] = IDLE;
  sim.held[qo] += sim.now - sim.oSince[qo]!;
  sim.markDirty(qo);
  if (sim.oPort[qo] === 0) {
    const msg = sim.oMsg[qo]!;
    sim.mLast[msg] = sim.now;
    sim.mDelivered[msg] = 1;
    sim.deliveredCount++;
    if (sim.rec) sim.emit(sim.now, 'message-complete', msg, sim.oNode[qo]!, 0, 'nip', 0);
  }
}

export function slotFree(sim: BuzzardTlm, s: number): void {
  const msg = sim.sHead[s]!;
  sim.sBusy[s] = 0;
  const nx = sim.mNextQ[msg]!;
  sim.sHead[s] = nx;
  if (nx < 0) sim.sTail[s] = -1;
  sim.sCount[s]--;
  const x = (s / sim.n) | 0;
  sim.markDirty(x * sim.n1 + (s - x * sim.n) + 1);
}
