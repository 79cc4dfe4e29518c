/**
 * The C104 of the token-credit model (token-network.ts,
 * docs/thesis-model.md#token-credit): an input buffer whose router takes
 * the header into its registers and routes it (lookup + routing delay), FIFO
 * crossbar arbitration per output group (hunt group to the T9000), one token
 * per bit time into the output buffer, the connection held until the
 * terminator has passed (wormhole); two-phase random headers generated on
 * the injection input and deleted on the loopback's input
 * (docs/thesis-model.md#two-phase-token-credit). The links themselves are
 * token-links.ts.
 */
import type { C104Config } from './config.ts';
import { ACK, type Packet, type SimContext } from './core.ts';
import { dorDirection } from './topology.ts';
import { EV_TOK_ROUTE, EV_TOK_XBAR, INJ, LOOP, PFX, TOKEN_CREDIT_RTL } from './token-credit-rtl.ts';
import type { TokenLinks } from './token-links.ts';

export class TokenC104 {
  private readonly routeNs: number;
  private readonly xbarNs: number;
  private readonly xFirst: boolean;
  /** Per C104 input: the packet arriving carries a random header (two-phase, phase 1). */
  private readonly rxPfx: Uint8Array;
  /** Per C104 input: its head packet's random header was deleted; the next header completed routes it. */
  private readonly awaitHeader: Uint8Array;
  /** Per C104 input: random-header tokens still to send ahead of its connected packet (header generation). */
  private readonly pfxOut: Int32Array;
  // crossbar: input direction ↔ output direction
  private readonly inConn: Int32Array;
  private readonly outConn: Int32Array;
  private readonly xbarPending: Uint8Array;
  private readonly routed: Uint8Array;
  private readonly waiting: number[][];

  constructor(
    private readonly c: C104Config,
    private readonly ctx: SimContext,
    private readonly links: TokenLinks,
  ) {
    const k = TOKEN_CREDIT_RTL;
    this.routeNs = k.lookupBits * links.bitNs + c.routingDelayNs;
    this.xbarNs = k.crossbarBits * links.bitNs;
    this.xFirst = c.routing !== 'yx';
    const Dn = links.kind.length;
    this.rxPfx = new Uint8Array(Dn);
    this.awaitHeader = new Uint8Array(Dn);
    this.pfxOut = new Int32Array(Dn);
    this.inConn = new Int32Array(Dn).fill(-1);
    this.outConn = new Int32Array(Dn).fill(-1);
    this.xbarPending = new Uint8Array(Dn);
    this.routed = new Uint8Array(Dn);
    this.waiting = Array.from({ length: links.N * links.gpn }, () => []);
  }

