/**
 * Users' files are sacred (traces/files.ts, harness/cli/output-path.ts):
 * outputs checked before the run, one error line and exit 2, no stack trace,
 * nothing half written left behind, no non-regular file replaced. The FIFO
 * and symlinks live in a temporary directory; the only device written is
 * /dev/full, which the code writes in place (it cannot be replaced: the
 * test checks it is still a character device afterwards).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { abortOutputs, checkOutputPath, OutputFile, OutputPathError, openOutputCount, writeOutput } from '../../traces/files.ts';
import { icemu } from './helpers.ts';

const dir = fs.mkdtempSync(join(tmpdir(), 'icemu-files-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const fifo = join(dir, 'fifo');
execFileSync('mkfifo', [fifo]);
const plain = join(dir, 'plain.txt');
fs.writeFileSync(plain, 'keep me\n');
const linkToPlain = join(dir, 'link-to-plain');
fs.symlinkSync('plain.txt', linkToPlain);
const linkToFifo = join(dir, 'link-to-fifo');
fs.symlinkSync('fifo', linkToFifo);
const hasDevFull = fs.existsSync('/dev/full') && fs.statSync('/dev/full').isCharacterDevice();

/** Every path under dir with its type, and the content of regular files: what a run must leave alone. */
function snapshot(): string {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d).sort()) {
      const p = join(d, e);
      const st = fs.lstatSync(p);
      if (st.isDirectory()) {
        out.push(`${p}/`);
        walk(p);
      } else if (st.isSymbolicLink()) out.push(`${p} -> ${fs.readlinkSync(p)}`);
      else if (st.isFIFO()) out.push(`${p} fifo`);
      else out.push(`${p} ${fs.readFileSync(p, 'utf8').length}:${fs.readFileSync(p, 'utf8').slice(0, 20)}`);
    }
  };
  walk(dir);
  return out.join('\n');
}

const run = icemu;

