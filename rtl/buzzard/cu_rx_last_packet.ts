/**
 * Receive path, step 5: the last packet (seed 002 §5.1.2 receive path 5;
 * buzzard §8.7; the receive task: cu_receive.ts): purge the ATU entry, clear
 * the arrival table, write length = message length and flag = 3 (| error
 * << 8). A system block leaves the arriving-unexpected list and goes to the
 * unclaimed queue of its (source, type), or, with a receive attached by the
 * second queue link, its data is copied to the receive's buffer (the unit
 * returns to the pool) or the buffer is handed over. A message of system
 * type raises cpuIrq (cause 2).
 */
import { CU_ERR, hashSrcType, OP, RECV, SYS_BLOCK_BYTES, SYSTEM_TYPE_MIN } from './header_blocks.ts';
import { type CuKit, E, R, ATU, FL_TRUNC, FL_SYS, FL_ATU, IRQ_CAUSE, RX_STATES } from './cu_kit.ts';
import type { RxBase } from './cu_receive.ts';

/** The states of this room (cu_receive.ts dispatches them here). */
export const RX_LAST_PACKET_STATES = ['R_C1', 'R_C2', 'R_C3', 'R_C4', 'R_AU_NODE', 'R_AU_RD', 'R_AU_UNL', 'R_AU_L2RD', 'R_C5', 'R_C6', 'R_D2', 'R_D3', 'R_D4', 'R_IRQ'] as const;

export function cuRxLastPacket(kit: CuKit, rx: RxBase) {
  const {
    lay, H, S, atuOp, atuKey, wcnt, ucCount, auHead, auTail, poolUser, rxSt, rxTake, rxSrc, rxDir,
    rxType, rxLen, rxBlk, rxFl, rxLast, rxCur, rxPrev, rxMs, rxB, rxA, g, p, fail, bus, rd, wr,
    writes, copy, irq, setError, unitOf, setBit, freeUnit, ucBucket, arrAddr, atuKeyOf,
  } = kit;
  const { rxYieldIdle } = rx;
  const rxComplete = (): void => {
    p(rxTake, 0);
    p(rxSt, R.R_C1);
    if (g(rxFl) & FL_ATU) {
      p(atuOp, ATU.purge);
      p(atuKey, atuKeyOf(g(rxSrc), g(rxDir)));
    }
    rd(arrAddr(g(rxSrc), g(rxDir)), E.RX);
  };
  /** One micro-step in receive state r. */
  const step = (r: number): void => {
    switch (r) {
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
  };

  return { step, rxComplete };
}
