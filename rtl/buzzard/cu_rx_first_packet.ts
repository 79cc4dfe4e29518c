/**
 * Receive path for a first packet, steps 2–3 (seed 002 §5.1.2 receive path
 * 2, 3; buzzard §8.7, A7; the receive task: cu_receive.ts): take the prefix
 * (type, length), search the expected queues (the ANY queue first, skipped
 * when its on-chip count is 0, then the hash bucket of (source, type)); a
 * match is unlinked, gets the actual source and type and, for a null buffer,
 * a system buffer; no match → unexpected: a pool unit holds the message and
 * goes on the arriving-unexpected list. Then the arrival table entry, the ATU
 * entry (allocArriving) and, when the ATU took it, completion flag 1.
 */
import { RECV, SYS_BLOCK_BYTES } from './header_blocks.ts';
import { type CuKit, E, R, ATU, FL_TRUNC, FL_SYS, FL_ATU, RX_STATES } from './cu_kit.ts';
import type { RxBase } from './cu_receive.ts';

/** The states of this room (cu_receive.ts dispatches them here). */
export const RX_FIRST_PACKET_STATES = ['R_PFX', 'R_MATCH0', 'R_M_BKT', 'R_M_RD', 'R_M_SRC', 'R_M_TYPE', 'R_M_NEXT', 'R_F_BUF', 'R_F_LEN', 'R_F_UNL', 'R_ENTER', 'R_ALLOC', 'R_AL2', 'R_AL3', 'R_GO'] as const;

