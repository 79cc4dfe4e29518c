/**
 * The token-credit (RTL-calibrated) link model of the T9000/C104 TLM
 * (ARCHITECTURE.md "The TLM, calibrated and seed-level";
 * docs/thesis-model.md#token-credit). Where the packet-passing model
 * (packet-network.ts) is the thesis's own simulator, this one follows the
 * RTL (rtl/c104, rtl/dslink, rtl/t9000) token by token, so that the two can
 * be held against each other (harness/compare/c104.ts):
 *
 * - every DS-link direction serialises one token at a time: a data token
 *   (header and data bytes) 10 bits, EOP/EOM 4 bits, an FCT 4 bits, FCTs
 *   first (the RTL's FCT > normal > NULL order, docs/dslink.md);
 * - per-token credit: a transmitter sends a normal token only with credit;
 *   the receiver owes an FCT (8 credits) when its buffer has 8 places beyond
 *   what it has promised, within the credit cap (the rule of
 *   rtl/dslink/credit.ts); the FCT travels on the reverse direction;
 * - the NULL train: an idle transmitter sends NULLs (8 bits) and takes a
 *   token only at a NULL boundary, so a token that becomes ready at t starts
 *   at the train's next boundary (at once right after a token). Every link
 *   starts its NULLs `linkStartBits` before time 0 and, in start-up, sends
 *   the FCTs of its own receiver's first grant: the phase at time 0 follows
 *   (rtl/dslink/tx_tokens.ts, tx_serialiser.ts);
 * - a token is taken by the receiver `rxLatencyBits` after its last bit (the
 *   RTL's decoder hands a token on after the next token's parity check, and
 *   the next token, a NULL if nothing else, always follows at once);
 * - the C104: input buffer (stc104 35 tokens) → the router takes the header
 *   into its registers (its places are free for credit at once) and routes
 *   it (lookup + routing delay) → FIFO crossbar arbitration per output group
 *   (hunt group to the T9000) → one token per cycle into the output buffer
 *   (stc104 35) → the output link; the connection is held until the
 *   terminator (EOP/EOM) has passed (wormhole);
 * - the T9000 endpoint: ack and data queues (acks first with ack priority),
 *   a transmit port per link that copies a packet's tokens into its link's
 *   transmit buffer (56 tokens) and takes the next packet when the last
 *   one's terminator has left. With t9000Links 'per-channel' (the RTL's
 *   rule) every link has its own ack and data queues and a packet joins those
 *   of link `chan mod links`, its channel's; with 'hunt-group' a message's
 *   first packet takes any idle link of the node (§4.2.2), its later packets
 *   the same link (docs/thesis-model.md#t9000-links); the receiver takes every token at
 *   once; the header is "in" (ack generated) when it is taken, and the
 *   packet is delivered when its terminator is taken (the RTL recorder's
 *   stamps, docs/t9000.md#events).
 *
 * Not modelled (named, docs/thesis-model.md#token-credit): link start-up
 * itself (credit is full at time 0, only its NULL phase is kept), errors.
 * Times are ns; one bit time is nsPerDataToken / 10.
 */
import type { C104Config } from './config.ts';
import { ACK, EV_DELIVER_HEAD, EV_DELIVER_TAIL, type EndpointSink, type Packet, type SimContext, type Transport } from './core.ts';
import { IntFifo } from '../../../rtl/lib/int_fifo.ts';
import { dorDirection, neighbour } from './topology.ts';
import type { Rng } from '../../workloads/rng.ts';

/** Event codes of this transport (below ENDPOINT_EVENT_BASE, apart from core.ts's). */
export const EV_TOK_TX = 10; // arg: direction — its transmitter finished a token
export const EV_TOK_ARRIVE = 11; // arg: direction — the oldest token in flight reached the receiver
export const EV_TOK_ROUTE = 12; // arg: direction (a C104 input) — its head packet's header is routed
export const EV_TOK_XBAR = 13; // arg: direction (a C104 input) — the crossbar moves its next token
export const EV_TOK_PORT = 14; // arg: injection direction — its T9000 transmit port starts copying a packet
export const EV_TOK_FCT = 15; // arg: direction — an FCT reached the receiver
export const EV_TOK_TAKE = 16; // arg: direction — its idle transmitter reaches a NULL boundary with a token to send

