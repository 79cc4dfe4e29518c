/**
 * Dual-ported RAM with arbitrated client ports.
 *
 * Seed 002 §5.4.1 (digest docs/sources.md, buzzard §8.1): Buzzard's buffer RAM
 * is "dual ported, with a write-only input port and a read-only output port,
 * accessible simultaneously", 16-bit words, 4096 bytes for a degree-10 cube
 * (13 slots of 15 words per PBU), shared by the 10 PBUs: the input
 * controllers "arbitrate for the buffer RAM input bus" (write port) and the
 * output controllers "arbitrate for the RAM output bus" (read port). Each
 * port serves one access per RAM cycle (docs/readings.md#ram-port-arbitration); here one per clock
 * cycle, so a slower RAM is modelled by the clients' clock enables.
 *
 * Ports (R read clients, C write clients, W data bits, A = bits for 0..depth-1,
 * S = bits for 0..R-1):
 *  write client k:  inputs wreq{k}, waddr{k}[A], wdata{k}[W]; output wgnt{k}
 *  read client k:   inputs rreq{k}, raddr{k}[A];               output rgnt{k}
 *  read data:       rdata[W]  (register) the word read for the grant of the
 *                              previous cycle; holds its value otherwise
 *                   rvalid    (register) rdata was loaded at the last edge
 *                   rsrc[S]   (register) which read client it belongs to
 *  children         warb, rarb: the port arbiters (policy default
 *                   'round-robin', latency default 0; configurable)
 *  memory           mem[depth] x W
 *
 * Timing: with latency 0, a client that raises req in cycle t can be granted
 * in cycle t (combinational grant). A write granted in cycle t lands at the
 * edge of t. A read granted in cycle t reads the memory during t and presents
 * the word on rdata in t+1 (rvalid = 1, rsrc = client). Clients hold req (and
 * their address/data) until granted; a grant is a one-cycle pulse, and a
 * client holding req after its grant makes a new access (with latency 0 it
 * can be granted every cycle it wins).
 *
 * Same-address read and write in one cycle: the read returns the OLD word.
 * The write is queued for the clock edge (kernel `memory` semantics) while
 * the read samples the array during the cycle — a write-after-read RAM, as a
 * real dual-port cell read in the first half of the cycle would behave. This
 * is also what Buzzard's output controller relies on: it never reads the
 * word the input side is writing (the cut-through interlock of §5.4.2 output
 * step 4 waits until "the input side finishes its current write").
 *
 * Protocol error: a granted address outside 0..depth-1 (possible when depth
 * is not a power of two) stops the simulation naming the client.
 */
import { Module, type Memory, type Signal } from '../kernel/module.ts';
import { bitsFor, checkInt, checkPolicy, makeArbiter, type Arbiter, type ArbiterPolicy } from './arbiter.ts';
import { roundRobinWinner } from './arbiter_rr.ts';

export interface DualPortRamConfig {
  /** Word width in bits, 1..32; default 16 (the RAM data registers, §5.4.1). */
  width?: number;
  /** Words, 1..16777216; default 2048 (4096 bytes of 16-bit words, §5.4.1). */
  depth?: number;
  /** Clients of the read port, 1..64; default 10 (the PBUs of a 10-cube, §5.4.1). */
  readClients?: number;
  /** Clients of the write port, 1..64; default 10. */
  writeClients?: number;
  /** Port arbiter policy; default 'round-robin'. */
  policy?: ArbiterPolicy;
  /** Port arbiter request-to-grant latency, 0..8; default 0. */
  latency?: number;
  /** Initial value of every word; default 0. */
  init?: number;
  /**
   * Round-robin ports without arbiter children (policy 'round-robin',
   * latency 0 only): the ports' decisions are one comb of this unit, each
   * pointer (`wptr`, `rptr`) a register of this unit that the access
   * process moves at the edge of the grant it serves, so a word costs no
   * commit run of its own (docs/kernel.md "Stop 23: Buzzard per word").
   * The same grants, pointers and words as the children ('warb.ptr',
   * 'rarb.ptr'); default false.
   */
  inlineRoundRobin?: boolean;
  /**
   * The access process reads a port's index, addresses, data and the array
   * only while that port's grant is out at the edge (late guards, the
   * array's words by rtl/kernel/late_mems.ts), is woken by a grant's rise,
   * not its fall, and drops rvalid after a read by a timed write
   * (docs/kernel.md "Stop 25: Buzzard"); default false, the reads of
   * stop 24 (every port signal and the array, any change).
   */
  lateReads?: boolean;
}

