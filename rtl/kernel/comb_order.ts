/**
 * The comb processes' static order (elaboration step 4): Kahn's algorithm
 * with a FIFO queue, each process after the processes that drive what it
 * reads, so the order runs level by level across the whole design (level 0
 * of every node of a mesh, then level 1, ...). Tried and not kept (docs/kernel.md
 * "Stop 21: cost at scale"): the first declared of the ready processes
 * first (a node's comb processes together) was 0.93-0.94x at 32x32; level,
 * then unit class, then declaration was the same speed as this order.
 */

/** The order (declaration indices), or undefined if some processes are left in a cycle (indegree > 0). */
export function combOrder(n: number, succ: number[][], indeg: Int32Array): number[] | undefined {
  const order: number[] = [];
  for (let p = 0; p < n; p++) if (indeg[p] === 0) order.push(p);
  for (let h = 0; h < order.length; h++) {
    for (const p of succ[order[h]!]!) if (--indeg[p]! === 0) order.push(p);
  }
  return order.length === n ? order : undefined;
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