/**
 * Constants of the token-credit mode that the seed does not give, measured
 * on the RTL at zero load (docs/thesis-model.md#token-credit, fitted by
 * test/tlm/token-credit.test.ts against harness/rtl/c104_system.ts).
 */
export const TOKEN_CREDIT_RTL = Object.freeze({
  /** Bit times from a token's last bit to the receiver taking it (C104 input buffer or router, T9000 receive port: the next token's parity check); FCTs too. */
  rxLatencyBits: 6,
  /** Bit times from the header taken by the C104 input's router to its crossbar request, beyond the routing delay (the router's register, ROUTE state and request register, rtl/c104/input_router.ts). */
  lookupBits: 4,
  /** Bit times from a crossbar grant to the first token in the output buffer (the output register). */
  crossbarBits: 0,
  /** Bit times from a packet taken from the T9000 queue to its first token in the link's transmit buffer (the transmit port offers it in the same cycle). */
  txStartBits: 0,
  /** T9000 / C104 transmit and receive buffers, tokens (rtl/dslink DEFAULT_DSLINK 56; the C104's from its buffer preset). */
  endpointBufferTokens: 56,
  /** Credit cap of a DS-link (rtl/dslink: 56). */
  creditCap: 56,
  /** Bit times from every link's first NULL to time 0, when traffic starts (the RTL's start-up takes it at cycle 1921, traffic at RTL_START_CYCLES 2500). */
  linkStartBits: 579,
  /** Bits of a NULL (ESC + FCT). */
  nullBits: 8,
});

/** Token index of the first random-header token (two-phase); a packet's own tokens are 0..tokens−1 < 60. */
const PFX = 60;

const INJ = 0; // T9000 → C104
const DEL = 1; // C104 → T9000
const INT = 2; // C104 → C104
const LOOP = 3; // two-phase: a C104's phase-1 "local" link cabled back to its own header-deleting input (and the FCT direction back)

export class TokenNetwork implements Transport {
  private readonly N: number;
  private readonly W: number;
  private readonly bitNs: number;
  private readonly ctlNs: number;
  private readonly dataNs: number;
  private readonly rxLatNs: number;
  private readonly routeNs: number;
  private readonly xbarNs: number;
  private readonly txStartNs: number;
  private readonly hb: number;
  private readonly xFirst: boolean;
  /** Internal link planes (two-phase: phase 1 and phase 2 on separate links, §2.2.2) and output groups per node. */
  private readonly planes: number;
  private readonly gpn: number;
  /** Two-phase: the first loopback direction (node n's pair at loopBase + 2n, loopBase + 2n + 1). */
  private readonly loopBase: number;
  private readonly twoPhase: boolean;
  /** Per direction: its next normal token starts a packet (headStarts). */
  private readonly txHead: Uint8Array;
  /** Per C104 input: the packet arriving carries a random header (two-phase, phase 1). */
  private readonly rxPfx: Uint8Array;
  /** Per C104 input: its head packet's random header was deleted; the next header completed routes it. */
  private readonly awaitHeader: Uint8Array;
  /** Per C104 input: random-header tokens still to send ahead of its connected packet (header generation). */
  private readonly pfxOut: Int32Array;
  // per direction
  private readonly kind: Uint8Array;
  private readonly node: Int32Array; // the transmitting end's node
  private readonly rev: Int32Array;
  private readonly group: Int32Array; // output group of a C104 output direction
  private readonly txQ: IntFifo[];
  private readonly txCap: Int32Array;
  private readonly txBusy: Uint8Array;
  /** Idle transmitter: a token boundary of its NULL train (the end of its last token); a take is pending when txTake is set. */
  private readonly txIdleFrom: Float64Array;
  private readonly txTake: Uint8Array;
  private readonly nullNs: number;
  private readonly credit: Int32Array;
  private readonly fctOwed: Int32Array;
  private readonly inflight: IntFifo[];
  private readonly rxQ: IntFifo[];
  private readonly rxDepth: Int32Array;
  private readonly rxOut: Int32Array;
  /** Header tokens of rxQ's head packet that the C104 input's router has taken into its registers (no longer in the buffer). */
  private readonly rxHeld: Int32Array;
  private readonly busyNs: Float64Array;
  // C104 crossbar: input direction ↔ output direction
  private readonly inConn: Int32Array;
  private readonly outConn: Int32Array;
  private readonly xbarPending: Uint8Array;
  private readonly routed: Uint8Array;
  private readonly waiting: number[][];
  readonly routedBySwitch: Float64Array;
  // T9000 transmit ports (one per injection direction): packet being copied and its next token
  private readonly portPkt: Int32Array;
  private readonly portNext: Int32Array;
  private readonly portStart: Float64Array;
  private readonly ackQ: IntFifo[];
  private readonly dataQ: IntFifo[];
  /**
   * Per transmit port: its own data queue: 'hunt-group': later packets of messages whose first
   * packet it sent (a message keeps its link); 'per-channel': every data packet of its channels.
   */
  private readonly pinQ: IntFifo[];
  /** Per transmit port: its own ack queue ('per-channel'). */
  private readonly portAckQ: IntFifo[];
  private readonly perChannel: boolean;
  /** Message (src·msg key) → the port its first packet took. */
  private readonly msgPort = new Map<number, number>();

