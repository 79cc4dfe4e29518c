/**
 * Which T9000 packet a C104 switch-level packet is (for `icemu view`'s
 * follow-a-message, readings: docs/c104.md#view-events): the identity
 * source of the C104 event recorder (c104_events.ts) for heads arriving from
 * an endpoint.
 *
 * A T9000 transmit port sends one packet at a time, data and acks
 * interleaved (rtl/t9000/tx_port.ts counts each start in dataPkts or
 * acksSent), and the link keeps them in order, so the k-th head a switch
 * input sees from endpoint e's link m is the k-th packet e started on m:
 *  - a data packet: the T9000 recorder's `packet-injected` of that cycle
 *    (node e, port m) names its message and packet;
 *  - an ack: the receiver acknowledges the data packets of one virtual link
 *    in the order their headers arrived (the recorder's `head-arrives` rx,
 *    node e), so the ack started with the port's `vl` register = v is for
 *    the oldest unacknowledged data packet that arrived on e's v.
 * Attach it after the T9000 recorder (it reads that recorder's events of
 * the same cycle).
 */
import type { Observer, Simulator } from '../../rtl/kernel/index.ts';
import type { CheckedNetwork } from '../../rtl/c104/topology.ts';
import type { T9000Driver } from './t9000_driver.ts';
import type { T9000Recorder } from './t9000_events.ts';

export interface T9000PacketId {
  msg: number;
  packet: number;
  ack: boolean;
}

export class T9000PacketSource implements Observer {
  /** Reads T9000 registers only, never a DS-link NULL train's (Observer.skipsOwnedOnDemand). */
  readonly skipsOwnedOnDemand = true;
  /** Per endpoint and link: packets started and not yet claimed by a switch head, oldest first. */
  private readonly started: T9000PacketId[][][];
  /** Per `endpoint:vl`: data packets arrived there and not yet acknowledged, oldest first. */
  private readonly toAck = new Map<string, { msg: number; packet: number }[]>();
  private readonly acks: number[][];
  private seen = 0;
  readonly detach: () => void;

  constructor(
    sim: Simulator,
    private readonly net: CheckedNetwork,
    private readonly driver: T9000Driver,
    private readonly rec: T9000Recorder,
  ) {
    this.started = driver.nodes.map((ep) => ep.tx.map(() => []));
    this.acks = driver.nodes.map((ep) => ep.tx.map((tx) => sim.peek(tx.acksSent)));
    this.seen = rec.events.length;
    this.detach = sim.observe(this);
  }

  onCycle(sim: Simulator): void {
    const ev = this.rec.events;
    for (; this.seen < ev.length; this.seen++) {
      const e = ev[this.seen]!;
      if (e.kind === 'packet-injected') this.started[e.node]?.[e.port ?? 0]?.push({ msg: e.msg, packet: e.packet ?? 0, ack: false });
      else if (e.kind === 'head-arrives' && e.unit === 'rx') {
        const m = this.driver.messages[e.msg];
        if (!m) continue;
        const dest = this.driver.peerOf(m.src);
        const k = `${dest.node}:${dest.vl}`;
        if (!this.toAck.has(k)) this.toAck.set(k, []);
        this.toAck.get(k)!.push({ msg: e.msg, packet: e.packet ?? 0 });
      }
    }
    const s = sim.s;
    this.driver.nodes.forEach((ep, node) =>
      ep.tx.forEach((tx, k) => {
        const a = s[tx.acksSent.i]!;
        if (a === this.acks[node]![k]) return;
        this.acks[node]![k] = a;
        // an ack whose data packet nobody saw still holds its place in the link's order (msg -1: unknown)
        const of = this.toAck.get(`${node}:${s[tx.vl.i]!}`)?.shift() ?? { msg: -1, packet: 0 };
        this.started[node]![k]!.push({ ...of, ack: true });
      }),
    );
  }

  /** The next packet that entered switch `sw` on its link `link` from an endpoint (null: unknown or not an endpoint link). */
  next(sw: number, link: number): T9000PacketId | null {
    const p = this.net.peer[sw]?.[link];
    if (!p || p.kind !== 'terminal') return null;
    const m = this.net.spec.terminals[p.terminal]!.links.indexOf(link);
    const id = this.started[p.terminal]?.[m]?.shift();
    return id && id.msg >= 0 ? id : null;
  }

  /**
   * The recorder's identity source: switch-level packets numbered 0, 1, … in
   * the order their heads first arrive; `ids` maps each number to its T9000
   * packet (null: unknown).
   */
  numbering(): { source: (sw: number, link: number) => { msg: number; packet: number }; ids: Map<number, T9000PacketId | null> } {
    const ids = new Map<number, T9000PacketId | null>();
    return {
      ids,
      source: (sw, link) => {
        const n = ids.size;
        ids.set(n, this.next(sw, link));
        return { msg: n, packet: 0 };
      },
    };
  }
}
