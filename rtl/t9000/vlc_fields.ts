/**
 * The control blocks of a virtual link control (rtl/t9000/vlc.ts;
 * docs/t9000.md#control-blocks; spec §2: "a descriptor in memory per virtual
 * link"): every field is a kernel memory with one word per VL (the receive
 * slots' fields one word per VL and slot). A cycle's writes to a field are
 * staged and land at the clock edge, the last one per word winning, as a
 * register's next value would (`flush`, called by the VLC's control process).
 * The state the VLC's processes share, held in one object so that its rooms
 * (vlc.ts, vlc_pick.ts) name it explicitly.
 */
import type { Memory, Module } from '../kernel/module.ts';
import { ADDR_BITS } from './node_memory.ts';

/**
 * One field of every control block: a kernel memory of one word per block,
 * with this cycle's writes staged (the last per word wins) and written to the
 * memory in `flush`, once per word and only if it changed.
 */
export class BlockField {
  readonly mem: Memory;
  readonly data: Float64Array;
  private readonly next: Float64Array;
  private readonly staged: Uint8Array;
  private readonly list: Int32Array;
  private n = 0;
  /** The words the latest flush changed (kept only when `keepChanged`: the completion counters, read by the event recorder). */
  readonly changed: Int32Array | null;
  nChanged = 0;
  constructor(
    owner: Module,
    name: string,
    width: number,
    depth: number,
    keepChanged = false,
    /** Where a field with writes staged this cycle puts itself (its first `set`), so the flush visits only those. */
    private readonly stagedFields: BlockField[] = [],
  ) {
    // At most one write per word and cycle (flush), so `depth` write ports always suffice.
    this.mem = owner.memory(name, width, depth, { writePorts: depth });
    this.data = this.mem.data;
    this.next = new Float64Array(depth);
    this.staged = new Uint8Array(depth);
    this.list = new Int32Array(depth);
    this.changed = keepChanged ? new Int32Array(depth) : null;
  }
  set(v: number, x: number): void {
    if (this.n === 0) this.stagedFields.push(this);
    if (this.staged[v] === 0) {
      this.staged[v] = 1;
      this.list[this.n++] = v;
    }
    this.next[v] = x;
  }
  flush(): void {
    const { data, next, staged, list, mem, changed } = this;
    let c = 0;
    for (let i = 0; i < this.n; i++) {
      const v = list[i]!;
      staged[v] = 0;
      if (next[v] !== data[v]) {
        mem.write(v, next[v]!);
        if (changed) changed[c++] = v;
      }
    }
    this.n = 0;
    this.nChanged = c;
  }
}

/** Every field of one VLC's control blocks, in declaration order (the kernel memories' order: names, VCD, snapshots). */
export class VlcFields {
  /** All fields, in declaration order. */
  readonly fields: BlockField[] = [];
  /** This cycle's fields with writes staged, in first-write order (each flushes its own memory: the order does not matter). */
  readonly stagedFields: BlockField[] = [];
  readonly sendPosted: BlockField;
  readonly recvPosted: BlockField;
  readonly sStarted: BlockField;
  readonly sDone: BlockField;
  readonly sBusy: BlockField;
  readonly sNeedEnq: BlockField;
  readonly sAckWait: BlockField;
  readonly sTxWait: BlockField;
  readonly sLastPkt: BlockField;
  readonly sAddr: BlockField;
  readonly sLeft: BlockField;
  readonly sHold: BlockField;
  readonly rDone: BlockField;
  readonly rDefer: BlockField;
  readonly rAckReq: BlockField;
  readonly rEomWait: BlockField;
  readonly rInMsg: BlockField;
  readonly rSeq: BlockField; // sequence number the next data header of v gets (its slot: rSeq mod rxSlots)
  // Several packets of one VL in flight over a hunt group (docs/t9000.md#receive-area):
  // rHead = oldest packet not yet retired; per slot, whether its packet has ended, with EOM, and its length.
  readonly rHead: BlockField;
  readonly rPktEnd: BlockField;
  readonly rPktEom: BlockField;
  readonly rPktLen: BlockField;
  readonly rDeferSeq: BlockField; // the packet whose ack rDefer holds back
  readonly rMsgStart: BlockField;
  readonly rMsgLen: BlockField;
  readonly rLastStart: BlockField;
  readonly rLastLen: BlockField;

  constructor(owner: Module, V: number, SL: number) {
    const mk = (nm: string, width: number, depth = V, keepChanged = false): BlockField => {
      const f = new BlockField(owner, nm, width, depth, keepChanged, this.stagedFields);
      this.fields.push(f);
      return f;
    };
    this.sendPosted = mk('sendPosted', 24);
    this.recvPosted = mk('recvPosted', 24);
    this.sStarted = mk('sStarted', 24);
    this.sDone = mk('sDone', 24, V, true);
    this.sBusy = mk('sBusy', 1);
    this.sNeedEnq = mk('sNeedEnq', 1);
    this.sAckWait = mk('sAckWait', 8);
    this.sTxWait = mk('sTxWait', 8);
    this.sLastPkt = mk('sLastPkt', 1);
    this.sAddr = mk('sAddr', ADDR_BITS);
    this.sLeft = mk('sLeft', 16);
    this.sHold = mk('sHold', 20);
    this.rDone = mk('rDone', 24, V, true);
    this.rDefer = mk('rDefer', 1);
    this.rAckReq = mk('rAckReq', 1);
    this.rEomWait = mk('rEomWait', 1);
    this.rInMsg = mk('rInMsg', 1);
    this.rSeq = mk('rSeq', 16);
    this.rHead = mk('rHead', 16);
    this.rPktEnd = mk('rPktEnd', 1, V * SL);
    this.rPktEom = mk('rPktEom', 1, V * SL);
    this.rPktLen = mk('rPktLen', 6, V * SL);
    this.rDeferSeq = mk('rDeferSeq', 16);
    this.rMsgStart = mk('rMsgStart', 16);
    this.rMsgLen = mk('rMsgLen', 16);
    this.rLastStart = mk('rLastStart', 16);
    this.rLastLen = mk('rLastLen', 16);
  }
}
