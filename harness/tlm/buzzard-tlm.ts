/**
 * Discrete-event, packet-level model (TLM) of the Buzzard n-cube (seed 002)
 * at the level of the seed's Chapter 5 simulator (docs/sources.md,
 * buzzard §10.3: link 2 ticks/byte, arbitration 4 ticks, 32-byte packets, 13 buffers
 * per PBU), for three transports: wormhole, fixed packet, quasi-adaptive
 * packet. It shares the workload (harness/workloads) and the event vocabulary
 * (traces/events) with the RTL and nothing else (ARCHITECTURE.md).
 *
 * Structure per node x of the n-cube (ports/dimensions 1..n, port i ↔ address
 * bit i−1, §6.1):
 * - n outgoing links, one per dimension (unidirectional; the pair of links
 *   between two neighbours is independent, "non-interfering bidirectional").
 *   Link (x, i) is crossbar output O_i of x and feeds PBU i of x XOR 2^(i−1).
 * - n PBUs, PBU i fed by the incoming link of dimension i, each with B packet
 *   buffers (config.buffersPerPbu). A PBU forwards one packet at a time (A9:
 *   a forwarding PBU masks its other requests) but keeps one FIFO per next
 *   port (§8.2: oldest first among equal next ports), so packets for
 *   different outputs do not block each other.
 * - The node output port: n send queues, one per slot/link (§8.7), each
 *   sending the packets of its head message one after the other; the slot
 *   re-arbitrates for every packet (A12).
 * - The node input port: crossbar output O_0, one packet (or worm) at a time
 *   at link rate, always ready (docs/readings.md A14: latencies 0). With
 *   config.delivery = 'per-link' every PBU (input) has its own ejection
 *   channel instead (see config.ts).
 *
 * Arbitration (crossbar.ts): one arbiter per crossbar output. Requesters of O_j at node x
 * are slot j (O_0 has no slot) and PBUs i ≠ j of x with a packet for O_j.
 * Round-robin (docs/readings.md A10 is a tree of toggling 2-input arbiters; a
 * rotating pointer over [slot j, PBU 1..n] is the packet-level equivalent):
 * the search starts just after the last winner. A requester is eligible only
 * if the downstream unit can take its packet (§8.3: the grant waits for "not
 * blocked"): a free buffer in the downstream PBU and, for a contrary packet,
 * the §7 rule. The winner is chosen when the output is free and someone is
 * eligible; it holds the output from then on; the grant (first byte on the
 * link) follows arbitrationTicks later; the downstream buffer is reserved at
 * the choice.
 *
 * Packet timing (cut-through), packet.ts: a packet granted at time g on a
 * link occupies it for (headerBytes + payload)·ticksPerByte; its head is at
 * the next PBU at g + headerBytes·ticksPerByte, which may then arbitrate and
 * forward it before its tail has arrived. The buffer is freed when the last
 * byte has been forwarded. A packet is delivered when its last byte has
 * entered the node input port.
 *
 * Routing (§6): fixed packet and wormhole use e-cube (lowest differing bit
 * first). Quasi-adaptive: the message goes to the shortest viable send queue
 * (slots whose dimension brings it closer; A13: length counts the message
 * being sent; ties to the e-cube slot, then the lowest dimension — the e-cube
 * slot is the lowest viable one, so this is "lowest dimension among the
 * shortest"); if that is not the e-cube dimension, the message's packets are
 * contrary at their first PBU and follow e-cube after it (A3: they may leave
 * on a lower dimension).
 *
 * Wormhole (fluid worm, icemu's reading: docs/buzzard-ch5.md#wormhole-source-slot): a message is one worm of W = headerBytes
 * + bytes bytes on an e-cube path of d links plus the destination's node
 * input port. Each node holds at most F = headerBytes + arbitrationTicks /
 * ticksPerByte bytes of a worm (the header plus what arrives during one
 * arbitration: exactly what an unblocked worm accumulates, so an unblocked
 * worm never stalls). The head needs headerBytes to route, then arbitrates
 * like a packet; while it waits the worm stalls, holding every link it has.
 * With grants g_1 … g_{d+1} the worm's tail crosses link j at
 *   τ_j = g_k + (W − (k−j)·F)·ticksPerByte,  k = min(j + ⌈W/F⌉ − 1, d + 1),
 * (the worm fills ⌈W/F⌉ node buffers; the node input port has no limit), so
 * the data reach the node input port at link rate from g_{d+1} on:
 *   first = g_{d+1} + (headerBytes + min(packetBytes, bytes))·ticksPerByte,
 *   last  = g_{d+1} + W·ticksPerByte.
 * A worm holds link j together with the buffer at its far end (one worm per
 * input buffer) until its tail has left that buffer, τ_{j+1}; the source slot
 * is free for the next message at τ_1; the node input port at `last`.
 *
 * Output: per message the first-packet and last-byte times measured from
 * queueing (§10.3 "first" and "last"), link busy ticks (bytes·ticksPerByte
 * per link; for wormhole also the held ticks), the §10.3 ideal link
 * utilisation, and optionally the event trace in the shared vocabulary.
 * Deadlock: if the event queue runs dry with messages undelivered, the run
 * stops and reports it (no progress is possible in a discrete-event model
 * once nothing is scheduled).
 */
