/**
 * A Buzzard node: the eight functional units of seed 002 §5.1 wired as the
 * design contract (DESIGN.md) says.
 *
 *   packet switching section  pbu1..pbuN, ram, xbar   (+ fcu1..fcuN, §5.4.8)
 *   node interface section    nop, nip, atu, cu        (+ mem, cpu)
 *
 * Crossbar (§5.4.3, A3, A4): inputs 0..n-1 are PBU 1..n, inputs n..2n-1 the
 * node output port's slots 1..n; output 0 is the node input port, outputs
 * 1..n the links. PBU i reaches every output but its own link (a packet that
 * came in on dimension i never leaves on it); slot j reaches only O_j.
 *
 * The node's own ports are the two wires of each link direction:
 * `txBit{j}`/`txBlock{j}` (outgoing link j) and `rxBit{j}`/`rxBlock{j}`
 * (incoming link j). network.ts joins node x's txBit{j} to node
 * x^2^(j-1)'s rxBit{j}, and that node's rxBlock{j} back to x's txBlock{j}.
 */
import { Module, type Signal } from '../kernel/index.ts';
import { Crossbar } from '../lib/crossbar.ts';
import { ArrivalTrackingUnit } from './arrival_tracking_unit.ts';
import { BufferRam } from './buffer_ram.ts';
import { checkConfig, type BuzzardConfig } from './config.ts';
import { FlowControlUnit } from './flow_control_unit.ts';
import { NodeInputPort } from './node_input_port.ts';
import { NodeOutputPort } from './node_output_port.ts';
import { PacketBufferUnit } from './packet_buffer_unit.ts';
import { ControlUnit } from './control_unit.ts';
import { CpuStandIn } from './cpu_stand_in.ts';
import { NodeMemory } from './node_memory.ts';
import { LinkTap, type LinkSet } from './link_lines.ts';

/**
 * Builds and wires whatever drives the node interface side of `nop`, `nip`
 * and `atu` (DESIGN.md "Interfaces between units"). The default is the
 * control unit with node memory and the CPU stand-in; fabric tests plug in a
 * packet driver instead.
 */
export type NodeDriverFactory = (node: BuzzardNode) => void;

export interface BuzzardNodeOptions {
  driver?: NodeDriverFactory;
  /**
   * The cube's serial lines (link_lines.ts; docs/kernel.md "Buzzard links on
   * serial lines"): the senders post their fields, the receivers read the
   * crossbar outputs' taps. Without it every link bit is a process run.
   */
  links?: LinkSet;
  /**
   * Stop 23's per-word folds (docs/kernel.md "Stop 23: Buzzard per word";
   * default true): the PBUs' RAM client ports as registers of their
   * controllers, the buffer RAM's round-robin ports inside the RAM. `false` keeps stop 22's process structure, the reference
   * the folds are compared with at every cycle (test/buzzard/word_folds.test.ts).
   */
  wordFolds?: boolean;
  /**
   * Stop 24's timed word arrival (docs/kernel.md "Stop 24: Buzzard"; default
   * true; serial lines only): a PBU's output controller takes the word at
   * the RAM read grant and writes it into its data register at the next
   * edge by timed writes. `false` keeps stop 23's run at the arrival
   * (test/buzzard/word_arrival.test.ts compares them).
   */
  timedArrival?: boolean;
  /**
   * Stop 25's slot events (docs/kernel.md "Stop 25: Buzzard"; default true;
   * serial lines only): a node output port slot runs at its step list's
   * events only, not at every change of its own registers, and the edge of
   * a sync's 0 is its catch-up's. `false` keeps stop 24's slot reads
   * (test/buzzard/slot_events.test.ts compares them).
   */
  slotEvents?: boolean;
  /**
   * Stop 25's late RAM reads (docs/kernel.md "Stop 25: Buzzard"; default
   * true): the buffer RAM's access process reads a port only while its grant
   * is out at the edge and drops rvalid by a timed write (DualPortRam
   * `lateReads`). `false` keeps stop 24's reads (test/buzzard/slot_events.test.ts
   * compares them).
   */
  ramLateReads?: boolean;
}

export class BuzzardNode extends Module {
  readonly cfg: BuzzardConfig;
  readonly address: number;
  readonly pbus: PacketBufferUnit[];
  readonly fcus: FlowControlUnit[];
  readonly ram: BufferRam;
  readonly xbar: Crossbar;
  readonly nop: NodeOutputPort;
  readonly nip: NodeInputPort;
  readonly atu: ArrivalTrackingUnit;
  /** The node interface driver's units (absent when a test driver replaces them). */
  cu?: ControlUnit;
  mem?: NodeMemory;
  cpu?: CpuStandIn;
  /** Link wires, index j-1 for dimension j. */
  readonly txBit: Signal[] = [];
  readonly txBlock: Signal[] = [];
  readonly rxBit: Signal[] = [];
  readonly rxBlock: Signal[] = [];
  /** What crossbar outputs O_0..O_n carry, cycle by cycle (serial lines only). */
  readonly taps: LinkTap[] = [];

