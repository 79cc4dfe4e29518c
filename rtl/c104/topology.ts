/**
 * A C104 network as configuration data: switches (their interval tables),
 * the cables between switch links and the endpoints (T9000s) with the links
 * they use and the label they own. Pure; the RTL network presets are built
 * from it, and the static checks (channel_deps.ts) read it.
 *
 * Readings: docs/c104.md#networks.
 */
import { C104ConfigError, C104_LINKS, compileTable, type CompiledTable, type SwitchTable } from './interval_table.ts';

/** One end of a cable: link `link` of switch `sw`. */
export interface LinkRef {
  sw: number;
  link: number;
}

/** An endpoint joined to one switch by a hunt group of links (seed 004 §3.2: width 4 for the T9000). */
export interface Terminal {
  name: string;
  /** The (first) header value that names this endpoint. */
  label: number;
  /** Labels owned: label..label+labelCount-1 (e.g. one per virtual link of a T9000, docs/c104.md#t9000-labels); default 1. */
  labelCount?: number;
  sw: number;
  links: readonly number[];
}

export interface NetworkSpec {
  headerBytes: 1 | 2;
  switches: SwitchTable[];
  /** Switch-to-switch cables (a cable may join two links of one switch: a loopback). */
  cables: [LinkRef, LinkRef][];
  terminals: Terminal[];
}

/** What a switch link is wired to. */
export type LinkPeer = { kind: 'switch'; sw: number; link: number } | { kind: 'terminal'; terminal: number } | null;

/** A checked network: compiled tables plus the wiring map. */
export interface CheckedNetwork {
  spec: NetworkSpec;
  tables: CompiledTable[];
  /** peer[sw][link]. */
  peer: LinkPeer[][];
  /** Terminal index by label (-1: no endpoint owns the label). */
  terminalOfLabel: Map<number, number>;
}

/**
 * Check the wiring (each link used once, every link of a table marked
 * connected is wired and vice versa) and every switch's table; one line per
 * problem, thrown as C104ConfigError.
 */
export function checkNetwork(spec: NetworkSpec): CheckedNetwork {
  const peer: LinkPeer[][] = spec.switches.map(() => new Array<LinkPeer>(C104_LINKS).fill(null));
  const name = (r: LinkRef): string => `${spec.switches[r.sw]?.name ?? `switch ${r.sw}`}.link${r.link}`;
  const claim = (r: LinkRef, p: LinkPeer): void => {
    if (!Number.isInteger(r.sw) || r.sw < 0 || r.sw >= spec.switches.length) throw new C104ConfigError(`network: cable names switch ${r.sw}, but switches are 0..${spec.switches.length - 1}`);
    if (!Number.isInteger(r.link) || r.link < 0 || r.link >= C104_LINKS) throw new C104ConfigError(`network: ${name(r)} is outside links 0..${C104_LINKS - 1}`);
    if (peer[r.sw]![r.link] !== null) throw new C104ConfigError(`network: ${name(r)} is wired twice`);
    peer[r.sw]![r.link] = p;
  };
  for (const [a, b] of spec.cables) {
    claim(a, { kind: 'switch', sw: b.sw, link: b.link });
    claim(b, { kind: 'switch', sw: a.sw, link: a.link });
  }
  const terminalOfLabel = new Map<number, number>();
  spec.terminals.forEach((t, i) => {
    const count = t.labelCount ?? 1;
    for (let l = t.label; l < t.label + count; l++) {
      if (terminalOfLabel.has(l)) throw new C104ConfigError(`network: endpoints ${spec.terminals[terminalOfLabel.get(l)!]!.name} and ${t.name} both own label ${l}`);
      terminalOfLabel.set(l, i);
    }
    if (t.links.length === 0) throw new C104ConfigError(`network: endpoint ${t.name} has no links`);
    for (const link of t.links) claim({ sw: t.sw, link }, { kind: 'terminal', terminal: i });
  });
  spec.switches.forEach((t, s) => {
    if (t.headerBytes !== spec.headerBytes) throw new C104ConfigError(`c104 ${t.name}: headerBytes ${t.headerBytes} differs from the network's ${spec.headerBytes}`);
    for (let k = 0; k < C104_LINKS; k++) {
      const wired = peer[s]![k] !== null;
      if (wired !== t.connected[k]) {
        throw new C104ConfigError(`c104 ${t.name}: link ${k} is ${wired ? 'wired but not marked connected' : 'marked connected but not wired'}`);
      }
    }
  });
  const tables = spec.switches.map(compileTable);
  return { spec, tables, peer, terminalOfLabel };
}
