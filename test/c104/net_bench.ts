/**
 * Test bench for C104 networks before the real DS-link and T9000 endpoint
 * exist: the RTL network (rtl/c104/network.ts) with link-end stand-ins
 * (switch_bench.ts) as its link ends; switch-to-switch cables join two
 * stand-ins at character level (charJoin: one character per cycle when the
 * far receive buffer has room; no token timing, no credit); endpoints are driven by the
 * bench: each endpoint sends packets on any idle link of its hunt group, and
 * a virtual link (source, destination) has one packet in flight at a time
 * (the T9000's acknowledgement, as an oracle instead of ack packets), so
 * order per virtual link is the endpoint's, not the network's.
 */
import { Module, Simulator, type Signal } from '../../rtl/kernel/index.ts';
import { CHAR_BITS, isEnd } from '../../rtl/dslink/chars.ts';
import { C104 } from '../../rtl/c104/c104.ts';
import type { C104Options } from '../../rtl/c104/config.ts';
import { C104Network } from '../../rtl/c104/network.ts';
import { checkNetwork, type CheckedNetwork, type NetworkSpec } from '../../rtl/c104/topology.ts';
import { LinkEndStub, charJoin } from './switch_bench.ts';

/** Stand-in port of an endpoint: the bench pokes src*, sinkPop and reads the stub. */
interface TermPort {
  end: LinkEndStub;
  srcValid: Signal;
  srcChar: Signal;
  sinkPop: Signal;
}

class NetTop extends Module {
  readonly network: C104Network;
  /** Per terminal, per link of its group. */
  readonly ports: TermPort[][] = [];

  constructor(net: CheckedNetwork, opts: C104Options & { requireDeadlockFree?: boolean }) {
    super(null, 'top');
    this.network = new C104Network(this, 'net', net, {
      c104: opts,
      linkEnd: (p, name, buf) => new LinkEndStub(p, name, buf.rxTokens, buf.txTokens),
      join: charJoin,
      requireDeadlockFree: opts.requireDeadlockFree,
    });
    this.network.endpointLinks.forEach((ends, ti) => {
      this.ports.push(
        ends.map((e, li) => {
          const end = e as LinkEndStub;
          const srcValid = this.input(`t${ti}_v${li}`);
          const srcChar = this.input(`t${ti}_c${li}`, CHAR_BITS);
          const sinkPop = this.input(`t${ti}_p${li}`);
          this.connect(srcValid, end.srcValid);
          this.connect(srcChar, end.srcChar);
          this.connect(sinkPop, end.sinkPop);
          return { end, srcValid, srcChar, sinkPop };
        }),
      );
    });
  }

  get switches(): C104[] {
    return this.network.switches;
  }
}

export interface Packet {
  id: number;
  src: number;
  dst: number;
  chars: number[];
}

export class NetBench {
  readonly net: CheckedNetwork;
  readonly top: NetTop;
  readonly sim: Simulator;
  /** Per terminal: packets waiting to start. */
  private readonly queue: Packet[][];
  /** Per terminal, per group link: the packet being sent and how far. */
  private readonly sending: ({ p: Packet; at: number } | null)[][];
  /** Virtual links with a packet in flight ("src>dst"). */
  private readonly inFlight = new Set<string>();
  /** Per terminal, per link: characters of the packet arriving. */
  private readonly partial: number[][][];
  /** Delivered packets per terminal: the characters as received. */
  readonly delivered: number[][][];
  private nextId = 0;
  /** Packets that started on each endpoint link, in order, keyed `switch:link` (the identity source for event recorders). */
  readonly startedOn = new Map<string, number[]>();
  sent = 0;

  constructor(spec: NetworkSpec, opts: C104Options & { requireDeadlockFree?: boolean } = {}) {
    this.net = checkNetwork(spec);
    this.top = new NetTop(this.net, { routingDelay: 0, ...opts });
    this.sim = new Simulator(this.top);
    const T = spec.terminals.length;
    this.queue = Array.from({ length: T }, () => []);
    this.sending = spec.terminals.map((t) => t.links.map(() => null));
    this.partial = spec.terminals.map((t) => t.links.map(() => []));
    this.delivered = Array.from({ length: T }, () => []);
  }

  /** All packets sent, by id. */
  readonly packets: Packet[] = [];

  /** Queue a packet from terminal `src` to terminal `dst` (the id goes in the first two payload bytes); returns its id. */
  send(src: number, dst: number, payload: readonly number[], end: number): number {
    const label = this.net.spec.terminals[dst]!.label;
    const h = this.net.spec.headerBytes;
    const header = h === 1 ? [label] : [label >> 8, label & 0xff];
    const id = this.nextId++;
    const p = { id, src, dst, chars: [...header, id >> 8, id & 0xff, ...payload, end] };
    this.packets.push(p);
    this.queue[src]!.push(p);
    this.sent++;
    return id;
  }

  get deliveredCount(): number {
    return this.delivered.reduce((n, d) => n + d.length, 0);
  }

  step(): void {
    const { sim, top } = this;
    top.ports.forEach((ports, ti) => {
      const q = this.queue[ti]!;
      ports.forEach((port, li) => {
        let cur = this.sending[ti]![li]!;
        if (!cur) {
          // Start the first queued packet whose virtual link is idle.
          const k = q.findIndex((p) => !this.inFlight.has(`${p.src}>${p.dst}`));
          if (k >= 0) {
            const p = q.splice(k, 1)[0]!;
            this.inFlight.add(`${p.src}>${p.dst}`);
            cur = this.sending[ti]![li] = { p, at: 0 };
            const key = `${this.net.spec.terminals[ti]!.sw}:${this.net.spec.terminals[ti]!.links[li]}`;
            if (!this.startedOn.has(key)) this.startedOn.set(key, []);
            this.startedOn.get(key)!.push(p.id);
          }
        }
        const want = cur !== null && sim.peek(port.end.srcReady) === 1;
        sim.poke(port.srcValid, want ? 1 : 0);
        if (want) {
          sim.poke(port.srcChar, cur!.p.chars[cur!.at]!);
          cur!.at++;
          if (cur!.at === cur!.p.chars.length) this.sending[ti]![li] = null;
        }
        const take = sim.peek(port.end.sinkValid) === 1;
        sim.poke(port.sinkPop, take ? 1 : 0);
        if (take) {
          const ch = sim.peek(port.end.sinkChar);
          const part = this.partial[ti]![li]!;
          part.push(ch);
          if (isEnd(ch)) {
            this.delivered[ti]!.push([...part]);
            const p = this.packets[idOf(part, this.net.spec.headerBytes)];
            if (p) this.inFlight.delete(`${p.src}>${p.dst}`);
            part.length = 0;
          }
        }
      });
    });
    sim.step();
  }

  /** Everything sent was delivered (counting by packets). */
  drained(): boolean {
    return this.deliveredCount === this.sent;
  }
}

/** Packet id from the first two payload bytes (benches put it there). */
export function idOf(chars: readonly number[], headerBytes: number): number {
  return (chars[headerBytes]! << 8) | chars[headerBytes + 1]!;
}

