/**
 * Two T9000-style endpoints joined by one DS-link (docs/t9000.md#pair): the
 * set-up of seed 004 §4.1.4.1 ("we connected two T9000s together via a single
 * DS-link"), with a process driver and an event recorder attached. Node 0 is
 * endpoint `a`, node 1 endpoint `b`; VL i of a and VL i of b are the two ends
 * of one virtual link (each header names the far VL, which has the same label).
 * The link end is the caller's (the real DsLinkEnd or a stand-in).
 *
 * With `addressing: 'node'` in the config (docs/t9000.md#addressing) every
 * header names the far endpoint (a = node 0, b = node 1) and the virtual
 * link travels as a side-band tag: one lane per link direction, a → b and
 * b → a, saved with the simulator's snapshots (`attachSideBand`).
 */
import { Module } from '../../rtl/kernel/module.ts';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { T9000Endpoint, type LinkEndFactory } from '../../rtl/t9000/endpoint.ts';
import { SideBand, type SideBandOptions } from '../../rtl/lib/side_band.ts';
import { joinLinks } from '../../rtl/dslink/ports.ts';
import type { T9000Config, VlcbConfig } from '../../rtl/t9000/config.ts';
import { DsLinkEnd } from '../../rtl/dslink/end.ts';
import type { DsLinkConfig } from '../../rtl/dslink/config.ts';
import { T9000Driver } from './t9000_driver.ts';
import { T9000Recorder } from './t9000_events.ts';

/**
 * The DS-link configuration of a T9000's links (docs/t9000.md#transmit-port):
 * a one-character transmit buffer, because the endpoint's own ack and data
 * queues stand before the link; with a deep link buffer an ack would wait
 * behind the data characters already handed over, and ack priority would be
 * lost. Everything else is the DS-link's default.
 */
export const T9000_LINK_DEFAULTS: Readonly<Partial<DsLinkConfig>> = Object.freeze({ txBufferTokens: 1 });

/**
 * The T9000 links as seed 004's simulator sees them (docs/dslink.md#handover):
 * the defaults above with each received token handed on after its last bit
 * (`rxHandover: 'on-arrival'`): the thesis's simulator has no receive
 * latency. The setting of the seed reproductions (dslink-bandwidth, c104-transit).
 */
export const T9000_THESIS_LINKS: Readonly<Partial<DsLinkConfig>> = Object.freeze({ ...T9000_LINK_DEFAULTS, rxHandover: 'on-arrival' });

/**
 * The thesis links with the thesis's idle link (docs/dslink.md#run-idle): an
 * idle transmitter in Run sends no NULLs (`runIdle: 'silent'`), as seed
 * 004's simulator has no filler tokens.
 */
export const T9000_THESIS_IDLE_LINKS: Readonly<Partial<DsLinkConfig>> = Object.freeze({ ...T9000_THESIS_LINKS, runIdle: 'silent' });

/**
 * The link of seed 004's simulator, no receive latency (docs/dslink.md#flow-through):
 * the idle links above with flow-through (deserialiser outputs and decoder
 * release combinational, no buffer stage on an empty buffer), so a
 * turnaround costs no cycle instead of four. The setting of
 * dslink-bandwidth and of the t9000-uni / t9000-bi compare presets.
 */
export const T9000_THESIS_SIM_LINKS: Readonly<Partial<DsLinkConfig>> = Object.freeze({ ...T9000_THESIS_IDLE_LINKS, flowThrough: true });

/** Link ends for a pair: the real DS-link with the T9000 settings. */
export function dsLinks(cfg: Partial<DsLinkConfig> = T9000_LINK_DEFAULTS): LinkEndFactory {
  return (p, name) => new DsLinkEnd(p, name, cfg);
}

/** Step until every link end of the pair is running; returns that cycle. */
export function runUntilLinksUp(pair: T9000Pair, maxCycles = 100_000): number {
  const ends = [...pair.a.links, ...pair.b.links];
  const r = pair.sim.runUntil((x) => ends.every((e) => x.peek(e.running) === 1), maxCycles);
  if (!r.reached) throw new Error(`t9000 pair: the link did not reach run within ${maxCycles} cycles`);
  return pair.sim.cycle;
}