  constructor(
    private readonly c: C104Config,
    private readonly ctx: SimContext,
    private readonly sink: EndpointSink,
    private readonly rng: Rng,
  ) {
    const D = c.side;
    const N = (this.N = D * D);
    const W = (this.W = c.cpuLinkWidth);
    const k = TOKEN_CREDIT_RTL;
    this.bitNs = c.nsPerDataToken / 10;
    this.dataNs = c.nsPerDataToken;
    this.ctlNs = c.nsPerControlToken;
    this.rxLatNs = k.rxLatencyBits * this.bitNs;
    this.routeNs = k.lookupBits * this.bitNs + c.routingDelayNs;
    this.xbarNs = k.crossbarBits * this.bitNs;
    this.txStartNs = k.txStartBits * this.bitNs;
    this.hb = c.headerBytes;
    this.xFirst = c.routing !== 'yx';
    this.twoPhase = c.routing === 'two-phase';
    const planes = (this.planes = this.twoPhase ? 2 : 1);
    // Two-phase: one more output group per node, the loopback to the header-deleting input.
    const gpn = (this.gpn = 4 * planes + (this.twoPhase ? 2 : 1));
    const loopBase = (this.loopBase = 2 * N * W + 4 * N * planes);
    const Dn = loopBase + (this.twoPhase ? 2 * N : 0);
    this.txHead = new Uint8Array(Dn).fill(1);
    this.rxPfx = new Uint8Array(Dn);
    this.awaitHeader = new Uint8Array(Dn);
    this.pfxOut = new Int32Array(Dn);
    this.kind = new Uint8Array(Dn);
    this.node = new Int32Array(Dn);
    this.rev = new Int32Array(Dn).fill(-1);
    this.group = new Int32Array(Dn).fill(-1);
    this.txQ = Array.from({ length: Dn }, () => new IntFifo());
    this.txCap = new Int32Array(Dn);
    this.txBusy = new Uint8Array(Dn);
    this.txIdleFrom = new Float64Array(Dn);
    this.txTake = new Uint8Array(Dn);
    this.nullNs = k.nullBits * this.bitNs;
    this.credit = new Int32Array(Dn);
    this.fctOwed = new Int32Array(Dn);
    this.inflight = Array.from({ length: Dn }, () => new IntFifo());
    this.rxQ = Array.from({ length: Dn }, () => new IntFifo());
    this.rxDepth = new Int32Array(Dn);
    this.rxOut = new Int32Array(Dn);
    this.rxHeld = new Int32Array(Dn);
    this.busyNs = new Float64Array(Dn);
    this.inConn = new Int32Array(Dn).fill(-1);
    this.outConn = new Int32Array(Dn).fill(-1);
    this.xbarPending = new Uint8Array(Dn);
    this.routed = new Uint8Array(Dn);
    this.waiting = Array.from({ length: N * gpn }, () => []);
    this.routedBySwitch = new Float64Array(N);
    this.portPkt = new Int32Array(N * W).fill(-1);
    this.portNext = new Int32Array(N * W);
    this.portStart = new Float64Array(N * W);
    this.ackQ = Array.from({ length: N }, () => new IntFifo());
    this.dataQ = Array.from({ length: N }, () => new IntFifo());
    this.pinQ = Array.from({ length: N * W }, () => new IntFifo());
    this.portAckQ = Array.from({ length: N * W }, () => new IntFifo());
    this.perChannel = c.t9000Links === 'per-channel';
    const ep = k.endpointBufferTokens;
    const set = (d: number, kind: number, node: number, txCap: number, rxDepth: number): void => {
      this.kind[d] = kind;
      this.node[d] = node;
      this.txCap[d] = txCap;
      this.rxDepth[d] = rxDepth;
      // Credit after link start-up: the receiver has granted ⌊min(depth, cap)/8⌋ FCTs (rtl/dslink/credit.ts).
      const granted = 8 * Math.floor(Math.min(rxDepth, k.creditCap) / 8);
      this.credit[d] = granted;
      this.rxOut[d] = granted;
    };
    for (let n = 0; n < N; n++) {
      for (let j = 0; j < W; j++) {
        const up = n * W + j;
        const down = N * W + n * W + j;
        set(up, INJ, n, ep, c.inputBufferTokens);
        set(down, DEL, n, c.outputBufferTokens, ep);
        this.rev[up] = down;
        this.rev[down] = up;
        this.group[down] = n * gpn + 4 * planes;
      }
      for (let pl = 0; pl < planes; pl++) {
        for (let dir = 0; dir < 4; dir++) {
          const nb = neighbour(n, dir, D);
          if (nb < 0) continue;
          const d = 2 * N * W + (n * planes + pl) * 4 + dir;
          set(d, INT, n, c.outputBufferTokens, c.inputBufferTokens);
          this.rev[d] = 2 * N * W + (nb * planes + pl) * 4 + (dir ^ 1);
          this.group[d] = n * gpn + pl * 4 + dir;
        }
      }
      if (this.twoPhase) {
        // docs/c104.md#two-phase: link c+8 → c+9 of the same C104; c+9's input deletes the random header.
        const out = loopBase + 2 * n;
        set(out, LOOP, n, c.outputBufferTokens, c.inputBufferTokens);
        set(out + 1, LOOP, n, c.outputBufferTokens, c.inputBufferTokens);
        this.rev[out] = out + 1;
        this.rev[out + 1] = out;
        this.group[out] = n * gpn + 4 * planes + 1;
      }
    }
    // The NULL train's phase at time 0: every link starts sending NULLs linkStartBits before; in
    // start-up each transmitter also sends the FCTs of its own receiver's first grant (4 bits each),
    // the rest are NULLs (rtl/dslink/tx_tokens.ts, docs/thesis-model.md#token-credit).
    for (let d = 0; d < Dn; d++) {
      if (this.rev[d]! < 0) continue;
      this.txIdleFrom[d] = (-k.linkStartBits + (this.rxOut[this.rev[d]!]! / 8) * 4) * this.bitNs;
    }
  }

