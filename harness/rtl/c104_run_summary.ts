/**
 * The summary `icemu c104` prints (harness/commands/c104.ts): mean message
 * time, switch transit and per-hop head latency, and with --pattern or
 * --workload the measurement window (harness/batch/stats.ts messageWindow).
 *
 * Two ways to the same figures (docs/c104.md#lazy-workload):
 * - `listFigures`: from the kept event lists (the recorders' `events`, the
 *   scheduled messages), as the command always did; used when the events are
 *   kept anyway (`--events`), and the reference of the tests;
 * - `RunningFigures`: fed event by event as the run goes, keeping integer
 *   histograms (batch/int_histogram.ts) and sums, the switch packets and
 *   window messages still in flight, and per delivered window message its
 *   generation cycle, id and latency (12 bytes: the "means still grow"
 *   warning compares the first and last quarter by generation); so a long
 *   run's memory does not hold its events.
 * test/c104/run_summary.test.ts: both give equal figures on runs, and each
 * sees one event dropped.
 */
import type { TraceEvent } from '../../traces/events/vocabulary.ts';
import { messageWindow, windowThroughput, windowWarnings, type MessageWindow } from '../batch/stats.ts';
import { IntHistogram } from '../batch/int_histogram.ts';
import { mean } from '../compare/stats.ts';

export interface ScheduledMessage {
  readonly id: number;
  readonly cycle: number;
  readonly bytes: number;
}

/** The means of the command's table and their counts. */
export interface C104Means {
  readonly means: { readonly messageTime: number; readonly switchTransit: number; readonly perHopHead: number };
  readonly counts: { readonly messages: number; readonly crossings: number; readonly hops: number };
}

/** What the window needs besides the events (batch/stats.ts MessageWindowInput). */
export interface WindowBounds {
  readonly nodes: number;
  readonly cyclesPerLinkByte: number;
  readonly from: number;
  readonly to: number;
  readonly runEnd: number;
}

/** The figures from the full lists (the command's computation before summary mode). */
export function listFigures(t9000Events: readonly TraceEvent[], switchEvents: readonly TraceEvent[], queued: ReadonlyMap<number, number>): C104Means {
  const times = t9000Events.filter((e) => e.kind === 'message-complete').map((e) => e.t - queued.get(e.msg)!);
  const heads = new Map<number, number[]>();
  const transit: number[] = [];
  const headAt = new Map<string, number>();
  for (const e of switchEvents) {
    if (e.kind === 'head-arrives') {
      heads.set(e.msg, [...(heads.get(e.msg) ?? []), e.t]);
      headAt.set(`${e.msg}@${e.unit}`, e.t);
    } else if (e.kind === 'packet-forwarded') {
      const h = headAt.get(`${e.msg}@${e.unit}`);
      if (h !== undefined) transit.push(e.t - h);
    }
  }
  const hop: number[] = [];
  for (const l of heads.values()) for (let k = 1; k < l.length; k++) hop.push(l[k]! - l[k - 1]!);
  return { means: { messageTime: mean(times), switchTransit: mean(transit), perHopHead: mean(hop) }, counts: { messages: times.length, crossings: transit.length, hops: hop.length } };
}

/** The window from the full lists. */
export function listWindow(scheduled: readonly ScheduledMessage[], events: readonly TraceEvent[], b: WindowBounds): MessageWindow {
  return messageWindow({ ...b, scheduled, events });
}

/** A growing Int32 column. */
class IntColumn {
  data = new Int32Array(1024);
  length = 0;
  push(v: number): void {
    if (this.length === this.data.length) {
      const d = new Int32Array(2 * this.data.length);
      d.set(this.data);
      this.data = d;
    }
    this.data[this.length++] = v;
  }
}

/**
 * The same figures, fed as the run goes. `exits(sw, port)`: the link leaves
 * the switch network (an endpoint behind it), so a packet forwarded there has
 * no later head; its last head time is dropped then.
 */
export class RunningFigures {
  private readonly messageTimes = { n: 0, sum: 0 };
  private readonly transit = { n: 0, sum: 0 };
  private readonly hops = { n: 0, sum: 0 };
  /** Switch packet (its msg) -> cycle of its last head arrival; and `msg@unit` -> head arrival there, until forwarded. */
  private readonly lastHead = new Map<number, number>();
  private readonly headAt = new Map<string, number>();
  /** Window messages: generated (all), scheduled in [from, genEnd) by cycle while the run has not passed it, and totals of the passed cycles. */
  private generated = 0;
  private readonly ahead = new Map<number, { n: number; bytes: number }>();
  private passed = { n: 0, bytes: 0 };
  private completeInRun = 0;
  private readonly latency = new IntHistogram();
  private readonly firstPacket = new IntHistogram();
  private readonly done = { cycle: new IntColumn(), id: new IntColumn(), latency: new IntColumn(), bytes: 0 };

