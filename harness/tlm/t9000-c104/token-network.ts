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
 * In rooms: token-credit-rtl.ts (event codes, RTL-measured constants),
 * token-links.ts (the DS-link directions), token-c104.ts (the switch),
 * token-t9000.ts (the T9000 transmit ports); this file joins them as a
 * Transport and hands each event to its part.
 *
 * Not modelled (named, docs/thesis-model.md#token-credit): link start-up
 * itself (credit is full at time 0, only its NULL phase is kept), errors.
 * Times are ns; one bit time is nsPerDataToken / 10.
 */
import type { C104Config } from './config.ts';
import { EV_DELIVER_HEAD, EV_DELIVER_TAIL, type EndpointSink, type Packet, type SimContext, type Transport } from './core.ts';
import type { Rng } from '../../workloads/rng.ts';
import { EV_TOK_ARRIVE, EV_TOK_FCT, EV_TOK_PORT, EV_TOK_ROUTE, EV_TOK_TAKE, EV_TOK_TX, EV_TOK_XBAR, LOOP } from './token-credit-rtl.ts';
import { TokenLinks } from './token-links.ts';
import { TokenC104 } from './token-c104.ts';
import { TokenT9000Ports } from './token-t9000.ts';

export { EV_TOK_ARRIVE, EV_TOK_FCT, EV_TOK_PORT, EV_TOK_ROUTE, EV_TOK_TAKE, EV_TOK_TX, EV_TOK_XBAR, TOKEN_CREDIT_RTL } from './token-credit-rtl.ts';

export class TokenNetwork implements Transport {
  private readonly links: TokenLinks;
  private readonly ports: TokenT9000Ports;
  private readonly sw: TokenC104;
  private readonly N: number;
  readonly routedBySwitch: Float64Array;

  constructor(
    private readonly c: C104Config,
    private readonly ctx: SimContext,
    private readonly sink: EndpointSink,
    private readonly rng: Rng,
  ) {
    const links = (this.links = new TokenLinks(c, ctx));
    this.ports = links.ports = new TokenT9000Ports(c, ctx, links);
    this.sw = links.sw = new TokenC104(c, ctx, links);
    this.N = links.N;
    this.routedBySwitch = links.routedBySwitch;
  }

  inject(p: Packet, now: number): void {
    if (this.links.twoPhase) {
      // Two-phase: the intermediate node is drawn from the network's stream at injection (docs/thesis-model.md#routing).
      p.phase = 0;
      const f = this.c.fixedIntermediates;
      p.intermediate = f ? f[p.src]! : this.rng.nextInt(this.N);
    }
    this.ports.inject(p, now);
  }

  dataQueueLength(node: number): number {
    return this.ports.dataQueueLength(node);
  }

  internalBusy(): { busyNs: number; activeLinks: number; links: number } {
    const L = this.links;
    let busy = 0;
    let active = 0;
    let links = 0;
    for (let d = 2 * L.N * L.W; d < L.kind.length; d++) {
      if (L.rev[d]! < 0 || L.kind[d] === LOOP) continue;
      links++;
      if (L.busyNs[d]! > 0) active++;
      busy += L.busyNs[d]!;
    }
    return { busyNs: busy, activeLinks: active, links };
  }

  handle(type: number, arg: number, now: number): void {
    switch (type) {
      case EV_TOK_TX:
        return this.links.txDone(arg, now);
      case EV_TOK_TAKE:
        return this.links.takeDue(arg, now);
      case EV_TOK_ARRIVE:
        return this.links.arrive(arg, now);
      case EV_TOK_FCT:
        return this.links.fctArrived(arg, now);
      case EV_TOK_ROUTE:
        return this.sw.route(arg, now);
      case EV_TOK_XBAR:
        return this.sw.xbarDue(arg, now);
      case EV_TOK_PORT:
        return this.ports.portCopy(arg, now);
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
}