  /** A token (index idx of packet p) was put into C104 input d's buffer. */
  received(d: number, p: Packet, idx: number, now: number): void {
    const L = this.links;
    const q = L.rxQ[d]!;
    // The routing header: a random header (two-phase, phase 1), else the packet's own header, or its
    // own after the random one was deleted here (docs/thesis-model.md#two-phase-token-credit).
    const routing = idx === PFX + L.hb - 1 || (idx === L.hb - 1 && (!this.rxPfx[d] || this.awaitHeader[d]));
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

  /** Output direction d took a token from its buffer: its connected input may move the next one. */
  outputTook(d: number, now: number): void {
    const from = this.outConn[d]!;
    if (from >= 0) this.schedulePump(from, now);
  }

  /** EV_TOK_XBAR: the crossbar's next move for input d is due. */
  xbarDue(input: number, now: number): void {
    this.xbarPending[input] = 0;
    this.pump(input, now);
  }

  /**
   * The router of C104 input d takes the head packet's header from the buffer into its registers
   * as it starts routing (docs/c104.md#the-switch): those places are free for credit at once.
   */
  private takeHeader(d: number, now: number): void {
    this.links.rxHeld[d] = this.links.hb;
    this.links.freed(d, now);
  }

  /** EV_TOK_ROUTE: input's head packet's header is routed: it waits for its output group. */
  route(input: number, now: number): void {
    const L = this.links;
    const q = L.rxQ[input]!;
    const p = this.ctx.pool.all[q.peek() >> 6]!;
    const node = L.kind[input] === INJ ? L.node[input]! : L.node[L.rev[input]!]!;
    if (p.phase === 0) {
      // Random header generation on the injection input (§2.2.2): sent ahead of the packet.
      p.phase = 1;
      this.pfxOut[input] = L.hb;
    }
    if (L.kind[input] === LOOP && (q.peek() & 63) >= PFX) {
      // Header deletion on the loopback's input (docs/c104.md#two-phase): the random header leaves
      // the router's registers; the packet's own header is routed (phase 2) when it is in.
      p.phase = 2;
      for (let k = 0; k < L.hb; k++) q.shift();
      L.rxHeld[input] = 0;
      this.routed[input] = 0;
      if (q.length >= L.hb && (q.peek() & 63) === 0) {
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
    const local = node * L.gpn + 4 * L.planes + (p.phase === 1 ? 1 : 0);
    const g = node === target ? local : node * L.gpn + plane * 4 + dorDirection(node, target, this.c.side, this.xFirst);
    p.waitSince = now;
    this.waiting[g]!.push(input);
    if (this.ctx.events && p.kind !== ACK) this.ctx.events.push({ t: now, kind: 'head-arrives', msg: p.msg, node, packet: p.index, unit: 'c104', port: input });
    this.serveGroup(g, now);
  }

  private serveGroup(g: number, now: number): void {
    const L = this.links;
    const list = this.waiting[g]!;
    const node = (g / L.gpn) | 0;
    const sub = g % L.gpn;
    while (list.length > 0) {
      let out = -1;
      if (sub === 4 * L.planes) {
        for (let j = 0; j < L.W && out < 0; j++) {
          const d = L.N * L.W + node * L.W + j;
          if (this.outConn[d]! < 0) out = d;
        }
      } else if (sub === 4 * L.planes + 1) {
        const d = L.loopBase + 2 * node;
        if (this.outConn[d]! < 0) out = d;
      } else {
        const d = 2 * L.N * L.W + node * 4 * L.planes + sub;
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
    const L = this.links;
    const out = this.inConn[input]!;
    if (out < 0) return;
    const q = L.rxQ[input]!;
    if (q.length === 0 || L.txQ[out]!.length >= L.txCap[out]!) return;
    if (this.pfxOut[input]! > 0) {
      // The generated random header goes first (its tokens exist only from here on).
      const head = q.peek();
      L.txQ[out]!.push((head & ~63) + PFX + L.hb - this.pfxOut[input]!--);
      L.kick(out, now);
      this.xbarPending[input] = 1;
      this.ctx.queue.push(now + L.bitNs, EV_TOK_XBAR, input);
      return;
    }
    const code = q.shift();
    if (L.rxHeld[input]! > 0) L.rxHeld[input]!--;
    else L.freed(input, now);
    L.txQ[out]!.push(code);
    L.kick(out, now);
    const p = this.ctx.pool.all[code >> 6]!;
    if ((code & 63) === p.tokens - 1) {
      this.inConn[input] = -1;
      this.outConn[out] = -1;
      this.routed[input] = 0;
      this.serveGroup(L.group[out]!, now);
      const nx = q.peek();
      if (nx >= 0) {
        const np = this.ctx.pool.all[nx >> 6]!;
        if (np.routeAt >= 0 && q.length >= L.hb) {
          this.routed[input] = 1;
          this.ctx.queue.push(Math.max(now, np.routeAt), EV_TOK_ROUTE, input);
          this.takeHeader(input, now);
        }
      }
      return;
    }
    this.xbarPending[input] = 1;
    this.ctx.queue.push(now + L.bitNs, EV_TOK_XBAR, input);
  }
}
