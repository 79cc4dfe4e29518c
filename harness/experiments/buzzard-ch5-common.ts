/**
 * Shared parts of the chapter-5 experiments (buzzard-ch5.ts): the point and
 * result types, the verdict rules (±10 percentage points, ranges, sets), the
 * per-point stability rule and the report helpers used by the two
 * assemblers (buzzard-ch5-times.ts, buzzard-ch5-tradeoff.ts).
 */
import type { Delivery, Transport } from '../tlm/config.ts';
import type { MessageTimes, TlmStats } from '../tlm/types.ts';
import type { MarkerShape } from './svg.ts';
import type { SeedCheck } from './types.ts';

export type Ch5Figure = '5.12' | '5.13' | '5.14' | '5.15';

/** `--model`: the seed-level TLM alone, or the RTL beside both TLM modes. */
export type Ch5Model = 'tlm' | 'rtl';

export function parseCh5Model(text: string | undefined): Ch5Model {
  if (text === undefined || text === 'tlm' || text === 'rtl') return text ?? 'tlm';
  throw new RangeError(`--model must be tlm or rtl (got '${text}')`);
}

/** Absolute tolerance on a ratio for "holds" (10 percentage points). */
export const TOLERANCE = 0.1;

export interface Ch5Params {
  readonly figure: Ch5Figure;
  readonly meanBytes: 512 | 2048;
  /** Cube degree (§10.3: 6). */
  readonly cubeDegree: number;
  /** The nine mean inter-generation times of the set, heaviest first (§10.3). */
  readonly rates: readonly number[];
  readonly messagesPerNode: number;
  readonly seed: number;
  /** Delivery model per scheme (parseCh5Delivery; default CH5_DELIVERY_DEFAULT). */
  readonly delivery: Ch5Delivery;
  readonly quick: boolean;
  /** Which model runs the points: 'tlm' (the seed-level TLM, default) or 'rtl' (RTL beside the calibrated and the seed-level TLM, buzzard-ch5-rtl.ts). */
  readonly model: Ch5Model;
  /** RTL mode: a directory of earlier RTL-mode runs whose RTL results are reused (--rtl-reuse, buzzard-ch5-rtl-reuse.ts); absent: none. */
  readonly rtlReuse?: string;
  /** Figs 5.14/5.15: loads of the buffer and packet-size sweeps (heaviest, middle, lightest). */
  readonly sweepRates: readonly number[];
  readonly bufferSweep: readonly number[];
  readonly packetSweep: readonly number[];
}

export type Ch5Role = 'main' | 'cross' | 'buffers' | 'packets';

export interface Ch5Pt {
  readonly role: Ch5Role;
  readonly meanBytes: 512 | 2048;
  readonly meanGapTicks: number;
  readonly transport: Transport;
  readonly packetBytes: number;
  readonly buffersPerPbu: number;
}

export interface Ch5Res {
  readonly idealU: number | null;
  readonly measuredU: number;
  /** Offered load of a node input port: Σ over messages of (bytes + headers)·ticksPerByte + arbitration per packet, / (2^n · last generation). */
  readonly nipLoad: number | null;
  readonly meanFirst: number | null;
  readonly meanLast: number | null;
  readonly meanLastMinusFirst: number | null;
  readonly maxFirst: number | null;
  readonly maxLast: number | null;
  readonly messages: number;
  readonly delivered: number;
  readonly contraryMessages: number;
  readonly orderViolations: number;
  readonly deadlock: boolean;
  readonly lastGeneration: number;
  readonly makespan: number;
  /** The same point run at half the length (⌈messagesPerNode/2⌉ messages per node; same seed, so node 0's stream is a prefix, the other nodes' are fresh draws of the same laws). */
  readonly half: { readonly messagesPerNode: number; readonly meanFirst: number | null; readonly meanLast: number | null };
  /** mean(full run) / mean(half run) − 1, for first and last: how much the mean still grows when the run is doubled. */
  readonly growth: { readonly first: number | null; readonly last: number | null };
  /** STABILITY_RULE: false = "unstable (past saturation)". */
  readonly stable: boolean;
  /** 95% half-widths of mean first and mean last by batch means (BATCH_MEANS_RULE), in the result's unit; null with too few messages. Absent in results stored before it existed. */
  readonly ci95?: { readonly first: number | null; readonly last: number | null };
  /** Where messages waited (TLM resource report, harness/tlm/types.ts TlmResources), per dimension 1..n. */
  readonly resources: {
    readonly sourceWaitBySlot: readonly (number | null)[];
    readonly meanSourceWait: number;
    readonly meanInNetworkFirst: number;
    readonly pbuFullFraction: readonly number[];
    readonly linkBusyFraction: readonly number[];
  };
}

