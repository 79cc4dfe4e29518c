/**
 * A test stand-in for the node interface side of a Buzzard node: it feeds
 * given packets into the node output port's slots through the control-unit
 * interface of DESIGN.md (head load 25/26 bits, 32-bit refills, a last
 * 16-bit chunk) and drains the node input port's FIFO every cycle. It lets
 * the packet switching fabric be tested across a whole cube independently
 * of the control unit.
 *
 * The program (packets per slot with release cycles) is fixed at
 * construction; progress lives in registers, so snapshots and activity mode
 * see it like any other unit.
 */
import { Module, type Signal } from '../../rtl/kernel/index.ts';
import type { BuzzardNode, NodeDriverFactory } from '../../rtl/buzzard/node.ts';
import { packPreheader } from '../../rtl/buzzard/framing.ts';

export interface DriverPacket {
  /** Earliest cycle the head may be loaded. */
  release: number;
  contrary: number;
  /** Next port at the first-hop node. */
  port: number;
  dest: number;
  /** Words after the destination word (source word, data). */
  words: number[];
  /** Earliest cycle each chunk (index 1.. after the head) may be loaded, where given: a source that stalls mid-packet (the slot stretches a Y1, §8.9). */
  chunkRelease?: number[];
}

interface Chunk {
  data: number;
  count: number;
}

class FabricDriver extends Module {
  constructor(node: BuzzardNode, program: DriverPacket[][]) {
    super(node, 'drv');
    const n = node.cfg.n;
    const lengthBits = node.cfg.packetBytes === 32 ? 4 : 5;
    const headCount = 5 + lengthBits + 16;
    const cyc = this.reg('cyc', 32, 0);
    const slotChunks: Chunk[][][] = [];
    const slotRelease: number[][] = [];
    const chunkRelease: number[][][] = [];
    for (let j = 1; j <= n; j++) {
      const pkts = program[j - 1] ?? [];
      slotChunks.push(
        pkts.map((p) => {
          const chunks: Chunk[] = [{ data: (packPreheader(p.contrary, p.port, p.words.length, lengthBits) << 16) | p.dest, count: headCount }];
          for (let i = 0; i < p.words.length; i += 2) {
            if (i + 1 < p.words.length) chunks.push({ data: ((p.words[i]! << 16) | p.words[i + 1]!) >>> 0, count: 32 });
            else chunks.push({ data: p.words[i]!, count: 16 });
          }
          return chunks;
        }),
      );
      slotRelease.push(pkts.map((p) => p.release));
      chunkRelease.push(pkts.map((p) => p.chunkRelease ?? []));
    }
    const pfLoad: Signal[] = [];
    const pfData: Signal[] = [];
    const pfCount: Signal[] = [];
    const pfAvail: Signal[] = [];
    const refill: Signal[] = [];
    const idle: Signal[] = [];
    const pk: Signal[] = [];
    const ch: Signal[] = [];
    const cool: Signal[] = [];
    for (let j = 1; j <= n; j++) {
      const slot = node.nop.slots[j - 1]!;
      pfLoad.push(this.reg(`pfLoad${j}`, 1, 0));
      pfData.push(this.reg(`pfData${j}`, 32, 0));
      pfCount.push(this.reg(`pfCount${j}`, 6, 0));
      pfAvail.push(this.input(`pfAvail${j}`));
      refill.push(this.input(`refill${j}`));
      idle.push(this.input(`idle${j}`));
      pk.push(this.reg(`pk${j}`, 16, 0));
      ch.push(this.reg(`ch${j}`, 8, 0));
      cool.push(this.reg(`cool${j}`, 2, 0));
      node.connect(pfLoad[j - 1]!, slot.pfLoad);
      node.connect(pfData[j - 1]!, slot.pfData);
      node.connect(pfCount[j - 1]!, slot.pfCount);
      node.connect(slot.pfAvail, pfAvail[j - 1]!);
      node.connect(slot.refill, refill[j - 1]!);
      node.connect(slot.idle, idle[j - 1]!);
    }
    // Drain the node input port every cycle it has data.
    const empty = this.input('empty');
    const pop = this.output('pop');
    node.connect(node.nip.empty, empty);
    node.connect(pop, node.nip.pop);
    this.comb(() => {
      this.s[pop.i] = this.s[empty.i] ? 0 : 1;
    }, { writes: [pop], reads: [empty] });
    // The arrival tracking unit is idle here.
    for (const sig of [node.atu.op, node.atu.key, node.atu.next, node.atu.last, node.atu.cpuAddr, node.atu.cpuRead]) node.tie(sig, 0);

    this.seq(() => {
      const s = this.s;
      const now = s[cyc.i]!;
      s[cyc.n] = now + 1;
      for (let k = 0; k < n; k++) {
        s[pfLoad[k]!.n] = 0;
        const c = s[cool[k]!.i]!;
        if (c > 0) {
          s[cool[k]!.n] = c - 1;
          continue;
        }
        const p = s[pk[k]!.i]!;
        const chunks = slotChunks[k]!;
        if (p >= chunks.length) continue;
        const x = s[ch[k]!.i]!;
        const ready = x === 0 ? now >= slotRelease[k]![p]! && (s[refill[k]!.i] === 1 || (s[idle[k]!.i] === 1 && s[pfAvail[k]!.i] === 0)) : s[refill[k]!.i] === 1 && now >= (chunkRelease[k]![p]![x] ?? 0);
        if (!ready) continue;
        const chunk = chunks[p]![x]!;
        s[pfLoad[k]!.n] = 1;
        s[pfData[k]!.n] = chunk.data;
        s[pfCount[k]!.n] = chunk.count;
        s[cool[k]!.n] = 2; // the slot shows pfAvail / drops refill two cycles after the strobe
        if (x + 1 >= chunks[p]!.length) {
          s[ch[k]!.n] = 0;
          s[pk[k]!.n] = p + 1;
        } else s[ch[k]!.n] = x + 1;
      }
    });
  }
}

/** A driver factory for BuzzardCube/BuzzardNode: program[node][slot-1] = packets. */
export function fabricDriver(program: DriverPacket[][][]): NodeDriverFactory {
  return (node) => void new FabricDriver(node, program[node.address] ?? []);
}
