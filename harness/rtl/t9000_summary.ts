/**
 * Running statistics of a T9000 event recorder (t9000_events.ts), so a long
 * run need not keep its events (docs/c104.md#lazy-workload): events by kind,
 * message times (message-queued to message-complete, in cycles), first-packet
 * times (queued to first-packet-delivered), deliveries and byte-exact
 * deliveries. The recorder feeds every event it stamps (kept or not);
 * `summariseEvents` computes the same from a full event list, the reference
 * the tests compare it with.
 */
import type { TraceEvent } from '../../traces/events/vocabulary.ts';

/** Count, sum, sum of squares, min and max of a series of cycle counts. */
export interface SeriesStats {
  n: number;
  sum: number;
  sumSq: number;
  min: number;
  max: number;
}

const emptySeries = (): SeriesStats => ({ n: 0, sum: 0, sumSq: 0, min: Infinity, max: -Infinity });

function addTo(s: SeriesStats, x: number): void {
  s.n++;
  s.sum += x;
  s.sumSq += x * x;
  if (x < s.min) s.min = x;
  if (x > s.max) s.max = x;
}

export const seriesMean = (s: SeriesStats): number => (s.n ? s.sum / s.n : NaN);

export class T9000Summary {
  /** Events by kind, message-queued excepted (the recorder stamps those only when it keeps events). */
  readonly kinds: Record<string, number> = {};
  readonly messageTime = emptySeries();
  readonly firstPacketTime = emptySeries();
  delivered = 0;
  byteExact = 0;

  /** One stamped event; `queued` = the cycle its message was issued. */
  add(e: TraceEvent, queued: number): void {
    this.kinds[e.kind] = (this.kinds[e.kind] ?? 0) + 1;
    if (e.kind === 'message-complete') addTo(this.messageTime, e.t - queued);
    else if (e.kind === 'first-packet-delivered') addTo(this.firstPacketTime, e.t - queued);
  }

  /** One delivery: were its bytes the ones sent? */
  delivery(exact: boolean): void {
    this.delivered++;
    if (exact) this.byteExact++;
  }
}

/** The same statistics from a full event list (message-queued events give the queued cycles) and the deliveries' byte checks. */
export function summariseEvents(events: readonly TraceEvent[], exact: readonly boolean[]): T9000Summary {
  const s = new T9000Summary();
  const queued = new Map<number, number>();
  for (const e of events) if (e.kind === 'message-queued') queued.set(e.msg, e.t);
  for (const e of events) if (e.kind !== 'message-queued') s.add(e, queued.get(e.msg) ?? NaN);
  for (const x of exact) s.delivery(x);
  return s;
}
