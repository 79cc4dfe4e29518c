/**
 * Event recorder for C104 switches (RTL, rtl/c104/): an observer that turns
 * the routers' and crossbars' committed state into the shared event
 * vocabulary (traces/events/vocabulary.ts) with cycle stamps.
 *
 * Events, per switch s (node = s, the switch's index in the list), input k:
 *  head-arrives      the first cycle router k holds the packet's complete
 *                    (routing) header, i.e. the cycle after its last header
 *                    byte was taken from the input buffer; unit `name.inK`,
 *                    port k.
 *  grant             the cycle the crossbar grants input k an output j
 *                    (combinational grant, seen with the settled wires);
 *                    unit `name.inK`, port j.
 *  packet-forwarded  the first cycle input k is connected to output j: the
 *                    packet's first character crosses the crossbar; port j.
 *
 * Identification (the hardware carries no message ids): packets are kept
 * apart as the links keep them, in order. Every output link with a switch
 * at its far end has a shadow FIFO: a grant on it appends the packet; a head
 * arriving at the far input takes the oldest. A head arriving on a link
 * whose far end is not a switch (an endpoint, a bench) gets its identity
 * from the caller's `source(switchIndex, link)`, which returns the next
 * packet that entered there, or null (then msg = -1 is not recorded and the
 * packet is counted in `unidentified`).
 */
import type { Observer, Simulator } from '../../rtl/kernel/index.ts';
import type { C104 } from '../../rtl/c104/c104.ts';
import type { CheckedNetwork, NetworkSpec } from '../../rtl/c104/topology.ts';
import type { TraceEvent, TraceHeader } from '../../traces/events/vocabulary.ts';

/**
 * The header's `topology` record for a C104 network (traces/events/vocabulary.ts):
 * switch names, endpoints with their switch and hunt-group links, and the
 * switch-to-switch cables as [switchA, linkA, switchB, linkB]. A mesh built by
 * meshNetwork (switches named c104_X_Y, every grid place filled) also gets
 * `grid: {w, h}` and each switch's place, so `icemu view` draws it as a grid.
 */
export function c104Topology(spec: NetworkSpec): NonNullable<TraceHeader['topology']> {
  const at = spec.switches.map((t) => /^c104_(\d+)_(\d+)$/.exec(t.name));
  const w = Math.max(0, ...at.map((m) => (m ? Number(m[1]) + 1 : 0)));
  const h = Math.max(0, ...at.map((m) => (m ? Number(m[2]) + 1 : 0)));
  const grid = at.every((m) => m) && w * h === spec.switches.length && new Set(at.map((m) => m![0])).size === w * h;
  return {
    kind: 'c104',
    switches: spec.switches.map((t) => t.name),
    endpoints: spec.terminals.map((t) => ({ name: t.name, sw: t.sw, links: [...t.links] })),
    cables: spec.cables.map(([a, b]) => [a.sw, a.link, b.sw, b.link]),
    ...(grid ? { grid: { w, h }, places: at.map((m) => [Number(m![1]), Number(m![2])]) } : {}),
  };
}

export interface PacketId {
  msg: number;
  packet: number;
}

export interface C104EventRecorder {
  readonly events: TraceEvent[];
  /** Heads whose identity nobody knew. */
  unidentified: number;
  detach(): void;
}

const HEAD = 0;
const CONN = 3;

export function attachC104Events(
  sim: Simulator,
  switches: readonly C104[],
  net: CheckedNetwork | null,
  source: (sw: number, link: number) => PacketId | null,
): C104EventRecorder {
  const N = 32;
  const names = switches.map((sw) => sw.name);
  const prevSt = new Int8Array(switches.length * N);
  /** Packet held by each router (from head arrival to the end of its connection). */
  const held: (PacketId | null)[] = new Array<PacketId | null>(switches.length * N).fill(null);
  /** Shadow FIFO per output link with a switch behind it. */
  const shadow = new Map<number, PacketId[]>();
  const rec: C104EventRecorder = { events: [], unidentified: 0, detach: () => {} };
  const emit = (t: number, kind: TraceEvent['kind'], id: PacketId | null, s: number, k: number, port: number): void => {
    if (!id) return;
    rec.events.push({ t, kind, msg: id.msg, node: s, packet: id.packet, unit: `${names[s]}.in${k}`, port });
  };
  const feeder = (s: number, k: number): number => {
    const p = net?.peer[s]![k];
    return p && p.kind === 'switch' ? p.sw * N + p.link : -1;
  };
  const observer: Observer = {
    onCycle(sm: Simulator): void {
      const t = sm.cycle;
      switches.forEach((sw, s) => {
        for (let k = 0; k < N; k++) {
          const v = s * N + k;
          const st = sm.peek(sw.routers[k]!.st);
          const before = prevSt[v]!;
          if (before === HEAD && st !== HEAD) {
            const f = feeder(s, k);
            const id = f >= 0 ? (shadow.get(f)?.shift() ?? null) : source(s, k);
            if (!id) rec.unidentified++;
            held[v] = id;
            emit(t, 'head-arrives', id, s, k, k);
          }
          if (sm.peek(sw.xbar.gnt[k]!) === 1) {
            const j = sm.peek(sw.xbar.gidx[k]!);
            emit(t, 'grant', held[v]!, s, k, j);
            const behind = net?.peer[s]![j];
            if (behind && behind.kind === 'switch' && held[v]) {
              const key = s * N + j;
              if (!shadow.has(key)) shadow.set(key, []);
              shadow.get(key)!.push(held[v]!);
            }
          }
          if (st === CONN && before !== CONN) emit(t, 'packet-forwarded', held[v]!, s, k, sm.peek(sw.xbar.gidx[k]!));
          prevSt[v] = st;
        }
      });
    },
  };
  rec.detach = sim.observe(observer);
  return rec;
}
