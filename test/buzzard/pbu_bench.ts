/**
 * Testbench for the Buzzard packet buffer unit (rtl/buzzard/packet_buffer_unit.ts).
 *
 * Root module `bench`:
 *  - `up`: an upstream sender model (a node output port slot or an upstream
 *    PBU output as seen on the wire). It plays a stream of annotated bits
 *    from a kernel memory: packets built with framing.encodePacket, idle gaps,
 *    and the flow control of DESIGN.md "Framing": it samples hold (= the
 *    PBU's block) during S1 and every Y1 and stretches the 1 while held; a
 *    sync can be stretched by extra cycles on purpose (a source stall); a
 *    contrary packet samples hold during its last preheader bit (strict: the
 *    post-preheader Y1) and aborts when held ("refused": the line returns to 0
 *    the next cycle, the packet is dropped, `refusals` counts it).
 *  - `pbu`: PacketBufferUnit i of node `node` (crossbar input i-1, RAM client i-1).
 *  - `xbar`: the lib Crossbar, 2n inputs, n+1 outputs, Buzzard connectivity
 *    (PBU k+1 → every output except k+1; slot j → O_j); all inputs but the
 *    PBU's are idle (tied 0).
 *  - `ram`: the BufferRam; the other clients are tied idle.
 *  - root inputs `blk0..blkn`: the downstream receivers' block status
 *    (crossbar blocked{j}), poked by the test.
 * The receivers are the recorder: `PbuRun` records every output line per
 * cycle and decodes it with framing.decodeStream.
 */
import { nodeCrossbar, wirePbu } from '../../rtl/buzzard/node.ts';
import { BufferRam } from '../../rtl/buzzard/buffer_ram.ts';
import { checkConfig, geometry, type BuzzardConfig, type BuzzardGeometry } from '../../rtl/buzzard/config.ts';
import { encodePacket, type PacketFields } from '../../rtl/buzzard/framing.ts';
import { PacketBufferUnit } from '../../rtl/buzzard/packet_buffer_unit.ts';
import { Module, Simulator, type Memory, type Signal, type SimMode } from '../../rtl/kernel/index.ts';
import { Crossbar } from '../../rtl/lib/crossbar.ts';

// Stream entry: bit | kind << 1 | param << 4.
export const K_DATA = 0; // drive `bit`
export const K_START = 1; // S1: 1, stretched while hold; param = packet index
export const K_SYNC = 2; // Y1: 1, param extra cycles, then stretched while hold
export const K_CHK = 3; // data bit at which a contrary packet checks for refusal (non-strict)
export const K_SYNCCHK = 4; // strict post-preheader Y1 of a contrary packet: hold = refused
export const K_GAP = 5; // param cycles of idle 0
export const K_END = 7; // end of the stream: idle 0

const entry = (bit: number, kind: number, param = 0): number => bit + kind * 2 + param * 16;