  inject(p: Packet, now: number): void {
    if (this.twoPhase) {
      // Two-phase: the intermediate node is drawn from the network's stream at injection (docs/thesis-model.md#routing).
      p.phase = 0;
      const f = this.c.fixedIntermediates;
      p.intermediate = f ? f[p.src]! : this.rng.nextInt(this.N);
    }
    if (this.perChannel) {
      const port = p.src * this.W + (p.chan % this.W);
      (p.kind === ACK && this.c.t9000AckPriority ? this.portAckQ : this.pinQ)[port]!.push(p.id);
      return this.serveT9000(p.src, now);
    }
    const pinned = p.kind === ACK || p.index === 0 ? undefined : this.msgPort.get(this.msgKey(p));
    if (pinned !== undefined) this.pinQ[pinned]!.push(p.id);
    else if (p.kind === ACK && this.c.t9000AckPriority) this.ackQ[p.src]!.push(p.id);
    else this.dataQ[p.src]!.push(p.id);
    this.serveT9000(p.src, now);
  }

  dataQueueLength(node: number): number {
    let n = this.dataQ[node]!.length;
    for (let j = 0; j < this.W; j++) n += this.pinQ[node * this.W + j]!.length;
    return n;
  }

  internalBusy(): { busyNs: number; activeLinks: number; links: number } {
    let busy = 0;
    let active = 0;
    let links = 0;
    for (let d = 2 * this.N * this.W; d < this.kind.length; d++) {
      if (this.rev[d]! < 0 || this.kind[d] === LOOP) continue;
      links++;
      if (this.busyNs[d]! > 0) active++;
      busy += this.busyNs[d]!;
    }
    return { busyNs: busy, activeLinks: active, links };
  }

