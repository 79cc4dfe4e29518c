/**
 * Control-unit testbench: several Buzzard nodes, each a real ControlUnit +
 * NodeMemory + CpuStandIn (kernel modules), surrounded by BEHAVIOURAL
 * stand-ins written in TypeScript for the units being built elsewhere
 * (DESIGN.md "Interfaces between units"):
 *
 *  - SlotModel: one node-output-port slot. It consumes pfLoads as the slot
 *    of spec §8.4 would: a head (pfCount 25/26) starts a packet, which
 *    arbitrates for a random delay, then shifts S1 S0, the preheader, the
 *    destination, and "10" + 16 bits per word at one bit per cycle, with
 *    random holds at the sync points and a prefetch underrun stretching the
 *    sync 1; refill rises when the counter reaches 23 (or when a 16-bit
 *    chunk is taken) and is cleared by the next pfLoad; pktDone pulses after
 *    the last bit; a contrary head may be refused (random) at its last
 *    preheader bit and is retried from a header copy. It THROWS on every
 *    control-unit protocol error: a pfLoad while pfAvail, a pfLoad without a
 *    refill request or idle slot, a data chunk where a head is due, a head
 *    inside a packet, chunks that do not add up to the head's L.
 *  - Network: a finished packet goes, after a random delay, to the node
 *    input FIFO of its destination (a broadcast copy from slot j to every
 *    bench node in slot j's binomial subtree, A11), one packet at a time per
 *    FIFO (the crossbar's O_0), one 16-bit word per `wordCycles` cycles,
 *    never into a full FIFO (the port blocks).
 *  - FifoModel: the node input port's 17-bit FIFO (dout, doutLast, count,
 *    empty registered; pop from the control unit at the edge).
 *  - AtuModel: the arrival tracking unit with the readings of
 *    rtl/buzzard/arrival_tracking_unit.ts (combinational search on key, ops at
 *    the edge, ok registered, combinational interrupt on a CPU read inside
 *    [next, last] of an arriving entry); throws on protocol errors (duplicate
 *    arriving key, update/purge miss).
 *
 * The models are TypeScript state updated once per cycle around
 * `sim.step()`; their outputs are root inputs of the bench design, poked only
 * when they change, so both simulator modes see identical stimuli.
 */
