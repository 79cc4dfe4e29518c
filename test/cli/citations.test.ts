/**
 * Citations a user can follow: no code cites the digests outside the
 * repository (`shared/spec/...`), and no string a user sees (help, result
 * JSON: source, statement, rule, notes) carries the bare `[interp]` tag;
 * readings point to docs/ (readings.md, sources.md, buzzard-ch5.md).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|md)$/.test(f) ? [p] : [];
  });
}

const isComment = (line: string): boolean => /^\s*(\*|\/\/|\/\*\*)/.test(line);

describe('citations', () => {
  const all = ['rtl', 'harness', 'traces', 'bench', 'docs'].flatMap(files);

  it('nothing cites shared/spec', () => {
    const hits = all.filter((p) => readFileSync(p, 'utf8').includes('shared/spec'));
    expect(hits).toEqual([]);
  });

  it('no code line outside comments carries [interp] (strings users see cite docs/ instead)', () => {
    const hits: string[] = [];
    for (const p of all.filter((f) => f.endsWith('.ts'))) {
      readFileSync(p, 'utf8')
        .split('\n')
        .forEach((l, k) => {
          if (l.includes('[interp]') && !isComment(l) && !/\/\/.*\[interp\]/.test(l)) hits.push(`${p}:${k + 1}`);
        });
    }
    expect(hits).toEqual([]);
  });

  it('the docs/ anchors the code cites exist', () => {
    const ch5 = readFileSync('docs/buzzard-ch5.md', 'utf8');
    expect(ch5).toMatch(/^## Statement readings$/m);
    expect(ch5).toMatch(/^## Wormhole source slot$/m);
    expect(readFileSync('docs/readings.md', 'utf8')).toMatch(/^### oliver-graphs-axes$/m);
  });
});
