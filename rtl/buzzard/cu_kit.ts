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
import { Module, type Signal } from '../kernel/module.ts';
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

export interface SlotRegs {
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

export interface MsgView {
  len: Signal;
  buf: Signal;
  type: Signal;
  w0: Signal;
  w1: Signal;
  wa: Signal;
  wv: Signal;
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
  const slots: SlotRegs[] = [];
  for (let j = 1; j <= n; j++) {
    slots.push({
      pfLoad: u.reg(`pfLoad${j}`),
      pfData: u.reg(`pfData${j}`, 32),
      pfCount: u.reg(`pfCount${j}`, 6),
      pfAvail: u.input(`pfAvail${j}`),
      refill: u.input(`refill${j}`),
      pktDone: u.input(`pktDone${j}`),
      refused: u.input(`refused${j}`),
      idle: u.input(`idle${j}`),
      qHead: u.reg(`qHead${j}`, A),
      qTail: u.reg(`qTail${j}`, A),
      qLen: u.reg(`qLen${j}`, 16),
      act: u.reg(`sAct${j}`),
      res: u.reg(`sRes${j}`),
      multi: u.reg(`sMulti${j}`),
      blk: u.reg(`sBlk${j}`, A),
      dst: u.reg(`sDst${j}`, 16),
      srcW: u.reg(`sSrcW${j}`, 16),
      cp: u.reg(`sCP${j}`, 5),
      len: u.reg(`sLen${j}`, 32),
      buf: u.reg(`sBuf${j}`, A),
      type: u.reg(`sType${j}`, 16),
      h: u.reg(`sH${j}`, 32),
      rem: u.reg(`sRem${j}`, 6),
      ph: u.reg(`sPh${j}`, 2, 0, { enum: ['head', 'source', 'data', 'ph3'] }),
      w0: u.reg(`sW0${j}`, 32),
      w1: u.reg(`sW1${j}`, 32),
      wa: u.reg(`sWA${j}`, A),
      wv: u.reg(`sWV${j}`, 2),
      out: u.reg(`sOut${j}`, 3),
      finCnt: u.reg(`finCnt${j}`, 3),
      finPend: u.reg(`finPend${j}`),
      finBlk: u.reg(`finBlk${j}`, A),
      finMulti: u.reg(`finMulti${j}`),
      refusals: u.reg(`refusals${j}`, 16),
      packets: u.reg(`packets${j}`, 16),
    });
  }
  const inPop = u.output('inPop');
  const inDout = u.input('inDout', 16);
  const inLast = u.input('inLast');
  const inCount = u.input('inCount', bitsFor(cfg.fifoDepth));
  const inEmpty = u.input('inEmpty');
  const atuOp = u.reg('atuOp', 3, 0, { enum: ['none', 'allocArriving', 'allocExpected', 'update', 'purge', 'lookup', 'op6', 'op7'] });
  const atuKey = u.reg('atuKey', 15);
  const atuNext = u.reg('atuNext', A);
  const atuLast = u.reg('atuLast', A);
  const atuHit = u.input('atuHit');
  const atuHitIdx = u.input('atuHitIdx', bitsFor(m - 1));
  const atuHitNext = u.input('atuHitNext', A);
  const atuHitLast = u.input('atuHitLast', A);
  const atuFreeCount = u.input('atuFreeCount', bitsFor(m));
  const atuOk = u.input('atuOk');
  const atuIrq = u.input('atuIrq');
  const memAddr = u.reg('memAddr', A);
  const memRe = u.reg('memRe');
  const memWe = u.reg('memWe');
  const memWdata = u.reg('memWdata', 32);
  const memRdata = u.input('memRdata', 32);
  const memDone = u.input('memDone');
  const instrValid = u.input('instrValid');
  const instrOp = u.input('instrOp', 3);
  const instrAddr = u.input('instrAddr', A);
  const instrAck = u.reg('instrAck');
  const cpuIrq = u.reg('cpuIrq');
  const irqCause = u.reg('irqCause', 2, 0, { enum: ['none', 'atu', 'systemMessage', 'error'] });
  const error = u.reg('error', 8);
  const errOp = u.reg('errOp', 3, 0, { enum: OP_NAMES });
  const errAddr = u.reg('errAddr', A);
  const errVal = u.reg('errVal', 32);
  const errCount = u.reg('errCount', 16);

