/**
 * Explicit workload trace files: one message per line,
 *
 *     time source destination length
 *
 * separated by blanks. `#` starts a comment (whole line or after the fields);
 * blank lines are allowed. `destination` may be `*` for a broadcast (stored
 * with dst = src, seed 002 §5.4). Times must not decrease from line to line,
 * so that message ids (list indices) follow line order.
 *
 * Before the first message line, comments of the form `# key: value` set the
 * workload metadata: `name`, `unit` (cycles | ticks | us), `cube` (degree n),
 * `seed`, `params` (JSON), `rng` (JSON Rng state). Other comments are ignored.
 * `formatWorkloadFile` writes them, so a workload survives a round trip.
 *
 * Errors name the file, the line, the field and the allowed range, e.g.
 *   runs/a.txt:7: field 'destination': 64 is outside 0..63 (node of the 6-cube)
 */
import { readFileSync } from 'node:fs';
import { writeOutput } from '../../traces/files.ts';
import type { TimeUnit } from '../../traces/events/vocabulary.ts';
import type { RngState } from './rng.ts';
import type { Workload, WorkloadMessage } from './types.ts';

export class WorkloadFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    message: string,
  ) {
    super(`${file}:${line}: ${message}`);
    this.name = 'WorkloadFileError';
  }
}

export interface ParseWorkloadOptions {
  /** File name used in error messages (default `<workload>`). */
  readonly file?: string;
  /** Cube degree when the file has no `# cube:` line (default 6, Buzzard §10.3). A `# cube:` line that disagrees is an error. */
  readonly cubeDegree?: number;
  /** Time unit when the file has no `# unit:` line (default 'ticks'). */
  readonly unit?: TimeUnit;
}

const UNITS: readonly TimeUnit[] = ['cycles', 'ticks', 'us'];
const TIME_RE = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INT_RE = /^\d+$/;
const MAX_BYTES = 2 ** 31 - 1;

