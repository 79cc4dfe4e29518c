/**
 * Test bench for C104 networks before the real DS-link and T9000 endpoint
 * exist: every wired switch link gets a link-end stand-in (switch_bench.ts);
 * switch-to-switch cables join two stand-ins at character level (one
 * character per cycle when the far receive buffer has room: a named
 * simplification, no token timing, no credit); endpoints are driven by the
 * bench: each endpoint sends packets on any idle link of its hunt group, and
 * a virtual link (source, destination) has one packet in flight at a time
 * (the T9000's acknowledgement, as an oracle instead of ack packets), so
 * order per virtual link is the endpoint's, not the network's.
 */
import { Module, Simulator, type Signal } from '../../rtl/kernel/index.ts';
import { CHAR_BITS, isEnd } from '../../rtl/dslink/chars.ts';
import { C104 } from '../../rtl/c104/c104.ts';
import { makeC104Config, type C104Options } from '../../rtl/c104/config.ts';
import { C104_LINKS } from '../../rtl/c104/interval_table.ts';
import { checkNetwork, type CheckedNetwork, type NetworkSpec } from '../../rtl/c104/topology.ts';
import { LinkEndStub, attachEnd } from './switch_bench.ts';

/** Stand-in port of an endpoint: the bench pokes src*, sinkPop and reads the stub. */
interface TermPort {
  end: LinkEndStub;
  srcValid: Signal;
  srcChar: Signal;
  sinkPop: Signal;
}

class NetTop extends Module {
  readonly switches: C104[] = [];
  readonly ends: (LinkEndStub | null)[][] = [];
  /** Per terminal, per link of its group. */
  readonly ports: TermPort[][] = [];

  constructor(net: CheckedNetwork, opts: C104Options) {
    super(null, 'net');
    const spec = net.spec;
    spec.switches.forEach((t, s) => {
      const fromProcessor = Array.from({ length: C104_LINKS }, (_, k) => net.peer[s]![k]?.kind === 'terminal');
      const cfg = makeC104Config({ ...opts, fromProcessor, seed: (opts.seed ?? 1) + s });
      const sw = new C104(this, t.name, net.tables[s]!, cfg, { connected: t.connected });
      this.switches.push(sw);
      const row: (LinkEndStub | null)[] = [];
      for (let k = 0; k < C104_LINKS; k++) {
        if (!t.connected[k]) {
          row.push(null);
          continue;
        }
        const e = new LinkEndStub(this, `${t.name}_end${k}`, cfg.inputBufferTokens, cfg.outputBufferTokens);
        attachEnd(this, sw, k, e);
        row.push(e);
      }
      this.ends.push(row);
    });
    // Cables: A's transmit buffer drains into B's receive buffer, both ways.
    for (const [a, b] of spec.cables) {
      const ea = this.ends[a.sw]![a.link]!;
      const eb = this.ends[b.sw]![b.link]!;
      for (const [x, y] of [[ea, eb], [eb, ea]] as const) {
        this.connect(x.sinkValid, y.srcValid);
        this.connect(x.sinkChar, y.srcChar);
        this.connect(y.srcReady, x.sinkPop);
      }
    }
    spec.terminals.forEach((t, ti) => {
      this.ports.push(
        t.links.map((k) => {
          const end = this.ends[t.sw]![k]!;
          const srcValid = this.input(`t${ti}_v${k}`);
          const srcChar = this.input(`t${ti}_c${k}`, CHAR_BITS);
          const sinkPop = this.input(`t${ti}_p${k}`);
          this.connect(srcValid, end.srcValid);
          this.connect(srcChar, end.srcChar);
          this.connect(sinkPop, end.sinkPop);
          return { end, srcValid, srcChar, sinkPop };
        }),
      );
    });
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

  constructor(spec: NetworkSpec, opts: C104Options = {}) {
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

export { makeC104Config };
