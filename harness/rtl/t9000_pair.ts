/**
 * Two T9000-style endpoints joined by one DS-link (docs/t9000.md#pair): the
 * set-up of seed 004 §4.1.4.1 ("we connected two T9000s together via a single
 * DS-link"), with a process driver and an event recorder attached. Node 0 is
 * endpoint `a`, node 1 endpoint `b`; VL i of a and VL i of b are the two ends
 * of one virtual link (each header names the far VL, which has the same label).
 * The link end is the caller's (the real DsLinkEnd or a stand-in).
 */
import { Module } from '../../rtl/kernel/module.ts';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { T9000Endpoint, joinLinks, type LinkEndFactory } from '../../rtl/t9000/endpoint.ts';
import type { T9000Config, VlcbConfig } from '../../rtl/t9000/config.ts';
import { T9000Driver } from './t9000_driver.ts';
import { T9000Recorder } from './t9000_events.ts';

export interface T9000Pair {
  top: Module;
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
}

export function makeT9000Pair(vls: number, cfg: Partial<T9000Config>, opts: T9000PairOptions): T9000Pair {
  const top = new Module(null, 'top');
  const virtualLinks: VlcbConfig[] = Array.from({ length: vls }, (_, i) => ({ link: 0, header: i }));
  const a = new T9000Endpoint(top, 'a', { links: 1, ...cfg, virtualLinks }, opts.links);
  const b = new T9000Endpoint(top, 'b', { links: 1, ...cfg, ...opts.cfgB, virtualLinks }, opts.links);
  joinLinks(top, a.links[0]!, b.links[0]!);
  const sim = new Simulator(top, { mode: opts.mode ?? 'activity' });
  const driver = new T9000Driver(sim, [a, b]);
  for (let i = 0; i < vls; i++) driver.channel({ node: 0, vl: i }, { node: 1, vl: i });
  const rec = new T9000Recorder(sim, driver, opts.workload);
  return { top, sim, a, b, driver, rec };
}