export class Sender extends Module {
  readonly line: Signal;
  readonly hold: Signal;
  readonly stream: Memory;
  readonly ptr: Signal;
  readonly refusals: Signal;
  readonly curPkt: Signal;
  constructor(parent: Module, name: string, depth: number) {
    super(parent, name);
    const line = (this.line = this.output('line'));
    const hold = (this.hold = this.input('hold'));
    const mem = (this.stream = this.memory('stream', 28, depth, { init: entry(0, K_END) }));
    const ptr = (this.ptr = this.reg('ptr', 20, 0));
    const cnt = this.reg('cnt', 16, 0);
    const zero = this.reg('zero', 1, 0);
    const refusals = (this.refusals = this.reg('refusals', 8, 0));
    const curPkt = (this.curPkt = this.reg('curPkt', 16, 0));
    const kindOf = (e: number): number => (e >>> 1) & 7;
    this.comb(
      () => {
        const s = this.s;
        const e = mem.data[s[ptr.i]!]!;
        const k = kindOf(e);
        s[line.i] = s[zero.i] === 1 ? 0 : k === K_START || k === K_SYNC || k === K_SYNCCHK ? 1 : k === K_DATA || k === K_CHK ? e & 1 : 0;
      },
      { writes: [line], reads: [ptr, zero, mem], name: 'line' },
    );
    this.seq(
      () => {
        const s = this.s;
        if (s[zero.i] === 1) {
          s[zero.n] = 0;
          return;
        }
        const p = s[ptr.i]!;
        const e = mem.data[p]!;
        const k = kindOf(e);
        const param = Math.floor(e / 16);
        const h = s[hold.i]!;
        const c = s[cnt.i]!;
        const abort = (): void => {
          s[refusals.n] = s[refusals.i]! + 1;
          let q = p + 1;
          while (q < depth && kindOf(mem.data[q]!) !== K_START && kindOf(mem.data[q]!) !== K_END) q++;
          s[ptr.n] = q;
          s[zero.n] = 1;
        };
        switch (k) {
          case K_DATA:
            s[ptr.n] = p + 1;
            break;
          case K_START:
            s[curPkt.n] = param;
            if (h === 0) s[ptr.n] = p + 1;
            break;
          case K_SYNC:
            if (c < param) s[cnt.n] = c + 1;
            else if (h === 0) {
              s[cnt.n] = 0;
              s[ptr.n] = p + 1;
            }
            break;
          case K_CHK:
          case K_SYNCCHK:
            if (h === 1) abort();
            else s[ptr.n] = p + 1;
            break;
          case K_GAP:
            if (c + 1 < param) s[cnt.n] = c + 1;
            else {
              s[cnt.n] = 0;
              s[ptr.n] = p + 1;
            }
            break;
          default:
            break;
        }
      },
      { name: 'play' },
    );
  }
}

export interface SendItem {
  pkt: PacketFields;
  /** Idle cycles before the packet's S1. */
  gap?: number;
  /** Extra cycles of the Y1 before word w (0-based over the L words), a source stall. */
  stretch?: Readonly<Record<number, number>>;
}

/** The annotated stream of `items` for the sender memory. */
export function buildStream(items: readonly SendItem[], g: BuzzardGeometry, strict: boolean): number[] {
  const out: number[] = [];
  const pre = g.preheaderBits;
  items.forEach((it, idx) => {
    if (it.gap) out.push(entry(0, K_GAP, it.gap));
    const bits = encodePacket(it.pkt, g.lengthBits, strict);
    const head = 2 + pre + (strict ? 2 : 0) + 16;
    const contrary = it.pkt.contrary === 1;
    bits.forEach((b, k) => {
      if (k === 0) out.push(entry(1, K_START, idx));
      else if (k === 1 + pre && contrary && !strict) out.push(entry(b, K_CHK));
      else if (strict && k === 2 + pre) out.push(entry(1, contrary ? K_SYNCCHK : K_SYNC));
      else if (k >= head && (k - head) % 18 === 0) out.push(entry(1, K_SYNC, it.stretch?.[(k - head) / 18] ?? 0));
      else out.push(entry(b, K_DATA));
    });
  });
  out.push(entry(0, K_END));
  return out;
}

