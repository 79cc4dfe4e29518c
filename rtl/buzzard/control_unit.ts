/**
 * Main control unit of the Buzzard communication processor (seed 002 §5.4.7,
 * §5.1.1–5.1.2, §4.1.1; digest docs/sources.md, buzzard §3, §5, §6, §8.4–8.7,
 * A6, A7, A11, A13, A14; interfaces rtl/buzzard/DESIGN.md "Interfaces between
 * units"). The seed leaves it unspecified ("PLAs or a microcode engine",
 * §5.4.7); this is a microcoded engine with one node-memory port.
 *
 * ------------------------------------------------------------------ ports
 * (n slots j = 1..n, A = 24 address bits)
 *  node output port, per slot j:
 *    out pfLoad{j} (1-cycle strobe), pfData{j}[32], pfCount{j}[6]   registers
 *    in  pfAvail{j}, refill{j}, pktDone{j}, refused{j}, idle{j}
 *  node input port:
 *    out inPop (combinational: the head word is taken in this cycle)
 *    in  inDout[16], inLast, inCount[bits for 0..fifoDepth], inEmpty
 *  arrival tracking unit:
 *    out atuOp[3], atuKey[15], atuNext[A], atuLast[A]                 registers
 *    in  atuHit, atuHitIdx[bits for 0..m-1], atuHitNext[A], atuHitLast[A],
 *        atuFreeCount[bits for 0..m], atuOk, atuIrq (= ATU interrupt)
 *  node memory (NodeMemory CU port):
 *    out memAddr[A], memRe, memWe, memWdata[32]                       registers
 *    in  memRdata[32], memDone
 *  CPU (CpuStandIn):
 *    in  instrValid, instrOp[3], instrAddr[A]
 *    out instrAck (1-cycle pulse), cpuIrq (1-cycle pulse), irqCause[2]
 *        (1 ATU: read of data not yet arrived, 2 system-type message
 *        delivered, 3 error)                                          registers
 *  errors (registers): error[8] (last CU_ERR code), errOp[3], errAddr[A]
 *    (header block / buffer address of the failing instruction), errVal[32]
 *    (the offending value), errCount[16]. `describeCuError` renders them.
 *
 * ------------------------------------------------------------------ engine
 * One microcoded engine (`st`, enum ENGINE_STATES) with one node-memory
 * port. A micro-step takes one cycle and may issue one memory access; the
 * step that uses the access's result runs in the access's done cycle (so a
 * chain of accesses costs cu.memoryAccess cycles per access, and a step with
 * no access costs 1 cycle). From IDLE it dispatches, round-robin between
 * three task classes (register `rr`): TX (slots), RX (the input port), INSTR
 * (the CPU). Tasks run to completion, except the RX task, which keeps its own
 * state (`rxSt`, enum RX_STATES, and rx* registers) and yields to IDLE when
 * the input FIFO is empty or, for an unexpected message, when no system
 * buffer is free (it retries after a receive is posted or a buffer freed).
 * Within TX the order is: a pending send-completion write, a slot refill
 * (round-robin over slots, register `txRr`), the broadcast queue, a new
 * message on an idle slot.
 *
 * Cycle costs (L = cu.memoryAccess, S = cu.queueSearchStep,
 * I = cu.instructionStart; the seed gives none, A14):
 *  - dispatch: the IDLE step (1 cycle) also performs a task's first step;
 *  - slot load (head or data chunk) with its words already on chip: 1 cycle;
 *    each node-memory word it still needs adds L (each word of a message is
 *    fetched once, also for broadcasts: a two-word window per message);
 *  - message start on a slot: 5 reads + 1 write (flag 1) = 6L (+1);
 *    send completion (flag 3): L (+1);
 *  - instruction: 1 (dispatch) + I + its reads and writes, e.g. send =
 *    I + 3 reads + 1–2 writes; receive = I + 4 reads + queue work; every
 *    queue entry examined costs S + its reads (2–3 L);
 *  - receive path per packet: 1 cycle to resume the task, 1 per FIFO word
 *    taken (a store's done cycle takes the next word), L per 32-bit store,
 *    2L per partial word (read-modify-write); ATU lookup 2 cycles (op held
 *    two cycles, sampled in the second); the ATU update op is presented for
 *    one cycle while the engine already returns to IDLE. A packet of a
 *    message not cached in the ATU: arrival table, extra 1, extra 2 reads
 *    (3L; +2L buffer/length for a truncated message) and an extra-1 write
 *    (L). A first packet: its prefix words, the expected-queue search (S +
 *    3L per entry examined), on a match 2L + up to 8 writes (10 for an
 *    unexpected message), the arrival-table write (L), ATU allocation (3
 *    cycles) and the flag-1 write (L). Completion: ATU purge together with
 *    the arrival-table read, its clearing, buffer and type reads, length and
 *    flag writes (6L + 1); a system block also unlinks from the arriving
 *    list (S + L per entry) and goes to the unclaimed queue (4L) or to the
 *    attached receive (2L + a copy of 2L per word + 4–5 writes).
 *
 *
 * ------------------------------------------------------------------ rooms
 * The unit is one engine (one node-memory port, one micro-step per cycle),
 * its code in rooms: cu_kit.ts (states, ports and registers, shared
 * micro-ops and checks), cu_transmit.ts (send queues, packetising,
 * broadcasts), cu_receive.ts (the receive task), cu_instructions.ts (CPU
 * instructions); this file declares the unit, dispatches the task classes
 * and runs the engine's shared states (IDLE, RX, the write sequence and
 * the copy loop). The rooms share the engine's process and its tracked
 * writes (docs/kernel.md "Tracked writes"): one engine state decides each
 * cycle's memory access, so they are not separate processes.
 * ------------------------------------------------------------------ errors
 * Instruction errors (CU_ERR in header_blocks.ts) set error/errOp/errAddr/
 * errVal, count errCount, raise cpuIrq (cause 3), write flag = 3 | code << 8
 * into the block when its address is usable, acknowledge, and change no
 * queue: the node continues. A message longer than its receive buffer
 * (or than a system buffer) is truncated: the surplus bytes are consumed
 * from the network and dropped, the flag gets CU_ERR.truncated, the length
 * field the full message length; the error registers are set too.
 * Protocol violations by the neighbouring units (a misrouted packet, a
 * packet longer than its message, an unsized unexpected message without
 * the A7 length prefix, a stale slot flag) stop the simulation (`fail`).
 *
 * ------------------------------------------------------------------ limits
 *  - One broadcast / NN-broadcast in flight at a time (mBusy); the next one
 *    reserves its slots only after the previous one's flag is 3.
 *  - Buffers must be word aligned (CU_ERR.badBuffer otherwise).
 *  - Without a length in the first-packet prefix (firstPacketPrefixBytes 0
 *    or 2) the message length is the matching receive's length field, and an
 *    unexpected message cannot be sized (`fail`, A7).
 *  - While the receive path waits for a system buffer, the input FIFO is not
 *    drained (head-of-line blocking; the port blocks the network).
 *  - Send to the node itself is rejected (CU_ERR.selfSend): the output port
 *    slots reach only the links.
 *
 * ------------------------------------------------------------------ not done
 *  - ATU "expected" entries for ANY-type receives with a user buffer (spec
 *    §8.7 receive instruction 3): receives are not cached in the ATU before
 *    their message arrives (op 2 is never issued).
 *  - A receive posted while an unexpected message arrives is attached by
 *    the second queue link and served at completion (copy or hand-over);
 *    there is no early copy of the part already in the system buffer.
 *  - Separate system-type sections of the hash tables (§5.1.1, optional).
 */
