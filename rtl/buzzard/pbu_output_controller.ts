/**
 * The packet buffer unit's output controller and its output framing (seed
 * 002 §5.4.2 output steps 1–6, docs/sources.md buzzard §8.2; framing
 * §5.4.8 and the readings of rtl/buzzard/DESIGN.md; the unit:
 * packet_buffer_unit.ts). One clocked process of its own: on a crossbar
 * grant it loads the output shift register from the granted CAM row, sends
 * the packet with its start and sync patterns (stretching a 1 while the
 * line is held or the next word is not there), reads the words from the
 * buffer RAM, and frees the row at the end.
 *
 * Shared with the input controller (pbu_input_controller.ts, whose header
 * says why both sides write them from their next values): the free row
 * register (+1 at step 6) and the crossbar request register (set at the
 * broadcast write-back, step 2; reset at step 6). The one input state it
 * looks at is camLoad (step 6 waits while the input controller inserts).
 * Why two processes: docs/kernel.md "Stop 19: PBU".
 */
import { CAM_OP } from '../lib/cam.ts';
import { ramAddress } from './buffer_ram.ts';
import { BROADCAST_TAG } from './framing.ts';
import { nextBroadcastPort, nextPort } from './routing.ts';
import type { PbuOutputEnd } from './pbu_line.ts';
import {
  IN_LOAD, NO_PORT, OUT_ADJ, OUT_BC, OUT_FETCH, OUT_FIN, OUT_IDLE, OUT_LOW, OUT_SEL,
  T_HEAD, T_IDLE, T_PY0, T_PY1, T_S0, T_S1, T_WORD, T_Y0, T_Y1, lineBit, type PbuKit,
} from './pbu_kit.ts';

