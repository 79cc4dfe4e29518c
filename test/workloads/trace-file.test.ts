/**
 * Explicit workload files (`time source destination length`): round trip
 * with metadata, comments and blank lines, and every error message with its
 * file and line number.
 */
import fc from 'fast-check';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  WorkloadFileError,
  buzzardCh5Workload,
  finalizeMessages,
  formatWorkloadFile,
  littlefieldJigWorkload,
  parseWorkloadFile,
  readWorkloadFile,
  validateWorkload,
  writeWorkloadFile,
  type DraftMessage,
  type Workload,
} from '../../harness/workloads/index.ts';

const draftArb = (n: number): fc.Arbitrary<DraftMessage> =>
  fc
    .record({
      t: fc.oneof(fc.nat(1e9), fc.double({ min: 0, max: 1e12, noNaN: true })),
      src: fc.nat(2 ** n - 1),
      off: fc.integer({ min: 0, max: 2 ** n - 1 }),
      bytes: fc.nat(2 ** 31 - 1),
    })
    .map(({ t, src, off, bytes }) => (off === 0 ? { t, src, dst: src, bytes, kind: 'broadcast' as const } : { t, src, dst: src ^ off, bytes, kind: 'unicast' as const }));

describe('workload trace files', () => {
  it('round-trip any workload (times exact, broadcasts as *, metadata kept)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10 }).chain((n) => fc.tuple(fc.constant(n), fc.array(draftArb(n), { maxLength: 40 }), fc.option(fc.nat(0xffffffff), { nil: null }))),
        ([n, drafts, seed]) => {
          const w: Workload = { name: 'prop', seed, params: { a: 1, b: 'x', c: [1, 2] }, unit: 'cycles', cubeDegree: n, messages: finalizeMessages(drafts) };
          const back = parseWorkloadFile(formatWorkloadFile(w));
          expect(back).toEqual(w);
          validateWorkload(back);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('round-trips a generated Chapter 5 workload including its Rng start state', () => {
    const w = buzzardCh5Workload({ messagesPerNode: 20, seed: 4 });
    expect(parseWorkloadFile(formatWorkloadFile(w))).toEqual(w);
    const j = littlefieldJigWorkload({ L: 4, S: 60 });
    expect(parseWorkloadFile(formatWorkloadFile(j))).toEqual(j);
  });

  it('reads hand-written files: comments, blank lines, trailing comments, defaults', () => {
    const text = ['# a hand-made load', '', '0 0 7 100   # first', '\t5  3 4 0', '', '5 2 * 64', '# done'].join('\n');
    const w = parseWorkloadFile(text, { cubeDegree: 3 });
    expect(w.cubeDegree).toBe(3);
    expect(w.unit).toBe('ticks');
    expect(w.name).toBe('trace-file');
    expect(w.seed).toBeNull();
    expect(w.messages).toEqual([
      { id: 0, t: 0, src: 0, dst: 7, bytes: 100, kind: 'unicast' },
      { id: 1, t: 5, src: 3, dst: 4, bytes: 0, kind: 'unicast' },
      { id: 2, t: 5, src: 2, dst: 2, bytes: 64, kind: 'broadcast' },
    ]);
    // Without a cube directive or option the Chapter 5 default n = 6 applies.
    expect(parseWorkloadFile('1 63 0 5\n').cubeDegree).toBe(6);
    // Windows line ends.
    expect(parseWorkloadFile('1 1 0 5\r\n2 0 1 5\r\n').messages.length).toBe(2);
  });

  it('writes atomically and reads back with the path in errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'icemu-wl-'));
    try {
      const p = join(dir, 'w.txt');
      const w = buzzardCh5Workload({ cubeDegree: 3, messagesPerNode: 5, seed: 9 });
      writeWorkloadFile(p, w);
      expect(readdirSync(dir)).toEqual(['w.txt']);
      expect(readWorkloadFile(p)).toEqual(w);
      const bad = join(dir, 'bad.txt');
      writeWorkloadFile(bad, { ...w, messages: [{ id: 0, t: 0, src: 0, dst: 1, bytes: 1, kind: 'unicast' }] });
      expect(() => readWorkloadFile(bad, { cubeDegree: 4 })).toThrow(`${bad}:4: directive 'cube': 3 disagrees with the requested cube degree 4`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  const cases: [string, string, string][] = [
    ['field count', '0 1 2 3\n1 2 3\n', "f.txt:2: expected 4 fields 'time source destination length', got 3"],
    ['extra field', '\n\n0 1 2 3 4\n', "f.txt:3: expected 4 fields 'time source destination length', got 5"],
    ['time not a number', '# c\nabc 1 2 3\n', "f.txt:2: field 'time': 'abc' is not a number (a time ≥ 0 in ticks)"],
    ['negative time', '-5 1 2 3\n', "f.txt:1: field 'time': -5 is outside 0..∞ (ticks)"],
    ['infinite time', '1e999 1 2 3\n', "f.txt:1: field 'time': '1e999' is outside 0..∞ (ticks)"],
    ['time decreasing', '10 1 2 3\n\n9 1 2 3\n', "f.txt:3: field 'time': 9 is before the time 10 on line 1 (times must not decrease)"],
    ['source not a node', '0 x 2 3\n', "f.txt:1: field 'source': 'x' is not a whole number (node 0..63 of the 6-cube)"],
    ['source outside the cube', '0 64 2 3\n', "f.txt:1: field 'source': 64 is outside 0..63 (node of the 6-cube)"],
    ['destination outside the cube', '# cube: 3\n0 1 2 3\n0 1 8 3\n', "f.txt:3: field 'destination': 8 is outside 0..7 (node of the 3-cube, line 1)"],
    ['destination = source', '0 5 5 3\n', "f.txt:1: field 'destination': 5 equals the source (use * for a broadcast)"],
    ['length not whole', '0 1 2 3.5\n', "f.txt:1: field 'length': '3.5' is not a whole number (bytes 0..2147483647)"],
    ['length too large', '0 1 2 2147483648\n', "f.txt:1: field 'length': 2147483648 is outside 0..2147483647 (bytes)"],
    ['unit directive', '# unit: hours\n', "f.txt:1: directive 'unit': 'hours' is not one of cycles, ticks, us"],
    ['cube directive', '\n# cube: 0\n', "f.txt:2: directive 'cube': '0' is outside 1..16 (cube degree, integer)"],
    ['seed directive', '# seed: -1\n', "f.txt:1: directive 'seed': '-1' is outside 0..4294967295 (integer) or null"],
    ['params directive', '# params: {oops\n', "f.txt:1: directive 'params': not valid JSON"],
    ['params not an object', '# params: [1]\n', "f.txt:1: directive 'params': expected a JSON object"],
  ];
  for (const [what, text, msg] of cases) {
    it(`error: ${what}`, () => {
      let err: unknown;
      try {
        parseWorkloadFile(text, { file: 'f.txt' });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(WorkloadFileError);
      expect((err as Error).message).toBe(msg);
      expect((err as WorkloadFileError).line).toBe(Number(msg.split(':')[1]));
    });
  }

  it('directives after the first message are ordinary comments', () => {
    const w = parseWorkloadFile('0 1 2 3\n# cube: 2\n# unit: hours\n1 1 2 3\n');
    expect(w.cubeDegree).toBe(6);
    expect(w.unit).toBe('ticks');
  });
});
