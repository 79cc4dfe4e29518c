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
 * ------------------------------------------------------------------ send
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
 *
 * ------------------------------------------------------------------ receive
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
 * Receive instruction (buzzard §8.7 1–3): search the unclaimed queues (the
 * (source, type) bucket, all buckets for ANY; skipped when none), claim by
 * copy (user buffer) or hand-over (null buffer); else attach to a matching
 * arriving unexpected message (second queue link, flag 1); else enqueue as
 * expected with extra 1 / extra 2 = first / last byte of the buffer.
 * Buffer release: the address must be a pool buffer handed to the user.
 *
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
import { checkConfig, geometry, type BuzzardConfig } from './config.ts';
import { BROADCAST_TAG, packPreheader, sourceWord } from './framing.ts';
import {
  ANY,
  ARR_SYS,
  ARR_TRUNC,
  CU_ERR,
  CU_ERR_TEXT,
  NNB,
  OP,
  OP_NAMES,
  RECV,
  SEND,
  SYSTEM_TYPE_MIN,
  SYS_BLOCK_BYTES,
  arrivalAddr,
  cuLayout,
  hashSrcType,
  prefixLayout,
  type CuLayout,
  type CuLayoutOptions,
} from './header_blocks.ts';
import { ecubeFirstPort, nextPort } from './routing.ts';

const A = 24;

export const ENGINE_STATES = [
  'IDLE',
  'I_DEC',
  'I_ACK',
  'I_SD_DEST',
  'I_SD_LEN',
  'I_SD_BUF',
  'I_SD_ENQ',
  'I_MC_CNT',
  'I_MC_DST',
  'I_MC_LEN',
  'I_MC_BUF',
  'I_MC_ENQ',
  'I_RV_SRC',
  'I_RV_TYPE',
  'I_RV_LEN',
  'I_RV_BUF',
  'I_UC_NODE',
  'I_UC_RD',
  'I_UC_SRC',
  'I_UC_TYPE',
  'I_UC_NEXT',
  'I_UC_UNL',
  'I_UC_UNL2',
  'I_UC_ML',
  'I_UC_FL',
  'I_UC_SB',
  'I_UC_DONE',
  'I_AU_NODE',
  'I_AU_RD',
  'I_AU_SRC',
  'I_AU_TYPE',
  'I_AU_L2',
  'I_AU_NEXT',
  'I_EX_ENQ',
  'I_EX_TAIL',
  'I_EX_T2',
  'T_ST_LINK',
  'T_ST_DEST',
  'T_ST_TYPE',
  'T_ST_LEN',
  'T_ST_BUF',
  'T_LD_F',
  'M_PC',
  'M_PD',
  'M_ST_LINK',
  'M_ST_TYPE',
  'M_ST_LEN',
  'M_ST_BUF',
  'RX',
  'WSEQ',
  'C_RD',
  'C_RMW',
  'C_NEXT',
] as const;
export type EngineState = (typeof ENGINE_STATES)[number];

export const RX_STATES = [
  'R_IDLE',
  'R_D',
  'R_S',
  'R_LOOK',
  'R_LOOK2',
  'R_ARR',
  'R_X1',
  'R_X2',
  'R_TB',
  'R_TL',
  'R_PFX',
  'R_MATCH0',
  'R_M_BKT',
  'R_M_RD',
  'R_M_SRC',
  'R_M_TYPE',
  'R_M_NEXT',
  'R_F_BUF',
  'R_F_LEN',
  'R_F_UNL',
  'R_ENTER',
  'R_ALLOC',
  'R_AL2',
  'R_AL3',
  'R_GO',
  'R_DATA',
  'R_RMW',
  'R_END',
  'R_C0',
  'R_C1',
  'R_C2',
  'R_C3',
  'R_C4',
  'R_AU_NODE',
  'R_AU_RD',
  'R_AU_UNL',
  'R_C5',
  'R_C6',
  'R_AU_L2RD',
  'R_D2',
  'R_D3',
  'R_D4',
  'R_IRQ',
  'R_WAITPOOL',
] as const;
export type RxState = (typeof RX_STATES)[number];

const E = Object.fromEntries(ENGINE_STATES.map((n, k) => [n, k])) as Record<EngineState, number>;
const R = Object.fromEntries(RX_STATES.map((n, k) => [n, k])) as Record<RxState, number>;

/** cpuIrq causes (irqCause). */
export const IRQ_CAUSE = { atu: 1, systemMessage: 2, error: 3 } as const;

/** ATU op codes (DESIGN.md). */
const ATU = { none: 0, allocArriving: 1, allocExpected: 2, update: 3, purge: 4, lookup: 5 } as const;

/** Rx flags (register rxFl): arrival table flags in bits 1..0 plus "tracked by the ATU". */
const FL_TRUNC = ARR_TRUNC;
const FL_SYS = ARR_SYS;
const FL_ATU = 4;

