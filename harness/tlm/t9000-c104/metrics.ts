/**
 * Measurements of the T9000/C104 TLM and the thesis's statistical method
 * (seed 004 §3.6, §5.4, §5.6.1, Def. 5.3; docs/thesis-model.md#statistics
 * and #metrics).
 *
 * Counters are cumulative; a checkpoint every `checkpointNs` stores all of
 * them. After (or during) the run the start-up transient is cut with MSER-5
 * (the truncation point minimising the standard error of the remaining
 * mean of the primary response, at most half the run) and the rest is split
 * into batches; the 95% confidence interval of the primary response (data
 * packets delivered per CPU per ms) comes from the batch means with
 * Student's t. Every other metric is the mean over the same window.
 */

/** Cumulative counters (indices into the counter vector). */
export const C = {
  dataDelivered: 0,
  ackDelivered: 1,
  dataTransport: 2, // Σ (delivered − created)
  dataQueue: 3, // Σ (first T9000 output − created)
  dataLifetime: 4, // Σ (delivered − first T9000 output)
  dataRouted: 5, // Σ (delivered − first internal output), Def. 5.3
  dataHops: 6,
  ackTransport: 7,
  ackQueue: 8,
  ackLifetime: 9,
  ackRouted: 10,
  sendsAttempted: 11,
  sendsDropped: 12, // saturation failures, §5.3.2
  cpuBusy: 13,
  iterations: 14,
  internalBusy: 15, // filled at checkpoints from the transport
  messagesComplete: 16,
  firstHopWait: 17, // Σ over packets of the wait for the first internal link at the source C104 (Def. 5.2 throttling)
  firstHopPackets: 18,
  internalConnected: 19, // filled at checkpoints: internal links from crossbar connection to tail
} as const;
export const COUNTERS = 20;

export interface Window {
  /** Simulated ns at the start and end of the measurement window. */
  readonly from: number;
  readonly to: number;
  /** Checkpoints cut as start-up transient. */
  readonly truncated: number;
  readonly batches: number;
}

export interface Summary {
  readonly window: Window;
  /** Primary response: data packets delivered per CPU per ms, with its 95% CI half-width (absolute). */
  readonly throughput: number;
  readonly ciHalfWidth: number;
  readonly converged: boolean;
  readonly cpuUtilisation: number;
  readonly networkUtilisation: number;
  /** The same with a link counted busy from its crossbar connection (waits for downstream room included) to the tail. */
  readonly networkConnectedUtilisation: number;
  readonly meanHops: number | null;
  readonly data: PacketTimes;
  readonly ack: PacketTimes;
  /** Def. 5.3 routed lifetime over data and acks together (Table 6.2, spec §10). */
  readonly routedAll: number | null;
  /** Throttling (Def. 5.2): mean wait, µs, of data and acks at the source C104 for their first internal link. */
  readonly firstHopWait: number | null;
  readonly saturationFailures: number;
  readonly sendsAttempted: number;
  readonly iterationsPerCpuPerMs: number;
}

export interface PacketTimes {
  readonly count: number;
  /** Means in µs: creation → delivery; T9000 queue; first T9000 output → delivery; first internal output → delivery. */
  readonly transport: number | null;
  readonly queue: number | null;
  readonly lifetime: number | null;
  readonly routed: number | null;
}

/** Two-sided 97.5% Student t quantiles for 1..30 degrees of freedom; 1.96 beyond. */
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];
export function t975(df: number): number {
  return df < 1 ? Infinity : df <= 30 ? T975[df - 1]! : 1.96;
}

/** MSER-5 truncation: number of leading samples to drop (a multiple of 5, at most half). */
export function mser5(xs: readonly number[]): number {
  const z: number[] = [];
  for (let i = 0; i + 5 <= xs.length; i += 5) z.push((xs[i]! + xs[i + 1]! + xs[i + 2]! + xs[i + 3]! + xs[i + 4]!) / 5);
  const n = z.length;
  if (n < 4) return 0;
  let best = 0;
  let bestVal = Infinity;
  for (let d = 0; d <= n >> 1; d++) {
    let s = 0;
    for (let j = d; j < n; j++) s += z[j]!;
    const m = s / (n - d);
    let v = 0;
    for (let j = d; j < n; j++) v += (z[j]! - m) ** 2;
    const val = v / (n - d) ** 2;
    if (val < bestVal) {
      bestVal = val;
      best = d;
    }
  }
  return best * 5;
}

/** Mean and 95% half-width of the means of `batches` consecutive equal groups of `xs`. */
export function batchMeans(xs: readonly number[], batches: number): { mean: number; half: number; batches: number } {
  const b = Math.min(batches, xs.length);
  if (b < 2) return { mean: xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : NaN, half: Infinity, batches: b };
  const size = Math.floor(xs.length / b);
  const start = xs.length - size * b; // drop the oldest remainder
  const means: number[] = [];
  for (let i = 0; i < b; i++) {
    let s = 0;
    for (let j = 0; j < size; j++) s += xs[start + i * size + j]!;
    means.push(s / size);
  }
  const mean = means.reduce((a, x) => a + x, 0) / b;
  const v = means.reduce((a, x) => a + (x - mean) ** 2, 0) / (b - 1);
  return { mean, half: t975(b - 1) * Math.sqrt(v / b), batches: b };
}