  handle(type: number, arg: number, now: number): void {
    switch (type) {
      case EV_TOK_TX:
        this.txBusy[arg] = 0;
        this.txIdleFrom[arg] = now;
        this.kick(arg, now);
        return;
      case EV_TOK_TAKE:
        this.txTake[arg] = 0;
        return this.take(arg, now);
      case EV_TOK_ARRIVE:
        return this.arrive(arg, now);
      case EV_TOK_FCT: {
        const r = this.rev[arg]!;
        this.credit[r]! += 8;
        return this.kick(r, now);
      }
      case EV_TOK_ROUTE:
        return this.route(arg, now);
      case EV_TOK_XBAR:
        this.xbarPending[arg] = 0;
        return this.pump(arg, now);
      case EV_TOK_PORT:
        return this.portCopy(arg, now);
      case EV_DELIVER_HEAD:
        return this.sink.onHead(this.ctx.pool.all[arg]!, now);
      case EV_DELIVER_TAIL: {
        const p = this.ctx.pool.all[arg]!;
        this.sink.onTail(p, now);
        this.ctx.pool.release(p);
        return;
      }
    }
  }

  // ------------------------------------------------------------- T9000 side

  private msgKey(p: Packet): number {
    return p.msg * this.N + p.src;
  }

  /**
   * Idle transmit ports of the node take the next packet: acks first with ack priority (§3.1.1.1),
   * then a data packet of the port's own queue, then the node's data queue ('hunt-group': a
   * message's first packet takes any idle link, its later packets that link; 'per-channel': the
   * node queues stay empty, every packet is in its link's queues), docs/thesis-model.md#t9000-links.
   */
  private serveT9000(n: number, now: number): void {
    const acks = this.ackQ[n]!;
    const data = this.dataQ[n]!;
    for (let j = 0; j < this.W; j++) {
      const port = n * this.W + j;
      if (this.portPkt[port]! >= 0) continue;
      const pins = this.pinQ[port]!;
      const own = this.portAckQ[port]!;
      const id = own.length > 0 ? own.shift() : acks.length > 0 ? acks.shift() : pins.length > 0 ? pins.shift() : data.length > 0 ? data.shift() : -1;
      if (id < 0) continue;
      const p = this.ctx.pool.all[id]!;
      if (!this.perChannel && p.kind !== ACK && p.index === 0) this.msgPort.set(this.msgKey(p), port);
      this.portPkt[port] = id;
      this.portNext[port] = 0;
      this.portStart[port] = now + this.txStartNs;
      this.ctx.queue.push(now + this.txStartNs, EV_TOK_PORT, port);
    }
  }

