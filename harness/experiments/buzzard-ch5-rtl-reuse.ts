/**
 * `--rtl-reuse DIR` for `icemu experiment buzzard-fig5.1x --model rtl`: take
 * the RTL column of a point from an earlier RTL-mode run instead of running
 * the RTL again (docs/buzzard-ch5.md#rtl-runs).
 *
 * Why this is sound: the RTL is deterministic, and a point's RTL result
 * depends only on the workload (mean length, mean gap, messages per node and
 * the half-length run's count, seed, cube) and on what the RTL builds
 * (routing, packet size, buffers per PBU). Figs 5.14 / 5.15 contain the
 * 13 × 32 B points of Figs 5.12 / 5.13 (same rates, same workloads), and
 * their sweeps repeat main points; at 75–200 s per RTL point on a loaded
 * machine, each such point is worth not running twice. Only the RTL column
 * is reused: the calibrated and seed-level TLMs always run.
 *
 * The reused results are read from every shard or result file of a
 * buzzard-fig5.* RTL run in DIR (`*.json`, not `*.run.json`); a result run
 * in this process is kept too (a point repeated within one run).
 *
 * RTL version (docs/buzzard-ch5.md#rtl-version): every RTL result carries
 * the RTL_TIMING_VERSION that produced it (`rtlVersion`), and a stored
 * result is reused only under the current version. One of another version,
 * or stored before versions existed (no `rtlVersion`), is run again, and the
 * report counts it: the RTL's timing may have changed since.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RTL_TIMING_VERSION } from '../../rtl/buzzard/timing_version.ts';
import type { Ch5Params, Ch5Pt, Ch5Res } from './buzzard-ch5-common.ts';

/** What an RTL result depends on (the run's seed/cube, the point's workload and build). */
export function rtlPointKey(p: Pick<Ch5Pt, 'meanBytes' | 'meanGapTicks' | 'transport' | 'packetBytes' | 'buffersPerPbu'>, q: Pick<Ch5Params, 'seed' | 'cubeDegree'>, mpn: number, halfMpn: number): string {
  return [q.seed, q.cubeDegree, p.meanBytes, p.meanGapTicks, mpn, halfMpn, p.transport, p.packetBytes, p.buffersPerPbu].join('/');
}

interface StoredPoint {
  readonly point: unknown;
  readonly result: { readonly rtl: Ch5Res | null; readonly rtlVersion?: unknown } | null;
}

/** A stored RTL result and the RTL version that produced it (null: stored before versions). */
export interface StoredRtl {
  readonly res: Ch5Res;
  readonly version: number | null;
}

/** What the reuse did at a point: reused, or a stored result of `version` passed over (null: none stored). */
export interface ReuseOutcome {
  readonly res: Ch5Res;
  readonly reused: boolean;
  /** A stored result of this point under another RTL version was not reused: its version (null: no version), else undefined. */
  readonly staleVersion?: number | null;
}
interface StoredRun {
  readonly experiment?: string;
  readonly params?: Ch5Params;
  readonly points?: readonly (StoredPoint | null)[];
}

/** The fields of a stored point that the key reads. */
function isStoredPoint(p: unknown): p is Ch5Pt {
  const x = p as Partial<Record<keyof Ch5Pt, unknown>> | null;
  return typeof x === 'object' && x !== null && [x.meanBytes, x.meanGapTicks, x.packetBytes, x.buffersPerPbu].every((v) => typeof v === 'number') && typeof x.transport === 'string';
}

/**
 * The RTL results in DIR by key. mpnOf gives a point's messages per node in
 * the run that stored it (the figure's own count, or RTL_MPN for a cross
 * point). Throws RangeError (one usage line) if DIR cannot be read.
 */
export function readRtlResults(dir: string, mpnOf: (p: Ch5Pt, q: Ch5Params) => number): Map<string, StoredRtl> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^buzzard-fig5\.1[2-5]\..*json$|^buzzard-fig5\.1[2-5]\.json$/.test(n) && !n.endsWith('.run.json'));
  } catch (e) {
    throw new RangeError(`--rtl-reuse: cannot read directory '${dir}' (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  const out = new Map<string, StoredRtl>();
  for (const n of names) {
    let run: StoredRun | null;
    try {
      run = JSON.parse(readFileSync(join(dir, n), 'utf8')) as StoredRun | null;
    } catch {
      throw new RangeError(`--rtl-reuse: ${join(dir, n)} is not a readable JSON file`);
    }
    const q = run?.params;
    if (!run || !q || q.model !== 'rtl' || !Array.isArray(run.points)) continue;
    for (const sp of run.points) {
      const r = sp?.result?.rtl;
      if (!r) continue;
      // a result file edited or cut short: one usage line, not a stack trace (users' files, docs/buzzard-ch5.md#rtl-runs)
      if (!isStoredPoint(sp.point) || typeof r.meanFirst !== 'number' || typeof r.meanLast !== 'number') throw new RangeError(`--rtl-reuse: ${join(dir, n)} holds an RTL result without its point or its means`);
      const v = sp.result?.rtlVersion;
      const version = typeof v === 'number' && Number.isInteger(v) ? v : null;
      const mpn = mpnOf(sp.point, q);
      const key = rtlPointKey(sp.point, q, mpn, Math.max(1, Math.ceil(mpn / 2)));
      // the same point stored by several runs: one of the current version wins
      if (out.get(key)?.version !== RTL_TIMING_VERSION) out.set(key, { res: r, version });
    }
  }
  return out;
}

/** Per process: the stored results of each --rtl-reuse directory, and the results run here. */
const stored = new Map<string, Map<string, StoredRtl>>();
const ranHere = new Map<string, Ch5Res>();

/**
 * The RTL result of a point: from DIR's earlier runs (under the current
 * RTL_TIMING_VERSION only) or this process, else run(); `reused` is true
 * when it came from DIR (a result repeated within this process is not
 * flagged: it is what run() gave here, so the output stays the same for any
 * --jobs); `staleVersion` names the version of a stored result passed over.
 * idealU is the current run's (the seed-level TLM's), as for a fresh result.
 */
export function rtlResultReusing(key: string, dir: string | null, mpnOf: (p: Ch5Pt, q: Ch5Params) => number, idealU: number | null, run: () => Ch5Res): ReuseOutcome {
  let fromDir: StoredRtl | undefined;
  if (dir !== null) {
    let m = stored.get(dir);
    if (!m) stored.set(dir, (m = readRtlResults(dir, mpnOf)));
    fromDir = m.get(key);
  }
  if (fromDir?.version === RTL_TIMING_VERSION) return { res: { ...fromDir.res, idealU }, reused: true };
  const stale = fromDir ? { staleVersion: fromDir.version } : {};
  const here = ranHere.get(key);
  if (here) return { res: here, reused: false, ...stale };
  const res = run();
  ranHere.set(key, res);
  return { res, reused: false, ...stale };
}