export class DualPortRam extends Module {
  readonly config: Readonly<Required<DualPortRamConfig>>;
  readonly mem: Memory;
  readonly wreq: readonly Signal[];
  readonly waddr: readonly Signal[];
  readonly wdata: readonly Signal[];
  readonly wgnt: readonly Signal[];
  readonly rreq: readonly Signal[];
  readonly raddr: readonly Signal[];
  readonly rgnt: readonly Signal[];
  readonly rdata: Signal;
  readonly rvalid: Signal;
  readonly rsrc: Signal;
  /** The port arbiters (null with inlineRoundRobin: the unit arbitrates itself). */
  readonly warb: Arbiter | null;
  readonly rarb: Arbiter | null;
  /** The port pointers with inlineRoundRobin (the round-robin arbiters' ptr), else null. */
  readonly wptr: Signal | null;
  readonly rptr: Signal | null;
  /** Negative control only: the inline commit leaves the write pointer at the client served (read at construction; test/buzzard/word_folds.test.ts). */
  static wrongInlinePtr = false;
  /**
   * Negative controls only (test/lib/dual_port_ram_late.test.ts), with
   * lateReads: 'rvalid' keeps rvalid 1 (no timed fall) after a read that found it
   * 0; 'mem' leaves the array out of the late reads (a word written or poked
   * under a read grant held over edges is missed).
   */
  static lateFault: '' | 'rvalid' | 'mem' = '';