export class PbuBench extends Module {
  readonly cfg: BuzzardConfig;
  readonly geom: BuzzardGeometry;
  readonly pbu: PacketBufferUnit;
  readonly xbar: Crossbar;
  readonly ram: BufferRam;
  readonly up: Sender;
  readonly blk: Signal[];
  constructor(config: Partial<BuzzardConfig>, i: number, node: number, streamDepth: number) {
    super(null, 'bench');
    const cfg = (this.cfg = checkConfig(config));
    this.geom = geometry(cfg);
    const n = cfg.n;
    const pbu = (this.pbu = new PacketBufferUnit(this, 'pbu', cfg, i, node));
    const xbar = (this.xbar = nodeCrossbar(this, cfg));
    const ram = (this.ram = new BufferRam(this, 'ram', cfg));
    const up = (this.up = new Sender(this, 'up', streamDepth));
    this.connect(up.line, pbu.inBit);
    this.connect(pbu.block, up.hold);
    const k = i - 1;
    for (let q = 0; q < 2 * n; q++) {
      if (q === k) continue;
      this.tie(xbar.req[q]!, 0);
      this.tie(xbar.din[q]!, 0);
      this.tie(xbar.release[q]!, 0);
    }
    this.blk = [];
    for (let j = 0; j <= n; j++) {
      const b = this.input(`blk${j}`);
      this.connect(b, xbar.blocked[j]!);
      this.blk.push(b);
    }
    for (let q = 0; q < n; q++) {
      if (q === k) continue;
      this.tie(ram.wreq[q]!, 0);
      this.tie(ram.waddr[q]!, 0);
      this.tie(ram.wdata[q]!, 0);
      this.tie(ram.rreq[q]!, 0);
      this.tie(ram.raddr[q]!, 0);
    }
    wirePbu(this, pbu, xbar, ram);
  }
}

/** Per-cycle records (index = cycle). */
export interface Trace {
  inBit: number[];
  block: number[];
  /** dout{j} of the crossbar: what receiver j sees. */
  out: number[][];
  valid: number[][];
  inState: number[];
  inCnt: number[];
  outState: number[];
  freeRows: number[];
  camUsed: number[];
  camFreeCount: number[];
  reqReg: number[];
  xgnt: number[];
  xrelease: number[];
  wgnt: number[];
  waddr: number[];
  rgnt: number[];
  raddr: number[];
  inAddr: number[];
  outAddr: number[];
  inSlot: number[];
  refusals: number[];
  curPkt: number[];
  contraryFull: number[];
  camFlagAnd: number[];
}

export interface RunOptions {
  cfg: Partial<BuzzardConfig>;
  i: number;
  node: number;
  mode: SimMode;
  items: readonly SendItem[];
  /** [cycle, output j, value]: the receiver block status from that cycle on. */
  blocks?: readonly (readonly [number, number, number])[];
  /** Fill the PBU's RAM region with this word first (to catch reads of unwritten words). */
  poison?: number;
}

