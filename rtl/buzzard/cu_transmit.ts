/**
 * Transmit room of the Buzzard control unit (seed 002 §5.4.7, §5.1.2, §4.1.1;
 * buzzard §5, §8.4, A5–A7, A11, A13; the unit: control_unit.ts).
 *
 * Instruction send (§4.1.1, §5.1.2): check the block, the destination
 * (< 2^n, ≠ self), length and buffer (word aligned, inside memory below the
 * CU tables); choose the slot: routing 'e-cube' → the e-cube first port;
 * 'quasi-adaptive' → among the profitable ports the one with the fewest
 * messages (queued + the one in the slot, A13), ties to the e-cube port, then
 * the lowest dimension (§5.2, buzzard §6.3; the e-cube port is the lowest
 * profitable port, so the two tie rules agree). Append the block to that slot's
 * send queue (linked through the queue link word, head/tail/length in
 * registers qHead{j}/qTail{j}/qLen{j}: the on-chip pointer table of Fig.
 * 5.2) and acknowledge. When the slot has no message (sAct{j} = 0) and its
 * queue is not empty, the head block is dequeued, read, and its completion
 * flag set to 1 ("in progress": the message is taken into the slot).
 * Packetising (buzzard §5, A5–A7): the message's 16-bit word stream M = prefix
 * (A7, header_blocks.prefixLayout) ++ data (big-endian halves of memory
 * words); packet k carries M[14k .. 14k+13] (32-byte packets; 30 for 64)
 * after the destination and source words; L = words after the destination.
 * Slot loads (buzzard §8.4, DESIGN.md): a head = pfCount 25 (26), pfData =
 * preheader(C, P, L) << 16 | destination; then 32-bit chunks (first word in
 * bits 31..16) and a last 16-bit chunk (bits 15..0) for an odd count; the
 * first chunk of a packet starts with the source word (framing.sourceWord:
 * node | slot << 12). C = 1 when the slot is not the e-cube first port; P =
 * nextPort(neighbour across the slot, destination). A load is made when the
 * slot's prefetch buffer is empty and it requests a refill or is idle, and
 * never in the cycle after a load (the slot's flags are then one cycle old).
 * The completion flag becomes 3 when the slot reports pktDone for the
 * message's last packet (its last bit has left the node), counted with
 * sOut{j} (packets loaded, not done) and finCnt{j}; the next message of the
 * slot may already be loading then.
 * Broadcast (A11: all n slots, C = 0, P = 0: the first copy goes to the
 * neighbour's node input port; destination word = node | BROADCAST_TAG, the
 * source word carries the slot) and NN-broadcast (A11: one unicast stream per
 * listed neighbour, slot = its port, C = 0, P = 0) are queued on one
 * broadcast queue (mqHead/mqTail; kind in the link's low bits). Its head
 * reserves its target slots as they finish their messages (sRes{j}; a
 * reserved slot starts no unicast), then starts all of them together; the
 * members share one two-word fetch window (mW0/mW1), so every word is
 * fetched once and handed to each slot as it asks for it (buzzard §8.4 last
 * bullet). One broadcast is in flight at a time (mBusy); its flag is 3 when
 * every member slot's last packet has left.
 */
import { BROADCAST_TAG, packPreheader, sourceWord } from './framing.ts';
import { CU_ERR, NNB, OP, SEND } from './header_blocks.ts';
import { ecubeFirstPort, nextPort } from './routing.ts';
import { type CuKit, E, popcount, ENGINE_STATES, type MsgSlots } from './cu_kit.ts';