export function cuRxFirstPacket(kit: CuKit, rx: RxBase) {
  const {
    cfg, lay, pfx, P0, S, atuOp, atuKey, atuNext, atuLast, atuOk, anyHead, anyTail, anyCount,
    auHead, auTail, poolMap, rxSt, rxTake, rxSrc, rxDir, rxType, rxLen, rxBlk, rxFl, rxNext,
    rxLast, rxWlim, rxEnd, rxPfx, rxCur, rxPrev, rxMode, rxMs, rxB, rxBL, g, gi, p, fail, bus, rd,
    wr, waitThen, writes, allocUnit, unitBlock, setBit, matches, expBucket, arrAddr, atuKeyOf,
  } = kit;
  const { rxToData, rxWaitPool } = rx;
  const rxMatchStart = (): void => {
    if (g(anyCount) > 0) {
      p(rxMode, 0);
      p(rxPrev, 0);
      rxNode(g(anyHead));
    } else {
      p(rxMode, 1);
      p(rxPrev, 0);
      p(rxSt, R.R_M_BKT);
      rd(expBucket(g(rxSrc), g(rxType)), E.RX);
    }
  };
  /** Examine expected-queue entry c (0 = end of this queue). */
  const rxNode = (c: number): void => {
    p(rxCur, c);
    if (c === 0) {
      if (g(rxMode) === 0) {
        p(rxMode, 1);
        p(rxPrev, 0);
        p(rxSt, R.R_M_BKT);
        rd(expBucket(g(rxSrc), g(rxType)), E.RX);
      } else rxUnexpected();
      return;
    }
    p(rxSt, R.R_M_RD);
    waitThen(S, E.RX);
  };
  const rxUnexpected = (): void => {
    if (pfx.lenAt < 0) fail(`unexpected message from node ${g(rxSrc)} cannot be sized: firstPacketPrefixBytes = ${cfg.firstPacketPrefixBytes} carries no length (A7)`);
    const u = allocUnit();
    if (u < 0) return rxWaitPool();
    setBit(poolMap, u, false);
    const blk = unitBlock(u);
    const B = blk + SYS_BLOCK_BYTES;
    const ML = g(rxLen);
    const stored = Math.min(ML, lay.sysBufBytes);
    const trunc = ML > lay.sysBufBytes;
    p(rxBlk, blk);
    p(rxFl, FL_SYS | (trunc ? FL_TRUNC : 0));
    p(rxNext, B);
    p(rxLast, B + ML - 1);
    p(rxWlim, B + stored - 1);
    const list: [number, number][] = [
      [blk + 4 * RECV.link, 0],
      [blk + 4 * RECV.source, g(rxSrc)],
      [blk + 4 * RECV.type, g(rxType)],
      [blk + 4 * RECV.length, lay.sysBufBytes],
      [blk + 4 * RECV.buffer, B],
      [blk + 4 * RECV.flag, 0],
      [blk + 4 * RECV.link2, 0],
      [blk + 4 * RECV.extra1, B],
      [blk + 4 * RECV.extra2, (B + ML - 1) >>> 0],
    ];
    // arriving-unexpected list (append)
    if (g(auTail) === 0) p(auHead, blk);
    else list.push([g(auTail) + 4 * RECV.link, blk]);
    p(auTail, blk);
    p(rxSt, R.R_ENTER);
    writes(list, E.RX);
  };
  /** One micro-step in receive state r; w is the FIFO head word, wl whether it is the packet's last. */
  const step = (r: number, w: number, wl: boolean): void => {
    switch (r) {
      case R.R_PFX: {
        const k = g(rxPfx);
        if (k === pfx.typeAt) p(rxType, w);
        else if (k === pfx.lenAt) p(rxLen, w * 65536);
        else if (pfx.lenAt >= 0 && k === pfx.lenAt + 1) p(rxLen, g(rxLen) + w);
        p(rxEnd, wl ? 1 : 0);
        if (k + 1 === P0) {
          p(rxTake, 0);
          rxMatchStart();
        } else {
          if (wl) fail(`first packet from node ${g(rxSrc)} ends inside its prefix (A7)`);
          p(rxPfx, k + 1);
        }
        break;
      }
      case R.R_MATCH0:
        rxMatchStart();
        break;
      case R.R_M_BKT:
        rxNode(bus.md);
        break;
      case R.R_M_RD:
        p(rxSt, R.R_M_SRC);
        rd(g(rxCur) + 4 * RECV.source, E.RX);
        break;
      case R.R_M_SRC:
        p(rxMs, bus.md);
        p(rxSt, R.R_M_TYPE);
        rd(g(rxCur) + 4 * RECV.type, E.RX);
        break;
      case R.R_M_TYPE:
        if (matches(g(rxMs), bus.md, g(rxSrc), g(rxType))) {
          p(rxSt, R.R_F_BUF);
          rd(g(rxCur) + 4 * RECV.buffer, E.RX);
        } else {
          p(rxSt, R.R_M_NEXT);
          rd(g(rxCur) + 4 * RECV.link, E.RX);
        }
        break;
      case R.R_M_NEXT:
        p(rxPrev, g(rxCur));
        rxNode(bus.md);
        break;
      case R.R_F_BUF:
        p(rxB, bus.md);
        p(rxSt, R.R_F_LEN);
        rd(g(rxCur) + 4 * RECV.length, E.RX);
        break;
      case R.R_F_LEN: {
        const BL = bus.md;
        if (g(rxB) === 0 && allocUnit() < 0) {
          rxWaitPool();
          break;
        }
        p(rxBL, BL);
        p(rxSt, R.R_F_UNL);
        rd(g(rxCur) + 4 * RECV.link, E.RX);
        break;
      }
      case R.R_F_UNL: {
        const c = g(rxCur);
        const pv = g(rxPrev);
        const nx = bus.md;
        const list: [number, number][] = [];
        if (g(rxMode) === 0) {
          if (pv === 0) p(anyHead, nx);
          else list.push([pv + 4 * RECV.link, nx]);
          if (nx === 0) p(anyTail, pv);
          p(anyCount, g(anyCount) - 1);
        } else {
          const bk = expBucket(g(rxSrc), g(rxType));
          list.push(pv === 0 ? [bk, nx] : [pv + 4 * RECV.link, nx]);
          if (nx === 0) list.push([bk + 4, pv]);
        }
        let B = g(rxB);
        let BL = g(rxBL);
        if (B === 0) {
          const u = allocUnit();
          setBit(poolMap, u, false);
          B = unitBlock(u) + SYS_BLOCK_BYTES;
          BL = lay.sysBufBytes;
          list.push([c + 4 * RECV.buffer, B], [c + 4 * RECV.length, BL]);
        }
        const ML = pfx.lenAt >= 0 ? g(rxLen) : BL;
        p(rxLen, ML);
        const trunc = ML > BL;
        p(rxBlk, c);
        p(rxFl, trunc ? FL_TRUNC : 0);
        p(rxNext, B);
        p(rxLast, B + ML - 1);
        p(rxWlim, B + Math.min(ML, BL) - 1);
        list.push([c + 4 * RECV.source, g(rxSrc)], [c + 4 * RECV.type, g(rxType)], [c + 4 * RECV.extra1, B], [c + 4 * RECV.extra2, (B + ML - 1) >>> 0]);
        p(rxSt, R.R_ENTER);
        writes(list, E.RX);
        break;
      }
      case R.R_ENTER:
        p(rxSt, R.R_ALLOC);
        wr(arrAddr(g(rxSrc), g(rxDir)), g(rxBlk) | (g(rxFl) & 3), E.RX);
        break;
      case R.R_ALLOC:
        if (g(rxFl) & FL_TRUNC || g(rxLast) > 0xffffff) {
          rxToData();
          break;
        }
        p(atuOp, ATU.allocArriving);
        p(atuKey, atuKeyOf(g(rxSrc), g(rxDir)));
        p(atuNext, g(rxNext));
        p(atuLast, g(rxLast) & 0xffffff);
        p(rxSt, R.R_AL2);
        break;
      case R.R_AL2:
        p(rxSt, R.R_AL3);
        break;
      case R.R_AL3:
        if (gi(atuOk)) {
          p(rxFl, g(rxFl) | FL_ATU);
          p(rxSt, R.R_GO);
          wr(g(rxBlk) + 4 * RECV.flag, 1, E.RX);
        } else rxToData();
        break;
      case R.R_GO:
        rxToData();
        break;
      default:
        fail(`internal: receive task in ${RX_STATES[r]}`);
    }
  };

  return { step, rxMatchStart, rxNode, rxUnexpected };
}