/**
 * Stability of a point: run at two lengths (full and half the messages per
 * node, same seed and laws); a mean that still grows by
 * more than STABILITY_GROWTH when the run is doubled is a queue that has not
 * settled — the point is past saturation and its mean depends on the run
 * length, so no ratio to it is comparable with the seed's.
 */
export const STABILITY_GROWTH = 0.2;
export const STABILITY_RULE = `unstable (past saturation) if mean first or mean last grows by more than ${STABILITY_GROWTH * 100}% from the half-length run to the full run`;

/** Batches of the batch-means interval, and Student's t(0.975) for their BATCHES − 1 degrees of freedom. */
export const BATCHES = 10;
const T975_9 = 2.262;
export const BATCH_MEANS_RULE = `error bars: 95% interval of the mean by batch means (the delivered messages in generation order cut into ${BATCHES} equal batches; half-width t(0.975, ${BATCHES - 1}) · sd(batch means) / √${BATCHES}); messages are correlated within a batch, not across (an approximation); none with fewer than ${2 * BATCHES} messages`;

/** Half-width of the 95% batch-means interval of the mean of xs (in order; NaN = undelivered, left out), or null. */
export function batchMeansHalfWidth(xs: readonly number[]): number | null {
  const v = xs.filter(Number.isFinite);
  if (v.length < 2 * BATCHES) return null;
  const means: number[] = [];
  for (let b = 0; b < BATCHES; b++) {
    const part = v.slice(Math.floor((b * v.length) / BATCHES), Math.floor(((b + 1) * v.length) / BATCHES));
    means.push(part.reduce((a, x) => a + x, 0) / part.length);
  }
  const m = means.reduce((a, x) => a + x, 0) / BATCHES;
  const sd = Math.sqrt(means.reduce((a, x) => a + (x - m) ** 2, 0) / (BATCHES - 1));
  return (T975_9 * sd) / Math.sqrt(BATCHES);
}

/** ci95 of a result from its per-message times (message-id = generation order), scaled like the means. */
export function ci95Of(perMessage: readonly MessageTimes[], scale = 1): { first: number | null; last: number | null } {
  const hw = (f: 'first' | 'last'): number | null => {
    const x = batchMeansHalfWidth(perMessage.map((m) => m[f]));
    return x === null ? null : x / scale;
  };
  return { first: hw('first'), last: hw('last') };
}

/** A plot's error bar for a result's mean first or last (NaN: none). */
export function ciOf(r: Ch5Res, f: 'meanFirst' | 'meanLast'): number {
  return r.ci95?.[f === 'meanFirst' ? 'first' : 'last'] ?? NaN;
}

export function growth(full: number | null, half: number | null): number | null {
  return full === null || half === null || !(half > 0) || !Number.isFinite(full) || !Number.isFinite(half) ? null : full / half - 1;
}

export function isStable(g: { readonly first: number | null; readonly last: number | null }): boolean {
  return !((g.first ?? 0) > STABILITY_GROWTH || (g.last ?? 0) > STABILITY_GROWTH);
}

/** A point's result from a TLM run at full (s) and half (h) length; `scale` divides every time (cycles → ticks for the calibrated TLM). */
export function tlmRes(s: TlmStats, h: TlmStats, halfMpn: number, nipLoad: number | null, scale = 1, perMessage: readonly MessageTimes[] = []): Ch5Res {
  const g = { first: growth(s.meanFirst, h.meanFirst), last: growth(s.meanLast, h.meanLast) };
  const R = s.resources;
  const t = (x: number): number => x / scale;
  return {
    idealU: s.idealLinkUtilisation,
    measuredU: s.measuredLinkUtilisation,
    nipLoad,
    meanFirst: t(s.meanFirst),
    meanLast: t(s.meanLast),
    meanLastMinusFirst: t(s.meanLastMinusFirst),
    maxFirst: t(s.maxFirst),
    maxLast: t(s.maxLast),
    messages: s.messages,
    delivered: s.delivered,
    contraryMessages: s.contraryMessages,
    orderViolations: s.orderViolations,
    deadlock: s.deadlock !== null,
    lastGeneration: t(s.lastGeneration),
    makespan: t(s.makespan),
    half: { messagesPerNode: halfMpn, meanFirst: t(h.meanFirst), meanLast: t(h.meanLast) },
    growth: g,
    stable: isStable(g),
    ci95: ci95Of(perMessage, scale),
    resources: { sourceWaitBySlot: R.sourceWaitBySlot.map((x) => (x === null ? null : t(x))), meanSourceWait: t(R.meanSourceWait), meanInNetworkFirst: t(R.meanInNetworkFirst), pbuFullFraction: R.pbuFullFraction, linkBusyFraction: R.linkBusyFraction },
  };
}