  constructor(parent: Module | null, name: string, config: Partial<BuzzardConfig>, address: number, options: BuzzardNodeOptions = {}) {
    super(parent, name);
    const cfg = (this.cfg = checkConfig(config));
    const n = cfg.n;
    if (!(Number.isInteger(address) && address >= 0 && address < 1 << n)) {
      throw new RangeError(`buzzard node: address ${address} is outside 0..${(1 << n) - 1} for a ${n}-cube`);
    }
    this.address = address;

    this.ram = new BufferRam(this, 'ram', cfg, options.wordFolds ?? true, options.ramLateReads ?? true);
    this.xbar = nodeCrossbar(this, cfg);
    const links = options.links;
    if (links) {
      for (let j = 0; j <= n; j++) {
        const tap = new LinkTap(`${name}.xbar.O${j}`);
        this.taps.push(tap);
        links.taps.push(tap);
        links.wires.push({ dout: this.xbar.dout[j]!, busy: this.xbar.valid[j]!, src: this.xbar.src[j]!, din: this.xbar.din });
      }
    }
    const taps = links ? this.taps : undefined;
    this.nop = new NodeOutputPort(this, 'nop', cfg, links, taps, options.slotEvents ?? true);
    this.nip = new NodeInputPort(this, 'nip', cfg, links);
    if (this.nip.line) {
      this.nip.line.src = this.taps[0]!;
      this.taps[0]!.receiver = this.nip.line;
    }
    this.atu = new ArrivalTrackingUnit(this, 'atu', cfg, { cpuReadBytes: 4 });
    this.pbus = [];
    this.fcus = [];
    const x = this.xbar;
    const ram = this.ram;
    for (let i = 1; i <= n; i++) {
      const pbu = new PacketBufferUnit(this, `pbu${i}`, cfg, i, address, links, taps, options.wordFolds ?? true, options.timedArrival ?? true);
      const fcu = new FlowControlUnit(this, `fcu${i}`);
      this.pbus.push(pbu);
      this.fcus.push(fcu);
      wirePbu(this, pbu, x, ram);
      // link i: incoming wire -> receiving section -> PBU i; outgoing: crossbar O_i -> sending section -> wire
      this.connect(fcu.bit, pbu.inBit);
      this.connect(pbu.block, fcu.block);
      this.connect(x.dout[i]!, fcu.xbit);
      this.connect(x.valid[i]!, fcu.xbusy);
      this.connect(fcu.hold, x.blocked[i]!);
      const txBit = this.output(`txBit${i}`);
      const txBlock = this.input(`txBlock${i}`);
      const rxBit = this.input(`rxBit${i}`);
      const rxBlock = this.output(`rxBlock${i}`);
      this.connect(fcu.txBit, txBit);
      this.connect(txBlock, fcu.txBlock);
      this.connect(rxBit, fcu.rxBit);
      this.connect(fcu.rxBlock, rxBlock);
      this.txBit.push(txBit);
      this.txBlock.push(txBlock);
      this.rxBit.push(rxBit);
      this.rxBlock.push(rxBlock);
    }
    // node output port slot j <-> crossbar input n+j-1
    for (let j = 1; j <= n; j++) {
      const slot = this.nop.slots[j - 1]!;
      const k = n + j - 1;
      this.connect(slot.xreq, x.req[k]!);
      this.connect(slot.xout, x.din[k]!);
      this.connect(slot.xrelease, x.release[k]!);
      this.connect(x.gnt[k]!, slot.xgnt);
      this.connect(x.fc[k]!, slot.hold);
    }
    // crossbar O_0 -> node input port
    this.connect(x.dout[0]!, this.nip.inBit);
    this.connect(this.nip.block, x.blocked[0]!);

    (options.driver ?? wireControlUnit)(this);
  }
}

/**
 * The node's crossbar (§5.4.3, A3, A4): inputs 0..n-1 are PBU 1..n, inputs
 * n..2n-1 the output port slots 1..n; outputs O_0 (node input port) and
 * O_1..O_n (links). PBU i (input i-1) reaches every output but its own link
 * O_i; slot j (input n+j-1) reaches O_j only. Tree arbiters (A10).
 */
