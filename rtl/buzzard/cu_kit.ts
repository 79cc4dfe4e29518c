/**
 * The control unit's kit (rtl/buzzard/control_unit.ts, seed 002 §5.4.7):
 * its engine and receive-task states, its ports and registers (the
 * register file every room of the unit reads and writes) and the helpers
 * the rooms share: memory micro-ops, checks, the system-buffer pool,
 * queue addressing and instruction acknowledge/error.
 *
 * Rooms: cu_transmit.ts (send queues, packetising into the output port
 * slots, broadcasts), cu_receive.ts (the receive task), cu_instructions.ts
 * (CPU instructions); control_unit.ts dispatches between them.
 */
import { Module, Signal, type SignalOptions } from '../kernel/module.ts';
import { type BuzzardConfig, checkConfig, geometry } from './config.ts';
import {
  ANY,
  ARR_SYS,
  ARR_TRUNC,
  arrivalAddr,
  cuLayout,
  type CuLayoutOptions,
  hashSrcType,
  NNB,
  OP,
  OP_NAMES,
  prefixLayout,
  SEND,
  SYS_BLOCK_BYTES,
} from './header_blocks.ts';

export const A = 24;

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

export const E = Object.fromEntries(ENGINE_STATES.map((n, k) => [n, k])) as Record<EngineState, number>;
export const R = Object.fromEntries(RX_STATES.map((n, k) => [n, k])) as Record<RxState, number>;

/** cpuIrq causes (irqCause). */
export const IRQ_CAUSE = { atu: 1, systemMessage: 2, error: 3 } as const;

/** ATU op codes (DESIGN.md). */
export const ATU = { none: 0, allocArriving: 1, allocExpected: 2, update: 3, purge: 4, lookup: 5 } as const;

/** Rx flags (register rxFl): arrival table flags in bits 1..0 plus "tracked by the ATU". */
export const FL_TRUNC = ARR_TRUNC;
export const FL_SYS = ARR_SYS;
export const FL_ATU = 4;

export const WQ = 10; // write-sequence registers

export function bitsFor(n: number): number {
  return n <= 1 ? 1 : 32 - Math.clz32(n);
}
export function popcount(x: number): number {
  let c = 0;
  while (x) {
    x &= x - 1;
    c++;
  }
  return c;
}

/**
 * A register of the unit (brand on its Signal) and, once elaborated, the
 * slot number of its current value; its next value is the slot after it
 * (docs/kernel.md "Stop 20: state layout"). Inputs are plain Signals and
 * InSlots: `g`/`p` take only RegSlots, so a room cannot read an input's
 * "next value" (docs/kernel.md "Stop 21: Buzzard units").
 */
declare const REG: unique symbol;
declare const IN: unique symbol;
export type RegSignal = Signal & { readonly [REG]: true };
export type RegSlot = number & { readonly [REG]: true };
export type InSlot = number & { readonly [IN]: true };

export interface SlotRegs {
  pfLoad: RegSignal;
  pfData: RegSignal;
  pfCount: RegSignal;
  pfAvail: Signal;
  refill: Signal;
  pktDone: Signal;
  refused: Signal;
  idle: Signal;
  qHead: RegSignal;
  qTail: RegSignal;
  qLen: RegSignal;
  act: RegSignal;
  res: RegSignal;
  multi: RegSignal;
  blk: RegSignal;
  dst: RegSignal;
  srcW: RegSignal;
  cp: RegSignal;
  len: RegSignal;
  buf: RegSignal;
  type: RegSignal;
  h: RegSignal;
  rem: RegSignal;
  ph: RegSignal;
  w0: RegSignal;
  w1: RegSignal;
  wa: RegSignal;
  wv: RegSignal;
  out: RegSignal;
  finCnt: RegSignal;
  finPend: RegSignal;
  finBlk: RegSignal;
  finMulti: RegSignal;
  refusals: RegSignal;
  packets: RegSignal;
}

export interface MsgView {
  len: RegSignal;
  buf: RegSignal;
  type: RegSignal;
  w0: RegSignal;
  w1: RegSignal;
  wa: RegSignal;
  wv: RegSignal;
}

