/**
 * The packet buffer unit's input controller (seed 002 §5.4.2 input steps
 * 1–10, docs/sources.md buzzard §8.2; framing §5.4.8 and the readings of
 * rtl/buzzard/DESIGN.md; the unit: packet_buffer_unit.ts). One clocked
 * process of its own: it receives the packet from the link into the
 * incoming shift register, reserves and loads a CAM row, and writes the
 * words into the buffer RAM.
 *
 * Shared with the output controller (pbu_output_controller.ts): the free
 * row register (this side decrements it at step 4, the output side
 * increments it at step 6) and the crossbar request register (this side
 * sets a bit at step 7). Each side writes the next value from the next value
 * (`s[r.n] = f(s[r.n])`): a register no process wrote has next = current, so
 * whichever runs first, both changes land, as they did when both
 * controllers were one process. The one case that would not commute, a set
 * and a reset of the same request bit, cannot happen: the output side's step
 * 6 waits while this side is in camLoad (packet_buffer_unit.ts "Readings").
 * Why two processes: docs/kernel.md "Stop 19: PBU".
 */
import { ramAddress } from './buffer_ram.ts';
import type { PbuInputEnd } from './pbu_line.ts';
import {
  IN_DEST, IN_LASTW, IN_LATCH, IN_LOAD, IN_PRE, IN_PSYNC, IN_REF, IN_REFD, IN_SBIT, IN_START, IN_SYNC, IN_WAIT, IN_WORD,
  PBU_IN_STATES, ramPortLoader, type PbuKit,
} from './pbu_kit.ts';

