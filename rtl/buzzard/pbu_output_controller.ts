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
  T_HEAD, T_IDLE, T_PY0, T_PY1, T_S0, T_S1, T_WORD, T_Y0, T_Y1, WRONG_ARRIVAL, lineBit, ramPortLoader, type PbuKit,
} from './pbu_kit.ts';

/** The output controller's clocked step (with its link end's catch-up, posts and wake-up on a cube's serial lines). */
export function pbuOutputController(k: PbuKit, line: PbuOutputEnd | null): () => void {
  const { m, i, node, me, n, rg, strict, lb, headLen, lenMask, slotMask, destLsb, lenLsb, cLsb, rrWindow } = k;
  const { xreq, xrelease, xgnt, xgidx, hold, rgnt, rdata, rvalid, rsrc, camOp, camHit, camHitRow, camHitData, camMatch, inState } = k;
  const { freeRows, reqReg, rrPtr, rrWait, outState, outSel, outRow, outCamRow, outPort, outNext, outAddr, outLen, outData, outDataValid, rpend, freeFlag } = k;
  const { txPhase, txCnt, txShift, txBit, txRel } = k;
  const nodeMask = (1 << n) - 1;
  // Slot indices in the closure (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
  let camHitI = 0, camHitDataI = 0, camHitRowI = 0, camMatchI = 0, camOpI = 0, freeFlagI = 0, freeFlagN = 0, freeRowsN = 0, holdI = 0, inStateI = 0, outAddrI = 0, outAddrN = 0, outCamRowN = 0, outDataI = 0, outDataN = 0, outDataValidI = 0, outDataValidN = 0, outLenI = 0, outLenN = 0, outNextI = 0, outNextN = 0, outPortI = 0, outPortN = 0, outRowI = 0, outRowN = 0, outSelN = 0, outStateI = 0, outStateN = 0, rdataI = 0, reqRegN = 0, rgntI = 0, rpendI = 0, rpendN = 0, rrPtrN = 0, rrWaitI = 0, rrWaitN = 0, rsrcI = 0, rvalidI = 0, txBitN = 0, txCntI = 0, txCntN = 0, txPhaseI = 0, txPhaseN = 0, txRelN = 0, txShiftN = 0, xgidxI = 0, xgntI = 0, xreleaseI = 0, xreqI = 0;
  m.whenSlots(() => {
    [camHitI, camHitDataI, camHitRowI, camMatchI, camOpI, freeFlagI, freeFlagN, freeRowsN, holdI, inStateI, outAddrI, outAddrN, outCamRowN, outDataI, outDataN, outDataValidI, outDataValidN, outLenI, outLenN, outNextI, outNextN, outPortI, outPortN, outRowI, outRowN, outSelN, outStateI, outStateN, rdataI, reqRegN, rgntI, rpendI, rpendN, rrPtrN, rrWaitI, rrWaitN, rsrcI, rvalidI, txBitN, txCntI, txCntN, txPhaseI, txPhaseN, txRelN, txShiftN, xgidxI, xgntI, xreleaseI, xreqI] = [camHit.i, camHitData.i, camHitRow.i, camMatch.i, camOp.i, freeFlag.i, freeFlag.n, freeRows.n, hold.i, inState.i, outAddr.i, outAddr.n, outCamRow.n, outData.i, outData.n, outDataValid.i, outDataValid.n, outLen.i, outLen.n, outNext.i, outNext.n, outPort.i, outPort.n, outRow.i, outRow.n, outSel.n, outState.i, outState.n, rdata.i, reqReg.n, rgnt.i, rpend.i, rpend.n, rrPtr.n, rrWait.i, rrWait.n, rsrc.i, rvalid.i, txBit.n, txCnt.i, txCnt.n, txPhase.i, txPhase.n, txRel.n, txShift.n, xgidx.i, xgnt.i, xrelease.i, xreq.i];
  });
  const loadPorts = ramPortLoader(k, 'out');
  // The timed word arrival (docs/kernel.md "Stop 24: Buzzard"): at the read
  // grant's edge the word the RAM reads there (mem.data holds the words
  // before this edge's write, as the RAM's access reads them) is written
  // into outData, outDataValid and rpend at the next edge by timed register
  // writes, the values this step computes there from the RAM's read bus
  // (which it then need not read). `due`: the edge they are posted for.
  const arrival = line ? k.arrival : null;
  const lag = WRONG_ARRIVAL.mode === 'late' ? 2 : 1; // read at construction (negative control only)
  let due = -1;
  return () => {
    const s = m.s;
    const now = m.cycleRef.cycle;
    if (line) line.before(now);
    let reqSet = 0;
    let reqClr = 0;

    // ================= output framing (§5.4.8; DESIGN "Framing")
    const ost = s[outStateI]!;
    let nost = ost;
    const ph = s[txPhaseI]!;
    const hl = s[holdI]!;
    const tc = s[txCntI]!;
    let odv = s[outDataValidI]!;
    switch (ph) {
      case T_S1: // sample hold during S1; stretch the 1 while held
        if (hl === 0) s[txPhaseN] = T_S0;
        break;
      case T_S0:
        s[txPhaseN] = T_HEAD;
        s[txCntN] = headLen;
        break;
      case T_HEAD:
        if (strict && tc === 17) {
          s[txPhaseN] = T_PY1; // A2: the sync after the preheader
          s[txCntN] = 16;
        } else if (tc === 1) {
          s[txPhaseN] = T_Y1;
        } else {
          s[txCntN] = tc - 1;
        }
        break;
      case T_PY1:
        if (hl === 0) s[txPhaseN] = T_PY0;
        break;
      case T_PY0:
        s[txPhaseN] = T_HEAD;
        break;
      case T_Y1:
        // step 5: at the low-water mark latch the RAM data register into
        // the shift register; stretch the Y1 while held or while the word
        // is not there yet (spec §8.9 item 6)
        if (hl === 0 && ost === OUT_LOW && odv === 1) {
          s[txPhaseN] = T_Y0;
          s[txShiftN] = s[outDataI]!;
          s[txCntN] = 16;
          odv = 0;
          nost = OUT_FETCH; // "Go to step 4"
        }
        break;
      case T_Y0:
        s[txPhaseN] = T_WORD;
        break;
      case T_WORD:
        if (tc === 1) s[txPhaseN] = s[xreleaseI] === 1 ? T_IDLE : T_Y1;
        else s[txCntN] = tc - 1;
        break;
      default:
        break;
    }

    // ================= output controller (§5.4.2 output steps 1–6)
    let rp = s[rpendI]!;
    // A run at the posted edge computes the arrival itself (below, or not
    // at all after a poke of rpend): the posted outData is taken back
    // (outDataValid and rpend are written by every run).
    if (arrival && (due === now || rp === 1)) {
      m.cancelWrites(outData);
      due = -1;
    }
    if (s[xgntI] === 1 && ost !== OUT_IDLE) m.fail(`grant while the output controller is busy (A9: requests are withdrawn while forwarding)`);
    // the RAM data register takes the word read at the previous edge
    if (rp === 1 && s[rvalidI] === 1 && s[rsrcI] === me) {
      s[outDataN] = s[rdataI]!;
      odv = 1;
      rp = 0;
    }
    switch (ost) {
      case OUT_IDLE:
        // rotating priority: count cycles spent requesting without a grant
        if (s[xgntI] === 1) {
          const g = s[xgidxI]!;
          s[rrPtrN] = g + 1 > n ? 0 : g + 1;
          s[rrWaitN] = 0;
        } else if (s[xreqI]! !== 0) {
          if (s[rrWaitI]! < rrWindow) s[rrWaitN] = s[rrWaitI]! + 1;
        } else s[rrWaitN] = 0;
        if (s[xgntI] === 1) {
          // step 1: read the CAM entry selected by the (encoded) grant
          const j = s[xgidxI]!;
          if (s[camHitI] !== 1) m.fail(`grant for output ${j} but no CAM row has next port ${j}`);
          const row = s[camHitDataI]!;
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
          s[outRowN] = s[camHitRowI]!;
          s[outCamRowN] = row;
          s[outPortN] = j;
          s[outNextN] = nx;
          s[outAddrN] = ramAddress(i, row & slotMask, 0, rg);
          s[outLenN] = L;
          // output shift register: C reset, P updated, L, D
          s[txShiftN] = (np * 2 ** lb + L) * 65536 + D;
          s[txPhaseN] = T_S1;
          s[freeFlagN] = 0;
          odv = 0;
          rp = 0;
          nost = OUT_BC;
        }
        break;
      case OUT_BC: {
        // step 2 (shifting has begun): broadcast not finished → write the
        // next port back and request it; else flag the row to be freed at the end
        const nx = s[outNextI]!;
        if (nx === NO_PORT) {
          s[freeFlagN] = 1;
          nost = OUT_ADJ;
        } else if (s[camOpI] === CAM_OP.update) {
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
        const len = s[outLenI]!;
        if (len === 0) nost = OUT_FIN;
        else if (s[rgntI] === 1) {
          s[outAddrN] = s[outAddrI]! + 1;
          s[outLenN] = len - 1;
          rp = 1;
          nost = OUT_LOW;
          if (arrival && line!.fast) {
            const at = now + lag;
            m.writeAt(outData, at, arrival.mem!.data[s[outAddrI]!]!);
            m.writeAt(outDataValid, at, 1);
            m.writeAt(rpend, at, 0);
            due = at;
          }
        }
        break;
      }
      case OUT_FIN:
        // step 6 at the last bit (or later), not while the input controller inserts
        if ((s[xreleaseI] === 1 || ph === T_IDLE) && s[inStateI] !== IN_LOAD) {
          const others = s[camMatchI]! & ~(1 << s[outRowI]!);
          if (others === 0) reqClr = 1 << s[outPortI]!;
          if (s[freeFlagI] === 1) {
            s[freeRowsN] = s[freeRowsN]! + 1; // the camPort comb drives the free
            s[freeFlagN] = 0;
          }
          nost = OUT_IDLE;
        }
        break;
      default: // OUT_LOW: the framing latches the word at the Y1
        break;
    }
    s[outDataValidN] = odv;
    s[rpendN] = rp;
    s[outStateN] = nost;
    s[outSelN] = OUT_SEL[nost]!; // the combs' view of it (pbu_kit.ts)
    // the request register: from its next value (pbu_input_controller.ts header)
    if (reqSet !== 0 || reqClr !== 0) s[reqRegN] = ((s[reqRegN]! & ~reqClr) | reqSet) >>> 0;

    // The line registers from the next values (a register this process did
    // not write has next = current: the commit keeps them equal).
    const nph = s[txPhaseN]!;
    const nc = s[txCntN]!;
    s[txBitN] = lineBit(nph, nc, s[txShiftN]!);
    s[txRelN] = nph === T_WORD && nc === 1 && s[outLenN] === 0 && s[outDataValidN] === 0 && s[rpendN] === 0 ? 1 : 0;
    // the RAM client ports from the next values (pbu_kit.ts ramPortLoader)
    if (loadPorts) loadPorts(s);
    if (line) line.after(now, due === now + 1);
  };
}