import { Module, type Signal } from '../kernel/module.ts';
import type { BuzzardConfig } from './config.ts';
import { CU_ERR_TEXT, OP_NAMES, type CuLayout, type CuLayoutOptions } from './header_blocks.ts';
import { cuInstructions } from './cu_instructions.ts';
import { E, ATU, IRQ_CAUSE, ENGINE_STATES, RX_STATES, cuKit, cuSlotKit, type SlotRegs } from './cu_kit.ts';
import { cuReceive } from './cu_receive.ts';
import { cuTransmit } from './cu_transmit.ts';

export { ENGINE_STATES, IRQ_CAUSE, RX_STATES, type EngineState, type RxState } from './cu_kit.ts';

/** The room that runs each engine state: 1 transmit (T_*, M_*), 2 instructions (I_*), 0 this file. */
const ROOM = ENGINE_STATES.map((nm) => (nm.startsWith('I_') ? 2 : nm.startsWith('T_') || nm.startsWith('M_') ? 1 : 0));

export class ControlUnit extends Module {
  readonly cfg: BuzzardConfig;
  readonly node: number;
  readonly layout: CuLayout;
  readonly slots: SlotRegs[];
  /**
   * The transmit task's fetch-plan helpers, read-only, for the property that
   * firstMiss equals the plan it replaced (test/buzzard/cu_fetch_plan.test.ts).
   */
  txPlan!: Pick<ReturnType<typeof cuTransmit>, 'view' | 'loadPlan' | 'wordOfM' | 'inWin' | 'firstMiss'> & { readonly P0: number };
  /**
   * The IDLE dispatch's transmit look, read-only, for the property that
   * mayAct is never false where the four steps would act
   * (test/buzzard/cu_may_act.test.ts). txSteps acts when it returns true.
   */
  txIdle!: Pick<ReturnType<typeof cuTransmit>, 'mayAct' | 'txSteps'>;
  // input port
  readonly inPop: Signal;
  readonly inDout: Signal;
  readonly inLast: Signal;
  readonly inCount: Signal;
  readonly inEmpty: Signal;
  // ATU
  readonly atuOp: Signal;
  readonly atuKey: Signal;
  readonly atuNext: Signal;
  readonly atuLast: Signal;
  readonly atuHit: Signal;
  readonly atuHitIdx: Signal;
  readonly atuHitNext: Signal;
  readonly atuHitLast: Signal;
  readonly atuFreeCount: Signal;
  readonly atuOk: Signal;
  readonly atuIrq: Signal;
  // memory
  readonly memAddr: Signal;
  readonly memRe: Signal;
  readonly memWe: Signal;
  readonly memWdata: Signal;
  readonly memRdata: Signal;
  readonly memDone: Signal;
  // CPU
  readonly instrValid: Signal;
  readonly instrOp: Signal;
  readonly instrAddr: Signal;
  readonly instrAck: Signal;
  readonly cpuIrq: Signal;
  readonly irqCause: Signal;
  // errors
  readonly error: Signal;
  readonly errOp: Signal;
  readonly errAddr: Signal;
  readonly errVal: Signal;
  readonly errCount: Signal;
  // engine
  readonly st: Signal;
  readonly rxSt: Signal;
  readonly wcnt: Signal;
  readonly poolMap: Signal;
  readonly poolUser: Signal;
  readonly anyHead: Signal;
  readonly anyTail: Signal;
  readonly anyCount: Signal;
  readonly ucCount: Signal;
  readonly mBusy: Signal;
  readonly mqHead: Signal;
  readonly auHead: Signal;
  readonly rxTake: Signal;