export class Metrics {
  readonly c = new Float64Array(COUNTERS);
  /** Per source node: data packets delivered (load maps, Figs 5.6–5.9). */
  readonly deliveredBySource: Float64Array;
  /** Per node: acks it has created and acks it has delivered (the difference is queued or in flight; Fig. 5.6). */
  readonly acksCreated: Float64Array;
  readonly acksDelivered: Float64Array;
  readonly times: number[] = [0];
  readonly snaps: Float64Array[] = [new Float64Array(COUNTERS)];

  constructor(
    readonly cpus: number,
    nodes: number,
    readonly internalLinks: () => { busyNs: number; activeLinks: number; links: number; connectedNs?: number },
    /** Batches for the confidence interval (§3.6 batch means). */
    readonly batches = 20,
    /** Relative 95% CI half-width that stops the run (§5.4: ±1%). */
    readonly precision = 0.01,
    /** Cut the start-up transient (MSER-5); false measures from t = 0 (zero-load checks). */
    readonly truncate = true,
  ) {
    this.deliveredBySource = new Float64Array(nodes);
    this.acksCreated = new Float64Array(nodes);
    this.acksDelivered = new Float64Array(nodes);
  }

  checkpoint(now: number): void {
    const ib = this.internalLinks();
    this.c[C.internalBusy] = ib.busyNs;
    this.c[C.internalConnected] = ib.connectedNs ?? ib.busyNs;
    this.times.push(now);
    this.snaps.push(Float64Array.from(this.c));
  }

  /** Primary response per checkpoint interval: data packets delivered per CPU per ms. */
  rates(): number[] {
    const out: number[] = [];
    for (let i = 1; i < this.times.length; i++) {
      const dt = this.times[i]! - this.times[i - 1]!;
      out.push(((this.snaps[i]![C.dataDelivered]! - this.snaps[i - 1]![C.dataDelivered]!) * 1e6) / (this.cpus * dt));
    }
    return out;
  }

  /** The CI check of the stopping rule. */
  converged(): boolean {
    const r = this.rates();
    if (r.length < 2 * this.batches) return false;
    const cut = Math.max(1, mser5(r));
    const bm = batchMeans(r.slice(cut), this.batches);
    return bm.mean > 0 && bm.half <= this.precision * bm.mean;
  }

  summary(): Summary {
    const r = this.rates();
    const cut = this.truncate ? Math.min(r.length - 1, Math.max(1, mser5(r))) : 0;
    const bm = batchMeans(r.slice(cut), this.batches);
    const a = this.snaps[cut]!;
    const b = this.snaps[this.snaps.length - 1]!;
    const from = this.times[cut]!;
    const to = this.times[this.times.length - 1]!;
    const d = (k: number): number => b[k]! - a[k]!;
    const span = to - from;
    const per = (sum: number, n: number): number | null => (n > 0 ? sum / n / 1000 : null);
    const nd = d(C.dataDelivered);
    const na = d(C.ackDelivered);
    const ib = this.internalLinks();
    const links = ib.activeLinks > 0 ? ib.activeLinks : ib.links;
    return {
      window: { from, to, truncated: cut, batches: bm.batches },
      throughput: span > 0 ? (nd * 1e6) / (this.cpus * span) : 0,
      ciHalfWidth: bm.half,
      converged: bm.mean > 0 && bm.half <= this.precision * bm.mean,
      cpuUtilisation: span > 0 ? d(C.cpuBusy) / (this.cpus * span) : 0,
      networkUtilisation: span > 0 && links > 0 ? d(C.internalBusy) / (links * span) : 0,
      networkConnectedUtilisation: span > 0 && links > 0 ? d(C.internalConnected) / (links * span) : 0,
      meanHops: nd > 0 ? d(C.dataHops) / nd : null,
      data: { count: nd, transport: per(d(C.dataTransport), nd), queue: per(d(C.dataQueue), nd), lifetime: per(d(C.dataLifetime), nd), routed: per(d(C.dataRouted), nd) },
      ack: { count: na, transport: per(d(C.ackTransport), na), queue: per(d(C.ackQueue), na), lifetime: per(d(C.ackLifetime), na), routed: per(d(C.ackRouted), na) },
      routedAll: per(d(C.dataRouted) + d(C.ackRouted), nd + na),
      firstHopWait: per(d(C.firstHopWait), d(C.firstHopPackets)),
      saturationFailures: d(C.sendsDropped),
      sendsAttempted: d(C.sendsAttempted),
      iterationsPerCpuPerMs: span > 0 ? (d(C.iterations) * 1e6) / (this.cpus * span) : 0,
    };
  }
}