import type { TraceEvent } from '../../traces/events/vocabulary.ts';
import type { TlmResult } from './types.ts';
import { validateWorkload, type Workload } from '../workloads/types.ts';
import { resolveTlmConfig, type TlmConfig, type Transport } from './config.ts';
import { EventQueue } from './event-queue.ts';
import { grantWorm, headWorm, release, slotFree, tryWorm } from './wormhole.ts';
import { tlmResult } from './result.ts';
import { nipFree, pbuFree } from './node-ports.ts';
import { grantPacket, headPacket, tryPacket, txEnd } from './packet.ts';
import { nnBroadcastDelays, type NnBroadcastGroup } from './broadcast.ts';
import { ctz, EV_ARRIVE, EV_GRANT, EV_HEAD, EV_LEG, EV_NNSTART, EV_OFREE, EV_PBUFREE, EV_RELEASE, EV_SLOTFREE, EV_TXEND } from './internal.ts';

export type { MessageTimes, StuckPbu, TlmDeadlock, TlmResources, TlmResult, TlmStats } from './types.ts';

export class BuzzardTlm {
  readonly cfg: TlmConfig;
  readonly n: number;
  readonly n1: number;
  readonly N: number;
  readonly B: number;
  readonly M: number;
  readonly tpb: number;
  readonly arb: number;
  readonly H: number;
  readonly P: number;
  readonly worm: boolean;
  readonly adaptive: boolean;
  readonly rule: boolean;
  readonly rec: boolean;
  /** Ticks after a packet's first byte before the next PBU may route it (config.forwardStart); −1 = the whole packet. */
  readonly fwd: number;
  /** RTL-calibrated terms (config.ts): framing per packet, wire word, first-packet prefix, injection, queued, store. */
  readonly framing: number;
  readonly wordB: number;
  readonly prefix: number;
  readonly inj: number;
  readonly store: boolean;
  readonly rotate: boolean;
  /** Wormhole source slot frees at τ_1 (config.wormholeSlotFree 'tail-sent'), else at delivery. */
  readonly slotAtTail: boolean;
  readonly events: TraceEvent[] = [];
  readonly q = new EventQueue(4096);
  now = 0;
  processed = 0;
  deliveredCount = 0;
  orderViolations = 0;
  contraryMessages = 0;