const WQ = 10; // write-sequence registers

function bitsFor(n: number): number {
  return n <= 1 ? 1 : 32 - Math.clz32(n);
}
function popcount(x: number): number {
  let c = 0;
  while (x) {
    x &= x - 1;
    c++;
  }
  return c;
}

interface SlotRegs {
  pfLoad: Signal;
  pfData: Signal;
  pfCount: Signal;
  pfAvail: Signal;
  refill: Signal;
  pktDone: Signal;
  refused: Signal;
  idle: Signal;
  qHead: Signal;
  qTail: Signal;
  qLen: Signal;
  act: Signal;
  res: Signal;
  multi: Signal;
  blk: Signal;
  dst: Signal;
  srcW: Signal;
  cp: Signal;
  len: Signal;
  buf: Signal;
  type: Signal;
  h: Signal;
  rem: Signal;
  ph: Signal;
  w0: Signal;
  w1: Signal;
  wa: Signal;
  wv: Signal;
  out: Signal;
  finCnt: Signal;
  finPend: Signal;
  finBlk: Signal;
  finMulti: Signal;
  refusals: Signal;
  packets: Signal;
}

interface MsgView {
  len: Signal;
  buf: Signal;
  type: Signal;
  w0: Signal;
  w1: Signal;
  wa: Signal;
  wv: Signal;
}

export class ControlUnit extends Module {
  readonly cfg: BuzzardConfig;
  readonly node: number;
  readonly layout: CuLayout;
  readonly slots: SlotRegs[];
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
    const cfg = (this.cfg = checkConfig(config));
    const geo = geometry(cfg);
    const n = cfg.n;
    const nodes = 1 << n;
    if (!(Number.isInteger(node) && node >= 0 && node < nodes)) throw new RangeError(`control unit: node ${node} is outside the ${n}-cube (0..${nodes - 1})`);
    this.node = node;
    const self = node;
    const lay = (this.layout = cuLayout(cfg, layoutOpts));
    const K = lay.sysBuffers;
    const H = lay.hashBuckets;
    const m = geo.atuEntries;
    const pfx = prefixLayout(cfg.firstPacketPrefixBytes);
    const P0 = pfx.words;
    const per = geo.maxL - 1; // M words per packet
    const headCount = geo.preheaderBits + 16;
    const S = cfg.cu.queueSearchStep;
    const IS = cfg.cu.instructionStart;
    const lb = geo.lengthBits;
    const allMask = nodes === 0 ? 0 : (1 << n) - 1;

