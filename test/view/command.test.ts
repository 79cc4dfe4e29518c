/**
 * `icemu view` as a command: a page for a good trace (nothing else left in
 * the directory), and for bad input one error line, exit status 2 and no
 * page written; output paths checked before any work, a non-regular target
 * never replaced.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formatTrace, type TraceHeader } from '../../traces/events/vocabulary.ts';
import { runIcemu as run } from './traces.ts';

const dir = mkdtempSync(join(tmpdir(), 'icemu-view-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const H: TraceHeader = { format: 'icemu-events', version: 1, model: 'rtl', unit: 'cycles', topology: { kind: 'buzzard-ncube', n: 1 } };
const GOOD = formatTrace(H, [
  { t: 3, kind: 'link-busy', msg: 0, node: 0, port: 1 },
  { t: 9, kind: 'link-idle', msg: 0, node: 0, port: 1 },
]);

describe('icemu view', () => {
  it('writes one self-contained page (no external references) and leaves no temporary file', async () => {
    const sub = join(dir, 'ok');
    execFileSync('mkdir', ['-p', sub]);
    writeFileSync(join(sub, 't.jsonl'), GOOD);
    const r = await run(['view', join(sub, 't.jsonl')]);
    expect(r.code).toBe(0);
    expect(r.out.join('\n')).toContain('t.html');
    const html = readFileSync(join(sub, 't.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/); // the SVG namespace is a name, not a fetch
    expect(readdirSync(sub).sort()).toEqual(['t.html', 't.jsonl']);
  });

  it('an 8-cube trace is drawn as one 6-subcube; --subcube is checked against the cube', async () => {
    const f = join(dir, 'cube8.jsonl');
    writeFileSync(f, GOOD.replace('"n":1', '"n":8'));
    const r = await run(['view', f, '--subcube', '4', '--out', join(dir, 'c8.html')]);
    expect(r.code).toBe(2);
    expect(r.err).toEqual(['icemu view: --subcube must be in 0..3 for a 8-cube (got 4)']);
    expect(existsSync(join(dir, 'c8.html'))).toBe(false);
    expect((await run(['view', f, '--subcube', '3', '--out', join(dir, 'c8.html')])).code).toBe(0);
    expect(readFileSync(join(dir, 'c8.html'), 'utf8')).toContain('"sub":3');
  });

  const bad: [string, string, RegExp][] = [
    ['not the vocabulary', 'hello world\n', /^icemu view: .*bad\.jsonl:1: not valid JSON/],
    ['truncated', GOOD.slice(0, -12), /^icemu view: .*bad\.jsonl:3: truncated trace/],
    ['unknown topology', GOOD.replace('buzzard-ncube', 'c104-mesh'), /^icemu view: .*bad\.jsonl:1: unknown topology 'c104-mesh'/],
    ['empty', '', /^icemu view: .*bad\.jsonl:1: empty trace/],
  ];
  for (const [what, text, msg] of bad) {
    it(`bad input (${what}): one error line, exit 2, no page`, async () => {
      const f = join(dir, 'bad.jsonl');
      writeFileSync(f, text);
      const out = join(dir, `bad-${what.replace(/ /g, '-')}.html`);
      const r = await run(['view', f, '--out', out]);
      expect(r.code).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(msg);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('output paths (the shared harness/cli/output-path.ts): a FIFO with no reader and a directory are refused before any work; a device is written in place; a directory made for a failed run is removed', async () => {
    const f = join(dir, 'good.jsonl');
    writeFileSync(f, GOOD);
    const fifo = join(dir, 'fifo.html');
    execFileSync('mkfifo', [fifo]);
    for (const out of [fifo, dir]) {
      const r = await run(['view', f, '--out', out]);
      expect(r.code, out).toBe(2);
      expect(r.err).toHaveLength(1);
      expect(r.err[0]).toMatch(/^icemu view: --out /);
    }
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(lstatSync(dir).isDirectory()).toBe(true);
    expect((await run(['view', f, '--out', '/dev/null'])).code).toBe(0);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
    writeFileSync(join(dir, 'bad2.jsonl'), 'hello\n');
    const r = await run(['view', join(dir, 'bad2.jsonl'), '--out', join(dir, 'made', 'p.html')]);
    expect(r.code).toBe(2);
    expect(existsSync(join(dir, 'made'))).toBe(false);
    const missing = await run(['view', join(dir, 'missing.jsonl'), '--out', join(dir, 'm.html')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toEqual([`icemu view: ${join(dir, 'missing.jsonl')}: cannot read (ENOENT)`]);
    expect((await run(['view'])).code).toBe(2);
  });
});
