/**
 * Drives a Buzzard RTL cube from the harness side: it lays out message
 * buffers and header blocks in each node's memory and has each node's CPU
 * stand-in issue send / receive instructions at scheduled cycles, then reads
 * back completion flags and received bytes.
 *
 * Memory writes and instruction issue happen through the simulator's
 * stimulus (`schedule` + `pokeMem`/`poke`), like a testbench, so snapshots
 * and fast-forward see them.
 */
import type { Simulator } from '../../rtl/kernel/index.ts';
import type { BuzzardCube } from '../../rtl/buzzard/network.ts';
import type { BuzzardNode } from '../../rtl/buzzard/node.ts';
import { issue } from '../../rtl/buzzard/cpu_stand_in.ts';
import {
  ANY,
  FLAG,
  OP,
  BCAST,
  RECV,
  SEND,
  writeBroadcastBlock,
  flagError,
  flagProgress,
  readBytes,
  readWord,
  writeBytes,
  writeRecvBlock,
  writeSendBlock,
  type WordMemory,
} from '../../rtl/buzzard/header_blocks.ts';

export interface SentMessage {
  id: number;
  src: number;
  dest: number;
  type: number;
  data: number[];
  cycle: number;
  block: number;
  buffer: number;
  broadcast?: boolean;
}

export interface PostedReceive {
  id: number;
  node: number;
  source: number;
  type: number;
  size: number;
  cycle: number;
  block: number;
  buffer: number;
}

const USER_BASE = 0x100;

export class CubeDriver {
  private readonly heap: number[];
  readonly sent: SentMessage[] = [];
  readonly receives: PostedReceive[] = [];
  constructor(
    readonly sim: Simulator,
    readonly cube: BuzzardCube,
  ) {
    this.heap = cube.nodes.map(() => USER_BASE);
  }

  node(a: number): BuzzardNode {
    const nd = this.cube.nodes[a];
    if (!nd) throw new RangeError(`node ${a} is outside the ${this.cube.cfg.n}-cube (0..${this.cube.nodes.length - 1})`);
    return nd;
  }

  /** Word access to node `a`'s memory. */
  mem(a: number): WordMemory {
    const m = this.node(a).mem!.mem;
    return { read: (w) => this.sim.peekMem(m, w), write: (w, v) => this.sim.pokeMem(m, w, v) };
  }

  /** Bump-allocate `bytes` (word aligned) of user memory on node `a`. */
  alloc(a: number, bytes: number): number {
    const at = this.heap[a]!;
    const end = at + ((bytes + 3) & ~3);
    const limit = this.node(a).cu!.layout.poolBase;
    if (end > limit) throw new RangeError(`node ${a}: user memory exhausted (${end} > ${limit} bytes); use fewer or shorter messages per run`);
    this.heap[a] = end;
    return at;
  }

  /** Schedule a send of `data` from src to dest at `cycle`. */
  send(src: number, dest: number, data: number[], cycle: number, type = 1): SentMessage {
    this.node(dest);
    const buffer = this.alloc(src, Math.max(4, data.length));
    const block = this.alloc(src, 4 * SEND.words);
    const msg: SentMessage = { id: this.sent.length, src, dest, type, data, cycle, block, buffer };
    this.sent.push(msg);
    this.sim.schedule(cycle, () => {
      const m = this.mem(src);
      writeBytes(m, buffer, data);
      writeSendBlock(m, block, { dest, type, length: data.length, buffer });
      issue(this.sim, this.node(src).cpu!, OP.send, block);
    });
    return msg;
  }

  /**
   * Schedule a broadcast of `data` from src to every other node of the cube at
   * `cycle` (seed §4.1: "goes to all other nodes"; packets have src == dest).
   * Receives are the caller's: one per other node, from `src`.
   */
  broadcast(src: number, data: number[], cycle: number, type = 1): SentMessage {
    const buffer = this.alloc(src, Math.max(4, data.length));
    const block = this.alloc(src, 4 * BCAST.words);
    const msg: SentMessage = { id: this.sent.length, src, dest: src, type, data, cycle, block, buffer, broadcast: true };
    this.sent.push(msg);
    this.sim.schedule(cycle, () => {
      const m = this.mem(src);
      writeBytes(m, buffer, data);
      writeBroadcastBlock(m, block, { type, length: data.length, buffer });
      issue(this.sim, this.node(src).cpu!, OP.broadcast, block);
    });
    return msg;
  }

  /** Schedule a receive on `node` from `source` (or ANY) into a buffer of `size` bytes at `cycle`. */
  receive(node: number, source: number | 'any', size: number, cycle: number, type: number | 'any' = 1): PostedReceive {
    const buffer = this.alloc(node, Math.max(4, size));
    const block = this.alloc(node, 4 * RECV.words);
    const src = source === 'any' ? ANY : source;
    const ty = type === 'any' ? ANY : type;
    const r: PostedReceive = { id: this.receives.length, node, source: src, type: ty, size, cycle, block, buffer };
    this.receives.push(r);
    this.sim.schedule(cycle, () => {
      writeRecvBlock(this.mem(node), block, { source: src, type: ty, length: size, buffer });
      issue(this.sim, this.node(node).cpu!, OP.receive, block);
    });
    return r;
  }

  /** Completion state of a send (its flag word). */
  sendFlag(m: SentMessage): { progress: number; error: number } {
    const w = readWord(this.mem(m.src), m.block + 4 * (m.broadcast ? BCAST.flag : SEND.flag));
    return { progress: flagProgress(w), error: flagError(w) };
  }

  /** Completion state, length and bytes of a receive. */
  received(r: PostedReceive): { progress: number; error: number; length: number; source: number; bytes: number[] } {
    const m = this.mem(r.node);
    const w = readWord(m, r.block + 4 * RECV.flag);
    const length = readWord(m, r.block + 4 * RECV.length);
    const source = readWord(m, r.block + 4 * RECV.source);
    const buf = readWord(m, r.block + 4 * RECV.buffer);
    return { progress: flagProgress(w), error: flagError(w), length, source, bytes: readBytes(m, buf, Math.min(length, r.size)) };
  }

  /** True when every send and receive has completed (flag 3). */
  allComplete(): boolean {
    return this.sent.every((m) => this.sendFlag(m).progress === FLAG.complete) && this.receives.every((r) => this.received(r).progress === FLAG.complete);
  }
}
