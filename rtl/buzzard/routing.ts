/**
 * Routing of the Buzzard n-cube (seed 002 §5.2–5.3; spec §6). Pure functions
 * of node numbers, used by the units' routing logic and by tests. Port i
 * (1..n) is the link of dimension i, flipping address bit i-1 (spec §6.1);
 * port 0 is the node's own input/output port.
 */

/** Trailing zero count of a nonzero 32-bit value. */
function ctz(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** The neighbour of `node` across port `port` (1..n). */
export function neighbour(node: number, port: number): number {
  return node ^ (1 << (port - 1));
}

/**
 * Port wanted at `node` for a packet to `dest` under ascending e-cube
 * routing: 0 at the destination, else the lowest differing dimension
 * (spec §6.2, §6.4: the next-port lookahead).
 */
export function nextPort(node: number, dest: number): number {
  const diff = node ^ dest;
  return diff === 0 ? 0 : 1 + ctz(diff);
}

/** The e-cube first port from `src` to `dest` (0 when equal). */
export function ecubeFirstPort(src: number, dest: number): number {
  return nextPort(src, dest);
}

/** Ports that bring a packet from `src` closer to `dest` (spec §6.3: "viable" first hops). */
export function profitablePorts(src: number, dest: number, n: number): number[] {
  const out: number[] = [];
  const diff = src ^ dest;
  for (let p = 1; p <= n; p++) if (diff & (1 << (p - 1))) out.push(p);
  return out;
}

/** Hamming distance. */
export function hops(a: number, b: number): number {
  let x = a ^ b;
  let c = 0;
  while (x) {
    x &= x - 1;
    c++;
  }
  return c;
}

/** A first hop through `port` is contrary when it is not the e-cube first port (spec §6.3). */
export function isContrary(src: number, dest: number, port: number): boolean {
  return port !== ecubeFirstPort(src, dest);
}

/**
 * The full path of a packet whose first hop is `firstPort`, as the list of
 * nodes visited after the source (spec §6.3: adaptive first hop, then e-cube).
 */
export function path(src: number, dest: number, firstPort: number): number[] {
  if (src === dest) return [];
  const nodes: number[] = [];
  let at = neighbour(src, firstPort);
  nodes.push(at);
  while (at !== dest) {
    at = neighbour(at, nextPort(at, dest));
    nodes.push(at);
  }
  return nodes;
}

/**
 * Broadcast copies out of PBU `pbu` (the dimension it arrived on) at a node
 * the broadcast reached: local delivery first, then every higher dimension
 * (A11; spec §4.2 "each PBU forwards a copy to every higher-order unit").
 * At the source, every slot 1..n starts a copy (a binomial spanning tree).
 */
export function broadcastPorts(pbu: number, n: number): number[] {
  const out = [0];
  for (let p = pbu + 1; p <= n; p++) out.push(p);
  return out;
}

/** Next port after `port` in a broadcast out of PBU `pbu`, or -1 when all copies are sent. */
export function nextBroadcastPort(pbu: number, port: number, n: number): number {
  const next = port === 0 ? pbu + 1 : port + 1;
  return next > n ? -1 : next;
}
