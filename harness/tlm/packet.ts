/**
 * The packet transports of the Buzzard TLM (fixed packet and quasi-adaptive,
 * buzzard-tlm.ts's header comment), beside the wormhole transport
 * (wormhole.ts): a crossbar output's winner takes its packet (tryPacket),
 * the packet goes on the wire (grantPacket), its head reaches the next PBU
 * (headPacket), its last bit leaves (txEnd) and the source side is released
 * (releaseSource), and it is delivered into node memory (deliver,
 * deliverBroadcast).
 *
 * Packet timing (cut-through): a packet granted at time g on a link occupies
 * it for its wire time (wire: framing + header + payload); its head is at the
 * next PBU config.forwardStart after g, which may then arbitrate and forward
 * it before its tail has arrived (never faster than it arrives: all rates
 * are equal and forwarding starts later). The buffer is freed when the last
 * byte has been forwarded (config.pbuReleaseTicks earlier in calibrated
 * mode). A packet is delivered when its last byte has entered the node
 * input port (plus config.storeTicks).
 */
import type { BuzzardTlm } from './buzzard-tlm.ts';
import { arbitrate } from './crossbar.ts';
import { BUSY, EV_GRANT, EV_HEAD, EV_OFREE, EV_PBUFREE, EV_TXEND, IDLE } from './internal.ts';

/** Payload bytes of packet k of message m. */
export function payload(sim: BuzzardTlm, m: number, k: number): number {
  const rest = sim.mBytes[m]! + sim.prefix - k * sim.P;
  return rest < sim.P ? rest : sim.P;
}

/** Wire time of packet k of message m: framing + its header and payload, rounded up to whole wire words. */
export function wire(sim: BuzzardTlm, m: number, k: number): number {
  const b = sim.H + payload(sim, m, k);
  const w = sim.wordB;
  return sim.framing + (w === 1 ? b : Math.ceil(b / w) * w) * sim.tpb;
}

/** Control-unit store of packet k's last data word (config.storeTicks): full word or read-modify-write. */
export function storeDelay(sim: BuzzardTlm, m: number, k: number): number {
  const st = sim.cfg.storeTicks;
  const first = sim.P - sim.prefix;
  const from = k === 0 ? 0 : first + (k - 1) * sim.P;
  const to = Math.min(sim.mBytes[m]!, k === 0 ? first : from + sim.P);
  return (to % 4 === 0 ? st.fullWord : st.partialWord) + (k === 0 && to - from <= 2 ? st.shortFirstExtra : 0);
}

export function tryPacket(sim: BuzzardTlm, qo: number): void {
  if (sim.oState[qo] !== IDLE) return;
  const n = sim.n;
  const n1 = sim.n1;
  const x = sim.oNode[qo]!;
  const o = sim.oPort[qo]!;
  let pdown = -1;
  let contrOK = true;
  if (o > 0) {
    pdown = (x ^ (1 << (o - 1))) * n + o - 1;
    const free = sim.pFree[pdown]!;
    if (free === 0) return;
    // §7 / A8: refuse a contrary packet iff free ≤ 1 and every occupied buffer is contrary.
    if (sim.rule) contrOK = free >= 2 || sim.B - free - sim.pContr[pdown]! >= 1;
  }
  const win = arbitrate(sim, qo, contrOK);
  if (win < 0) return;
  let msg: number;
  let pkt: number;
  let contr = 0;
  if (win === 0) {
    const s = x * n + o - 1;
    msg = sim.sHead[s]!;
    pkt = sim.sNextPkt[s]!;
    sim.sBusy[s] = 1;
    contr = sim.mContr[msg]!;
    sim.oSrcBuf[qo] = -1;
  } else {
    const p = x * n + win - 1;
    sim.pBusy[p] = 1;
    sim.pLast[p] = o;
    const B = sim.B;
    const len = sim.pLen[p]!;
    let b = -1;
    for (let k = 0; k < len; k++) {
      const bb = sim.pList[p * B + k]!;
      if (sim.bReady[bb] && sim.bNext[bb] === o) {
        b = bb;
        break;
      }
    }
    sim.bReady[b] = 0;
    sim.pReady[p * n1 + o]--;
    msg = sim.bMsg[b]!;
    pkt = sim.bPkt[b]!;
    sim.oSrcBuf[qo] = b;
  }
  sim.oMsg[qo] = msg;
  sim.oPkt[qo] = pkt;
  if (o > 0) {
    // Reserve a buffer in the downstream PBU (§8.9 item 3).
    const B = sim.B;
    const base = pdown * B;
    let b = base;
    while (sim.bMsg[b]! >= 0) b++;
    sim.bMsg[b] = msg;
    sim.bPkt[b] = pkt;
    sim.bContr[b] = contr;
    sim.bReady[b] = 0;
    const bc = sim.mBc[msg]!;
    sim.bBc[b] = bc;
    sim.bNext[b] = bc ? 0 : sim.nextPort(x ^ (1 << (o - 1)), sim.mDst[msg]!); // a broadcast copy goes to O_0 first (A11)
    sim.pbuTouch(pdown);
    sim.pFree[pdown]--;
    if (contr) sim.pContr[pdown]++;
    sim.pList[base + sim.pLen[pdown]!] = b;
    sim.pLen[pdown]++;
    sim.oDstBuf[qo] = b;
  } else sim.oDstBuf[qo] = -1;
  sim.q.push(sim.now + sim.arb, EV_GRANT, qo);
}

