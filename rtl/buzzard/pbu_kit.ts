/**
 * What the rooms of the Buzzard packet buffer unit share (seed 002 §5.4.2,
 * docs/sources.md buzzard §8.2; the unit: packet_buffer_unit.ts): the state
 * numbers of its input controller, output controller and output framing,
 * the line bit, and the kit of signals and constants the two controllers'
 * processes (pbu_input_controller.ts, pbu_output_controller.ts) are built
 * from.
 */
import type { Memory, Module, Signal } from '../kernel/module.ts';
import type { BuzzardConfig } from './config.ts';
import type { RamGeometry } from './buffer_ram.ts';

/** Input controller states (seed §5.4.2 input steps 1–10). */
export const PBU_IN_STATES = [
  'start', // step 1: block; wait for free row register > 0
  'latchSlot', // step 2: latch the RAM slot of the first free CAM row
  'waitStart', // step 3: block released, wait for S1
  'startBit', // step 3: S1 seen (possibly stretched), wait for S0
  'preheader', // steps 4 (bit 0) and 5 (last bit)
  'refused', // step 4 refusal: ignore the rest of the preheader (DESIGN "Contrary refusal")
  'refusedDrain', // ... and keep block until the line drops to 0
  'postSync', // A2: the strict post-preheader Y1 Y0
  'dest', // destination bits 9..24 (step 6 during bit 23)
  'camLoad', // step 7
  'sync', // Y1 Y0 before a word
  'word', // 16 bits, then step 8
  'lastWrite', // steps 9–10 for the L-th word, then step 8's non-valid address
] as const;
/** Output controller states (seed §5.4.2 output steps 1–6). */
export const PBU_OUT_STATES = ['idle', 'bcast', 'lenAdjust', 'fetch', 'lowWater', 'finish'] as const;
/** Output framing phases (§5.4.8, DESIGN.md "Framing"). */
export const PBU_TX_PHASES = ['idle', 'S1', 'S0', 'head', 'PY1', 'PY0', 'Y1', 'Y0', 'word'] as const;

export const IN_START = 0;
export const IN_LATCH = 1;
export const IN_WAIT = 2;
export const IN_SBIT = 3;
export const IN_PRE = 4;
export const IN_REF = 5;
export const IN_REFD = 6;
export const IN_PSYNC = 7;
export const IN_DEST = 8;
export const IN_LOAD = 9;
export const IN_SYNC = 10;
export const IN_WORD = 11;
export const IN_LASTW = 12;

export const OUT_IDLE = 0;
export const OUT_BC = 1;
export const OUT_ADJ = 2;
export const OUT_FETCH = 3;
export const OUT_LOW = 4;
export const OUT_FIN = 5;
/**
 * `outSel`, the output state as its combs see it (docs/kernel.md "Stop 19:
 * unit guards"): idle, bcast and finish apart, the per-word states (lenAdjust,
 * fetch, lowWater) as one value, so the fetch/lowWater toggle of every word
 * wakes neither the CAM port nor the request logic.
 */
export const SEL_IDLE = 0;
export const SEL_BC = 1;
export const SEL_FIN = 2;
export const SEL_WORD = 3;
export const OUT_SEL: readonly number[] = [SEL_IDLE, SEL_BC, SEL_WORD, SEL_WORD, SEL_WORD, SEL_FIN];

export const T_IDLE = 0;
export const T_S1 = 1;
export const T_S0 = 2;
export const T_HEAD = 3;
export const T_PY1 = 4;
export const T_PY0 = 5;
export const T_Y1 = 6;
export const T_Y0 = 7;
export const T_WORD = 8;

/** outNext value: no further broadcast copy. */
export const NO_PORT = 15;
/** The "free" next-port code of a CAM row (docs/readings.md#free-port-code). */
export const FREE_PORT = 15;

/** Output line: S1 / Y1 are 1, S0 / Y0 / idle 0, fields MSB first (c bits left of shift register sh). */
export function lineBit(ph: number, c: number, sh: number): number {
  return ph === T_S1 || ph === T_PY1 || ph === T_Y1 ? 1 : ph === T_HEAD || ph === T_WORD ? (sh >>> (c - 1)) & 1 : 0;
}

