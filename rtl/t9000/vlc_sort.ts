/**
 * Sort a[0..n) ascending in place without allocating (Array.prototype.sort
 * copies the array into a work array on every call: at 8x8 with node
 * addressing ~133 kB a cycle of garbage from the event recorder's
 * `visited()` calls; docs/kernel.md "Stop 21: allocation and layout").
 * Insertion sort for short lists, heapsort beyond; the entries are distinct
 * VL numbers, so any correct sort gives the same order.
 */
export function sortInPlace(a: number[], n: number): void {
  if (n <= 24) {
    for (let i = 1; i < n; i++) {
      const x = a[i]!;
      let j = i - 1;
      while (j >= 0 && a[j]! > x) {
        a[j + 1] = a[j]!;
        j--;
      }
      a[j + 1] = x;
    }
    return;
  }
  for (let r = (n >> 1) - 1; r >= 0; r--) siftDown(a, r, n);
  for (let end = n - 1; end > 0; end--) {
    const top = a[0]!;
    a[0] = a[end]!;
    a[end] = top;
    siftDown(a, 0, end);
  }
}

/** Heapsort's step: a[root] sinks to its place in the max-heap a[root..end). */
function siftDown(a: number[], root: number, end: number): void {
  const x = a[root]!;
  let i = root;
  for (let c = 2 * i + 1; c < end; c = 2 * i + 1) {
    if (c + 1 < end && a[c + 1]! > a[c]!) c++;
    if (a[c]! <= x) break;
    a[i] = a[c]!;
    i = c;
  }
  a[i] = x;
}
