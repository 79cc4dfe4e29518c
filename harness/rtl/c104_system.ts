/**
 * A C104 network with T9000-style endpoints, clock by clock: the RTL network
 * (rtl/c104/network.ts) with a real DS-link end (rtl/dslink DsLinkEnd) on
 * every wired switch link, one T9000Endpoint per endpoint of the spec with
 * its own DS-link ends joined to the switch's (a hunt group of its links),
 * plus the T9000 process driver and event recorder (t9000_driver.ts,
 * t9000_events.ts). Readings: docs/c104.md#t9000-labels.
 *
 * Virtual links: the spec's endpoint t owns labels label..label+k-1; the
 * T9000's virtual link control block v is labelled v (the T9000 reads an
 * incoming header as its VL number), so every endpoint gets control blocks
 * 0..L-1 (L = all labels) and uses only those of its own labels. A channel
 * joins (A, a) and (B, b), a owned by A and b by B: A's block a sends with
 * header b and B's block b with header a. A block's packets leave on link
 * `a mod links` of its endpoint.
 */
import { Module, Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { DsLinkEnd, joinLinks, type DsLinkConfig } from '../../rtl/dslink/index.ts';
import { T9000Endpoint, type LinkEndFactory } from '../../rtl/t9000/endpoint.ts';
import type { T9000Config, VlcbConfig } from '../../rtl/t9000/config.ts';
import { C104Network, type C104LinkEndFactory } from '../../rtl/c104/network.ts';
import type { C104Options } from '../../rtl/c104/config.ts';
import { C104ConfigError } from '../../rtl/c104/interval_table.ts';
import { checkNetwork, type CheckedNetwork, type NetworkSpec } from '../../rtl/c104/topology.ts';
import { T9000Driver, type ChannelEnd } from './t9000_driver.ts';
import { T9000Recorder } from './t9000_events.ts';
import { c104Topology } from './c104_events.ts';

export interface C104SystemOptions {
  c104?: C104Options;
  t9000?: Partial<T9000Config>;
  dslink?: Partial<DsLinkConfig>;
  /** Link ends of the switches (default: DsLinkEnd with the switch's buffer sizes). */
  switchLinkEnd?: C104LinkEndFactory;
  /** Link ends of the endpoints (default: DsLinkEnd). */
  endpointLinkEnd?: LinkEndFactory;
  mode?: SimMode;
  requireDeadlockFree?: boolean;
  workload?: Record<string, unknown>;
}

export interface C104System {
  top: Module;
  sim: Simulator;
  net: CheckedNetwork;
  network: C104Network;
  endpoints: T9000Endpoint[];
  driver: T9000Driver;
  rec: T9000Recorder;
}

/**
 * Receive slots (32 bytes each) of every virtual link when there are L
 * labels: the receive areas of L control blocks must fit the 64 KiB node
 * memory beside a 4 KiB send area. A message must fit its VL's area.
 */
export function defaultRxSlots(L: number): number {
  return Math.max(2, Math.min(8, Math.floor((65536 - 4096) / (L * 32))));
}

/** Build the system; `channels` are the virtual links (each end's vl is a label its endpoint owns). */
export function makeC104System(spec: NetworkSpec, channels: readonly [ChannelEnd, ChannelEnd][], o: C104SystemOptions = {}): C104System {
  const net = checkNetwork(spec);
  const L = Math.max(...spec.terminals.map((t) => t.label + (t.labelCount ?? 1)));
  if (L > 255) throw new C104ConfigError(`c104 system: ${L} labels, but a T9000 has at most 255 virtual link control blocks`);
  const headerOf = spec.terminals.map(() => new Map<number, number>());
  const used = new Set<string>();
  for (const [a, b] of channels) {
    for (const [e, f] of [[a, b], [b, a]] as const) {
      if (net.terminalOfLabel.get(e.vl) !== e.node) throw new C104ConfigError(`c104 system: virtual link ${e.vl} is not a label of endpoint ${e.node}`);
      if (used.has(`${e.node}:${e.vl}`)) throw new C104ConfigError(`c104 system: virtual link ${e.vl} of endpoint ${e.node} is in two channels`);
      used.add(`${e.node}:${e.vl}`);
      headerOf[e.node]!.set(e.vl, f.vl);
    }
  }
  const top = new Module(null, 'top');
  const dsl = o.dslink ?? {};
  const network = new C104Network(top, 'net', net, {
    c104: o.c104,
    linkEnd: o.switchLinkEnd ?? ((p, name, buf) => new DsLinkEnd(p, name, { ...dsl, rxBufferTokens: Math.max(8, buf.rxTokens), txBufferTokens: buf.txTokens })),
    requireDeadlockFree: o.requireDeadlockFree,
  });
  const epEnd: LinkEndFactory = o.endpointLinkEnd ?? ((p, name) => new DsLinkEnd(p, name, dsl));
  const endpoints = spec.terminals.map((t, i) => {
    const links = t.links.length;
    if (links > 4) throw new C104ConfigError(`c104 system: endpoint ${t.name} has ${links} links; a T9000 has 4`);
    const virtualLinks: VlcbConfig[] = Array.from({ length: L }, (_, v) => ({ link: v % links, header: headerOf[i]!.get(v) ?? v }));
    const rxSlots = defaultRxSlots(L);
    const ep = new T9000Endpoint(top, t.name, { rxSlots, ...o.t9000, links, headerBytes: spec.headerBytes, virtualLinks }, epEnd);
    ep.links.forEach((end, j) => joinLinks(top, end, network.endpointLinks[i]![j]!));
    return ep;
  });
  const sim = new Simulator(top, { mode: o.mode ?? 'activity' });
  const driver = new T9000Driver(sim, endpoints);
  for (const [a, b] of channels) driver.channel(a, b);
  const rec = new T9000Recorder(sim, driver, { system: 'c104', ...o.workload });
  rec.header.topology = c104Topology(spec);
  return { top, sim, net, network, endpoints, driver, rec };
}