/** Declare the control unit's ports and registers on `u` and build the shared helpers. */
export function cuKit(u: Module, config: Partial<BuzzardConfig>, node: number, layoutOpts: CuLayoutOptions) {
  const cfg = checkConfig(config);
  const geo = geometry(cfg);
  const n = cfg.n;
  const nodes = 1 << n;
  if (!(Number.isInteger(node) && node >= 0 && node < nodes)) throw new RangeError(`control unit: node ${node} is outside the ${n}-cube (0..${nodes - 1})`);
  const self = node;
  const lay = cuLayout(cfg, layoutOpts);
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
  const reg = (name: string, width = 1, reset = 0, options?: SignalOptions): RegSignal => u.reg(name, width, reset, options) as RegSignal;
  const regs = (name: string, count: number, width: number): RegSignal[] => u.regs(name, count, width) as RegSignal[];
  const slots: SlotRegs[] = [];
  for (let j = 1; j <= n; j++) {
    slots.push({
      pfLoad: reg(`pfLoad${j}`),
      pfData: reg(`pfData${j}`, 32),
      pfCount: reg(`pfCount${j}`, 6),
      pfAvail: u.input(`pfAvail${j}`),
      refill: u.input(`refill${j}`),
      pktDone: u.input(`pktDone${j}`),
      refused: u.input(`refused${j}`),
      idle: u.input(`idle${j}`),
      qHead: reg(`qHead${j}`, A),
      qTail: reg(`qTail${j}`, A),
      qLen: reg(`qLen${j}`, 16),
      act: reg(`sAct${j}`),
      res: reg(`sRes${j}`),
      multi: reg(`sMulti${j}`),
      blk: reg(`sBlk${j}`, A),
      dst: reg(`sDst${j}`, 16),
      srcW: reg(`sSrcW${j}`, 16),
      cp: reg(`sCP${j}`, 5),
      len: reg(`sLen${j}`, 32),
      buf: reg(`sBuf${j}`, A),
      type: reg(`sType${j}`, 16),
      h: reg(`sH${j}`, 32),
      rem: reg(`sRem${j}`, 6),
      ph: reg(`sPh${j}`, 2, 0, { enum: ['head', 'source', 'data', 'ph3'] }),
      w0: reg(`sW0${j}`, 32),
      w1: reg(`sW1${j}`, 32),
      wa: reg(`sWA${j}`, A),
      wv: reg(`sWV${j}`, 2),
      out: reg(`sOut${j}`, 3),
      finCnt: reg(`finCnt${j}`, 3),
      finPend: reg(`finPend${j}`),
      finBlk: reg(`finBlk${j}`, A),
      finMulti: reg(`finMulti${j}`),
      refusals: reg(`refusals${j}`, 16),
      packets: reg(`packets${j}`, 16),
    });
  }
  const inPop = u.output('inPop');
  const inDout = u.input('inDout', 16);
  const inLast = u.input('inLast');
  const inCount = u.input('inCount', bitsFor(cfg.fifoDepth));
  const inEmpty = u.input('inEmpty');
  const atuOp = reg('atuOp', 3, 0, { enum: ['none', 'allocArriving', 'allocExpected', 'update', 'purge', 'lookup', 'op6', 'op7'] });
  const atuKey = reg('atuKey', 15);
  const atuNext = reg('atuNext', A);
  const atuLast = reg('atuLast', A);
  const atuHit = u.input('atuHit');
  const atuHitIdx = u.input('atuHitIdx', bitsFor(m - 1));
  const atuHitNext = u.input('atuHitNext', A);
  const atuHitLast = u.input('atuHitLast', A);
  const atuFreeCount = u.input('atuFreeCount', bitsFor(m));
  const atuOk = u.input('atuOk');
  const atuIrq = u.input('atuIrq');
  const memAddr = reg('memAddr', A);
  const memRe = reg('memRe');
  const memWe = reg('memWe');
  const memWdata = reg('memWdata', 32);
  const memRdata = u.input('memRdata', 32);
  const memDone = u.input('memDone');
  const instrValid = u.input('instrValid');
  const instrOp = u.input('instrOp', 3);
  const instrAddr = u.input('instrAddr', A);
  const instrAck = reg('instrAck');
  const cpuIrq = reg('cpuIrq');
  const irqCause = reg('irqCause', 2, 0, { enum: ['none', 'atu', 'systemMessage', 'error'] });
  const error = reg('error', 8);
  const errOp = reg('errOp', 3, 0, { enum: OP_NAMES });
  const errAddr = reg('errAddr', A);
  const errVal = reg('errVal', 32);
  const errCount = reg('errCount', 16);

  // ---------------------------------------------------------------- engine registers
  const st = reg('st', bitsFor(ENGINE_STATES.length - 1), 0, { enum: ENGINE_STATES });
  const wcnt = reg('wcnt', 16);
  const rr = reg('rr', 2);
  const txRr = reg('txRr', 4);
  const iOp = reg('iOp', 3, 0, { enum: OP_NAMES });
  const iBlk = reg('iBlk', A);
  const tA = reg('tA', 32);
  const tB = reg('tB', 32);
  const tC = reg('tC', 32);
  const tD = reg('tD', 32);
  const tJ = reg('tJ', 4);
  const iCnt = reg('iCnt', 16);
  const iEnd = reg('iEnd', 16);
  const cur = reg('cur', A);
  const prev = reg('prev', A);
  const nxt = reg('nxt', A);
  const ms = reg('ms', 32);
  const mt = reg('mt', 32);
  const wqA = regs('wqA', WQ, A);
  const wqV = regs('wqV', WQ, 32);
  const wqN = reg('wqN', 4);
  const wqI = reg('wqI', 4);
  const wqRet = reg('wqRet', st.width, 0, { enum: ENGINE_STATES });
  const cpS = reg('cpS', A);
  const cpD = reg('cpD', A);
  const cpN = reg('cpN', 32);
  const cpW = reg('cpW', 32);
  const cpRet = reg('cpRet', st.width, 0, { enum: ENGINE_STATES });
  // queues on chip
  const anyHead = reg('anyHead', A);
  const anyTail = reg('anyTail', A);
  const anyCount = reg('anyCount', 16);
  const ucCount = reg('ucCount', 16);
  const mqHead = reg('mqHead', A);
  const mqTail = reg('mqTail', A);
  const mqReady = reg('mqReady');
  const mqMask = reg('mqMask', Math.max(1, n));
  const mBusy = reg('mBusy');
  const mBlk = reg('mBlk', A);
  const mLeft = reg('mLeft', 4);
  const mLen = reg('mLen', 32);
  const mBuf = reg('mBuf', A);
  const mType = reg('mType', 16);
  const mW0 = reg('mW0', 32);
  const mW1 = reg('mW1', 32);
  const mWA = reg('mWA', A);
  const mWV = reg('mWV', 2);
  const auHead = reg('auHead', A);
  const auTail = reg('auTail', A);
  const poolMap = reg('poolMap', K, K === 32 ? 0xffffffff : 2 ** K - 1);
  const poolUser = reg('poolUser', K);
  // receive task
  const rxSt = reg('rxSt', bitsFor(RX_STATES.length - 1), 0, { enum: RX_STATES });
  const rxTake = reg('rxTake');
  const rxD = reg('rxD', 16);
  const rxSrc = reg('rxSrc', 10);
  const rxDir = reg('rxDir', 4);
  const rxType = reg('rxType', 16);
  const rxLen = reg('rxLen', 32);
  const rxBlk = reg('rxBlk', A);
  const rxFl = reg('rxFl', 3);
  const rxNext = reg('rxNext', 32);
  const rxLast = reg('rxLast', 32);
  const rxWlim = reg('rxWlim', 32);
  const rxHalf = reg('rxHalf', 16);
  const rxHave = reg('rxHave');
  const rxEnd = reg('rxEnd');
  const rxPfx = reg('rxPfx', 3);
  const rxCur = reg('rxCur', A);
  const rxPrev = reg('rxPrev', A);
  const rxNxt = reg('rxNxt', A);
  const rxMode = reg('rxMode', 1, 0, { enum: ['anyQueue', 'bucket'] });
  const rxMs = reg('rxMs', 32);
  const rxB = reg('rxB', 32);
  const rxBL = reg('rxBL', 32);
  const rxRetry = reg('rxRetry');
  const rxRmwV = reg('rxRmwV', 32);
  const rxRmwM = reg('rxRmwM', 32);
  const rxRmwA = reg('rxRmwA', A);
  const rxA = reg('rxA', A);
  const atuPrev = reg('atuIrqPrev');

  const uniViews: MsgView[] = slots.map((sl) => ({ len: sl.len, buf: sl.buf, type: sl.type, w0: sl.w0, w1: sl.w1, wa: sl.wa, wv: sl.wv }));
  const multiView: MsgView = { len: mLen, buf: mBuf, type: mType, w0: mW0, w1: mW1, wa: mWA, wv: mWV };

  // ---------------------------------------------------------------- comb: FIFO pop
  u.comb(
    () => {
      const s = u.s;
      const stepNow = (s[memRe.i]! === 0 && s[memWe.i]! === 0) || s[memDone.i]! !== 0;
      s[inPop.i] = stepNow && s[wcnt.i]! === 0 && s[rxTake.i]! !== 0 && s[inEmpty.i]! === 0 ? 1 : 0;
    },
    // With rxTake 0 the pop is 0 whatever the rest: the rest wakes it only while
    // rxTake is 1 (a guard; docs/kernel.md "Stop 21: Buzzard units").
    { writes: [inPop], reads: [rxTake], readsWhen: [{ when: rxTake, is: [1], reads: [memRe, memWe, memDone, wcnt, inEmpty] }], name: 'pop' },
  );

  return {
    u, cfg, geo, n, nodes, self, lay, K, H, m, pfx, P0, per, headCount, S, IS, lb, allMask,
    sigs: {
      slots,
      inPop, inDout, inLast, inCount, inEmpty, atuOp, atuKey, atuNext, atuLast, atuHit, atuHitIdx,
      atuHitNext, atuHitLast, atuFreeCount, atuOk, atuIrq, memAddr, memRe, memWe, memWdata, memRdata,
      memDone, instrValid, instrOp, instrAddr, instrAck, cpuIrq, irqCause, error, errOp, errAddr,
      errVal, errCount, st, wcnt, rr, txRr, iOp, iBlk, tA, tB, tC, tD, tJ, iCnt, iEnd, cur, prev, nxt,
      ms, mt, wqA, wqV, wqN, wqI, wqRet, cpS, cpD, cpN, cpW, cpRet, anyHead, anyTail, anyCount,
      ucCount, mqHead, mqTail, mqReady, mqMask, mBusy, mBlk, mLeft, mLen, mBuf, mType, mW0, mW1, mWA,
      mWV, auHead, auTail, poolMap, poolUser, rxSt, rxTake, rxD, rxSrc, rxDir, rxType, rxLen, rxBlk,
      rxFl, rxNext, rxLast, rxWlim, rxHalf, rxHave, rxEnd, rxPfx, rxCur, rxPrev, rxNxt, rxMode, rxMs,
      rxB, rxBL, rxRetry, rxRmwV, rxRmwM, rxRmwA, rxA, atuPrev, uniViews, multiView,
    },
  };
}

