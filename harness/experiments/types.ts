/**
 * The shape of a reproduction (ARCHITECTURE.md "harness/experiments/: one
 * module per reproduced seed figure or table").
 *
 * An experiment is a list of independent, deterministic points. Each point is
 * a small JSON value; running it gives a JSON result that depends only on the
 * point and the run parameters, never on which process, worker or shard ran
 * it. So points can run in parallel on all cores, be split into shards for a
 * batch scheduler, and be merged back into exactly the result an unsharded run
 * gives. `assemble` turns all results into the report: tables set beside the
 * seed's own numbers, the checks of the seed's statements, and plots.
 */
import type { Series } from './svg.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Run-parameter values the `icemu experiment` command passes in (only those the user gave are set). */
export interface ExperimentCliValues {
  readonly quick: boolean;
  readonly messagesPerNode?: number;
  readonly seed?: number;
  readonly delivery?: string;
  /** buzzard-fig5.*: 'tlm' (default) or 'rtl'. */
  readonly model?: string;
  readonly rtlReuse?: string;
  readonly trials?: number;
  readonly sizes?: readonly number[];
}

/** Names of the experiment-specific command options (see harness/commands/experiment.ts). */
export type ExperimentOptionName = 'messages-per-node' | 'seed' | 'delivery' | 'model' | 'rtl-reuse' | 'trials' | 'sizes';

/** A table of the report, printed as text and stored in the JSON. */
export interface ReportTable {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly (string | number | null)[])[];
  /** Digits after the point for numeric cells, per column (default 1). */
  readonly digits?: readonly number[];
  readonly notes?: readonly string[];
}

/** One statement of the seed held against the measurement. */
export interface SeedCheck {
  /** Stable identifier (tests refer to it). */
  readonly id: string;
  /** The seed's statement, quoted or closely paraphrased, with its place. */
  readonly statement: string;
  /** The seed's number(s) as text. */
  readonly seed: string;
  /** What was measured, as text with numbers. */
  readonly measured: string;
  /** The rule deciding `holds`. */
  readonly rule: string;
  /** true: holds; false: does not; null: reported only (no verdict possible) or not comparable. */
  readonly holds: boolean | null;
  /** false: the measurement behind it is not comparable with the seed's (e.g. a point past saturation, whose mean depends on the run length); holds is then null. */
  readonly comparable?: boolean;
}

/** A plot: written as <experiment>.<id>.svg (or <experiment>.svg when id is ''). */
export interface ReportPlot {
  readonly id: string;
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly xLog?: boolean;
  readonly yLog?: boolean;
  readonly series: readonly Series[];
}

export interface Report {
  readonly tables: readonly ReportTable[];
  readonly checks: readonly SeedCheck[];
  readonly plots: readonly ReportPlot[];
  readonly notes: readonly string[];
  /** Experiment-specific summary data for the JSON (curves, fitted values, …). */
  readonly data?: Json;
}

export interface Experiment<P = unknown, R = unknown, Q = unknown> {
  readonly name: string;
  /** One line for listings and help. */
  readonly summary: string;
  /** What the seed shows, and where (document, section, figure/table). */
  readonly source: string;
  /** How it is reproduced (TLM, RTL, models, combinatorial simulation). */
  readonly method: string;
  /** Experiment-specific command options this experiment accepts. */
  readonly options: readonly ExperimentOptionName[];
  /** Resolve the run parameters (defaults depend on --quick). Throws RangeError on bad values. */
  params(cli: ExperimentCliValues): Q;
  /** The points, in a fixed order (their index is their identity for sharding). */
  points(q: Q): P[];
  /** Relative cost estimate of a point, for scheduling the longest first (optional). */
  cost?(p: P, q: Q): number;
  /** Run one point: deterministic, JSON in and out. */
  runPoint(p: P, q: Q): R;
  /** Build the report from every point's result (same order as `points`). */
  assemble(q: Q, points: readonly P[], results: readonly R[]): Report;
}

/** An experiment of any point/result/parameter types (the registry's element type). */
export type AnyExperiment = Experiment<any, any, any>;

/** Identity helper that keeps the generic types of an experiment definition. */
export function defineExperiment<P, R, Q>(e: Experiment<P, R, Q>): Experiment<P, R, Q> {
  return e;
}

/** Replace non-finite numbers by null (JSON has no NaN/Infinity) and drop undefined, recursively. */
export function toJson(v: unknown): Json {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(toJson);
  if (ArrayBuffer.isView(v)) return Array.from(v as unknown as ArrayLike<number>, (x) => toJson(x));
  if (typeof v === 'object') {
    const o: { [k: string]: Json } = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (x !== undefined) o[k] = toJson(x);
    return o;
  }
  return String(v);
}

/** `--messages-per-node` with a default per size, checked (RangeError naming the option and range). */
export function messagesPerNodeParam(cli: ExperimentCliValues, quickDefault: number, fullDefault: number): number {
  const mpn = cli.messagesPerNode ?? (cli.quick ? quickDefault : fullDefault);
  if (!(Number.isInteger(mpn) && mpn >= 1 && mpn <= 100_000)) throw new RangeError(`--messages-per-node must be a whole number in 1..100000 (got ${mpn})`);
  return mpn;
}

/** Fixed-point text for a ratio as a percentage, e.g. 0.354 → "35%". */
export function pct(x: number | null | undefined, digits = 0): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : `${(100 * x).toFixed(digits)}%`;
}

/** Number text, 'n/a' for missing. */
export function num(x: number | null | undefined, digits = 1): string {
  return x === null || x === undefined || !Number.isFinite(x) ? 'n/a' : x.toFixed(digits);
}
