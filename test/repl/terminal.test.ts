/**
 * The interactive REPL (harness/repl/terminal.ts) driven through a real
 * pseudo-terminal: tmux runs `harness/repl/main.ts cube2` in a detached
 * session; the test types with send-keys and reads the screen with
 * capture-pane. Checks the prompt, a command's output, Tab completion of
 * hierarchical names, Ctrl-C stopping a long run (and clearing a line at the
 * prompt), history (Up arrow and the history file), an error line, and quit.
 * Skipped, with the reason in its name, when tmux is not installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
const hasTmux = spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
const SOCKET = `icemu-repl-test-${process.pid}`;
const SESSION = 'repl';

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
}

function screen(): string {
  return tmux('capture-pane', '-p', '-t', SESSION, '-S', '-300');
}

/** The last non-empty line of the screen (the line being typed). */
function lastLine(): string {
  const lines = screen()
    .split('\n')
    .filter((l) => l.trim() !== '');
  return lines[lines.length - 1] ?? '';
}

async function waitFor(what: RegExp | string, timeoutMs = 20_000, probe: () => string = screen): Promise<string> {
  const t0 = Date.now();
  for (;;) {
    const s = probe();
    if (typeof what === 'string' ? s.includes(what) : what.test(s)) return s;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${String(what)}; screen:\n${s}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function type(text: string): void {
  tmux('send-keys', '-t', SESSION, '-l', text);
}
function key(...keys: string[]): void {
  tmux('send-keys', '-t', SESSION, ...keys);
}

describe('interactive REPL in a pseudo-terminal (tmux)', () => {
  afterAll(() => {
    if (hasTmux) spawnSync('tmux', ['-L', SOCKET, 'kill-server']);
  });

  it.skipIf(!hasTmux)(hasTmux ? 'prompt, output, Tab completion, Ctrl-C, history, errors and quit on a real terminal' : 'SKIPPED: tmux is not installed (apt-get install tmux to run the pseudo-terminal test)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'icemu-tty-'));
    const hist = join(dir, 'history');
    const cmd = `cd ${ROOT} && ICEMU_HISTORY=${hist} ${TSX} harness/repl/main.ts cube2; echo EXITED:$?; sleep 60`;
    tmux('new-session', '-d', '-s', SESSION, '-x', '140', '-y', '50', cmd);

    const start = await waitFor('(icemu 0)', 30_000);
    expect(start).toContain('icemu repl: Buzzard 2-cube (cube2), 4 nodes');
    expect(start).toContain('Tab completes; Ctrl-C stops a run');

    type('send 0 3 20');
    key('Enter');
    await waitFor('message 0: node 0 -> node 3, 20 bytes, type 1, issued at cycle 0');

    // Tab completion: the common prefix, then the list, then pick one
    type('print node0.nop.sta');
    key('Tab');
    await waitFor(/\(icemu 0\) print node0\.nop\.state$/, 5000, lastLine);
    key('Tab');
    await waitFor('node0.nop.state1  node0.nop.state2', 5000);
    type('1');
    key('Enter');
    await waitFor('node0.nop.state1 = 0  0x0  0b0000  IDLE');

    // Ctrl-C stops a long run at a cycle boundary; the REPL carries on
    type('send 0 3 200000');
    key('Enter');
    await waitFor('message 1: node 0 -> node 3, 200000 bytes');
    type('run 100000000');
    key('Enter');
    await new Promise((r) => setTimeout(r, 1200));
    key('C-c');
    const stopped = await waitFor(/stopped at cycle (\d+): interrupted \(Ctrl-C\)/);
    const at = Number(/stopped at cycle (\d+): interrupted/.exec(stopped)![1]);
    expect(at).toBeGreaterThan(1000);
    expect(at).toBeLessThan(100000000);
    expect(stopped).toContain('^C (stopping at the next cycle boundary)');
    type('time');
    key('Enter');
    await waitFor(`cycle ${at} (busy)`);

    // history: Up brings back the last command
    key('Up');
    await waitFor(new RegExp(`\\(icemu ${at}\\) time$`), 5000, lastLine);
    key('C-u');

    // an error is one line and the REPL keeps going
    type('prnt node0.nip.count');
    key('Enter');
    await waitFor(/\nerror: unknown command 'prnt' \(did you mean print\b.*\); type help for the list\n/);

    // Ctrl-C at the prompt drops the line being typed
    type('step 999');
    key('C-c');
    type('pwd');
    key('Enter');
    const afterPwd = await waitFor(new RegExp(`\\(icemu ${at}\\) pwd\\n/\\n`));
    expect(afterPwd).not.toContain(`cycle ${at + 999}`);

    type('quit');
    key('Enter');
    await waitFor('EXITED:0');
    const h = readFileSync(hist, 'utf8');
    expect(h).toContain('send 0 3 20\n');
    expect(h).toContain('run 100000000\n');
  });
});