/** The output controller's clocked step (with its link end's catch-up, posts and wake-up on a cube's serial lines). */
export function pbuOutputController(k: PbuKit, line: PbuOutputEnd | null): () => void {
  const { m, i, node, me, n, rg, strict, lb, headLen, lenMask, slotMask, destLsb, lenLsb, cLsb, rrWindow } = k;
  const { xreq, xrelease, xgnt, xgidx, hold, rgnt, rdata, rvalid, rsrc, camOp, camHit, camHitRow, camHitData, camMatch, inState } = k;
  const { freeRows, reqReg, rrPtr, rrWait, outState, outSel, outRow, outCamRow, outPort, outNext, outAddr, outLen, outData, outDataValid, rpend, freeFlag } = k;
  const { txPhase, txCnt, txShift, txBit, txRel } = k;
  const nodeMask = (1 << n) - 1;
  return () => {
    const s = m.s;
    if (line) line.before(m.cycleRef.cycle);
    let reqSet = 0;
    let reqClr = 0;

    // ================= output framing (§5.4.8; DESIGN "Framing")
    const ost = s[outState.i]!;
    let nost = ost;
    const ph = s[txPhase.i]!;
    const hl = s[hold.i]!;
    const tc = s[txCnt.i]!;
    let odv = s[outDataValid.i]!;
    switch (ph) {
      case T_S1: // sample hold during S1; stretch the 1 while held
        if (hl === 0) s[txPhase.n] = T_S0;
        break;
      case T_S0:
        s[txPhase.n] = T_HEAD;
        s[txCnt.n] = headLen;
        break;
      case T_HEAD:
        if (strict && tc === 17) {
          s[txPhase.n] = T_PY1; // A2: the sync after the preheader
          s[txCnt.n] = 16;
        } else if (tc === 1) {
          s[txPhase.n] = T_Y1;
        } else {
          s[txCnt.n] = tc - 1;
        }
        break;
      case T_PY1:
        if (hl === 0) s[txPhase.n] = T_PY0;
        break;
      case T_PY0:
        s[txPhase.n] = T_HEAD;
        break;
      case T_Y1:
        // step 5: at the low-water mark latch the RAM data register into
        // the shift register; stretch the Y1 while held or while the word
        // is not there yet (spec §8.9 item 6)
        if (hl === 0 && ost === OUT_LOW && odv === 1) {
          s[txPhase.n] = T_Y0;
          s[txShift.n] = s[outData.i]!;
          s[txCnt.n] = 16;
          odv = 0;
          nost = OUT_FETCH; // "Go to step 4"
        }
        break;
      case T_Y0:
        s[txPhase.n] = T_WORD;
        break;
      case T_WORD:
        if (tc === 1) s[txPhase.n] = s[xrelease.i] === 1 ? T_IDLE : T_Y1;
        else s[txCnt.n] = tc - 1;
        break;
      default:
        break;
    }

    // ================= output controller (§5.4.2 output steps 1–6)
    let rp = s[rpend.i]!;
    if (s[xgnt.i] === 1 && ost !== OUT_IDLE) m.fail(`grant while the output controller is busy (A9: requests are withdrawn while forwarding)`);
    // the RAM data register takes the word read at the previous edge
    if (rp === 1 && s[rvalid.i] === 1 && s[rsrc.i] === me) {
      s[outData.n] = s[rdata.i]!;
      odv = 1;
      rp = 0;
    }
    switch (ost) {
      case OUT_IDLE:
        // rotating priority: count cycles spent requesting without a grant
        if (s[xgnt.i] === 1) {
          const g = s[xgidx.i]!;
          s[rrPtr.n] = g + 1 > n ? 0 : g + 1;
          s[rrWait.n] = 0;
        } else if (s[xreq.i]! !== 0) {
          if (s[rrWait.i]! < rrWindow) s[rrWait.n] = s[rrWait.i]! + 1;
        } else s[rrWait.n] = 0;
        if (s[xgnt.i] === 1) {
          // step 1: read the CAM entry selected by the (encoded) grant
          const j = s[xgidx.i]!;
          if (s[camHit.i] !== 1) m.fail(`grant for output ${j} but no CAM row has next port ${j}`);
          const row = s[camHitData.i]!;
          const c = (row >>> cLsb) & 1;
          const L = (row >>> lenLsb) & lenMask;
          const D = (row >>> destLsb) & 0xffff;
          if (j === i || j > n) m.fail(`granted output ${j}, which PBU ${i} may not use`);
          // A3: only contrary rows may go "down" to a link j < i
          if (j >= 1 && j < i && c === 0) m.fail(`A3: non-contrary row sent from PBU ${i} to output ${j} < ${i}`);
          const bc = (D & BROADCAST_TAG) !== 0;
          // "Update next port ... from the next node number and the
          // packet destination field"; broadcast copies leave with P = 0 (A11)
          const np = bc || j === 0 ? 0 : nextPort(node ^ (1 << (j - 1)), D & nodeMask);
          let nx = NO_PORT;
          if (bc) {
            const b = nextBroadcastPort(i, j, n);
            if (b >= 0) nx = b;
          }
          s[outRow.n] = s[camHitRow.i]!;
          s[outCamRow.n] = row;
          s[outPort.n] = j;
          s[outNext.n] = nx;
          s[outAddr.n] = ramAddress(i, row & slotMask, 0, rg);
          s[outLen.n] = L;
          // output shift register: C reset, P updated, L, D
          s[txShift.n] = (np * 2 ** lb + L) * 65536 + D;
          s[txPhase.n] = T_S1;
          s[freeFlag.n] = 0;
          odv = 0;
          rp = 0;
          nost = OUT_BC;
        }
        break;
      case OUT_BC: {
        // step 2 (shifting has begun): broadcast not finished → write the
        // next port back and request it; else flag the row to be freed at the end
        const nx = s[outNext.i]!;
        if (nx === NO_PORT) {
          s[freeFlag.n] = 1;
          nost = OUT_ADJ;
        } else if (s[camOp.i] === CAM_OP.update) {
          reqSet = 1 << nx;
          nost = OUT_ADJ;
        } // else the input controller has the CAM this cycle: wait one cycle
        break;
      }
      case OUT_ADJ: // step 3: no-op with A5's L (packet_buffer_unit.ts, notes)
        nost = OUT_FETCH;
        break;
      case OUT_FETCH: {
        // step 4
        const len = s[outLen.i]!;
        if (len === 0) nost = OUT_FIN;
        else if (s[rgnt.i] === 1) {
          s[outAddr.n] = s[outAddr.i]! + 1;
          s[outLen.n] = len - 1;
          rp = 1;
          nost = OUT_LOW;
        }
        break;
      }
      case OUT_FIN:
        // step 6 at the last bit (or later), not while the input controller inserts
        if ((s[xrelease.i] === 1 || ph === T_IDLE) && s[inState.i] !== IN_LOAD) {
          const others = s[camMatch.i]! & ~(1 << s[outRow.i]!);
          if (others === 0) reqClr = 1 << s[outPort.i]!;
          if (s[freeFlag.i] === 1) {
            s[freeRows.n] = s[freeRows.n]! + 1; // the camPort comb drives the free
            s[freeFlag.n] = 0;
          }
          nost = OUT_IDLE;
        }
        break;
      default: // OUT_LOW: the framing latches the word at the Y1
        break;
    }
    s[outDataValid.n] = odv;
    s[rpend.n] = rp;
    s[outState.n] = nost;
    s[outSel.n] = OUT_SEL[nost]!; // the combs' view of it (pbu_kit.ts)
    // the request register: from its next value (pbu_input_controller.ts header)
    if (reqSet !== 0 || reqClr !== 0) s[reqReg.n] = ((s[reqReg.n]! & ~reqClr) | reqSet) >>> 0;

    // The line registers from the next values (a register this process did
    // not write has next = current: the commit keeps them equal).
    const nph = s[txPhase.n]!;
    const nc = s[txCnt.n]!;
    s[txBit.n] = lineBit(nph, nc, s[txShift.n]!);
    s[txRel.n] = nph === T_WORD && nc === 1 && s[outLen.n] === 0 && s[outDataValid.n] === 0 && s[rpend.n] === 0 ? 1 : 0;
    if (line) line.after(m.cycleRef.cycle);
  };
}