    // ---------------------------------------------------------------- ports
    const slots: SlotRegs[] = [];
    for (let j = 1; j <= n; j++) {
      slots.push({
        pfLoad: this.reg(`pfLoad${j}`),
        pfData: this.reg(`pfData${j}`, 32),
        pfCount: this.reg(`pfCount${j}`, 6),
        pfAvail: this.input(`pfAvail${j}`),
        refill: this.input(`refill${j}`),
        pktDone: this.input(`pktDone${j}`),
        refused: this.input(`refused${j}`),
        idle: this.input(`idle${j}`),
        qHead: this.reg(`qHead${j}`, A),
        qTail: this.reg(`qTail${j}`, A),
        qLen: this.reg(`qLen${j}`, 16),
        act: this.reg(`sAct${j}`),
        res: this.reg(`sRes${j}`),
        multi: this.reg(`sMulti${j}`),
        blk: this.reg(`sBlk${j}`, A),
        dst: this.reg(`sDst${j}`, 16),
        srcW: this.reg(`sSrcW${j}`, 16),
        cp: this.reg(`sCP${j}`, 5),
        len: this.reg(`sLen${j}`, 32),
        buf: this.reg(`sBuf${j}`, A),
        type: this.reg(`sType${j}`, 16),
        h: this.reg(`sH${j}`, 32),
        rem: this.reg(`sRem${j}`, 6),
        ph: this.reg(`sPh${j}`, 2, 0, { enum: ['head', 'source', 'data', 'ph3'] }),
        w0: this.reg(`sW0${j}`, 32),
        w1: this.reg(`sW1${j}`, 32),
        wa: this.reg(`sWA${j}`, A),
        wv: this.reg(`sWV${j}`, 2),
        out: this.reg(`sOut${j}`, 3),
        finCnt: this.reg(`finCnt${j}`, 3),
        finPend: this.reg(`finPend${j}`),
        finBlk: this.reg(`finBlk${j}`, A),
        finMulti: this.reg(`finMulti${j}`),
        refusals: this.reg(`refusals${j}`, 16),
        packets: this.reg(`packets${j}`, 16),
      });
    }
    this.slots = slots;
    const inPop = (this.inPop = this.output('inPop'));
    const inDout = (this.inDout = this.input('inDout', 16));
    const inLast = (this.inLast = this.input('inLast'));
    this.inCount = this.input('inCount', bitsFor(cfg.fifoDepth));
    const inEmpty = (this.inEmpty = this.input('inEmpty'));
    const atuOp = (this.atuOp = this.reg('atuOp', 3, 0, { enum: ['none', 'allocArriving', 'allocExpected', 'update', 'purge', 'lookup', 'op6', 'op7'] }));
    const atuKey = (this.atuKey = this.reg('atuKey', 15));
    const atuNext = (this.atuNext = this.reg('atuNext', A));
    const atuLast = (this.atuLast = this.reg('atuLast', A));
    const atuHit = (this.atuHit = this.input('atuHit'));
    this.atuHitIdx = this.input('atuHitIdx', bitsFor(m - 1));
    const atuHitNext = (this.atuHitNext = this.input('atuHitNext', A));
    const atuHitLast = (this.atuHitLast = this.input('atuHitLast', A));
    this.atuFreeCount = this.input('atuFreeCount', bitsFor(m));
    const atuOk = (this.atuOk = this.input('atuOk'));
    const atuIrq = (this.atuIrq = this.input('atuIrq'));
    const memAddr = (this.memAddr = this.reg('memAddr', A));
    const memRe = (this.memRe = this.reg('memRe'));
    const memWe = (this.memWe = this.reg('memWe'));
    const memWdata = (this.memWdata = this.reg('memWdata', 32));
    const memRdata = (this.memRdata = this.input('memRdata', 32));
    const memDone = (this.memDone = this.input('memDone'));
    const instrValid = (this.instrValid = this.input('instrValid'));
    const instrOp = (this.instrOp = this.input('instrOp', 3));
    const instrAddr = (this.instrAddr = this.input('instrAddr', A));
    const instrAck = (this.instrAck = this.reg('instrAck'));
    const cpuIrq = (this.cpuIrq = this.reg('cpuIrq'));
    const irqCause = (this.irqCause = this.reg('irqCause', 2, 0, { enum: ['none', 'atu', 'systemMessage', 'error'] }));
    const error = (this.error = this.reg('error', 8));
    const errOp = (this.errOp = this.reg('errOp', 3, 0, { enum: OP_NAMES }));
    const errAddr = (this.errAddr = this.reg('errAddr', A));
    const errVal = (this.errVal = this.reg('errVal', 32));
    const errCount = (this.errCount = this.reg('errCount', 16));

