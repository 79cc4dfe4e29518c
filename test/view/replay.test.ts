/**
 * The replay model (harness/view/model.ts, replay.ts): the state at cycle c
 * from a trace, against hand-worked values and against a brute-force scan
 * of the events (property test); and the bad-input errors of loading.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTrace, type TraceEvent, type TraceHeader } from '../../traces/events/vocabulary.ts';
import { modelFromText, ViewInputError } from '../../harness/view/load.ts';
import { nextEventTime, occupancy, packetsAt, pathOf, prevEventTime, stateAt } from '../../harness/view/replay.ts';

const H: TraceHeader = { format: 'icemu-events', version: 1, model: 'rtl', unit: 'cycles', topology: { kind: 'buzzard-ncube', n: 2 } };
const ev = (t: number, kind: TraceEvent['kind'], node: number, port: number, msg = 0, packet?: number, unit?: string): TraceEvent => ({ t, kind, msg, node, port, ...(packet === undefined ? {} : { packet }), ...(unit ? { unit } : {}) });

// 2-cube: message 4 from node 0 to node 3: link 0→1 (port 1), then 1→3 (port 2).
const HAND: TraceEvent[] = [
  ev(10, 'message-queued', 0, 1, 4, undefined, 'nop'),
  ev(20, 'link-busy', 0, 1),
  ev(20, 'packet-injected', 0, 1, 4, 0, 'nop'),
  ev(20, 'head-arrives', 1, 1, 4, 0, 'pbu1'),
  ev(30, 'link-held', 0, 1),
  ev(35, 'link-released', 0, 1),
  ev(40, 'link-idle', 0, 1),
  ev(50, 'grant', 1, 2, 4, 0, 'pbu1'),
  ev(51, 'link-busy', 1, 2),
  ev(51, 'packet-forwarded', 1, 2, 4, 0, 'pbu1'),
  ev(51, 'head-arrives', 3, 2, 4, 0, 'pbu2'),
  ev(60, 'buffer-full', 3, 2, 0, undefined, 'pbu2'),
  ev(71, 'link-idle', 1, 2),
  ev(82, 'packet-forwarded', 3, 0, 4, 0, 'pbu2'),
  ev(83, 'head-arrives', 3, 0, 4, 0, 'nip'),
  ev(90, 'buffer-free', 3, 2, 0, undefined, 'pbu2'),
  ev(99, 'message-complete', 3, 0, 4, 0, 'nip'),
];
const hand = () => modelFromText(formatTrace(H, HAND), 'hand.jsonl');

describe('replay model: state at a cycle', () => {
  it('hand-worked 2-cube trace: packet position, occupancy, held, full, path, stepping', () => {
    const m = hand();
    // link ids: node·n + port − 1
    expect(packetsAt(m, 19)).toEqual([]);
    expect(packetsAt(m, 20).map((p) => [p.msg, p.packet, p.link, p.hop])).toEqual([[4, 0, 0, 0]]);
    expect(packetsAt(m, 50).map((p) => p.link)).toEqual([0]);
    expect(packetsAt(m, 51).map((p) => [p.link, p.hop])).toEqual([[3, 1]]);
    expect(packetsAt(m, 82).map((p) => p.link)).toEqual([3]);
    expect(packetsAt(m, 83)).toEqual([]);
    // link 0 busy in cycles 20..39: window (c-w, c]
    expect(occupancy(m, 0, 39, 20)).toBe(1);
    expect(occupancy(m, 0, 29, 20)).toBe(0.5);
    expect(occupancy(m, 0, 59, 20)).toBe(0);
    expect(occupancy(m, 3, 60, 10)).toBe(1);
    const s = stateAt(m, 32, 10);
    expect(s.held[0]).toBe(1);
    expect(stateAt(m, 35, 10).held[0]).toBe(0);
    expect(stateAt(m, 60, 10).full[3 * 2 + 1]).toBe(1);
    expect(stateAt(m, 90, 10).full[3 * 2 + 1]).toBe(0);
    expect(pathOf(m, 4)).toEqual([0, 3]);
    expect(nextEventTime(m, 20)).toBe(30);
    expect(prevEventTime(m, 30)).toBe(20);
    expect(nextEventTime(m, 99)).toBe(99);
    const msg = m.msgs.find((q) => q.id === 4)!;
    expect([msg.src, msg.dest, msg.queued, msg.complete, msg.packets]).toEqual([0, 3, 10, 99, 1]);
    expect(msg.rows).toEqual([
      { node: 0, unit: 'nop', arrive: -1, grant: -1, forward: 20 },
      { node: 1, unit: 'pbu1', arrive: 20, grant: 50, forward: 51 },
      { node: 3, unit: 'pbu2', arrive: 51, grant: -1, forward: 82 },
    ]);
  });

  it('property: occupancy, held and packets at any cycle equal a brute-force scan of random traces', () => {
    const n = 2;
    const arb = fc.record({
      periods: fc.array(fc.record({ link: fc.integer({ min: 0, max: 7 }), start: fc.integer({ min: 0, max: 3000 }), len: fc.integer({ min: 1, max: 400 }) }), { maxLength: 12 }),
      packets: fc.array(fc.record({ src: fc.integer({ min: 0, max: 3 }), start: fc.integer({ min: 0, max: 3000 }), gaps: fc.array(fc.integer({ min: 0, max: 900 }), { minLength: 1, maxLength: 3 }) }), { maxLength: 10 }),
      probes: fc.array(fc.integer({ min: 0, max: 5000 }), { minLength: 1, maxLength: 20 }),
      w: fc.integer({ min: 1, max: 700 }),
    });
    fc.assert(
      fc.property(arb, ({ periods, packets, probes, w }) => {
        const events: TraceEvent[] = [];
        // non-overlapping periods per link: keep those that start after the previous one ended
        const lastEnd = new Map<number, number>();
        const busy: [number, number, number][] = [];
        for (const p of [...periods].sort((a, b) => a.start - b.start)) {
          if ((lastEnd.get(p.link) ?? -1) >= p.start) continue;
          lastEnd.set(p.link, p.start + p.len);
          busy.push([p.link, p.start, p.start + p.len]);
          const node = p.link >> 1;
          events.push(ev(p.start, 'link-busy', node, (p.link & 1) + 1), ev(p.start + p.len, 'link-idle', node, (p.link & 1) + 1));
          events.push(ev(p.start, 'link-held', node, (p.link & 1) + 1), ev(p.start + p.len, 'link-released', node, (p.link & 1) + 1));
        }
        const pk: { start: number; hops: [number, number][]; end: number; msg: number }[] = [];
        packets.forEach((q, k) => {
          let t = q.start;
          let x = q.src;
          const hops: [number, number][] = [];
          q.gaps.forEach((g, h) => {
            const port = ((h + k) % n) + 1;
            events.push(ev(t, h === 0 ? 'packet-injected' : 'packet-forwarded', x, port, k, 0, h === 0 ? 'nop' : 'pbu1'));
            hops.push([t, x * n + port - 1]);
            x ^= 1 << (port - 1);
            t += g;
          });
          events.push(ev(t, 'head-arrives', x, 0, k, 0, 'nip'));
          pk.push({ start: q.start, hops, end: t, msg: k });
        });
        events.sort((a, b) => a.t - b.t);
        const m = modelFromText(formatTrace(H, events), 'p.jsonl');
        for (const c of probes) {
          const s = stateAt(m, c, w);
          for (let l = 0; l < 8; l++) {
            let b = 0;
            let held = 0;
            for (const [bl, s0, e0] of busy) {
              if (bl !== l) continue;
              b += Math.max(0, Math.min(e0, c + 1) - Math.max(s0, c - w + 1));
              if (s0 <= c && c < e0) held = 1;
            }
            if (Math.abs(s.occupancy[l]! - b / w) > 1e-12 || s.held[l] !== held) return false;
          }
          const want = pk
            .filter((q) => q.start <= c && c < q.end)
            .map((q) => `${q.msg}@${q.hops.filter(([t]) => t <= c).pop()![1]}`)
            .sort();
          const got = s.packets.map((p) => `${p.msg}@${p.link}`).sort();
          if (JSON.stringify(want) !== JSON.stringify(got)) return false;
        }
        return true;
      }),
      { numRuns: 300, seed: 14 },
    );
  });
});

describe('replay model: bad input is one clear error', () => {
  const good = formatTrace(H, HAND);
  const err = (text: string): string => {
    try {
      modelFromText(text, 'f.jsonl');
    } catch (e) {
      expect(e).toBeInstanceOf(ViewInputError);
      return (e as Error).message;
    }
    throw new Error('no error');
  };
  it('not the vocabulary, truncated, unknown topology, out of range, out of order', () => {
    expect(err('hello\n')).toBe('f.jsonl:1: not valid JSON (not an icemu event trace?)');
    expect(err('{"a":1}\n')).toMatch(/^f\.jsonl:1: first line must be the header/);
    expect(err(good.replace('"message-queued"', '"message-sent"'))).toMatch(/^f\.jsonl:2: field 'kind': expected one of/);
    expect(err(good.slice(0, good.length - 30))).toMatch(/^f\.jsonl:\d+: truncated trace: the last line has no end/);
    expect(err(good.replace('"buzzard-ncube"', '"torus"'))).toBe("f.jsonl:1: unknown topology 'torus' (icemu view draws buzzard-ncube and c104)");
    expect(err(formatTrace({ ...H, topology: undefined }, HAND))).toMatch(/^f\.jsonl:1: unknown topology: the header has no 'topology' field/);
    expect(err(formatTrace({ ...H, topology: { kind: 'buzzard-ncube', n: 0 } }, HAND))).toMatch(/topology field 'n': expected a cube degree 1\.\.16, got 0/);
    expect(err(formatTrace(H, [ev(1, 'link-busy', 4, 1)]))).toBe('f.jsonl:2: node 4 is outside 0..3 of the 2-cube in the header');
    expect(err(formatTrace(H, [ev(1, 'link-busy', 1, 3)]))).toBe('f.jsonl:2: port 3 is outside 0..2 of the 2-cube in the header');
    expect(err(formatTrace(H, [ev(5, 'link-busy', 1, 1), ev(4, 'link-idle', 1, 1)]))).toMatch(/^f\.jsonl:3: time 4 goes back/);
    // the header icemu c104 --events wrote before it carried its topology
    expect(err('{"format":"icemu-events","version":1,"model":"rtl","unit":"cycles","workload":{"system":"c104","preset":"mesh","seed":1}}\n')).toBe(
      'f.jsonl:1: unknown topology: a C104 network (mesh) recorded before traces carried their topology; record it again with icemu c104 --events',
    );
    for (const m of [err('hello\n'), err(good.slice(0, -30))]) expect(m).not.toContain('\n');
  });
  it('a trace written before the topology header (a cube driver workload with n) is still read', () => {
    const old = formatTrace({ ...H, topology: undefined, workload: { source: 'harness/rtl/cube_driver', n: 2 } }, HAND);
    expect(modelFromText(old, 'old.jsonl').n).toBe(2);
  });
});