export class PbuRun {
  readonly bench: PbuBench;
  readonly sim: Simulator;
  readonly trace: Trace;
  private readonly pokes: Map<number, [number, number][]> = new Map();
  private readonly rec: () => void;
  constructor(readonly opts: RunOptions) {
    const g = geometry(checkConfig(opts.cfg));
    const stream = buildStream(opts.items, g, checkConfig(opts.cfg).strictFraming);
    const bench = (this.bench = new PbuBench(opts.cfg, opts.i, opts.node, stream.length + 4));
    const sim = (this.sim = new Simulator(bench, { mode: opts.mode }));
    stream.forEach((e, a) => sim.pokeMem(bench.up.stream, a, e));
    if (opts.poison !== undefined) {
      const rg = bench.ram.geom;
      const base = (opts.i - 1) * rg.camHeight * rg.slotWords;
      for (let a = base; a < base + rg.camHeight * rg.slotWords; a++) sim.pokeMem(bench.ram.mem, a, opts.poison);
    }
    for (const [c, j, v] of opts.blocks ?? []) {
      const l = this.pokes.get(c) ?? [];
      l.push([j, v]);
      this.pokes.set(c, l);
    }
    const n = bench.cfg.n;
    const t: Trace = (this.trace = {
      inBit: [],
      block: [],
      out: Array.from({ length: n + 1 }, () => []),
      valid: Array.from({ length: n + 1 }, () => []),
      inState: [],
      inCnt: [],
      outState: [],
      freeRows: [],
      camUsed: [],
      camFreeCount: [],
      reqReg: [],
      xgnt: [],
      xrelease: [],
      wgnt: [],
      waddr: [],
      rgnt: [],
      raddr: [],
      inAddr: [],
      outAddr: [],
      inSlot: [],
      refusals: [],
      curPkt: [],
      contraryFull: [],
      camFlagAnd: [],
    });
    const p = bench.pbu;
    const x = bench.xbar;
    const sig = (name: string): Signal => sim.signal(`pbu.${name}`);
    const inCnt = sig('inCnt');
    const camUsed = sim.signal('pbu.cam.used');
    const contraryFull = sig('contraryFull');
    const camFreeCount = sig('camFreeCount');
    const camFlagAnd = p.cam.flagAnd;
    this.rec = () => {
      t.inBit.push(sim.peek(p.inBit));
      t.block.push(sim.peek(p.block));
      for (let j = 0; j <= n; j++) {
        t.out[j]!.push(sim.peek(x.dout[j]!));
        t.valid[j]!.push(sim.peek(x.valid[j]!));
      }
      t.inState.push(sim.peek(p.inState));
      t.inCnt.push(sim.peek(inCnt));
      t.outState.push(sim.peek(p.outState));
      t.freeRows.push(sim.peek(p.freeRows));
      t.camUsed.push(sim.peek(camUsed));
      t.camFreeCount.push(sim.peek(camFreeCount));
      t.reqReg.push(sim.peek(p.reqReg));
      t.xgnt.push(sim.peek(p.xgnt));
      t.xrelease.push(sim.peek(p.xrelease));
      t.wgnt.push(sim.peek(p.wgnt));
      t.waddr.push(sim.peek(p.waddr));
      t.rgnt.push(sim.peek(p.rgnt));
      t.raddr.push(sim.peek(p.raddr));
      t.inAddr.push(sim.peek(p.inAddr));
      t.outAddr.push(sim.peek(p.outAddr));
      t.inSlot.push(sim.peek(p.inSlot));
      t.refusals.push(sim.peek(bench.up.refusals));
      t.curPkt.push(sim.peek(bench.up.curPkt));
      t.contraryFull.push(sim.peek(contraryFull));
      t.camFlagAnd.push(sim.peek(camFlagAnd));
    };
    this.applyPokes(0);
    this.rec();
  }

  private applyPokes(c: number): void {
    const l = this.pokes.get(c);
    if (!l) return;
    for (const [j, v] of l) this.sim.poke(this.bench.blk[j]!, v);
  }

  /** Step one cycle at a time (pokes first), recording every cycle. */
  run(cycles: number): this {
    for (let k = 0; k < cycles; k++) {
      this.sim.step(1);
      this.applyPokes(this.sim.cycle);
      this.rec();
    }
    return this;
  }

  /** Run until the sender has played everything and the PBU is empty and idle (or maxCycles). */
  runToQuiet(maxCycles: number, settle = 8): this {
    const H = this.bench.cfg.camHeight;
    const lastPoke = Math.max(-1, ...this.pokes.keys());
    let quiet = 0;
    for (let k = 0; k < maxCycles && quiet < settle; k++) {
      this.run(1);
      const t = this.trace;
      const c = t.inBit.length - 1;
      const sender = this.bench.up;
      const done = this.sim.peekMem(sender.stream, this.sim.peek(sender.ptr)) === entry(0, K_END);
      if (done && c > lastPoke && t.freeRows[c] === H && t.camUsed[c] === 0 && t.outState[c] === 0 && t.inState[c] === 2) quiet++;
      else quiet = 0;
    }
    return this;
  }

  get cycles(): number {
    return this.trace.inBit.length - 1;
  }
}

/** Index of the first 1 in `bits` at or after `from`, or -1. */
export function firstOne(bits: readonly number[], from = 0): number {
  for (let k = from; k < bits.length; k++) if (bits[k] === 1) return k;
  return -1;
}
