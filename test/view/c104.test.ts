/**
 * icemu view on a C104 network: a recorded `icemu c104 mesh` run (2x2 mesh,
 * T9000 endpoints). The replay model's state at chosen cycles is checked
 * against what the raw events say, computed here without harness/view:
 * a switch-level packet (`(packet P)` in the switch events' unit) is on the
 * link its head last entered (an endpoint's link into the switch where its
 * head first arrived, then output `port` of each switch that forwarded it),
 * and it is certainly still in flight while a later switch event names it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelFromText } from '../../harness/view/load.ts';
import type { ViewModel } from '../../harness/view/model.ts';
import { occupancy, packetsAt, pathOf } from '../../harness/view/replay.ts';
import { parseTrace, type TraceEvent, type TraceHeader } from '../../traces/events/vocabulary.ts';
import { recordC104Mesh, runIcemu as run } from './traces.ts';

const dir = mkdtempSync(join(tmpdir(), 'icemu-view-c104-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Topo {
  switches: string[];
  endpoints: { name: string; sw: number; links: number[] }[];
  cables: number[][];
  grid?: { w: number; h: number };
  places?: number[][];
}

let text: string;
let header: TraceHeader;
let events: TraceEvent[];
let topo: Topo;
let m: ViewModel;
beforeAll(async () => {
  text = await recordC104Mesh(join(dir, 'mesh.jsonl'));
  ({ header, events } = parseTrace(text));
  topo = header.topology as unknown as Topo;
  m = modelFromText(text, 'mesh.jsonl');
});

const UNIT = /^(c104_\d+_\d+)\.in(\d+) \(packet (\d+)(?:: (data|ack))?\)$/;
/** Per switch-level packet: [cycle, link] of each link its head entered, and the cycles of all its switch events. */
function tracks(): Map<number, { hops: [number, number][]; seen: number[] }> {
  const S = topo.switches.length;
  const out = new Map<number, { hops: [number, number][]; seen: number[] }>();
  for (const e of events) {
    const u = UNIT.exec(e.unit ?? '');
    if (!u) continue;
    const p = Number(u[3]);
    if (!out.has(p)) out.set(p, { hops: [], seen: [] });
    const q = out.get(p)!;
    q.seen.push(e.t);
    if (e.kind === 'head-arrives') {
      const k = Number(u[2]);
      const ep = topo.endpoints.findIndex((x) => x.sw === e.node && x.links.includes(k));
      if (ep >= 0) q.hops.push([e.t, S * 32 + ep * 4 + topo.endpoints[ep]!.links.indexOf(k)]);
    }
    if (e.kind === 'packet-forwarded') q.hops.push([e.t, e.node * 32 + e.port!]);
  }
  return out;
}

