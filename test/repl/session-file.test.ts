/** `checkpoint save FILE` / `checkpoint load FILE`: a session replayed from disk reaches the saved state. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReplEngine } from '../../harness/repl/engine.ts';

const dir = mkdtempSync(join(tmpdir(), 'icemu-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function ok(eng: ReplEngine, cmd: string): Promise<string> {
  const r = await eng.exec(cmd);
  expect(r.error, `${cmd} -> ${r.error}`).toBeUndefined();
  return r.lines.join('\n');
}

describe('REPL sessions on disk', () => {
  it('save, then load in a fresh session: same cycle, same state hash; mismatches are refused in one line', async () => {
    const a = new ReplEngine({ preset: 'cube2' });
    await ok(a, 'send 0 3 40');
    await ok(a, 'receive 3 0');
    await ok(a, 'step 57');
    await ok(a, 'send 1 2 10');
    await ok(a, 'step 300');
    const hashA = await ok(a, 'hash');
    const file = join(dir, 's.json');
    expect(await ok(a, `checkpoint save ${file}`)).toBe(`checkpoint save: ${file} (cycle 357, 3 stimulus commands)`);

    const b = new ReplEngine({ preset: 'cube2' });
    expect(await ok(b, `checkpoint load ${file}`)).toMatch(/^checkpoint load: .*s\.json: cycle 357, 3 stimulus commands replayed, state \S+ as saved$/);
    expect(await ok(b, 'hash')).toBe(hashA);

    // refusals
    expect((await b.exec(`checkpoint load ${file}`)).error).toMatch(/start from a fresh session/);
    const c3 = new ReplEngine({ preset: 'cube3' });
    expect((await c3.exec(`checkpoint load ${file}`)).error).toMatch(/is for another cube configuration \(cube2\)/);
    const tampered = join(dir, 't.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    writeFileSync(tampered, JSON.stringify({ ...doc, commands: doc.commands.slice(0, 2) })); // a command missing: another state
    const c = new ReplEngine({ preset: 'cube2' });
    expect((await c.exec(`checkpoint load ${tampered}`)).error).toMatch(/reached cycle 357 state \S+, the file says cycle 357 state/);
    expect((await new ReplEngine({ preset: 'cube2' }).exec(`checkpoint load ${join(dir, 'none.json')}`)).error).toMatch(/cannot read .*none\.json: ENOENT/);
    expect((await a.exec(`checkpoint save ${join(dir, 's.json', 'x')}`)).error).toMatch(/^checkpoint save: .*is not a directory/);
    // a plain named checkpoint still works, and extra words are refused
    expect(await ok(a, 'checkpoint here')).toMatch(/^checkpoint here at cycle 357/);
    expect((await a.exec('checkpoint a b')).error).toMatch(/unexpected 'b'/);
  });
});
