/** The npm package ships the CLI and its sources, not the tests (package.json "files"). */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('npm package contents', () => {
  it('contains the launcher, the CLI and the docs, and no test/ or bench/ file', () => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const files = (JSON.parse(out) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    for (const f of ['bin/icemu.mjs', 'harness/cli.ts', 'traces/files.ts', 'docs/readings.md', 'package.json', 'README.md']) expect(files).toContain(f);
    expect(files.filter((f) => f.startsWith('test/') || f.startsWith('bench/'))).toEqual([]);
  });
});