  constructor(parent: Module | null, name: string, config: DualPortRamConfig = {}) {
    super(parent, name);
    if (typeof config !== 'object' || config === null) throw new RangeError('dual_port_ram: expected a config object');
    const W = checkInt('dual_port_ram', 'width', config.width ?? 16, 1, 32);
    const D = checkInt('dual_port_ram', 'depth', config.depth ?? 2048, 1, 1 << 24);
    const R = checkInt('dual_port_ram', 'readClients', config.readClients ?? 10, 1, 64);
    const C = checkInt('dual_port_ram', 'writeClients', config.writeClients ?? 10, 1, 64);
    const policy = checkPolicy('dual_port_ram', 'policy', config.policy, 'round-robin');
    const latency = checkInt('dual_port_ram', 'latency', config.latency ?? 0, 0, 8);
    const wmask = W === 32 ? 0xffffffff : 2 ** W - 1;
    const init = checkInt('dual_port_ram', 'init', config.init ?? 0, 0, wmask);
    const inline = config.inlineRoundRobin ?? false;
    if (typeof inline !== 'boolean') throw new RangeError('dual_port_ram.inlineRoundRobin: must be true or false');
    const lateReads = config.lateReads ?? false;
    if (typeof lateReads !== 'boolean') throw new RangeError('dual_port_ram.lateReads: must be true or false');
    if (inline && (policy !== 'round-robin' || latency !== 0)) throw new RangeError(`dual_port_ram.inlineRoundRobin: needs policy 'round-robin' and latency 0 (got '${policy}', ${latency})`);
    this.config = { width: W, depth: D, readClients: R, writeClients: C, policy, latency, init, inlineRoundRobin: inline, lateReads };
    const A = bitsFor(D);

    const mem = (this.mem = this.memory('mem', W, D, { init, writePorts: 1 }));
    const wreq = (this.wreq = this.inputs('wreq', C));
    const waddr = (this.waddr = this.inputs('waddr', C, A));
    const wdata = (this.wdata = this.inputs('wdata', C, W));
    const wgnt = (this.wgnt = this.outputs('wgnt', C));
    const rreq = (this.rreq = this.inputs('rreq', R));
    const raddr = (this.raddr = this.inputs('raddr', R, A));
    const rgnt = (this.rgnt = this.outputs('rgnt', R));
    this.rdata = this.output('rdata', W);
    this.rvalid = this.output('rvalid');
    this.rsrc = this.output('rsrc', bitsFor(R));
    const rdq = this.reg('rdq', W, 0);
    const rvq = this.reg('rvq', 1, 0);
    const rsq = this.reg('rsq', bitsFor(R), 0);
    this.connect(rdq, this.rdata);
    this.connect(rvq, this.rvalid);
    this.connect(rsq, this.rsrc);

    const wany = this.wire('wany');
    const widx = this.wire('widx', bitsFor(C));
    const rany = this.wire('rany');
    const ridx = this.wire('ridx', bitsFor(R));
    let wptr: Signal | null = null;
    let rptr: Signal | null = null;
    if (inline) {
      this.warb = this.rarb = null;
      [wptr, rptr] = roundRobinPorts(this, { req: wreq, gnt: wgnt, any: wany, idx: widx }, { req: rreq, gnt: rgnt, any: rany, idx: ridx });
    } else {
      // Port arbiters. The RAM never blocks a port.
      const warb = (this.warb = makeArbiter(this, 'warb', { size: C, policy, latency }));
      const rarb = (this.rarb = makeArbiter(this, 'rarb', { size: R, policy, latency }));
      this.tie(warb.blocked, 0);
      this.tie(rarb.blocked, 0);
      for (let k = 0; k < C; k++) {
        this.connect(wreq[k]!, warb.req[k]!);
        this.connect(warb.gnt[k]!, wgnt[k]!);
      }
      for (let k = 0; k < R; k++) {
        this.connect(rreq[k]!, rarb.req[k]!);
        this.connect(rarb.gnt[k]!, rgnt[k]!);
      }
      this.connect(warb.any, wany);
      this.connect(warb.idx, widx);
      this.connect(rarb.any, rany);
      this.connect(rarb.idx, ridx);
    }
    this.wptr = wptr;
    this.rptr = rptr;

    // Slot indices in the closure (Module.whenSlots; docs/kernel.md "Stop 20: cost per evaluation").
    const waddrI = new Int32Array(C);
    const wdataI = new Int32Array(C);
    const raddrI = new Int32Array(R);
    let wanyI = 0, widxI = 0, ranyI = 0, ridxI = 0, rdqN = 0, rvqI = 0, rvqN = 0, rsqN = 0, wptrN = -1, rptrN = -1;
    const wStep = DualPortRam.wrongInlinePtr ? 0 : 1;
    this.whenSlots(() => {
      for (let k = 0; k < C; k++) {
        waddrI[k] = waddr[k]!.i;
        wdataI[k] = wdata[k]!.i;
      }
      for (let k = 0; k < R; k++) raddrI[k] = raddr[k]!.i;
      [wanyI, widxI, ranyI, ridxI, rdqN, rvqI, rvqN, rsqN] = [wany.i, widx.i, rany.i, ridx.i, rdq.n, rvq.i, rvq.n, rsq.n];
      if (wptr && rptr) [wptrN, rptrN] = [wptr.n, rptr.n];
    });

    // The array among the late reads (lateFault 'mem': left out).
    const lateMem = DualPortRam.lateFault === 'mem' ? [] : [mem];
    const access = this.seq(
      () => {
        const s = this.s;
        if (s[wanyI] === 1) {
          const k = s[widxI]!;
          const a = s[waddrI[k]!]!;
          if (a >= D) this.fail(`write client ${k}: address ${a} outside 0..${D - 1}`);
          mem.write(a, s[wdataI[k]!]!);
          // inline round-robin: the commit of arbiter_rr.ts (after a grant to k, k+1 first)
          if (wptrN >= 0) s[wptrN] = k + wStep === C ? 0 : k + wStep;
        }
        if (s[ranyI] === 1) {
          const k = s[ridxI]!;
          const a = s[raddrI[k]!]!;
          if (a >= D) this.fail(`read client ${k}: address ${a} outside 0..${D - 1}`);
          // mem.data holds the words before this edge's write: old data.
          s[rdqN] = mem.data[a]!;
          s[rvqN] = 1;
          s[rsqN] = k;
          if (rptrN >= 0) s[rptrN] = k + 1 === R ? 0 : k + 1;
          if (lateReads && this.wakeSink!.mode === 'activity') {
            // rvalid falls at the next edge unless a read is granted there. Its rise
            // (0 -> 1 at this edge) wakes this process there if the grant is out (the
            // read guard's late reads); a rvalid that stays 1 does not, so then a run.
            const next = this.cycleRef.cycle + 1;
            if (s[rvqI] === 0) {
              if (DualPortRam.lateFault !== 'rvalid') this.writeAt(rvq, next, 0);
            } else this.wakeAt(access, next);
          }
        } else {
          s[rvqN] = 0;
        }
      },
      // Not rvq: written here, never read (its own change only woke a run that
      // wrote it again; docs/kernel.md "Stop 21: Buzzard units").
      // With inlineRoundRobin it also moves the pointers: it runs at every
      // edge a grant is out (wany/rany/widx/ridx are among its reads) but a
      // grant held over edges to the same client with the same address and
      // data, which leaves the pointer where it is.
      // lateReads: each port's signals and the array only while its grant is out
      // at the edge; a grant wakes it on its rise (its fall changes nothing but
      // rvalid, which the timed write drops). A grant held over edges to the
      // same client with the same address (and data) and an unchanged array
      // does again what it did: no run.
      lateReads
        ? {
            reads: [],
            readsWhen: [
              { when: wany, bits: 1, rise: true, late: true, reads: [widx, ...waddr, ...wdata], mems: lateMem },
              { when: rany, bits: 1, rise: true, late: true, reads: [ridx, ...raddr, rvq], mems: lateMem },
            ],
            writes: inline ? [rdq, rvq, rsq, wptr!, rptr!] : [rdq, rvq, rsq],
            name: 'access',
          }
        : { reads: [wany, widx, ...waddr, ...wdata, rany, ridx, ...raddr, mem], ...(inline ? { writes: [rdq, rvq, rsq, wptr!, rptr!] } : {}), name: 'access' },
    );
  }
}

