/** `icemu c104`: a small run delivers every message and prints the summary; bad presets and flags get one line and status 2. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../harness/cli.ts';
import { parseTrace } from '../../traces/events/vocabulary.ts';

const dir = mkdtempSync(join(tmpdir(), 'icemu-c104-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    return { code: await main(argv), out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('icemu c104', () => {
  it('pair-c104: every message delivered; summary and events written', async () => {
    const events = join(dir, 'c104.jsonl');
    const r = await run(['c104', 'pair-c104', '--messages', '3', '--bytes', '6', '--events', events, '--quiet']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/two T9000s through one C104; policy fifo, timing thesis \(routing delay 4 cycles\), buffers stc104/);
    expect(r.out).toMatch(/messages: 12 sent, 12 delivered/);
    const { events: ev } = parseTrace(readFileSync(events, 'utf8'));
    expect(ev.filter((e) => e.kind === 'message-complete')).toHaveLength(12);
    expect(ev.some((e) => e.kind === 'grant')).toBe(true);
  });
  it('bad preset and flags: one line, status 2', async () => {
    const a = await run(['c104', 'ring']);
    expect(a.code).toBe(2);
    expect(a.err).toBe("icemu c104: --preset must be one of pair-c104, chain, mesh, puma (got 'ring')");
    const b = await run(['c104', 'mesh', '--policy', 'lifo']);
    expect(b.code).toBe(2);
    expect(b.err).toBe("icemu c104: --policy must be one of fifo, random, net-first, oldest-first, hops-first (got 'lifo')");
    const c = await run(['c104', 'mesh', '--width', '16', '--height', '16']);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(/needs 512 virtual link labels; a T9000 has at most 255/);
  });
});
