/**
 * Testbenches for the Buzzard node ports and flow control unit
 * (test/buzzard/node_ports.test.ts, flow_control.test.ts).
 *
 * Designs (root modules):
 *  - OutBench: NodeOutputPort (n slots) → lib Crossbar (2n inputs × n+1
 *    outputs, the node's indices of DESIGN.md: slot j = input n+j-1, O_j;
 *    PBU inputs 0..n-1 tied idle) → optionally a FlowControlUnit pair per
 *    link (the sending section of this node, the receiving section at the
 *    neighbour) → the line observed by receiver models. Root inputs: the
 *    control-unit side of every slot and each receiver's block `blk{j}`.
 *  - InBench: NodeOutputPort slot 1 (n = 1) → Crossbar O_1 → NodeInputPort.
 *    Root inputs: slot 1's control-unit side and the input port's `pop`.
 *
 * Models (plain TypeScript, run between clock edges through a Lockstep that
 * drives a 'plain' and an 'activity' simulator together):
 *  - CuFeeder: a control-unit model that loads a slot's prefetch buffer with a
 *    packet's chunks (head 25/26, then 32-bit pairs, 16 for an odd last word)
 *    when the slot asks: idle{j} (a head) or refill{j}, optionally after a
 *    delay.
 *  - OnlineDecoder: a receiver's view of the line, bit by bit.
 *  - parsePacket: splits one connection's bits into fields and sync runs.
 */