export function nodeCrossbar(parent: Module, cfg: BuzzardConfig): Crossbar {
  const n = cfg.n;
  return new Crossbar(parent, 'xbar', {
    inputs: 2 * n,
    outputs: n + 1,
    width: 1,
    connectivity: (k, j) => (k >= n ? j === k - n + 1 : j !== k + 1),
    policy: 'tree',
    latency: cfg.arbiterLatency,
  });
}

/** Wire PBU i to crossbar input i-1 and to buffer RAM client i-1 (DESIGN.md "Interfaces between units"). */
export function wirePbu(parent: Module, pbu: PacketBufferUnit, x: Crossbar, ram: BufferRam): void {
  const k = pbu.index - 1;
  const c = (a: Signal, b: Signal): void => parent.connect(a, b);
  c(pbu.xreq, x.req[k]!);
  c(pbu.xout, x.din[k]!);
  c(pbu.xrelease, x.release[k]!);
  c(x.gnt[k]!, pbu.xgnt);
  c(x.gidx[k]!, pbu.xgidx);
  c(x.fc[k]!, pbu.hold);
  c(pbu.wreq, ram.wreq[k]!);
  c(pbu.waddr, ram.waddr[k]!);
  c(pbu.wdata, ram.wdata[k]!);
  c(ram.wgnt[k]!, pbu.wgnt);
  c(pbu.rreq, ram.rreq[k]!);
  c(pbu.raddr, ram.raddr[k]!);
  c(ram.rgnt[k]!, pbu.rgnt);
  c(ram.rdata, pbu.rdata);
  c(ram.rvalid, pbu.rvalid);
  c(ram.rsrc, pbu.rsrc);
  if (pbu.arrival) pbu.arrival.mem = ram.mem;
}

/**
 * The default node interface: the main control unit (§5.4.7) with node memory
 * and the CPU stand-in, wired to the node output port slots, the node input
 * port and the arrival tracking unit (DESIGN.md "Interfaces between units").
 */
export function wireControlUnit(node: BuzzardNode): void {
  const cfg = node.cfg;
  const cu = (node.cu = new ControlUnit(node, 'cu', cfg, node.address));
  const mem = (node.mem = new NodeMemory(node, 'mem', cfg));
  const cpu = (node.cpu = new CpuStandIn(node, 'cpu'));
  const c = (a: Signal, b: Signal): void => node.connect(a, b);
  node.nop.slots.forEach((slot, k) => {
    const r = cu.slots[k]!;
    c(r.pfLoad, slot.pfLoad);
    c(r.pfData, slot.pfData);
    c(r.pfCount, slot.pfCount);
    c(slot.pfAvail, r.pfAvail);
    c(slot.refill, r.refill);
    c(slot.pktDone, r.pktDone);
    c(slot.refused, r.refused);
    c(slot.idle, r.idle);
  });
  const nip = node.nip;
  c(cu.inPop, nip.pop);
  c(nip.dout, cu.inDout);
  c(nip.doutLast, cu.inLast);
  c(nip.count, cu.inCount);
  c(nip.empty, cu.inEmpty);
  const atu = node.atu;
  c(cu.atuOp, atu.op);
  c(cu.atuKey, atu.key);
  c(cu.atuNext, atu.next);
  c(cu.atuLast, atu.last);
  c(atu.hit, cu.atuHit);
  c(atu.hitIdx, cu.atuHitIdx);
  c(atu.hitNext, cu.atuHitNext);
  c(atu.hitLast, cu.atuHitLast);
  c(atu.freeCount, cu.atuFreeCount);
  c(atu.ok, cu.atuOk);
  c(atu.interrupt, cu.atuIrq);
  c(cu.memAddr, mem.cuAddr);
  c(cu.memRe, mem.cuRe);
  c(cu.memWe, mem.cuWe);
  c(cu.memWdata, mem.cuWdata);
  c(mem.cuRdata, cu.memRdata);
  c(mem.cuDone, cu.memDone);
  // The CPU's reads go to node memory and are watched by the ATU's comparators (§5.4.6).
  c(cpu.cpuAddr, mem.cpuAddr);
  c(cpu.cpuRe, mem.cpuRe);
  c(cpu.cpuAddr, atu.cpuAddr);
  c(cpu.cpuRe, atu.cpuRead);
  c(mem.cpuRdata, cpu.cpuRdata);
  c(mem.cpuDone, cpu.cpuDone);
  c(cpu.instrValid, cu.instrValid);
  c(cpu.instrOp, cu.instrOp);
  c(cpu.instrAddr, cu.instrAddr);
  c(cu.instrAck, cpu.instrAck);
  c(cu.cpuIrq, cpu.irq);
}
