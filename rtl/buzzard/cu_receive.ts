/**
 * Receive room of the Buzzard control unit (seed 002 §5.4.7, buzzard §8.7;
 * the unit: control_unit.ts).
 *
 * Receive path (buzzard §8.7 1–5): take the destination word (checked: this
 * node or a broadcast), the source word (source, first-step direction) and
 * look the key up in the ATU; on a miss read the arrival table word for
 * (source, direction) (header_blocks layout). None → a first packet: take
 * the prefix (type, length), search the ANY queue first (receives with an
 * ANY source or an ANY type; on-chip head/tail/count, skipped when the count
 * is 0), then the hash bucket of (source, type) (specific receives). A match
 * is unlinked, its source/type fields get the actual values, a null buffer
 * gets a system buffer (unit of the pool: header block + data), and it is
 * entered in the arrival table. No match → unexpected: a pool unit holds the
 * message (its header block has the receive layout, length = the buffer
 * size) and goes on the arriving-unexpected list (auHead/auTail, linked
 * through word 0). Then an ATU entry is allocated (allocArriving); if that
 * succeeds the completion flag becomes 1 (seed: otherwise the flag is left
 * unchanged and the addresses live only in node memory, extra 1 / extra 2).
 * Data is stored 32 bits at a time when the address is word aligned and two
 * words are available, otherwise by read-modify-write; bytes beyond the
 * message or the buffer are never written. After each packet the ATU's next
 * is updated (or extra 1). After the last packet: ATU purge, arrival table
 * cleared, length = message length and flag = 3 (| error << 8). A system
 * block with no attached receive goes to the unclaimed queue of its (source,
 * type); with one (second queue link) its data is copied to the receive's
 * buffer (the unit returns to the pool) or the buffer is handed over. A
 * message of system type raises cpuIrq (cause 2).
 */
import { BROADCAST_TAG } from './framing.ts';
import {
  CU_ERR,
  hashSrcType,
  OP,
  RECV,
  SYS_BLOCK_BYTES,
  SYSTEM_TYPE_MIN,
} from './header_blocks.ts';
import { type CuKit, E, R, ATU, FL_TRUNC, FL_SYS, FL_ATU, IRQ_CAUSE, RX_STATES } from './cu_kit.ts';