describe('icemu view: a C104 mesh trace', () => {
  it('the header records the mesh: 4 switches on a 2x2 grid, a T9000 on each with a hunt group of 4 links, the 4 inter-switch cables', () => {
    expect(topo.switches).toEqual(['c104_0_0', 'c104_0_1', 'c104_1_0', 'c104_1_1']);
    expect(topo.grid).toEqual({ w: 2, h: 2 });
    expect(topo.places).toEqual([[0, 0], [0, 1], [1, 0], [1, 1]]);
    expect(topo.endpoints.map((e) => [e.sw, e.links.length])).toEqual([[0, 4], [1, 4], [2, 4], [3, 4]]);
    expect(topo.cables).toHaveLength(4);
    expect(m.nodes).toBe(8);
    expect(m.c104?.switches).toHaveLength(4);
  });

  it('at chosen cycles, each packet still named by a later switch event is in flight on the link its head last entered', () => {
    const tr = tracks();
    expect(tr.size).toBeGreaterThan(8);
    const all = events.filter((e) => UNIT.test(e.unit ?? '')).map((e) => e.t);
    const lo = Math.min(...all);
    const hi = Math.max(...all);
    const cycles = [lo, lo + 1, Math.floor((lo + hi) / 2), Math.floor((lo + 3 * hi) / 4), hi - 1];
    let checked = 0;
    for (const c of cycles) {
      const got = new Map(packetsAt(m, c).map((q) => [q.msg, q.link]));
      for (const [p, q] of tr) {
        const entered = q.hops.filter(([t]) => t <= c);
        if (!entered.length || !q.seen.some((t) => t > c)) continue;
        expect(got.get(p), `packet ${p} at ${c}`).toBe(entered[entered.length - 1]![1]);
        expect(occupancy(m, entered[entered.length - 1]![1], c, 1), `its link busy at ${c}`).toBe(1);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('every packet crosses the mesh hop by hop and reaches an endpoint (all messages were delivered): nothing in flight at the end; a followed packet’s path is exactly its hops', () => {
    const tr = tracks();
    expect(packetsAt(m, m.tEnd)).toEqual([]);
    for (const [p, q] of tr) {
      expect(pathOf(m, p)).toEqual([...new Set(q.hops.map(([, l]) => l))].sort((a, b) => a - b));
      const info = m.msgs.find((x) => x.id === p)!;
      expect(info.rows.map((r) => r.forward)).toEqual(q.hops.slice(1).map(([t]) => t));
      expect(info.src).toBeGreaterThanOrEqual(0);
      expect(info.dest).toBeGreaterThanOrEqual(0);
      expect(info.complete).toBeGreaterThan(q.hops[q.hops.length - 1]![0]);
    }
    // as many packets reach endpoints as endpoints saw heads (data) or acks arrive
    expect(m.msgs.filter((x) => x.complete >= 0)).toHaveLength(events.filter((e) => (e.kind === 'head-arrives' && e.unit === 'rx') || e.kind === 'ack').length);
  });

  it('the latency histogram is of the T9000 messages, queued to complete', () => {
    const queued = new Map(events.filter((e) => e.kind === 'message-queued').map((e) => [e.msg, e.t]));
    const lat = events.filter((e) => e.kind === 'message-complete').map((e) => e.t - queued.get(e.msg)!);
    expect(lat.length).toBe(16);
    expect([...m.latency].sort((a, b) => a - b)).toEqual(lat.sort((a, b) => a - b));
  });
});

describe('icemu view <c104 trace>', () => {
  it('writes a page for the mesh trace', async () => {
    const r = await run(['view', join(dir, 'mesh.jsonl'), '--out', join(dir, 'mesh.html')]);
    expect(r.code).toBe(0);
    expect(r.out.join('\n')).toMatch(/mesh\.html \(8 nodes, \d+ packets/);
    const html = readFileSync(join(dir, 'mesh.html'), 'utf8');
    expect(html).toContain('"kind":"c104"');
  });

  const breakTopo = (f: (t: Record<string, unknown>) => void): string => {
    const lines = text.split('\n');
    const h = JSON.parse(lines[0]!) as { topology: Record<string, unknown> };
    f(h.topology);
    return [JSON.stringify(h), ...lines.slice(1)].join('\n');
  };
  const bad: [string, () => string, RegExp][] = [
    ['no switches', () => breakTopo((t) => (t.switches = [])), /bad\.jsonl:1: topology 'c104': field 'switches'/],
    ['endpoint on a missing switch', () => breakTopo((t) => ((t.endpoints as { sw: number }[])[1]!.sw = 9)), /bad\.jsonl:1: topology 'c104': endpoint 1: expected/],
    ['cable to link 40', () => breakTopo((t) => ((t.cables as number[][])[0]![1] = 40)), /bad\.jsonl:1: topology 'c104': cable 0: expected/],
    ['grid of the wrong size', () => breakTopo((t) => (t.grid = { w: 3, h: 2 })), /bad\.jsonl:1: topology 'c104': field 'grid'/],
    ['a switch event outside the network', () => text.replace(/"node":\d+(,"packet":\d+,"unit":"c104_)/, '"node":7$1'), /bad\.jsonl:\d+: switch 7 is outside 0\.\.3 of the C104 network in the header$/],
    ['a switch unit on another switch', () => text.replace(/"node":0(,"packet":\d+,"unit":"c104_0_0)/, '"node":1$1'), /bad\.jsonl:\d+: unit 'c104_0_0\.in\d+ \(packet \d+(: data)?\)' is not on switch 1 \(c104_0_1\)/],
  ];
  for (const [what, make, msg] of bad) {
    it(`bad topology (${what}): one error line, exit 2, no page`, async () => {
      writeFileSync(join(dir, 'bad.jsonl'), make());
      const out = join(dir, 'bad.html');
      const r = await run(['view', join(dir, 'bad.jsonl'), '--out', out]);
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(msg);
      expect(existsSync(out)).toBe(false);
    });
  }
});