/** Growth as text, '!' when it breaks the rule, e.g. "+82%!". */
export function growthText(r: Ch5Res): string {
  const g = Math.max(r.growth.first ?? -Infinity, r.growth.last ?? -Infinity);
  if (!Number.isFinite(g)) return 'n/a';
  return `${g >= 0 ? '+' : ''}${(100 * g).toFixed(0)}%${r.stable ? '' : '!'}`;
}

/**
 * A statement that uses an unstable point is not comparable: no verdict
 * (holds = null, comparable = false), and the measured text names the points.
 */
export function gate(c: SeedCheck, used: readonly { readonly label: string; readonly r: Ch5Res }[]): SeedCheck {
  const bad = used.filter((u) => !u.r.stable);
  if (!bad.length) return c;
  const names = [...new Set(bad.map((u) => `${u.label} (${growthText(u.r)})`))];
  return { ...c, holds: null, comparable: false, measured: `${c.measured} — not comparable: unstable (past saturation) at ${names.join(', ')}` };
}


/** How packets (worms) leave the network, per scheme (harness/tlm/config.ts Delivery). */
export interface Ch5Delivery {
  readonly wormhole: Delivery;
  readonly packet: Delivery;
}

/**
 * Default delivery per scheme, from the seed's reading of its own simulator
 * (docs/buzzard-ch5.md#delivery-at-the-destination): a wormhole destination
 * takes up to n messages at once (§5.2, "the maximum number of concurrently
 * arriving wormhole messages is at most n") and packet routing "can
 * concurrently receive a far greater number of packets"; §5.7 blames only
 * "blockage at the source nodes". So each input delivers on its own channel
 * ('per-link') for every scheme; 'shared-port' (the hardware's one node input
 * port, §5.4) is the option the RTL-calibrated comparison uses.
 */
export const CH5_DELIVERY_DEFAULT: Ch5Delivery = Object.freeze({ wormhole: 'per-link', packet: 'per-link' });

/** `--delivery MODE` (both schemes) or `--delivery wormhole=MODE,packet=MODE` (either may be left out). */
export function parseCh5Delivery(text: string | undefined): Ch5Delivery {
  if (text === undefined) return CH5_DELIVERY_DEFAULT;
  const modes = ['shared-port', 'per-link'];
  const bad = (): never => {
    throw new RangeError(`--delivery must be shared-port, per-link, or wormhole=MODE,packet=MODE with MODE shared-port or per-link (got '${text}')`);
  };
  if (modes.includes(text)) return { wormhole: text as Delivery, packet: text as Delivery };
  const out: { wormhole: Delivery; packet: Delivery } = { ...CH5_DELIVERY_DEFAULT };
  for (const part of text.split(',')) {
    const m = /^(wormhole|packet)=(.*)$/.exec(part.trim());
    if (!m || !modes.includes(m[2]!)) bad();
    out[m![1] as 'wormhole' | 'packet'] = m![2] as Delivery;
  }
  return out;
}

export function deliveryText(d: Ch5Delivery): string {
  return d.wormhole === d.packet ? `${d.wormhole} delivery` : `delivery wormhole ${d.wormhole}, packets ${d.packet}`;
}

export const FULL_MPN = { 512: 200, 2048: 100 } as const;
export const QUICK_MPN = { 512: 8, 2048: 4 } as const;

export const BASE = { packetBytes: 32, buffersPerPbu: 13 } as const;
export const VARIANTS = [
  { key: '13x32', label: '13 buffers × 32 B', packetBytes: 32, buffersPerPbu: 13 },
  { key: '26x32', label: '26 buffers × 32 B', packetBytes: 32, buffersPerPbu: 26 },
  { key: '13x64', label: '13 buffers × 64 B', packetBytes: 64, buffersPerPbu: 13 },
] as const;

// ------------------------------------------------------------------ report helpers

export type Lookup = (role: Ch5Role, gap: number, t: Transport, pb: number, bu: number) => Ch5Res;

export function lookup(points: readonly Ch5Pt[], results: readonly Ch5Res[], meanBytes: number): Lookup {
  const m = new Map<string, Ch5Res>();
  points.forEach((p, k) => m.set(`${p.role}/${p.meanBytes}/${p.meanGapTicks}/${p.transport}/${p.packetBytes}/${p.buffersPerPbu}`, results[k]!));
  return (role, gap, t, pb, bu) => {
    const r = m.get(`${role}/${role === 'cross' ? 512 : meanBytes}/${gap}/${t}/${pb}/${bu}`);
    if (!r) throw new Error(`buzzard-ch5: no result for ${role} ${gap} ${t} ${pb}x${bu}`);
    return r;
  };
}