  // ---------------------------------------------------------------- engine registers
  const st = u.reg('st', bitsFor(ENGINE_STATES.length - 1), 0, { enum: ENGINE_STATES });
  const wcnt = u.reg('wcnt', 16);
  const rr = u.reg('rr', 2);
  const txRr = u.reg('txRr', 4);
  const iOp = u.reg('iOp', 3, 0, { enum: OP_NAMES });
  const iBlk = u.reg('iBlk', A);
  const tA = u.reg('tA', 32);
  const tB = u.reg('tB', 32);
  const tC = u.reg('tC', 32);
  const tD = u.reg('tD', 32);
  const tJ = u.reg('tJ', 4);
  const iCnt = u.reg('iCnt', 16);
  const iEnd = u.reg('iEnd', 16);
  const cur = u.reg('cur', A);
  const prev = u.reg('prev', A);
  const nxt = u.reg('nxt', A);
  const ms = u.reg('ms', 32);
  const mt = u.reg('mt', 32);
  const wqA = u.regs('wqA', WQ, A);
  const wqV = u.regs('wqV', WQ, 32);
  const wqN = u.reg('wqN', 4);
  const wqI = u.reg('wqI', 4);
  const wqRet = u.reg('wqRet', st.width, 0, { enum: ENGINE_STATES });
  const cpS = u.reg('cpS', A);
  const cpD = u.reg('cpD', A);
  const cpN = u.reg('cpN', 32);
  const cpW = u.reg('cpW', 32);
  const cpRet = u.reg('cpRet', st.width, 0, { enum: ENGINE_STATES });
  // queues on chip
  const anyHead = u.reg('anyHead', A);
  const anyTail = u.reg('anyTail', A);
  const anyCount = u.reg('anyCount', 16);
  const ucCount = u.reg('ucCount', 16);
  const mqHead = u.reg('mqHead', A);
  const mqTail = u.reg('mqTail', A);
  const mqReady = u.reg('mqReady');
  const mqMask = u.reg('mqMask', Math.max(1, n));
  const mBusy = u.reg('mBusy');
  const mBlk = u.reg('mBlk', A);
  const mLeft = u.reg('mLeft', 4);
  const mLen = u.reg('mLen', 32);
  const mBuf = u.reg('mBuf', A);
  const mType = u.reg('mType', 16);
  const mW0 = u.reg('mW0', 32);
  const mW1 = u.reg('mW1', 32);
  const mWA = u.reg('mWA', A);
  const mWV = u.reg('mWV', 2);
  const auHead = u.reg('auHead', A);
  const auTail = u.reg('auTail', A);
  const poolMap = u.reg('poolMap', K, K === 32 ? 0xffffffff : 2 ** K - 1);
  const poolUser = u.reg('poolUser', K);
  // receive task
  const rxSt = u.reg('rxSt', bitsFor(RX_STATES.length - 1), 0, { enum: RX_STATES });
  const rxTake = u.reg('rxTake');
  const rxD = u.reg('rxD', 16);
  const rxSrc = u.reg('rxSrc', 10);
  const rxDir = u.reg('rxDir', 4);
  const rxType = u.reg('rxType', 16);
  const rxLen = u.reg('rxLen', 32);
  const rxBlk = u.reg('rxBlk', A);
  const rxFl = u.reg('rxFl', 3);
  const rxNext = u.reg('rxNext', 32);
  const rxLast = u.reg('rxLast', 32);
  const rxWlim = u.reg('rxWlim', 32);
  const rxHalf = u.reg('rxHalf', 16);
  const rxHave = u.reg('rxHave');
  const rxEnd = u.reg('rxEnd');
  const rxPfx = u.reg('rxPfx', 3);
  const rxCur = u.reg('rxCur', A);
  const rxPrev = u.reg('rxPrev', A);
  const rxNxt = u.reg('rxNxt', A);
  const rxMode = u.reg('rxMode', 1, 0, { enum: ['anyQueue', 'bucket'] });
  const rxMs = u.reg('rxMs', 32);
  const rxB = u.reg('rxB', 32);
  const rxBL = u.reg('rxBL', 32);
  const rxRetry = u.reg('rxRetry');
  const rxRmwV = u.reg('rxRmwV', 32);
  const rxRmwM = u.reg('rxRmwM', 32);
  const rxRmwA = u.reg('rxRmwA', A);
  const rxA = u.reg('rxA', A);
  const atuPrev = u.reg('atuIrqPrev');

