/** Two endpoints joined by one link end each (test helper). */
import { Module } from '../../rtl/kernel/module.ts';
import { Simulator, type SimMode } from '../../rtl/kernel/index.ts';
import { T9000Endpoint, joinLinks, type LinkEndFactory } from '../../rtl/t9000/endpoint.ts';
import type { T9000Config, VlcbConfig } from '../../rtl/t9000/config.ts';
import { T9000Driver } from '../../harness/rtl/t9000_driver.ts';
import { T9000Recorder } from '../../harness/rtl/t9000_events.ts';
import { LinkStub, type LinkStubConfig } from './link_stub.ts';

export function stubLinks(cfg: LinkStubConfig = {}): LinkEndFactory {
  return (p, name) => new LinkStub(p, name, cfg);
}

export interface Pair {
  sim: Simulator;
  a: T9000Endpoint;
  b: T9000Endpoint;
  driver: T9000Driver;
  rec: T9000Recorder;
}

/**
 * Endpoints a (node 0) and b (node 1), one link, `vls` virtual links on each,
 * VL i of a paired with VL i of b (each header names the far VL, same label).
 */
export function makePair(vls: number, cfg: Partial<T9000Config> = {}, opts: { mode?: SimMode; links?: LinkEndFactory; cfgB?: Partial<T9000Config> } = {}): Pair {
  const top = new Module(null, 'top');
  const virtualLinks: VlcbConfig[] = Array.from({ length: vls }, (_, i) => ({ link: 0, header: i }));
  const links = opts.links ?? stubLinks();
  const a = new T9000Endpoint(top, 'a', { links: 1, ...cfg, virtualLinks }, links);
  const b = new T9000Endpoint(top, 'b', { links: 1, ...cfg, ...opts.cfgB, virtualLinks }, links);
  joinLinks(top, a.links[0]!, b.links[0]!);
  const sim = new Simulator(top, { mode: opts.mode ?? 'activity' });
  const driver = new T9000Driver(sim, [a, b]);
  for (let i = 0; i < vls; i++) driver.channel({ node: 0, vl: i }, { node: 1, vl: i });
  const rec = new T9000Recorder(sim, driver);
  return { sim, a, b, driver, rec };
}
