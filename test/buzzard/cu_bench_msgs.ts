/**
 * Message helpers for the control-unit tests: a per-node bump allocator in
 * user memory, sends / receives written into node memory, guard bytes around
 * receive buffers, and result checks.
 */
import { expect } from 'vitest';
import {
  ANY,
  OP,
  RECV,
  SEND,
  readBytes,
  readRecvBlock,
  readWord,
  writeBroadcastBlock,
  writeBytes,
  writeNnBroadcastBlock,
  writeRecvBlock,
  writeSendBlock,
  type RecvResult,
} from '../../rtl/buzzard/header_blocks.ts';
import { type CuBench, Rng } from './cu_bench.ts';

export const GUARD = 16;
export const GUARD_BYTE = 0xa5;

export class Heaps {
  private readonly next = new Map<number, number>();
  constructor(private readonly b: CuBench) {}
  alloc(node: number, bytes: number): number {
    const a = this.next.get(node) ?? 0x400;
    const end = a + ((bytes + 3) & ~3) + 2 * GUARD;
    if (end > this.b.cu(node).layout.poolBase) throw new Error(`test heap of node ${node} exhausted`);
    this.next.set(node, end);
    return a + GUARD;
  }
}

export function randomBytes(rng: Rng, len: number): number[] {
  return Array.from({ length: len }, () => rng.int(0, 255));
}

export interface SendRec {
  src: number;
  dest: number;
  type: number;
  data: number[];
  blk: number;
  buf: number;
  flags: number[];
}

export function prepareSend(b: CuBench, h: Heaps, src: number, dest: number, type: number, data: number[]): SendRec {
  const buf = h.alloc(src, data.length);
  const blk = h.alloc(src, 4 * SEND.words);
  writeBytes(b.mem(src), buf, data);
  writeSendBlock(b.mem(src), blk, { dest, type, length: data.length, buffer: buf });
  const flags = b.watch(src, blk + 4 * SEND.flag);
  return { src, dest, type, data, blk, buf, flags };
}

export function send(b: CuBench, s: SendRec): void {
  b.issue(s.src, OP.send, s.blk);
}

export function prepareBroadcast(b: CuBench, h: Heaps, src: number, type: number, data: number[], dests?: number[]): SendRec {
  const buf = h.alloc(src, data.length);
  const blk = h.alloc(src, 4 * 16);
  writeBytes(b.mem(src), buf, data);
  if (dests) writeNnBroadcastBlock(b.mem(src), blk, { type, length: data.length, buffer: buf, dests });
  else writeBroadcastBlock(b.mem(src), blk, { type, length: data.length, buffer: buf });
  const flags = b.watch(src, blk + 16);
  return { src, dest: -1, type, data, blk, buf, flags };
}

export interface RecvRec {
  node: number;
  source: number;
  type: number;
  blk: number;
  buf: number;
  bufLen: number;
  flags: number[];
}

/** A receive block (buffer = 0 for a null buffer) with guard bytes around the buffer. */
export function prepareRecv(b: CuBench, h: Heaps, node: number, source: number, type: number, bufLen: number, nullBuffer = false): RecvRec {
  let buf = 0;
  if (!nullBuffer) {
    buf = h.alloc(node, bufLen);
    writeBytes(b.mem(node), buf - GUARD, new Array(((bufLen + 3) & ~3) + 2 * GUARD).fill(GUARD_BYTE));
  }
  const blk = h.alloc(node, 4 * RECV.words);
  writeRecvBlock(b.mem(node), blk, { source, type, length: bufLen, buffer: buf });
  const flags = b.watch(node, blk + 4 * RECV.flag);
  return { node, source, type, blk, buf, bufLen, flags };
}

export function recv(b: CuBench, r: RecvRec): void {
  b.issue(r.node, OP.receive, r.blk);
}

