/**
 * icemu view on C104 traces, the parts the C104 recorder gained: held links
 * (no credit), full switch input buffers, deadlock rings (recorded from the
 * REPL, `events start`), and switch packets linked to their T9000 packets.
 * Every expectation is worked out from the raw events (c104_expect.ts), not
 * with harness/view; each comparison has a control that breaks one event
 * and sees the comparison fail.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelFromText } from '../../harness/view/load.ts';
import type { ViewModel } from '../../harness/view/model.ts';
import { pathOfMessage, stateAt } from '../../harness/view/replay.ts';
import { ReplEngine } from '../../harness/repl/engine.ts';
import { formatTrace, parseTrace, type TraceEvent, type TraceHeader } from '../../traces/events/vocabulary.ts';
import { c104StatesAt, linkProblems, switchPackets, type Topo } from './c104_expect.ts';
import { recordC104MeshHeld, recordReplRingDeadlock, runIcemu } from './traces.ts';

const dir = mkdtempSync(join(tmpdir(), 'icemu-view-c104s-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ones = (a: Uint8Array): number[] => [...a].flatMap((v, k) => (v ? [k] : []));

/** Cycles where the model and the raw events disagree about held links or full buffers (every state event's cycle and the one before). */
function stateMismatches(m: ViewModel, events: readonly TraceEvent[], topo: Topo): number[] {
  const cycles = new Set<number>();
  for (const e of events) if (/^(link-held|link-released|buffer-full|buffer-free)$/.test(e.kind)) cycles.add(e.t).add(Math.max(0, e.t - 1));
  const bad: number[] = [];
  for (const c of cycles) {
    const want = c104StatesAt(events, topo, c);
    const s = stateAt(m, c, 500);
    if (JSON.stringify([ones(s.held), ones(s.full)]) !== JSON.stringify([want.held, want.full])) bad.push(c);
  }
  return bad;
}