export type CuDecl = ReturnType<typeof cuKit>;

/** Slot numbers in place of Signals, the same shape (registers' current slots as RegSlot, inputs' as InSlot). */
export type Slotted<T> = T extends RegSignal ? RegSlot : T extends Signal ? InSlot : T extends readonly (infer U)[] ? Slotted<U>[] : { [K in keyof T]: Slotted<T[K]> };

/** `x` with every Signal replaced by its current slot (after elaboration); a register's next slot must follow it. */
function slotted<T>(x: T): Slotted<T> {
  if (x instanceof Signal) {
    if (x.kind === 'reg' && x.n !== x.i + 1) throw new Error(`control unit: register ${x.name}: next slot ${x.n} does not follow ${x.i}`);
    return x.i as Slotted<T>;
  }
  if (Array.isArray(x)) return x.map(slotted) as Slotted<T>;
  return Object.fromEntries(Object.entries(x as object).map(([k, v]) => [k, slotted(v)])) as Slotted<T>;
}

/**
 * The rooms' kit, made once the slots are known (Module.whenSlots): the
 * unit's constants, its registers and ports as slot numbers (so a room's
 * closures index the state vector with numbers from their own context, not
 * through Signal objects spread over the heap: docs/kernel.md "Stop 21:
 * Buzzard units") and the helpers the rooms share: memory micro-ops,
 * checks, the system-buffer pool, queue addressing and instruction
 * acknowledge/error.
 */
