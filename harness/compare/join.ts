/**
 * Join two event traces per message (by message id) and report how far side
 * B is from side A, metric by metric, in one common time unit with an
 * explicit mapping (mapping.ts). A is the reference (the RTL in every
 * preset), B the model; a deviation is B − A, a relative deviation (B − A)/A.
 *
 * Metrics (times from the message's generation, §10.3 "from when the message
 * is queued at the source"):
 *  message level (one sample per message present on both sides)
 *   queued      message-queued − generation (instruction accepted)
 *   first       first-packet-delivered − generation (§10.3 "first")
 *   last        message-complete − generation (§10.3 "last")
 *   last-first  last − first (§10.3: indicates bandwidth)
 *   first-zl    the side's own zero-load closed-form first (given per message by the
 *               caller): its deviation is the systematic, load-free part of 'first'
 *   last-zl     the same for 'last'
 *   first-wait  first − the side's own zero-load first (contention it modelled);
 *               deviation(first) = deviation(first-zl) + deviation(first-wait)
 *   last-wait   last − the side's own zero-load last
 *  packet level (one sample per (message, packet) present on both sides)
 *   inject      packet-injected − generation (the packet's first bit on the first link)
 *   fabric      head-arrives at the node input port − packet-injected
 *  hop level (one sample per (message, packet, hop))
 *   per-hop     difference of successive head-arrives stamps of a packet
 *               (PBU 1 … PBU d, then the node input port): d hops
 *  run level (one sample per side)
 *   throughput        data bytes of completed messages / makespan (last message-complete)
 *   link-utilisation  total link busy time / (directed links × time of the last
 *                     generation): the measured counterpart of seed 002 §5.7's
 *                     "ideal link utilization" (same denominator, A19 n·2^n links)
 *
 * A message complete on one side only is "missing" on the other (it counts
 * against the 'missing' tolerance, tolerance.ts); packet and hop samples
 * present on one side only are counted (onlyA / onlyB) but are not errors:
 * the two sides may packetise differently.
 */
import type { TimeUnit } from '../../traces/events/vocabulary.ts';
import { idealLinkUtilisation } from '../models/buzzard.ts';
import { hops, type Workload } from '../workloads/types.ts';
import { digest, type DigestedSide, type MessageTimes, type SideTrace } from './extract.ts';
import { checkMapping, convertTime, DEFAULT_MAPPING, type TimeMapping } from './mapping.ts';
import { summarize, type Summary } from './stats.ts';

export const METRICS = {
  queued: { level: 'message', what: 'message-queued − generation' },
  inject: { level: 'packet', what: 'packet-injected − generation (every packet)' },
  fabric: { level: 'packet', what: 'head-arrives at the node input port − packet-injected' },
  'per-hop': { level: 'hop', what: 'successive head-arrives of a packet (PBUs, then the node input port)' },
  first: { level: 'message', what: 'first-packet-delivered − generation (§10.3 "first")' },
  last: { level: 'message', what: 'message-complete − generation (§10.3 "last")' },
  'last-first': { level: 'message', what: 'last − first (§10.3 bandwidth indicator)' },
  'first-zl': { level: 'message', what: "the side's own zero-load closed-form first (systematic part)" },
  'last-zl': { level: 'message', what: "the side's own zero-load closed-form last (systematic part)" },
  'first-wait': { level: 'message', what: "first − the side's own zero-load first (modelled contention)" },
  'last-wait': { level: 'message', what: "last − the side's own zero-load last (modelled contention)" },
  throughput: { level: 'run', what: 'data bytes of completed messages / makespan, bytes per unit time' },
  'link-utilisation': { level: 'run', what: 'link busy time / (n·2^n links × last generation time) (§5.7 denominator)' },
} as const;
export type MetricName = keyof typeof METRICS;
export type MetricLevel = (typeof METRICS)[MetricName]['level'];
export const METRIC_NAMES = Object.keys(METRICS) as MetricName[];

/** Where a sample comes from. */
export interface SampleKey {
  readonly msg?: number;
  readonly packet?: number;
  readonly hop?: number;
}

export function describeKey(k: SampleKey): string {
  if (k.msg === undefined) return 'whole run';
  return `message ${k.msg}${k.packet !== undefined ? ` packet ${k.packet}` : ''}${k.hop !== undefined ? ` hop ${k.hop + 1}` : ''}`;
}