    // ---------------------------------------------------------------- engine registers
    const st = (this.st = this.reg('st', bitsFor(ENGINE_STATES.length - 1), 0, { enum: ENGINE_STATES }));
    const wcnt = (this.wcnt = this.reg('wcnt', 16));
    const rr = this.reg('rr', 2);
    const txRr = this.reg('txRr', 4);
    const iOp = this.reg('iOp', 3, 0, { enum: OP_NAMES });
    const iBlk = this.reg('iBlk', A);
    const tA = this.reg('tA', 32);
    const tB = this.reg('tB', 32);
    const tC = this.reg('tC', 32);
    const tD = this.reg('tD', 32);
    const tJ = this.reg('tJ', 4);
    const iCnt = this.reg('iCnt', 16);
    const iEnd = this.reg('iEnd', 16);
    const cur = this.reg('cur', A);
    const prev = this.reg('prev', A);
    const nxt = this.reg('nxt', A);
    const ms = this.reg('ms', 32);
    const mt = this.reg('mt', 32);
    const wqA = this.regs('wqA', WQ, A);
    const wqV = this.regs('wqV', WQ, 32);
    const wqN = this.reg('wqN', 4);
    const wqI = this.reg('wqI', 4);
    const wqRet = this.reg('wqRet', st.width, 0, { enum: ENGINE_STATES });
    const cpS = this.reg('cpS', A);
    const cpD = this.reg('cpD', A);
    const cpN = this.reg('cpN', 32);
    const cpW = this.reg('cpW', 32);
    const cpRet = this.reg('cpRet', st.width, 0, { enum: ENGINE_STATES });
    // queues on chip
    const anyHead = (this.anyHead = this.reg('anyHead', A));
    const anyTail = (this.anyTail = this.reg('anyTail', A));
    const anyCount = (this.anyCount = this.reg('anyCount', 16));
    const ucCount = (this.ucCount = this.reg('ucCount', 16));
    const mqHead = (this.mqHead = this.reg('mqHead', A));
    const mqTail = this.reg('mqTail', A);
    const mqReady = this.reg('mqReady');
    const mqMask = this.reg('mqMask', Math.max(1, n));
    const mBusy = (this.mBusy = this.reg('mBusy'));
    const mBlk = this.reg('mBlk', A);
    const mLeft = this.reg('mLeft', 4);
    const mLen = this.reg('mLen', 32);
    const mBuf = this.reg('mBuf', A);
    const mType = this.reg('mType', 16);
    const mW0 = this.reg('mW0', 32);
    const mW1 = this.reg('mW1', 32);
    const mWA = this.reg('mWA', A);
    const mWV = this.reg('mWV', 2);
    const auHead = (this.auHead = this.reg('auHead', A));
    const auTail = this.reg('auTail', A);
    const poolMap = (this.poolMap = this.reg('poolMap', K, K === 32 ? 0xffffffff : 2 ** K - 1));
    const poolUser = (this.poolUser = this.reg('poolUser', K));
    // receive task
    const rxSt = (this.rxSt = this.reg('rxSt', bitsFor(RX_STATES.length - 1), 0, { enum: RX_STATES }));
    const rxTake = (this.rxTake = this.reg('rxTake'));
    const rxD = this.reg('rxD', 16);
    const rxSrc = this.reg('rxSrc', 10);
    const rxDir = this.reg('rxDir', 4);
    const rxType = this.reg('rxType', 16);
    const rxLen = this.reg('rxLen', 32);
    const rxBlk = this.reg('rxBlk', A);
    const rxFl = this.reg('rxFl', 3);
    const rxNext = this.reg('rxNext', 32);
    const rxLast = this.reg('rxLast', 32);
    const rxWlim = this.reg('rxWlim', 32);
    const rxHalf = this.reg('rxHalf', 16);
    const rxHave = this.reg('rxHave');
    const rxEnd = this.reg('rxEnd');
    const rxPfx = this.reg('rxPfx', 3);
    const rxCur = this.reg('rxCur', A);
    const rxPrev = this.reg('rxPrev', A);
    const rxNxt = this.reg('rxNxt', A);
    const rxMode = this.reg('rxMode', 1, 0, { enum: ['anyQueue', 'bucket'] });
    const rxMs = this.reg('rxMs', 32);
    const rxB = this.reg('rxB', 32);
    const rxBL = this.reg('rxBL', 32);
    const rxRetry = this.reg('rxRetry');
    const rxRmwV = this.reg('rxRmwV', 32);
    const rxRmwM = this.reg('rxRmwM', 32);
    const rxRmwA = this.reg('rxRmwA', A);
    const rxA = this.reg('rxA', A);
    const atuPrev = this.reg('atuIrqPrev');
    this.rxTake = rxTake;

    const uniViews: MsgView[] = slots.map((sl) => ({ len: sl.len, buf: sl.buf, type: sl.type, w0: sl.w0, w1: sl.w1, wa: sl.wa, wv: sl.wv }));
    const multiView: MsgView = { len: mLen, buf: mBuf, type: mType, w0: mW0, w1: mW1, wa: mWA, wv: mWV };

    // ---------------------------------------------------------------- comb: FIFO pop
    this.comb(
      () => {
        const s = this.s;
        const stepNow = (s[memRe.i]! === 0 && s[memWe.i]! === 0) || s[memDone.i]! !== 0;
        s[inPop.i] = stepNow && s[wcnt.i]! === 0 && s[rxTake.i]! !== 0 && s[inEmpty.i]! === 0 ? 1 : 0;
      },
      { writes: [inPop], reads: [memRe, memWe, memDone, wcnt, rxTake, inEmpty], name: 'pop' },
    );

    // ---------------------------------------------------------------- seq
    const s = (): Float64Array => this.s;
    /** Register value as updated so far this cycle (next slot; equals current when not yet written). */
    const g = (x: Signal): number => this.s[x.n]!;
    /** Input / current value. */
    const gi = (x: Signal): number => this.s[x.i]!;
    /** Every register write of the engine goes through here: the kernel records it, and the commit visits only what was written (docs/kernel.md "Commit"). */
    const p = (x: Signal, v: number): void => this.put(x, v);
    const fail = (msg: string): never => this.fail(`node ${self}: ${msg}`);