  // Messages.
  readonly mT: Float64Array;
  readonly mSrc: Int32Array;
  readonly mDst: Int32Array;
  readonly mBytes: Float64Array;
  readonly mNPk: Int32Array;
  readonly mDim: Uint8Array;
  readonly mContr: Uint8Array;
  readonly mNextQ: Int32Array;
  readonly mDelivered: Int32Array;
  readonly mFirst: Float64Array;
  readonly mLast: Float64Array;
  /** Time the first packet (worm) was granted on its first link (source wait ends). */
  readonly mInj: Float64Array;
  // Broadcast (packet transports, broadcast.ts): a broadcast message m is sent as n legs, one per source slot
  // (dimension j), internal message indices M, M + 1, …; mOrig maps a leg to m, bcOf[m] numbers the broadcasts.
  readonly MI: number;
  readonly mOrig: Int32Array;
  readonly mBc: Uint8Array;
  readonly bcOf: Int32Array;
  readonly bcLeg0: Int32Array;
  readonly bcCount: Int32Array;
  readonly bcFirst: Float64Array;
  readonly bcLast: Float64Array;
  readonly bcDone: Int32Array;
  // Wormhole per message: links granted so far, current head node, path outputs and grant times.
  readonly mHop: Uint8Array;
  readonly mCur: Int32Array;
  readonly mPathQ: Int32Array;
  readonly mPathG: Float64Array;

  // Slots (x·n + j − 1): send queue as a linked list of messages.
  readonly sHead: Int32Array;
  readonly sTail: Int32Array;
  readonly sCount: Int32Array;
  readonly sNextPkt: Int32Array;
  readonly sBusy: Uint8Array;

  // PBUs (x·n + i − 1).
  readonly pFree: Int32Array;
  readonly pContr: Int32Array;
  readonly pBusy: Uint8Array;
  readonly pLen: Int32Array;
  readonly pList: Int32Array; // p·B + k: buffer indices in arrival order
  readonly pReady: Int32Array; // p·(n+1) + o: packets (wormhole: heads) ready for output o
  readonly pWait: Int32Array; // wormhole: the worm whose head waits in input unit p
  readonly pLast: Uint8Array; // the output PBU p forwarded to last (pbuOutputOrder 'rotate')
  // PBU occupancy integrals (resource report): Σ occupied·dt, Σ dt while full, time of the last change.
  readonly pOccInt: Float64Array;
  readonly pFullInt: Float64Array;
  readonly pLastT: Float64Array;

  // Buffers (p·B + k).
  readonly bMsg: Int32Array;
  readonly bPkt: Int32Array;
  readonly bNext: Uint8Array;
  readonly bReady: Uint8Array;
  readonly bContr: Uint8Array;
  readonly bBc: Uint8Array; // a broadcast copy: after each copy the next port moves on (O_0, then O_{i+1} … O_n)

  // Outputs: crossbar outputs x·(n+1) + o, then (delivery 'per-link') one ejection channel per PBU, N·(n+1) + p.
  readonly perLink: boolean;
  readonly oNode: Int32Array;
  readonly oPort: Uint8Array;
  readonly oEj: Int32Array;
  readonly oState: Uint8Array;
  readonly oRR: Uint8Array;
  /** config.arbiter 'tree': per crossbar output, the priority bit of each of its 2n − 1 tree nodes (depth-first). */
  readonly tree: boolean;
  readonly tPri: Uint8Array;
  readonly tElig: Uint8Array;
  readonly oWin: Uint8Array;
  readonly oMsg: Int32Array;
  readonly oPkt: Int32Array;
  readonly oSrcBuf: Int32Array;
  /** Node input port released early (config.nipReleaseTicks): the packet still entering it, whose EV_TXEND carries qo + oCount. */
  readonly nipRel: number;
  readonly nipPbuRel: number;
  readonly oCount: number;
  /** config.sendRxDelayTicks, and per node the time its node input port's current packet has entered completely. */
  readonly rxDelay: number;
  /** config.pbuReleaseTicks, and per output whether its sending PBU and buffer were released early (EV_PBUFREE). */
  readonly pbuRel: number;
  readonly oPbuEarly: Uint8Array;
  readonly nipUntil: Float64Array;
  readonly tMsg: Int32Array;
  readonly tPkt: Int32Array;
  readonly tWin: Uint8Array;
  readonly tSrcBuf: Int32Array;
  readonly oDstBuf: Int32Array;
  readonly oSince: Float64Array;
  readonly busy: Float64Array;
  readonly held: Float64Array;