export function cuSlotKit(d: CuDecl) {
  const { sigs, ...consts } = d;
  const { u, self, lay, K, H, n } = consts;
  const k = slotted(sigs);
  const {
    memAddr, memRe, memWe, memWdata, st, wcnt, wqA, wqV, wqN, wqI, wqRet, cpS, cpD, cpN, cpRet, cpuIrq,
    irqCause, error, errOp, errAddr, errVal, errCount, poolMap, poolUser, rxRetry, instrAck, iOp, iBlk,
  } = k;
  // ---------------------------------------------------------------- seq
  const s = (): Float64Array => u.s;
  /** Register value as updated so far this cycle (next slot, x + 1; equals current when not yet written). */
  const g = (x: RegSlot): number => u.s[x + 1]!;
  /** Input / current value. */
  const gi = (x: RegSlot | InSlot): number => u.s[x]!;
  /** Every register write of the engine goes through here: the kernel records it, and the commit visits only what was written (docs/kernel.md "Tracked writes"; Module.put with the slot number). */
  const p = (x: RegSlot, v: number): void => {
    u.s[x + 1] = v;
    u.wakeSink!.written(x + 1);
  };
  const fail = (msg: string): never => u.fail(`node ${self}: ${msg}`);

  // ---- memory micro-ops
  // Data of the memory access completing this cycle, set by the engine and read by every room:
  // a field of a shared object, since a destructured `let` would be a copy in each room.
  const bus = { md: 0 };
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
  const setBit = (x: RegSlot, u: number, on: boolean): void => {
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

  return {
    ...consts, ...k, s, g, gi, p, fail, bus, rd, wr, go, waitThen, writes, copy, irq, setError,
    blockOk, bufOk, flagOff, allocUnit, unitBlock, unitOf, setBit, freeUnit, matches, expBucket,
    ucBucket, arrAddr, atuKeyOf, laneMask, ack, iErr,
  };
}

export type CuKit = ReturnType<typeof cuSlotKit>;
/** A message's fetch-window registers (MsgView) as slot numbers. */
export type MsgSlots = Slotted<MsgView>;