export interface WorstSample {
  readonly key: SampleKey;
  readonly where: string;
  readonly a: number;
  readonly b: number;
  /** b − a */
  readonly deviation: number;
}

export interface MetricComparison {
  readonly metric: MetricName;
  readonly level: MetricLevel;
  readonly what: string;
  /** Unit of a, b and abs: the comparison unit, or 'bytes/<unit>' / 'fraction' for the run metrics. */
  readonly unit: string;
  /** Samples present on both sides. */
  readonly joined: number;
  readonly onlyA: number;
  readonly onlyB: number;
  /** Values of the joined samples. */
  readonly a: Summary;
  readonly b: Summary;
  /** b − a. */
  readonly abs: Summary;
  /** (b − a) / a over samples with a ≠ 0. */
  readonly rel: Summary;
  /** The sample with the largest |b − a| (first such in message order). */
  readonly worst: WorstSample | null;
}

export interface SideSummary {
  readonly label: string;
  /** Trace unit of this side. */
  readonly unit: TimeUnit;
  readonly messagesSeen: number;
  readonly messagesComplete: number;
  /** Last message-complete, comparison unit (NaN if none). */
  readonly makespan: number;
  /** Data bytes of completed messages (needs the workload). */
  readonly bytesDelivered: number | null;
  /** Packets injected (all messages). */
  readonly packets: number;
  /** Mean per-hop head latency over every packet's hops, comparison unit. */
  readonly meanPerHopAllPackets: number;
  /** Link busy time, comparison unit, if the side gave it. */
  readonly linkBusy: number | null;
  readonly problems: readonly string[];
  readonly info?: Readonly<Record<string, unknown>>;
}

export interface MessageRow {
  readonly msg: number;
  readonly src?: number;
  readonly dst?: number;
  readonly bytes?: number;
  readonly hops?: number;
  /** Comparison unit; null when absent on that side. */
  readonly firstA: number | null;
  readonly firstB: number | null;
  readonly lastA: number | null;
  readonly lastB: number | null;
}

export interface Comparison {
  readonly unit: TimeUnit;
  readonly mapping: TimeMapping;
  readonly a: SideSummary;
  readonly b: SideSummary;
  readonly metrics: MetricComparison[];
  /** Messages complete (message-complete seen) on one side only. */
  readonly missing: { readonly onlyA: number[]; readonly onlyB: number[] };
  /** Seed 002 §5.7 ideal link utilisation of the workload (identical for both sides), when a workload was given. */
  readonly idealLinkUtilisation: number | null;
  readonly rows: MessageRow[];
}

export interface CompareOptions {
  /** Common unit of the comparison (default 'cycles'). */
  readonly unit?: TimeUnit;
  readonly mapping?: TimeMapping;
  /** Metrics to report (default: every metric both sides can provide). */
  readonly metrics?: readonly MetricName[];
  /** The workload both sides ran: message bytes and hops, §5.7 utilisation, throughput. */
  readonly workload?: Workload;
  /** Keep per-message rows (default true). */
  readonly rows?: boolean;
}

type Samples = Map<string, { key: SampleKey; v: number }>;

function put(s: Samples, key: SampleKey, v: number | undefined): void {
  if (v === undefined || !Number.isFinite(v)) return;
  s.set(`${key.msg ?? ''}/${key.packet ?? ''}/${key.hop ?? ''}`, { key, v });
}

function sortedMessages(d: DigestedSide): MessageTimes[] {
  return [...d.messages.values()].sort((x, y) => x.id - y.id);
}

