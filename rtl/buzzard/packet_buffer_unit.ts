/**
 * Buzzard packet buffer unit (PBU), clock by clock: seed 002 §5.4.2
 * (L1719–L1763), digest docs/sources.md, buzzard §8.2, with the framing of
 * §5.4.8 / spec §8.9 and the readings of DESIGN.md.
 *
 * NOTES on DESIGN.md (kept to the seed where they differ; see also "Readings"
 * below):
 *  - DESIGN.md's RAM address "((pbu·H) + slot)·slotWords + word" uses a
 *    0-based pbu; buffer_ram.ts `ramAddress` takes the 1-based PBU number
 *    (((pbu-1)·H + slot)·slotWords + word). Same addresses.
 *  - The lib crossbar's 'no-diagonal' connectivity forbids input k → output
 *    k, but in Buzzard PBU i is crossbar input i-1 and must not reach output
 *    i: a node must pass a predicate ((k, j) => k >= n ? j === k-n+1 : j !==
 *    k+1), as the testbench does.
 *  - Output step 3 ("increment the length register to account for packet
 *    header bytes") is a one-cycle no-op here: with A5's L (words after the
 *    destination, all of them in the RAM) the length register already counts
 *    exactly the words to read.
 *  - Input step 8 / DESIGN "Readings": the L-th word is latched, block is
 *    asserted, and the word is still written to the RAM (steps 9–10) before
 *    the "non-valid address" is written and the controller returns to step 1
 *    (state lastWrite). Otherwise the cut-through interlock (output step 4)
 *    would compare against the non-valid address while the last word is
 *    still unwritten.
 *
 * Ports (DESIGN.md "PacketBufferUnit i"; P = bits for 0..n, n1 = n+1,
 * RA/S = the BufferRam address / client widths):
 *  link side      inBit (in), block (out, the register blk)
 *  crossbar side  xreq[n1], xout, xrelease (out); xgnt, xgidx[P], hold (in)
 *  RAM write      wreq, waddr[RA], wdata[16] (out); wgnt (in)
 *  RAM read       rreq, raddr[RA] (out); rgnt, rdata[16], rvalid, rsrc[S] (in)
 * Observability registers: inState, outState, txPhase (enum), freeRows,
 * reqReg[n1], plus the RAM address registers inAddr/outAddr, length counters
 * inLen/outLen, shift registers inShift/txShift, data registers
 * inData/outData, the "free at end" flag freeFlag.
 *
 * Cycle timeline of one packet, non-strict framing, no contention (c = the
 * cycle the incoming S1 is on inBit; DESIGN.md "Per-hop head timing"):
 *   input  c        waitStart, inBit = S1            (step 3)
 *          c+1      startBit, inBit = S0
 *          c+2      preheader bit 0 = C: at its edge step 4 (refuse, or
 *                   freeRows--)                       (step 4, A8)
 *          c+10     bit 8 (last L bit): length counter := L   (step 5)
 *          c+11..26 destination bits 9..24 (step 6, the CAM intention
 *                   announced during bit 23, is modelled as the camLoad
 *                   cycle's priority on the CAM write port)
 *          c+27     camLoad: CAM insert + reqReg[P] set at its edge; the line
 *                   carries the Y1 of word 1             (step 7)
 *          c+28     Y0; c+29..c+44 word 1; at c+44's edge the word goes to the
 *                   RAM data register, length--         (step 8)
 *          c+45     wreq (granted at once when the port is free): the word is
 *                   written and inAddr++ at c+45's edge  (steps 9, 10)
 *          ...      the L-th word: block := 1 at its last bit's edge e,
 *                   e+1 lastWrite (written, inAddr := non-valid), e+2 start
 *                   (step 1), e+3 latchSlot (step 2), e+4 waitStart (block 0).
 *   output c+28     xreq[P] visible (request register set at c+27's edge)
 *          c+30     grant (arbiter latency 2): step 1 loads txShift, outAddr,
 *                   outLen from the CAM row selected by xgidx; C reset, P
 *                   updated; the crossbar connects at c+30's edge
 *          c+31     S1 on xout (step 2: broadcast write-back or free flag)
 *          c+32     S0 (step 3)
 *          c+33..57 preheader + destination; RAM reads (step 4) fill the
 *                   output RAM data register
 *          c+58     Y1 of word 1 (step 5: the low-water mark: the RAM data
 *                   register goes into the shift register at the Y1→Y0 edge),
 *                   c+59 Y0, c+60..c+75 word 1, ...
 *          r        last bit of word L: xrelease; step 6 at r's edge (request
 *                   bit reset if no other row has the port, row freed when the
 *                   free flag is set); idle from r+1, xreq again from r+1.
 *   With strictFraming the post-preheader Y1 Y0 shifts the input by 2 cycles
 *   (camLoad c+29, grant c+32, S1 out c+33).
 *
 * Readings beyond DESIGN.md (documented here and in the report):
 *  - The CAM has one write port; the input controller's insert (camLoad) has
 *    priority; the output controller's update (step 2) or free (step 6) waits
 *    one cycle when they collide (§5.4.2 "intention to use the CAM"). Step 6
 *    is done as one action (request reset + free) in the cycle of the last
 *    bit, or in the first later cycle without an insert.
 *  - The output side's RAM data register is the PBU's own outData: the lib
 *    RAM's rdata register is shared by all read clients (rsrc tells whose).
 *  - xreq = reqReg while the output controller is idle, 0 while busy (A9).
 *  - The PBU checks framing it depends on: the Y1 after the destination must
 *    be on the line in the camLoad cycle, and every sync starts with a 1.
 *
 * Rooms: this file declares the unit (ports, CAM, registers, the CAM port,
 * request and RAM port logic) and builds its two clocked processes from
 * pbu_input_controller.ts (input steps 1–10) and pbu_output_controller.ts
 * (output steps 1–6 and the framing); pbu_kit.ts holds their state numbers
 * and shared kit, pbu_line.ts their link ends on a cube's serial lines. The
 * two controllers are separate processes (docs/kernel.md "Stop 19: PBU"):
 * each runs only when its own side must act.
 */