  // Outputs waiting for an arbitration attempt once all events of the current time are in.
  readonly dirty: Int32Array;
  readonly dirtyFlag: Uint8Array;
  dHead = 0;
  dLen = 0;

  /** Per message, the near-neighbour broadcast instruction's extra ticks before it joins its queue (broadcast.ts nnBroadcastDelays), or null. */
  readonly nnExtra: Float64Array | null;

  constructor(
    readonly w: Workload,
    cfg: TlmConfig,
    nnBroadcasts: readonly NnBroadcastGroup[] = [],
  ) {
    this.nnExtra = nnBroadcastDelays(w, nnBroadcasts, cfg);
    this.cfg = cfg;
    const n = (this.n = w.cubeDegree);
    const n1 = (this.n1 = n + 1);
    const N = (this.N = 2 ** n);
    const B = (this.B = cfg.buffersPerPbu);
    const M = (this.M = w.messages.length);
    this.tpb = cfg.ticksPerByte;
    this.arb = cfg.arbitrationTicks;
    this.H = cfg.headerBytes;
    this.P = cfg.packetBytes;
    this.worm = cfg.transport === 'wormhole';
    this.adaptive = cfg.transport === 'quasi-adaptive';
    this.rule = cfg.deadlockRule;
    this.rec = cfg.recordEvents;
    const fs = cfg.forwardStart;
    this.fwd = fs === 'header' ? cfg.headerBytes * cfg.ticksPerByte : fs === 'packet' ? -1 : typeof fs === 'number' ? fs * cfg.ticksPerByte : fs.ticks;
    this.framing = cfg.framingTicks;
    this.wordB = cfg.wireWordBytes;
    this.prefix = this.worm ? 0 : cfg.firstPacketPrefixBytes;
    this.inj = cfg.injectionTicks;
    const st = cfg.storeTicks;
    this.store = st.fullWord > 0 || st.partialWord > 0 || st.shortFirstExtra > 0;
    this.rotate = cfg.pbuOutputOrder === 'rotate';
    this.slotAtTail = cfg.wormholeSlotFree === 'tail-sent';

    const nBc = w.messages.reduce((a, m) => a + (m.kind === 'broadcast' ? 1 : 0), 0);
    const MI = (this.MI = M + nBc * n);
    this.mT = new Float64Array(MI);
    this.mSrc = new Int32Array(MI);
    this.mDst = new Int32Array(MI);
    this.mBytes = new Float64Array(MI);
    this.mNPk = new Int32Array(MI);
    this.mDim = new Uint8Array(MI);
    this.mContr = new Uint8Array(MI);
    this.mNextQ = new Int32Array(MI).fill(-1);
    this.mDelivered = new Int32Array(MI);
    this.mFirst = new Float64Array(MI).fill(NaN);
    this.mLast = new Float64Array(MI).fill(NaN);
    this.mInj = new Float64Array(MI).fill(NaN);
    this.mOrig = new Int32Array(MI);
    this.mBc = new Uint8Array(MI);
    this.bcOf = new Int32Array(M).fill(-1);
    this.bcLeg0 = new Int32Array(nBc);
    this.bcCount = new Int32Array(nBc * N);
    this.bcFirst = new Float64Array(nBc * N).fill(NaN);
    this.bcLast = new Float64Array(nBc * N).fill(NaN);
    this.bcDone = new Int32Array(nBc);
    const wm = this.worm ? M : 0;
    this.mHop = new Uint8Array(wm);
    this.mCur = new Int32Array(wm);
    this.mPathQ = new Int32Array(wm * n1);
    this.mPathG = new Float64Array(wm * n1);
    for (let k = 0; k < M; k++) {
      const m = w.messages[k]!;
      this.mT[k] = m.t;
      this.mSrc[k] = m.src;
      this.mDst[k] = m.dst;
      this.mBytes[k] = m.bytes;
      this.mNPk[k] = this.worm ? 1 : Math.max(1, Math.ceil((m.bytes + this.prefix) / this.P));
      this.mOrig[k] = k;
    }
    let leg = M;
    for (let k = 0; k < M; k++) {
      if (w.messages[k]!.kind !== 'broadcast') continue;
      const b = (leg - M) / n;
      this.bcOf[k] = b;
      this.bcLeg0[b] = leg;
      for (let j = 1; j <= n; j++, leg++) {
        this.mT[leg] = this.mT[k]!;
        this.mSrc[leg] = this.mSrc[k]!;
        this.mDst[leg] = this.mSrc[k]!;
        this.mBytes[leg] = this.mBytes[k]!;
        this.mNPk[leg] = this.mNPk[k]!;
        this.mDim[leg] = j;
        this.mOrig[leg] = k;
        this.mBc[leg] = 1;
      }
    }

    const S = N * n;
    this.sHead = new Int32Array(S).fill(-1);
    this.sTail = new Int32Array(S).fill(-1);
    this.sCount = new Int32Array(S);
    this.sNextPkt = new Int32Array(S);
    this.sBusy = new Uint8Array(S);

    const pb = this.worm ? 0 : S * B;
    this.pFree = new Int32Array(S).fill(B);
    this.pContr = new Int32Array(S);
    this.pBusy = new Uint8Array(S);
    this.pLen = new Int32Array(S);
    this.pList = new Int32Array(pb);
    this.pReady = new Int32Array(S * n1);
    this.pWait = new Int32Array(this.worm ? S : 0).fill(-1);
    this.pLast = new Uint8Array(S);
    this.pOccInt = new Float64Array(S);
    this.pFullInt = new Float64Array(S);
    this.pLastT = new Float64Array(S);
    this.bMsg = new Int32Array(pb).fill(-1);
    this.bPkt = new Int32Array(pb);
    this.bNext = new Uint8Array(pb);
    this.bReady = new Uint8Array(pb);
    this.bContr = new Uint8Array(pb);
    this.bBc = new Uint8Array(pb);

    this.perLink = cfg.delivery === 'per-link';
    const O = N * n1 + (this.perLink ? S : 0);
    this.oNode = new Int32Array(O);
    this.oPort = new Uint8Array(O);
    this.oEj = new Int32Array(O).fill(-1);
    for (let x = 0; x < N; x++) for (let o = 0; o < n1; o++) {
      this.oNode[x * n1 + o] = x;
      this.oPort[x * n1 + o] = o;
    }
    if (this.perLink) for (let p = 0; p < S; p++) {
      this.oNode[N * n1 + p] = (p / n) | 0;
      this.oPort[N * n1 + p] = 0;
      this.oEj[N * n1 + p] = p;
    }
    this.oState = new Uint8Array(O);
    this.oRR = new Uint8Array(O);
    this.tree = cfg.arbiter === 'tree' && !this.worm;
    this.tPri = new Uint8Array(this.tree ? N * n1 * (2 * n - 1) : 0);
    this.tElig = new Uint8Array(2 * n);
    this.oWin = new Uint8Array(O);
    this.oMsg = new Int32Array(O).fill(-1);
    this.oPkt = new Int32Array(O);
    this.oSrcBuf = new Int32Array(O).fill(-1);
    this.nipRel = this.worm ? 0 : cfg.nipReleaseTicks;
    this.nipPbuRel = this.nipRel > 0 ? cfg.nipPbuReleaseTicks : 0;
    this.oCount = O;
    this.rxDelay = cfg.sendRxDelayTicks;
    this.pbuRel = this.worm ? 0 : cfg.pbuReleaseTicks;
    this.oPbuEarly = new Uint8Array(O);
    this.nipUntil = new Float64Array(this.rxDelay > 0 ? N : 0);
    const tO = this.nipRel > 0 ? O : 0;
    this.tMsg = new Int32Array(tO);
    this.tPkt = new Int32Array(tO);
    this.tWin = new Uint8Array(tO);
    this.tSrcBuf = new Int32Array(tO);
    this.oDstBuf = new Int32Array(O).fill(-1);
    this.oSince = new Float64Array(O);
    this.busy = new Float64Array(O);
    this.held = new Float64Array(O);
    this.dirty = new Int32Array(O);
    this.dirtyFlag = new Uint8Array(O);
  }