export function cuReceive(kit: CuKit) {
  const {
    cfg, n, nodes, self, lay, H, pfx, P0, S, inDout, inLast, inEmpty, atuOp, atuKey, atuNext,
    atuLast, atuHit, atuHitNext, atuHitLast, atuOk, wcnt, anyHead, anyTail, anyCount, ucCount,
    auHead, auTail, poolMap, poolUser, rxSt, rxTake, rxD, rxSrc, rxDir, rxType, rxLen, rxBlk, rxFl,
    rxNext, rxLast, rxWlim, rxHalf, rxHave, rxEnd, rxPfx, rxCur, rxPrev, rxMode, rxMs, rxB, rxBL,
    rxRetry, rxRmwV, rxRmwM, rxRmwA, rxA, s, g, gi, p, fail, bus, rd, wr, go, waitThen, writes,
    copy, irq, setError, allocUnit, unitBlock, unitOf, setBit, freeUnit, matches, expBucket,
    ucBucket, arrAddr, atuKeyOf, laneMask,
  } = kit;
  const rxTakeStates = new Set([R.R_D, R.R_S, R.R_PFX, R.R_DATA]);
  /** rxTakeStates as a lookup by state (the IDLE dispatch asks at every run, issue 8). */
  const takes = Uint8Array.from(RX_STATES, (_, r) => (rxTakeStates.has(r) ? 1 : 0));
  const rxTask = (): boolean => {
    const r = g(rxSt);
    const empty = gi(inEmpty) !== 0;
    if (r === R.R_IDLE) {
      if (empty) return false;
      p(rxSt, R.R_D);
      p(rxTake, 1);
      go(E.RX);
      return true;
    }
    if (takes[r] === 1) {
      if (empty) return false;
      p(rxTake, 1);
      go(E.RX);
      return true;
    }
    if (r === R.R_WAITPOOL) {
      if (!g(rxRetry)) return false;
      p(rxRetry, 0);
      p(rxSt, R.R_MATCH0);
      go(E.RX);
      return true;
    }
    return fail(`internal: receive task parked in ${RX_STATES[r]}`);
  };

  // ---- receive helpers
  const rxGo = (r: number): void => {
    p(rxSt, r);
    go(E.RX);
  };
  const rxYieldIdle = (): void => {
    p(rxSt, R.R_IDLE);
    p(rxTake, 0);
    go(E.IDLE);
  };
  /** Continue with the packet's data words, or end the packet. */
  const rxToData = (): void => {
    if (g(rxEnd)) {
      p(rxTake, 0);
      rxGo(R.R_END);
    } else {
      p(rxTake, 1);
      rxGo(R.R_DATA);
    }
  };
  /** Store the halfword / word at rxNext (write limit rxWlim), then continue. */
  const rxStore = (addr: number, val: number, bytes: number): void => {
    const last = g(rxLast);
    if (addr + bytes - 2 > last) fail(`packet from node ${g(rxSrc)} (direction ${g(rxDir)}) carries data beyond its message (byte 0x${addr.toString(16)}, last 0x${last.toString(16)})`);
    const lim = Math.min(g(rxWlim), last);
    const wa = addr & ~3;
    const mask = laneMask(addr, bytes, lim);
    const shifted = bytes === 4 ? val : (val << ((2 - (addr & 2)) * 8)) >>> 0;
    p(rxNext, addr + bytes);
    const end = g(rxEnd);
    if (mask === 0) {
      // beyond the buffer (truncated) or padding: consume only
      if (end) {
        p(rxTake, 0);
        rxGo(R.R_END);
      } else {
        p(rxTake, 1);
        rxGo(R.R_DATA);
      }
      return;
    }
    if (mask === 0xffffffff) {
      p(rxTake, end ? 0 : 1);
      p(rxSt, end ? R.R_END : R.R_DATA);
      wr(wa, val, E.RX);
      return;
    }
    p(rxRmwV, shifted);
    p(rxRmwM, mask);
    p(rxRmwA, wa);
    p(rxTake, 0);
    p(rxSt, R.R_RMW);
    rd(wa, E.RX);
  };
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
  const rxWaitPool = (): void => {
    p(rxSt, R.R_WAITPOOL);
    p(rxTake, 0);
    go(E.IDLE);
  };
  const rxComplete = (): void => {
    p(rxTake, 0);
    p(rxSt, R.R_C1);
    if (g(rxFl) & FL_ATU) {
      p(atuOp, ATU.purge);
      p(atuKey, atuKeyOf(g(rxSrc), g(rxDir)));
    }
    rd(arrAddr(g(rxSrc), g(rxDir)), E.RX);
  };

  /** One micro-step of the receive task (engine state RX). */
  const rxStep = (popNow: boolean): boolean => {
    const r = g(rxSt);
    const w = gi(inDout);
    const wl = gi(inLast) !== 0;
    // The take states (rxTakeStates) consume the FIFO head word; with the FIFO
    // empty they yield to IDLE and keep their state. Checked here rather than
    // by a closure made at every step (issue 8).
    const took = takes[r] === 1;
    if (took && !popNow) {
      p(rxTake, 0);
      go(E.IDLE);
      return false;
    }
    switch (r) {
      case R.R_D: {
        if (!(w & BROADCAST_TAG) && w !== self) fail(`misrouted packet: destination word 0x${w.toString(16)} at node ${self}`);
        if (wl) fail('packet ends after its destination word (L = 0)');
        p(rxD, w);
        p(rxSt, R.R_S);
        break;
      }
      case R.R_S: {
        const src = w & 0xfff;
        const dir = w >>> 12;
        if (src >= nodes || dir < 1 || dir > n || src === self) fail(`bad source word 0x${w.toString(16)} (source ${src}, direction ${dir})`);
        const d = g(rxD);
        if (d & BROADCAST_TAG && (d & 0x7fff) !== src) fail(`broadcast packet with destination word 0x${d.toString(16)} but source ${src}`);
        p(rxSrc, src);
        // Arrival key direction (docs/readings.bus.md broadcast-arrival-key): a broadcast is keyed
        // (source, 0), apart from unicasts from the same source over the same first link.
        const kdir = d & BROADCAST_TAG ? 0 : dir;
        p(rxDir, kdir);
        p(rxEnd, wl ? 1 : 0);
        p(rxHave, 0);
        p(rxTake, 0);
        p(atuOp, ATU.lookup);
        p(atuKey, atuKeyOf(src, kdir));
        p(rxSt, R.R_LOOK);
        break;
      }
      case R.R_LOOK:
        p(rxSt, R.R_LOOK2); // op held a second cycle
        break;
      case R.R_LOOK2: {
        p(atuOp, ATU.none);
        if (gi(atuHit)) {
          p(rxNext, gi(atuHitNext));
          p(rxLast, gi(atuHitLast));
          p(rxWlim, gi(atuHitLast));
          p(rxFl, FL_ATU);
          rxToData();
        } else {
          p(rxSt, R.R_ARR);
          rd(arrAddr(g(rxSrc), g(rxDir)), E.RX);
        }
        break;
      }
      case R.R_ARR: {
        const ent = bus.md;
        if (ent !== 0) {
          const blk = ent & ~3;
          p(rxBlk, blk);
          p(rxFl, ent & 3);
          p(rxSt, R.R_X1);
          rd(blk + 4 * RECV.extra1, E.RX);
        } else {
          // first packet of a message
          p(rxType, 0);
          p(rxLen, 0);
          p(rxPfx, 0);
          if (P0 > 0) {
            if (g(rxEnd)) fail(`first packet from node ${g(rxSrc)} ends before its ${cfg.firstPacketPrefixBytes}-byte prefix (A7)`);
            p(rxTake, 1);
            p(rxSt, R.R_PFX);
          } else rxMatchStart();
        }
        break;
      }
      case R.R_X1:
        p(rxNext, bus.md);
        p(rxSt, R.R_X2);
        rd(g(rxBlk) + 4 * RECV.extra2, E.RX);
        break;
      case R.R_X2:
        p(rxLast, bus.md);
        p(rxWlim, bus.md);
        if (g(rxFl) & FL_TRUNC) {
          p(rxSt, R.R_TB);
          rd(g(rxBlk) + 4 * RECV.buffer, E.RX);
        } else rxToData();
        break;
      case R.R_TB:
        p(rxWlim, bus.md);
        p(rxSt, R.R_TL);
        rd(g(rxBlk) + 4 * RECV.length, E.RX);
        break;
      case R.R_TL:
        p(rxWlim, g(rxWlim) + bus.md - 1);
        rxToData();
        break;
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
      case R.R_DATA: {
        p(rxEnd, wl ? 1 : 0);
        const a = g(rxNext);
        if (g(rxHave)) {
          p(rxHave, 0);
          rxStore(a, (g(rxHalf) * 65536 + w) >>> 0, 4);
        } else if ((a & 3) === 0 && !wl) {
          p(rxHalf, w);
          p(rxHave, 1);
        } else rxStore(a, w, 2);
        break;
      }
      case R.R_RMW: {
        const mask = g(rxRmwM);
        const v = ((bus.md & ~mask) | (g(rxRmwV) & mask)) >>> 0;
        const end = g(rxEnd);
        p(rxTake, end ? 0 : 1);
        p(rxSt, end ? R.R_END : R.R_DATA);
        wr(g(rxRmwA), v, E.RX);
        break;
      }
      case R.R_END: {
        if (g(rxNext) > g(rxLast)) {
          rxComplete();
          break;
        }
        if (g(rxFl) & FL_ATU) {
          p(atuOp, ATU.update);
          p(atuKey, atuKeyOf(g(rxSrc), g(rxDir)));
          p(atuNext, g(rxNext));
          rxYieldIdle();
        } else {
          p(rxSt, R.R_IDLE);
          wr(g(rxBlk) + 4 * RECV.extra1, g(rxNext), E.IDLE);
        }
        break;
      }
      case R.R_C1: {
        const ent = bus.md;
        if (ent === 0) fail(`internal: message from node ${g(rxSrc)} direction ${g(rxDir)} completed without an arrival table entry`);
        p(rxBlk, ent & ~3);
        p(rxFl, (g(rxFl) & FL_ATU) | (ent & 3));
        p(rxSt, R.R_C2);
        wr(arrAddr(g(rxSrc), g(rxDir)), 0, E.RX);
        break;
      }
      case R.R_C2:
        p(rxSt, R.R_C3);
        rd(g(rxBlk) + 4 * RECV.buffer, E.RX);
        break;
      case R.R_C3:
        p(rxB, bus.md);
        p(rxLen, g(rxLast) + 1 - bus.md);
        p(rxSt, R.R_C4);
        rd(g(rxBlk) + 4 * RECV.type, E.RX);
        break;
      case R.R_C4: {
        p(rxType, bus.md & 0xffff);
        const blk = g(rxBlk);
        const ML = g(rxLen);
        const trunc = (g(rxFl) & FL_TRUNC) !== 0;
        const fw = trunc ? (CU_ERR.truncated << 8) | 3 : 3;
        if (trunc) setError(CU_ERR.truncated, OP.receive, blk, ML);
        if (!(g(rxFl) & FL_SYS)) {
          const u = unitOf(g(rxB));
          if (u >= 0) setBit(poolUser, u, true); // a null-buffer receive now owns that buffer
          p(rxSt, R.R_IRQ);
          writes(
            [
              [blk + 4 * RECV.length, ML],
              [blk + 4 * RECV.flag, fw],
            ],
            E.RX,
          );
        } else {
          p(rxCur, g(auHead));
          p(rxPrev, 0);
          p(rxSt, R.R_AU_NODE);
          writes(
            [
              [blk + 4 * RECV.length, ML],
              [blk + 4 * RECV.flag, fw],
            ],
            E.RX,
          );
        }
        break;
      }
      case R.R_AU_NODE: {
        const c = g(rxCur);
        if (c === 0) fail(`internal: system block 0x${g(rxBlk).toString(16)} missing from the arriving-unexpected list`);
        p(rxSt, c === g(rxBlk) ? R.R_AU_UNL : R.R_AU_RD);
        rd(c + 4 * RECV.link, E.RX);
        break;
      }
      case R.R_AU_RD:
        p(rxPrev, g(rxCur));
        p(rxCur, bus.md);
        p(rxSt, R.R_AU_NODE);
        p(wcnt, S);
        break;
      case R.R_AU_UNL: {
        const nx = bus.md;
        const pv = g(rxPrev);
        if (nx === 0) p(auTail, pv);
        p(rxSt, R.R_C5);
        if (pv === 0) {
          p(auHead, nx);
          rd(g(rxBlk) + 4 * RECV.link2, E.RX);
        } else {
          p(rxSt, R.R_AU_L2RD);
          writes([[pv + 4 * RECV.link, nx]], E.RX);
        }
        break;
      }
      case R.R_AU_L2RD:
        // after the unlink write: read the second queue link
        p(rxSt, R.R_C5);
        rd(g(rxBlk) + 4 * RECV.link2, E.RX);
        break;
      case R.R_C5: {
        const att = bus.md;
        if (att === 0) {
          p(rxSt, R.R_C6);
          rd(ucBucket(hashSrcType(g(rxSrc), g(rxType), H)) + 4, E.RX);
        } else {
          p(rxA, att);
          p(rxSt, R.R_D2);
          rd(att + 4 * RECV.buffer, E.RX);
        }
        break;
      }
      case R.R_C6: {
        const t = bus.md;
        const blk = g(rxBlk);
        const bk = ucBucket(hashSrcType(g(rxSrc), g(rxType), H));
        p(ucCount, g(ucCount) + 1);
        p(rxSt, R.R_IRQ);
        writes(
          [
            [blk + 4 * RECV.link, 0],
            t === 0 ? [bk, blk] : [t + 4 * RECV.link, blk],
            [bk + 4, blk],
          ],
          E.RX,
        );
        break;
      }
      case R.R_D2:
        p(rxB, bus.md); // attached receive's buffer
        p(rxSt, R.R_D3);
        rd(g(rxA) + 4 * RECV.length, E.RX);
        break;
      case R.R_D3: {
        // bus.md = attached receive's buffer length
        const att = g(rxA);
        const AB = g(rxB);
        const ABL = bus.md;
        const ML = g(rxLen);
        const SB = g(rxBlk) + SYS_BLOCK_BYTES;
        const u = unitOf(SB);
        const stored = Math.min(ML, lay.sysBufBytes);
        if (AB === 0) {
          setBit(poolUser, u, true);
          const err = ML > lay.sysBufBytes ? CU_ERR.truncated : 0;
          p(rxSt, R.R_IRQ);
          writes(
            [
              [att + 4 * RECV.buffer, SB],
              [att + 4 * RECV.length, ML],
              [att + 4 * RECV.source, g(rxSrc)],
              [att + 4 * RECV.type, g(rxType)],
              [att + 4 * RECV.flag, (err << 8) | 3],
            ],
            E.RX,
          );
        } else {
          const err = ML > ABL || ML > lay.sysBufBytes ? CU_ERR.truncated : 0;
          if (ML > ABL) setError(CU_ERR.truncated, OP.receive, att, ML);
          p(rxMs, err);
          p(rxSt, R.R_D4);
          copy(SB, AB, Math.min(stored, ABL), E.RX);
        }
        break;
      }
      case R.R_D4: {
        // the copy for the attached receive is done: its fields, then the unit returns to the pool
        const att = g(rxA);
        freeUnit(unitOf(g(rxBlk) + SYS_BLOCK_BYTES));
        p(rxSt, R.R_IRQ);
        writes(
          [
            [att + 4 * RECV.length, g(rxLen)],
            [att + 4 * RECV.source, g(rxSrc)],
            [att + 4 * RECV.type, g(rxType)],
            [att + 4 * RECV.flag, (g(rxMs) << 8) | 3],
          ],
          E.RX,
        );
        break;
      }
      case R.R_IRQ:
        if (g(rxType) >= SYSTEM_TYPE_MIN) irq(IRQ_CAUSE.systemMessage);
        rxYieldIdle();
        break;
      default:
        fail(`internal: receive task in ${RX_STATES[r]}`);
    }
    return took;
  };

  return {
    rxTakeStates, rxTask, rxGo, rxYieldIdle, rxToData, rxStore, rxMatchStart, rxNode, rxUnexpected,
    rxWaitPool, rxComplete, rxStep,
  };
}

export type CuReceive = ReturnType<typeof cuReceive>;