  /** A transmit port copies tokens of its packet into its link's transmit buffer while there is room. */
  private portCopy(port: number, now: number): void {
    const id = this.portPkt[port]!;
    if (id < 0 || this.portStart[port]! > now) return;
    const p = this.ctx.pool.all[id]!;
    const q = this.txQ[port]!;
    let i = this.portNext[port]!;
    if (i === 0 && this.ctx.events && p.kind !== ACK) {
      // Stamped as the RTL recorder does: the cycle after the first header token was taken into the link's buffer.
      this.ctx.events.push({ t: now + this.bitNs, kind: 'packet-injected', msg: p.msg, node: p.src, packet: p.index, unit: 'tx', port: port % this.W });
    }
    while (i < p.tokens && q.length < this.txCap[port]!) q.push(id * 64 + i++);
    this.portNext[port] = i;
    this.kick(port, now);
  }

  /** The terminator of the port's packet left: the port (and its link) takes the next packet of the node's queues. */
  private portDone(port: number, now: number): void {
    this.portPkt[port] = -1;
    this.serveT9000((port / this.W) | 0, now);
  }

  // ------------------------------------------------------------- links

  /**
   * Direction d has something to send: an idle transmitter is in its NULL train and takes the
   * token at the train's next token boundary (at once when it has just finished a token).
   */
  private kick(d: number, now: number): void {
    if (this.txBusy[d] || this.txTake[d]) return;
    if (this.fctOwed[d]! <= 0 && (this.txQ[d]!.length === 0 || this.credit[d]! <= 0)) return;
    const from = this.txIdleFrom[d]!;
    const at = now <= from ? from : from + Math.ceil((now - from) / this.nullNs - 1e-9) * this.nullNs;
    if (at === now) return this.take(d, now);
    this.txTake[d] = 1;
    this.ctx.queue.push(at, EV_TOK_TAKE, d);
  }

  /** A token boundary with something to send: an owed FCT first, then a normal token with credit (the RTL's choice). */
  private take(d: number, now: number): void {
    if (this.txBusy[d]) return;
    let ns: number;
    let code: number;
    const lat = this.rxLatNs;
    if (this.fctOwed[d]! > 0) {
      this.fctOwed[d]!--;
      this.txBusy[d] = 1;
      this.ctx.queue.push(now + this.ctlNs, EV_TOK_TX, d);
      this.ctx.queue.push(now + this.ctlNs + lat, EV_TOK_FCT, d);
      return;
    } else {
      const q = this.txQ[d]!;
      if (q.length === 0 || this.credit[d]! <= 0) return;
      code = q.shift();
      this.credit[d]!--;
      this.txBusy[d] = 1;
      const p = this.ctx.pool.all[code >> 6]!;
      const idx = code & 63;
      const ctl = idx === p.tokens - 1;
      ns = ctl ? this.ctlNs : this.dataNs;
      this.busyNs[d]! += ns;
      if (this.txHead[d]) {
        this.txHead[d] = 0;
        this.headStarts(d, p, now);
      }
      if (ctl) this.txHead[d] = 1;
      if (this.kind[d] === INJ) {
        if (ctl) this.portDone(d, now);
        else this.portCopy(d, now);
      }
      else {
        const from = this.outConn[d]!;
        if (from >= 0) this.schedulePump(from, now);
      }
    }
    this.inflight[d]!.push(code);
    this.ctx.queue.push(now + ns, EV_TOK_TX, d);
    this.ctx.queue.push(now + ns + lat, EV_TOK_ARRIVE, d);
  }

  private headStarts(d: number, p: Packet, now: number): void {
    p.hops++;
    const kind = this.kind[d]!;
    if (kind === INJ) {
      if (p.firstOut < 0) p.firstOut = now;
    } else {
      this.routedBySwitch[this.node[d]!]!++;
      if (kind === INT && p.firstInternal < 0) p.firstInternal = now;
    }
    if (this.ctx.events && p.kind !== ACK && kind !== INJ) {
      this.ctx.events.push({ t: now, kind: 'packet-forwarded', msg: p.msg, node: this.node[d]!, packet: p.index, unit: 'c104', port: d });
    }
  }