  // ------------------------------------------------------------ helpers

  emit(t: number, kind: TraceEvent['kind'], msg: number, node: number, packet: number, unit: string, port: number): void {
    this.events.push({ t, kind, msg: this.mOrig[msg]!, node, packet, unit, port });
  }

  markDirty(o: number): void {
    if (this.dirtyFlag[o]) return;
    this.dirtyFlag[o] = 1;
    const cap = this.dirty.length;
    let i = this.dHead + this.dLen;
    if (i >= cap) i -= cap;
    this.dirty[i] = o;
    this.dLen++;
  }

  flushDirty(): void {
    const cap = this.dirty.length;
    while (this.dLen > 0) {
      const o = this.dirty[this.dHead]!;
      this.dHead = this.dHead + 1 === cap ? 0 : this.dHead + 1;
      this.dLen--;
      this.dirtyFlag[o] = 0;
      if (this.worm) tryWorm(this, o);
      else tryPacket(this, o);
    }
  }

  /** Accumulate PBU p's occupancy up to now (called before its free count changes). */
  pbuTouch(p: number): void {
    const dt = this.now - this.pLastT[p]!;
    const free = this.pFree[p]!;
    this.pOccInt[p] += dt * (this.B - free);
    if (free === 0) this.pFullInt[p] += dt;
    this.pLastT[p] = this.now;
  }