export function grantPacket(sim: BuzzardTlm, qo: number): void {
  const x = sim.oNode[qo]!;
  const o = sim.oPort[qo]!;
  const msg = sim.oMsg[qo]!;
  const pkt = sim.oPkt[qo]!;
  sim.oState[qo] = BUSY;
  const dur = wire(sim, msg, pkt);
  sim.busy[qo] += dur;
  if (pkt === 0 && sim.oWin[qo] === 0) sim.mInj[msg] = sim.now;
  if (o === 0 && sim.rxDelay > 0) sim.nipUntil[x] = sim.now + dur;
  const headT = sim.now + sim.H * sim.tpb;
  // The next PBU may route the packet once forwardStart bytes of it are in (config.forwardStart; 'header' = H).
  if (o > 0) sim.q.push(sim.now + (sim.fwd < 0 || sim.fwd > dur ? dur : sim.fwd), EV_HEAD, sim.oDstBuf[qo]!);
  // config.pbuReleaseTicks: a forwarding PBU may take another output before the last bit (a broadcast copy keeps it, A11)
  if (o > 0 && sim.pbuRel > 0 && sim.oWin[qo] !== 0 && dur > 1 && !sim.bBc[sim.oSrcBuf[qo]!]) {
    sim.oPbuEarly[qo] = 1;
    sim.q.push(sim.now + dur - Math.min(sim.pbuRel, dur - 1), EV_PBUFREE, qo);
  }
  if (o === 0 && sim.nipRel > 0 && dur > sim.nipRel) {
    sim.q.push(sim.now + dur - sim.nipRel, EV_OFREE, qo);
    // A broadcast copy keeps its PBU until it has moved on to its next output (A11 copy order).
    if (sim.nipPbuRel > 0 && !sim.bBc[sim.oSrcBuf[qo]!]) sim.q.push(sim.now + dur - Math.min(sim.nipPbuRel, dur - 1), EV_OFREE, qo + sim.oCount);
    sim.q.push(sim.now + dur, EV_TXEND, qo + sim.oCount);
  } else sim.q.push(sim.now + dur, EV_TXEND, qo);
  if (sim.rec) {
    const win = sim.oWin[qo]!;
    const unit = win === 0 ? 'nop' : `pbu${win}`;
    sim.emit(sim.now, 'grant', msg, x, pkt, unit, o);
    sim.emit(sim.now, win === 0 ? 'packet-injected' : 'packet-forwarded', msg, x, pkt, unit, o);
    if (o === 0) sim.emit(headT, 'head-arrives', msg, x, pkt, 'nip', 0);
  }
}

export function headPacket(sim: BuzzardTlm, b: number): void {
  const p = (b / sim.B) | 0;
  const o = sim.bNext[b]!;
  sim.bReady[b] = 1;
  sim.pReady[p * sim.n1 + o]++;
  const x = (p / sim.n) | 0;
  sim.markDirty(sim.outIdx(x, p, o));
  if (sim.rec) {
    const i = p - x * sim.n + 1;
    sim.emit(sim.now, 'head-arrives', sim.bMsg[b]!, x, sim.bPkt[b]!, `pbu${i}`, i);
  }
}

export function txEnd(sim: BuzzardTlm, arg: number): void {
  const n = sim.n;
  const n1 = sim.n1;
  const tail = arg >= sim.oCount; // the node input port was released early (nipFree)
  const qo = tail ? arg - sim.oCount : arg;
  const x = sim.oNode[qo]!;
  const o = sim.oPort[qo]!;
  const msg = tail ? sim.tMsg[qo]! : sim.oMsg[qo]!;
  const pkt = tail ? sim.tPkt[qo]! : sim.oPkt[qo]!;
  const win = tail ? sim.tWin[qo]! : sim.oWin[qo]!;
  if (!tail) sim.oState[qo] = IDLE;
  if (win === 0 || !sim.rotate) sim.markDirty(qo);
  if (win === 0) {
    const s = x * n + o - 1;
    sim.sBusy[s] = 0;
    if (++sim.sNextPkt[s]! === sim.mNPk[msg]) {
      // The whole message has left the slot: next message of the send queue.
      const nx = sim.mNextQ[msg]!;
      sim.sHead[s] = nx;
      if (nx < 0) sim.sTail[s] = -1;
      sim.sCount[s]--;
      sim.sNextPkt[s] = 0;
    }
  } else {
    // Free the buffer the packet was forwarded from (§8.2 output step 6), unless a broadcast copy is still due.
    const p = x * n + win - 1;
    const b = tail ? sim.tSrcBuf[qo]! : sim.oSrcBuf[qo]!;
    const nextCopy = sim.bBc[b] ? (o === 0 ? win + 1 : o + 1) : n1; // A11: O_0, then O_{i+1} … O_n
    if (nextCopy < n1) {
      sim.bNext[b] = nextCopy;
      sim.bReady[b] = 1;
      sim.pReady[p * n1 + nextCopy]++;
      sim.pBusy[p] = 0; // a broadcast copy is never released early (grantPacket)
      sim.pLast[p] = o;
      markReadyAfter(sim, x, p, o);
      if (o === 0) deliver(sim, msg, pkt, x);
      return;
    }
    if (sim.oPbuEarly[qo]) {
      sim.oPbuEarly[qo] = 0; // the PBU and its buffer were released before the last bit (pbuFree)
      sim.markDirty(qo);
    } else releaseSource(sim, qo, p, b, tail);
  }
  if (o === 0) deliver(sim, msg, pkt, x);
}