  private arrive(d: number, now: number): void {
    const code = this.inflight[d]!.shift();
    this.rxOut[d]!--;
    const p = this.ctx.pool.all[code >> 6]!;
    const idx = code & 63;
    if (this.kind[d] === DEL) {
      // The T9000 receiver takes every token at once (docs/t9000.md#receive-area).
      this.freed(d, now);
      if (idx === this.hb - 1) {
        if (this.ctx.events && p.kind !== ACK) this.ctx.events.push({ t: now, kind: 'head-arrives', msg: p.msg, node: p.dst, packet: p.index, unit: 'rx', port: d });
        this.ctx.queue.push(now, EV_DELIVER_HEAD, p.id);
      }
      if (idx === p.tokens - 1) this.ctx.queue.push(now, EV_DELIVER_TAIL, p.id);
      return;
    }
    const q = this.rxQ[d]!;
    q.push(code);
    // The routing header: a random header (two-phase, phase 1), else the packet's own header, or its
    // own after the random one was deleted here (docs/thesis-model.md#two-phase-token-credit).
    const routing = idx === PFX + this.hb - 1 || (idx === this.hb - 1 && (!this.rxPfx[d] || this.awaitHeader[d]));
    if (idx >= PFX) this.rxPfx[d] = 1;
    else if (idx === p.tokens - 1) this.rxPfx[d] = 0;
    if (routing) {
      p.routeAt = now + this.routeNs;
      if (this.inConn[d]! < 0 && !this.routed[d] && q.peek() >> 6 === p.id) {
        this.awaitHeader[d] = 0;
        this.routed[d] = 1;
        this.ctx.queue.push(p.routeAt, EV_TOK_ROUTE, d);
        this.takeHeader(d, now);
      }
    }
    if (this.inConn[d]! >= 0) this.schedulePump(d, now);
  }

  /**
   * The router of C104 input d takes the head packet's header from the buffer into its registers
   * as it starts routing (docs/c104.md#the-switch): those places are free for credit at once.
   */
  private takeHeader(d: number, now: number): void {
    this.rxHeld[d] = this.hb;
    this.freed(d, now);
  }

  /** A place of d's receive buffer was freed: owe FCTs on the reverse direction while the rule allows. */
  private freed(d: number, now: number): void {
    const cap = TOKEN_CREDIT_RTL.creditCap;
    let owed = false;
    while (this.rxDepth[d]! - (this.rxQ[d]!.length - this.rxHeld[d]!) - this.rxOut[d]! >= 8 && this.rxOut[d]! + 8 <= cap) {
      this.rxOut[d]! += 8;
      this.fctOwed[this.rev[d]!]!++;
      owed = true;
    }
    if (owed) this.kick(this.rev[d]!, now);
  }

  // ------------------------------------------------------------- C104

  private route(input: number, now: number): void {
    const q = this.rxQ[input]!;
    const p = this.ctx.pool.all[q.peek() >> 6]!;
    const node = this.kind[input] === INJ ? this.node[input]! : this.node[this.rev[input]!]!;
    if (p.phase === 0) {
      // Random header generation on the injection input (§2.2.2): sent ahead of the packet.
      p.phase = 1;
      this.pfxOut[input] = this.hb;
    }
    if (this.kind[input] === LOOP && (q.peek() & 63) >= PFX) {
      // Header deletion on the loopback's input (docs/c104.md#two-phase): the random header leaves
      // the router's registers; the packet's own header is routed (phase 2) when it is in.
      p.phase = 2;
      for (let k = 0; k < this.hb; k++) q.shift();
      this.rxHeld[input] = 0;
      this.routed[input] = 0;
      if (q.length >= this.hb && (q.peek() & 63) === 0) {
        this.routed[input] = 1;
        p.routeAt = now + this.routeNs;
        this.ctx.queue.push(p.routeAt, EV_TOK_ROUTE, input);
        this.takeHeader(input, now);
      } else this.awaitHeader[input] = 1;
      return;
    }
    const target = p.phase === 1 ? p.intermediate : p.dst;
    const plane = p.phase === 2 ? 1 : 0;
    // At the intermediate node, phase 1's "local" output is the loopback.
    const local = node * this.gpn + 4 * this.planes + (p.phase === 1 ? 1 : 0);
    const g = node === target ? local : node * this.gpn + plane * 4 + dorDirection(node, target, this.c.side, this.xFirst);
    p.waitSince = now;
    this.waiting[g]!.push(input);
    if (this.ctx.events && p.kind !== ACK) this.ctx.events.push({ t: now, kind: 'head-arrives', msg: p.msg, node, packet: p.index, unit: 'c104', port: input });
    this.serveGroup(g, now);
  }

