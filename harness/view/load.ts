/**
 * Reading a trace for `icemu view`: the checks that turn bad input into one
 * clear error line (ViewInputError) before any page is written.
 *  - not the event vocabulary: the vocabulary's parser names file and line;
 *  - truncated: the last line has no newline (writeTrace always ends one);
 *  - unknown topology: the header's `topology` (or, for traces written
 *    before it existed, a Buzzard cube driver's `workload.n`) must name a
 *    Buzzard n-cube; a node or port outside that cube is an error too;
 *  - events out of time order.
 */
import { readFileSync, statSync } from 'node:fs';
import { EventTraceError, parseTrace, type TraceHeader } from '../../traces/events/vocabulary.ts';
import { buildModel, type ViewModel } from './model.ts';

export class ViewInputError extends Error {
  override name = 'ViewInputError';
}

/** The cube degree the header describes, or an error naming what is there. */
export function topologyOf(h: TraceHeader, file: string): number {
  const topo = h.topology;
  const w = h.workload ?? {};
  let n: unknown;
  if (topo) {
    if (topo.kind !== 'buzzard-ncube') throw new ViewInputError(`${file}:1: unknown topology '${String(topo.kind)}' (icemu view draws buzzard-ncube)`);
    n = topo.n;
  } else if (w.source === 'harness/rtl/cube_driver') n = w.n;
  else if (w.system === 'c104') throw new ViewInputError(`${file}:1: unknown topology: a C104 network (${String(w.preset ?? '?')}); icemu view draws Buzzard n-cubes only so far`);
  else throw new ViewInputError(`${file}:1: unknown topology: the header has no 'topology' field (record the run with icemu buzzard --events)`);
  if (!Number.isInteger(n) || (n as number) < 1 || (n as number) > 16) throw new ViewInputError(`${file}:1: topology field 'n': expected a cube degree 1..16, got ${JSON.stringify(n)}`);
  return n as number;
}

/** Parse and check trace text; returns the replay model. */
export function modelFromText(text: string, file: string): ViewModel {
  if (text.length > 0 && !text.endsWith('\n')) {
    const line = text.split('\n').length;
    throw new ViewInputError(`${file}:${line}: truncated trace: the last line has no end (was the run interrupted?)`);
  }
  let parsed;
  try {
    parsed = parseTrace(text, file);
  } catch (e) {
    if (e instanceof EventTraceError) throw new ViewInputError(`${e.message} (not an icemu event trace?)`);
    throw e;
  }
  const { header, events } = parsed;
  const n = topologyOf(header, file);
  const N = 1 << n;
  let last = 0;
  events.forEach((e, k) => {
    const line = k + 2;
    if (e.node >= N) throw new ViewInputError(`${file}:${line}: node ${e.node} is outside 0..${N - 1} of the ${n}-cube in the header`);
    if (e.port !== undefined && e.port > n) throw new ViewInputError(`${file}:${line}: port ${e.port} is outside 0..${n} of the ${n}-cube in the header`);
    if (e.t < last) throw new ViewInputError(`${file}:${line}: time ${e.t} goes back (previous event at ${last}); events must be sorted by time`);
    last = e.t;
  });
  return buildModel(header, events, n, file);
}

/** Read and check a trace file. */
export function loadModel(path: string): ViewModel {
  let text: string;
  try {
    if (!statSync(path).isFile()) throw new ViewInputError(`${path}: not a regular file`);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof ViewInputError) throw e;
    throw new ViewInputError(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  return modelFromText(text, path);
}