export function cuTransmit(kit: CuKit) {
  const {
    cfg, n, nodes, self, pfx, P0, per, headCount, lb, allMask, slots, memAddr, txRr, tA, tB, tC, tJ,
    iCnt, cur, mqHead, mqTail, mqReady, mqMask, mBusy, mBlk, mLeft, mLen, mBuf, mType, mWV,
    uniViews, multiView, s, g, gi, p, fail, bus, rd, wr, go, setError, bufOk,
  } = kit;
  // ---- send-side helpers
  const view = (j: number): MsgSlots => (g(slots[j]!.multi) ? multiView : uniViews[j]!);
  const totalM = (len: number): number => P0 + Math.ceil(len / 2);
  const prefixWord = (h: number, type: number, len: number): number => {
    if (h === pfx.typeAt) return type & 0xffff;
    if (h === pfx.lenAt) return Math.floor(len / 65536) & 0xffff;
    if (h === pfx.lenAt + 1 && pfx.lenAt >= 0) return len & 0xffff;
    return 0;
  };
  /** Memory word address of M word h (h >= P0). */
  const wordOfM = (v: MsgSlots, h: number): number => g(v.buf) + 4 * ((h - P0) >> 1);
  /** Lowest memory word address the slot will still need, or Infinity. */
  const minNeed = (j: number, v: MsgSlots): number => {
    const sl = slots[j]!;
    const h = g(sl.h);
    const T = totalM(g(v.len));
    if (h >= T) return Infinity;
    return h < P0 ? g(v.buf) : wordOfM(v, h);
  };
  /** M indices the slot's next data load consumes, and the chunk size. */
  const loadPlan = (j: number): { first: boolean; hs: number[]; k: number } => {
    const sl = slots[j]!;
    const rem = g(sl.rem);
    const k = rem >= 2 ? 2 : 1;
    const h = g(sl.h);
    if (g(sl.ph) === 1) return { first: true, hs: k === 2 ? [h] : [], k };
    return { first: false, hs: k === 2 ? [h, h + 1] : [h], k };
  };
  /**
   * The first memory word of the slot's next data load (loadPlan's M indices,
   * in order) not in the fetch window, or -1. Without the arrays:
   * the engine asks this at every dispatch of a waiting slot (issue 8).
   */
  const firstMiss = (j: number, v: MsgSlots): number => {
    const sl = slots[j]!;
    const h = g(sl.h);
    const k = g(sl.rem) >= 2 ? 2 : 1;
    const count = g(sl.ph) === 1 ? k - 1 : k; // a first chunk starts with the source word
    for (let x = 0; x < count; x++) {
      if (h + x < P0) continue;
      const a = wordOfM(v, h + x);
      if (!inWin(v, a)) return a;
    }
    return -1;
  };
  const inWin = (v: MsgSlots, a: number): boolean => {
    const wv = g(v.wv);
    const wa = g(v.wa);
    return (wv >= 1 && a === wa) || (wv === 2 && a === wa + 4);
  };
  const canDrop = (j: number, v: MsgSlots, wa: number): boolean => {
    if (!g(slots[j]!.multi)) return minNeed(j, v) > wa;
    for (let q = 0; q < n; q++) {
      const sl = slots[q]!;
      if (g(sl.act) && g(sl.multi) && minNeed(q, v) <= wa) return false;
    }
    return true;
  };
  /**
   * The next word the slot's load must fetch: -1 none (all on chip), -2 it
   * must wait for the other slots sharing the window, else the address (and
   * the window is shifted if needed: call with commit = true only then).
   */
  const fetchPlan = (j: number, commit: boolean): number => {
    const v = view(j);
    const a = firstMiss(j, v);
    if (a === -1) return -1;
    const wv = g(v.wv);
    const wa = g(v.wa);
    if (wv === 0) return a;
    if (a !== wa + 4 * wv) fail(`internal: slot ${j + 1} needs word 0x${a.toString(16)} outside the fetch window at 0x${wa.toString(16)}`);
    if (wv === 1) return a;
    if (!canDrop(j, v, wa)) return -2;
    if (commit) {
      p(v.w0, g(v.w1));
      p(v.wa, wa + 4);
      p(v.wv, 1);
    }
    return a;
  };
  const winWord = (v: MsgSlots, a: number): number => {
    if (g(v.wv) >= 1 && a === g(v.wa)) return g(v.w0);
    if (g(v.wv) === 2 && a === g(v.wa) + 4) return g(v.w1);
    return fail(`internal: word 0x${a.toString(16)} not in the fetch window`);
  };
  const mWord = (v: MsgSlots, h: number): number => {
    const len = g(v.len);
    if (h < P0) return prefixWord(h, g(v.type), len);
    const d = h - P0;
    const w = winWord(v, wordOfM(v, h));
    let half = d & 1 ? w & 0xffff : w >>> 16;
    if (2 * d + 1 === len) half &= 0xff00; // odd length: padding byte 0
    return half;
  };
  const loadSlot = (j: number, data: number, count: number): void => {
    const sl = slots[j]!;
    p(sl.pfLoad, 1);
    p(sl.pfData, data >>> 0);
    p(sl.pfCount, count);
  };
  /** Head load of the slot's next packet (no memory needed). */
  const loadHead = (j: number): void => {
    const sl = slots[j]!;
    const v = view(j);
    const T = totalM(g(v.len));
    const cnt = Math.min(T - g(sl.h), per);
    const Lw = 1 + cnt;
    const cp = g(sl.cp);
    const pre = packPreheader(cp >> 4, cp & 15, Lw, lb);
    loadSlot(j, pre * 65536 + g(sl.dst), headCount);
    p(sl.rem, Lw);
    p(sl.ph, 1);
    p(sl.out, g(sl.out) + 1);
    p(sl.packets, (g(sl.packets) + 1) & 0xffff);
  };
  /** Data load (all its memory words in the window). */
  const loadData = (j: number): void => {
    const sl = slots[j]!;
    const v = view(j);
    // loadPlan's halves without its arrays (issue 8: no allocation per load):
    // a first chunk is the source word, then M words from h0, k halves in all
    const h0 = g(sl.h);
    const k = g(sl.rem) >= 2 ? 2 : 1;
    const first = g(sl.ph) === 1;
    const hi = first ? g(sl.srcW) : mWord(v, h0);
    if (k === 2) loadSlot(j, hi * 65536 + mWord(v, first ? h0 : h0 + 1), 32);
    else loadSlot(j, hi, 16);
    const rem = g(sl.rem) - k;
    const h = h0 + (first ? k - 1 : k);
    p(sl.rem, rem);
    p(sl.h, h);
    p(sl.ph, 2);
    if (rem === 0) {
      if (h >= totalM(g(v.len))) {
        // last load of the message
        if (g(sl.finPend) || g(sl.finCnt)) fail(`slot ${j + 1}: a message ended while the previous one's last packet is still in the slot (pktDone missing)`);
        p(sl.finCnt, g(sl.out));
        p(sl.finBlk, g(sl.blk));
        p(sl.finMulti, g(sl.multi));
        p(sl.act, 0);
        p(sl.multi, 0);
      } else p(sl.ph, 0);
    }
  };
  const slotWantsLoad = (j: number): boolean => {
    const sl = slots[j]!;
    return g(sl.act) === 1 && gi(sl.pfLoad) === 0 && gi(sl.pfAvail) === 0 && (gi(sl.refill) !== 0 || gi(sl.idle) !== 0) && g(sl.finPend) === 0;
  };
  /** Serve a load: returns true when done without memory; else issues a fetch. */
  const serveLoad = (j: number): void => {
    const sl = slots[j]!;
    if (g(sl.ph) === 0) {
      loadHead(j);
      return go(E.IDLE);
    }
    const a = fetchPlan(j, true);
    if (a === -1) {
      loadData(j);
      return go(E.IDLE);
    }
    if (a === -2) fail('internal: load dispatched while waiting for the window');
    p(tJ, j);
    rd(a, E.T_LD_F);
  };
  const countOf = (j: number): number => {
    const sl = slots[j]!;
    return g(sl.qLen) + (g(sl.act) || g(sl.res) ? 1 : 0);
  };
  const chooseSlot = (dest: number): number => {
    const e = ecubeFirstPort(self, dest);
    if (cfg.routing === 'e-cube') return e;
    let best = -1;
    let bestC = Infinity;
    for (let q = 1; q <= n; q++) {
      if (!(((self ^ dest) >> (q - 1)) & 1)) continue;
      const c = countOf(q - 1);
      if (c < bestC || (c === bestC && q === e)) {
        best = q;
        bestC = c;
      }
    }
    return best;
  };
  /** Initialise slot j (0-based) for a message to `dst` word with C/P. */
  const startStream = (j: number, blk: number, dstWord: number, c: number, port: number, multi: boolean): void => {
    const sl = slots[j]!;
    p(sl.act, 1);
    p(sl.res, 0);
    p(sl.multi, multi ? 1 : 0);
    p(sl.blk, blk);
    p(sl.dst, dstWord);
    p(sl.srcW, sourceWord(self, j + 1));
    p(sl.cp, (c << 4) | port);
    p(sl.h, 0);
    p(sl.rem, 0);
    p(sl.ph, 0);
    p(sl.wv, 0);
  };

  /** The state-vector slots the transmit task's first look reads, per slot: registers' next values (slot + 1), inputs' values. */
  const slotIndex = (f: (sl: (typeof slots)[number]) => number): Int32Array => Int32Array.from(slots, f);
  const ix = {
    finPend: slotIndex((sl) => sl.finPend + 1), act: slotIndex((sl) => sl.act + 1), res: slotIndex((sl) => sl.res + 1), qHead: slotIndex((sl) => sl.qHead + 1),
    pfLoad: slotIndex((sl) => sl.pfLoad), pfAvail: slotIndex((sl) => sl.pfAvail), refill: slotIndex((sl) => sl.refill), idle: slotIndex((sl) => sl.idle),
  };
  /**
   * Whether any of the transmit task's four steps may act: a superset of
   * their conditions (a completion pending, a slot that may want a load, the
   * broadcast queue, a queued message for a free slot), from direct
   * state-vector reads. Most IDLE dispatches find nothing to do (issue 8:
   * the engine is woken by slot flags and FIFO counts while it waits); they
   * end here instead of walking the four steps in rotation.
   */
  const mayAct = (): boolean => {
    const S = s();
    const x = ix;
    if (S[mqHead + 1] !== 0 && S[mBusy + 1] === 0) return true;
    for (let j = 0; j < n; j++) {
      if (S[x.finPend[j]!] !== 0) return true;
      if (S[x.act[j]!] !== 0) {
        if (S[x.pfLoad[j]!] === 0 && S[x.pfAvail[j]!] === 0 && (S[x.refill[j]!] !== 0 || S[x.idle[j]!] !== 0)) return true;
      } else if (S[x.res[j]!] === 0 && S[x.qHead[j]!] !== 0) return true;
    }
    return false;
  };

  /** The transmit task's four steps in priority order, each in slot rotation from txRr; true when one acted. */
  const txSteps = (): boolean => {
    const start = g(txRr);
    // 1. completion writes
    for (let k = 0; k < n; k++) {
      const j = (start + k) % n;
      const sl = slots[j]!;
      if (!g(sl.finPend)) continue;
      p(sl.finPend, 0);
      p(txRr, (j + 1) % n);
      if (g(sl.finMulti)) {
        const left = g(mLeft) - 1;
        p(mLeft, left);
        if (left === 0) {
          p(mBusy, 0);
          wr(g(mBlk) + 4 * NNB.flag, 3, E.IDLE);
        } else go(E.IDLE);
      } else wr(g(sl.finBlk) + 4 * SEND.flag, 3, E.IDLE);
      return true;
    }
    // 2. slot loads
    for (let k = 0; k < n; k++) {
      const j = (start + k) % n;
      if (!slotWantsLoad(j)) continue;
      if (g(slots[j]!.ph) !== 0 && fetchPlan(j, false) === -2) continue;
      p(txRr, (j + 1) % n);
      serveLoad(j);
      return true;
    }
    // 3. broadcast queue
    if (g(mqHead) !== 0 && !g(mBusy)) {
      if (!g(mqReady)) {
        const blk = g(mqHead) & ~3;
        if ((g(mqHead) & 3) === 0) {
          p(mqMask, allMask);
          p(mqReady, 1);
          go(E.IDLE);
        } else rd(blk + 4 * NNB.count, E.M_PC);
        p(cur, blk);
        return true;
      }
      const mask = g(mqMask);
      let all = true;
      for (let q = 0; q < n; q++) if ((mask >> q) & 1 && !g(slots[q]!.res)) all = false;
      if (all) {
        const blk = g(mqHead) & ~3;
        p(mBlk, blk);
        p(tA, g(mqHead) & 3);
        rd(blk, E.M_ST_LINK);
        return true;
      }
    }
    // 4. new unicast messages
    for (let k = 0; k < n; k++) {
      const j = (start + k) % n;
      const sl = slots[j]!;
      if (g(sl.act) || g(sl.res) || g(sl.qHead) === 0 || g(sl.finPend)) continue;
      if (g(mqReady) && (g(mqMask) >> j) & 1) continue;
      p(txRr, (j + 1) % n);
      p(tJ, j);
      p(sl.act, 1); // claimed from now on
      p(sl.multi, 0);
      p(sl.blk, g(sl.qHead));
      rd(g(sl.qHead) + 4 * SEND.link, E.T_ST_LINK);
      return true;
    }
    return false;
  };

  /** The transmit task of the IDLE dispatch (control_unit.ts). */
  const txTask = (): boolean => mayAct() && txSteps();

  /** One engine micro-step in a transmit state (T_*, M_*). */
  const step = (state: number): boolean => {
    switch (state) {
      case E.M_PC: {
        const cnt = Math.min(bus.md, n);
        p(tA, cnt);
        p(tC, 0);
        p(iCnt, 0);
        if (cnt === 0) {
          p(mqMask, 0);
          p(mqReady, 1);
          go(E.IDLE);
        } else rd(g(cur) + 4 * NNB.dest0, E.M_PD);
        return false;
      }
      case E.M_PD: {
        const x = (bus.md ^ self) >>> 0;
        if (bus.md < nodes && x !== 0 && (x & (x - 1)) === 0) p(tC, g(tC) | x);
        const k = g(iCnt) + 1;
        p(iCnt, k);
        if (k < g(tA)) rd(g(cur) + 4 * (NNB.dest0 + k), E.M_PD);
        else {
          p(mqMask, g(tC));
          p(mqReady, 1);
          go(E.IDLE);
        }
        return false;
      }
      case E.M_ST_LINK: {
        const nx = bus.md;
        p(mqHead, nx);
        if (nx === 0) p(mqTail, 0);
        rd(g(mBlk) + 4 * NNB.type, E.M_ST_TYPE);
        return false;
      }
      case E.M_ST_TYPE:
        p(mType, bus.md & 0xffff);
        rd(g(mBlk) + 4 * NNB.length, E.M_ST_LEN);
        return false;
      case E.M_ST_LEN:
        p(mLen, bus.md);
        rd(g(mBlk) + 4 * NNB.buffer, E.M_ST_BUF);
        return false;
      case E.M_ST_BUF: {
        const buf = bus.md;
        const mask = g(mqMask);
        const blk = g(mBlk);
        p(mqReady, 0);
        for (let q = 0; q < n; q++) if ((mask >> q) & 1) p(slots[q]!.res, 0);
        if (!bufOk(buf, g(mLen)) || mask === 0) {
          setError(mask === 0 ? CU_ERR.badCount : CU_ERR.badBuffer, g(tA) === 0 ? OP.broadcast : OP.nnBroadcast, blk, buf);
          wr(blk + 4 * NNB.flag, ((mask === 0 ? CU_ERR.badCount : CU_ERR.badBuffer) << 8) | 3, E.IDLE);
          return false;
        }
        p(mBuf, buf);
        p(mWV, 0);
        p(mLeft, popcount(mask));
        p(mBusy, 1);
        const bcast = g(tA) === 0;
        for (let q = 0; q < n; q++) {
          if (!((mask >> q) & 1)) continue;
          if (bcast) startStream(q, blk, BROADCAST_TAG | self, 0, 0, true);
          else startStream(q, blk, self ^ (1 << q), 0, 0, true);
        }
        wr(blk + 4 * NNB.flag, 1, E.IDLE);
        return false;
      }
      // ------------------------------------------------ slot start / loads
      case E.T_ST_LINK: {
        const sl = slots[g(tJ)]!;
        const nx = bus.md;
        p(sl.qHead, nx);
        if (nx === 0) p(sl.qTail, 0);
        p(sl.qLen, g(sl.qLen) - 1);
        rd(g(sl.blk) + 4 * SEND.dest, E.T_ST_DEST);
        return false;
      }
      case E.T_ST_DEST:
        p(tA, bus.md);
        rd(g(slots[g(tJ)]!.blk) + 4 * SEND.type, E.T_ST_TYPE);
        return false;
      case E.T_ST_TYPE:
        p(slots[g(tJ)]!.type, bus.md & 0xffff);
        rd(g(slots[g(tJ)]!.blk) + 4 * SEND.length, E.T_ST_LEN);
        return false;
      case E.T_ST_LEN:
        p(tB, bus.md);
        rd(g(slots[g(tJ)]!.blk) + 4 * SEND.buffer, E.T_ST_BUF);
        return false;
      case E.T_ST_BUF: {
        const j = g(tJ);
        const sl = slots[j]!;
        const blk = g(sl.blk);
        const dest = g(tA);
        const len = g(tB);
        const buf = bus.md;
        // re-check: the user may have changed the block while it was queued
        const bad = dest >= nodes || dest === self ? CU_ERR.badDest : !bufOk(buf, len) ? CU_ERR.badBuffer : !(((dest ^ self) >> j) & 1) ? CU_ERR.badDest : 0;
        if (bad) {
          p(sl.act, 0);
          setError(bad, OP.send, blk, bad === CU_ERR.badBuffer ? buf : dest);
          wr(blk + 4 * SEND.flag, (bad << 8) | 3, E.IDLE);
          return false;
        }
        p(sl.len, len);
        p(sl.buf, buf);
        const port = j + 1;
        startStream(j, blk, dest, port === ecubeFirstPort(self, dest) ? 0 : 1, nextPort(self ^ (1 << j), dest), false);
        wr(blk + 4 * SEND.flag, 1, E.IDLE);
        return false;
      }
      case E.T_LD_F: {
        const j = g(tJ);
        const v = view(j);
        const wv = g(v.wv);
        if (wv === 0) {
          p(v.wa, g(memAddr));
          p(v.w0, bus.md);
          p(v.wv, 1);
        } else {
          p(v.w1, bus.md);
          p(v.wv, 2);
        }
        const a = fetchPlan(j, true);
        if (a === -1) {
          loadData(j);
          go(E.IDLE);
        } else if (a === -2) fail('internal: fetch window blocked during a load');
        else rd(a, E.T_LD_F);
        return false;
      }
      // ------------------------------------------------ receive instruction
      default:
        return fail(`internal: engine state ${ENGINE_STATES[state] ?? state} is not a transmit state`);
    }
  };
  return {
    view, totalM, prefixWord, wordOfM, minNeed, loadPlan, firstMiss, inWin, canDrop, fetchPlan,
    winWord, mWord, loadSlot, loadHead, loadData, slotWantsLoad, serveLoad, countOf, chooseSlot,
    startStream, txTask, mayAct, txSteps, step,
  };
}

export type CuTransmit = ReturnType<typeof cuTransmit>;
