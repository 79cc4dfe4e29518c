/**
 * Static analysis of a labelled network (docs/c104.md#deadlock-check):
 *  - `traceRoute`: the path a packet takes from an endpoint to a label,
 *    following the interval tables (first link of each hunt group);
 *  - `channelDependencies`: every (channel, header stack) a packet can reach
 *    from any endpoint to any label, through random header generation,
 *    header deletion and every link of a hunt group; the dependency graph
 *    has an edge c → c' when a packet holding channel c (it arrived over c)
 *    can wait for channel c';
 *  - `checkDeadlockFree`: Dally and Seitz's condition: a wormhole network
 *    whose channel dependency graph is acyclic cannot deadlock; a cycle is
 *    named channel by channel.
 * A channel is one direction of a link, named by its sender:
 * `sw.linkK` (switch sw's output K) or `name.out` (an endpoint's injection).
 */
import { C104ConfigError, lookupGroup, type CompiledTable } from './interval_table.ts';
import { checkNetwork, type CheckedNetwork, type NetworkSpec } from './topology.ts';

/** One hop of a traced route: leaving switch `sw` on `link` (hunt group `group`). */
export interface Hop {
  sw: number;
  group: number;
  link: number;
}

export interface Route {
  hops: Hop[];
  /** The endpoint the packet reaches. */
  terminal: number;
}

/** Header operations applied where a packet enters (place 'input') or leaves (place 'output') a link. */
function headerOps(t: CompiledTable, link: number, stack: readonly number[], pick: (lo: number, hi: number) => number[]): number[][] {
  let stacks: number[][] = [[...stack]];
  if (t.deleteHeader[link]) {
    if (stack.length < 2) throw new C104ConfigError(`c104 ${t.name}: header deletion on link ${link} leaves a packet with no header`);
    stacks = [stack.slice(1)];
  }
  const r = t.randomHeader[link];
  if (r) stacks = stacks.flatMap((s) => pick(r.lo, r.hi).map((h) => [h, ...s]));
  return stacks;
}

function allValues(lo: number, hi: number): number[] {
  return Array.from({ length: hi - lo + 1 }, (_, k) => lo + k);
}

/** Channel name for switch sw's output link. */
function channel(net: CheckedNetwork, sw: number, link: number): string {
  return `${net.spec.switches[sw]!.name}.link${link}`;
}

/**
 * Follow the tables from endpoint `from` with header `label` (random header
 * choices: the lowest value of the range). Throws when the packet loops or
 * leaves on an unwired link.
 */
export function traceRoute(net: CheckedNetwork, from: number, label: number, pick: (lo: number, hi: number) => number = (lo) => lo): Route {
  const term = net.spec.terminals[from]!;
  let sw = term.sw;
  let link = term.links[0]!;
  let stack = [label];
  const hops: Hop[] = [];
  const limit = 4 * net.spec.switches.length + 8;
  for (;;) {
    const t = net.tables[sw]!;
    if (t.place === 'input') stack = headerOps(t, link, stack, (lo, hi) => [pick(lo, hi)])[0]!;
    const g = lookupGroup(t, stack[0]!);
    if (g < 0) throw new C104ConfigError(`c104 ${t.name}: header ${stack[0]} is past the last label ${t.labels - 1}`);
    const out = t.groups[g]![0]!;
    hops.push({ sw, group: g, link: out });
    if (t.place === 'output') stack = headerOps(t, out, stack, (lo, hi) => [pick(lo, hi)])[0]!;
    const p = net.peer[sw]![out];
    if (!p) throw new C104ConfigError(`c104 ${t.name}: link ${out} is not wired`);
    if (p.kind === 'terminal') return { hops, terminal: p.terminal };
    sw = p.sw;
    link = p.link;
    if (hops.length > limit) throw new C104ConfigError(`route from ${term.name} to label ${label} loops: ${hops.slice(0, 8).map((h) => channel(net, h.sw, h.link)).join(' → ')} …`);
  }
}

export interface DependencyGraph {
  /** Channel names; index = vertex. */
  channels: string[];
  /** Adjacency: edges[c] = channels a packet holding c can wait for. */
  edges: Set<number>[];
}

/**
 * Every reachable (channel, header stack) from every endpoint to every label
 * owned by another endpoint. Also checks delivery: a packet must reach the
 * endpoint that owns its header, with no header left over from a phase.
 */
