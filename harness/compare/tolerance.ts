/**
 * Declared tolerances and their check. A tolerance bounds one statistic of
 * one metric's deviation (absolute B − A in the comparison unit, or relative
 * (B − A)/A) to a closed range [min, max]; 'missing' bounds the number of
 * messages complete on one side only. The check names every offending
 * metric, statistic, value and bound, and the worst sample (the message,
 * packet or hop with the largest |B − A|).
 */
import { describeKey, METRICS, type Comparison, type MetricName, type WorstSample } from './join.ts';
import { SUMMARY_STATS, type SummaryStat } from './stats.ts';

export interface Tolerance {
  /** A metric of join.ts, or 'missing' (messages complete on one side only). */
  readonly metric: MetricName | 'missing';
  /** Statistic of the deviation sample (ignored for 'missing'). */
  readonly stat?: SummaryStat;
  /**
   * Absolute deviation (comparison unit), relative deviation per sample, or
   * 'means': the relative difference of the two sides' means, (mean B − mean A)/mean A
   * (`stat` is then ignored). Default 'abs'.
   */
  readonly of?: 'abs' | 'rel' | 'means';
  readonly min?: number;
  readonly max?: number;
  /** Why this bound (measurement or closed form it comes from). */
  readonly why: string;
}

export interface ToleranceCheck {
  readonly tolerance: Tolerance;
  /** The checked value (NaN when the metric had no joined sample). */
  readonly value: number;
  readonly pass: boolean;
  /** One line: what was checked and, on failure, what went wrong. */
  readonly message: string;
  readonly worst?: WorstSample | null;
  /** For 'missing': the message ids (at most 20). */
  readonly messages?: readonly number[];
}

export interface ToleranceReport {
  readonly pass: boolean;
  readonly checks: ToleranceCheck[];
  readonly failures: ToleranceCheck[];
}

function fmt(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (Number.isInteger(x)) return String(x);
  return Math.abs(x) >= 100 ? x.toFixed(1) : Math.abs(x) >= 1 ? x.toFixed(3) : x.toPrecision(3);
}

export function describeTolerance(t: Tolerance): string {
  const range = t.min !== undefined && t.max !== undefined ? (t.min === t.max ? `= ${fmt(t.min)}` : `in [${fmt(t.min)}, ${fmt(t.max)}]`) : t.max !== undefined ? `<= ${fmt(t.max)}` : t.min !== undefined ? `>= ${fmt(t.min)}` : 'unbounded';
  if (t.metric === 'missing') return `missing messages ${range}`;
  if (t.of === 'means') return `${t.metric} relative difference of the means ${range}`;
  return `${t.metric} ${t.of === 'rel' ? 'relative' : 'absolute'} ${t.stat ?? 'absMax'} ${range}`;
}

/** Validate a tolerance list (throws a RangeError naming the entry and field). */
export function checkToleranceSpec(tols: readonly Tolerance[]): void {
  tols.forEach((t, i) => {
    const at = `tolerances[${i}]`;
    if (t.metric !== 'missing' && !(t.metric in METRICS)) throw new RangeError(`${at}.metric: '${String(t.metric)}' is not one of missing, ${Object.keys(METRICS).join(', ')}`);
    if (t.stat !== undefined && !(SUMMARY_STATS as readonly string[]).includes(t.stat)) throw new RangeError(`${at}.stat: '${String(t.stat)}' is not one of ${SUMMARY_STATS.join(', ')}`);
    if (t.of !== undefined && t.of !== 'abs' && t.of !== 'rel' && t.of !== 'means') throw new RangeError(`${at}.of: '${String(t.of)}' is not abs, rel or means`);
    if (t.min === undefined && t.max === undefined) throw new RangeError(`${at}: give min, max or both`);
    for (const f of ['min', 'max'] as const) if (t[f] !== undefined && !Number.isFinite(t[f])) throw new RangeError(`${at}.${f}: ${t[f]} is not a finite number`);
    if (t.min !== undefined && t.max !== undefined && t.min > t.max) throw new RangeError(`${at}: min ${t.min} > max ${t.max}`);
  });
}

/** Check every tolerance against a comparison. */
export function checkTolerances(c: Comparison, tols: readonly Tolerance[]): ToleranceReport {
  checkToleranceSpec(tols);
  const checks: ToleranceCheck[] = [];
  const inRange = (v: number, t: Tolerance): boolean => Number.isFinite(v) && (t.min === undefined || v >= t.min) && (t.max === undefined || v <= t.max);
  for (const t of tols) {
    const what = describeTolerance(t);
    if (t.metric === 'missing') {
      const ids = [...c.missing.onlyA, ...c.missing.onlyB].sort((x, y) => x - y);
      const v = ids.length;
      const pass = inRange(v, t);
      const list = (side: string, xs: number[]): string => (xs.length ? `; complete in ${side} only: message${xs.length > 1 ? 's' : ''} ${xs.slice(0, 10).join(', ')}${xs.length > 10 ? ', …' : ''}` : '');
      checks.push({
        tolerance: t,
        value: v,
        pass,
        message: pass ? `${what}: ${v}` : `missing: ${v} message(s) complete on one side only (tolerance ${what})${list(c.a.label, c.missing.onlyA)}${list(c.b.label, c.missing.onlyB)}`,
        messages: ids.slice(0, 20),
      });
      continue;
    }
    const m = c.metrics.find((x) => x.metric === t.metric);
    if (!m || m.joined === 0) {
      checks.push({ tolerance: t, value: NaN, pass: false, message: `${t.metric}: no joined samples to check (tolerance ${what})`, worst: null });
      continue;
    }
    const s = t.of === 'rel' ? m.rel : m.abs;
    const stat = t.stat ?? 'absMax';
    const v = t.of === 'means' ? (m.b.mean - m.a.mean) / m.a.mean : s[stat];
    const pass = inRange(v, t);
    const unit = t.of === 'rel' || t.of === 'means' ? '' : ` ${m.unit}`;
    const w = m.worst;
    const worstText = w ? `; worst: ${describeKey(w.key)} (${c.a.label} ${fmt(w.a)}, ${c.b.label} ${fmt(w.b)}, deviation ${fmt(w.deviation)}${unit})` : '';
    checks.push({
      tolerance: t,
      value: v,
      pass,
      message: pass ? `${what}: ${fmt(v)}${unit}` : `${t.metric}: ${t.of === 'means' ? 'relative difference of the means' : `${t.of === 'rel' ? 'relative' : 'absolute'} ${stat} deviation`} ${fmt(v)}${unit} is outside the tolerance (${what}) over ${m.joined} samples${worstText}`,
      worst: w,
    });
  }
  const failures = checks.filter((x) => !x.pass);
  return { pass: failures.length === 0, checks, failures };
}
