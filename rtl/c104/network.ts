/**
 * A network of C104 switches as RTL, built from a checked network spec
 * (topology.ts): every switch is the C104 core (c104.ts) with a DS-link end
 * on each wired link (the slice's input and output buffers are that end's
 * receive and transmit buffers, sized from the switch config); cables join
 * two ends. The link end is made by a factory and cables by a join function,
 * so the same network is built against the real DsLinkEnd (rtl/dslink:
 * `joinLinks` joins the Data/Strobe wires) or a test stand-in with the same
 * ports. Endpoint links are left open: `endpointLinks[t]` are the switch-side
 * ends of endpoint t's hunt group, for a T9000 (or a bench) to join.
 * Building checks the configuration (one line per problem, C104ConfigError)
 * and refuses a labelling that is not deadlock-free unless told otherwise.
 * With a side band (T9000 `addressing: 'node'`) every wired link direction
 * has a tag lane (rtl/lib/side_band.ts), named by its transmitter:
 * `laneName` below. Readings: docs/c104.md#networks, docs/t9000.md#addressing.
 */
import { Module } from '../kernel/module.ts';
import { attachCore, joinLinks, type DsLinkEndPorts } from '../dslink/ports.ts';
import { C104 } from './c104.ts';
import { makeC104Config, type C104Config, type C104Options } from './config.ts';
import { C104_LINKS } from './interval_table.ts';
import { checkDeadlockFree, type DeadlockVerdict } from './channel_deps.ts';
import { C104ConfigError } from './interval_table.ts';
import { checkNetwork, type CheckedNetwork, type NetworkSpec } from './topology.ts';
import type { SideBand, SideBandLane } from '../lib/side_band.ts';
import type { RouterSideBand } from './input_router.ts';

/** The side-band lane of what switch `sw` sends on link `link`, or endpoint `terminal` on its j-th link. */
export function laneName(net: CheckedNetwork, at: { sw: number; link: number } | { terminal: number; j: number }): string {
  return 'sw' in at ? `${net.spec.switches[at.sw]!.name}.${at.link}` : `${net.spec.terminals[at.terminal]!.name}.${at.j}`;
}

/** An endpoint's lanes: tx[j] what its j-th link sends, rx[j] what it receives (its switch link's lane). */
export function terminalLanes(sb: SideBand, net: CheckedNetwork, t: number): { tx: SideBandLane[]; rx: SideBandLane[] } {
  const term = net.spec.terminals[t]!;
  return {
    tx: term.links.map((_, j) => sb.lane(laneName(net, { terminal: t, j }))),
    rx: term.links.map((k) => sb.lane(laneName(net, { sw: term.sw, link: k }))),
  };
}

function switchLanes(sb: SideBand, net: CheckedNetwork, s: number): (RouterSideBand | null)[] {
  const out = net.peer[s]!.map((p, k) => (p ? sb.lane(laneName(net, { sw: s, link: k })) : null));
  return net.peer[s]!.map((p, k) => {
    if (!p) return null;
    const from = p.kind === 'switch' ? laneName(net, p) : laneName(net, { terminal: p.terminal, j: net.spec.terminals[p.terminal]!.links.indexOf(k) });
    return { in: sb.lane(from), out };
  });
}

/** Make the link end of switch link `link`; buffers in tokens (normal characters). */
export type C104LinkEndFactory = (parent: Module, name: string, buffers: { rxTokens: number; txTokens: number }) => DsLinkEndPorts;

/** Join a link end to link k of a C104 core (receive side to the router, transmit side from the crossbar). */
export function attachEnd(where: Module, sw: C104, k: number, e: DsLinkEndPorts): void {
  attachCore(where, { txValid: sw.txValid[k]!, txChar: sw.txChar[k]!, txReady: sw.txReady[k]!, rxValid: sw.rxValid[k]!, rxChar: sw.rxChar[k]!, rxPop: sw.rxPop[k]! }, e);
}

export interface C104NetworkOptions {
  /** Switch options shared by all switches (each gets seed + its index, and fromProcessor from the wiring). */
  c104?: C104Options;
  linkEnd: C104LinkEndFactory;
  /** Join the two ends of a cable; default joinLinks (the wires, rtl/dslink/ports.ts). */
  join?: (where: Module, a: DsLinkEndPorts, b: DsLinkEndPorts) => void;
  /** Refuse a labelling whose channel dependencies have a cycle (one line naming it); default true. Off only for negative controls. */
  requireDeadlockFree?: boolean;
  /** Carry side-band packet tags (T9000 `addressing: 'node'`); default none. */
  sideBand?: SideBand;
}

export class C104Network extends Module {
  readonly net: CheckedNetwork;
  /** The static channel-dependency check of the labelling (docs/c104.md#deadlock-check). */
  readonly verdict: DeadlockVerdict;
  readonly switches: C104[] = [];
  readonly configs: C104Config[] = [];
  /** ends[s][k]: the link end of switch s's link k (null: not wired). */
  readonly ends: (DsLinkEndPorts | null)[][] = [];
  /** Per endpoint, the switch-side ends of its hunt group, in the order of its links. */
  readonly endpointLinks: DsLinkEndPorts[][];

  constructor(parent: Module | null, name: string, spec0: NetworkSpec | CheckedNetwork, opts: C104NetworkOptions) {
    super(parent, name);
    const net = (this.net = 'tables' in spec0 ? spec0 : checkNetwork(spec0));
    const verdict = (this.verdict = checkDeadlockFree(net));
    if (!verdict.deadlockFree && (opts.requireDeadlockFree ?? true)) throw new C104ConfigError(`network ${name}: ${verdict.message}`);
    const spec = net.spec;
    spec.switches.forEach((t, s) => {
      const fromProcessor = Array.from({ length: C104_LINKS }, (_, k) => net.peer[s]![k]?.kind === 'terminal');
      const cfg = makeC104Config({ ...opts.c104, fromProcessor, seed: (opts.c104?.seed ?? 1) + s });
      this.configs.push(cfg);
      const sideBand = opts.sideBand ? switchLanes(opts.sideBand, net, s) : undefined;
      const sw = new C104(this, t.name, net.tables[s]!, cfg, { connected: t.connected, sideBand, slices: opts.c104?.slices, dataPath: opts.c104?.dataPath });
      this.switches.push(sw);
      const row: (DsLinkEndPorts | null)[] = [];
      for (let k = 0; k < C104_LINKS; k++) {
        if (!t.connected[k]) {
          row.push(null);
          continue;
        }
        const e = opts.linkEnd(this, `${t.name}_link${k}`, { rxTokens: cfg.inputBufferTokens, txTokens: cfg.outputBufferTokens });
        attachEnd(this, sw, k, e);
        row.push(e);
      }
      this.ends.push(row);
    });
    const join = opts.join ?? joinLinks;
    for (const [a, b] of spec.cables) join(this, this.ends[a.sw]![a.link]!, this.ends[b.sw]![b.link]!);
    this.endpointLinks = spec.terminals.map((t) => t.links.map((k) => this.ends[t.sw]![k]!));
  }
}