  private serveGroup(g: number, now: number): void {
    const list = this.waiting[g]!;
    const node = (g / this.gpn) | 0;
    const sub = g % this.gpn;
    while (list.length > 0) {
      let out = -1;
      if (sub === 4 * this.planes) {
        for (let j = 0; j < this.W && out < 0; j++) {
          const d = this.N * this.W + node * this.W + j;
          if (this.outConn[d]! < 0) out = d;
        }
      } else if (sub === 4 * this.planes + 1) {
        const d = this.loopBase + 2 * node;
        if (this.outConn[d]! < 0) out = d;
      } else {
        const d = 2 * this.N * this.W + node * 4 * this.planes + sub;
        if (this.outConn[d]! < 0) out = d;
      }
      if (out < 0) return;
      // FIFO arbitration (the real C104, docs/c104.md#arbitration): the input that began waiting first.
      const input = list.shift()!;
      this.inConn[input] = out;
      this.outConn[out] = input;
      if (!this.xbarPending[input]) {
        this.xbarPending[input] = 1;
        this.ctx.queue.push(now + this.xbarNs, EV_TOK_XBAR, input);
      }
    }
  }

  private schedulePump(input: number, now: number): void {
    if (this.xbarPending[input]) return;
    this.xbarPending[input] = 1;
    this.ctx.queue.push(now, EV_TOK_XBAR, input);
  }

  /** The crossbar moves one token per bit time from a connected input to its output buffer. */
  private pump(input: number, now: number): void {
    const out = this.inConn[input]!;
    if (out < 0) return;
    const q = this.rxQ[input]!;
    if (q.length === 0 || this.txQ[out]!.length >= this.txCap[out]!) return;
    if (this.pfxOut[input]! > 0) {
      // The generated random header goes first (its tokens exist only from here on).
      const head = q.peek();
      this.txQ[out]!.push((head & ~63) + PFX + this.hb - this.pfxOut[input]!--);
      this.kick(out, now);
      this.xbarPending[input] = 1;
      this.ctx.queue.push(now + this.bitNs, EV_TOK_XBAR, input);
      return;
    }
    const code = q.shift();
    if (this.rxHeld[input]! > 0) this.rxHeld[input]!--;
    else this.freed(input, now);
    this.txQ[out]!.push(code);
    this.kick(out, now);
    const p = this.ctx.pool.all[code >> 6]!;
    if ((code & 63) === p.tokens - 1) {
      this.inConn[input] = -1;
      this.outConn[out] = -1;
      this.routed[input] = 0;
      this.serveGroup(this.group[out]!, now);
      const nx = q.peek();
      if (nx >= 0) {
        const np = this.ctx.pool.all[nx >> 6]!;
        if (np.routeAt >= 0 && q.length >= this.hb) {
          this.routed[input] = 1;
          this.ctx.queue.push(Math.max(now, np.routeAt), EV_TOK_ROUTE, input);
          this.takeHeader(input, now);
        }
      }
      return;
    }
    this.xbarPending[input] = 1;
    this.ctx.queue.push(now + this.bitNs, EV_TOK_XBAR, input);
  }
}