  const uniViews: MsgView[] = slots.map((sl) => ({ len: sl.len, buf: sl.buf, type: sl.type, w0: sl.w0, w1: sl.w1, wa: sl.wa, wv: sl.wv }));
  const multiView: MsgView = { len: mLen, buf: mBuf, type: mType, w0: mW0, w1: mW1, wa: mWA, wv: mWV };

  // ---------------------------------------------------------------- comb: FIFO pop
  u.comb(
    () => {
      const s = u.s;
      const stepNow = (s[memRe.i]! === 0 && s[memWe.i]! === 0) || s[memDone.i]! !== 0;
      s[inPop.i] = stepNow && s[wcnt.i]! === 0 && s[rxTake.i]! !== 0 && s[inEmpty.i]! === 0 ? 1 : 0;
    },
    { writes: [inPop], reads: [memRe, memWe, memDone, wcnt, rxTake, inEmpty], name: 'pop' },
  );

  // ---------------------------------------------------------------- seq
  const s = (): Float64Array => u.s;
  /** Register value as updated so far this cycle (next slot; equals current when not yet written). */
  const g = (x: Signal): number => u.s[x.n]!;
  /** Input / current value. */
  const gi = (x: Signal): number => u.s[x.i]!;
  /** Every register write of the engine goes through here: the kernel records it, and the commit visits only what was written (docs/kernel.bus.md "Commit"). */
  const p = (x: Signal, v: number): void => u.put(x, v);
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

  return {
    cfg, geo, n, nodes, self, lay, K, H, m, pfx, P0, per, headCount, S, IS, lb, allMask, slots,
    inPop, inDout, inLast, inCount, inEmpty, atuOp, atuKey, atuNext, atuLast, atuHit, atuHitIdx,
    atuHitNext, atuHitLast, atuFreeCount, atuOk, atuIrq, memAddr, memRe, memWe, memWdata, memRdata,
    memDone, instrValid, instrOp, instrAddr, instrAck, cpuIrq, irqCause, error, errOp, errAddr,
    errVal, errCount, st, wcnt, rr, txRr, iOp, iBlk, tA, tB, tC, tD, tJ, iCnt, iEnd, cur, prev, nxt,
    ms, mt, wqA, wqV, wqN, wqI, wqRet, cpS, cpD, cpN, cpW, cpRet, anyHead, anyTail, anyCount,
    ucCount, mqHead, mqTail, mqReady, mqMask, mBusy, mBlk, mLeft, mLen, mBuf, mType, mW0, mW1, mWA,
    mWV, auHead, auTail, poolMap, poolUser, rxSt, rxTake, rxD, rxSrc, rxDir, rxType, rxLen, rxBlk,
    rxFl, rxNext, rxLast, rxWlim, rxHalf, rxHave, rxEnd, rxPfx, rxCur, rxPrev, rxNxt, rxMode, rxMs,
    rxB, rxBL, rxRetry, rxRmwV, rxRmwM, rxRmwA, rxA, atuPrev, uniViews, multiView, s, g, gi, p,
    fail, bus, rd, wr, go, waitThen, writes, copy, irq, setError, blockOk, bufOk, flagOff,
    allocUnit, unitBlock, unitOf, setBit, freeUnit, matches, expBucket, ucBucket, arrAddr, atuKeyOf,
    laneMask, ack, iErr,
  };
}

export type CuKit = ReturnType<typeof cuKit>;