    // ---- memory micro-ops
    let md = 0; // data of the access completing this cycle
    const rd = (addr: number, next: number): void => {
      p(memAddr, addr);
      p(memRe, 1);
      p(memWe, 0);
      p(st, next);
    };
    const wr = (addr: number, v: number, next: number): void => {
      p(memAddr, addr);
      p(memWe, 1);
      p(memRe, 0);
      p(memWdata, v >>> 0);
      p(st, next);
    };
    const go = (next: number): void => p(st, next);
    const waitThen = (c: number, next: number): void => {
      p(wcnt, c);
      p(st, next);
    };
    const writes = (list: [number, number][], ret: number): void => {
      if (list.length === 0) return go(ret);
      if (list.length > WQ) fail(`internal: ${list.length} writes queued`);
      list.forEach(([a, v], k) => {
        p(wqA[k]!, a);
        p(wqV[k]!, v >>> 0);
      });
      p(wqN, list.length);
      p(wqI, 1);
      p(wqRet, ret);
      wr(list[0]![0], list[0]![1], E.WSEQ);
    };
    const copy = (src: number, dst: number, bytes: number, ret: number): void => {
      p(cpS, src);
      p(cpD, dst);
      p(cpN, bytes);
      p(cpRet, ret);
      if (bytes === 0) go(ret);
      else rd(src, E.C_RD);
    };
    const irq = (cause: number): void => {
      if (g(cpuIrq) && g(irqCause) >= cause) return;
      p(cpuIrq, 1);
      p(irqCause, cause);
    };
    const setError = (code: number, op: number, addr: number, val: number): void => {
      p(error, code);
      p(errOp, op);
      p(errAddr, addr & 0xffffff);
      p(errVal, val >>> 0);
      p(errCount, (g(errCount) + 1) & 0xffff);
      irq(IRQ_CAUSE.error);
    };

    // ---- checks
    const blockOk = (a: number, words: number): boolean => a !== 0 && a % 4 === 0 && a + 4 * words <= lay.poolBase;
    const bufOk = (b: number, len: number): boolean => len <= lay.tablesBase && (len === 0 || (b >= 4 && b % 4 === 0 && b + len <= lay.tablesBase));
    const flagOff = (op: number): number => 4 * (op === OP.send || op === OP.receive ? SEND.flag : NNB.flag);
    const allocUnit = (): number => {
      const map = g(poolMap);
      for (let u = 0; u < K; u++) if ((map >>> u) & 1) return u;
      return -1;
    };
    const unitBlock = (u: number): number => lay.poolBase + u * lay.unitBytes;
    const unitOf = (buf: number): number => {
      const off = buf - lay.poolBase - SYS_BLOCK_BYTES;
      if (off < 0 || off % lay.unitBytes !== 0) return -1;
      const u = off / lay.unitBytes;
      return u < K ? u : -1;
    };
    const setBit = (x: Signal, u: number, on: boolean): void => {
      const v = g(x);
      p(x, on ? (v | (1 << u)) >>> 0 : (v & ~(1 << u)) >>> 0);
    };
    const freeUnit = (u: number): void => {
      setBit(poolMap, u, true);
      setBit(poolUser, u, false);
      p(rxRetry, 1);
    };
    const matches = (wantS: number, wantT: number, s0: number, t0: number): boolean => (wantS === ANY || wantS === s0) && (wantT === ANY || wantT === t0);
    const expBucket = (src: number, type: number): number => lay.expectedBase + 8 * hashSrcType(src, type, H);
    const ucBucket = (k: number): number => lay.unclaimedBase + 8 * k;
    const arrAddr = (src: number, dir: number): number => arrivalAddr(lay, n, src, dir);
    const atuKeyOf = (src: number, dir: number): number => ((dir & 15) << 10) | (src & 0x3ff);
    /** Byte mask (big-endian lanes) of bytes a..min(a+3, lim) inside word a&~3, starting at byte a. */
    const laneMask = (a: number, count: number, lim: number): number => {
      let mask = 0;
      for (let k = 0; k < count; k++) {
        const b = a + k;
        if (b > lim) break;
        mask |= 0xff << ((3 - (b & 3)) * 8);
      }
      return mask >>> 0;
    };

    // ---- instruction helpers
    const ack = (): void => {
      p(instrAck, 1);
      go(E.IDLE);
    };
    const iErr = (code: number, val: number, writeFlag: boolean): void => {
      const op = g(iOp);
      setError(code, op, g(iBlk), val);
      if (writeFlag) wr(g(iBlk) + flagOff(op), (code << 8) | 3, E.I_ACK);
      else ack();
    };

