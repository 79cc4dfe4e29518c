/**
 * Feeds a time-ordered message stream to a running simulation as it goes
 * (docs/c104.md#lazy-workload), so a long run (the full Table 3.1 run draws
 * ~20 million messages) never holds its whole workload, nor a stimulus list
 * of that length. At cycle c the feeder issues the messages of
 * [c + FEED_CYCLES, c + 2·FEED_CYCLES): a cycle's sends and receives enter
 * the simulator's stimulus list, in stream order, before anything the run
 * itself schedules for that cycle (held sends are scheduled in the cycle
 * they wait for), which is the order an eager schedule of the whole list
 * gives; test/c104/lazy_workload.test.ts compares the two state vector for
 * state vector.
 */
import type { Simulator } from '../../rtl/kernel/index.ts';

export const FEED_CYCLES = 1000;

/**
 * Issue `stream`'s messages (ascending `t`, none before `start`) through
 * `issue`: those before start + 2·FEED_CYCLES now, the rest by a feeder
 * stimulus every FEED_CYCLES from start + FEED_CYCLES. `eager`: all now
 * (the reference).
 */
export function feedMessages<M extends { readonly t: number }>(sim: Simulator, stream: Iterator<M>, issue: (m: M) => void, start: number, eager = false): void {
  let pending = stream.next();
  const upTo = (end: number): void => {
    for (; !pending.done && pending.value.t < end; pending = stream.next()) issue(pending.value);
  };
  upTo(eager ? Infinity : start + 2 * FEED_CYCLES);
  const feed = (cycle: number): void => {
    if (pending.done) return;
    sim.schedule(cycle, () => {
      upTo(cycle + 2 * FEED_CYCLES);
      feed(cycle + FEED_CYCLES);
    });
  };
  feed(start + FEED_CYCLES);
}