import { Module, type Signal } from '../kernel/module.ts';
import { bitsFor } from '../lib/arbiter.ts';
import { Cam, CAM_OP } from '../lib/cam.ts';
import { bitsToHold } from '../lib/check.ts';
import { ramGeometry } from './buffer_ram.ts';
import { checkConfig, geometry, type BuzzardConfig } from './config.ts';
import type { LinkSet, LinkTap } from './link_lines.ts';
import { PbuInputEnd, PbuOutputEnd } from './pbu_line.ts';
import { pbuInputController } from './pbu_input_controller.ts';
import { pbuOutputController } from './pbu_output_controller.ts';
import {
  FREE_PORT, IN_START, NO_PORT, OUT_BC, OUT_FETCH, OUT_FIN, OUT_IDLE, PBU_IN_STATES, SEL_BC, SEL_FIN, SEL_IDLE, SEL_WORD, PBU_OUT_STATES, PBU_TX_PHASES, T_IDLE,
  WRONG_ARRIVAL, type PbuArrival, type PbuKit, type PbuRamPortRegs,
} from './pbu_kit.ts';

export { FREE_PORT, PBU_IN_STATES, PBU_OUT_STATES, PBU_TX_PHASES } from './pbu_kit.ts';

export class PacketBufferUnit extends Module {
  readonly cfg: BuzzardConfig;
  readonly index: number;
  readonly node: number;
  readonly cam: Cam;
  // link side
  readonly inBit: Signal;
  readonly block: Signal;
  // crossbar side
  readonly xreq: Signal;
  readonly xout: Signal;
  readonly xrelease: Signal;
  readonly xgnt: Signal;
  readonly xgidx: Signal;
  readonly hold: Signal;
  // buffer RAM clients
  readonly wreq: Signal;
  readonly waddr: Signal;
  readonly wdata: Signal;
  readonly wgnt: Signal;
  readonly rreq: Signal;
  readonly raddr: Signal;
  readonly rgnt: Signal;
  readonly rdata: Signal;
  readonly rvalid: Signal;
  readonly rsrc: Signal;
  // observability
  readonly inState: Signal;
  readonly outState: Signal;
  readonly txPhase: Signal;
  readonly freeRows: Signal;
  readonly reqReg: Signal;
  readonly inSlot: Signal;
  readonly inAddr: Signal;
  readonly outAddr: Signal;
  /** The non-valid value of inAddr (input step 8): 2^RA, outside every RAM address. */
  readonly invalidAddr: number;