  constructor(
    private readonly from: number,
    private readonly genEnd: number,
    private readonly exits: (sw: number, port: number) => boolean,
  ) {}

  /** A message the workload issued (every one, in issue order). */
  scheduled(m: ScheduledMessage): void {
    this.generated++;
    if (m.cycle < this.from || m.cycle >= this.genEnd) return;
    const a = this.ahead.get(m.cycle) ?? { n: 0, bytes: 0 };
    a.n++;
    a.bytes += m.bytes;
    this.ahead.set(m.cycle, a);
  }

  /** Fold the generation cycles before `cycle` into the totals (call as the run goes; `finish` does the rest). */
  pass(cycle: number): void {
    for (const [c, a] of this.ahead) {
      if (c >= cycle) continue;
      this.passed = { n: this.passed.n + a.n, bytes: this.passed.bytes + a.bytes };
      this.ahead.delete(c);
    }
  }

  /**
   * A T9000 event (the recorder's onEvent) of a message issued at `queued`
   * with `bytes` bytes (its generation cycle and length). A message has one
   * first-packet-delivered and one message-complete event (packet 0 and the
   * message end arrive once), so nothing per message is kept until then.
   */
  t9000(e: TraceEvent, queued: number, bytes: number): void {
    const inWindow = queued >= this.from && queued < this.genEnd;
    if (e.kind === 'message-complete') {
      this.messageTimes.n++;
      this.messageTimes.sum += e.t - queued;
      this.completeInRun++;
      if (!inWindow) return;
      this.latency.add(e.t - queued);
      this.done.cycle.push(queued);
      this.done.id.push(e.msg);
      this.done.latency.push(e.t - queued);
      this.done.bytes += bytes;
    } else if (e.kind === 'first-packet-delivered' && inWindow) this.firstPacket.add(e.t - queued);
  }

  /** A switch event (attachC104Events' sink). */
  switchEvent(e: TraceEvent): void {
    if (e.kind === 'head-arrives') {
      const last = this.lastHead.get(e.msg);
      if (last !== undefined) {
        this.hops.n++;
        this.hops.sum += e.t - last;
      }
      this.lastHead.set(e.msg, e.t);
      this.headAt.set(`${e.msg}@${e.unit}`, e.t);
    } else if (e.kind === 'packet-forwarded') {
      const key = `${e.msg}@${e.unit}`;
      const h = this.headAt.get(key);
      if (h !== undefined) {
        this.transit.n++;
        this.transit.sum += e.t - h;
        this.headAt.delete(key);
      }
      if (this.exits(e.node, e.port!)) this.lastHead.delete(e.msg);
    }
  }

  figures(): C104Means {
    const m = (s: { n: number; sum: number }): number => (s.n ? s.sum / s.n : NaN);
    return { means: { messageTime: m(this.messageTimes), switchTransit: m(this.transit), perHopHead: m(this.hops) }, counts: { messages: this.messageTimes.n, crossings: this.transit.n, hops: this.hops.n } };
  }

  /** The window (batch/stats.ts messageWindow of the same run). */
  window(b: WindowBounds): MessageWindow {
    let inWindow = this.passed.n;
    let offeredBytes = this.passed.bytes;
    for (const [c, a] of this.ahead) {
      if (c < b.to) {
        inWindow += a.n;
        offeredBytes += a.bytes;
      }
    }
    const done = this.done.cycle.length;
    const throughput = windowThroughput(offeredBytes, this.done.bytes, b);
    const q = Math.floor(done / 4);
    let quarters: [number, number] | null = null;
    if (q >= 10) {
      // the done messages by generation cycle, ties in issue (id) order: messageWindow's stable sort
      const { cycle, id, latency } = this.done;
      const order = Array.from({ length: done }, (_, k) => k).sort((x, y) => cycle.data[x]! - cycle.data[y]! || id.data[x]! - id.data[y]!);
      const avg = (ks: number[]): number => ks.reduce((s, k) => s + latency.data[k]!, 0) / ks.length;
      quarters = [avg(order.slice(0, q)), avg(order.slice(-q))];
    }
    const warnings = windowWarnings(inWindow, done, b.runEnd, throughput, quarters);
    return {
      window: { from: b.from, to: b.to, runEnd: b.runEnd },
      messages: { generated: this.generated, inWindow, deliveredInWindow: done, completeInRun: this.completeInRun },
      latency: this.latency.stats(),
      firstPacket: this.firstPacket.stats(),
      throughput,
      warnings,
    };
  }
}