/** Samples of one metric on one side, in the comparison unit (f converts from the side unit). */
function samplesOf(metric: MetricName, d: DigestedSide, f: number): Samples {
  const s: Samples = new Map();
  const dt = (x: number | undefined, y: number | undefined): number | undefined => (x === undefined || y === undefined ? undefined : (x - y) * f);
  for (const m of sortedMessages(d)) {
    const msg = m.id;
    switch (metric) {
      case 'queued':
        put(s, { msg }, dt(m.queued, m.gen));
        break;
      case 'first':
        put(s, { msg }, dt(m.first, m.gen));
        break;
      case 'last':
        put(s, { msg }, dt(m.last, m.gen));
        break;
      case 'last-first':
        put(s, { msg }, dt(m.last, m.first));
        break;
      case 'first-zl':
      case 'last-zl': {
        const z = d.trace.zeroLoad?.get(msg);
        const which = metric === 'first-zl' ? 'first' : 'last';
        if (!z || m[which] === undefined) break; // the same messages as first / last
        put(s, { msg }, z[which] * f);
        break;
      }
      case 'first-wait':
      case 'last-wait': {
        const z = d.trace.zeroLoad?.get(msg);
        if (!z) break;
        const which = metric === 'first-wait' ? 'first' : 'last';
        const t = m[which];
        if (t === undefined || m.gen === undefined) break;
        put(s, { msg }, (t - m.gen - z[which]) * f);
        break;
      }
      case 'inject':
        for (const [k, p] of [...m.packets].sort((x, y) => x[0] - y[0])) put(s, { msg, packet: k }, dt(p.injected, m.gen));
        break;
      case 'fabric':
        for (const [k, p] of [...m.packets].sort((x, y) => x[0] - y[0])) put(s, { msg, packet: k }, dt(p.nip, p.injected));
        break;
      case 'per-hop':
        for (const [k, p] of [...m.packets].sort((x, y) => x[0] - y[0])) {
          if (p.nip === undefined) continue; // path not finished (run cut short)
          for (let h = 0; h + 1 < p.heads.length; h++) put(s, { msg, packet: k, hop: h }, (p.heads[h + 1]! - p.heads[h]!) * f);
        }
        break;
      default:
        break;
    }
  }
  return s;
}

function compareSamples(metric: MetricName, unit: string, A: Samples, B: Samples): MetricComparison {
  const av: number[] = [];
  const bv: number[] = [];
  const dv: number[] = [];
  const rv: number[] = [];
  let worst: WorstSample | null = null;
  let onlyA = 0;
  for (const [k, x] of A) {
    const y = B.get(k);
    if (!y) {
      onlyA++;
      continue;
    }
    const d = y.v - x.v;
    av.push(x.v);
    bv.push(y.v);
    dv.push(d);
    if (x.v !== 0) rv.push(d / x.v);
    if (!worst || Math.abs(d) > Math.abs(worst.deviation)) worst = { key: x.key, where: describeKey(x.key), a: x.v, b: y.v, deviation: d };
  }
  let onlyB = 0;
  for (const k of B.keys()) if (!A.has(k)) onlyB++;
  return {
    metric,
    level: METRICS[metric].level,
    what: METRICS[metric].what,
    unit,
    joined: dv.length,
    onlyA,
    onlyB,
    a: summarize(av),
    b: summarize(bv),
    abs: summarize(dv),
    rel: summarize(rv),
    worst,
  };
}