/** The input controller's clocked step (with its link end's catch-up and wake-up on a cube's serial lines). */
export function pbuInputController(k: PbuKit, line: PbuInputEnd | null): () => void {
  const { m, i, rg, n, strict, refusalOn, lb, preBits, headMask, lenMask, slotMask, INVALID } = k;
  const { inBit, wgnt, camFreeRow, camFreeCount, contraryFull, blk, inState, inCnt, inShift, inLen, inSlot, inAddr, inData, wpend, camLoadR, freeRows, reqReg } = k;
  // Slot indices in the closure (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
  let blkN = 0, camFreeCountI = 0, camFreeRowI = 0, camLoadRN = 0, contraryFullI = 0, freeRowsI = 0, freeRowsN = 0, inAddrI = 0, inAddrN = 0, inBitI = 0, inCntI = 0, inCntN = 0, inDataN = 0, inLenI = 0, inLenN = 0, inShiftI = 0, inShiftN = 0, inSlotI = 0, inSlotN = 0, inStateI = 0, inStateN = 0, reqRegN = 0, wgntI = 0, wpendI = 0, wpendN = 0;
  m.whenSlots(() => {
    [blkN, camFreeCountI, camFreeRowI, camLoadRN, contraryFullI, freeRowsI, freeRowsN, inAddrI, inAddrN, inBitI, inCntI, inCntN, inDataN, inLenI, inLenN, inShiftI, inShiftN, inSlotI, inSlotN, inStateI, inStateN, reqRegN, wgntI, wpendI, wpendN] = [blk.n, camFreeCount.i, camFreeRow.i, camLoadR.n, contraryFull.i, freeRows.i, freeRows.n, inAddr.i, inAddr.n, inBit.i, inCnt.i, inCnt.n, inData.n, inLen.i, inLen.n, inShift.i, inShift.n, inSlot.i, inSlot.n, inState.i, inState.n, reqReg.n, wgnt.i, wpend.i, wpend.n];
  });
  const loadPorts = ramPortLoader(k, 'in');
  return () => {
    const s = m.s;
    if (line) line.before(m.cycleRef.cycle);
    const bit = s[inBitI]!;
    let freeDec = 0;
    let reqSet = 0;
    const fr = s[freeRowsI]!;
    if (fr > s[camFreeCountI]!) m.fail(`free row register ${fr} exceeds the CAM's ${s[camFreeCountI]} free rows`);
    const ist = s[inStateI]!;
    let nist = ist;
    let wp = s[wpendI]!;
    // Steps 9–10: the RAM write of the latched word; then increment the
    // address (or, for the L-th word, write the non-valid address, step 8).
    if (wp === 1 && s[wgntI] === 1) {
      wp = 0;
      if (ist === IN_LASTW) {
        s[inAddrN] = INVALID;
        nist = IN_START;
      } else {
        s[inAddrN] = s[inAddrI]! + 1;
      }
    }
    switch (ist) {
      case IN_START: // step 1: "when free (CAM) row register is greater than 0 ... Proceed."
        if (fr > 0) nist = IN_LATCH;
        break;
      case IN_LATCH: {
        // step 2: RAM address := PBU offset | slot of the first free row | 0
        if (s[camFreeCountI] === 0) m.fail('step 2 with no free CAM row');
        const slot = s[camFreeRowI]! & slotMask;
        s[inSlotN] = slot;
        s[inAddrN] = ramAddress(i, slot, 0, rg);
        s[blkN] = 0; // step 3: "Release flow control block on input"
        nist = IN_WAIT;
        break;
      }
      case IN_WAIT: // step 3: wait for the start bits "10"
        if (bit === 1) nist = IN_SBIT;
        break;
      case IN_SBIT:
        if (bit === 0) {
          nist = IN_PRE;
          s[inCntN] = 0;
          s[inShiftN] = 0;
        }
        break;
      case IN_PRE: {
        const cnt = s[inCntI]!;
        const sh = s[inShiftI]! * 2 + bit;
        if (cnt === 0) {
          // step 4: contrary bit AND the contrary-full line (A8: flagAndButTail)
          if (bit === 1 && refusalOn && s[contraryFullI] === 1) {
            s[blkN] = 1;
            s[inCntN] = 1;
            nist = IN_REF;
            break;
          }
          freeDec = 1; // "Otherwise decrement the free row register"
        }
        s[inShiftN] = sh;
        if (cnt === preBits - 1) {
          const len = sh & lenMask; // step 5: "On the arrival of bit 8, latch the packet length"
          if (len === 0) m.fail('packet with length field L = 0 (A5: L is 1..maxL)');
          s[inLenN] = len;
          s[inCntN] = 0;
          nist = strict ? IN_PSYNC : IN_DEST;
        } else {
          s[inCntN] = cnt + 1;
        }
        break;
      }
      case IN_REF: {
        // refused: ignore the rest of the preheader (DESIGN "Contrary refusal")
        const cnt = s[inCntI]!;
        if (cnt === preBits - 1) nist = IN_REFD;
        else s[inCntN] = cnt + 1;
        break;
      }
      case IN_REFD: // block stays until the aborted sender's line is 0, then step 1
        if (bit === 0) nist = IN_START;
        break;
      case IN_PSYNC: // A2: strict post-preheader sync (never blocked here)
      case IN_SYNC:
        if (bit === 1) s[inCntN] = 1;
        else {
          if (s[inCntI] === 0) m.fail(`framing: sync pattern without its '1' (input state ${PBU_IN_STATES[ist]})`);
          s[inCntN] = 0;
          nist = ist === IN_PSYNC ? IN_DEST : IN_WORD;
        }
        break;
      case IN_DEST: {
        // destination bits 9..24; step 6 (CAM intention) during bit 23 is
        // the priority the camLoad cycle has on the CAM port
        const cnt = s[inCntI]!;
        s[inShiftN] = (s[inShiftI]! * 2 + bit) % (headMask + 1);
        if (cnt === 15) nist = IN_LOAD;
        else s[inCntN] = cnt + 1;
        break;
      }
      case IN_LOAD: {
        // step 7: latch the 25 bits into the first free CAM row (camPort
        // comb drives the insert) and set the request bit for next port P
        if (bit !== 1) m.fail('framing: no Y1 after the destination word');
        const p = (s[inShiftI]! >>> (lb + 16)) & 15;
        if (p > n || p === i) m.fail(`incoming next port ${p} is not a crossbar output of PBU ${i} (0..${n} except ${i})`);
        if ((s[camFreeRowI]! & slotMask) !== s[inSlotI]) m.fail('the first free CAM row no longer holds the RAM slot latched in step 2');
        reqSet = 1 << p;
        s[inCntN] = 1; // the Y1 is on the line
        nist = IN_SYNC;
        break;
      }
      case IN_WORD: {
        const cnt = s[inCntI]!;
        const sh = (s[inShiftI]! * 2 + bit) & 0xffff;
        s[inShiftN] = sh;
        if (cnt === 15) {
          // step 8: latch into the RAM data register, check/decrement the length counter
          if (wp === 1) m.fail('RAM write overrun: the previous word is still not written');
          s[inDataN] = sh;
          wp = 1;
          const len = s[inLenI]! - 1;
          s[inLenN] = len;
          s[inCntN] = 0;
          if (len === 0) {
            s[blkN] = 1; // "assert the flow control block"
            nist = IN_LASTW;
          } else {
            nist = IN_SYNC;
          }
        } else {
          s[inCntN] = cnt + 1;
        }
        break;
      }
      default: // IN_LASTW: waits for the write grant above
        break;
    }
    s[wpendN] = wp;
    s[inStateN] = nist;
    // camLoadR = (inState = camLoad): the CAM port's guard (packet_buffer_unit.ts)
    s[camLoadRN] = nist === IN_LOAD ? 1 : 0;
    // shared registers: from their next values (see the header)
    if (reqSet !== 0) s[reqRegN] = (s[reqRegN]! | reqSet) >>> 0;
    if (freeDec !== 0) s[freeRowsN] = s[freeRowsN]! - 1;
    // the RAM client ports from the next values (pbu_kit.ts ramPortLoader)
    if (loadPorts) loadPorts(s);
    if (line) line.after(m.cycleRef.cycle);
  };
}
