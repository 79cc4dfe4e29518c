/** Two endpoints joined by one link (test helper over harness/rtl/t9000_pair.ts): the stand-in link by default, or the real DS-link. */
import type { SimMode } from '../../rtl/kernel/index.ts';
import type { LinkEndFactory } from '../../rtl/t9000/endpoint.ts';
import type { T9000Config } from '../../rtl/t9000/config.ts';
import { makeT9000Pair, type T9000Pair } from '../../harness/rtl/t9000_pair.ts';
import { LinkStub, type LinkStubConfig } from '../../harness/rtl/link_standin.ts';
import { dsLinks } from '../../harness/rtl/t9000_pair.ts';

export function stubLinks(cfg: LinkStubConfig = {}): LinkEndFactory {
  return (p, name) => new LinkStub(p, name, cfg);
}

/** The real DS-link end (rtl/dslink), configured as the T9000's links (harness/rtl/t9000_pair.ts). */
export const realLinks = (): LinkEndFactory => dsLinks();

export type Pair = T9000Pair;

export function makePair(vls: number, cfg: Partial<T9000Config> = {}, opts: { mode?: SimMode; links?: LinkEndFactory; cfgB?: Partial<T9000Config> } = {}): Pair {
  return makeT9000Pair(vls, cfg, { links: opts.links ?? stubLinks(), mode: opts.mode, cfgB: opts.cfgB });
}