export interface T9000Pair {
  top: Module;
  sideBand: SideBand | null;
  sim: Simulator;
  a: T9000Endpoint;
  b: T9000Endpoint;
  driver: T9000Driver;
  rec: T9000Recorder;
}

export interface T9000PairOptions {
  links: LinkEndFactory;
  mode?: SimMode;
  /** Overrides for endpoint b only. */
  cfgB?: Partial<T9000Config>;
  workload?: Record<string, unknown>;
  /** Side-band options (addressing 'node'; fault injection for negative controls only). */
  sideBand?: SideBandOptions;
}

/** Node numbers of the pair's endpoints under addressing 'node' (their node headers). */
export const PAIR_NODES = Object.freeze({ a: 0, b: 1 });

/**
 * The design only: endpoints `a` and `b` under a top module, joined by link 0.
 * Addressing 'node' (in `cfg`, or in `cfgB` too): VL i's header is the far
 * node, its tag VL i of the far end; `sideBand` holds the two lanes.
 */
export function buildT9000Pair(vls: number, cfg: Partial<T9000Config>, links: LinkEndFactory, cfgB: Partial<T9000Config> = {}, sideBandOptions?: SideBandOptions): { top: Module; a: T9000Endpoint; b: T9000Endpoint; sideBand: SideBand | null } {
  const top = new Module(null, 'top');
  const node = (cfgB.addressing ?? cfg.addressing) === 'node';
  const blocks = (far: number): VlcbConfig[] => Array.from({ length: vls }, (_, i) => (node ? { link: 0, header: far, peerVl: i } : { link: 0, header: i }));
  const sideBand = node ? new SideBand(sideBandOptions) : null;
  const lanes = (from: string, to: string) => (sideBand ? { tx: [sideBand.lane(`${from}->${to}`)], rx: [sideBand.lane(`${to}->${from}`)] } : null);
  const nodeCfg = (self: number) => (node ? { addressing: 'node' as const, nodeHeader: self } : {});
  const a = new T9000Endpoint(top, 'a', { links: 1, ...cfg, ...nodeCfg(PAIR_NODES.a), virtualLinks: blocks(PAIR_NODES.b) }, links, lanes('a', 'b'));
  const b = new T9000Endpoint(top, 'b', { links: 1, ...cfg, ...cfgB, ...nodeCfg(PAIR_NODES.b), virtualLinks: blocks(PAIR_NODES.a) }, links, lanes('b', 'a'));
  joinLinks(top, a.links[0]!, b.links[0]!);
  return { top, a, b, sideBand };
}

/** Save the side-band lanes (addressing 'node') with the simulator's snapshots. */
export function attachSideBand(sim: Simulator, sideBand: SideBand | null): void {
  if (sideBand) sim.addStateProvider(sideBand.stateProvider());
}

/** A process driver (VL i of a ↔ VL i of b) and an event recorder on a simulator of the pair. */
export function attachT9000Pair(sim: Simulator, a: T9000Endpoint, b: T9000Endpoint, workload?: Record<string, unknown>): { driver: T9000Driver; rec: T9000Recorder } {
  const driver = new T9000Driver(sim, [a, b]);
  const vls = Math.min(a.cfg.virtualLinks.length, b.cfg.virtualLinks.length);
  for (let i = 0; i < vls; i++) driver.channel({ node: 0, vl: i }, { node: 1, vl: i });
  return { driver, rec: new T9000Recorder(sim, driver, workload) };
}

export function makeT9000Pair(vls: number, cfg: Partial<T9000Config>, opts: T9000PairOptions): T9000Pair {
  const { top, a, b, sideBand } = buildT9000Pair(vls, cfg, opts.links, opts.cfgB, opts.sideBand);
  const sim = new Simulator(top, { mode: opts.mode ?? 'activity' });
  attachSideBand(sim, sideBand);
  const { driver, rec } = attachT9000Pair(sim, a, b, opts.workload);
  return { top, sideBand, sim, a, b, driver, rec };
}
