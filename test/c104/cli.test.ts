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
    expect(c.err).toMatch(/needs 512 virtual link labels; virtual-link addressing allows at most 255 /);
  });
});

describe('icemu c104 --addressing (docs/t9000.md#addressing)', () => {
  it("node: a mesh delivers every message with node headers; auto keeps virtual-link when the labels fit and takes node when they do not", async () => {
    const a = await run(['c104', 'mesh', '--width', '2', '--height', '2', '--messages', '2', '--bytes', '40', '--addressing', 'node', '--quiet']);
    expect(a.code).toBe(0);
    expect(a.out).toMatch(/addressing node;/);
    expect(a.out).toMatch(/messages: (\d+) sent, \1 delivered \(\1 byte-exact\)/);
    const b = await run(['c104', 'mesh', '--width', '2', '--height', '2', '--messages', '2', '--quiet']);
    expect(b.out).toMatch(/addressing virtual-link;/);
    // 6x6 with ±5: 36 endpoints with up to 35 partners need 1,260 labels > 255
    const c = await run(['c104', 'mesh', '--width', '6', '--height', '6', '--pattern', 'thesis', '--window', '5', '--interval', '20', '--cycles', '3500', '--quiet']);
    expect(c.code).toBe(0);
    expect(c.out).toMatch(/addressing node;/);
    const d = await run(['c104', 'mesh', '--width', '6', '--height', '6', '--pattern', 'thesis', '--window', '5', '--interval', '20', '--cycles', '3500', '--addressing', 'virtual-link', '--quiet']);
    expect(d.code).toBe(2);
    expect(d.err).toMatch(/^icemu c104: a 6x6 mesh with \d+ virtual links per node needs \d+ virtual link labels; virtual-link addressing allows at most 255 \(--addressing node has no such limit\)$/);
  });
  it('a bad value: one line, status 2', async () => {
    const r = await run(['c104', 'mesh', '--addressing', 'socket']);
    expect(r.code).toBe(2);
    expect(r.err).toBe("icemu c104: --addressing must be one of auto, virtual-link, node (got 'socket')");
  });
});