describe('a C104 mesh run (icemu c104 --events, 40-byte messages)', () => {
  let header: TraceHeader;
  let events: TraceEvent[];
  let topo: Topo;
  let m: ViewModel;
  beforeAll(async () => {
    const text = await recordC104MeshHeld(join(dir, 'mesh.jsonl'));
    ({ header, events } = parseTrace(text));
    topo = header.topology as unknown as Topo;
    m = modelFromText(text, 'mesh.jsonl');
  });

  it('records held links and full switch input buffers; at every cycle where one changes, the model says what the raw events say', () => {
    expect(events.filter((e) => e.kind === 'link-held').length).toBeGreaterThan(0);
    expect(events.filter((e) => e.kind === 'buffer-full').length).toBeGreaterThan(0);
    expect(stateMismatches(m, events, topo)).toEqual([]);
  });

  it('control: one link-held moved a cycle later is seen as a mismatch', () => {
    const k = events.findIndex((e) => e.kind === 'link-held');
    const moved = events.map((e, j) => (j === k ? { ...e, t: e.t + 1 } : e)).sort((a, b) => a.t - b.t);
    const shifted = modelFromText(formatTrace(header, moved), 'moved.jsonl');
    expect(stateMismatches(shifted, events, topo)).toContain(events[k]!.t);
  });

  it('every switch packet is linked to its T9000 packet: data from its message’s source to its destination, acks back, each once', () => {
    expect(switchPackets(events, topo).size).toBeGreaterThan(40);
    expect(linkProblems(events, topo)).toEqual([]);
  });

  it('control: two data packets of different routes with their messages swapped are caught', () => {
    const pk = [...switchPackets(events, topo)].filter(([, q]) => q.link && !q.link.ack);
    const a = pk[0]!;
    const b = pk.find(([, q]) => JSON.stringify([q.hops[0]![1], q.hops[q.hops.length - 1]![1]]) !== JSON.stringify([a[1].hops[0]![1], a[1].hops[a[1].hops.length - 1]![1]]))!;
    const swap = new Map([[a[1].link!.msg, b[1].link!.msg], [b[1].link!.msg, a[1].link!.msg]]);
    const tag = (n: number): RegExp => new RegExp(`\\(packet ${n}: data\\)$`);
    const bad = events.map((e) => (tag(a[0]).test(e.unit ?? '') || tag(b[0]).test(e.unit ?? '') ? { ...e, msg: swap.get(e.msg)! } : e));
    expect(linkProblems(bad, topo).length).toBeGreaterThan(0);
  });

  it('following a T9000 message: its path is every link of its data packets and acks, its rows every switch they crossed', () => {
    const pk = [...switchPackets(events, topo).values()];
    expect(m.messages?.length).toBe(16);
    for (const info of m.messages!) {
      const mine = pk.filter((q) => q.link?.msg === info.id);
      expect(mine.filter((q) => q.link!.ack).length).toBeGreaterThan(0);
      expect(pathOfMessage(m, info.id)).toEqual([...new Set(mine.flatMap((q) => q.hops.map(([, l]) => l)))].sort((a, b) => a - b));
      expect(info.rows.map((r) => r.unit).sort()).toEqual(mine.flatMap((q) => q.inputs).sort());
      expect(info.rows.every((r) => /^(data|ack) \d+ \(#\d+\)$/.test(r.pkt ?? ''))).toBe(true);
    }
  });
});

describe('a deadlock recorded from the REPL (icemu repl ring-deadlock, events start ... events stop)', () => {
  let rec: { text: string; out: string[] };
  let events: TraceEvent[];
  let topo: Topo;
  let m: ViewModel;
  beforeAll(async () => {
    rec = await recordReplRingDeadlock(dir);
    const p = parseTrace(rec.text);
    events = p.events;
    topo = p.header.topology as unknown as Topo;
    m = modelFromText(rec.text, 'ring.jsonl');
  });

  it('the trace holds the ring the REPL’s deadlock names, once; the view model has it', () => {
    const said = rec.out.join('\n').match(/deadlock: ring of waiting links (\S+(?: → \S+)+)/)![1]!.split(' → ');
    const dl = events.filter((e) => e.kind === 'deadlock');
    expect(dl).toHaveLength(1);
    expect(new Set(dl[0]!.ring)).toEqual(new Set(said));
    expect(new Set(dl[0]!.ring)).toEqual(new Set(['c104_0.link1', 'c104_1.link1', 'c104_2.link1', 'c104_3.link1']));
    expect(m.deadlocks.map((d) => d.ring)).toEqual([dl[0]!.ring]);
    expect(rec.out.join('\n')).toMatch(/events: wrote .*ring\.jsonl \(cycles 0\.\.8000, \d+ events/);
  });

  it('at the deadlock the ring’s links are held and their buffers full, as the raw events say, and the model agrees at every change', () => {
    const t = events.find((e) => e.kind === 'deadlock')!.t;
    const st = c104StatesAt(events, topo, t);
    for (const u of events.find((e) => e.kind === 'deadlock')!.ring!) {
      const [, s, j] = /^c104_(\d)\.link(\d+)$/.exec(u)!;
      expect(st.held).toContain(Number(s) * 32 + Number(j));
      expect(st.full).toContain(Number(s) * 32 + Number(j));
    }
    expect(stateMismatches(m, events, topo)).toEqual([]);
  });

  it('the switch packets are linked to the T9000 messages the REPL sent', () => {
    const pk = [...switchPackets(events, topo).values()];
    expect(pk.length).toBeGreaterThan(0);
    expect(pk.every((q) => q.link && !q.link.ack)).toBe(true);
  });

  it('a ring member that is not a switch link of the network: icemu view says so in one line, exit 2, no page', async () => {
    writeFileSync(join(dir, 'badring.jsonl'), rec.text.replace(/("ring":\[[^\]]*)"c104_2\.link1"/, '$1"c104_9.link1"'));
    const r = await runIcemu(['view', join(dir, 'badring.jsonl'), '--out', join(dir, 'badring.html')]);
    expect(r.code).toBe(2);
    expect(r.err).toHaveLength(1);
    expect(r.err[0]).toMatch(/badring\.jsonl:\d+: deadlock ring member "c104_9\.link1" is not a switch link/);
    expect(existsSync(join(dir, 'badring.html'))).toBe(false);
  });

  it('control: the same sends on the acyclic chain record no deadlock', async () => {
    const e = new ReplEngine({ preset: 'chain' });
    const path = join(dir, 'chain.jsonl');
    for (const l of [`events start ${path}`, 'send 0 0 96', 'send 1 2 96', 'run 8000', 'deadlock', 'events stop']) expect((await e.exec(l)).error).toBeUndefined();
    const t = parseTrace(readFileSync(path, 'utf8'));
    expect(t.events.filter((x) => x.kind === 'deadlock')).toEqual([]);
    expect(t.events.filter((x) => x.kind === 'message-complete')).toHaveLength(2);
  });
});

describe('REPL events command', () => {
  const exec = async (e: ReplEngine, l: string): Promise<{ lines: string[]; error?: string }> => e.exec(l);

  it('a Buzzard deadlock (deadlock2, the constructed 4-PBU ring) is recorded with its ring and opens in the view', async () => {
    const e = new ReplEngine({ preset: 'deadlock2' });
    const path = join(dir, 'bz.jsonl');
    const script = readFileSync(join(import.meta.dirname, '../repl/scripts/deadlock.txt'), 'utf8').split('\n');
    expect((await exec(e, `events start ${path}`)).lines[0]).toMatch(/^events: recording into .*bz\.jsonl from cycle 0/);
    for (const l of script) expect((await exec(e, l)).error).toBeUndefined();
    const r = await exec(e, 'events stop');
    expect(r.lines[0]).toMatch(/^events: wrote /);
    const m = modelFromText(readFileSync(path, 'utf8'), 'bz.jsonl');
    expect(m.deadlocks.map((d) => d.ring)).toEqual([['node0.pbu1', 'node2.pbu2', 'node3.pbu1', 'node1.pbu2']]);
    expect(m.msgs.length).toBe(6);
  });

  it('errors are one line: stop without start, start twice, a path that cannot be written, hardware the view does not draw', async () => {
    const e = new ReplEngine({ preset: 'pair-c104' });
    expect((await exec(e, 'events stop')).error).toBe('events stop: no event trace is being recorded');
    expect((await exec(e, 'events')).lines).toEqual(['events: not recording (events start <file>)']);
    writeFileSync(join(dir, 'plain'), '');
    expect((await exec(e, `events start ${join(dir, 'plain', 'y.jsonl')}`)).error).toMatch(/^events start: .*plain/);
    await exec(e, `events start ${join(dir, 'p.jsonl')}`);
    expect((await exec(e, `events start ${join(dir, 'q.jsonl')}`)).error).toMatch(/^events start: already recording into .*p\.jsonl/);
    const d = new ReplEngine({ preset: 'dslink-pair' });
    expect((await exec(d, `events start ${join(dir, 'd.jsonl')}`)).error).toMatch(/^events: a dslink-pair session has no network icemu view draws/);
  });

  it('back ends the recording and writes it up to the cycle left; sends before the start leave the messages out, and the start line says so', async () => {
    const e = new ReplEngine({ preset: 'pair-c104', checkpointEvery: 100 });
    await exec(e, 'send 0 0 40');
    const path = join(dir, 'back.jsonl');
    expect((await exec(e, `events start ${path}`)).lines[0]).toMatch(/messages were sent before the recording started: switch-level packets only/);
    await exec(e, 'run 3000');
    const r = await exec(e, 'back 500');
    expect(r.error).toBeUndefined();
    expect(r.lines.join('\n')).toMatch(/events: the jump ended the recording: wrote .*back\.jsonl \(cycles 0\.\.3000/);
    expect((await exec(e, 'events')).lines[0]).toMatch(/not recording/);
    const t = parseTrace(readFileSync(path, 'utf8'));
    expect(t.events.some((x) => x.kind === 'head-arrives')).toBe(true);
    expect(t.events.filter((x) => x.kind === 'message-queued')).toEqual([]);
  });
});