export function parseWorkloadFile(text: string, opts: ParseWorkloadOptions = {}): Workload {
  const file = opts.file ?? '<workload>';
  let n: number | undefined;
  let cubeLine = 0;
  if (opts.cubeDegree !== undefined) {
    if (!Number.isInteger(opts.cubeDegree) || opts.cubeDegree < 1 || opts.cubeDegree > 16) {
      throw new RangeError(`parseWorkloadFile.cubeDegree: ${opts.cubeDegree} is outside 1..16 (integer)`);
    }
  }
  let unit: TimeUnit = opts.unit ?? 'ticks';
  let name = 'trace-file';
  let seed: number | null = null;
  let params: Record<string, unknown> = {};
  let rngStart: RngState | undefined;
  const messages: WorkloadMessage[] = [];
  let prevT = 0;
  let prevLine = 0;
  const lines = text.split(/\r?\n/);
  for (let k = 0; k < lines.length; k++) {
    const ln = k + 1;
    const raw = lines[k]!;
    const hash = raw.indexOf('#');
    const body = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    const fail = (msg: string): never => {
      throw new WorkloadFileError(file, ln, msg);
    };
    if (!body) {
      if (hash >= 0 && messages.length === 0) {
        const m = /^#\s*(name|unit|cube|seed|params|rng)\s*:\s*(.*?)\s*$/.exec(raw.trim());
        if (m) {
          const [, key, value] = m as unknown as [string, string, string];
          if (key === 'name') name = value;
          else if (key === 'unit') {
            if (!(UNITS as readonly string[]).includes(value)) fail(`directive 'unit': '${value}' is not one of cycles, ticks, us`);
            unit = value as TimeUnit;
          } else if (key === 'cube') {
            if (!INT_RE.test(value) || +value < 1 || +value > 16) fail(`directive 'cube': '${value}' is outside 1..16 (cube degree, integer)`);
            if (opts.cubeDegree !== undefined && +value !== opts.cubeDegree) fail(`directive 'cube': ${value} disagrees with the requested cube degree ${opts.cubeDegree}`);
            n = +value;
            cubeLine = ln;
          } else if (key === 'seed') {
            if (value === 'null' || value === '') seed = null;
            else if (!INT_RE.test(value) || +value > 0xffffffff) fail(`directive 'seed': '${value}' is outside 0..4294967295 (integer) or null`);
            else seed = +value;
          } else {
            let v: unknown;
            try {
              v = JSON.parse(value);
            } catch {
              fail(`directive '${key}': not valid JSON`);
            }
            if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`directive '${key}': expected a JSON object`);
            if (key === 'params') params = v as Record<string, unknown>;
            else rngStart = v as RngState;
          }
        }
      }
      continue;
    }
    const deg = n ?? opts.cubeDegree ?? 6;
    const N = 2 ** deg;
    const fields = body.split(/\s+/);
    if (fields.length !== 4) fail(`expected 4 fields 'time source destination length', got ${fields.length}`);
    const [ft, fs, fd, fl] = fields as [string, string, string, string];
    if (ft.startsWith('-') && TIME_RE.test(ft.slice(1))) fail(`field 'time': ${ft} is outside 0..∞ (${unit})`);
    if (!TIME_RE.test(ft)) fail(`field 'time': '${ft}' is not a number (a time ≥ 0 in ${unit})`);
    const t = Number(ft);
    if (!Number.isFinite(t)) fail(`field 'time': '${ft}' is outside 0..∞ (${unit})`);
    if (messages.length > 0 && t < prevT) fail(`field 'time': ${ft} is before the time ${prevT} on line ${prevLine} (times must not decrease)`);
    const node = (f: string, what: string): number => {
      if (!INT_RE.test(f)) fail(`field '${what}': '${f}' is not a whole number (node 0..${N - 1} of the ${deg}-cube)`);
      const v = Number(f);
      if (v >= N) fail(`field '${what}': ${f} is outside 0..${N - 1} (node of the ${deg}-cube${cubeLine ? `, line ${cubeLine}` : ''})`);
      return v;
    };
    const src = node(fs, 'source');
    let dst: number;
    let kind: WorkloadMessage['kind'] = 'unicast';
    if (fd === '*') {
      dst = src;
      kind = 'broadcast';
    } else {
      dst = node(fd, 'destination');
      if (dst === src) fail(`field 'destination': ${fd} equals the source (use * for a broadcast)`);
    }
    if (!INT_RE.test(fl)) fail(`field 'length': '${fl}' is not a whole number (bytes 0..${MAX_BYTES})`);
    const bytes = Number(fl);
    if (bytes > MAX_BYTES) fail(`field 'length': ${fl} is outside 0..${MAX_BYTES} (bytes)`);
    messages.push(Object.freeze({ id: messages.length, t, src, dst, bytes, kind }));
    prevT = t;
    prevLine = ln;
  }
  const w: Workload = { name, seed, params, unit, cubeDegree: n ?? opts.cubeDegree ?? 6, messages };
  return rngStart ? { ...w, rngStart } : w;
}

/** The file text of a workload (metadata comments, then one line per message). */
export function formatWorkloadFile(w: Workload): string {
  const out = [
    '# icemu workload: time source destination length (one message per line; * = broadcast)',
    `# name: ${w.name}`,
    `# unit: ${w.unit}`,
    `# cube: ${w.cubeDegree}`,
    `# seed: ${w.seed === null ? 'null' : w.seed}`,
    `# params: ${JSON.stringify(w.params)}`,
  ];
  if (w.rngStart) out.push(`# rng: ${JSON.stringify(w.rngStart)}`);
  for (const m of w.messages) out.push(`${String(m.t)} ${m.src} ${m.kind === 'broadcast' ? '*' : m.dst} ${m.bytes}`);
  return out.join('\n') + '\n';
}

/** Write atomically (temporary file, then rename). */
export function writeWorkloadFile(path: string, w: Workload): void {
  writeOutput(path, formatWorkloadFile(w));
}

export function readWorkloadFile(path: string, opts: Omit<ParseWorkloadOptions, 'file'> = {}): Workload {
  return parseWorkloadFile(readFileSync(path, 'utf8'), { ...opts, file: path });
}
