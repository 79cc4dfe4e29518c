/**
 * The DS-link directions of the token-credit model (token-network.ts,
 * docs/thesis-model.md#token-credit): the wiring of every direction
 * (T9000 → C104, C104 → T9000, C104 → C104, the two-phase loopback), its
 * transmit buffer, NULL train, per-token credit and FCTs, tokens in flight
 * and the receive buffer's credit rule (rtl/dslink/credit.ts,
 * tx_tokens.ts, tx_serialiser.ts). What a token does at its ends belongs
 * to the T9000 transmit ports (token-t9000.ts) and the C104 (token-c104.ts).
 */
import type { C104Config } from './config.ts';
import { ACK, EV_DELIVER_HEAD, EV_DELIVER_TAIL, type Packet, type SimContext } from './core.ts';
import { IntFifo } from '../../../rtl/lib/int_fifo.ts';
import { neighbour } from './topology.ts';
import { DEL, EV_TOK_ARRIVE, EV_TOK_FCT, EV_TOK_TAKE, EV_TOK_TX, INJ, INT, LOOP, TOKEN_CREDIT_RTL } from './token-credit-rtl.ts';
import type { TokenC104 } from './token-c104.ts';
import type { TokenT9000Ports } from './token-t9000.ts';

export class TokenLinks {
  readonly N: number;
  readonly W: number;
  readonly bitNs: number;
  private readonly ctlNs: number;
  private readonly dataNs: number;
  private readonly rxLatNs: number;
  readonly hb: number;
  /** Internal link planes (two-phase: phase 1 and phase 2 on separate links, §2.2.2) and output groups per node. */
  readonly planes: number;
  readonly gpn: number;
  /** Two-phase: the first loopback direction (node n's pair at loopBase + 2n, loopBase + 2n + 1). */
  readonly loopBase: number;
  readonly twoPhase: boolean;
  /** Per direction: its next normal token starts a packet (headStarts). */
  private readonly txHead: Uint8Array;
  // per direction
  readonly kind: Uint8Array;
  readonly node: Int32Array; // the transmitting end's node
  readonly rev: Int32Array;
  readonly group: Int32Array; // output group of a C104 output direction
  readonly txQ: IntFifo[];
  readonly txCap: Int32Array;
  private readonly txBusy: Uint8Array;
  /** Idle transmitter: a token boundary of its NULL train (the end of its last token); a take is pending when txTake is set. */
  private readonly txIdleFrom: Float64Array;
  private readonly txTake: Uint8Array;
  private readonly nullNs: number;
  readonly credit: Int32Array;
  private readonly fctOwed: Int32Array;
  private readonly inflight: IntFifo[];
  readonly rxQ: IntFifo[];
  private readonly rxDepth: Int32Array;
  private readonly rxOut: Int32Array;
  /** Header tokens of rxQ's head packet that the C104 input's router has taken into its registers (no longer in the buffer). */
  readonly rxHeld: Int32Array;
  readonly busyNs: Float64Array;
  readonly routedBySwitch: Float64Array;
  /** The ends of the links (set by TokenNetwork once all three parts exist). */
  ports!: TokenT9000Ports;
  sw!: TokenC104;

  constructor(
    private readonly c: C104Config,
    private readonly ctx: SimContext,
  ) {
    const D = c.side;
    const N = (this.N = D * D);
    const W = (this.W = c.cpuLinkWidth);
    const k = TOKEN_CREDIT_RTL;
    this.bitNs = c.nsPerDataToken / 10;
    this.dataNs = c.nsPerDataToken;
    this.ctlNs = c.nsPerControlToken;
    this.rxLatNs = k.rxLatencyBits * this.bitNs;
    this.hb = c.headerBytes;
    this.twoPhase = c.routing === 'two-phase';
    const planes = (this.planes = this.twoPhase ? 2 : 1);
    // Two-phase: one more output group per node, the loopback to the header-deleting input.
    const gpn = (this.gpn = 4 * planes + (this.twoPhase ? 2 : 1));
    const loopBase = (this.loopBase = 2 * N * W + 4 * N * planes);
    const Dn = loopBase + (this.twoPhase ? 2 * N : 0);
    this.txHead = new Uint8Array(Dn).fill(1);
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
    this.routedBySwitch = new Float64Array(N);
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

  /** EV_TOK_TX: d's transmitter finished a token and is back in its NULL train. */
  txDone(d: number, now: number): void {
    this.txBusy[d] = 0;
    this.txIdleFrom[d] = now;
    this.kick(d, now);
  }

  /** EV_TOK_TAKE: d's pending NULL boundary came. */
  takeDue(d: number, now: number): void {
    this.txTake[d] = 0;
    this.take(d, now);
  }

  /** EV_TOK_FCT: an FCT sent on d reached its receiver: 8 more credits for the reverse direction. */
  fctArrived(d: number, now: number): void {
    const r = this.rev[d]!;
    this.credit[r]! += 8;
    this.kick(r, now);
  }

  /**
   * Direction d has something to send: an idle transmitter is in its NULL train and takes the
   * token at the train's next token boundary (at once when it has just finished a token).
   */
  kick(d: number, now: number): void {
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
        if (ctl) this.ports.portDone(d, now);
        else this.ports.portCopy(d, now);
      } else this.sw.outputTook(d, now);
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

  /** EV_TOK_ARRIVE: the oldest token in flight on d reached its receiver (a T9000 or a C104 input). */
  arrive(d: number, now: number): void {
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
    this.rxQ[d]!.push(code);
    this.sw.received(d, p, idx, now);
  }

  /** A place of d's receive buffer was freed: owe FCTs on the reverse direction while the rule allows. */
  freed(d: number, now: number): void {
    const cap = TOKEN_CREDIT_RTL.creditCap;
    let owed = false;
    while (this.rxDepth[d]! - (this.rxQ[d]!.length - this.rxHeld[d]!) - this.rxOut[d]! >= 8 && this.rxOut[d]! + 8 <= cap) {
      this.rxOut[d]! += 8;
      this.fctOwed[this.rev[d]!]!++;
      owed = true;
    }
    if (owed) this.kick(this.rev[d]!, now);
  }
}