    // ---- send-side helpers
    const view = (j: number): MsgView => (g(slots[j]!.multi) ? multiView : uniViews[j]!);
    const totalM = (len: number): number => P0 + Math.ceil(len / 2);
    const prefixWord = (h: number, type: number, len: number): number => {
      if (h === pfx.typeAt) return type & 0xffff;
      if (h === pfx.lenAt) return Math.floor(len / 65536) & 0xffff;
      if (h === pfx.lenAt + 1 && pfx.lenAt >= 0) return len & 0xffff;
      return 0;
    };
    /** Memory word address of M word h (h >= P0). */
    const wordOfM = (v: MsgView, h: number): number => g(v.buf) + 4 * ((h - P0) >> 1);
    /** Lowest memory word address the slot will still need, or Infinity. */
    const minNeed = (j: number, v: MsgView): number => {
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
    const neededWords = (j: number, v: MsgView, hs: number[]): number[] => {
      const out: number[] = [];
      for (const h of hs) if (h >= P0) {
        const a = wordOfM(v, h);
        if (!out.includes(a)) out.push(a);
      }
      return out;
    };
    const inWin = (v: MsgView, a: number): boolean => {
      const wv = g(v.wv);
      const wa = g(v.wa);
      return (wv >= 1 && a === wa) || (wv === 2 && a === wa + 4);
    };
    const canDrop = (j: number, v: MsgView, wa: number): boolean => {
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
      const plan = loadPlan(j);
      const need = neededWords(j, v, plan.hs);
      const miss = need.filter((a) => !inWin(v, a));
      if (miss.length === 0) return -1;
      const a = miss[0]!;
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
    const winWord = (v: MsgView, a: number): number => {
      if (g(v.wv) >= 1 && a === g(v.wa)) return g(v.w0);
      if (g(v.wv) === 2 && a === g(v.wa) + 4) return g(v.w1);
      return fail(`internal: word 0x${a.toString(16)} not in the fetch window`);
    };
    const mWord = (v: MsgView, h: number): number => {
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
      const plan = loadPlan(j);
      const vals: number[] = [];
      if (plan.first) vals.push(g(sl.srcW));
      for (const h of plan.hs) vals.push(mWord(v, h));
      if (plan.k === 2) loadSlot(j, vals[0]! * 65536 + vals[1]!, 32);
      else loadSlot(j, vals[0]!, 16);
      const rem = g(sl.rem) - plan.k;
      const h = g(sl.h) + plan.hs.length;
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

    // ---- dispatch
    const txTask = (): boolean => {
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
    const rxTakeStates = new Set([R.R_D, R.R_S, R.R_PFX, R.R_DATA]);
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
      if (rxTakeStates.has(r)) {
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
    const instrTask = (): boolean => {
      if (!gi(instrValid) || gi(instrAck)) return false;
      p(iOp, gi(instrOp));
      p(iBlk, gi(instrAddr));
      waitThen(IS, E.I_DEC);
      return true;
    };
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
      let took = false;
      const take = (): boolean => {
        if (!popNow) {
          // FIFO empty: yield, keep the state
          p(rxTake, 0);
          go(E.IDLE);
          return false;
        }
        took = true;
        return true;
      };
      switch (r) {
        case R.R_D: {
          if (!take()) break;
          if (!(w & BROADCAST_TAG) && w !== self) fail(`misrouted packet: destination word 0x${w.toString(16)} at node ${self}`);
          if (wl) fail('packet ends after its destination word (L = 0)');
          p(rxD, w);
          p(rxSt, R.R_S);
          break;
        }
        case R.R_S: {
          if (!take()) break;
          const src = w & 0xfff;
          const dir = w >>> 12;
          if (src >= nodes || dir < 1 || dir > n || src === self) fail(`bad source word 0x${w.toString(16)} (source ${src}, direction ${dir})`);
          const d = g(rxD);
          if (d & BROADCAST_TAG && (d & 0x7fff) !== src) fail(`broadcast packet with destination word 0x${d.toString(16)} but source ${src}`);
          p(rxSrc, src);
          // Arrival key direction (docs/readings.md broadcast-arrival-key): a broadcast is keyed
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
          const ent = md;
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
          p(rxNext, md);
          p(rxSt, R.R_X2);
          rd(g(rxBlk) + 4 * RECV.extra2, E.RX);
          break;
        case R.R_X2:
          p(rxLast, md);
          p(rxWlim, md);
          if (g(rxFl) & FL_TRUNC) {
            p(rxSt, R.R_TB);
            rd(g(rxBlk) + 4 * RECV.buffer, E.RX);
          } else rxToData();
          break;
        case R.R_TB:
          p(rxWlim, md);
          p(rxSt, R.R_TL);
          rd(g(rxBlk) + 4 * RECV.length, E.RX);
          break;
        case R.R_TL:
          p(rxWlim, g(rxWlim) + md - 1);
          rxToData();
          break;
        case R.R_PFX: {
          if (!take()) break;
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
          rxNode(md);
          break;
        case R.R_M_RD:
          p(rxSt, R.R_M_SRC);
          rd(g(rxCur) + 4 * RECV.source, E.RX);
          break;
        case R.R_M_SRC:
          p(rxMs, md);
          p(rxSt, R.R_M_TYPE);
          rd(g(rxCur) + 4 * RECV.type, E.RX);
          break;
        case R.R_M_TYPE:
          if (matches(g(rxMs), md, g(rxSrc), g(rxType))) {
            p(rxSt, R.R_F_BUF);
            rd(g(rxCur) + 4 * RECV.buffer, E.RX);
          } else {
            p(rxSt, R.R_M_NEXT);
            rd(g(rxCur) + 4 * RECV.link, E.RX);
          }
          break;
        case R.R_M_NEXT:
          p(rxPrev, g(rxCur));
          rxNode(md);
          break;
        case R.R_F_BUF:
          p(rxB, md);
          p(rxSt, R.R_F_LEN);
          rd(g(rxCur) + 4 * RECV.length, E.RX);
          break;
        case R.R_F_LEN: {
          const BL = md;
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
          const nx = md;
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
          if (!take()) break;
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
          const v = ((md & ~mask) | (g(rxRmwV) & mask)) >>> 0;
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
          const ent = md;
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
          p(rxB, md);
          p(rxLen, g(rxLast) + 1 - md);
          p(rxSt, R.R_C4);
          rd(g(rxBlk) + 4 * RECV.type, E.RX);
          break;
        case R.R_C4: {
          p(rxType, md & 0xffff);
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
          p(rxCur, md);
          p(rxSt, R.R_AU_NODE);
          p(wcnt, S);
          break;
        case R.R_AU_UNL: {
          const nx = md;
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
          const att = md;
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
          const t = md;
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
          p(rxB, md); // attached receive's buffer
          p(rxSt, R.R_D3);
          rd(g(rxA) + 4 * RECV.length, E.RX);
          break;
        case R.R_D3: {
          // md = attached receive's buffer length
          const att = g(rxA);
          const AB = g(rxB);
          const ABL = md;
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

    // ---------------------------------------------------------------- main seq
    this.seq(
      () => {
        const sv = s();
        // pulses and per-slot bookkeeping (every cycle)
        if (sv[instrAck.i]) p(instrAck, 0);
        if (sv[cpuIrq.i]) {
          p(cpuIrq, 0);
          p(irqCause, 0);
        }
        const op = sv[atuOp.i]!;
        if (op !== ATU.none && op !== ATU.lookup) p(atuOp, ATU.none);
        if (gi(atuIrq) && !g(atuPrev)) irq(IRQ_CAUSE.atu);
        p(atuPrev, gi(atuIrq));
        for (let j = 0; j < n; j++) {
          const sl = slots[j]!;
          if (sv[sl.pfLoad.i]) p(sl.pfLoad, 0);
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
        const busy = sv[memRe.i]! !== 0 || sv[memWe.i]! !== 0;
        const done = sv[memDone.i]! !== 0;
        if (busy && !done) return;
        md = busy ? sv[memRdata.i]! : 0;
        if (busy) {
          p(memRe, 0);
          p(memWe, 0);
        }
        if (sv[wcnt.i]! > 0) {
          p(wcnt, sv[wcnt.i]! - 1);
          return;
        }
        const popNow = sv[inPop.i]! !== 0;
        const took = step(popNow);
        if (popNow && !took) fail(`internal: input FIFO word popped in engine state ${ENGINE_STATES[sv[st.i]!]}/${RX_STATES[sv[rxSt.i]!]} but not used`);
      },
      { writes: 'tracked', name: 'engine' },
    );

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
            wr(g(cpD), md, E.C_NEXT);
          } else {
            p(cpW, md);
            rd(g(cpD), E.C_RMW);
          }
          return false;
        }
        case E.C_RMW: {
          const left = g(cpN);
          const mask = laneMask(g(cpD), left, g(cpD) + left - 1);
          p(cpN, 0);
          wr(g(cpD), ((md & ~mask) | (g(cpW) & mask)) >>> 0, E.C_NEXT);
          return false;
        }
        case E.C_NEXT: {
          p(cpS, g(cpS) + 4);
          p(cpD, g(cpD) + 4);
          if (g(cpN) === 0) go(g(cpRet));
          else rd(g(cpS), E.C_RD); // g() sees the incremented pointer
          return false;
        }
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
          const d = md;
          if (d >= nodes) iErr(CU_ERR.badDest, d, true);
          else if (d === self) iErr(CU_ERR.selfSend, d, true);
          else {
            p(tA, d);
            rd(g(iBlk) + 4 * SEND.length, E.I_SD_LEN);
          }
          return false;
        }
        case E.I_SD_LEN:
          p(tB, md);
          rd(g(iBlk) + 4 * SEND.buffer, E.I_SD_BUF);
          return false;
        case E.I_SD_BUF: {
          const buf = md;
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
          const cnt = md;
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
          const d = md;
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
          p(tD, md);
          rd(g(iBlk) + 4 * NNB.buffer, E.I_MC_BUF);
          return false;
        case E.I_MC_BUF:
          if (!bufOk(md, g(tD))) iErr(CU_ERR.badBuffer, md, true);
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
        case E.M_PC: {
          const cnt = Math.min(md, n);
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
          const x = (md ^ self) >>> 0;
          if (md < nodes && x !== 0 && (x & (x - 1)) === 0) p(tC, g(tC) | x);
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
          const nx = md;
          p(mqHead, nx);
          if (nx === 0) p(mqTail, 0);
          rd(g(mBlk) + 4 * NNB.type, E.M_ST_TYPE);
          return false;
        }
        case E.M_ST_TYPE:
          p(mType, md & 0xffff);
          rd(g(mBlk) + 4 * NNB.length, E.M_ST_LEN);
          return false;
        case E.M_ST_LEN:
          p(mLen, md);
          rd(g(mBlk) + 4 * NNB.buffer, E.M_ST_BUF);
          return false;
        case E.M_ST_BUF: {
          const buf = md;
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
          const nx = md;
          p(sl.qHead, nx);
          if (nx === 0) p(sl.qTail, 0);
          p(sl.qLen, g(sl.qLen) - 1);
          rd(g(sl.blk) + 4 * SEND.dest, E.T_ST_DEST);
          return false;
        }
        case E.T_ST_DEST:
          p(tA, md);
          rd(g(slots[g(tJ)]!.blk) + 4 * SEND.type, E.T_ST_TYPE);
          return false;
        case E.T_ST_TYPE:
          p(slots[g(tJ)]!.type, md & 0xffff);
          rd(g(slots[g(tJ)]!.blk) + 4 * SEND.length, E.T_ST_LEN);
          return false;
        case E.T_ST_LEN:
          p(tB, md);
          rd(g(slots[g(tJ)]!.blk) + 4 * SEND.buffer, E.T_ST_BUF);
          return false;
        case E.T_ST_BUF: {
          const j = g(tJ);
          const sl = slots[j]!;
          const blk = g(sl.blk);
          const dest = g(tA);
          const len = g(tB);
          const buf = md;
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
            p(v.w0, md);
            p(v.wv, 1);
          } else {
            p(v.w1, md);
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
        case E.I_RV_SRC: {
          const src = md;
          if (src !== ANY && (src >= nodes || src === self)) iErr(CU_ERR.badSource, src, true);
          else {
            p(tA, src);
            rd(g(iBlk) + 4 * RECV.type, E.I_RV_TYPE);
          }
          return false;
        }
        case E.I_RV_TYPE: {
          const t = md;
          if (t !== ANY && t > 0xffff) iErr(CU_ERR.badType, t, true);
          else {
            p(tB, t);
            rd(g(iBlk) + 4 * RECV.length, E.I_RV_LEN);
          }
          return false;
        }
        case E.I_RV_LEN:
          p(tC, md);
          rd(g(iBlk) + 4 * RECV.buffer, E.I_RV_BUF);
          return false;
        case E.I_RV_BUF: {
          const B = md;
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
          ucNode(md);
          return false;
        case E.I_UC_RD:
          rd(g(cur) + 4 * RECV.source, E.I_UC_SRC);
          return false;
        case E.I_UC_SRC:
          p(ms, md);
          rd(g(cur) + 4 * RECV.type, E.I_UC_TYPE);
          return false;
        case E.I_UC_TYPE:
          p(mt, md);
          rd(g(cur) + 4 * RECV.link, matches(g(tA), g(tB), g(ms), md) ? E.I_UC_UNL : E.I_UC_NEXT);
          return false;
        case E.I_UC_NEXT:
          p(prev, g(cur));
          ucNode(md);
          return false;
        case E.I_UC_UNL: {
          const nx = md;
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
          p(tC, md); // message length (the user's buffer length is read again below)
          rd(g(cur) + 4 * RECV.flag, E.I_UC_FL);
          return false;
        case E.I_UC_FL:
          p(nxt, (md >>> 8) & 0xff); // system block's error (truncated)
          rd(g(iBlk) + 4 * RECV.length, E.I_UC_SB);
          return false;
        case E.I_UC_SB: {
          const BL = md;
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
          p(ms, md);
          rd(g(cur) + 4 * RECV.type, E.I_AU_TYPE);
          return false;
        case E.I_AU_TYPE:
          if (matches(g(tA), g(tB), g(ms), md)) rd(g(cur) + 4 * RECV.link2, E.I_AU_L2);
          else rd(g(cur) + 4 * RECV.link, E.I_AU_NEXT);
          return false;
        case E.I_AU_L2:
          if (md === 0) {
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
          auNode(md);
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
          const t = md;
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
          return fail(`internal: engine state ${ENGINE_STATES[state] ?? state}`);
      }
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
  }
}

/** Text for the control unit's error registers (node, instruction, address, code). */
export function describeCuError(node: number, code: number, op: number, addr: number, val: number): string {
  return `node ${node}: ${OP_NAMES[op] ?? `op ${op}`} @0x${addr.toString(16)}: ${CU_ERR_TEXT[code] ?? `error ${code}`} (value ${val >>> 0})`;
}