import { checkConfig, geometry, type BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { ControlUnit } from '../../rtl/buzzard/control_unit.ts';
import { CpuStandIn, issue, read } from '../../rtl/buzzard/cpu_stand_in.ts';
import { BROADCAST_TAG, unpackPreheader } from '../../rtl/buzzard/framing.ts';
import { type CuLayoutOptions, type WordMemory } from '../../rtl/buzzard/header_blocks.ts';
import { NodeMemory } from '../../rtl/buzzard/node_memory.ts';
import { Module, Simulator, type SimMode, type Signal } from '../../rtl/kernel/index.ts';

export interface BenchOptions {
  cfg?: Partial<BuzzardConfig>;
  /** Node numbers present in the bench. */
  nodes: number[];
  mode: SimMode;
  layout?: CuLayoutOptions;
  seed?: number;
  /** Cycles from a packet's last bit to its availability at the destination FIFO. */
  netDelay?: [number, number];
  /** Cycles per 16-bit word pushed into a destination FIFO (18 = link rate). */
  wordCycles?: number;
  /** Slot arbitration delay range (cycles). */
  arbDelay?: [number, number];
  /** Percent chance a sync point is held one more cycle. */
  holdPct?: number;
  /** Percent chance a contrary head is refused. */
  refusePct?: number;
  progDepth?: number;
}

export interface SentPacket {
  src: number;
  slot: number;
  contrary: number;
  port: number;
  len: number;
  dest: number;
  words: number[];
  doneAt: number;
}

/** Small deterministic PRNG (mulberry32). */
export class Rng {
  private a: number;
  constructor(seed: number) {
    this.a = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    let t = (this.a = (this.a + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pct(p: number): boolean {
    return p > 0 && this.next() * 100 < p;
  }
}

class BenchRoot extends Module {
  readonly cus = new Map<number, ControlUnit>();
  readonly mems = new Map<number, NodeMemory>();
  readonly cpus = new Map<number, CpuStandIn>();
  /** Root inputs driving each CU's inputs from the models, by CU input name. */
  readonly ext = new Map<number, Map<string, Signal>>();
  constructor(cfg: Partial<BuzzardConfig>, nodes: number[], layout: CuLayoutOptions, progDepth: number) {
    super(null, 'bench');
    const c = checkConfig(cfg);
    for (const id of nodes) {
      const cu = new ControlUnit(this, `cu${id}`, c, id, layout);
      const mem = new NodeMemory(this, `mem${id}`, c);
      const cpu = new CpuStandIn(this, `cpu${id}`, { progDepth, readDepth: 256 });
      this.cus.set(id, cu);
      this.mems.set(id, mem);
      this.cpus.set(id, cpu);
      this.connect(cu.memAddr, mem.cuAddr);
      this.connect(cu.memRe, mem.cuRe);
      this.connect(cu.memWe, mem.cuWe);
      this.connect(cu.memWdata, mem.cuWdata);
      this.connect(cu.memRdata, mem.cuRdata);
      this.connect(cu.memDone, mem.cuDone);
      this.connect(cpu.cpuAddr, mem.cpuAddr);
      this.connect(cpu.cpuRe, mem.cpuRe);
      this.connect(cpu.cpuRdata, mem.cpuRdata);
      this.connect(cpu.cpuDone, mem.cpuDone);
      this.connect(cpu.instrValid, cu.instrValid);
      this.connect(cpu.instrOp, cu.instrOp);
      this.connect(cpu.instrAddr, cu.instrAddr);
      this.connect(cu.instrAck, cpu.instrAck);
      this.connect(cu.cpuIrq, cpu.irq);
      const ext = new Map<string, Signal>();
      for (const sig of cu.signals) {
        if (sig.kind !== 'in') continue;
        if (sig.name.startsWith('mem') || sig.name.startsWith('instr')) continue;
        const x = this.input(`n${id}_${sig.name}`, sig.width);
        this.connect(x, sig);
        ext.set(sig.name, x);
      }
      this.ext.set(id, ext);
    }
  }
}

type SlotState = 'IDLE' | 'ARB' | 'S1' | 'S0' | 'PRE' | 'DEST' | 'Y1' | 'Y0' | 'DATA';

class SlotModel {
  pfAvail = 0;
  refill = 0;
  pktDone = 0;
  refused = 0;
  pfData = 0;
  pfCount = 0;
  state: SlotState = 'IDLE';
  cnt = 0;
  wait = 0;
  hdr = 0;
  wordsLeft = 0;
  chunk: number[] = [];
  bits = 0;
  cur: { contrary: number; port: number; len: number; dest: number; words: number[] } | null = null;
  underruns = 0;
  holds = 0;
  refusals = 0;
  constructor(
    readonly bench: CuBench,
    readonly node: number,
    readonly j: number,
  ) {}
  get idle(): number {
    return this.state === 'IDLE' && this.pfAvail === 0 ? 1 : 0;
  }
  private err(msg: string): never {
    throw new Error(`cycle ${this.bench.sim.cycle}: node ${this.node} slot ${this.j}: ${msg}`);
  }
  /** Clock edge: inputs of this cycle from the control unit. */
  edge(pfLoad: number, pfData: number, pfCount: number): void {
    const b = this.bench;
    const headCount = b.geo.preheaderBits + 16;
    const pfAvail = this.pfAvail; // current
    let pfAvailN = pfAvail;
    let refillN = this.refill;
    this.pktDone = 0;
    this.refused = 0;
    if (pfLoad) {
      if (pfAvail) this.err('pfLoad while the prefetch buffer is full');
      if (!this.refill && !this.idle) this.err('pfLoad without a refill request on a busy slot');
      if (pfCount !== headCount && pfCount !== 32 && pfCount !== 16) this.err(`pfCount ${pfCount}`);
      pfAvailN = 1;
      refillN = 0;
    }
    const hold = (): boolean => {
      if (b.rng.pct(b.opts.holdPct ?? 0)) {
        this.holds++;
        return true;
      }
      return false;
    };
    switch (this.state) {
      case 'IDLE':
        if (pfAvail) {
          if (this.pfCount !== headCount) this.err(`a ${this.pfCount}-bit data chunk where a head is due`);
          this.hdr = this.pfData;
          const pre = unpackPreheader(this.pfData >>> 16, b.geo.lengthBits);
          this.cur = { contrary: pre.contrary, port: pre.port, len: pre.len, dest: this.pfData & 0xffff, words: [] };
          this.wordsLeft = pre.len;
          this.cnt = headCount;
          pfAvailN = 0;
          refillN = 0;
          this.state = 'ARB';
          this.wait = b.rng.int(...(b.opts.arbDelay ?? [0, 6]));
        }
        break;
      case 'ARB':
        if (this.wait > 0) this.wait--;
        else this.state = 'S1';
        break;
      case 'S1':
        if (!hold()) this.state = 'S0';
        break;
      case 'S0':
        this.state = 'PRE';
        break;
      case 'PRE':
        this.cnt--;
        if (this.cnt === 23 && !pfAvail && !pfLoad) refillN = 1;
        if (this.cnt === 16) {
          if (this.cur!.contrary && b.rng.pct(b.opts.refusePct ?? 0)) {
            this.refused = 1;
            this.refusals++;
            this.cnt = headCount;
            this.state = 'ARB';
            this.wait = b.rng.int(2, 12);
          } else this.state = 'DEST';
        }
        break;
      case 'DEST':
        this.cnt--;
        if (this.cnt === 0) this.state = 'Y1';
        break;
      case 'Y1': {
        if (this.cnt === 0 && pfAvail) {
          if (this.pfCount === headCount) this.err('a head inside a packet');
          if (this.pfCount === 32 && this.wordsLeft < 2) this.err(`a 32-bit chunk with ${this.wordsLeft} word(s) of the packet left`);
          this.chunk = this.pfCount === 32 ? [this.pfData >>> 16, this.pfData & 0xffff] : [this.pfData & 0xffff];
          this.cnt = this.pfCount;
          pfAvailN = pfLoad ? 1 : 0;
          if (this.pfCount < 24 && !pfLoad) refillN = 1;
        }
        const ready = this.cnt > 0;
        if (!ready) this.underruns++;
        if (hold()) break;
        if (ready) this.state = 'Y0';
        break;
      }
      case 'Y0':
        this.state = 'DATA';
        this.bits = 16;
        break;
      case 'DATA':
        this.cnt--;
        this.bits--;
        if (this.cnt === 23 && !pfAvail && !pfLoad) refillN = 1;
        if (this.bits === 0) {
          this.cur!.words.push(this.chunk.shift()!);
          this.wordsLeft--;
          if (this.wordsLeft === 0) {
            if (this.cnt !== 0) this.err('chunk sizes do not add up to the L words of the head');
            this.pktDone = 1;
            this.state = 'IDLE';
            b.packetDone(this.node, this.j, this.cur!);
            this.cur = null;
          } else this.state = 'Y1';
        }
        break;
    }
    if (pfLoad) {
      this.pfData = pfData;
      this.pfCount = pfCount;
    }
    this.pfAvail = pfAvailN;
    this.refill = refillN;
  }
}

interface FifoWord {
  w: number;
  last: boolean;
}

class NodeModels {
  readonly slots: SlotModel[];
  readonly fifo: FifoWord[] = [];
  /** Packets (as word lists) waiting for this node's FIFO, with their ready time. */
  readonly incoming: { at: number; words: FifoWord[] }[] = [];
  feeding: FifoWord[] | null = null;
  nextPushAt = 0;
  // ATU
  readonly atu: { state: 0 | 1 | 2; key: number; next: number; last: number }[];
  atuOk = 0;
  /** CU memory reads that completed, by address (fetch counting). */
  readonly reads = new Map<number, number>();
  constructor(
    readonly bench: CuBench,
    readonly id: number,
    m: number,
  ) {
    this.slots = Array.from({ length: bench.cfg.n }, (_, k) => new SlotModel(bench, id, k + 1));
    this.atu = Array.from({ length: m }, () => ({ state: 0 as const, key: 0, next: 0, last: 0 }));
  }
  private atuFind(key: number): number {
    return this.atu.findIndex((e) => e.state === 2 && e.key === key);
  }
  /** Poke the models' outputs for the current cycle (registered state + combinational ATU). */
  apply(): void {
    const b = this.bench;
    const cu = b.cu(this.id);
    const sim = b.sim;
    const set = (name: string, v: number): void => b.set(this.id, name, v);
    this.slots.forEach((sl, k) => {
      set(`pfAvail${k + 1}`, sl.pfAvail);
      set(`refill${k + 1}`, sl.refill);
      set(`pktDone${k + 1}`, sl.pktDone);
      set(`refused${k + 1}`, sl.refused);
      set(`idle${k + 1}`, sl.idle);
    });
    const h = this.fifo[0];
    set('inDout', h ? h.w : 0);
    set('inLast', h && h.last ? 1 : 0);
    set('inCount', this.fifo.length);
    set('inEmpty', this.fifo.length === 0 ? 1 : 0);
    const rs = sim.s; // registers need no settling
    const key = rs[cu.atuKey.i]!;
    const hi = key & 0x4000 ? -1 : this.atuFind(key);
    set('atuHit', hi >= 0 ? 1 : 0);
    set('atuHitIdx', hi >= 0 ? hi : 0);
    set('atuHitNext', hi >= 0 ? this.atu[hi]!.next : 0);
    set('atuHitLast', hi >= 0 ? this.atu[hi]!.last : 0);
    set('atuFreeCount', this.atu.filter((e) => e.state === 0).length);
    set('atuOk', this.atuOk);
    const cpu = b.cpu(this.id);
    let irq = 0;
    if (rs[cpu.cpuRe.i]) {
      const a = rs[cpu.cpuAddr.i]!;
      // the CPU reads 32-bit words: compare the word's 4 bytes (ATU option cpuReadBytes = 4)
      if (this.atu.some((e) => e.state === 2 && a + 3 >= e.next && a <= e.last)) irq = 1;
    }
    set('atuIrq', irq);
  }
  /** Clock edge: read the CU outputs of this cycle, update the models. */
  edge(): void {
    const b = this.bench;
    const sim = b.sim;
    const cu = b.cu(this.id);
    const pop = sim.peek(cu.inPop); // comb: settles the design once after the pokes
    const memDone = sim.peek(cu.memDone);
    const rs = sim.s; // registers: current values
    for (let k = 0; k < this.slots.length; k++) {
      const sr = cu.slots[k]!;
      this.slots[k]!.edge(rs[sr.pfLoad.i]!, rs[sr.pfData.i]!, rs[sr.pfCount.i]!);
    }
    // memory reads (fetch counting)
    if (rs[cu.memRe.i] && memDone) {
      const a = rs[cu.memAddr.i]!;
      this.reads.set(a, (this.reads.get(a) ?? 0) + 1);
    }
    // ATU op
    const op = rs[cu.atuOp.i]!;
    const key = rs[cu.atuKey.i]!;
    const err = (msg: string): never => {
      throw new Error(`cycle ${sim.cycle}: node ${this.id} ATU: ${msg}`);
    };
    if (op === 1) {
      if (this.atuFind(key) >= 0) err(`allocArriving of a key already arriving (0x${key.toString(16)})`);
      const next = rs[cu.atuNext.i]!;
      const last = rs[cu.atuLast.i]!;
      if (next > last + 1) err(`allocArriving with next 0x${next.toString(16)} > last + 1`);
      const f = this.atu.findIndex((e) => e.state === 0);
      if (f >= 0) {
        this.atu[f] = { state: 2, key: key & 0x3fff, next, last };
        this.atuOk = 1;
      } else this.atuOk = 0;
    } else if (op === 3) {
      const k = this.atuFind(key);
      if (k < 0) err(`update miss (0x${key.toString(16)})`);
      const next = rs[cu.atuNext.i]!;
      if (next > this.atu[k]!.last + 1) err('update beyond last + 1');
      this.atu[k]!.next = next;
    } else if (op === 4) {
      const k = this.atuFind(key);
      if (k < 0) err(`purge miss (0x${key.toString(16)})`);
      this.atu[k] = { state: 0, key: 0, next: 0, last: 0 };
    } else if (op === 2 || op > 5) err(`op ${op}`);
    // FIFO: pop by the CU, then push from the network
    if (pop) {
      if (this.fifo.length === 0) err('pop from an empty FIFO');
      this.fifo.shift();
    }
    const now = sim.cycle;
    if (!this.feeding) {
      let best = -1;
      for (let k = 0; k < this.incoming.length; k++) {
        if (this.incoming[k]!.at <= now && (best < 0 || this.incoming[k]!.at < this.incoming[best]!.at)) best = k;
      }
      if (best >= 0) {
        this.feeding = this.incoming.splice(best, 1)[0]!.words.slice();
        this.nextPushAt = now + (b.opts.wordCycles ?? 18);
      }
    }
    if (this.feeding && now >= this.nextPushAt && this.fifo.length < b.cfg.fifoDepth) {
      this.fifo.push(this.feeding.shift()!);
      this.nextPushAt = now + (b.opts.wordCycles ?? 18);
      if (this.feeding.length === 0) this.feeding = null;
    }
  }
  busy(): boolean {
    return this.fifo.length > 0 || this.incoming.length > 0 || this.feeding !== null || this.slots.some((s) => s.state !== 'IDLE' || s.pfAvail);
  }
}

export class CuBench {
  readonly opts: BenchOptions;
  readonly cfg: BuzzardConfig;
  readonly geo: ReturnType<typeof geometry>;
  readonly root: BenchRoot;
  readonly sim: Simulator;
  readonly rng: Rng;
  readonly models = new Map<number, NodeModels>();
  /** Every packet that left a slot, per source node. */
  readonly sent = new Map<number, SentPacket[]>();
  /** Per node, packets that were delivered to its FIFO (with the time). */
  readonly delivered = new Map<number, SentPacket[]>();
  private readonly last = new Map<Signal, number>();
  private readonly watches: { node: number; addr: number; seq: number[]; at: number[] }[] = [];

  constructor(opts: BenchOptions) {
    this.opts = opts;
    this.cfg = checkConfig(opts.cfg ?? {});
    this.geo = geometry(this.cfg);
    this.rng = new Rng(opts.seed ?? 1);
    this.root = new BenchRoot(this.cfg, opts.nodes, opts.layout ?? {}, opts.progDepth ?? 256);
    this.sim = new Simulator(this.root, { mode: opts.mode });
    for (const id of opts.nodes) {
      this.models.set(id, new NodeModels(this, id, this.geo.atuEntries));
      this.sent.set(id, []);
      this.delivered.set(id, []);
    }
  }

  cu(id: number): ControlUnit {
    return this.root.cus.get(id)!;
  }
  cpu(id: number): CpuStandIn {
    return this.root.cpus.get(id)!;
  }
  nodeMem(id: number): NodeMemory {
    return this.root.mems.get(id)!;
  }
  /** Word access to node `id`'s memory (pokes land immediately). */
  mem(id: number): WordMemory {
    const m = this.nodeMem(id).mem;
    return {
      read: (k) => this.sim.peekMem(m, k),
      write: (k, v) => this.sim.pokeMem(m, k, v >>> 0),
    };
  }
  set(id: number, name: string, v: number): void {
    const sig = this.root.ext.get(id)!.get(name);
    if (!sig) throw new Error(`no bench input for ${name}`);
    if (this.last.get(sig) === v) return;
    this.last.set(sig, v);
    this.sim.poke(sig, v);
  }
  issue(id: number, op: number, addr: number): void {
    issue(this.sim, this.cpu(id), op, addr);
  }
  read(id: number, addr: number): number {
    return read(this.sim, this.cpu(id), addr);
  }
  /** Record the sequence of distinct values of a memory word (e.g. a completion flag). */
  watch(node: number, addr: number): number[] {
    const seq = [this.sim.peekMem(this.nodeMem(node).mem, addr >>> 2)];
    this.watches.push({ node, addr, seq, at: [this.sim.cycle] });
    return seq;
  }
  /** The cycle from which a watched word (the array `watch` returned) had `value`, or -1. */
  when(seq: number[], value: number): number {
    const w = this.watches.find((x) => x.seq === seq);
    if (!w) throw new Error('not a watched word');
    const k = w.seq.indexOf(value);
    return k < 0 ? -1 : w.at[k]!;
  }

  packetDone(node: number, slot: number, pk: { contrary: number; port: number; len: number; dest: number; words: number[] }): void {
    const rec: SentPacket = { src: node, slot, ...pk, doneAt: this.sim.cycle };
    this.sent.get(node)!.push(rec);
    const [lo, hi] = this.opts.netDelay ?? [0, 40];
    const targets: number[] = [];
    if (pk.dest & BROADCAST_TAG) {
      for (const x of this.opts.nodes) {
        const d = x ^ node;
        if (d !== 0 && 31 - Math.clz32(d & -d) === slot - 1) targets.push(x);
      }
    } else {
      if (!this.models.has(pk.dest)) throw new Error(`node ${node} slot ${slot} sent a packet to node ${pk.dest}, which is not in the bench`);
      targets.push(pk.dest);
    }
    const words: FifoWord[] = [pk.dest, ...pk.words].map((w, k, a) => ({ w, last: k === a.length - 1 }));
    for (const t of targets) {
      this.models.get(t)!.incoming.push({ at: this.sim.cycle + this.rng.int(lo, hi), words });
      this.delivered.get(t)!.push(rec);
    }
  }

  /** One cycle: models' outputs, their edge, then the design's clock edge. */
  cycle(): void {
    for (const m of this.models.values()) m.apply();
    for (const m of this.models.values()) m.edge();
    this.sim.step();
    for (const w of this.watches) {
      const v = this.sim.peekMem(this.nodeMem(w.node).mem, w.addr >>> 2);
      if (v !== w.seq[w.seq.length - 1]) {
        w.seq.push(v);
        w.at.push(this.sim.cycle);
      }
    }
  }

  /** Run until `pred` holds (checked after each cycle); throws after `max` cycles. */
  runUntil(pred: () => boolean, max: number, what = 'condition'): number {
    const start = this.sim.cycle;
    while (!pred()) {
      if (this.sim.cycle - start >= max) throw new Error(`${what} not reached within ${max} cycles (cycle ${this.sim.cycle})`);
      this.cycle();
    }
    return this.sim.cycle - start;
  }
  run(k: number): void {
    for (let i = 0; i < k; i++) this.cycle();
  }
  /** Every node's engine idle, no packet anywhere, no instruction pending. */
  quiet(): boolean {
    for (const id of this.opts.nodes) {
      const cu = this.cu(id);
      const cpu = this.cpu(id);
      if (this.sim.peek(cu.st) !== 0 || this.sim.peek(cu.rxSt) !== 0) return false;
      // pulses still to be seen by their receivers
      if (this.sim.peek(cu.cpuIrq) || this.sim.peek(cu.instrAck) || cu.slots.some((sl) => this.sim.peek(sl.pfLoad))) return false;
      if (this.sim.peek(cpu.instrValid) || this.sim.peek(cpu.progPtr) < this.sim.peek(cpu.progCount)) return false;
      if (this.models.get(id)!.busy()) return false;
      for (const sl of cu.slots) if (this.sim.peek(sl.act) || this.sim.peek(sl.qHead) || this.sim.peek(sl.finPend) || this.sim.peek(sl.out)) return false;
      if (this.sim.peek(cu.mqHead) || this.sim.peek(cu.mBusy)) return false;
    }
    return true;
  }
  /** Slot models, for statistics. */
  slotModels(id: number): SlotModel[] {
    return this.models.get(id)!.slots;
  }
  atuEntries(id: number): number {
    return this.models.get(id)!.atu.filter((e) => e.state !== 0).length;
  }
  memReads(id: number): Map<number, number> {
    return this.models.get(id)!.reads;
  }
}