  /** The output a packet in PBU p of node x takes for port o (the PBU's own ejection channel for o = 0 with per-link delivery). */
  outIdx(x: number, p: number, o: number): number {
    return o === 0 && this.perLink ? this.N * this.n1 + p : x * this.n1 + o;
  }

  /** Output port wanted at node x by a packet for dst (0 = node input port), §6.4. */
  nextPort(x: number, dst: number): number {
    return x === dst ? 0 : ctz(x ^ dst) + 1;
  }

  // ------------------------------------------------------------ run

  run(): void {
    const q = this.q;
    const M = this.M;
    const maxEvents = this.cfg.maxEvents;
    let ai = 0;
    for (;;) {
      const tq = q.peekTime();
      if (ai < M && this.mT[ai]! + this.inj <= tq) {
        this.now = this.mT[ai]! + this.inj;
        const m = ai++;
        if (this.nnExtra !== null && this.nnExtra[m]! > 0) this.q.push(this.now + this.nnExtra[m]!, EV_NNSTART, m);
        else this.start(m);
      } else if (q.size > 0) {
        q.pop();
        this.now = q.time;
        this.processed++;
        switch (q.type) {
          case EV_GRANT:
            if (this.worm) grantWorm(this, q.arg);
            else grantPacket(this, q.arg);
            break;
          case EV_HEAD:
            if (this.worm) headWorm(this, q.arg);
            else headPacket(this, q.arg);
            break;
          case EV_TXEND:
            txEnd(this, q.arg);
            break;
          case EV_OFREE:
            nipFree(this, q.arg);
            break;
          case EV_RELEASE:
            release(this, q.arg);
            break;
          case EV_SLOTFREE:
            slotFree(this, q.arg);
            break;
          case EV_PBUFREE:
            pbuFree(this, q.arg);
            break;
          case EV_ARRIVE:
            this.arrive(q.arg);
            break;
          case EV_NNSTART:
            this.start(q.arg);
            break;
          case EV_LEG:
            this.enqueue(q.arg, this.mDim[q.arg]!);
            break;
        }
        if (this.processed >= maxEvents) throw new Error(`tlm: stopped after maxEvents = ${maxEvents} events at t = ${this.now}`);
      } else break;
      const next = Math.min(q.peekTime(), ai < M ? this.mT[ai]! + this.inj : Infinity);
      if (next > this.now && this.dLen > 0) this.flushDirty();
    }
  }