/** The signals and constants of one PBU that its controllers' processes read and write. */
export interface PbuKit {
  m: Module;
  cfg: BuzzardConfig;
  rg: RamGeometry;
  /** The PBU number i (1..n), its node, its RAM client / crossbar input index i-1. */
  i: number;
  node: number;
  me: number;
  n: number;
  strict: boolean;
  refusalOn: boolean;
  lb: number;
  preBits: number;
  headLen: number;
  headMask: number;
  lenMask: number;
  slotMask: number;
  INVALID: number;
  destLsb: number;
  lenLsb: number;
  cLsb: number;
  rrWindow: number;
  // ports
  inBit: Signal;
  xreq: Signal;
  xrelease: Signal;
  xgnt: Signal;
  xgidx: Signal;
  hold: Signal;
  wgnt: Signal;
  rgnt: Signal;
  rdata: Signal;
  rvalid: Signal;
  rsrc: Signal;
  // CAM wires
  camOp: Signal;
  camHit: Signal;
  camHitRow: Signal;
  camHitData: Signal;
  camMatch: Signal;
  camFreeRow: Signal;
  camFreeCount: Signal;
  contraryFull: Signal;
  // input side registers
  blk: Signal;
  inState: Signal;
  inCnt: Signal;
  inShift: Signal;
  inLen: Signal;
  inSlot: Signal;
  inAddr: Signal;
  inData: Signal;
  wpend: Signal;
  camLoadR: Signal;
  // shared by both controllers
  freeRows: Signal;
  reqReg: Signal;
  // output side registers
  rrPtr: Signal;
  rrWait: Signal;
  outState: Signal;
  outSel: Signal;
  outRow: Signal;
  outCamRow: Signal;
  outPort: Signal;
  outNext: Signal;
  outAddr: Signal;
  outLen: Signal;
  outData: Signal;
  outDataValid: Signal;
  rpend: Signal;
  freeFlag: Signal;
  txPhase: Signal;
  txCnt: Signal;
  txShift: Signal;
  txBit: Signal;
  txRel: Signal;
  /**
   * The RAM client ports as registers (the default; docs/kernel.md "Stop 23:
   * Buzzard per word"), or null for the ramPorts comb (the reference
   * structure, `wordFolds: false`).
   */
  ports: PbuRamPortRegs | null;
  /**
   * The timed word arrival (the default on a cube's serial lines;
   * docs/kernel.md "Stop 24: Buzzard"): the buffer RAM's array, set by the
   * node (wirePbu), from which the output controller takes the word at the
   * read grant's edge; null without it (the unit alone, `timedArrival: false`).
   */
  arrival: PbuArrival | null;
}

/** The RAM array the timed word arrival reads at the grant's edge (set when the node wires the PBU to its RAM). */
export interface PbuArrival {
  mem: Memory | null;
}

/**
 * Negative control only (test/buzzard/word_arrival.test.ts), read when a PBU
 * is built: 'late' posts the timed arrival one edge late (the word reaches
 * outData a cycle after the RAM delivered it); 'noSelfWakes' leaves out the
 * wake-ups that stand in for the output controller's reads of its own
 * registers (pbu_line.ts PbuOutputEnd.after); 'noWriteGrant': the input
 * controller is not woken by the RAM write grant; 'syncLate': the input
 * end, folding a sync's 0 into its catch-up, wakes one edge after the
 * word's last bit.
 */
export const WRONG_ARRIVAL: { mode: 'none' | 'late' | 'noSelfWakes' | 'noWriteGrant' | 'syncLate' } = { mode: 'none' };

/**
 * Negative controls only (test/buzzard/word_folds.test.ts): a deliberately
 * wrong fold, read when a PBU is built. 'currentInAddr': the interlock
 * compares with the input address of the cycle before the edge, not the
 * one after it (a read request one cycle late or early); 'outputOnly': only
 * the output controller loads the read request (an inAddr change the input
 * controller makes alone is missed).
 */
export const WRONG_FOLD: { mode: 'none' | 'currentInAddr' | 'outputOnly' } = { mode: 'none' };

/**
 * The RAM client ports' registers of the folded structure
 * (packet_buffer_unit.ts): the write address (the input address register
 * without its non-valid bit) and the read request. wreq, wdata and raddr
 * are wpend, inData and outAddr themselves (joined nets).
 */
export interface PbuRamPortRegs {
  waddr: Signal;
  rreq: Signal;
}

/**
 * The ramPorts comb's function (output step 4's cut-through interlock: no
 * read of the address the input side has not finished writing), written as
 * registers from the controllers' next values at their edges: the same
 * value in the same cycle as the comb of the current values gives, without
 * a comb run per word (docs/kernel.md "Stop 23: Buzzard per word"). A
 * register no process wrote has next = current, and both controllers load
 * the request from all four next values, so whichever runs last this edge
 * sees both sides' changes (the shared registers' rule,
 * pbu_input_controller.ts header). `side` 'in' loads the write address and
 * the read request (inAddr is the input side's), 'out' the read request.
 */
export function ramPortLoader(k: PbuKit, side: 'in' | 'out'): ((s: Float64Array) => void) | null {
  const p = k.ports;
  if (!p) return null;
  const addrMask = k.INVALID - 1;
  const wrong = WRONG_FOLD.mode; // read at construction (negative controls only)
  let inAddrN = 0, outStateN = 0, outLenN = 0, outAddrN = 0, waddrN = 0, rreqN = 0;
  k.m.whenSlots(() => {
    [inAddrN, outStateN, outLenN, outAddrN] = [wrong === 'currentInAddr' ? k.inAddr.i : k.inAddr.n, k.outState.n, k.outLen.n, k.outAddr.n];
    [waddrN, rreqN] = [p.waddr.n, p.rreq.n];
  });
  const rreq = (s: Float64Array): void => {
    const oa = s[outAddrN]!;
    s[rreqN] = s[outStateN] === OUT_FETCH && s[outLenN] !== 0 && oa !== s[inAddrN] ? 1 : 0;
  };
  return side === 'in'
    ? (s) => {
        s[waddrN] = s[inAddrN]! & addrMask;
        if (wrong !== 'outputOnly') rreq(s);
      }
    : rreq;
}