/** The receive got `data` from `src` with `type`: fields, flag, bytes, untouched guards / buffer tail. */
export function expectReceived(b: CuBench, r: RecvRec, src: number, type: number, data: number[], what = ''): RecvResult {
  const res = readRecvBlock(b.mem(r.node), r.blk);
  expect({ what, source: res.source, type: res.type, length: res.length, progress: res.progress, error: res.error }).toEqual({
    what,
    source: src,
    type,
    length: data.length,
    progress: 3,
    error: 0,
  });
  const got = readBytes(b.mem(r.node), res.buffer, data.length);
  expect(got, `${what}: message bytes`).toEqual(data);
  if (r.buf !== 0) {
    expect(res.buffer).toBe(r.buf);
    expect(readBytes(b.mem(r.node), r.buf - GUARD, GUARD), `${what}: guard before`).toEqual(new Array(GUARD).fill(GUARD_BYTE));
    const tail = r.bufLen - data.length + GUARD;
    expect(readBytes(b.mem(r.node), r.buf + data.length, tail), `${what}: buffer tail and guard after`).toEqual(new Array(tail).fill(GUARD_BYTE));
  }
  return res;
}

/**
 * Structural invariants of a quiet node: every queue walked from its head
 * ends at its tail with the counted length, no arrival table entry or
 * arriving message is left, and every system unit is free, unclaimed or
 * handed to the user.
 */
export function expectConsistent(b: CuBench, node: number): void {
  const cu = b.cu(node);
  const lay = cu.layout;
  const sim = b.sim;
  const m = b.mem(node);
  const walk = (head: number, what: string): { len: number; last: number; blocks: number[] } => {
    const blocks: number[] = [];
    let x = head;
    while (x !== 0) {
      blocks.push(x);
      if (blocks.length > 1000) throw new Error(`${what}: cycle in the queue`);
      x = readWord(m, (x & ~3) + 4 * RECV.link);
    }
    return { len: blocks.length, last: blocks.at(-1) ?? 0, blocks };
  };
  const any = walk(sim.peek(cu.anyHead), 'ANY queue');
  expect({ anyLen: any.len, anyTail: any.last }, `node ${node} ANY queue`).toEqual({ anyLen: sim.peek(cu.anyCount), anyTail: any.len ? sim.peek(cu.anyTail) : 0 });
  cu.slots.forEach((sl, k) => {
    const q = walk(sim.peek(sl.qHead), `send queue ${k + 1}`);
    expect({ len: q.len, tail: q.last }, `node ${node} send queue ${k + 1}`).toEqual({ len: sim.peek(sl.qLen), tail: q.len ? sim.peek(sl.qTail) : 0 });
  });
  let unclaimed = 0;
  const sysBlocks = new Set<number>();
  for (let k = 0; k < lay.hashBuckets; k++) {
    for (const [base, what] of [
      [lay.unclaimedBase, 'unclaimed'],
      [lay.expectedBase, 'expected'],
    ] as const) {
      const head = readWord(m, base + 8 * k);
      const q = walk(head, `${what} bucket ${k}`);
      expect(readWord(m, base + 8 * k + 4), `node ${node} ${what} bucket ${k} tail`).toBe(q.last);
      if (what === 'unclaimed') {
        unclaimed += q.len;
        q.blocks.forEach((x) => sysBlocks.add(x));
      }
    }
  }
  expect(unclaimed, `node ${node} unclaimed count`).toBe(sim.peek(cu.ucCount));
  const n = b.cfg.n;
  for (let k = 0; k < (n + 1) << n; k++) expect(readWord(m, lay.arrivalBase + 4 * k), `node ${node} arrival table word ${k}`).toBe(0);
  expect(sim.peek(cu.auHead), `node ${node} arriving-unexpected list`).toBe(0);
  const free = sim.peek(cu.poolMap);
  const user = sim.peek(cu.poolUser);
  for (let u = 0; u < lay.sysBuffers; u++) {
    const blk = lay.poolBase + u * lay.unitBytes;
    const states = [(free >>> u) & 1, (user >>> u) & 1, sysBlocks.has(blk) ? 1 : 0];
    expect(states.reduce((a, x) => a + x, 0), `node ${node} system unit ${u}: free/user/unclaimed ${states}`).toBe(1);
  }
}

export { ANY };