/** Join two traces and compute every requested metric's deviations. */
export function compareTraces(A: SideTrace, B: SideTrace, opts: CompareOptions = {}): Comparison {
  const unit = opts.unit ?? 'cycles';
  const mapping = checkMapping(opts.mapping ?? DEFAULT_MAPPING);
  const w = opts.workload;
  const da = digest(A);
  const db = digest(B);
  const fa = convertTime(1, A.unit, unit, mapping);
  const fb = convertTime(1, B.unit, unit, mapping);
  const wanted = opts.metrics ?? METRIC_NAMES.filter((m) => {
    if (m === 'first-wait' || m === 'last-wait' || m === 'first-zl' || m === 'last-zl') return Boolean(A.zeroLoad && B.zeroLoad);
    if (m === 'throughput') return Boolean(w);
    if (m === 'link-utilisation') return Boolean(w && A.linkBusy !== undefined && B.linkBusy !== undefined);
    return true;
  });
  for (const m of wanted) if (!(m in METRICS)) throw new RangeError(`compare.metrics: '${String(m)}' is not one of ${METRIC_NAMES.join(', ')}`);

  const sideSummary = (d: DigestedSide, f: number): SideSummary => {
    let complete = 0;
    let makespan = -Infinity;
    let bytes = 0;
    let packets = 0;
    let hopSum = 0;
    let hopCount = 0;
    for (const m of d.messages.values()) {
      if (m.last !== undefined) {
        complete++;
        if (m.last > makespan) makespan = m.last;
        if (w) bytes += w.messages[m.id]?.bytes ?? 0;
      }
      for (const p of m.packets.values()) {
        if (p.injected !== undefined) packets++;
        if (p.nip === undefined) continue;
        for (let h = 0; h + 1 < p.heads.length; h++) {
          hopSum += p.heads[h + 1]! - p.heads[h]!;
          hopCount++;
        }
      }
    }
    return {
      label: d.trace.label,
      unit: d.trace.unit,
      messagesSeen: d.messages.size,
      messagesComplete: complete,
      makespan: complete ? makespan * f : NaN,
      bytesDelivered: w ? bytes : null,
      packets,
      meanPerHopAllPackets: hopCount ? (hopSum / hopCount) * f : NaN,
      linkBusy: d.trace.linkBusy === undefined ? null : d.trace.linkBusy * f,
      problems: d.problems,
      info: d.trace.info,
    };
  };
  const sa = sideSummary(da, fa);
  const sb = sideSummary(db, fb);

  const lastGen = w && w.messages.length ? convertTime(w.messages[w.messages.length - 1]!.t, w.unit, unit, mapping) : NaN;
  const links = w ? w.cubeDegree * 2 ** w.cubeDegree : NaN;
  const metrics: MetricComparison[] = [];
  for (const m of wanted) {
    if (m === 'throughput') {
      const A1: Samples = new Map();
      const B1: Samples = new Map();
      put(A1, {}, sa.bytesDelivered !== null && sa.makespan > 0 ? sa.bytesDelivered / sa.makespan : undefined);
      put(B1, {}, sb.bytesDelivered !== null && sb.makespan > 0 ? sb.bytesDelivered / sb.makespan : undefined);
      metrics.push(compareSamples(m, `bytes/${unit.replace(/s$/, '')}`, A1, B1));
    } else if (m === 'link-utilisation') {
      const A1: Samples = new Map();
      const B1: Samples = new Map();
      put(A1, {}, sa.linkBusy !== null && lastGen > 0 ? sa.linkBusy / (links * lastGen) : undefined);
      put(B1, {}, sb.linkBusy !== null && lastGen > 0 ? sb.linkBusy / (links * lastGen) : undefined);
      metrics.push(compareSamples(m, 'fraction', A1, B1));
    } else {
      metrics.push(compareSamples(m, unit, samplesOf(m, da, fa), samplesOf(m, db, fb)));
    }
  }

  const onlyA: number[] = [];
  const onlyB: number[] = [];
  const ids = new Set([...da.messages.keys(), ...db.messages.keys()]);
  for (const id of [...ids].sort((x, y) => x - y)) {
    const ca = da.messages.get(id)?.last !== undefined;
    const cb = db.messages.get(id)?.last !== undefined;
    if (ca && !cb) onlyA.push(id);
    if (cb && !ca) onlyB.push(id);
  }

  const rows: MessageRow[] = [];
  if (opts.rows ?? true) {
    for (const id of [...ids].sort((x, y) => x - y)) {
      const ma = da.messages.get(id);
      const mb = db.messages.get(id);
      const rel = (m: MessageTimes | undefined, t: number | undefined, f: number): number | null => (m && t !== undefined && m.gen !== undefined ? (t - m.gen) * f : null);
      const wm = w?.messages[id];
      rows.push({
        msg: id,
        ...(wm ? { src: wm.src, dst: wm.dst, bytes: wm.bytes, hops: hops(wm.src, wm.dst) } : {}),
        firstA: rel(ma, ma?.first, fa),
        firstB: rel(mb, mb?.first, fb),
        lastA: rel(ma, ma?.last, fa),
        lastB: rel(mb, mb?.last, fb),
      });
    }
  }

  let ideal: number | null = null;
  if (w && w.messages.length && w.messages[w.messages.length - 1]!.t > 0) {
    const lastGenTicks = convertTime(w.messages[w.messages.length - 1]!.t, w.unit, 'ticks', mapping);
    ideal = idealLinkUtilisation({ n: w.cubeDegree, lastGenerationTicks: lastGenTicks, messages: w.messages.map((m) => ({ lengthBytes: m.bytes, hops: hops(m.src, m.dst) })) });
  }
  return { unit, mapping, a: sa, b: sb, metrics, missing: { onlyA, onlyB }, idealLinkUtilisation: ideal, rows };
}