  /** The link ends on a cube's serial lines, one per controller (absent for the unit alone; docs/kernel.md "Buzzard links on serial lines"). */
  readonly inLine: PbuInputEnd | null;
  readonly outLine: PbuOutputEnd | null;
  /** The timed word arrival's RAM array (null without serial lines or with `timedArrival: false`); the node sets `mem`. */
  readonly arrival: PbuArrival | null;

  /**
   * `links`/`taps`: a cube's serial lines and this node's crossbar output
   * taps (O_0..O_n). `wordFolds` (default true): the RAM client ports as
   * registers of the controllers; false keeps the ramPorts comb, the
   * reference structure (docs/kernel.md "Stop 23: Buzzard per word").
   * `timedArrival` (default true, on serial lines only): the word read at a
   * grant reaches outData by timed writes (`arrival`, set by the node);
   * false keeps stop 23's run at its arrival (docs/kernel.md "Stop 24: Buzzard").
   */
  constructor(parent: Module | null, name: string, config: Partial<BuzzardConfig>, index: number, node: number, links?: LinkSet, taps?: readonly LinkTap[], wordFolds = true, timedArrival = true) {
    super(parent, name);
    const cfg = (this.cfg = checkConfig(config));
    const g = geometry(cfg);
    const rg = ramGeometry(cfg);
    const n = cfg.n;
    if (!(Number.isInteger(index) && index >= 1 && index <= n)) throw new RangeError(`pbu.index: ${String(index)} is outside 1..${n}`);
    if (!(Number.isInteger(node) && node >= 0 && node < 1 << n)) throw new RangeError(`pbu.node: ${String(node)} is outside 0..${(1 << n) - 1}`);
    this.index = index;
    this.node = node;
    const i = index;
    const H = cfg.camHeight; // §5.4.2: CAM height 13 (config)
    const strict = cfg.strictFraming; // A2
    const refusalOn = cfg.contraryRefusal; // §5.3, A8
    const lb = g.lengthBits; // A5: 4 (32-byte) or 5 (64-byte)
    const preBits = g.preheaderBits; // §5.4: 9 (10)
    const headLen = preBits + 16; // §5.4.2: "the first 25 bits"
    const headMask = 2 ** headLen - 1;
    const lenMask = (1 << lb) - 1;
    const n1 = n + 1;
    const P = bitsFor(n1);
    const RA = rg.addrBits;
    const INVALID = (this.invalidAddr = 2 ** RA); // input step 8: "a non-valid address"
    const addrMask = INVALID - 1;
    const slotWords = rg.slotWords;
    const me = i - 1; // RAM client / crossbar input index
    const nodeMask = (1 << n) - 1;

    // CAM row layout (config.ts geometry: slot | D | L | P | C, lsb first; §5.4.2 29 bits).
    const field = (nm: string): readonly [string, number, number] => g.camFields.find((f) => f[0] === nm)!;
    const slotF = field('slot');
    const destLsb = field('dest')[1];
    const lenLsb = field('len')[1];
    const portLsb = field('port')[1];
    const cLsb = field('contrary')[1];
    const slotMask = (1 << slotF[2]) - 1;
    const slotScale = 2 ** slotF[2]; // inShift (C P L D) sits above the slot bits
    const portRowMask = 15 * 2 ** portLsb;

    // ---- the shiftable CAM (§5.4.2; lib cam.ts)
    const cam = (this.cam = new Cam(this, 'cam', {
      width: g.camWidth,
      height: H,
      fields: g.camFields,
      key: 'port', // "the next port field ... used to associatively address the memory"
      flag: 'contrary', // the contrary-full AND
      keepMask: slotMask, // the RAM slot travels with the physical row (free list, step 6)
      freeBits: FREE_PORT * 2 ** portLsb, // "a special next port value that indicates ... a free entry"
    }));

    // ---- ports
    const inBit = (this.inBit = this.input('inBit'));
    const block = (this.block = this.output('block'));
    const xreq = (this.xreq = this.output('xreq', n1));
    const xout = (this.xout = this.output('xout'));
    const xrelease = (this.xrelease = this.output('xrelease'));
    const xgnt = (this.xgnt = this.input('xgnt'));
    const xgidx = (this.xgidx = this.input('xgidx', P));
    const hold = (this.hold = this.input('hold'));
    const wreq = (this.wreq = this.output('wreq'));
    const waddr = (this.waddr = this.output('waddr', RA));
    const wdata = (this.wdata = this.output('wdata', 16));
    const wgnt = (this.wgnt = this.input('wgnt'));
    const rreq = (this.rreq = this.output('rreq'));
    const raddr = (this.raddr = this.output('raddr', RA));
    const rgnt = (this.rgnt = this.input('rgnt'));
    const rdata = (this.rdata = this.input('rdata', 16));
    const rvalid = (this.rvalid = this.input('rvalid'));
    const rsrc = (this.rsrc = this.input('rsrc', rg.srcBits));

    // ---- CAM wiring
    const camKey = this.wire('camKey', cam.key.width);
    const camOp = this.wire('camOp', 2, { enum: ['none', 'insert', 'update', 'free'] });
    const camAddr = this.wire('camAddr', cam.addr.width);
    const camWdata = this.wire('camWdata', cam.wdata.width, { fields: g.camFields });
    const camHit = this.wire('camHit');
    const camHitRow = this.wire('camHitRow', cam.hitRow.width);
    const camHitData = this.wire('camHitData', cam.hitData.width, { fields: g.camFields });
    const camMatch = this.wire('camMatch', H);
    const camFreeRow = this.wire('camFreeRow', cam.freeRow.width, { fields: g.camFields });
    const camFreeCount = this.wire('camFreeCount', cam.freeCount.width);
    const contraryFull = this.wire('contraryFull'); // A8: flagAndButTail
    this.connect(camKey, cam.key);
    this.connect(camOp, cam.op);
    this.connect(camAddr, cam.addr);
    this.connect(camWdata, cam.wdata);
    this.tie(cam.raddr, 0); // rows are selected associatively (hitRow), the read port is unused
    this.connect(cam.hit, camHit);
    this.connect(cam.hitRow, camHitRow);
    this.connect(cam.hitData, camHitData);
    this.connect(cam.match, camMatch);
    this.connect(cam.freeRow, camFreeRow);
    this.connect(cam.freeCount, camFreeCount);
    this.connect(cam.flagAndButTail, contraryFull);

    // ---- registers
    // input side (§5.4.2: "registers ... above the CAM")
    const blk = this.reg('blk', 1, 1); // flow-control block (steps 1, 3, 4, 8)
    this.connect(blk, block);
    const inState = (this.inState = this.reg('inState', 4, IN_START, { enum: PBU_IN_STATES }));
    const inCnt = this.reg('inCnt', 5, 0); // bit counter within a field / "1 seen" in a sync
    const inShift = this.reg('inShift', headLen, 0); // incoming packet shift register (C P L D, then words)
    const inLen = this.reg('inLen', lb, 0); // input length counter (step 5, 8)
    const inSlot = (this.inSlot = this.reg('inSlot', slotF[2], 0)); // mid-order RAM address bits (step 2)
    const inAddr = (this.inAddr = this.reg('inAddr', RA + 1, INVALID)); // input RAM address register
    const inData = this.reg('inData', 16, 0); // input RAM data register (step 8)
    const wpend = this.reg('wpend', 1, 0); // step 9: arbitrating for the RAM input bus
    const freeRows = (this.freeRows = this.reg('freeRows', bitsToHold(H), H)); // free row register (reservation count)
    const reqReg = (this.reqReg = this.reg('reqReg', n1, 0)); // crossbar arbitration request register
    // Rotating priority across this PBU's next ports (§5.4.2: packets of
    // different messages are interleaved on the output links "in a fair
    // manner"; A9: "a fixed or rotating priority encoder"). The crossbar
    // resolves simultaneous grants lowest output first, so a PBU that always
    // requested every pending port would starve its higher ports while a lower
    // one keeps a stream going. rrPtr is the port after the last one served;
    // the PBU first requests only its pending ports >= rrPtr, and widens to all
    // pending ports after rrWindow cycles without a grant, so a blocked higher
    // port never holds back a free lower one (which could otherwise add waits
    // and even wait-for cycles the seed's design does not have).
    const rrPtr = this.reg('rrPtr', bitsToHold(n1), 0);
    const rrWindow = cfg.arbiterLatency + 1;
    const rrWait = this.reg('rrWait', bitsToHold(rrWindow), 0);
    // output side (§5.4.2: "registers ... below the CAM")
    const outState = (this.outState = this.reg('outState', 3, OUT_IDLE, { enum: PBU_OUT_STATES }));
    const outRow = this.reg('outRow', cam.addr.width, 0); // the CAM row being forwarded (encoded grant)
    const outCamRow = this.reg('outCamRow', g.camWidth, 0, { fields: g.camFields });
    const outPort = this.reg('outPort', 4, 0); // the crossbar output of this copy
    const outNext = this.reg('outNext', 4, NO_PORT); // broadcast: the next copy's port (step 2)
    const outAddr = (this.outAddr = this.reg('outAddr', RA, 0)); // output RAM address register
    const outLen = this.reg('outLen', lb, 0); // output length counter (words still to read)
    const outData = this.reg('outData', 16, 0); // output RAM data register
    const outDataValid = this.reg('outDataValid', 1, 0);
    const rpend = this.reg('rpend', 1, 0); // a read was granted; its word arrives on rdata next cycle
    const freeFlag = this.reg('freeFlag', 1, 0); // "free this entry at end" (step 2)
    const txPhase = (this.txPhase = this.reg('txPhase', 4, T_IDLE, { enum: PBU_TX_PHASES }));
    const txCnt = this.reg('txCnt', 5, 0); // bits left in the current field
    const txShift = this.reg('txShift', headLen, 0); // output shift register

    // camLoadR = (inState = camLoad), loaded by the input controller from its
    // next state: the CAM port needs only this, not every input state change (two
    // per word; docs/kernel.md "Exact sensitivity").
    const camLoadR = this.reg('camLoadR', 1, 0);
    // outSel = OUT_SEL[outState] (pbu_kit.ts), loaded by the output controller
    // from its next state: the CAM port and the requests tell idle, bcast and
    // finish apart, never fetch from lowWater, which alternate at every word
    // (docs/kernel.md "Stop 19: unit guards").
    const outSel = this.reg('outSel', 2, SEL_IDLE);
    // Slot indices in the closures (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
    let camAddrI = 0, camKeyI = 0, camLoadRI = 0, camOpI = 0, camWdataI = 0, freeFlagI = 0, inAddrI = 0, inDataI = 0, inShiftI = 0, outAddrI = 0, outCamRowI = 0, outLenI = 0, outNextI = 0, outPortI = 0, outRowI = 0, outSelI = 0, outStateI = 0, raddrI = 0, reqRegI = 0, rrPtrI = 0, rrWaitI = 0, rreqI = 0, txPhaseI = 0, waddrI = 0, wdataI = 0, wpendI = 0, wreqI = 0, xgidxI = 0, xreleaseI = 0, xreqI = 0;
    this.whenSlots(() => {
      [camAddrI, camKeyI, camLoadRI, camOpI, camWdataI, freeFlagI, inAddrI, inDataI, inShiftI, outAddrI, outCamRowI, outLenI, outNextI, outPortI, outRowI, outSelI, outStateI, raddrI, reqRegI, rrPtrI, rrWaitI, rreqI, txPhaseI, waddrI, wdataI, wpendI, wreqI, xgidxI, xreleaseI, xreqI] = [camAddr.i, camKey.i, camLoadR.i, camOp.i, camWdata.i, freeFlag.i, inAddr.i, inData.i, inShift.i, outAddr.i, outCamRow.i, outLen.i, outNext.i, outPort.i, outRow.i, outSel.i, outState.i, raddr.i, reqReg.i, rrPtr.i, rrWait.i, rreq.i, txPhase.i, waddr.i, wdata.i, wpend.i, wreq.i, xgidx.i, xrelease.i, xreq.i];
    });

    // ---- combinational logic
    // CAM port: the input controller's insert first (§5.4.2 "The input
    // controller is given priority on all accesses to the CAM"), then the
    // output controller's broadcast write-back (step 2) or free (step 6).
    // Key: the granted port in step 1, the forwarded port otherwise (step 6
    // checks whether another row has it).
    this.comb(
      () => {
        const s = this.s;
        const sel = s[outSelI]!;
        s[camKeyI] = sel === SEL_IDLE ? s[xgidxI]! : s[outPortI]!;
        if (s[camLoadRI] === 1) {
          s[camOpI] = CAM_OP.insert; // step 7
          s[camAddrI] = 0;
          s[camWdataI] = s[inShiftI]! * slotScale;
        } else if (sel === SEL_BC && s[outNextI] !== NO_PORT) {
          s[camOpI] = CAM_OP.update; // step 2: write the incremented next port back
          s[camAddrI] = s[outRowI]!;
          s[camWdataI] = (s[outCamRowI]! - (s[outCamRowI]! & portRowMask) + s[outNextI]! * 2 ** portLsb) >>> 0;
        } else if (sel === SEL_FIN && s[freeFlagI] === 1 && (s[xreleaseI] === 1 || s[txPhaseI] === T_IDLE)) {
          s[camOpI] = CAM_OP.free; // step 6
          s[camAddrI] = s[outRowI]!;
          s[camWdataI] = 0;
        } else {
          s[camOpI] = CAM_OP.none;
          s[camAddrI] = 0;
          s[camWdataI] = 0;
        }
      },
      {
        writes: [camKey, camOp, camAddr, camWdata],
        reads: [outSel, camLoadR],
        // Exact sensitivity (docs/kernel.md "Stop 19: unit guards"): each
        // input only in the output states whose branch uses it; the shift
        // register only in the camLoad cycle (else every incoming bit would
        // wake this process).
        readsWhen: [
          { when: camLoadR, is: [1], reads: [inShift] },
          { when: outSel, is: [SEL_IDLE], reads: [xgidx] },
          { when: outSel, is: [SEL_BC, SEL_FIN, SEL_WORD], reads: [outPort] },
          { when: outSel, is: [SEL_BC, SEL_FIN], reads: [outRow] },
          { when: outSel, is: [SEL_BC], reads: [outNext, outCamRow] },
          { when: outSel, is: [SEL_FIN], reads: [freeFlag, xrelease, txPhase] },
        ],
        name: 'camPort',
      },
    );

    // Crossbar requests: the request register, withdrawn while forwarding (A9).
    this.comb(
      () => {
        const s = this.s;
        if (s[outSelI] !== SEL_IDLE) {
          s[xreqI] = 0;
          return;
        }
        const all = s[reqRegI]!;
        const hi = all & ~((1 << s[rrPtrI]!) - 1);
        s[xreqI] = hi !== 0 && s[rrWaitI]! < rrWindow ? hi : all;
      },
      // Exact (docs/kernel.md "Stop 19: unit guards"): outside idle the
      // requests are 0 whatever the request register and priority hold.
      { writes: [xreq], reads: [outSel], readsWhen: [{ when: outSel, is: [SEL_IDLE], reads: [reqReg, rrPtr, rrWait] }], name: 'request' },
    );

    // Buffer RAM clients: the input write (step 9) and the output read with
    // the cut-through interlock (step 4: no read of the address the input
    // side has not finished writing). Folded (the default): registers the
    // controllers load from their next values (pbu_kit.ts ramPortLoader;
    // docs/kernel.md "Stop 23: Buzzard per word"); `wordFolds: false`: the
    // ramPorts comb, the reference structure they are compared with.
    let ports: PbuRamPortRegs | null = null;
    if (wordFolds) {
      ports = { waddr: this.reg('waddrR', RA, INVALID & addrMask), rreq: this.reg('rreqR', 1, 0) };
      this.connect(wpend, wreq);
      this.connect(ports.waddr, waddr);
      this.connect(inData, wdata);
      this.connect(ports.rreq, rreq);
      this.connect(outAddr, raddr);
    } else {
      this.comb(
        () => {
          const s = this.s;
          s[wreqI] = s[wpendI]!;
          s[waddrI] = s[inAddrI]! & addrMask;
          s[wdataI] = s[inDataI]!;
          const oa = s[outAddrI]!;
          s[rreqI] = s[outStateI] === OUT_FETCH && s[outLenI] !== 0 && oa !== s[inAddrI] ? 1 : 0;
          s[raddrI] = oa;
        },
        { writes: [wreq, waddr, wdata, rreq, raddr], reads: [wpend, inAddr, inData, outState, outLen, outAddr], name: 'ramPorts' },
      );
    }

    // Output line and release: registers (txBit, txRel) loaded at each edge
    // with the function of the framing registers' next values
    // (pbu_kit.ts lineBit; pbu_output_controller.ts), i.e. the same bit in
    // the same cycle as a comb of the current values would give, without a
    // second evaluation per bit (docs/kernel.md "Exact sensitivity"; issue 8).
    const txBit = this.reg('txBit', 1, 0);
    const txRel = this.reg('txRel', 1, 0);
    this.connect(txBit, xout);
    this.connect(txRel, xrelease);

    // ---- the clocked part: the input controller and the output controller
    // (with its framing), one process each (docs/kernel.md "Stop 19: PBU").
    const kit: PbuKit = {
      m: this, cfg, rg, i, node, me, n, strict, refusalOn, lb, preBits, headLen, headMask, lenMask, slotMask, INVALID,
      destLsb, lenLsb, cLsb, rrWindow,
      inBit, xreq, xrelease, xgnt, xgidx, hold, wgnt, rgnt, rdata, rvalid, rsrc,
      camOp, camHit, camHitRow, camHitData, camMatch, camFreeRow, camFreeCount, contraryFull,
      blk, inState, inCnt, inShift, inLen, inSlot, inAddr, inData, wpend, camLoadR, freeRows, reqReg,
      rrPtr, rrWait, outState, outSel, outRow, outCamRow, outPort, outNext, outAddr, outLen, outData, outDataValid, rpend, freeFlag,
      txPhase, txCnt, txShift, txBit, txRel, ports,
      arrival: (this.arrival = links && taps && timedArrival ? { mem: null } : null),
    };
    // On a cube's serial lines (pbu_line.ts) the bit counters, shift
    // registers and line bit move between the controllers' events without a
    // process run, so they are not among their reads.
    const framing = { preBits, headLen, strict };
    const inLine = (this.inLine = links && taps ? new PbuInputEnd(this, links, { inBit, inState, inCnt, inShift, wpend, wgnt }, framing, timedArrival) : null);
    const outLine = (this.outLine =
      links && taps ? new PbuOutputEnd(this, `${name}.line`, links, taps, { txPhase, txCnt, txShift, txBit, xrelease, outState, xgnt, xgidx, outLen, outDataValid, rpend }, framing, timedArrival) : null);

    // Exact reads (docs/kernel.md "Exact sensitivity"): each controller reads
    // its own registers and, guarded by its state, what the step list uses
    // in some states only. The RAM's buses are shared by the node's PBUs: a
    // word read or written for one must not wake the others.
    const inProc = this.seq(pbuInputController(kit, inLine), {
      name: 'inputController',
      writes: [inAddr, inSlot, blk, inCnt, inShift, inLen, inData, wpend, inState, camLoadR, freeRows, reqReg, ...(ports ? [ports.waddr, ports.rreq] : [])],
      ...(inLine && timedArrival
        ? {
            // Stop 24 (docs/kernel.md "Stop 24: Buzzard"): the RAM write
            // grant on its rise only, not wpend (its own register: its fall
            // at the grant and its rise at a word's last bit woke it at the
            // next edge for nothing). The grant is a one-cycle pulse (wreq
            // is wpend, which falls at the grant's edge); a grant held over
            // an edge (the next word latched at the grant's edge) is asked
            // for by the link end (pbu_line.ts PbuInputEnd.after).
            reads: [freeRows, camFreeCount],
            readsWhen: WRONG_ARRIVAL.mode === 'noWriteGrant' ? [] : [{ when: wgnt, bits: 1, reads: [], rise: true }],
          }
        : inLine
        ? {
            reads: [wpend, freeRows, camFreeCount],
            readsWhen: [{ when: wpend, is: [1], reads: [wgnt] }],
          }
        : {}),
    });
    const outProc = this.seq(pbuOutputController(kit, outLine), {
      name: 'outputController',
      writes: [txPhase, txCnt, txShift, txBit, txRel, outState, outSel, outData, outDataValid, rpend, rrPtr, rrWait, outRow, outCamRow, outPort, outNext, outAddr, outLen, freeFlag, freeRows, reqReg, ...(ports ? [ports.rreq] : [])],
      ...(outLine && timedArrival
        ? {
            // The timed word arrival (docs/kernel.md "Stop 24: Buzzard"):
            // not its registers that change at a read grant and a word's
            // arrival (outState, outLen, outAddr, rpend, outData,
            // outDataValid; its link end asks for the edges they act at);
            // the states as outSel, which fetch and lowWater share; the RAM
            // read grant on its rise only (a one-cycle pulse while fetching:
            // the grant is taken at its edge); not the RAM's read bus (the
            // word comes by timed writes).
            reads: [txShift, xrelease, xgnt, rrWait, rrPtr, outNext, freeFlag, outRow, outPort, hold],
            readsWhen: [
              { when: outSel, is: [SEL_IDLE], reads: [xgidx, xreq, camHit, camHitData, camHitRow] },
              { when: outSel, is: [SEL_BC], reads: [camOp] },
              { when: rgnt, bits: 1, reads: [], rise: true },
              { when: outSel, is: [SEL_FIN], reads: [camMatch, inState] },
            ],
          }
        : outLine
        ? {
            reads: [outState, outDataValid, outData, txShift, xrelease, rpend, xgnt, rrWait, rrPtr, outNext, outLen, outAddr, freeFlag, outRow, outPort, hold],
            readsWhen: [
              { when: rpend, is: [1], reads: [rdata, rvalid, rsrc] },
              { when: outState, is: [OUT_IDLE], reads: [xgidx, xreq, camHit, camHitData, camHitRow] },
              { when: outState, is: [OUT_BC], reads: [camOp] },
              { when: outState, is: [OUT_FETCH], reads: [rgnt] },
              { when: outState, is: [OUT_FIN], reads: [camMatch, inState] },
            ],
          }
        : {}),
    });
    if (inLine) inLine.waker.proc = inProc;
    if (outLine) outLine.waker.proc = outProc;
  }
}
