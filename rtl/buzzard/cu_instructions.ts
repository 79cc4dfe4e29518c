/**
 * Instruction room of the Buzzard control unit (seed 002 §4.1.1, §5.1.2;
 * the unit: control_unit.ts): decode, send and (NN-)broadcast enqueueing,
 * receive (unclaimed and arriving-unexpected searches, expected-queue
 * enqueueing), buffer release.
 *
 * Receive instruction (buzzard §8.7 1–3): search the unclaimed queues (the
 * (source, type) bucket, all buckets for ANY; skipped when none), claim by
 * copy (user buffer) or hand-over (null buffer); else attach to a matching
 * arriving unexpected message (second queue link, flag 1); else enqueue as
 * expected with extra 1 / extra 2 = first / last byte of the buffer.
 * Buffer release: the address must be a pool buffer handed to the user.
 */
import { ANY, CU_ERR, hashSrcType, NNB, OP, RECV, SEND, SYS_BLOCK_BYTES } from './header_blocks.ts';
import { type CuKit, E, ENGINE_STATES } from './cu_kit.ts';
import type { CuTransmit } from './cu_transmit.ts';

export function cuInstructions(kit: CuKit, tx: CuTransmit) {
  const {
    n, nodes, self, lay, H, S, IS, slots, instrValid, instrOp, instrAddr, instrAck, iOp, iBlk, tA,
    tB, tC, tD, tJ, iCnt, iEnd, cur, prev, nxt, ms, mt, anyHead, anyTail, anyCount, ucCount, mqHead,
    mqTail, auHead, poolUser, rxRetry, g, gi, p, fail, bus, rd, wr, go, waitThen, writes, copy,
    setError, blockOk, bufOk, unitOf, setBit, freeUnit, matches, expBucket, ucBucket, ack, iErr,
  } = kit;
  const { chooseSlot } = tx;
  const instrTask = (): boolean => {
    if (!gi(instrValid) || gi(instrAck)) return false;
    p(iOp, gi(instrOp));
    p(iBlk, gi(instrAddr));
    waitThen(IS, E.I_DEC);
    return true;
  };

  const ucNode = (c: number): void => {
    p(cur, c);
    if (c === 0) {
      const k = g(iCnt) + 1;
      if (k > g(iEnd)) {
        auStart();
        return;
      }
      p(iCnt, k);
      p(prev, 0);
      rd(ucBucket(k), E.I_UC_NODE);
      return;
    }
    waitThen(S, E.I_UC_RD);
  };
  const auStart = (): void => {
    p(cur, g(auHead));
    auNode(g(auHead));
  };
  const auNode = (c: number): void => {
    p(cur, c);
    if (c === 0) {
      go(E.I_EX_ENQ);
      return;
    }
    waitThen(S, E.I_AU_RD);
  };

  /** One engine micro-step in an instruction state (I_*). */
  const step = (state: number): boolean => {
    switch (state) {
      case E.I_UC_DONE: {
        // claim by copy finished (cur = the system block): the receive's fields, the unit back to the pool
        const blk = g(iBlk);
        freeUnit(unitOf(g(cur) + SYS_BLOCK_BYTES));
        writes(
          [
            [blk + 4 * RECV.source, g(ms)],
            [blk + 4 * RECV.type, g(mt)],
            [blk + 4 * RECV.length, g(tC)],
            [blk + 4 * RECV.flag, (g(tD) << 8) | 3],
          ],
          E.I_ACK,
        );
        return false;
      }
      case E.I_ACK:
        ack();
        return false;
      case E.I_DEC: {
        const op = g(iOp);
        const blk = g(iBlk);
        switch (op) {
          case OP.send:
            if (!blockOk(blk, SEND.words)) iErr(CU_ERR.badBlock, blk, false);
            else rd(blk + 4 * SEND.dest, E.I_SD_DEST);
            break;
          case OP.broadcast:
            if (!blockOk(blk, NNB.flag + 1)) iErr(CU_ERR.badBlock, blk, false);
            else {
              p(tB, 0); // kind: broadcast
              rd(blk + 4 * NNB.length, E.I_MC_LEN);
            }
            break;
          case OP.nnBroadcast:
            if (!blockOk(blk, NNB.dest0)) iErr(CU_ERR.badBlock, blk, false);
            else rd(blk + 4 * NNB.count, E.I_MC_CNT);
            break;
          case OP.receive:
            if (!blockOk(blk, RECV.words)) iErr(CU_ERR.badBlock, blk, false);
            else rd(blk + 4 * RECV.source, E.I_RV_SRC);
            break;
          case OP.release: {
            const u = unitOf(blk);
            if (u < 0 || !((g(poolUser) >>> u) & 1)) iErr(CU_ERR.badRelease, blk, false);
            else {
              freeUnit(u);
              ack();
            }
            break;
          }
          default:
            iErr(CU_ERR.badOp, op, false);
        }
        return false;
      }
      // ------------------------------------------------ send
      case E.I_SD_DEST: {
        const d = bus.md;
        if (d >= nodes) iErr(CU_ERR.badDest, d, true);
        else if (d === self) iErr(CU_ERR.selfSend, d, true);
        else {
          p(tA, d);
          rd(g(iBlk) + 4 * SEND.length, E.I_SD_LEN);
        }
        return false;
      }
      case E.I_SD_LEN:
        p(tB, bus.md);
        rd(g(iBlk) + 4 * SEND.buffer, E.I_SD_BUF);
        return false;
      case E.I_SD_BUF: {
        const buf = bus.md;
        if (!bufOk(buf, g(tB))) {
          iErr(CU_ERR.badBuffer, buf, true);
          return false;
        }
        const j = chooseSlot(g(tA)) - 1;
        p(tJ, j);
        wr(g(iBlk) + 4 * SEND.link, 0, E.I_SD_ENQ);
        return false;
      }
      case E.I_SD_ENQ: {
        const sl = slots[g(tJ)]!;
        const blk = g(iBlk);
        const tail = g(sl.qTail);
        p(sl.qTail, blk);
        p(sl.qLen, g(sl.qLen) + 1);
        if (tail === 0) {
          p(sl.qHead, blk);
          ack();
        } else wr(tail + 4 * SEND.link, blk, E.I_ACK);
        return false;
      }
      // ------------------------------------------------ broadcast / NN-broadcast
      case E.I_MC_CNT: {
        const cnt = bus.md;
        if (cnt < 1 || cnt > n) iErr(CU_ERR.badCount, cnt, true);
        else if (!blockOk(g(iBlk), NNB.dest0 + cnt)) iErr(CU_ERR.badBlock, g(iBlk), true);
        else {
          p(tA, cnt);
          p(tC, 0);
          p(iCnt, 0);
          rd(g(iBlk) + 4 * NNB.dest0, E.I_MC_DST);
        }
        return false;
      }
      case E.I_MC_DST: {
        const d = bus.md;
        const x = (d ^ self) >>> 0;
        if (d >= nodes || x === 0 || (x & (x - 1)) !== 0) {
          iErr(CU_ERR.badDest, d, true);
          return false;
        }
        if (g(tC) & x) {
          iErr(CU_ERR.badCount, d, true);
          return false;
        }
        p(tC, g(tC) | x);
        const k = g(iCnt) + 1;
        p(iCnt, k);
        if (k < g(tA)) rd(g(iBlk) + 4 * (NNB.dest0 + k), E.I_MC_DST);
        else {
          p(tB, 1); // kind: NN
          rd(g(iBlk) + 4 * NNB.length, E.I_MC_LEN);
        }
        return false;
      }
      case E.I_MC_LEN:
        p(tD, bus.md);
        rd(g(iBlk) + 4 * NNB.buffer, E.I_MC_BUF);
        return false;
      case E.I_MC_BUF:
        if (!bufOk(bus.md, g(tD))) iErr(CU_ERR.badBuffer, bus.md, true);
        else wr(g(iBlk) + 4 * NNB.link, 0, E.I_MC_ENQ);
        return false;
      case E.I_MC_ENQ: {
        const e = g(iBlk) | g(tB);
        const tail = g(mqTail);
        p(mqTail, e);
        if (tail === 0) {
          p(mqHead, e);
          ack();
        } else wr((tail & ~3) + 4 * NNB.link, e, E.I_ACK);
        return false;
      }
      case E.I_RV_SRC: {
        const src = bus.md;
        if (src !== ANY && (src >= nodes || src === self)) iErr(CU_ERR.badSource, src, true);
        else {
          p(tA, src);
          rd(g(iBlk) + 4 * RECV.type, E.I_RV_TYPE);
        }
        return false;
      }
      case E.I_RV_TYPE: {
        const t = bus.md;
        if (t !== ANY && t > 0xffff) iErr(CU_ERR.badType, t, true);
        else {
          p(tB, t);
          rd(g(iBlk) + 4 * RECV.length, E.I_RV_LEN);
        }
        return false;
      }
      case E.I_RV_LEN:
        p(tC, bus.md);
        rd(g(iBlk) + 4 * RECV.buffer, E.I_RV_BUF);
        return false;
      case E.I_RV_BUF: {
        const B = bus.md;
        if (B !== 0 && !bufOk(B, g(tC))) {
          iErr(CU_ERR.badBuffer, B, true);
          return false;
        }
        p(tD, B);
        // 1. unclaimed queues
        if (g(ucCount) === 0) {
          auStart();
          return false;
        }
        const src = g(tA);
        const type = g(tB);
        if (src !== ANY && type !== ANY) {
          const h = hashSrcType(src, type, H);
          p(iCnt, h);
          p(iEnd, h);
        } else {
          p(iCnt, 0);
          p(iEnd, H - 1);
        }
        p(prev, 0);
        rd(ucBucket(g(iCnt)), E.I_UC_NODE);
        return false;
      }
      case E.I_UC_NODE:
        ucNode(bus.md);
        return false;
      case E.I_UC_RD:
        rd(g(cur) + 4 * RECV.source, E.I_UC_SRC);
        return false;
      case E.I_UC_SRC:
        p(ms, bus.md);
        rd(g(cur) + 4 * RECV.type, E.I_UC_TYPE);
        return false;
      case E.I_UC_TYPE:
        p(mt, bus.md);
        rd(g(cur) + 4 * RECV.link, matches(g(tA), g(tB), g(ms), bus.md) ? E.I_UC_UNL : E.I_UC_NEXT);
        return false;
      case E.I_UC_NEXT:
        p(prev, g(cur));
        ucNode(bus.md);
        return false;
      case E.I_UC_UNL: {
        const nx = bus.md;
        const pv = g(prev);
        const bk = ucBucket(g(iCnt));
        p(ucCount, g(ucCount) - 1);
        const list: [number, number][] = [pv === 0 ? [bk, nx] : [pv + 4 * RECV.link, nx]];
        if (nx === 0) list.push([bk + 4, pv]);
        writes(list, E.I_UC_UNL2);
        return false;
      }
      case E.I_UC_UNL2:
        rd(g(cur) + 4 * RECV.length, E.I_UC_ML);
        return false;
      case E.I_UC_ML:
        p(tC, bus.md); // message length (the user's buffer length is read again below)
        rd(g(cur) + 4 * RECV.flag, E.I_UC_FL);
        return false;
      case E.I_UC_FL:
        p(nxt, (bus.md >>> 8) & 0xff); // system block's error (truncated)
        rd(g(iBlk) + 4 * RECV.length, E.I_UC_SB);
        return false;
      case E.I_UC_SB: {
        const BL = bus.md;
        const blk = g(iBlk);
        const sys = g(cur);
        const SB = sys + SYS_BLOCK_BYTES;
        const B = g(tD);
        const ML = g(tC);
        const u = unitOf(SB);
        if (B === 0) {
          setBit(poolUser, u, true);
          writes(
            [
              [blk + 4 * RECV.buffer, SB],
              [blk + 4 * RECV.length, ML],
              [blk + 4 * RECV.source, g(ms)],
              [blk + 4 * RECV.type, g(mt)],
              [blk + 4 * RECV.flag, (g(nxt) << 8) | 3],
            ],
            E.I_ACK,
          );
        } else {
          const stored = Math.min(ML, lay.sysBufBytes);
          const err = g(nxt) || ML > BL ? CU_ERR.truncated : 0;
          if (ML > BL) setError(CU_ERR.truncated, OP.receive, blk, ML);
          p(tD, err);
          copy(SB, B, Math.min(stored, BL), E.I_UC_DONE);
        }
        return false;
      }
      case E.I_AU_NODE:
        auNode(g(cur));
        return false;
      case E.I_AU_RD:
        rd(g(cur) + 4 * RECV.source, E.I_AU_SRC);
        return false;
      case E.I_AU_SRC:
        p(ms, bus.md);
        rd(g(cur) + 4 * RECV.type, E.I_AU_TYPE);
        return false;
      case E.I_AU_TYPE:
        if (matches(g(tA), g(tB), g(ms), bus.md)) rd(g(cur) + 4 * RECV.link2, E.I_AU_L2);
        else rd(g(cur) + 4 * RECV.link, E.I_AU_NEXT);
        return false;
      case E.I_AU_L2:
        if (bus.md === 0) {
          writes(
            [
              [g(cur) + 4 * RECV.link2, g(iBlk)],
              [g(iBlk) + 4 * RECV.flag, 1],
            ],
            E.I_ACK,
          );
        } else rd(g(cur) + 4 * RECV.link, E.I_AU_NEXT);
        return false;
      case E.I_AU_NEXT:
        auNode(bus.md);
        return false;
      case E.I_EX_ENQ: {
        // 3. expected queue
        const blk = g(iBlk);
        const src = g(tA);
        const type = g(tB);
        const B = g(tD);
        const BL = g(tC);
        p(rxRetry, 1);
        const list: [number, number][] = [
          [blk + 4 * RECV.link, 0],
          [blk + 4 * RECV.extra1, B],
          [blk + 4 * RECV.extra2, B === 0 ? 0 : B + BL - 1],
        ];
        if (src === ANY || type === ANY) {
          const tail = g(anyTail);
          if (tail === 0) p(anyHead, blk);
          else list.push([tail + 4 * RECV.link, blk]);
          p(anyTail, blk);
          p(anyCount, g(anyCount) + 1);
          writes(list, E.I_ACK);
        } else {
          writes(list, E.I_EX_TAIL);
        }
        return false;
      }
      case E.I_EX_TAIL:
        rd(expBucket(g(tA), g(tB)) + 4, E.I_EX_T2);
        return false;
      case E.I_EX_T2: {
        const t = bus.md;
        const bk = expBucket(g(tA), g(tB));
        const blk = g(iBlk);
        writes(
          [
            t === 0 ? [bk, blk] : [t + 4 * RECV.link, blk],
            [bk + 4, blk],
          ],
          E.I_ACK,
        );
        return false;
      }
      default:
        return fail(`internal: engine state ${ENGINE_STATES[state] ?? state} is not an instruction state`);
    }
  };
  return {
    instrTask, ucNode, auStart, auNode, step,
  };
}

export type CuInstructions = ReturnType<typeof cuInstructions>;