export function channelDependencies(net: CheckedNetwork): DependencyGraph {
  const ids = new Map<string, number>();
  const channels: string[] = [];
  const edges: Set<number>[] = [];
  const id = (name: string): number => {
    let v = ids.get(name);
    if (v === undefined) {
      v = channels.length;
      ids.set(name, v);
      channels.push(name);
      edges.push(new Set());
    }
    return v;
  };
  const seen = new Set<string>();
  type State = { sw: number; link: number; held: number; stack: number[] };
  const queue: State[] = [];
  const push = (s: State): void => {
    const key = `${s.sw}:${s.link}:${s.stack.join(',')}`;
    if (seen.has(key)) return;
    seen.add(key);
    queue.push(s);
  };
  net.spec.terminals.forEach((t, ti) => {
    const held = id(`${t.name}.out`);
    for (const [label, dest] of net.terminalOfLabel) {
      if (dest === ti) continue;
      for (const link of t.links) push({ sw: t.sw, link, held, stack: [label] });
    }
  });
  while (queue.length > 0) {
    const st = queue.pop()!;
    const t = net.tables[st.sw]!;
    const stacks = t.place === 'input' ? headerOps(t, st.link, st.stack, allValues) : [st.stack];
    for (const stack of stacks) {
      const g = lookupGroup(t, stack[0]!);
      if (g < 0) throw new C104ConfigError(`c104 ${t.name}: header ${stack[0]} is past the last label ${t.labels - 1}`);
      for (const out of t.groups[g]!) {
        const c = id(channel(net, st.sw, out));
        edges[st.held]!.add(c);
        const after = t.place === 'output' ? headerOps(t, out, stack, allValues) : [stack];
        const p = net.peer[st.sw]![out]!;
        for (const s2 of after) {
          if (p.kind === 'terminal') {
            const term = net.spec.terminals[p.terminal]!;
            if (s2.length !== 1 || net.terminalOfLabel.get(s2[0]!) !== p.terminal) {
              throw new C104ConfigError(`c104 ${t.name}: a packet with header ${s2.join('/')} is delivered to ${term.name}, which owns label${(term.labelCount ?? 1) > 1 ? 's' : ''} ${term.label}${(term.labelCount ?? 1) > 1 ? `..${term.label + term.labelCount! - 1}` : ''}`);
            }
            continue;
          }
          push({ sw: p.sw, link: p.link, held: c, stack: s2 });
        }
      }
    }
  }
  return { channels, edges };
}

/** A dependency cycle as channel names (first repeated at the end), or null. */
export function findCycle(g: DependencyGraph): string[] | null {
  const n = g.channels.length;
  const color = new Uint8Array(n); // 0 new, 1 on stack, 2 done
  const parent = new Int32Array(n).fill(-1);
  const adj = g.edges.map((s) => [...s]);
  for (let root = 0; root < n; root++) {
    if (color[root] !== 0) continue;
    const stack: [number, number][] = [[root, 0]];
    color[root] = 1;
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const [v, k] = top;
      if (k >= adj[v]!.length) {
        color[v] = 2;
        stack.pop();
        continue;
      }
      top[1] = k + 1;
      const w = adj[v]![k]!;
      if (color[w] === 1) {
        const cyc = [g.channels[w]!];
        for (let u = v; u !== w; u = parent[u]!) cyc.push(g.channels[u]!);
        cyc.push(g.channels[w]!);
        // cyc holds w, v, parent(v), ..., w: reverse to follow the edges.
        return cyc.reverse();
      }
      if (color[w] === 0) {
        color[w] = 1;
        parent[w] = v;
        stack.push([w, 0]);
      }
    }
  }
  return null;
}

export type DeadlockVerdict = { deadlockFree: true } | { deadlockFree: false; cycle: string[]; message: string };

/** Check a network and say whether its labelling is deadlock-free (acyclic channel dependencies). */
export function checkDeadlockFree(spec: NetworkSpec | CheckedNetwork): DeadlockVerdict {
  const net = 'tables' in spec ? spec : checkNetwork(spec);
  const cycle = findCycle(channelDependencies(net));
  if (!cycle) return { deadlockFree: true };
  return { deadlockFree: false, cycle, message: `labelling is not deadlock-free: channel dependency cycle ${cycle.join(' → ')}` };
}
