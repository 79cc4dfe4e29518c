/**
 * The comb processes' static order (elaboration step 4; docs/kernel.md
 * "Stop 21: cost at scale"): Kahn's algorithm, each process after the
 * processes that drive what it reads, taking among the ready processes the
 * one declared first (a min-heap on the declaration index), where a FIFO
 * queue took them level by level across the whole design. Declarations are
 * in module-tree order, so a node's comb processes now run together: a
 * breadth-first order ran level 0 of all 1,024 nodes of a 32x32 mesh, then
 * level 1 of all of them, and so fetched each node's state and closures
 * once per level instead of once per cycle. Any topological order settles
 * to the same values; evaluations are the same processes.
 */

/** The order (declaration indices), or undefined and the processes left in a cycle (indegree > 0). */
export function combOrder(n: number, succ: number[][], indeg: Int32Array): number[] | undefined {
  const order: number[] = [];
  const heap: number[] = [];
  for (let p = 0; p < n; p++) if (indeg[p] === 0) heap.push(p); // ascending: already a heap
  while (heap.length > 0) {
    const q = popMin(heap);
    order.push(q);
    for (const p of succ[q]!) if (--indeg[p]! === 0) pushHeap(heap, p);
  }
  return order.length === n ? order : undefined;
}

function pushHeap(h: number[], x: number): void {
  let i = h.length;
  h.push(x);
  while (i > 0) {
    const up = (i - 1) >> 1;
    if (h[up]! <= x) break;
    h[i] = h[up]!;
    i = up;
  }
  h[i] = x;
}

function popMin(h: number[]): number {
  const top = h[0]!;
  const last = h.pop()!;
  const n = h.length;
  if (n === 0) return top;
  let i = 0;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && h[c + 1]! < h[c]!) c++;
    if (h[c]! >= last) break;
    h[i] = h[c]!;
    i = c;
  }
  h[i] = last;
  return top;
}

/** A cycle among the processes left with indegree > 0 after Kahn's algorithm. */
export function findCycle(n: number, succ: number[][], indeg: Int32Array): number[] {
  const inRest = (p: number): boolean => indeg[p]! > 0;
  const state = new Int8Array(n); // 0 new, 1 on stack, 2 done
  const stack: number[] = [];
  let ring: number[] = [];
  const dfs = (p: number): boolean => {
    state[p] = 1;
    stack.push(p);
    for (const q of succ[p]!) {
      if (!inRest(q)) continue;
      if (state[q] === 1) {
        ring = stack.slice(stack.indexOf(q));
        return true;
      }
      if (state[q] === 0 && dfs(q)) return true;
    }
    stack.pop();
    state[p] = 2;
    return false;
  };
  for (let p = 0; p < n; p++) if (inRest(p) && state[p] === 0 && dfs(p)) break;
  return ring;
}