  constructor(parent: Module | null, name: string, config: Partial<BuzzardConfig>, node: number, layoutOpts: CuLayoutOptions = {}) {
    super(parent, name);
    const decl = cuKit(this, config, node, layoutOpts);
    const sg = decl.sigs;
    this.cfg = decl.cfg;
    this.node = node;
    this.layout = decl.lay;
    this.slots = sg.slots;
    this.inPop = sg.inPop;
    this.inDout = sg.inDout;
    this.inLast = sg.inLast;
    this.inCount = sg.inCount;
    this.inEmpty = sg.inEmpty;
    this.atuOp = sg.atuOp;
    this.atuKey = sg.atuKey;
    this.atuNext = sg.atuNext;
    this.atuLast = sg.atuLast;
    this.atuHit = sg.atuHit;
    this.atuHitIdx = sg.atuHitIdx;
    this.atuHitNext = sg.atuHitNext;
    this.atuHitLast = sg.atuHitLast;
    this.atuFreeCount = sg.atuFreeCount;
    this.atuOk = sg.atuOk;
    this.atuIrq = sg.atuIrq;
    this.memAddr = sg.memAddr;
    this.memRe = sg.memRe;
    this.memWe = sg.memWe;
    this.memWdata = sg.memWdata;
    this.memRdata = sg.memRdata;
    this.memDone = sg.memDone;
    this.instrValid = sg.instrValid;
    this.instrOp = sg.instrOp;
    this.instrAddr = sg.instrAddr;
    this.instrAck = sg.instrAck;
    this.cpuIrq = sg.cpuIrq;
    this.irqCause = sg.irqCause;
    this.error = sg.error;
    this.errOp = sg.errOp;
    this.errAddr = sg.errAddr;
    this.errVal = sg.errVal;
    this.errCount = sg.errCount;
    this.st = sg.st;
    this.rxSt = sg.rxSt;
    this.wcnt = sg.wcnt;
    this.poolMap = sg.poolMap;
    this.poolUser = sg.poolUser;
    this.anyHead = sg.anyHead;
    this.anyTail = sg.anyTail;
    this.anyCount = sg.anyCount;
    this.ucCount = sg.ucCount;
    this.mBusy = sg.mBusy;
    this.mqHead = sg.mqHead;
    this.auHead = sg.auHead;
    this.rxTake = sg.rxTake;
    // The engine is declared now; its rooms are built once the slots are
    // known, on slot numbers (cu_kit.ts cuSlotKit; docs/kernel.md "Stop 21:
    // Buzzard units").
    let engine: () => void = () => {};
    this.seq(() => engine(), { writes: 'tracked', name: 'engine' });
    this.whenSlots(() => {
      const kit = cuSlotKit(decl);
      const {
        n, slots, inPop, atuOp, atuIrq, memRe, memWe, memRdata, memDone, instrAck, cpuIrq, irqCause,
        st, wcnt, rr, wqA, wqV, wqN, wqI, wqRet, cpS, cpD, cpN, cpW, cpRet, mqReady, mqMask, rxSt,
        atuPrev, s, g, gi, p, fail, bus, rd, wr, go, writes, irq, laneMask,
      } = kit;
      const tx = cuTransmit(kit);
      this.txPlan = { view: tx.view, loadPlan: tx.loadPlan, wordOfM: tx.wordOfM, inWin: tx.inWin, firstMiss: tx.firstMiss, P0: kit.P0 };
      this.txIdle = { mayAct: tx.mayAct, txSteps: tx.txSteps };
      const rx = cuReceive(kit);
      const ins = cuInstructions(kit, tx);
      const { txTask } = tx;
      const { rxTask, rxStep } = rx;
      const { instrTask } = ins;

      const dispatch = (): void => {
        const last = g(rr);
        for (let k = 1; k <= 3; k++) {
          const c = (last + k) % 3;
          const done = c === 0 ? txTask() : c === 1 ? rxTask() : instrTask();
          if (done) {
            p(rr, c);
            return;
          }
        }
      };


      // ---------------------------------------------------------------- main seq
      /** pfLoad, pktDone, refused of slot j at 3j..3j+2 (state-vector slots). */
      const pulseI = Int32Array.from(slots.flatMap((sl) => [sl.pfLoad, sl.pktDone, sl.refused]));
      engine = () => {
        const sv = s();
        // pulses and per-slot bookkeeping (every cycle)
        if (sv[instrAck]) p(instrAck, 0);
        if (sv[cpuIrq]) {
          p(cpuIrq, 0);
          p(irqCause, 0);
        }
        const op = sv[atuOp]!;
        if (op !== ATU.none && op !== ATU.lookup) p(atuOp, ATU.none);
        const ai = gi(atuIrq);
        if (ai !== g(atuPrev)) {
          // written only on a change: an unchanged write commits nothing but costs a tracked write every run (issue 8)
          if (ai) irq(IRQ_CAUSE.atu);
          p(atuPrev, ai);
        }
        for (let j = 0, q = 0; j < n; j++, q += 3) {
          // most runs see no pulse: one look at the three state-vector slots first
          if (sv[pulseI[q]!] === 0 && sv[pulseI[q + 1]!] === 0 && sv[pulseI[q + 2]!] === 0) continue;
          const sl = slots[j]!;
          if (sv[sl.pfLoad]) p(sl.pfLoad, 0);
          if (gi(sl.pktDone)) {
            if (g(sl.out) === 0) fail(`slot ${j + 1}: pktDone with no packet loaded`);
            p(sl.out, g(sl.out) - 1);
            const fc = g(sl.finCnt);
            if (fc > 0) {
              p(sl.finCnt, fc - 1);
              if (fc === 1) p(sl.finPend, 1);
            }
          }
          if (gi(sl.refused)) p(sl.refusals, (g(sl.refusals) + 1) & 0xffff);
        }
        if (g(mqReady)) {
          const mask = g(mqMask);
          for (let j = 0; j < n; j++) if ((mask >> j) & 1 && !g(slots[j]!.act) && !g(slots[j]!.res)) p(slots[j]!.res, 1);
        }

        // engine
        const busy = sv[memRe]! !== 0 || sv[memWe]! !== 0;
        const done = sv[memDone]! !== 0;
        if (busy && !done) return;
        bus.md = busy ? sv[memRdata]! : 0;
        if (busy) {
          p(memRe, 0);
          p(memWe, 0);
        }
        if (sv[wcnt]! > 0) {
          p(wcnt, sv[wcnt]! - 1);
          return;
        }
        const popNow = sv[inPop]! !== 0;
        const took = step(popNow);
        if (popNow && !took) fail(`internal: input FIFO word popped in engine state ${ENGINE_STATES[sv[st]!]}/${RX_STATES[sv[rxSt]!]} but not used`);
      };


      /** One engine micro-step; returns whether it consumed the FIFO head word. */
      const step = (popNow: boolean): boolean => {
        const state = g(st);
        switch (state) {
          case E.IDLE:
            dispatch();
            return false;
          case E.RX:
            return rxStep(popNow);
          case E.WSEQ: {
            const k = g(wqI);
            if (k < g(wqN)) {
              p(wqI, k + 1);
              wr(g(wqA[k]!), g(wqV[k]!), E.WSEQ);
            } else go(g(wqRet));
            return false;
          }
          case E.C_RD: {
            const left = g(cpN);
            if (left >= 4) {
              p(cpN, left - 4);
              wr(g(cpD), bus.md, E.C_NEXT);
            } else {
              p(cpW, bus.md);
              rd(g(cpD), E.C_RMW);
            }
            return false;
          }
          case E.C_RMW: {
            const left = g(cpN);
            const mask = laneMask(g(cpD), left, g(cpD) + left - 1);
            p(cpN, 0);
            wr(g(cpD), ((bus.md & ~mask) | (g(cpW) & mask)) >>> 0, E.C_NEXT);
            return false;
          }
          case E.C_NEXT: {
            p(cpS, g(cpS) + 4);
            p(cpD, g(cpD) + 4);
            if (g(cpN) === 0) go(g(cpRet));
            else rd(g(cpS), E.C_RD); // g() sees the incremented pointer
            return false;
          }
          default:
            if (ROOM[state] === 1) return tx.step(state);
            if (ROOM[state] === 2) return ins.step(state);
            return fail(`internal: engine state ${ENGINE_STATES[state] ?? state}`);
        }
      };
    });
  }
}

/** Text for the control unit's error registers (node, instruction, address, code). */
export function describeCuError(node: number, code: number, op: number, addr: number, val: number): string {
  return `node ${node}: ${OP_NAMES[op] ?? `op ${op}`} @0x${addr.toString(16)}: ${CU_ERR_TEXT[code] ?? `error ${code}`} (value ${val >>> 0})`;
}