/**
 * The PBU p that forwarded a packet on output qo from buffer b is done with
 * it: the buffer is freed (§8.2 output step 6), the PBU may forward again
 * (unless nipFree released it already), its outputs and the link feeding
 * it are offered again. At the last bit (txEnd), or earlier
 * (config.pbuReleaseTicks, pbuFree).
 */
export function releaseSource(sim: BuzzardTlm, qo: number, p: number, b: number, tail: boolean): void {
  const n1 = sim.n1;
  const x = sim.oNode[qo]!;
  const o = sim.oPort[qo]!;
  const win = p - x * sim.n + 1;
  const B = sim.B;
  const base = p * B;
  const len = sim.pLen[p]!;
  let k = 0;
  while (sim.pList[base + k] !== b) k++;
  for (; k < len - 1; k++) sim.pList[base + k] = sim.pList[base + k + 1]!;
  sim.pLen[p] = len - 1;
  sim.bMsg[b] = -1;
  sim.pbuTouch(p);
  sim.pFree[p]++;
  if (sim.bContr[b]) sim.pContr[p]--;
  if (!(tail && sim.nipPbuRel > 0 && !sim.bBc[b])) sim.pBusy[p] = 0; // else already released (nipFree)
  if (sim.rotate) {
    // pbuOutputOrder 'rotate': the PBU's other outputs first (port order after the one just used), this output last.
    markReadyAfter(sim, x, p, o);
    sim.markDirty(qo);
  } else for (let o2 = 0; o2 < n1; o2++) if (sim.pReady[p * n1 + o2]! > 0) sim.markDirty(sim.outIdx(x, p, o2));
  sim.markDirty((x ^ (1 << (win - 1))) * n1 + win);
}

/** Mark node x's PBU p's outputs that have a packet ready dirty, in port order after output o (o itself last). */
function markReadyAfter(sim: BuzzardTlm, x: number, p: number, o: number): void {
  const n1 = sim.n1;
  for (let j = 1; j <= n1; j++) {
    const o2 = (o + j) % n1;
    if (sim.pReady[p * n1 + o2]! > 0) sim.markDirty(sim.outIdx(x, p, o2));
  }
}

export function deliver(sim: BuzzardTlm, m: number, pkt: number, x: number): void {
  if (sim.mBc[m]) return deliverBroadcast(sim, m, pkt, x);
  if (pkt !== sim.mDelivered[m]) sim.orderViolations++;
  const d = ++sim.mDelivered[m]!;
  const t = sim.store ? sim.now + storeDelay(sim, m, pkt) : sim.now;
  if (d === 1) {
    sim.mFirst[m] = t;
    if (sim.rec) sim.emit(t, 'first-packet-delivered', m, x, pkt, 'nip', 0);
  }
  if (d === sim.mNPk[m]) {
    sim.mLast[m] = t;
    sim.deliveredCount++;
    if (sim.rec) sim.emit(t, 'message-complete', m, x, pkt, 'nip', 0);
  }
}

/** A broadcast copy of packet `pkt` reached node x: per-destination times; the message is complete when every other node has it. */
export function deliverBroadcast(sim: BuzzardTlm, leg: number, pkt: number, x: number): void {
  const m = sim.mOrig[leg]!;
  const b = sim.bcOf[m]!;
  const i = b * sim.N + x;
  if (pkt !== sim.bcCount[i]) sim.orderViolations++;
  const d = ++sim.bcCount[i]!;
  const t = sim.store ? sim.now + storeDelay(sim, leg, pkt) : sim.now;
  if (d === 1) sim.bcFirst[i] = t;
  if (d !== sim.mNPk[leg]) return;
  sim.bcLast[i] = t;
  if (sim.rec) sim.emit(t, 'message-complete', m, x, pkt, 'nip', 0);
  if (++sim.bcDone[b]! === sim.N - 1) {
    // every destination complete: the message's first / last are the latest over the destinations
    let f = -Infinity;
    let l = -Infinity;
    for (let y = 0; y < sim.N; y++) {
      if (y === sim.mSrc[m]) continue;
      f = Math.max(f, sim.bcFirst[b * sim.N + y]!);
      l = Math.max(l, sim.bcLast[b * sim.N + y]!);
    }
    sim.mFirst[m] = f;
    sim.mLast[m] = l;
    sim.mDelivered[m] = sim.mNPk[m]!;
    sim.deliveredCount++;
  }
}
