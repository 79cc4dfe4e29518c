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
 *
 * With `t9000.addressing: 'node'` (docs/t9000.md#addressing) each endpoint
 * owns one label, its node header, and a channel end's `vl` is a control
 * block index local to its endpoint (`nodeChannels` numbers them in first-use
 * order): blocks grow with the partners used, not with the labels. Packets
 * carry the far end's block as a side-band tag (rtl/lib/side_band.ts).
 */
import { Module, Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { DsLinkEnd, joinLinks, type DsLinkConfig } from '../../rtl/dslink/index.ts';
import { T9000Endpoint, type LinkEndFactory } from '../../rtl/t9000/endpoint.ts';
import { MAX_VLS, type T9000Config, type VlcbConfig } from '../../rtl/t9000/config.ts';
import { C104Network, type C104LinkEndFactory } from '../../rtl/c104/network.ts';
import type { C104Options } from '../../rtl/c104/config.ts';
import { C104ConfigError } from '../../rtl/c104/interval_table.ts';
import { checkNetwork, type CheckedNetwork, type NetworkSpec } from '../../rtl/c104/topology.ts';
import { T9000Driver, type ChannelEnd } from './t9000_driver.ts';
import { T9000Recorder } from './t9000_events.ts';
import { c104Topology } from './c104_events.ts';
import { SideBand, type SideBandOptions } from '../../rtl/lib/side_band.ts';
import { terminalLanes } from '../../rtl/c104/network.ts';

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
  /** Side-band options (addressing 'node'; fault injection for negative controls only). */
  sideBand?: SideBandOptions;
}

export interface C104System {
  top: Module;
  sim: Simulator;
  net: CheckedNetwork;
  network: C104Network;
  endpoints: T9000Endpoint[];
  driver: T9000Driver;
  rec: T9000Recorder;
  /** The side-band lanes (addressing 'node'), else null. */
  sideBand: SideBand | null;
}

/**
 * Addressing 'node': one channel per pair, each end numbered by its
 * endpoint's control blocks in first-use order (docs/t9000.md#addressing).
 * `blocks` is the most any endpoint needs.
 */
export function nodeChannels(pairs: readonly (readonly [number, number])[], T: number): { channels: [ChannelEnd, ChannelEnd][]; blocks: number } {
  const next = new Array<number>(T).fill(0);
  const channels = pairs.map(([a, b]): [ChannelEnd, ChannelEnd] => [{ node: a, vl: next[a]!++ }, { node: b, vl: next[b]!++ }]);
  return { channels, blocks: Math.max(1, ...next) };
}

/** Control blocks of every endpoint under addressing 'node': header = the far node's label, peerVl = the far block. */
function nodeBlocks(spec: NetworkSpec, channels: readonly [ChannelEnd, ChannelEnd][]): { link: number; header: number; peerVl: number }[][] {
  const blocks = spec.terminals.map(() => [] as { link: number; header: number; peerVl: number }[]);
  for (const [a, b] of channels) {
    for (const [e, f] of [[a, b], [b, a]] as const) {
      const t = spec.terminals[e.node];
      if (!t || !spec.terminals[f.node]) throw new C104ConfigError(`c104 system: channel end names endpoint ${e.node}, outside 0..${spec.terminals.length - 1}`);
      if (!(Number.isInteger(e.vl) && e.vl >= 0 && e.vl < MAX_VLS)) throw new C104ConfigError(`c104 system: control block ${e.vl} of endpoint ${e.node} is outside 0..${MAX_VLS - 1} (a T9000 here has at most ${MAX_VLS}: docs/t9000.md#control-blocks)`);
      if (blocks[e.node]![e.vl]) throw new C104ConfigError(`c104 system: control block ${e.vl} of endpoint ${e.node} is in two channels`);
      blocks[e.node]![e.vl] = { link: e.vl % t.links.length, header: spec.terminals[f.node]!.label, peerVl: f.vl };
    }
  }
  return spec.terminals.map((t, i) => {
    const b = blocks[i]!;
    return Array.from({ length: Math.max(1, b.length) }, (_, v) => b[v] ?? { link: v % t.links.length, header: t.label, peerVl: 0 });
  });
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
  if (o.t9000?.addressing === 'node') return makeNodeSystem(net, channels, o);
  const L = Math.max(...spec.terminals.map((t) => t.label + (t.labelCount ?? 1)));
  if (L > 255) throw new C104ConfigError(`c104 system: ${L} labels, but virtual-link addressing allows at most 255 (labels in all; addressing 'node' has no such limit)`);
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
  const rxSlots = defaultRxSlots(L);
  return assemble(net, channels, o, null, (t, i) => ({
    rxSlots,
    virtualLinks: Array.from({ length: L }, (_, v) => ({ link: v % t.links.length, header: headerOf[i]!.get(v) ?? v })),
  }));
}

/** Addressing 'node': one label per endpoint, blocks per partner, side-band tags. */
function makeNodeSystem(net: CheckedNetwork, channels: readonly [ChannelEnd, ChannelEnd][], o: C104SystemOptions): C104System {
  const spec = net.spec;
  const many = spec.terminals.find((t) => (t.labelCount ?? 1) !== 1);
  if (many) throw new C104ConfigError(`c104 system: addressing 'node' gives each endpoint one label, but ${many.name} owns ${many.labelCount}`);
  const blocks = nodeBlocks(spec, channels);
  const rxSlots = defaultRxSlots(Math.max(...blocks.map((b) => b.length)));
  return assemble(net, channels, o, new SideBand(o.sideBand), (t, i) => ({ rxSlots, virtualLinks: blocks[i]!, nodeHeader: t.label }));
}

/** The network, the endpoints (control blocks from `blocksOf`), the simulator, driver and recorder. */
function assemble(
  net: CheckedNetwork,
  channels: readonly [ChannelEnd, ChannelEnd][],
  o: C104SystemOptions,
  sideBand: SideBand | null,
  blocksOf: (t: NetworkSpec['terminals'][number], i: number) => { rxSlots: number; virtualLinks: VlcbConfig[]; nodeHeader?: number },
): C104System {
  const spec = net.spec;
  const top = new Module(null, 'top');
  const dsl = o.dslink ?? {};
  const network = new C104Network(top, 'net', net, {
    c104: o.c104,
    linkEnd: o.switchLinkEnd ?? ((p, name, buf) => new DsLinkEnd(p, name, { ...dsl, rxBufferTokens: Math.max(8, buf.rxTokens), txBufferTokens: buf.txTokens })),
    requireDeadlockFree: o.requireDeadlockFree,
    sideBand: sideBand ?? undefined,
  });
  const epEnd: LinkEndFactory = o.endpointLinkEnd ?? ((p, name) => new DsLinkEnd(p, name, dsl));
  const endpoints = spec.terminals.map((t, i) => {
    const links = t.links.length;
    if (links > 4) throw new C104ConfigError(`c104 system: endpoint ${t.name} has ${links} links; a T9000 has 4`);
    const { rxSlots, virtualLinks, nodeHeader } = blocksOf(t, i);
    const lanes = sideBand ? terminalLanes(sideBand, net, i) : null;
    const ep = new T9000Endpoint(top, t.name, { rxSlots, ...o.t9000, links, headerBytes: spec.headerBytes, virtualLinks, ...(nodeHeader === undefined ? {} : { nodeHeader }) }, epEnd, lanes);
    ep.links.forEach((end, j) => joinLinks(top, end, network.endpointLinks[i]![j]!));
    return ep;
  });
  const sim = new Simulator(top, { mode: o.mode ?? 'activity' });
  if (sideBand) sim.addStateProvider(sideBand.stateProvider());
  const driver = new T9000Driver(sim, endpoints);
  for (const [a, b] of channels) driver.channel(a, b);
  const rec = new T9000Recorder(sim, driver, { system: 'c104', ...o.workload });
  rec.header.topology = c104Topology(spec);
  return { top, sim, net, network, endpoints, driver, rec, sideBand };
}
