import fc from 'fast-check';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_KINDS, formatTrace, parseTrace, readTrace, writeTrace, type TraceEvent, type TraceHeader } from '../../traces/events/vocabulary.ts';

const header: TraceHeader = { format: 'icemu-events', version: 1, model: 'rtl', unit: 'cycles', workload: { name: 'test', seed: 1 } };
const eventArb: fc.Arbitrary<TraceEvent> = fc.record(
  {
    t: fc.nat(1e9),
    kind: fc.constantFrom(...EVENT_KINDS),
    msg: fc.nat(1e6),
    node: fc.nat(1023),
    packet: fc.nat(100),
    unit: fc.constantFrom('pbu1', 'pbu6', 'nip', 'nop'),
    port: fc.nat(10),
  },
  { requiredKeys: ['t', 'kind', 'msg', 'node'] },
);

describe('event traces', () => {
  it('round-trip through JSON lines', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 50 }), (events) => {
        expect(parseTrace(formatTrace(header, events))).toEqual({ header, events });
      }),
    );
  });
  it('write atomically and read back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'icemu-ev-'));
    try {
      const p = join(dir, 'x.jsonl');
      const events: TraceEvent[] = [{ t: 3, kind: 'message-queued', msg: 0, node: 5 }];
      writeTrace(p, header, events);
      expect(readTrace(p).events).toEqual(events);
      expect(readFileSync(p, 'utf8').split('\n')).toHaveLength(3);
    } finally {
      rmSync(dir, { recursive: true });
    }
  });
  it('report malformed lines with the line number and the field', () => {
    const h = JSON.stringify(header);
    expect(() => parseTrace(`${h}\n{"t":1,"kind":"message-queued","msg":0,"node":1}\n{"t":2,"kind":"teleported","msg":0,"node":1}`, 'a.jsonl')).toThrow(/^a\.jsonl:3: field 'kind': expected one of message-queued/);
    expect(() => parseTrace(`${h}\n{"t":-1,"kind":"grant","msg":0,"node":1}`, 'b')).toThrow("b:2: field 't': expected a time >= 0, got -1");
    expect(() => parseTrace(`${h}\nnot json`, 'c')).toThrow('c:2: not valid JSON');
    expect(() => parseTrace(`{"t":1}`, 'd')).toThrow(/d:1: first line must be the header/);
    expect(() => parseTrace('', 'e')).toThrow('e:1: empty trace');
  });
});