export function ratio(a: number | null, b: number | null): number | null {
  return a === null || b === null || !(b > 0) ? null : a / b;
}

export function near(measured: number | null, seed: number): boolean {
  return measured !== null && Math.abs(measured - seed) <= TOLERANCE + 1e-12;
}

export function loadsText(idx: readonly number[], rates: readonly number[]): string {
  return idx.length ? `${idx.map((i) => rates[i]).join(', ')} ticks` : 'no load';
}

export function sameSet(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((x, k) => x === b[k]);
}

export function minMax(xs: readonly (number | null)[]): { min: number | null; max: number | null; argmin: number; argmax: number } {
  let min: number | null = null;
  let max: number | null = null;
  let argmin = -1;
  let argmax = -1;
  xs.forEach((x, k) => {
    if (x === null) return;
    if (min === null || x < min) {
      min = x;
      argmin = k;
    }
    if (max === null || x > max) {
      max = x;
      argmax = k;
    }
  });
  return { min, max, argmin, argmax };
}

export const rule = {
  endpoint: `holds if the measured ratio is within ±${TOLERANCE * 100} percentage points of the seed's`,
  range: `holds if the measured minimum and maximum over the nine loads are each within ±${TOLERANCE * 100} percentage points of the seed's range ends`,
  set: 'holds if the set of loads where it is true is exactly the set the seed names',
};

export const TRANSPORT_COLOR: Record<Transport, string> = { wormhole: '#1f77b4', 'fixed-packet': '#d62728', 'quasi-adaptive': '#2ca02c' };
export const TRANSPORT_MARKER: Record<Transport, MarkerShape> = { wormhole: 'circle', 'fixed-packet': 'square', 'quasi-adaptive': 'triangle' };
export const TRANSPORT_LABEL: Record<Transport, string> = { wormhole: 'wormhole', 'fixed-packet': 'fixed packet', 'quasi-adaptive': 'quasi-adaptive' };

/** "yes", or "no (fixed, quasi)" naming the unstable schemes. */
export function stabilityText(rs: readonly (readonly [string, Ch5Res])[]): string {
  const bad = rs.filter(([, r]) => !r.stable).map(([k]) => k);
  return bad.length ? `no (${bad.join(', ')})` : 'yes';
}

/** "fixed at 1024, 1280 ticks; …" or "none". */
export function unstableList(rs: readonly (readonly [string, readonly Ch5Res[]])[], rates: readonly number[]): string {
  const parts = rs.map(([k, xs]) => [k, rates.filter((_, i) => !xs[i]!.stable)] as const).filter(([, g]) => g.length);
  return parts.length ? parts.map(([k, g]) => `${k} at ${g.join(', ')} ticks`).join('; ') : 'none';
}

/**
 * Where the unstable points wait (TLM resource report): the slot dimension
 * with the longest source wait, the PBU dimension most often full, the
 * busiest link dimension, and the first packet's time in the network.
 */
export function bottlenecks(rs: readonly (readonly [string, readonly Ch5Res[]])[], rates: readonly number[]): string[] {
  const out: string[] = [];
  for (const [k, xs] of rs) {
    const i = xs.findIndex((r) => !r.stable);
    if (i < 0) continue;
    const R = xs[i]!.resources;
    if (!R.linkBusyFraction.length) continue; // no resource report (the RTL side, buzzard-ch5-rtl.ts)
    const arg = (a: readonly (number | null)[]): number => a.reduce<number>((b, v, j) => ((v ?? -1) > (a[b] ?? -1) ? j : b), 0);
    const sw = arg(R.sourceWaitBySlot);
    const pf = arg(R.pbuFullFraction);
    const lb = arg(R.linkBusyFraction);
    const f = (x: number | null | undefined, d = 0): string => (x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(d));
    out.push(
      `Saturation, ${k} at ${rates[i]} ticks: source wait ${f(R.meanSourceWait)} ticks (longest at the dimension-${sw + 1} slot, ${f(R.sourceWaitBySlot[sw])}; by slot ${R.sourceWaitBySlot.map((x) => f(x)).join(' / ')}), first packet in the network ${f(R.meanInNetworkFirst)} ticks; ` +
        `PBU full fraction by dimension ${R.pbuFullFraction.map((x) => f(x, 2)).join(' / ')} (max at PBU ${pf + 1}); link busy by dimension ${R.linkBusyFraction.map((x) => f(x, 2)).join(' / ')} (max dimension ${lb + 1}).`,
    );
  }
  return out;
}