  /** Message m's send starts at its source's control unit. */
  start(m: number): void {
    // config.sendRxDelayTicks: the source's control unit is serving a packet entering its node input port
    if (this.rxDelay > 0 && this.now < this.nipUntil[this.mSrc[m]!]!) this.q.push(this.now + this.rxDelay, EV_ARRIVE, m);
    else this.arrive(m);
  }

  /** A message is queued at its source: choose the slot (§6.2, §6.3, A13). */
  arrive(m: number): void {
    if (this.bcOf[m]! >= 0) {
      // Broadcast: every slot sends its leg (A11: the source uses all n slots, a binomial spanning tree).
      const leg0 = this.bcLeg0[this.bcOf[m]!]!;
      const c = this.cfg;
      for (let j = 0; j < this.n; j++) {
        const extra = c.broadcastInjectionTicks + (j + 1) * c.broadcastSlotStaggerTicks;
        if (extra > 0) this.q.push(this.now + extra, EV_LEG, leg0 + j);
        else this.enqueue(leg0 + j, j + 1);
      }
      if (this.rec) this.events.push({ t: this.mT[m]! + this.cfg.queuedTicks, kind: 'message-queued', msg: m, node: this.mSrc[m]!, unit: 'nop', port: 0 });
      return;
    }
    const n = this.n;
    const src = this.mSrc[m]!;
    const diff = src ^ this.mDst[m]!;
    const ecube = ctz(diff) + 1;
    let dim = ecube;
    if (this.adaptive) {
      let best = this.sCount[src * n + ecube - 1]!;
      for (let i = ecube + 1; i <= n; i++) {
        if (!(diff & (1 << (i - 1)))) continue;
        const c = this.sCount[src * n + i - 1]!;
        if (c < best) {
          best = c;
          dim = i;
        }
      }
    }
    this.mDim[m] = dim;
    if (dim !== ecube) {
      this.mContr[m] = 1;
      this.contraryMessages++;
    }
    this.enqueue(m, dim);
    if (this.rec) this.events.push({ t: this.mT[m]! + this.cfg.queuedTicks, kind: 'message-queued', msg: m, node: src, unit: 'nop', port: dim });
  }

  /** Message (or broadcast leg) m joins the send queue of slot `dim` at its source. */
  enqueue(m: number, dim: number): void {
    const src = this.mSrc[m]!;
    this.mDim[m] = dim;
    const s = src * this.n + dim - 1;
    if (this.sTail[s]! >= 0) this.mNextQ[this.sTail[s]!] = m;
    else this.sHead[s] = m;
    this.sTail[s] = m;
    this.sCount[s]++;
    this.markDirty(src * this.n1 + dim);
  }

}

/**
 * Run the Buzzard TLM on a workload. `config.transport` is required; every
 * other field defaults to the Chapter 5 base configuration (TLM_CH5_DEFAULTS).
 * `nnBroadcasts`: groups of message ids that are one near-neighbour broadcast
 * instruction each (broadcast.ts; they start late by config.nnBroadcastTicks …).
 * Same workload and config → same result and events, bit for bit.
 */
export function runTlm(workload: Workload, config: Partial<TlmConfig> & { readonly transport: Transport }, nnBroadcasts: readonly NnBroadcastGroup[] = []): TlmResult {
  const cfg = resolveTlmConfig(config);
  validateWorkload(workload);
  if (workload.cubeDegree > 16) throw new RangeError(`tlm: cube degree ${workload.cubeDegree} is outside 1..16`);
  const b = workload.messages.find((m) => m.kind !== 'unicast');
  if (b && cfg.transport === 'wormhole') throw new RangeError(`tlm: workload.messages[${b.id}].kind: '${b.kind}' is not supported by the wormhole transport (packet transports only)`);
  const sim = new BuzzardTlm(workload, cfg, nnBroadcasts);
  sim.run();
  return tlmResult(sim);
}