describe('output files (traces/files.ts)', () => {
  it('a regular file is replaced through a temporary file; a symlink stays a link and its target gets the content', () => {
    const p = join(dir, 'sub', 'deeper', 'a.txt');
    writeOutput(p, 'one\n');
    expect(fs.readFileSync(p, 'utf8')).toBe('one\n');
    writeOutput(linkToPlain, 'through the link\n');
    expect(fs.lstatSync(linkToPlain).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(plain, 'utf8')).toBe('through the link\n');
    fs.writeFileSync(plain, 'keep me\n');
    fs.rmSync(join(dir, 'sub'), { recursive: true });
  });

  it('refuses a FIFO without a reader, a directory, and paths under a file or /proc, in one line and without hanging', () => {
    const cases: [string, RegExp][] = [
      [fifo, /is a FIFO with no reader/],
      [linkToFifo, /is a FIFO with no reader/],
      [dir, /is a directory/],
      [join(plain, 'x.vcd'), /is not a directory/],
      ['/proc/icemu-nope/x.vcd', /cannot create directory \/proc\/icemu-nope/],
      ['', /empty path/],
    ];
    for (const [p, re] of cases) {
      let err: unknown;
      try {
        checkOutputPath(p, '--vcd');
      } catch (e) {
        err = e;
      }
      expect(err, p).toBeInstanceOf(OutputPathError);
      expect((err as Error).message).toMatch(re);
      expect((err as Error).message).toMatch(/^--vcd /);
      expect((err as Error).message.split('\n')).toHaveLength(1);
    }
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
    expect(fs.existsSync('/proc/icemu-nope')).toBe(false);
  });

  it('a FIFO with a reader is written in place, never replaced', async () => {
    const { spawn } = await import('node:child_process');
    const sink = join(dir, 'from-fifo.txt');
    const sinkFd = fs.openSync(sink, 'w');
    const cat = spawn('cat', [fifo], { stdio: ['ignore', sinkFd, 'inherit'] });
    fs.closeSync(sinkFd);
    const closed = new Promise((r) => cat.on('close', r));
    // until cat has opened its end, the FIFO has no reader and is refused
    const big = 'through the pipe\n'.repeat(20_000); // more than a pipe holds: the writer waits for its reader
    for (let k = 0; ; k++) {
      try {
        writeOutput(fifo, big);
        break;
      } catch (e) {
        expect((e as Error).message).toMatch(/no reader/);
        if (k > 500) throw e;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    await closed;
    expect(fs.readFileSync(sink, 'utf8')).toBe(big);
    fs.rmSync(sink);
    expect(fs.lstatSync(fifo).isFIFO()).toBe(true);
  });

  it.skipIf(!hasDevFull)('a full device fails with one line, is written in place and stays a device', () => {
    expect(() => writeOutput('/dev/full', 'x'.repeat(1000), '--events')).toThrow(/^--events \/dev\/full: no space left on device$/);
    expect(fs.statSync('/dev/full').isCharacterDevice()).toBe(true);
    expect(openOutputCount()).toBe(0);
  });

  it('abortOutputs removes open temporary files and the directories created for them, and only those', () => {
    const keep = join(dir, 'existing');
    fs.mkdirSync(keep);
    const f = new OutputFile(join(keep, 'new', 'deep', 'x.json'));
    f.write('{}');
    expect(fs.existsSync(f.writePath)).toBe(true);
    abortOutputs();
    expect(fs.existsSync(join(keep, 'new'))).toBe(false);
    expect(fs.existsSync(keep)).toBe(true);
    fs.rmdirSync(keep);
  });
});

describe('the CLI with bad paths, flags and config files', () => {
  const configs: Record<string, string> = {
    'n-string.json': '{"n":"3"}',
    'n-big.json': '{"n":99}',
    'unknown.json': '{"bogus":1}',
    'broken.json': '{"n":',
    'array.json': '[1,2]',
  };
  for (const [f, text] of Object.entries(configs)) fs.writeFileSync(join(dir, f), text);
  const script = join(dir, 'empty-script.txt');
  fs.writeFileSync(script, '');
  const before = snapshot();

  // bad for a file option (a directory is a good --out DIR, so it is only in the file list)
  const badDirs = [fifo, linkToFifo, join(plain, 'x.vcd'), '/proc/icemu-nope/x.vcd', '/etc/passwd/x.vcd', ...(hasDevFull ? ['/dev/full'] : [])];
  const badFiles = [...badDirs, dir];
  const fileCommands: ((p: string) => string[])[] = [
    (p) => ['demo', '--cycles', '50', '--trace', '0', '--quiet', '--vcd', p],
    (p) => ['demo', '--cycles', '50', '--trace', '0', '--quiet', '--vcd', p, '--signals', 'fifo.*'],
    (p) => ['buzzard', '--n', '1', '--cycles', '1000', '--quiet', '--vcd', p],
    (p) => ['buzzard', '--n', '1', '--cycles', '1000', '--quiet', '--no-vcd', '--events', p],
  ];
  const dirCommands: ((p: string) => string[])[] = [
    (p) => ['compare', 'zero-load', '--quick', '--quiet', '--out', p],
    (p) => ['experiment', 'oliver-graphs', '--quick', '--quiet', '--jobs', '1', '--out', p],
    (p) => ['experiment', 'merge', p],
  ];
  const badFlags: string[][] = [
    ['demo', 'foo'],
    ['buzzard', 'extra-arg'],
    ['demo', '--signals', 'nosuch.*', '--vcd', join(dir, 'never', 'x.vcd')],
    ['demo', '--cycles', 'lots'],
    ['demo', '--bogus'],
    ['buzzard', '--n', '0'],
    ['buzzard', '--routing', 'sideways'],
    ['compare'],
    ['experiment', 'nosuch'],
    ['experiment', 'merge', join(dir, 'no-such-dir')],
    ['nosuch-command'],
  ];
  const badConfigs = Object.keys(configs).map((f) => ['repl', join(dir, f), '--script', script]);

  it('property: one line on stderr, exit status 2, no stack trace, nothing left behind, no FIFO, link or device touched', async () => {
    const arb = fc.oneof(
      fc.tuple(fc.constantFrom(...fileCommands), fc.constantFrom(...badFiles)).map(([c, p]) => c(p)),
      fc.tuple(fc.constantFrom(...dirCommands), fc.constantFrom(...badDirs)).map(([c, p]) => c(p)),
      fc.constantFrom(...badFlags),
      fc.constantFrom(...badConfigs),
    );
    await fc.assert(
      fc.asyncProperty(arb, async (argv) => {
        const r = await run(argv);
        const ctx = argv.join(' ');
        expect(r.code, ctx).toBe(2);
        expect(r.err.split('\n'), `${ctx}\n${r.err}`).toHaveLength(1);
        expect(r.err, ctx).toMatch(/^icemu\b/);
        expect(r.err, ctx).not.toMatch(/\n\s+at |Error:|node:internal/);
        expect(snapshot(), ctx).toBe(before);
        expect(fs.existsSync('/dev/full.gtkw')).toBe(false);
        if (hasDevFull) expect(fs.statSync('/dev/full').isCharacterDevice()).toBe(true);
        expect(openOutputCount()).toBe(0);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  it('negative control: a good path is written (the snapshot sees new files)', async () => {
    const before2 = snapshot();
    const r = await run(['demo', '--cycles', '50', '--trace', '0', '--quiet', '--vcd', join(dir, 'good', 'd.vcd')]);
    expect(r.code).toBe(0);
    expect(snapshot()).not.toBe(before2);
    expect(fs.readdirSync(join(dir, 'good')).sort()).toEqual(['d.gtkw', 'd.vcd']);
    fs.rmSync(join(dir, 'good'), { recursive: true });
  });

  it.skipIf(process.getuid?.() !== 0)('a character device of our own (a null device made with mknod in the temp dir) is written in place: still a device, no save file beside it', async () => {
    const dev = join(dir, 'null-dev');
    execFileSync('mknod', [dev, 'c', '1', '3']);
    try {
      const r = await run(['demo', '--cycles', '200', '--trace', '0', '--quiet', '--vcd', dev]);
      expect(r.code, r.err).toBe(0);
      expect(fs.statSync(dev).isCharacterDevice()).toBe(true);
      expect(fs.existsSync(`${dev}.gtkw`)).toBe(false);
      expect(fs.readdirSync(dir).filter((f) => f.startsWith('null-dev'))).toEqual(['null-dev']);
    } finally {
      fs.rmSync(dev);
    }
  });

  it('names the option and the reason: /dev/full, a config field that is not an integer, nosuch globs', async () => {
    if (hasDevFull) expect((await run(['demo', '--cycles', '50', '--quiet', '--vcd', '/dev/full'])).err).toBe('icemu demo: --vcd /dev/full: no space left on device');
    expect((await run(['repl', join(dir, 'n-string.json'), '--script', script])).err).toBe(`icemu repl: ${join(dir, 'n-string.json')}: field 'n' must be an integer (got "3")`);
    expect((await run(['demo', '--signals', 'nosuch.*', '--no-vcd'])).err).toMatch(/^icemu demo: --signals: no signal or memory matches 'nosuch\.\*'/);
    expect((await run(['buzzard', 'extra-arg'])).err).toBe("icemu buzzard: unexpected argument 'extra-arg' (buzzard takes options only; see --help)");
    const m = await run(['experiment', 'merge', join(dir, 'no-such-dir')]);
    expect(m.code).toBe(2);
    expect(m.err).toMatch(/cannot read directory .*no-such-dir.*: no such file or directory/);
  });
});

describe('Ctrl-C', () => {
  it('stops a long run at a cycle boundary: partial summary, valid VCD and save file, no temporary file, exit 130', async () => {
    const { spawn } = await import('node:child_process');
    const out = join(dir, 'int');
    const vcd = join(out, 'd.vcd');
    const child = spawn(process.execPath, ['bin/icemu.mjs', 'demo', '--cycles', '100000000', '--trace', '0', '--vcd', vcd], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // wait until the run is under way (the dump has grown past its header)
    for (let k = 0; k < 600; k++) {
      const tmp = fs.existsSync(out) ? fs.readdirSync(out).find((f) => f.endsWith('.tmp')) : undefined;
      if (tmp && fs.statSync(join(out, tmp)).size > 100_000) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGINT');
    const code = await exited;
    expect(code, stderr).toBe(130);
    const m = /Interrupted at cycle ([\d,]+) of 100,000,000/.exec(stdout);
    expect(m, stdout).not.toBeNull();
    const at = Number(m![1]!.replace(/,/g, ''));
    expect(at % 10_000).toBe(0); // a slice boundary
    expect(stdout).toMatch(/Simulated [\d,]+ cycles in/);
    expect(fs.readdirSync(out).sort()).toEqual(['d.gtkw', 'd.vcd']);
    const { readVcd } = await import('../../traces/vcd/index.ts');
    expect(readVcd(vcd).endTime).toBe(2 * at + 1);
  }, 60_000);
});