import { Module, type Signal } from '../../rtl/kernel/index.ts';
import { Crossbar } from '../../rtl/lib/crossbar.ts';
import type { BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { geometry } from '../../rtl/buzzard/config.ts';
import { packPreheader, unpackPreheader, type PacketFields } from '../../rtl/buzzard/framing.ts';
import { FlowControlUnit } from '../../rtl/buzzard/flow_control_unit.ts';
import { NodeInputPort } from '../../rtl/buzzard/node_input_port.ts';
import { NodeOutputPort } from '../../rtl/buzzard/node_output_port.ts';
import { Lockstep } from '../lib/lockstep_sim.ts';

/** Crossbar connectivity of a node (DESIGN.md): PBU i (input i-1) → every O_j but O_i; slot j (input n+j-1) → O_j only. */
export function nodeConnectivity(n: number): (i: number, j: number) => boolean {
  return (i, j) => (i < n ? j !== i + 1 : j === i - n + 1);
}

function tieCrossbarInput(m: Module, x: Crossbar, i: number): void {
  m.tie(x.req[i]!, 0);
  m.tie(x.din[i]!, 0);
  m.tie(x.release[i]!, 0);
}

/** The control-unit side of one slot, as root inputs of a bench. */
export interface CuPorts {
  pfLoad: Signal;
  pfData: Signal;
  pfCount: Signal;
}

function cuInputs(m: Module, nop: NodeOutputPort, j: number): CuPorts {
  const sl = nop.slot(j);
  const pfLoad = m.input(`pfLoad${j}`);
  const pfData = m.input(`pfData${j}`, 32);
  const pfCount = m.input(`pfCount${j}`, 6);
  m.connect(pfLoad, sl.pfLoad);
  m.connect(pfData, sl.pfData);
  m.connect(pfCount, sl.pfCount);
  return { pfLoad, pfData, pfCount };
}

function wireSlot(m: Module, nop: NodeOutputPort, x: Crossbar, n: number, j: number): void {
  const sl = nop.slot(j);
  const k = n + j - 1;
  m.connect(sl.xreq, x.req[k]!);
  m.connect(sl.xout, x.din[k]!);
  m.connect(sl.xrelease, x.release[k]!);
  m.connect(x.gnt[k]!, sl.xgnt);
  m.connect(x.fc[k]!, sl.hold);
}

export class OutBench extends Module {
  readonly nop: NodeOutputPort;
  readonly xbar: Crossbar;
  readonly cu: CuPorts[] = [];
  /** blk[j-1]: the block of the receiver at the far end of link j (root input). */
  readonly blk: Signal[] = [];
  /** line[j-1]: the bit the receiver of link j sees. */
  readonly line: Signal[] = [];
  /** busy[j-1]: crossbar valid{j} (a packet is on link j). */
  readonly busy: Signal[] = [];
  /** gnt[j-1]: the crossbar grant to slot j. */
  readonly gnt: Signal[] = [];
  /** Per link: this node's FCU (sending section used) and the neighbour's (receiving section used). */
  readonly fcuNear: FlowControlUnit[] = [];
  readonly fcuFar: FlowControlUnit[] = [];

  constructor(readonly cfg: BuzzardConfig, opts: { fcu?: boolean } = {}) {
    super(null, 'bench');
    const n = cfg.n;
    const nop = (this.nop = new NodeOutputPort(this, 'nop', cfg));
    const x = (this.xbar = new Crossbar(this, 'xbar', { inputs: 2 * n, outputs: n + 1, width: 1, latency: cfg.arbiterLatency, policy: 'tree', connectivity: nodeConnectivity(n) }));
    for (let i = 0; i < n; i++) tieCrossbarInput(this, x, i);
    this.tie(x.blocked[0]!, 0);
    for (let j = 1; j <= n; j++) {
      this.cu.push(cuInputs(this, nop, j));
      wireSlot(this, nop, x, n, j);
      const blk = this.input(`blk${j}`);
      this.blk.push(blk);
      this.busy.push(x.valid[j]!);
      this.gnt.push(x.gnt[n + j - 1]!);
      if (opts.fcu) {
        const near = new FlowControlUnit(this, `fcu${j}`);
        const far = new FlowControlUnit(this, `nbr${j}`);
        this.fcuNear.push(near);
        this.fcuFar.push(far);
        // near: sending section on link j
        this.connect(x.dout[j]!, near.xbit);
        this.connect(x.valid[j]!, near.xbusy);
        this.connect(near.hold, x.blocked[j]!);
        this.connect(near.txBit, far.rxBit);
        this.connect(far.rxBlock, near.txBlock);
        // far: receiving section, block from the receiver model
        this.connect(blk, far.block);
        this.line.push(far.bit);
        // unused halves: the reverse link is idle
        this.tie(near.rxBit, 0);
        this.tie(near.block, 0);
        this.tie(far.xbit, 0);
        this.tie(far.xbusy, 0);
        this.tie(far.txBlock, 0);
      } else {
        this.connect(blk, x.blocked[j]!);
        this.line.push(x.dout[j]!);
      }
    }
  }
}

export class InBench extends Module {
  readonly nop: NodeOutputPort;
  readonly xbar: Crossbar;
  readonly nip: NodeInputPort;
  readonly cu: CuPorts;
  readonly pop: Signal;

  constructor(readonly cfg: BuzzardConfig) {
    super(null, 'bench');
    if (cfg.n !== 1) throw new RangeError('InBench: n must be 1');
    const nop = (this.nop = new NodeOutputPort(this, 'nop', cfg));
    const x = (this.xbar = new Crossbar(this, 'xbar', { inputs: 2, outputs: 2, width: 1, latency: cfg.arbiterLatency, policy: 'tree', connectivity: nodeConnectivity(1) }));
    tieCrossbarInput(this, x, 0);
    this.tie(x.blocked[0]!, 0);
    this.cu = cuInputs(this, nop, 1);
    wireSlot(this, nop, x, 1, 1);
    const nip = (this.nip = new NodeInputPort(this, 'nip', cfg));
    this.connect(x.dout[1]!, nip.inBit);
    this.connect(nip.block, x.blocked[1]!);
    const pop = (this.pop = this.input('pop'));
    this.connect(pop, nip.pop);
  }
}

// ------------------------------------------------------------------ models

export interface Chunk {
  data: number;
  count: number;
}

/** The prefetch loads of one packet (DESIGN.md pfData/pfCount layout; spec §8.4). */
export function chunksOf(p: PacketFields, lengthBits: number): Chunk[] {
  const headCount = 5 + lengthBits + 16;
  const out: Chunk[] = [{ data: packPreheader(p.contrary, p.port, p.len, lengthBits) * 65536 + p.dest, count: headCount }];
  for (let k = 0; k < p.words.length; k += 2) {
    if (k + 1 < p.words.length) out.push({ data: p.words[k]! * 65536 + p.words[k + 1]!, count: 32 });
    else out.push({ data: p.words[k]!, count: 16 });
  }
  return out;
}

/** Words a node input port pushes for a packet: destination, then the L words; last flag on the final one. */
export function fifoWordsOf(p: PacketFields): { word: number; last: boolean }[] {
  const all = [p.dest, ...p.words];
  return all.map((word, k) => ({ word, last: k === all.length - 1 }));
}

/**
 * Control-unit model for one slot: loads the next chunk when the prefetch is
 * empty and the slot asks (idle{j} for a head, refill{j}), after `delay()`
 * cycles counted from the first cycle of the request.
 */
export class CuFeeder<T extends Module> {
  readonly queue: Chunk[] = [];
  /** Cycles at which pfLoad was high, with the chunk loaded. */
  readonly loads: { cycle: number; chunk: Chunk }[] = [];
  private wait = -1;

  constructor(
    private readonly rig: Lockstep<T>,
    private readonly port: (b: T) => CuPorts,
    private readonly slot: (b: T) => { pfAvail: Signal; refill: Signal; idle: Signal },
    private readonly delay: () => number = () => 0,
  ) {}

  addPacket(p: PacketFields, lengthBits: number): void {
    this.queue.push(...chunksOf(p, lengthBits));
  }

  /** Before the clock edge of the current cycle: decide pfLoad. */
  drive(): void {
    const r = this.rig;
    const asks = r.peek((b) => this.slot(b).pfAvail) === 0 && (r.peek((b) => this.slot(b).refill) === 1 || r.peek((b) => this.slot(b).idle) === 1);
    let load = false;
    if (asks && this.queue.length > 0) {
      if (this.wait < 0) this.wait = this.delay();
      if (this.wait === 0) load = true;
      else this.wait--;
    } else this.wait = -1;
    if (load) {
      const c = this.queue.shift()!;
      r.poke((b) => this.port(b).pfData, c.data >>> 0);
      r.poke((b) => this.port(b).pfCount, c.count);
      r.poke((b) => this.port(b).pfLoad, 1);
      this.loads.push({ cycle: r.cycle, chunk: c });
      this.wait = -1;
    } else r.poke((b) => this.port(b).pfLoad, 0);
  }
}

/** A receiver's bit-by-bit view of the line (the same walk as the node input port's controller). */
export class OnlineDecoder {
  state: 'idle' | 'start' | 'pre' | 'ywait' | 'y1' | 'word' = 'idle';
  private left = 0;
  private words = 0;
  private val = 0;
  constructor(
    readonly lengthBits: number,
    readonly strict: boolean,
  ) {}
  /** In a field: the bit on the line now is a data bit (preheader, destination or word). */
  get inField(): boolean {
    return this.state === 'pre' || this.state === 'word';
  }
  feed(bit: number): void {
    switch (this.state) {
      case 'idle':
        if (bit === 1) this.state = 'start';
        break;
      case 'start':
        if (bit === 0) {
          this.state = 'pre';
          this.left = 5 + this.lengthBits;
          this.val = 0;
        }
        break;
      case 'pre':
        this.val = this.val * 2 + bit;
        if (--this.left === 0) {
          this.words = unpackPreheader(this.val, this.lengthBits).len;
          if (this.strict) this.state = 'ywait';
          else {
            this.state = 'word';
            this.left = 16;
          }
        }
        break;
      case 'ywait':
        if (bit !== 1) throw new Error('OnlineDecoder: expected a sync 1');
        this.state = 'y1';
        break;
      case 'y1':
        if (bit === 0) {
          this.state = 'word';
          this.left = 16;
        }
        break;
      case 'word':
        if (--this.left === 0) {
          if (this.words === 0) this.state = 'idle';
          else {
            this.words--;
            this.state = 'ywait';
          }
        }
        break;
    }
  }
}

/**
 * One packet's bits from its S1 on: the fields and the length of every sync
 * run of 1s (S1, the strict post-preheader Y1, then the Y1 before each word).
 */
export function parsePacket(bits: readonly number[], lengthBits: number, strict: boolean): { fields: PacketFields; runs: number[]; length: number } {
  let k = 0;
  const runs: number[] = [];
  const sync = (): void => {
    let r = 0;
    while (bits[k] === 1) {
      r++;
      k++;
    }
    if (r === 0 || bits[k] !== 0) throw new Error(`parsePacket: bad sync at bit ${k}`);
    k++;
    runs.push(r);
  };
  const read = (w: number): number => {
    let v = 0;
    for (let b = 0; b < w; b++) {
      const x = bits[k++];
      if (x === undefined) throw new Error('parsePacket: ends inside a field');
      v = v * 2 + x;
    }
    return v;
  };
  sync();
  const pre = unpackPreheader(read(5 + lengthBits), lengthBits);
  if (strict) sync();
  const dest = read(16);
  const words: number[] = [];
  for (let i = 0; i < pre.len; i++) {
    sync();
    words.push(read(16));
  }
  return { fields: { ...pre, dest, words }, runs, length: k };
}

/** Maximal runs of busy cycles: [first, last] cycle pairs. */
export function segments(busy: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  let start = -1;
  for (let t = 0; t <= busy.length; t++) {
    const b = busy[t] ?? 0;
    if (b === 1 && start < 0) start = t;
    if (b !== 1 && start >= 0) {
      out.push([start, t - 1]);
      start = -1;
    }
  }
  return out;
}


// ------------------------------------------------------------------ receivers

/** A receiver model on one link: decides its block before each clock edge, then sees the cycle's bit. */
export interface Receiver {
  /** Block for the current cycle (a register in hardware: decided from what was seen up to the last cycle). */
  decide(): number;
  /** After the block is poked: the bit on the line this cycle and whether the sender was granted this cycle. */
  observe(bit: number, gnt: number): void;
}

export const neverBlock = (): Receiver => ({ decide: () => 0, observe: () => undefined });

/**
 * Blocks for plan[m] cycles from the first cycle of the m-th sync point it
 * sees (S1 — known from the grant of the cycle before —, the strict
 * post-preheader Y1, every Y1), and randomly (`noise`) on cycles that carry
 * field bits or while the link is idle, where a sender must ignore it.
 */
export class SyncBlocker implements Receiver {
  readonly dec: OnlineDecoder;
  private epLeft = 0;
  private syncNext = false;
  private idx = 0;
  constructor(
    lengthBits: number,
    strict: boolean,
    private readonly plan: readonly number[],
    private readonly noise: (where: 'field' | 'idle') => boolean = () => false,
  ) {
    this.dec = new OnlineDecoder(lengthBits, strict);
  }
  decide(): number {
    if (this.epLeft > 0) {
      this.epLeft--;
      return 1;
    }
    if (this.syncNext || this.dec.state === 'ywait') {
      const k = this.plan[this.idx++] ?? 0;
      if (k > 0) {
        this.epLeft = k - 1;
        return 1;
      }
      return 0;
    }
    if (this.dec.inField) return this.noise('field') ? 1 : 0;
    if (this.dec.state === 'idle') return this.noise('idle') ? 1 : 0;
    return 0;
  }
  observe(bit: number, gnt: number): void {
    this.dec.feed(bit);
    this.syncNext = gnt === 1;
  }
}

/**
 * A packet buffer unit refusing contrary packets (DESIGN.md "Contrary
 * refusal"): when the C bit arrives as 1 and refusals are left, block is set
 * at the edge after it and kept until the line has dropped to 0 after the
 * preheader, then for `extra` more cycles (the CAM stays contrary-full).
 */
export class RefusingReceiver implements Receiver {
  private dec: OnlineDecoder;
  private mode: 'watch' | 'refusing' | 'after' = 'watch';
  private preLeft = 0;
  private left = 0;
  private sawS0 = false;
  /** Cycles (observe calls) at which the C bit of a refused packet arrived. */
  readonly refusedAt: number[] = [];
  private t = 0;
  constructor(
    private readonly lengthBits: number,
    private readonly strict: boolean,
    public refusals: number,
    private readonly extra: number,
  ) {
    this.dec = new OnlineDecoder(lengthBits, strict);
  }
  decide(): number {
    if (this.mode === 'refusing') return 1;
    if (this.mode === 'after') {
      if (this.left > 0) {
        this.left--;
        return 1;
      }
      this.mode = 'watch';
    }
    return 0;
  }
  observe(bit: number): void {
    const t = this.t++;
    if (this.mode === 'refusing') {
      if (this.preLeft > 0) this.preLeft--;
      else if (bit === 0) {
        this.mode = 'after';
        this.left = this.extra;
        this.dec = new OnlineDecoder(this.lengthBits, this.strict);
      }
      return;
    }
    if (this.mode === 'after') return;
    const isC = this.sawS0;
    this.sawS0 = false;
    const before = this.dec.state;
    this.dec.feed(bit);
    if (before === 'start' && this.dec.state === 'pre') this.sawS0 = true;
    if (isC && bit === 1 && this.refusals > 0) {
      this.refusals--;
      this.refusedAt.push(t);
      this.mode = 'refusing';
      this.preLeft = 5 + this.lengthBits - 1;
    }
  }
}

// ------------------------------------------------------------------ run loops

/** Per-cycle record of one slot and its link. */
export interface SlotTrace {
  line: number[];
  busy: number[];
  blk: number[];
  gnt: number[];
  hold: number[];
  rel: number[];
  refused: number[];
  done: number[];
  refill: number[];
  cnt: number[];
  state: number[];
  pfLoad: number[];
  pfAvail: number[];
}

export interface OutRun {
  rig: Lockstep<OutBench>;
  traces: SlotTrace[];
  feeders: CuFeeder<OutBench>[];
  cycles: number;
}

/**
 * Run an OutBench until every slot has sent its packets (or maxCycles):
 * per cycle, the control-unit models load prefetch buffers, the receivers
 * set their block, everything is recorded, then both simulators step.
 */
export function runOut(
  cfg: BuzzardConfig,
  o: { fcu?: boolean; packets: readonly (readonly PacketFields[])[]; receivers?: Receiver[]; delays?: (() => number)[]; maxCycles?: number },
): OutRun {
  const n = cfg.n;
  const lb = geometry(cfg).lengthBits;
  const rig = new Lockstep(() => new OutBench(cfg, { fcu: o.fcu }));
  const feeders = Array.from({ length: n }, (_, k) => new CuFeeder(rig, (b: OutBench) => b.cu[k]!, (b: OutBench) => b.nop.slot(k + 1), o.delays?.[k]));
  o.packets.forEach((ps, k) => ps.forEach((p) => feeders[k]!.addPacket(p, lb)));
  const receivers = o.receivers ?? Array.from({ length: n }, neverBlock);
  const traces: SlotTrace[] = Array.from({ length: n }, () => ({ line: [], busy: [], blk: [], gnt: [], hold: [], rel: [], refused: [], done: [], refill: [], cnt: [], state: [], pfLoad: [], pfAvail: [] }));
  const max = o.maxCycles ?? 20000;
  let quiet = 0;
  let t = 0;
  for (; t < max && quiet < 4; t++) {
    for (const f of feeders) f.drive();
    for (let k = 0; k < n; k++) rig.poke((b) => b.blk[k]!, receivers[k]!.decide());
    let allIdle = true;
    for (let k = 0; k < n; k++) {
      const tr = traces[k]!;
      const sl = (b: OutBench) => b.nop.slot(k + 1);
      const bit = rig.peek((b) => b.line[k]!);
      const gnt = rig.peek((b) => b.gnt[k]!);
      tr.line.push(bit);
      tr.busy.push(rig.peek((b) => b.busy[k]!));
      tr.blk.push(rig.peek((b) => b.blk[k]!));
      tr.gnt.push(gnt);
      tr.hold.push(rig.peek((b) => sl(b).hold));
      tr.rel.push(rig.peek((b) => sl(b).xrelease));
      tr.refused.push(rig.peek((b) => sl(b).refused));
      tr.done.push(rig.peek((b) => sl(b).pktDone));
      tr.refill.push(rig.peek((b) => sl(b).refill));
      tr.cnt.push(rig.peek((b) => sl(b).cnt));
      tr.state.push(rig.peek((b) => sl(b).state));
      tr.pfLoad.push(rig.peek((b) => b.cu[k]!.pfLoad));
      tr.pfAvail.push(rig.peek((b) => sl(b).pfAvail));
      receivers[k]!.observe(bit, gnt);
      if (feeders[k]!.queue.length > 0 || rig.peek((b) => sl(b).idle) === 0) allIdle = false;
    }
    quiet = allIdle ? quiet + 1 : 0;
    rig.step();
  }
  return { rig, traces, feeders, cycles: t };
}

export interface InTrace {
  line: number[];
  block: number[];
  count: number[];
  state: number[];
  push: number[];
  pop: number[];
  busy: number[];
}

export interface InRun {
  rig: Lockstep<InBench>;
  trace: InTrace;
  popped: { word: number; last: boolean }[];
  cycles: number;
}

/**
 * Run an InBench: slot 1 sends `packets` (control-unit model `delay`), the
 * control-unit drain model pops the input port's FIFO when `popNow(t)` says
 * so and the FIFO is not empty. Stops when everything sent has been popped.
 */
export function runIn(cfg: BuzzardConfig, o: { packets: readonly PacketFields[]; popNow: (t: number) => boolean; delay?: () => number; maxCycles?: number }): InRun {
  const lb = geometry(cfg).lengthBits;
  const rig = new Lockstep(() => new InBench(cfg));
  const feeder = new CuFeeder(rig, (b: InBench) => b.cu, (b: InBench) => b.nop.slot(1), o.delay);
  for (const p of o.packets) feeder.addPacket(p, lb);
  const expectWords = o.packets.reduce((a, p) => a + 1 + p.words.length, 0);
  const trace: InTrace = { line: [], block: [], count: [], state: [], push: [], pop: [], busy: [] };
  const popped: { word: number; last: boolean }[] = [];
  const max = o.maxCycles ?? 50000;
  let t = 0;
  for (; t < max && popped.length < expectWords; t++) {
    feeder.drive();
    const pop = rig.peek((b) => b.nip.empty) === 0 && o.popNow(t) ? 1 : 0;
    rig.poke((b) => b.pop, pop);
    if (pop) popped.push({ word: rig.peek((b) => b.nip.dout), last: rig.peek((b) => b.nip.doutLast) === 1 });
    trace.pop.push(pop);
    trace.line.push(rig.peek((b) => b.nip.inBit));
    trace.block.push(rig.peek((b) => b.nip.block));
    trace.count.push(rig.peek((b) => b.nip.count));
    trace.state.push(rig.peek((b) => b.nip.state));
    trace.push.push(rig.peek((b) => b.nip.fifo.push));
    trace.busy.push(rig.peek((b) => b.xbar.valid[1]!));
    rig.step();
  }
  return { rig, trace, popped, cycles: t };
}