/** One port of the RAM for roundRobinPorts: its requests, grants, any and idx. */
interface RamPort {
  req: readonly Signal[];
  gnt: readonly Signal[];
  any: Signal;
  idx: Signal;
}

/**
 * Both ports' round-robin decisions inside the RAM (inlineRoundRobin): the
 * decide comb of arbiter_rr.ts on this unit's requests and its pointer
 * registers `wptr`, `rptr`, returned (the access process moves them); one
 * comb for the two ports, so a cycle in which both ports' requests change
 * costs one run. Never blocked, latency 0 (the RAM's ports, the header).
 */
function roundRobinPorts(m: Module, w: RamPort, r: RamPort): [Signal, Signal] {
  const ports = [w, r];
  const ptrs = [m.reg('wptr', bitsFor(w.req.length), 0), m.reg('rptr', bitsFor(r.req.length), 0)] as const;
  const sizes = ports.map((q) => q.req.length);
  const reqI = ports.map((q) => new Int32Array(q.req.length));
  const gntI = ports.map((q) => new Int32Array(q.req.length));
  const ptrI = new Int32Array(2);
  const anyI = new Int32Array(2);
  const idxI = new Int32Array(2);
  m.whenSlots(() => {
    ports.forEach((q, j) => {
      for (let k = 0; k < q.req.length; k++) {
        reqI[j]![k] = q.req[k]!.i;
        gntI[j]![k] = q.gnt[k]!.i;
      }
      [ptrI[j], anyI[j], idxI[j]] = [ptrs[j]!.i, q.any.i, q.idx.i];
    });
  });
  m.comb(
    () => {
      const s = m.s;
      // arbiter_rr.ts's decision, per port
      for (let j = 0; j < 2; j++) {
        const M = sizes[j]!;
        const rq = reqI[j]!;
        const gn = gntI[j]!;
        for (let k = 0; k < M; k++) s[gn[k]!] = 0;
        const win = roundRobinWinner(s, rq, M, s[ptrI[j]!]!);
        if (win >= 0) s[gn[win]!] = 1;
        s[anyI[j]!] = win >= 0 ? 1 : 0;
        s[idxI[j]!] = win >= 0 ? win : 0;
      }
    },
    { writes: [...w.gnt, w.any, w.idx, ...r.gnt, r.any, r.idx], reads: [...w.req, ...r.req, ...ptrs], name: 'decide' },
  );
  return [ptrs[0], ptrs[1]];
}
