/**
 * Reading a trace for `icemu view`: the checks that turn bad input into one
 * clear error line (ViewInputError) before any page is written.
 *  - not the event vocabulary: the vocabulary's parser names file and line;
 *  - truncated: the last line has no newline (writeTrace always ends one);
 *  - unknown topology: the header's `topology` (or, for traces written
 *    before it existed, a Buzzard cube driver's `workload.n`) must name a
 *    Buzzard n-cube or a C104 network (`kind: 'c104'`, checked field by
 *    field); a node or port outside that network is an error too;
 *  - events out of time order.
 */
import { readFileSync, statSync } from 'node:fs';
import { EventTraceError, parseTrace, type TraceHeader } from '../../traces/events/vocabulary.ts';
import { buildModel, type C104Topo, type ViewModel } from './model.ts';
import { buildC104Model, ENDPOINT_PORTS, ringLink, SWITCH_PORTS, switchPart } from './c104_model.ts';

export class ViewInputError extends Error {
  override name = 'ViewInputError';
}

const isInt = (v: unknown, lo: number, hi: number): v is number => Number.isInteger(v) && (v as number) >= lo && (v as number) <= hi;

/** Check a header's C104 topology record field by field (the first problem, one line). */
export function checkC104Topology(t: Record<string, unknown>, file: string): C104Topo {
  const bad = (what: string): never => {
    throw new ViewInputError(`${file}:1: topology 'c104': ${what}`);
  };
  const { switches, endpoints, cables, grid, places } = t;
  if (!Array.isArray(switches) || switches.length === 0 || !switches.every((x) => typeof x === 'string')) bad(`field 'switches': expected a non-empty list of switch names`);
  const S = (switches as string[]).length;
  if (!Array.isArray(endpoints)) bad(`field 'endpoints': expected a list of {name, sw, links}`);
  (endpoints as unknown[]).forEach((e, k) => {
    const o = (e ?? {}) as Record<string, unknown>;
    if (typeof o.name !== 'string' || !isInt(o.sw, 0, S - 1) || !Array.isArray(o.links) || o.links.length < 1 || o.links.length > ENDPOINT_PORTS || !o.links.every((j) => isInt(j, 0, SWITCH_PORTS - 1)))
      bad(`endpoint ${k}: expected {name, sw: 0..${S - 1}, links: 1..${ENDPOINT_PORTS} of 0..${SWITCH_PORTS - 1}}, got ${JSON.stringify(e)}`);
  });
  if (!Array.isArray(cables)) bad(`field 'cables': expected a list of [switchA, linkA, switchB, linkB]`);
  (cables as unknown[]).forEach((c, k) => {
    if (!Array.isArray(c) || c.length !== 4 || !isInt(c[0], 0, S - 1) || !isInt(c[2], 0, S - 1) || !isInt(c[1], 0, SWITCH_PORTS - 1) || !isInt(c[3], 0, SWITCH_PORTS - 1)) bad(`cable ${k}: expected [switchA, linkA, switchB, linkB] within ${S} switches of ${SWITCH_PORTS} links, got ${JSON.stringify(c)}`);
  });
  if (grid !== undefined) {
    const g = (grid ?? {}) as Record<string, unknown>;
    if (!isInt(g.w, 1, 4096) || !isInt(g.h, 1, 4096) || (g.w as number) * (g.h as number) !== S) bad(`field 'grid': expected {w, h} with w·h = ${S} switches, got ${JSON.stringify(grid)}`);
    if (!Array.isArray(places) || places.length !== S || !places.every((p) => Array.isArray(p) && isInt(p[0], 0, (g.w as number) - 1) && isInt(p[1], 0, (g.h as number) - 1)))
      bad(`field 'places': expected one [x, y] inside the grid per switch`);
  }
  return t as unknown as C104Topo;
}

export type Topology = { kind: 'cube'; n: number } | { kind: 'c104'; topo: C104Topo };

/** The network the header describes, or an error naming what is there. */
export function topologyOf(h: TraceHeader, file: string): Topology {
  const topo = h.topology;
  const w = h.workload ?? {};
  let n: unknown;
  if (topo) {
    if (topo.kind === 'c104') return { kind: 'c104', topo: checkC104Topology(topo, file) };
    if (topo.kind !== 'buzzard-ncube') throw new ViewInputError(`${file}:1: unknown topology '${String(topo.kind)}' (icemu view draws buzzard-ncube and c104)`);
    n = topo.n;
  } else if (w.source === 'harness/rtl/cube_driver') n = w.n;
  else if (w.system === 'c104') throw new ViewInputError(`${file}:1: unknown topology: a C104 network (${String(w.preset ?? '?')}) recorded before traces carried their topology; record it again with icemu c104 --events`);
  else throw new ViewInputError(`${file}:1: unknown topology: the header has no 'topology' field (record the run with icemu buzzard --events)`);
  if (!Number.isInteger(n) || (n as number) < 1 || (n as number) > 16) throw new ViewInputError(`${file}:1: topology field 'n': expected a cube degree 1..16, got ${JSON.stringify(n)}`);
  return { kind: 'cube', n: n as number };
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
  const topo = topologyOf(header, file);
  let last = 0;
  events.forEach((e, k) => {
    const line = k + 2;
    if (topo.kind === 'cube') {
      const { n } = topo;
      const N = 1 << n;
      if (e.node >= N) throw new ViewInputError(`${file}:${line}: node ${e.node} is outside 0..${N - 1} of the ${n}-cube in the header`);
      if (e.port !== undefined && e.port > n) throw new ViewInputError(`${file}:${line}: port ${e.port} is outside 0..${n} of the ${n}-cube in the header`);
    } else if (e.kind === 'deadlock') {
      const t = topo.topo;
      const bad = (e.ring ?? []).find((u) => !ringLink(t, u));
      if (bad !== undefined || !e.ring?.length) throw new ViewInputError(`${file}:${line}: deadlock ring member ${JSON.stringify(bad ?? null)} is not a switch link 'name.linkJ' of the C104 network in the header`);
    } else {
      const sp = switchPart(e.unit);
      const [what, count, ports] = sp ? ['switch', topo.topo.switches.length, SWITCH_PORTS] : ['endpoint', topo.topo.endpoints.length, ENDPOINT_PORTS];
      if (e.node >= count) throw new ViewInputError(`${file}:${line}: ${what} ${e.node} is outside 0..${count - 1} of the C104 network in the header`);
      if (e.port !== undefined && e.port >= ports) throw new ViewInputError(`${file}:${line}: port ${e.port} is outside 0..${ports - 1} of ${what} ${e.node}`);
      if (sp && sp.name !== topo.topo.switches[e.node]) throw new ViewInputError(`${file}:${line}: unit '${e.unit}' is not on switch ${e.node} (${topo.topo.switches[e.node]}) of the C104 network in the header`);
      if (sp && sp.index >= SWITCH_PORTS) throw new ViewInputError(`${file}:${line}: ${sp.io === 'in' ? 'input' : 'link'} ${sp.index} is outside 0..${SWITCH_PORTS - 1} of switch ${e.node}`);
    }
    if (e.t < last) throw new ViewInputError(`${file}:${line}: time ${e.t} goes back (previous event at ${last}); events must be sorted by time`);
    last = e.t;
  });
  return topo.kind === 'cube' ? buildModel(header, events, topo.n, file) : buildC104Model(header, events, topo.topo, file);
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
