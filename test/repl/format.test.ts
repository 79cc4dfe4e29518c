/** REPL text layout: tables aligned whatever the colour codes, cut trace cells marked. */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { table, visibleWidth } from '../../harness/repl/format.ts';
import { LineTracer } from '../../traces/text/line_trace.ts';
import type { Simulator } from '../../rtl/kernel/index.ts';

const strip = (s: string): string => s.replace(/\x1b\[[0-9;]*m/g, '');

describe('REPL text layout', () => {
  it('a table is aligned in a colour terminal: escape codes take no width', () => {
    const c = new Chalk({ level: 3 });
    const rows = [
      ['node0 -1-> node1', c.green('carrying bits'), 'x'],
      ['node1 -1-> node0', 'idle', 'y'],
      ['node2 -2-> node0', c.yellow('held (receiver blocks)'), 'z'],
    ];
    const lines = table(['link', 'state', 'packet'], rows, c).map(strip);
    const col = lines.map((l) => l.lastIndexOf(' ') + 1); // where the last column starts
    expect(new Set(col).size).toBe(1);
    expect(visibleWidth(c.red('abc'))).toBe(3);
    // negative control: padding by string length (codes counted) misaligns the same rows
    const naive = rows.map((r) => r.map((x, k) => (k < 2 ? x.padEnd(30) : x)).join('  ')).map(strip);
    expect(new Set(naive.map((l) => l.lastIndexOf(' ') + 1)).size).toBeGreaterThan(1);
  });

  it('a trace cell too long for its column ends in ~ instead of showing another number', () => {
    const t = new LineTracer([{ header: 'pkt', width: 6, value: () => '2→5#733' }], () => undefined);
    const line = t.line({ cycle: 7 } as Simulator);
    expect(line).toContain('2→5#7~');
    expect(line).not.toMatch(/2→5#73(?!3)/);
  });
});
