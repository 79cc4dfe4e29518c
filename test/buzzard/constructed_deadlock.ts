/**
 * The constructed deadlock on a 2-cube with small CAMs and contrary refusal
 * off (explained in deadlock.test.ts): six 600-byte messages
 * [source, destination, issue cycle] whose streams close the cycle
 * node0.pbu1 → node2.pbu2 → node3.pbu1 → node1.pbu2. Shared by
 * deadlock.test.ts and the view tests (test/view/traces.ts).
 */
export const CONSTRUCTED_SENDS: readonly (readonly [number, number, number])[] = [
  [0, 1, 0],
  [3, 2, 0],
  [0, 3, 5],
  [3, 0, 5],
  [1, 2, 5],
  [2, 1, 5],
];
export const CONSTRUCTED_BYTES = 600;
