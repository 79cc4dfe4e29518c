/**
 * The debugger REPL engine: takes one command line at a time and returns its
 * output lines or one error line. It holds the simulated Buzzard cube, the
 * breakpoints and watches, the checkpoints and the command history needed
 * for reverse stepping. It knows nothing of terminals: harness/repl/
 * terminal.ts (interactive, readline) and script.ts (--script, tests) drive
 * it.
 *
 *   const eng = new ReplEngine({ preset: 'cube3' });
 *   await eng.exec('send 0 7 20');
 *   await eng.exec('break node7.nip.count > 0');
 *   const r = await eng.exec('continue');   // { lines: [...], error?: string }
 *
 * ------------------------------------------------------------ time travel
 * History = the automatic checkpoints (a snapshot every `checkpointEvery`
 * cycles, default 1000, plus cycle 0) and a log of the stimulus commands
 * (send, receive, load, poke) with the cycle each was typed at. Snapshots
 * (Simulator.save) hold the whole machine: state vector, memories, pending
 * stimulus, forces, and the driver's bookkeeping (ReplDriver is a state
 * provider). Memories are kept in 1024-word pages shared between
 * checkpoints when unchanged, so idle node memories cost nothing.
 * `back n` goes to cycle t = now - n: it restores the last automatic
 * checkpoint at or before t, re-applies the logged commands typed in
 * between (at their cycles) and steps to t. The result is the exact state
 * the model had when it first reached t (after the commands typed at t), so
 * its state hash equals the one recorded then. Commands typed after t and
 * checkpoints after t are forgotten: history forks from there. Named
 * checkpoints (`checkpoint NAME`) carry their own history, so `restore NAME`
 * works from any fork.
 *
 * What a restore or `back` resets (JS state outside the model):
 *  - the event recorder (harness/rtl/events.ts) cannot be snapshotted; it is
 *    rebuilt at the restored checkpoint and replayed with the model. Its
 *    events before the checkpoint's cycle are kept; packets that were
 *    already inside the network at the checkpoint are no longer followed
 *    (their later events are missing and their labels show '?'). Packets
 *    injected after it are followed exactly. (A checkpoint at cycle 0 — the
 *    case for short sessions — makes the rebuilt recorder exact.)
 *  - node traces continue after the jump (not printed during the replay);
 *    an open VCD notes the jump in a $comment (traces/vcd/writer.ts) and
 *    does not see the replayed cycles.
 *  - breakpoints, watches, the scope and settings are not part of history:
 *    they stay as they are.
 * A model error while stepping (a unit assertion, e.g. after a poke that
 * breaks a protocol) is reported as one error line and the model is put
 * back, by the same replay, at the start of the failing cycle.
 *
 * ------------------------------------------------------------ running
 * Runs advance in slices and yield to the event loop every ~25 ms, so a
 * Ctrl-C (terminal.ts calls interrupt()) stops them at a cycle boundary.
 * While breakpoints, watches or a `run until` are active the model is
 * stepped one cycle at a time (whole quiescent stretches at once: nothing
 * changes in them), otherwise in large steps.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Memory, Module, Signal, Simulator, type Observer, type Snapshot } from '../../rtl/kernel/index.ts';
import { isGlob, nearestNames } from '../../rtl/kernel/names.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { checkConfig, type BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { attachEvents, type EventRecorder } from '../rtl/events.ts';
import { findDeadlock } from '../rtl/deadlock.ts';
import { FLAG } from '../../rtl/buzzard/header_blocks.ts';
import { attachNodeTrace, type NodeTrace } from '../rtl/node_trace.ts';
import { DEFAULT_CYCLES_PER_TICK, messagePattern } from '../rtl/run_workload.ts';
import { parseWorkloadFile, WorkloadFileError } from '../workloads/trace-file.ts';
import { formatSession, readSession } from './session-file.ts';
import { writeOutput } from '../../traces/files.ts';
import { DisplayList } from './display.ts';
import { idRange, plural } from '../cli/text.ts';
import { planVcd, startVcdOutput, type VcdOutput } from '../cli/vcd-output.ts';
import { EVENT_KINDS, type EventKind, type TraceEvent } from '../../traces/events/vocabulary.ts';
import { compileCondition, ExprError, parseInteger, witness, type Condition, type Ref } from './expr.ts';
import { decode, formatValue, hex, renderWave, signalOptions, type WaveRow } from './format.ts';
import { ReplDriver } from './driver.ts';
import { resolveConfig } from './presets.ts';
import { camRow, camView, checkNode, checkUnit, deadlockView, formatEvent, linksView, messagesView, queuesView, statsView, type ViewContext } from './views.ts';

export interface EngineOptions {
  /** Preset name or JSON config file (presets.ts); ignored when `config` is given. Default 'cube3'. */
  preset?: string;
  /** A BuzzardConfig (partial: seed defaults for the rest). */
  config?: Partial<BuzzardConfig>;
  /** Colour output (chalk). Default false. */
  color?: boolean;
  /** Terminal width for waveforms. Default 120. */
  width?: number;
  /** Cycles between automatic checkpoints (>= 10). Default 1000. */
  checkpointEvery?: number;
  /** Cycles an unbounded run (continue, run until, next-event) may take. Default 1 000 000. */
  runLimit?: number;
}

export interface ExecResult {
  lines: string[];
  /** One line saying what was wrong; the engine's state is as before the command. */
  error?: string;
  /** `quit` was typed. */
  quit?: boolean;
}

/** A user error (bad command, name, value): reported as one line, never a crash. */
export class ReplError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplError';
  }
}

interface LogEntry {
  cycle: number;
  text: string;
  apply: () => void;
}

/** A snapshot with its memories split into shared pages. */
interface Packed {
  cycle: number;
  base: Omit<Snapshot, 'mems'>;
  pages: Float64Array[][];
  depths: number[];
}

interface AutoCheckpoint {
  snap: Packed;
  /** Length of the command log when it was taken. */
  logLen: number;
}

interface NamedCheckpoint {
  name: string;
  snap: Packed;
  autos: AutoCheckpoint[];
  log: LogEntry[];
  events: TraceEvent[];
}

type EventFilter = Partial<Record<'msg' | 'node' | 'packet' | 'port', number>> & { unit?: string };

type Breakpoint =
  | { id: number; type: 'break'; text: string; cond: Condition; prev: boolean; hits: number }
  | { id: number; type: 'watch'; text: string; refs: Ref[]; prev: number[]; hits: number }
  | { id: number; type: 'event'; text: string; kind: EventKind | '*'; filter: EventFilter; hits: number };

interface Trace {
  node: number;
  trace: NodeTrace;
  detach: (() => void) | undefined;
}

type ArgKind = 'none' | 'signal' | 'module' | 'expr' | 'file' | 'checkpoint' | 'command' | 'node';

interface CommandDef {
  name: string;
  aliases: string[];
  usage: string;
  summary: string;
  help: string[];
  arg: ArgKind;
  /** Sub-words offered as the first argument by completion. */
  words?: string[];
  run: (args: string[], rest: string) => void | Promise<void>;
}

const PAGE = 1024;
const MAX_AUTOS = 64;
const SLICE_MS = 25;
const MAX_PRINT = 400;
const EVENT_FILTER_KEYS = ['msg', 'node', 'packet', 'unit', 'port'] as const;

function equalArrays(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

function pack(s: Snapshot, prev: Packed | undefined): Packed {
  const { mems, ...base } = s;
  const pages = mems.map((m, k) => {
    const prevPages = prev?.pages[k];
    const out: Float64Array[] = [];
    for (let a = 0, j = 0; a < m.length; a += PAGE, j++) {
      const view = m.subarray(a, Math.min(m.length, a + PAGE));
      const old = prevPages?.[j];
      out.push(old && equalArrays(old, view) ? old : view.slice());
    }
    return out;
  });
  return { cycle: s.cycle, base, pages, depths: mems.map((m) => m.length) };
}

function unpack(p: Packed): Snapshot {
  const mems = p.depths.map((d, k) => {
    const a = new Float64Array(d);
    p.pages[k]!.forEach((pg, j) => a.set(pg, j * PAGE));
    return a;
  });
  return { ...p.base, mems };
}

const yieldToLoop = (): Promise<void> => new Promise((r) => setImmediate(r));

function errorText(e: unknown): string {
  if (e instanceof ReplError || e instanceof ExprError || e instanceof WorkloadFileError) return e.message;
  if (e instanceof Error) return e.name === 'Error' || e.name === 'RangeError' || e.name === 'SimError' ? e.message : `${e.name}: ${e.message}`;
  return String(e);
}

export class ReplEngine {
  readonly cfg: BuzzardConfig;
  readonly configName: string;
  readonly cube: BuzzardCube;
  readonly sim: Simulator;
  readonly driver: ReplDriver;
  readonly c: ChalkInstance;
  private recorder!: EventRecorder;
  private recObserver!: Observer;
  private recDetach: (() => void) | undefined;
  private readonly commands: CommandDef[];
  private readonly byName = new Map<string, CommandDef>();

  private scope = '';
  private out: string[] = [];
  private stopFlag = false;
  private running = false;
  private lastStop = '';
  width: number;
  /**
   * Where node-trace lines go while a command runs: by default into the
   * command's output lines; a terminal sets this to print them as they come.
   */
  traceSink: ((line: string) => void) | undefined;

  private bps: Breakpoint[] = [];
  private nextBp = 1;

  private every: number;
  private nextAutoAt: number;
  private autos: AutoCheckpoint[] = [];
  private log: LogEntry[] = [];
  private readonly named = new Map<string, NamedCheckpoint>();
  private readonly displays = new DisplayList();
  private namedCounter = 0;
  runLimit: number;

  private readonly traces = new Map<number, Trace>();
  private vcd: { writer: VcdOutput; path: string } | undefined;

  private seen = new Set<TraceEvent>();
  private seenLen = 0;
  private readonly names: string[];

  constructor(opts: EngineOptions = {}) {
    if (opts.config) {
      this.cfg = checkConfig(opts.config);
      this.configName = 'config';
    } else {
      const r = resolveConfig(opts.preset);
      this.cfg = r.config;
      this.configName = r.name;
    }
    this.c = new Chalk({ level: opts.color ? 2 : 0 });
    this.width = opts.width ?? 120;
    const every = opts.checkpointEvery ?? 1000;
    if (!(Number.isInteger(every) && every >= 10)) throw new RangeError(`checkpointEvery: ${every} is not a whole number >= 10`);
    this.every = every;
    this.runLimit = opts.runLimit ?? 1_000_000;
    this.cube = new BuzzardCube(this.cfg);
    this.sim = new Simulator(this.cube);
    this.driver = new ReplDriver(this.sim, this.cube);
    this.names = [...this.sim.net.byName.keys()];
    this.newRecorder([]);
    this.autos.push({ snap: pack(this.sim.save(), undefined), logLen: 0 });
    this.nextAutoAt = this.every;
    this.commands = this.defineCommands();
    for (const c of this.commands) for (const n of [c.name, ...c.aliases]) this.byName.set(n, c);
  }

  // ================================================================ public API

  /** The event recorder currently attached (rebuilt by back / restore). */
  get rec(): EventRecorder {
    return this.recorder;
  }

  get busy(): boolean {
    return this.running;
  }

  get cycle(): number {
    return this.sim.cycle;
  }

  get prompt(): string {
    return `(icemu ${this.sim.cycle}${this.scope ? ` ${this.scope}` : ''}) `;
  }

  /** Ctrl-C: stop the run in progress at the next cycle boundary. Returns whether a run was in progress. */
  interrupt(): boolean {
    if (!this.running) return false;
    this.stopFlag = true;
    return true;
  }

  /** Command names and aliases (for completion and help). */
  commandNames(): string[] {
    return [...this.byName.keys()].sort();
  }

  /** Run one command (already stripped); true for quit. */
  private async dispatch(text: string): Promise<boolean> {
    const sp = text.search(/\s/);
    const word = sp < 0 ? text : text.slice(0, sp);
    const rest = sp < 0 ? '' : text.slice(sp).trim();
    const cmd = this.byName.get(word);
    if (!cmd) {
      const near = nearestNames(word, this.commandNames());
      throw new ReplError(`unknown command '${word}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; type help for the list`);
    }
    if (cmd.name === 'quit') return true;
    await cmd.run(rest ? rest.split(/\s+/) : [], rest);
    return false;
  }

  /** `checkpoint save FILE`: the configuration, the typed stimulus and the state hash reached (session-file.ts). */
  private saveSession(file: string): void {
    const text = formatSession({ configName: this.configName, config: this.cfg, cycle: this.sim.cycle, stateHash: String(this.sim.stateHash()), commands: this.log.map((e) => ({ cycle: e.cycle, text: e.text })) });
    try {
      writeOutput(file, text);
    } catch (e) {
      throw new ReplError(`checkpoint save: ${(e as Error).message}`);
    }
    this.emit(`checkpoint save: ${file} (cycle ${this.sim.cycle}, ${plural(this.log.length, 'stimulus command')})`);
  }

  /** `checkpoint load FILE`: replay a saved session on this fresh one and check the state hash it reaches. */
  private async loadSession(file: string): Promise<void> {
    let s;
    try {
      s = readSession(file);
    } catch (e) {
      throw new ReplError(`checkpoint load: ${(e as Error).message}`);
    }
    if (this.sim.cycle !== 0 || this.log.length) throw new ReplError('checkpoint load: start from a fresh session (cycle 0, no stimulus typed yet)');
    if (JSON.stringify(s.config) !== JSON.stringify(this.cfg)) throw new ReplError(`checkpoint load: ${file} is for another cube configuration (${s.configName}); start icemu repl with it`);
    for (const c of s.commands) {
      if (c.cycle > this.sim.cycle) await this.advance(c.cycle - this.sim.cycle, { checks: false, bounded: true });
      await this.dispatch(c.text);
    }
    if (s.cycle > this.sim.cycle) await this.advance(s.cycle - this.sim.cycle, { checks: false, bounded: true });
    const hash = String(this.sim.stateHash());
    if (this.sim.cycle !== s.cycle || hash !== s.stateHash) throw new ReplError(`checkpoint load: replaying ${file} reached cycle ${this.sim.cycle} state ${hash}, the file says cycle ${s.cycle} state ${s.stateHash}`);
    this.out = [];
    this.emit(`checkpoint load: ${file}: cycle ${s.cycle}, ${plural(s.commands.length, 'stimulus command')} replayed, state ${hash} as saved`);
  }

  /** Run one command line. Never throws: errors come back as `error`. */
  async exec(line: string): Promise<ExecResult> {
    const text = stripComment(line).trim();
    if (!text) return { lines: [] };
    if (this.running) return { lines: [], error: 'a command is still running (Ctrl-C stops it)' };
    this.running = true;
    this.stopFlag = false;
    this.out = [];
    try {
      if (await this.dispatch(text)) return { lines: [], quit: true };
      return { lines: this.out };
    } catch (e) {
      return { lines: this.out, error: errorText(e) };
    } finally {
      this.running = false;
      this.stopFlag = false;
    }
  }

  /** Close an open VCD and stop observing. */
  close(): void {
    if (this.vcd) {
      this.vcd.writer.close();
      this.vcd = undefined;
    }
  }

  private emit(...lines: string[]): void {
    for (const l of lines) this.out.push(l);
  }

  private get view(): ViewContext {
    return { sim: this.sim, cube: this.cube, driver: this.driver, rec: this.recorder, c: this.c };
  }

  // ================================================================ names

  /** Absolute path of `name` relative to the scope ('/' prefix: absolute). */
  private candidatesFor(name: string): string[] {
    if (name.startsWith('/')) return [name.slice(1)];
    return this.scope ? [`${this.scope}.${name}`, name] : [name];
  }

  /** Signals and memories named by `pattern` (a name or glob, relative to the scope first). */
  private lookup(pattern: string): (Signal | Memory)[] {
    return this.lookupScoped(pattern).hits;
  }

  /** Like lookup; `scoped`: the matches were found inside the scope (so they print relative to it). */
  private lookupScoped(pattern: string): { hits: (Signal | Memory)[]; scoped: boolean } {
    const cands = this.candidatesFor(pattern);
    for (let k = 0; k < cands.length; k++) {
      const cand = cands[k]!;
      const scoped = this.scope !== '' && k === 0 && !pattern.startsWith('/');
      if (isGlob(cand)) {
        let hits: (Signal | Memory)[];
        try {
          hits = this.sim.glob(cand);
        } catch (e) {
          throw new ReplError((e as Error).message);
        }
        if (hits.length) return { hits, scoped };
      } else {
        const x = this.sim.net.byName.get(cand);
        if (x) return { hits: [x], scoped };
      }
    }
    if (isGlob(pattern)) throw new ReplError(`no signal or memory matches '${pattern}'${this.scope ? ` (in scope ${this.scope} or from the top)` : ''}`);
    throw new ReplError(this.unknownName(pattern));
  }

  private unknownName(name: string): string {
    const mod = this.findModuleMaybe(name);
    if (mod !== undefined) return `'${name}' is a module, not a signal (print ${name}.* or ls ${name})`;
    const near = new Set<string>();
    for (const cand of this.candidatesFor(name)) for (const s of nearestNames(cand, this.names)) near.add(s);
    const list = [...near].slice(0, 4).map((s) => this.rel(s));
    return `no signal or memory named '${name}'${list.length ? `; did you mean ${list.join(', ')}?` : ''}`;
  }

  /** A name as shown: relative to the scope when inside it. */
  private rel(path: string): string {
    return this.scope && path.startsWith(this.scope + '.') ? path.slice(this.scope.length + 1) : path;
  }

  private sigRef(sig: Signal): Ref {
    const sim = this.sim;
    const states = signalOptions(sim, sig).enum;
    return states ? { name: sig.path, read: () => sim.peek(sig), states } : { name: sig.path, read: () => sim.peek(sig) };
  }

  private memRef(m: Memory, addr: number): Ref {
    if (!(Number.isInteger(addr) && addr >= 0 && addr < m.depth)) throw new ReplError(`${m.path}: address ${addr} is outside 0..${m.depth - 1}`);
    return { name: `${m.path}[${addr}]`, read: () => m.data[addr]! };
  }

  /** Resolver for conditions. */
  private readonly resolveRefs = (name: string, index: number | undefined): Ref[] => {
    const hits = this.lookup(name);
    const refs: Ref[] = [];
    for (const h of hits) {
      if (h instanceof Memory) {
        if (index === undefined) {
          if (hits.length === 1) throw new ReplError(`${h.path} is a memory: name a word, ${h.path}[addr] (0..${h.depth - 1})`);
          continue;
        }
        refs.push(this.memRef(h, index));
      } else {
        if (index !== undefined) throw new ReplError(`${h.path} is a signal, not a memory: drop the [${index}]`);
        refs.push(this.sigRef(h));
      }
    }
    if (!refs.length) throw new ReplError(`'${name}' matches only memories: name a word with [addr]`);
    return refs;
  };

  private compile(text: string): Condition {
    if (!text.trim()) throw new ReplError('missing condition, e.g. node3.pbu1.freeRows == 0');
    return compileCondition(text, this.resolveRefs);
  }

  private findModuleMaybe(path: string): Module | undefined {
    const mods = this.sim.net.modulesByPath;
    if (path === '/' || path === '') return mods.get('');
    for (const cand of this.candidatesFor(path.replace(/\/+$/, ''))) {
      const m = mods.get(cand);
      if (m) return m;
    }
    return undefined;
  }

  private resolveScope(arg: string): string {
    if (arg === '/' || arg === '~') return '';
    let base = arg.startsWith('/') ? '' : this.scope;
    const parts = arg
      .split('/')
      .flatMap((p) => (p === '..' || p === '.' ? [p] : p.split('.')))
      .filter((p) => p !== '' && p !== '.');
    for (const part of parts) {
      if (part === '..') {
        const k = base.lastIndexOf('.');
        base = k < 0 ? '' : base.slice(0, k);
        continue;
      }
      const next = base ? `${base}.${part}` : part;
      if (!this.sim.net.modulesByPath.has(next)) {
        // from the top, as a fallback for absolute paths typed without '/'
        if (base === this.scope && this.sim.net.modulesByPath.has(arg)) return arg;
        const parent = this.sim.net.modulesByPath.get(base)!;
        const near = nearestNames(part, parent.children.map((c) => c.name));
        throw new ReplError(`no module '${next}'${near.length ? `; did you mean ${near.map((n) => (base ? `${base}.${n}` : n)).join(', ')}?` : ''}`);
      }
      base = next;
    }
    return base;
  }

  /** Parse a value: an integer (dec, 0x, 0b) or a state name of `sig`. */
  private parseValue(text: string | undefined, sig?: Signal): number {
    if (text === undefined) throw new ReplError('missing value');
    const v = parseInteger(text);
    if (v !== undefined) return v;
    if (sig) {
      const st = signalOptions(this.sim, sig).enum;
      if (st) {
        const k = st.indexOf(text);
        if (k >= 0) return k;
        const near = nearestNames(text, st);
        throw new ReplError(`bad value '${text}': not a number or a state of ${sig.path}${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; states: ${st.join(' ')}`);
      }
    }
    throw new ReplError(`bad value '${text}': write decimal 12, hex 0xc or binary 0b1100`);
  }

  /** Refuse extra arguments (`step 1 2`) instead of ignoring them. */
  private atMost(a: string[], n: number, usage: string): void {
    if (a.length > n) throw new ReplError(`unexpected '${a.slice(n).join(' ')}' (usage: ${usage})`);
  }

  private intArg(text: string | undefined, what: string, lo: number, hi: number, dflt?: number): number {
    if (text === undefined) {
      if (dflt !== undefined) return dflt;
      throw new ReplError(`missing ${what}`);
    }
    const v = parseInteger(text);
    if (v === undefined || v < lo || v > hi) throw new ReplError(`${what}: '${text}' is not a whole number in ${lo}..${hi}`);
    return v;
  }

  // ================================================================ instruments

  private newRecorder(seed: TraceEvent[]): void {
    const sim = this.sim;
    let captured: Observer | undefined;
    const orig = sim.observe.bind(sim);
    // Catch the recorder's observer, so it can be taken off and put back (wave) without losing its state.
    sim.observe = (o: Observer) => {
      captured = o;
      return orig(o);
    };
    try {
      this.recorder = attachEvents(sim, this.cube, this.driver);
    } finally {
      Reflect.deleteProperty(sim, 'observe');
    }
    this.recObserver = captured!;
    this.recDetach = this.recorder.detach;
    for (const e of seed) this.recorder.events.push(e);
    this.seen = new Set(this.recorder.events);
    this.seenLen = this.recorder.events.length;
  }

  private detachInstruments(): void {
    this.recDetach?.();
    this.recDetach = undefined;
    for (const t of this.traces.values()) {
      t.detach?.();
      t.detach = undefined;
    }
    if (this.vcd) {
      this.vcd.writer.writer.detach?.();
      this.vcd.writer.writer.detach = undefined;
    }
  }

  /** Put the instruments back in order: recorder, traces (which read its labels), VCD. */
  private attachInstruments(rebuiltTraces: boolean): void {
    if (!this.recDetach) this.recDetach = this.sim.observe(this.recObserver);
    for (const t of this.traces.values()) {
      if (rebuiltTraces) {
        t.trace = this.makeTrace(t.node);
        t.detach = t.trace.detach;
      } else if (!t.detach) t.detach = this.sim.observe(t.trace.tracer);
    }
    if (this.vcd && !this.vcd.writer.writer.detach) this.vcd.writer.writer.detach = this.sim.observe(this.vcd.writer.writer);
  }

  private makeTrace(node: number): NodeTrace {
    return attachNodeTrace(this.sim, this.cube, node, { events: this.recorder, sink: (l) => (this.traceSink ? this.traceSink(l) : this.out.push(l)), header: true });
  }

  /** New events since the last call, in time order. */
  private freshEvents(): TraceEvent[] {
    const ev = this.recorder.events;
    if (ev.length === this.seenLen) return [];
    const want = ev.length - this.seenLen;
    const out: TraceEvent[] = [];
    for (let k = ev.length - 1; k >= 0 && out.length < want; k--) {
      const e = ev[k]!;
      if (!this.seen.has(e)) {
        this.seen.add(e);
        out.push(e);
      }
    }
    this.seenLen = ev.length;
    return out.sort((a, b) => a.t - b.t);
  }

  // ================================================================ time

  private autoCheckpoint(): void {
    const last = this.autos[this.autos.length - 1];
    this.autos.push({ snap: pack(this.sim.save(), last?.snap), logLen: this.log.length });
    this.nextAutoAt = this.sim.cycle + this.every;
    if (this.autos.length > MAX_AUTOS) {
      // Thin out: keep cycle 0, the newest and every other one; the interval doubles.
      const n = this.autos.length;
      this.autos = this.autos.filter((_, k) => k === 0 || k === n - 1 || k % 2 === 0);
      this.every *= 2;
    }
  }

  /** Step `k` cycles; on a model error put the model back at the start of the failing cycle and report. */
  private stepSafe(k: number): void {
    try {
      this.sim.step(k);
    } catch (e) {
      const failed = this.sim.cycle;
      let where = '';
      try {
        this.travel(failed);
        where = `; the model is back at cycle ${failed}, before the failing clock edge (use back, poke or restore)`;
      } catch (e2) {
        where = `; the model could not be restored (${errorText(e2)})`;
      }
      throw new ReplError(`${errorText(e)}${where}`);
    }
    if (this.sim.cycle >= this.nextAutoAt) this.autoCheckpoint();
  }

  /**
   * Apply the logged commands from index `from` and step to `target`
   * (commands typed at `target` included). `onChunk(a, b)`: the cycles
   * a+1..b were just simulated (values are constant over a multi-cycle
   * chunk). Returns the index of the first command not applied.
   */
  private replay(from: number, target: number, onChunk?: (a: number, b: number) => void): number {
    const sim = this.sim;
    let i = from;
    for (;;) {
      while (i < this.log.length && this.log[i]!.cycle <= sim.cycle) {
        this.log[i]!.apply();
        i++;
      }
      if (sim.cycle >= target) return i;
      const stop = Math.min(target, i < this.log.length ? this.log[i]!.cycle : Infinity);
      const a = sim.cycle;
      if (onChunk) {
        const k = sim.quiescent ? Math.max(1, Math.min(stop, sim.nextStimulus) - a) : 1;
        sim.step(k);
        onChunk(a, sim.cycle);
      } else sim.step(stop - a);
    }
  }

  private lastAutoAtOrBefore(cycle: number): number {
    let k = this.autos.length - 1;
    while (k > 0 && this.autos[k]!.snap.cycle > cycle) k--;
    return k;
  }

  /** Go to an earlier cycle (or the current one): restore + replay; forget later history. */
  private travel(target: number): { from: number; replayed: number } {
    if (target > this.sim.cycle) throw new ReplError(`cannot travel forward to cycle ${target} (now ${this.sim.cycle}): use run`);
    const k = this.lastAutoAtOrBefore(target);
    const cp = this.autos[k]!;
    const oldEvents = this.recorder.events;
    this.detachInstruments();
    this.sim.restore(unpack(cp.snap));
    this.newRecorder(oldEvents.filter((e) => e.t < cp.snap.cycle));
    const applied = this.replay(cp.logLen, target);
    this.autos.length = k + 1;
    this.log.length = applied;
    this.nextAutoAt = cp.snap.cycle + this.every;
    if (this.nextAutoAt <= this.sim.cycle) this.autoCheckpoint();
    this.attachInstruments(true);
    for (const b of this.bps) if (b.type === 'watch') b.prev = b.refs.map((r) => r.read());
    return { from: cp.snap.cycle, replayed: target - cp.snap.cycle };
  }

  /**
   * Values of `refs` over cycles now-n+1..now, by replaying from a
   * checkpoint; the model ends exactly where it was (same state, same
   * recorder, same history).
   */
  private history(refs: Ref[], n: number): { first: number; values: number[][] } {
    const sim = this.sim;
    const now = sim.cycle;
    const first = Math.max(0, now - n + 1);
    const values: number[][] = refs.map(() => []);
    const record = (times: number): void => {
      refs.forEach((r, k) => {
        const v = r.read();
        for (let t = 0; t < times; t++) values[k]!.push(v);
      });
    };
    const here = sim.save();
    this.detachInstruments();
    try {
      const k = this.lastAutoAtOrBefore(first);
      sim.restore(unpack(this.autos[k]!.snap));
      const i = this.replay(this.autos[k]!.logLen, first);
      record(1);
      this.replay(i, now, (a, b) => record(b - a));
    } finally {
      sim.restore(here);
      this.attachInstruments(false);
    }
    return { first, values };
  }

  /** Record a stimulus command: apply it now (all or nothing) and log it for replay. */
  private stimulus(text: string, apply: () => void): void {
    const pre = this.sim.save();
    try {
      apply();
    } catch (e) {
      this.sim.restore(pre);
      throw e;
    }
    this.log.push({ cycle: this.sim.cycle, text, apply });
  }

  // ================================================================ running

  private get checking(): boolean {
    return this.bps.length > 0;
  }

  /**
   * Advance up to `cycles` cycles. With `checks`, stop at breakpoints,
   * watches, `until` and (with `nextEvent`) at the next event. Returns why it
   * stopped ('' = ran all cycles).
   */
  private async advance(cycles: number, o: { checks: boolean; until?: Condition; nextEvent?: { kind: EventKind | '*'; filter: EventFilter }; bounded: boolean }): Promise<string> {
    const sim = this.sim;
    const end = sim.cycle + cycles;
    // Unbounded runs go cycle by cycle too (quiescent stretches at once), so they stop on the first idle cycle.
    const perCycle = (o.checks && this.checking) || o.until !== undefined || o.nextEvent !== undefined || !o.bounded;
    if (o.checks) {
      for (const b of this.bps) {
        if (b.type === 'break') b.prev = b.cond.test();
        else if (b.type === 'watch') b.prev = b.refs.map((r) => r.read());
      }
    }
    this.freshEvents();
    let sliceStart = performance.now();
    let reason = '';
    while (sim.cycle < end) {
      if (this.stopFlag) {
        reason = 'interrupted (Ctrl-C)';
        break;
      }
      let k: number;
      if (!perCycle) {
        k = Math.min(end - sim.cycle, Math.max(1, this.nextAutoAt - sim.cycle), 5000);
      } else if (sim.quiescent) {
        const nx = sim.nextStimulus;
        if (nx === Infinity && !o.bounded) {
          reason = `idle: nothing is moving and nothing is scheduled${o.until ? ' (the condition cannot become true)' : ''}`;
          break;
        }
        k = Math.max(1, Math.min(end, nx, Math.max(this.nextAutoAt, sim.cycle + 1)) - sim.cycle);
      } else k = 1;
      this.stepSafe(k);
      const hits: string[] = [];
      const fresh = this.freshEvents();
      if (fresh.length && (o.nextEvent || (o.checks && this.bps.some((b) => b.type === 'event')))) {
        if (o.nextEvent) {
          const m = fresh.filter((e) => eventMatches(e, o.nextEvent!.kind, o.nextEvent!.filter));
          if (m.length) hits.push(...m.map((e) => `event ${formatEvent(e)}`));
        }
        if (o.checks) {
          for (const b of this.bps) {
            if (b.type !== 'event') continue;
            for (const e of fresh) {
              if (eventMatches(e, b.kind, b.filter)) {
                b.hits++;
                hits.push(`event breakpoint ${b.id}: ${formatEvent(e)}`);
              }
            }
          }
        }
      }
      if (o.checks) {
        for (const b of this.bps) {
          if (b.type === 'break') {
            const w: string[] = [];
            const now = b.cond.test(w);
            if (now && !b.prev) {
              b.hits++;
              hits.push(`breakpoint ${b.id}: ${b.text}${w.length ? `  [${[...new Set(w)].join(', ')}]` : ''}`);
            }
            b.prev = now;
          } else if (b.type === 'watch') {
            const changes: string[] = [];
            b.refs.forEach((r, i) => {
              const v = r.read();
              if (v !== b.prev[i]) {
                changes.push(`${r.name}: ${this.short(r, b.prev[i]!)} -> ${this.short(r, v)}`);
                b.prev[i] = v;
              }
            });
            if (changes.length) {
              b.hits++;
              hits.push(`watch ${b.id}: ${changes.join(', ')}`);
            }
          }
        }
      }
      if (o.until) {
        const w: string[] = [];
        if (o.until.test(w)) hits.push(`condition ${o.until.text}${w.length ? `  [${[...new Set(w)].join(', ')}]` : ''}`);
      }
      if (hits.length) {
        reason = hits.join('\n  ');
        break;
      }
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToLoop();
        sliceStart = performance.now();
      }
    }
    if (!reason && !o.bounded) reason = `run limit of ${cycles} cycles reached (set run-limit N)`;
    if (reason.startsWith('idle')) reason += this.idleNote();
    return reason;
  }

  /** Why an idle network may be stuck: unfinished messages, a deadlock. */
  private idleNote(): string {
    const d = this.driver;
    const sends = d.sent.filter((m) => d.sendFlag(m).progress !== FLAG.complete).length;
    const recvs = d.receives.filter((r) => d.received(r).progress !== FLAG.complete).length;
    if (!sends && !recvs) return '';
    let dl = '';
    try {
      const x = findDeadlock(this.sim, this.cube);
      if (x) dl = `; deadlock: ${x.cycle.join(' -> ')} (see deadlock)`;
    } catch {
      /* the note is a hint only */
    }
    return `; ${sends} send(s) and ${recvs} receive(s) not complete${dl}`;
  }

  private short(r: Ref, v: number): string {
    return r.states ? `${r.states[v] ?? `?${v}`}` : String(v);
  }

  private report(reason: string): void {
    const line = reason ? `stopped at cycle ${this.sim.cycle}: ${reason}` : `cycle ${this.sim.cycle}`;
    if (reason) this.lastStop = line;
    this.emit(reason ? this.c.yellow(line) : line);
    for (const l of this.displays.lines()) this.emit(l);
  }

  private cmdDisplay(a: string[]): void {
    if (a.length === 0) {
      if (!this.displays.size) this.emit('no displays (display <name | glob>)');
      for (const l of this.displays.lines()) this.emit(l);
      return;
    }
    this.atMost(a, 1, 'display [name | glob | memory[addr]]');
    const m = /^(.*?)(?:\[(\S+)\])?$/.exec(a[0]!)!;
    const refs = this.resolveRefs(m[1]!, m[2] === undefined ? undefined : this.intArg(m[2], 'address', 0, 2 ** 31));
    const id = this.displays.add(a[0]!, refs);
    for (const l of this.displays.lines(id)) this.emit(l);
  }

  private cmdUndisplay(a: string[]): void {
    this.atMost(a, 1, 'undisplay [n]');
    if (a[0] === undefined) {
      this.emit(`removed ${this.displays.remove()} display(s)`);
      return;
    }
    const id = this.intArg(a[0], 'display number', 1, Number.MAX_SAFE_INTEGER);
    if (!this.displays.remove(id)) throw new ReplError(`undisplay: no display ${id}`);
    this.emit(`removed display ${id}`);
  }

  // ================================================================ commands

  private defineCommands(): CommandDef[] {
    const cmds: CommandDef[] = [
      {
        name: 'help',
        aliases: ['h', '?'],
        usage: 'help [command | expressions]',
        summary: 'list the commands, or explain one',
        help: ['Without an argument: every command with its aliases. help <command>: its usage and details.', 'help expressions: the condition grammar used by break, run until and assert.'],
        arg: 'command',
        run: (a) => this.cmdHelp(a[0]),
      },
      // ---------------------------------------------------------------- time
      {
        name: 'step',
        aliases: ['s'],
        usage: 'step [n]',
        summary: 'advance n clock cycles (default 1), ignoring breakpoints',
        help: ['One cycle = one link bit time. The registers and wires shown afterwards are those of the new cycle.'],
        arg: 'none',
        run: async (a) => {
          this.atMost(a, 1, 'step [n]');
          const n = this.intArg(a[0], 'cycle count', 1, Number.MAX_SAFE_INTEGER, 1);
          this.report(await this.advance(n, { checks: false, bounded: true }));
        },
      },
      {
        name: 'next-event',
        aliases: ['ne', 'next'],
        usage: 'next-event [kind] [key=value ...]',
        summary: 'run to the next event of the trace vocabulary (optionally of one kind / filter)',
        help: [
          `Kinds: ${EVENT_KINDS.join(', ')}. Filters: ${EVENT_FILTER_KEYS.join(', ')} (e.g. node=3 unit=pbu1).`,
          'Events are stamped with the cycle they happened in; a few are recognised some cycles later',
          '(e.g. a head is accepted only after the refusal point), so the stamp can be before the stop cycle.',
          'Breakpoints and watches also stop it.',
        ],
        arg: 'none',
        words: [...EVENT_KINDS],
        run: async (a) => {
          const { kind, filter } = this.parseEventSpec(a, true);
          this.report(await this.advance(this.runLimit, { checks: true, nextEvent: { kind, filter }, bounded: false }));
        },
      },
      {
        name: 'run',
        aliases: ['r'],
        usage: 'run [n] | run until <condition>',
        summary: 'run n cycles, or until a condition holds, stopping at breakpoints',
        help: [
          'run n: at most n cycles. run: like continue. run until COND: at least one cycle, then stop at the',
          'first cycle where COND holds (help expressions). Unbounded runs stop when the network is idle',
          'with nothing scheduled, or after the run limit (set run-limit N). Ctrl-C stops a run.',
        ],
        arg: 'expr',
        words: ['until'],
        run: async (a, rest) => {
          if (a[0] === 'until') {
            const cond = this.compile(rest.replace(/^until\b/, '').trim());
            this.report(await this.advance(this.runLimit, { checks: true, until: cond, bounded: false }));
          } else if (a[0] !== undefined) {
            if (a.length > 1) throw new ReplError(`run: unexpected '${a[1]}' (run [n] or run until <condition>)`);
            const n = this.intArg(a[0], 'cycle count', 1, Number.MAX_SAFE_INTEGER);
            this.report(await this.advance(n, { checks: true, bounded: true }));
          } else this.report(await this.advance(this.runLimit, { checks: true, bounded: false }));
        },
      },
      {
        name: 'continue',
        aliases: ['c', 'cont'],
        usage: 'continue',
        summary: 'run until a breakpoint or watch stops it (or the network goes idle)',
        help: ['Same as run without a count.'],
        arg: 'none',
        run: async () => this.report(await this.advance(this.runLimit, { checks: true, bounded: false })),
      },
      {
        name: 'time',
        aliases: ['t'],
        usage: 'time',
        summary: 'the current cycle',
        help: ['Also says whether anything is moving and when the next scheduled stimulus is.'],
        arg: 'none',
        run: () => this.emit(`cycle ${this.sim.cycle}${this.activity()}`),
      },
      // ---------------------------------------------------------------- hierarchy
      {
        name: 'ls',
        aliases: ['dir'],
        usage: 'ls [scope]',
        summary: 'list the child modules and signals of a scope (default: the current one)',
        help: ['Modules end with /. Signals show kind, width and value.'],
        arg: 'module',
        run: (a) => this.cmdLs(a[0]),
      },
      {
        name: 'cd',
        aliases: [],
        usage: 'cd [scope]',
        summary: 'change the current scope (names are then relative to it); cd / or cd alone: the top',
        help: ['cd node3, cd pbu1 (relative), cd .., cd /. Names not found in the scope are looked up from the top.'],
        arg: 'module',
        run: (a) => {
          this.scope = a[0] === undefined ? '' : this.resolveScope(a[0]);
          this.emit(`scope ${this.scope || '/'}`);
        },
      },
      {
        name: 'pwd',
        aliases: [],
        usage: 'pwd',
        summary: 'print the current scope',
        help: [],
        arg: 'none',
        run: () => this.emit(this.scope || '/'),
      },
      {
        name: 'where',
        aliases: ['w'],
        usage: 'where',
        summary: 'where you are: cycle, scope, last stop, pending stimulus, messages',
        help: [],
        arg: 'none',
        run: () => this.cmdWhere(),
      },
      {
        name: 'print',
        aliases: ['p'],
        usage: 'print <name | glob | module | memory[addr] | memory[a..b]> ...',
        summary: 'values in decimal, hex, binary and decoded (states, CAM fields, packets)',
        help: [
          'print node3.pbu1.inState; print node*.nip.count; print node3.pbu1 (every signal of the module);',
          'print node0.nip.fifo.mem[0..3] (memory words). Names are relative to the scope (cd) first.',
        ],
        arg: 'signal',
        run: (a) => {
          if (!a.length) throw new ReplError('print: what? (a signal name, glob or module)');
          for (const x of a) this.cmdPrint(x);
        },
      },
      // ---------------------------------------------------------------- breakpoints
      {
        name: 'break',
        aliases: ['b'],
        usage: 'break <condition> | break event <kind> [key=value ...]',
        summary: 'stop when a condition becomes true, or when an event happens',
        help: [
          'break node3.pbu1.cam.freeCount == 0       (stops on the cycle it becomes true: an edge)',
          'break node*.nip.count > 12 && node0.cu.st == IDLE',
          `break event head-arrives node=3 unit=pbu1 (kinds: ${EVENT_KINDS.join(', ')}, or any)`,
          'See help expressions. info breakpoints lists them, delete removes them.',
        ],
        arg: 'expr',
        words: ['event'],
        run: (a, rest) => {
          if (a[0] === 'event') {
            const { kind, filter } = this.parseEventSpec(a.slice(1), false);
            const id = this.nextBp++;
            const text = a.slice(1).join(' ');
            this.bps.push({ id, type: 'event', text, kind, filter, hits: 0 });
            this.emit(`event breakpoint ${id}: ${text}`);
          } else {
            const cond = this.compile(rest);
            const id = this.nextBp++;
            this.bps.push({ id, type: 'break', text: rest, cond, prev: cond.test(), hits: 0 });
            this.emit(`breakpoint ${id}: ${rest}${cond.test() ? ' (true now; stops when it next becomes true)' : ''}`);
          }
        },
      },
      {
        name: 'display',
        aliases: ['disp'],
        usage: 'display [name | glob | memory[addr]]',
        summary: 'print these values after every step, run, continue or back (display alone: print them now)',
        help: ['As in gdb: display node3.nip.count; display node3.pbu*.freeRows. undisplay [n] removes one or all.'],
        arg: 'signal',
        run: (a) => this.cmdDisplay(a),
      },
      {
        name: 'undisplay',
        aliases: [],
        usage: 'undisplay [n]',
        summary: 'remove display n, or all displays',
        help: [],
        arg: 'none',
        run: (a) => this.cmdUndisplay(a),
      },
      {
        name: 'watch',
        aliases: [],
        usage: 'watch <name | glob>',
        summary: 'stop when a signal (any of a glob) changes value',
        help: ['watch node3.nip.state; watch node3.pbu*.freeRows'],
        arg: 'signal',
        run: (a) => {
          if (a.length !== 1) throw new ReplError('watch: give one name or glob');
          const m = /^(.*?)(?:\[(\S+)\])?$/.exec(a[0]!)!;
          const refs = this.resolveRefs(m[1]!, m[2] === undefined ? undefined : this.intArg(m[2], 'address', 0, 2 ** 31));
          if (refs.length > 4096) throw new ReplError(`watch: '${a[0]}' matches ${refs.length} signals; at most 4096`);
          const id = this.nextBp++;
          this.bps.push({ id, type: 'watch', text: a[0]!, refs, prev: refs.map((r) => r.read()), hits: 0 });
          this.emit(`watch ${id}: ${a[0]} (${refs.length} signal${refs.length === 1 ? '' : 's'})`);
        },
      },
      {
        name: 'info',
        aliases: ['i'],
        usage: 'info [breakpoints | checkpoints | traces | config]',
        summary: 'list breakpoints and watches, checkpoints, traces/VCD, or the configuration',
        help: ['info b is short for info breakpoints.'],
        arg: 'none',
        words: ['breakpoints', 'checkpoints', 'traces', 'config'],
        run: (a) => this.cmdInfo(a[0]),
      },
      {
        name: 'delete',
        aliases: ['d'],
        usage: 'delete [n ...] | delete checkpoint <name>',
        summary: 'delete breakpoints/watches by number (all without numbers), or a named checkpoint',
        help: [],
        arg: 'none',
        words: ['checkpoint'],
        run: (a) => this.cmdDelete(a),
      },
      // ---------------------------------------------------------------- stimulus
      {
        name: 'send',
        aliases: [],
        usage: 'send <src> <dst> <bytes> [type]',
        summary: "issue a send instruction on node src's CPU now (type 1..32767, default 1)",
        help: ['The data are a deterministic pattern of the message id. The message id is printed; events name it.', 'Post a matching receive on dst (receive) or the message waits in a system buffer.'],
        arg: 'node',
        run: (a) => this.cmdSend(a),
      },
      {
        name: 'receive',
        aliases: ['recv'],
        usage: 'receive <node> <src | any> [bytes] [type | any]',
        summary: 'post a receive on node (buffer bytes default 4096, type default 1)',
        help: [],
        arg: 'node',
        run: (a) => this.cmdReceive(a),
      },
      {
        name: 'load',
        aliases: [],
        usage: 'load <trace file>',
        summary: 'schedule a workload trace file (time source destination length per line) from now',
        help: [
          'harness/workloads/trace-file.ts format; times are relative to the current cycle, in the',
          `file's unit (# unit: cycles, or ticks = ${DEFAULT_CYCLES_PER_TICK} cycles). Each message gets a matching receive posted now.`,
        ],
        arg: 'file',
        run: (a) => this.cmdLoad(a),
      },
      {
        name: 'poke',
        aliases: ['force', 'set-signal'],
        usage: 'poke <name | memory[addr]> <value>',
        summary: 'set a register (holds until its logic writes it), force a wire for one cycle, or write a memory word',
        help: ['Values: decimal, 0x hex, 0b binary, or a state name of an FSM register.'],
        arg: 'signal',
        run: (a) => this.cmdPoke(a),
      },
      // ---------------------------------------------------------------- views
      {
        name: 'trace',
        aliases: [],
        usage: 'trace on|off [node | scope]',
        summary: 'one line per cycle for a node while running (trace off: all)',
        help: ['Columns: PBUs (input/output/framing state, free rows, packet), links, slots, node input port, control unit.', 'The legend is printed when a trace is switched on.'],
        arg: 'node',
        words: ['on', 'off'],
        run: (a) => this.cmdTrace(a),
      },
      {
        name: 'wave',
        aliases: ['wv'],
        usage: 'wave <names | globs> ... [cycles]',
        summary: 'ASCII waveform of the last cycles (default 40), replayed from a checkpoint',
        help: ['1-bit signals draw as _/‾\\, vectors as X<value> at each change (state names for FSM registers).'],
        arg: 'signal',
        run: (a) => this.cmdWave(a),
      },
      {
        name: 'cam',
        aliases: [],
        usage: 'cam [node] [unit]',
        summary: 'the CAM of a packet buffer unit: rows as fields, packets as source/destination/length',
        help: ['cam 3 1 or cam node3 pbu1; without arguments, the PBU of the scope (cd node3.pbu1).'],
        arg: 'node',
        run: (a) => {
          // default: the node / PBU of the current scope (cd node3.pbu1; cam)
          const m = /^node(\d+)(?:\.pbu(\d+))?/.exec(this.scope);
          const x = a[0] ?? (m ? m[1] : undefined);
          const i = a[1] ?? (m && a[0] === undefined ? m[2] : undefined);
          this.emit(...camView(this.view, checkNode(this.cube, x, 'cam'), checkUnit(this.cube, i, 'cam')));
        },
      },
      {
        name: 'queues',
        aliases: ['qs'],
        usage: 'queues [node]',
        summary: "a node's send queues, output port slots, input FIFO, receive engine and PBUs",
        help: [],
        arg: 'node',
        run: (a) => this.emit(...queuesView(this.view, checkNode(this.cube, a[0] ?? /^node(\d+)/.exec(this.scope)?.[1], 'queues'))),
      },
      {
        name: 'links',
        aliases: ['l'],
        usage: 'links [all]',
        summary: 'which links carry bits, which are held or blocked (all: idle ones too)',
        help: [],
        arg: 'none',
        words: ['all'],
        run: (a) => {
          if (a[0] !== undefined && a[0] !== 'all') throw new ReplError(`links: unexpected '${a[0]}' (links [all])`);
          this.emit(...linksView(this.view, a[0] === 'all'));
        },
      },
      {
        name: 'deadlock',
        aliases: ['dl'],
        usage: 'deadlock',
        summary: 'if the network is stuck, print the cycle of waiting units',
        help: ['harness/rtl/deadlock.ts: the largest set of full packet buffer units all waiting on each other.'],
        arg: 'none',
        run: () => this.emit(...deadlockView(this.view)),
      },
      {
        name: 'messages',
        aliases: ['msgs'],
        usage: 'messages',
        summary: 'sends and receives issued so far and their completion flags',
        help: [],
        arg: 'none',
        run: () => this.emit(...messagesView(this.view)),
      },
      // ---------------------------------------------------------------- time travel
      {
        name: 'checkpoint',
        aliases: ['cp'],
        usage: 'checkpoint [name] | checkpoint save FILE | checkpoint load FILE',
        summary: 'save the whole state under a name (default c1, c2, ...), or the session to a file and back',
        help: [
          'checkpoint save FILE writes the configuration, every stimulus command typed and the state hash reached;',
          'checkpoint load FILE (in a fresh session of the same cube) replays them and checks it reaches that state.',
        ],
        arg: 'none',
        run: async (a) => {
          if ((a[0] === 'save' || a[0] === 'load') && a.length === 2) {
            if (a[0] === 'save') this.saveSession(a[1]!);
            else await this.loadSession(a[1]!);
            return;
          }
          if (a[0] !== undefined) checkpointName(a[0]);
          this.atMost(a, 1, 'checkpoint [name] | checkpoint save FILE | checkpoint load FILE');
          this.cmdCheckpoint(a[0]);
        },
      },
      {
        name: 'restore',
        aliases: ['rs'],
        usage: 'restore <name>',
        summary: 'go back (or forward) to a named checkpoint',
        help: ['The history (auto checkpoints, typed stimulus) of that checkpoint comes back with it.'],
        arg: 'checkpoint',
        run: (a) => this.cmdRestore(a[0]),
      },
      {
        name: 'back',
        aliases: ['reverse-step', 'rstep'],
        usage: 'back [n]',
        summary: 'reverse step n cycles (default 1): restore the nearest checkpoint and replay',
        help: [
          'The state afterwards is exactly the one the model had at that cycle (state hash included),',
          'with the commands typed at that cycle applied. Commands typed later are forgotten.',
        ],
        arg: 'none',
        run: (a) => {
          this.atMost(a, 1, 'back [n]');
          const n = this.intArg(a[0], 'cycle count', 1, Number.MAX_SAFE_INTEGER, 1);
          if (n > this.sim.cycle) throw new ReplError(`back ${n}: only ${this.sim.cycle} cycles have run`);
          const from = this.sim.cycle;
          const r = this.travel(from - n);
          this.emit(`cycle ${this.sim.cycle} (back ${n} from ${from}: checkpoint at cycle ${r.from}, ${r.replayed} cycles replayed)`);
        },
      },
      {
        name: 'hash',
        aliases: [],
        usage: 'hash',
        summary: 'the state hash (every register, wire and memory word)',
        help: ['Equal states give equal hashes: compare before and after back.'],
        arg: 'none',
        run: () => this.emit(`cycle ${this.sim.cycle} state ${this.sim.stateHash()}`),
      },
      // ---------------------------------------------------------------- output
      {
        name: 'vcd',
        aliases: [],
        usage: 'vcd start <file> [globs] | vcd stop',
        summary: 'dump a VCD waveform file (default: everything under the scope) from now on',
        help: ['Open it with gtkwave or surfer. State registers get string twins with their state names.'],
        arg: 'file',
        words: ['start', 'stop'],
        run: (a) => this.cmdVcd(a),
      },
      {
        name: 'stats',
        aliases: [],
        usage: 'stats',
        summary: 'cycles, work, messages, events, link utilisation, checkpoints',
        help: [],
        arg: 'none',
        run: () => this.emit(...statsView(this.view, this.checkpointStats())),
      },
      {
        name: 'set',
        aliases: [],
        usage: 'set run-limit <n> | set checkpoint-every <n> | set width <n>',
        summary: 'settings',
        help: [],
        arg: 'none',
        words: ['run-limit', 'checkpoint-every', 'width'],
        run: (a) => this.cmdSet(a),
      },
      {
        name: 'assert',
        aliases: [],
        usage: 'assert <condition>',
        summary: 'error unless the condition holds now (for scripts)',
        help: [],
        arg: 'expr',
        run: (_a, rest) => {
          const cond = this.compile(rest);
          const w: string[] = [];
          if (!cond.test(w)) {
            const vals = cond.refs.slice(0, 6).map((r) => witness(r, r.read()));
            throw new ReplError(`assertion failed at cycle ${this.sim.cycle}: ${rest}${vals.length ? `  [${vals.join(', ')}]` : ''}`);
          }
          this.emit(`ok: ${rest}`);
        },
      },
      {
        name: 'echo',
        aliases: [],
        usage: 'echo <text>',
        summary: 'print text (for scripts)',
        help: [],
        arg: 'none',
        run: (_a, rest) => this.emit(rest),
      },
      {
        name: 'quit',
        aliases: ['exit', 'q'],
        usage: 'quit',
        summary: 'leave (Ctrl-D too)',
        help: [],
        arg: 'none',
        run: () => undefined,
      },
    ];
    return cmds;
  }

  // ---------------------------------------------------------------- help

  private cmdHelp(topic: string | undefined): void {
    if (topic === undefined) {
      this.emit(this.c.bold(`icemu repl: a debugger over the ${this.cfg.n}-cube (${this.configName}); help <command> for details`));
      const rows = this.commands.map((c) => [c.aliases.length ? `${c.name} (${c.aliases.join(', ')})` : c.name, c.summary]);
      const w = Math.max(...rows.map((r) => r[0]!.length));
      for (const [a, b] of rows) this.emit(`  ${a!.padEnd(w)}  ${b}`);
      this.emit('Names are hierarchical (node3.pbu1.inState) with globs (* ? ** {a,b}); help expressions for conditions.');
      return;
    }
    if (topic === 'expressions' || topic === 'expr' || topic === 'conditions') {
      this.emit(
        'Conditions (break, run until, assert):',
        "  expr    := or;  or := and ('||' and)*;  and := compare ('&&' compare)*",
        "  compare := bits (('==' | '!=' | '<' | '<=' | '>' | '>=') bits)?",
        "  bits    := unary with '<<' '>>', then '&', '^', '|' (tighter than comparisons: x & 0xf == 3",
        "             is (x & 0xf) == 3);  unary := '!' unary | '~' unary | operand [select]",
        "  select  := [hi:lo] bits of a value (x[3:0]) | [bit] one bit (x[5]; on a memory: word 5)",
        "  operand := number | name | '(' expr ')'            (!a == 0 is (!a) == 0)",
        '  number  := 42 | 0x2a | 0b101010 (underscores allowed)',
        '  name    := signal or glob (node*.nip.count), memory word (node0.nip.fifo.mem[3]),',
        '             or a state name compared with an FSM register (node3.pbu1.inState == camLoad)',
        'A bare name is true when nonzero. A glob holds when any signal it matches does (the ones that',
        'made it hold are shown when it stops). No chains: write a < b && b < c.',
      );
      return;
    }
    const c = this.byName.get(topic);
    if (!c) {
      const near = nearestNames(topic, [...this.commandNames(), 'expressions']);
      throw new ReplError(`help: no command '${topic}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}`);
    }
    this.emit(`usage: ${c.usage}`, `  ${c.summary}`);
    if (c.aliases.length) this.emit(`  aliases: ${c.aliases.join(', ')}`);
    for (const h of c.help) this.emit(`  ${h}`);
  }

  // ---------------------------------------------------------------- hierarchy / print

  private cmdLs(arg: string | undefined): void {
    const path = arg === undefined ? this.scope : this.resolveScope(arg);
    const mod = this.sim.net.modulesByPath.get(path)!;
    this.emit(this.c.bold(`${path || '/'}${mod.constructor.name !== 'Module' ? ` (${mod.constructor.name})` : ''}`));
    for (const ch of mod.children) this.emit(`  ${ch.name}/`.padEnd(28) + this.c.dim(ch.constructor.name));
    const rows: string[][] = mod.signals.map((s) => [s.name, `${s.kind}[${s.width}]`, this.shortValue(s)]);
    const w0 = Math.max(0, ...rows.map((r) => r[0]!.length));
    const w1 = Math.max(0, ...rows.map((r) => r[1]!.length));
    for (const [a, b, v] of rows) this.emit(`  ${a!.padEnd(w0)}  ${b!.padEnd(w1)}  ${v}`);
    for (const m of mod.memories) this.emit(`  ${m.name}  memory ${m.depth} x ${m.width} bits`);
  }

  private shortValue(s: Signal): string {
    const v = this.sim.peek(s);
    const d = decode(this.sim, s, v);
    if (signalOptions(this.sim, s).enum) return `${d} (${v})`;
    return `${v}${s.width > 4 ? ` (${hex(v, s.width)})` : ''}${d ? `  ${d}` : ''}`;
  }

  private cmdPrint(arg: string): void {
    const m = /^(.*?)\[(\S+?)(?:\.\.(\S+))?\]$/.exec(arg);
    if (m) {
      const hits = this.lookup(m[1]!);
      const mems = hits.filter((h): h is Memory => h instanceof Memory);
      if (!mems.length) throw new ReplError(`${m[1]} is not a memory (only memories take [addr])`);
      for (const mem of mems) {
        const a = this.intArg(m[2], 'address', 0, mem.depth - 1);
        const b = m[3] === undefined ? a : this.intArg(m[3], 'address', a, mem.depth - 1);
        if (b - a >= 4096) throw new ReplError(`print ${arg}: at most 4096 words at a time`);
        this.printMemory(mem, a, b);
      }
      return;
    }
    const mod = this.findModuleMaybe(arg);
    if (mod && !this.sim.net.byName.has(this.candidatesFor(arg)[0]!)) {
      this.emit(this.c.bold(`${mod.path || '/'}:`));
      this.printSignals(mod.signals.slice(0, MAX_PRINT), mod.path);
      if (mod.signals.length > MAX_PRINT) this.emit(this.c.dim(`... ${mod.signals.length - MAX_PRINT} more signals (print a glob of them)`));
      for (const mm of mod.memories) this.emit(`  ${mm.name}: memory ${mm.depth} x ${mm.width} bits (print ${this.rel(mm.path)}[0..${Math.min(15, mm.depth - 1)}])`);
      this.printPacketsOf(mod);
      return;
    }
    const { hits, scoped } = this.lookupScoped(arg);
    const sigs = hits.filter((h): h is Signal => h instanceof Signal);
    this.printSignals(sigs.slice(0, MAX_PRINT), '', scoped);
    if (sigs.length > MAX_PRINT) this.emit(this.c.dim(`... ${sigs.length - MAX_PRINT} more (narrow the glob)`));
    for (const mm of hits.filter((h): h is Memory => h instanceof Memory)) {
      this.printMemory(mm, 0, Math.min(15, mm.depth - 1));
    }
  }

  private printSignals(sigs: Signal[], under: string, scoped = false): void {
    const names = sigs.map((s) => (under ? s.name : scoped ? this.rel(s.path) : s.path));
    const w = Math.max(0, ...names.map((n) => n.length));
    sigs.forEach((s, k) => this.emit(`  ${names[k]!.padEnd(w)} = ${formatValue(this.sim, s, this.sim.peek(s))}${this.packetNote(s)}`));
  }

  /** For a CAM row of a packet buffer unit: the buffered packet, source from the RAM. */
  private packetNote(s: Signal): string {
    const m = /^node(\d+)\.pbu(\d+)\.cam\.row(\d+)$/.exec(s.path);
    if (!m) return '';
    const x = Number(m[1]);
    const i = Number(m[2]);
    const row = Number(m[3]);
    const pbu = this.cube.nodes[x]?.pbus[i - 1];
    if (!pbu || row >= this.sim.peek(pbu.cam.used)) return this.c.dim('  (free row)');
    const r = camRow(this.view, x, i, row);
    return this.c.dim(`  packet ${r.src}→${r.dest}, ${r.len} words after the destination (${2 * r.len + 2} B), next ${r.next}${r.contrary ? ', contrary' : ''}`);
  }

  private printPacketsOf(mod: Module): void {
    const rec = this.recorder;
    const m = /^node(\d+)(?:\.(pbu(\d+)|nip|nop))?$/.exec(mod.path);
    if (!m) return;
    const x = Number(m[1]);
    if (m[3]) {
      const i = Number(m[3]);
      const rx = rec.pbuRx(x, i);
      const tx = rec.pbuTx(x, i);
      this.emit(`  packets: receiving ${rx === undefined ? '-' : rec.label(rx)}, forwarding ${tx === undefined ? '-' : rec.label(tx)}`);
    } else if (m[2] === 'nip') {
      const p = rec.nipPacket(x);
      this.emit(`  packet: ${p === undefined ? '-' : rec.label(p)}`);
    } else if (m[2] === 'nop') {
      const ps = this.cube.nodes[x]!.nop.slots.map((_, k) => {
        const p = rec.slotPacket(x, k + 1);
        return `slot${k + 1} ${p === undefined ? '-' : rec.label(p)}`;
      });
      this.emit(`  packets: ${ps.join(', ')}`);
    }
  }

  private printMemory(mem: Memory, a: number, b: number): void {
    const digits = Math.ceil(mem.width / 4);
    for (let r = a; r <= b; r += 8) {
      const words: string[] = [];
      for (let k = r; k <= Math.min(b, r + 7); k++) words.push(mem.data[k]!.toString(16).padStart(digits, '0'));
      this.emit(`  ${this.rel(mem.path)}[${r}${Math.min(b, r + 7) > r ? `..${Math.min(b, r + 7)}` : ''}] = ${words.join(' ')}`);
    }
  }

  private activity(): string {
    const sim = this.sim;
    const nx = sim.nextStimulus;
    if (sim.quiescent) return nx === Infinity ? ' (idle: nothing moving, nothing scheduled)' : ` (quiescent until the stimulus at cycle ${nx})`;
    return nx === Infinity ? ' (busy)' : ` (busy; next stimulus at cycle ${nx})`;
  }

  private cmdWhere(): void {
    const d = this.driver;
    this.emit(`cycle ${this.sim.cycle}${this.activity()}, scope ${this.scope || '/'}`);
    if (this.lastStop) this.emit(`last stop: ${this.lastStop}`);
    const recent = this.recorder.events.slice(-3);
    if (recent.length) this.emit(`latest events: ${recent.map(formatEvent).join('; ')}`);
    this.emit(`messages: ${d.sent.length} sent, receives: ${d.receives.length} posted; ${this.bps.length} breakpoint(s)/watch(es); ${this.named.size} named checkpoint(s)`);
  }

  // ---------------------------------------------------------------- breakpoints

  private parseEventSpec(a: string[], optional: boolean): { kind: EventKind | '*'; filter: EventFilter } {
    let kind: EventKind | '*' = '*';
    let k = 0;
    if (a[0] !== undefined && !a[0].includes('=')) {
      const w = a[0];
      if (w === 'any' || w === '*') kind = '*';
      else if ((EVENT_KINDS as readonly string[]).includes(w)) kind = w as EventKind;
      else {
        const near = nearestNames(w, [...EVENT_KINDS]);
        throw new ReplError(`unknown event kind '${w}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; kinds: ${EVENT_KINDS.join(', ')}, any`);
      }
      k = 1;
    } else if (!optional) throw new ReplError(`break event: which kind? (${EVENT_KINDS.join(', ')}, any)`);
    const filter: EventFilter = {};
    for (const f of a.slice(k)) {
      const m = /^([a-z]+)=(\S+)$/.exec(f);
      if (!m || !(EVENT_FILTER_KEYS as readonly string[]).includes(m[1]!)) throw new ReplError(`bad event filter '${f}': use key=value with key one of ${EVENT_FILTER_KEYS.join(', ')}`);
      const key = m[1] as (typeof EVENT_FILTER_KEYS)[number];
      if (key === 'unit') filter.unit = m[2]!;
      else {
        const v = parseInteger(m[2]!);
        if (v === undefined) throw new ReplError(`bad event filter '${f}': ${key} needs a whole number`);
        // a filter that can never match is a mistake: the node and port must exist in this cube
        const hi = key === 'node' ? this.cube.nodes.length - 1 : key === 'port' ? this.cfg.n : Number.MAX_SAFE_INTEGER;
        if (v > hi) throw new ReplError(`bad event filter '${f}': ${key} must be in 0..${hi} for this ${this.cfg.n}-cube`);
        filter[key] = v;
      }
    }
    return { kind, filter };
  }

  private cmdInfo(what: string | undefined): void {
    const all = what === undefined;
    const w = what === 'b' || what === 'break' || what === 'watch' ? 'breakpoints' : what;
    if (!all && !['breakpoints', 'checkpoints', 'traces', 'config'].includes(w!)) throw new ReplError(`info: unknown topic '${what}' (breakpoints, checkpoints, traces, config)`);
    if (all || w === 'breakpoints') {
      if (!this.bps.length) this.emit('no breakpoints or watches');
      else {
        this.emit(this.c.bold('Num  Type        Hits  What'));
        for (const b of this.bps) this.emit(`${String(b.id).padEnd(4)} ${(b.type === 'break' ? 'breakpoint' : b.type === 'watch' ? 'watch' : 'event').padEnd(11)} ${String(b.hits).padEnd(5)} ${b.text}`);
      }
    }
    if (all || w === 'checkpoints') {
      const names = [...this.named.values()];
      this.emit(`checkpoints: ${names.length ? names.map((n) => `${n.name} (cycle ${n.snap.cycle})`).join(', ') : 'no named ones'}; ${this.autos.length} automatic (every ${this.every} cycles, latest at cycle ${this.autos[this.autos.length - 1]!.snap.cycle})`);
    }
    if (all || w === 'traces') {
      this.emit(`traces: ${this.traces.size ? [...this.traces.keys()].map((x) => `node${x}`).join(', ') : 'off'}; vcd: ${this.vcd ? this.vcd.path : 'off'}`);
    }
    if (all || w === 'config') {
      this.emit(`config ${this.configName}: ${JSON.stringify(this.cfg)}`);
    }
  }

  private cmdDelete(a: string[]): void {
    if (a[0] === 'checkpoint') {
      const name = a[1];
      if (!name || !this.named.delete(name)) throw new ReplError(`delete checkpoint: no checkpoint '${name ?? ''}'${this.named.size ? ` (have ${[...this.named.keys()].join(', ')})` : ''}`);
      this.emit(`deleted checkpoint ${name}`);
      return;
    }
    if (!a.length) {
      const n = this.bps.length;
      this.bps = [];
      this.emit(`deleted ${n} breakpoint(s)/watch(es)`);
      return;
    }
    const ids = a.map((x) => this.intArg(x, 'breakpoint number', 1, Number.MAX_SAFE_INTEGER));
    for (const id of ids) if (!this.bps.some((b) => b.id === id)) throw new ReplError(`delete: no breakpoint ${id} (info breakpoints lists them)`);
    this.bps = this.bps.filter((b) => !ids.includes(b.id));
    this.emit(`deleted ${ids.join(', ')}`);
  }

  // ---------------------------------------------------------------- stimulus

  private programRoom(node: number, want: number): void {
    const d = this.driver;
    const used = d.sent.filter((m) => m.src === node).length + d.receives.filter((r) => r.node === node).length;
    const cap = this.cube.nodes[node]!.cpu!.progDepth;
    if (used + want > cap) throw new ReplError(`node ${node}: the CPU stand-in holds ${cap} instructions and ${used} are issued already`);
  }

  private cmdSend(a: string[]): void {
    if (a.length < 3 || a.length > 4) throw new ReplError('usage: send <src> <dst> <bytes> [type]');
    const src = checkNode(this.cube, a[0], 'send src');
    const dst = checkNode(this.cube, a[1], 'send dst');
    if (src === dst) throw new ReplError(`send: source and destination are both node ${src}`);
    const bytes = this.intArg(a[2], 'bytes', 1, 1 << 20);
    const type = this.intArg(a[3], 'type', 1, 0x7fff, 1);
    this.programRoom(src, 1);
    if (bytes + 64 > this.driver.free(src)) throw new ReplError(`send: node ${src} has ${this.driver.free(src)} bytes of user memory left`);
    const id = this.driver.sent.length;
    const at = this.sim.cycle;
    this.stimulus(`send ${src} ${dst} ${bytes} ${type}`, () => {
      this.driver.send(src, dst, messagePattern(id, bytes), at, type);
    });
    this.emit(`message ${id}: node ${src} -> node ${dst}, ${bytes} bytes, type ${type}, issued at cycle ${at}`);
  }

  private cmdReceive(a: string[]): void {
    if (a.length < 2 || a.length > 4) throw new ReplError('usage: receive <node> <src | any> [bytes] [type | any]');
    const node = checkNode(this.cube, a[0], 'receive node');
    const src = a[1] === 'any' ? ('any' as const) : checkNode(this.cube, a[1], 'receive src');
    const size = this.intArg(a[2], 'bytes', 1, 1 << 20, 4096);
    const type = a[3] === 'any' ? ('any' as const) : this.intArg(a[3], 'type', 1, 0x7fff, 1);
    this.programRoom(node, 1);
    if (size + 64 > this.driver.free(node)) throw new ReplError(`receive: node ${node} has ${this.driver.free(node)} bytes of user memory left`);
    const id = this.driver.receives.length;
    const at = this.sim.cycle;
    this.stimulus(`receive ${node} ${src} ${size} ${type}`, () => {
      this.driver.receive(node, src, size, at, type);
    });
    this.emit(`receive r${id}: node ${node} from ${src}, ${size}-byte buffer, type ${type}, posted at cycle ${at}`);
  }

  private cmdLoad(a: string[]): void {
    if (a.length !== 1) throw new ReplError('usage: load <trace file>');
    const file = a[0]!;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ReplError(`load: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    const w = parseWorkloadFile(text, { file, cubeDegree: this.cfg.n });
    if (w.unit === 'us') throw new ReplError(`load ${file}: unit 'us' has no fixed cycle length for the RTL; use '# unit: cycles' or ticks`);
    const cpt = w.unit === 'cycles' ? 1 : DEFAULT_CYCLES_PER_TICK;
    const N = this.cube.nodes.length;
    const now = this.sim.cycle;
    // Check everything first: all or nothing.
    const instr = new Array<number>(N).fill(0);
    const mem = new Array<number>(N).fill(0);
    for (const m of w.messages) {
      if (m.bytes < 1) throw new ReplError(`load ${file}: message ${m.id} has ${m.bytes} bytes (the control unit needs at least 1)`);
      instr[m.src]!++;
      mem[m.src]! += m.bytes + 64;
      const dsts = m.kind === 'broadcast' ? [...Array(N).keys()].filter((x) => x !== m.src) : [m.dst];
      for (const d of dsts) {
        instr[d]!++;
        mem[d]! += m.bytes + 64;
      }
    }
    for (let x = 0; x < N; x++) {
      if (instr[x]) this.programRoom(x, instr[x]!);
      if (mem[x]! > this.driver.free(x)) throw new ReplError(`load ${file}: node ${x} needs ${mem[x]} bytes of user memory, ${this.driver.free(x)} left`);
    }
    const first = this.driver.sent.length;
    this.stimulus(`load ${file}`, () => {
      let id = first;
      for (const m of w.messages) {
        const type = this.driver.takeType();
        const cycle = now + Math.round(m.t * cpt);
        const data = messagePattern(id++, m.bytes);
        if (m.kind === 'broadcast') {
          for (let x = 0; x < N; x++) if (x !== m.src) this.driver.receive(x, m.src, m.bytes, now, type);
          this.driver.broadcast(m.src, data, cycle, type);
        } else {
          this.driver.receive(m.dst, m.src, m.bytes, now, type);
          this.driver.send(m.src, m.dst, data, cycle, type);
        }
      }
    });
    const last = w.messages.length ? now + Math.round(w.messages[w.messages.length - 1]!.t * cpt) : now;
    this.emit(
      `loaded ${file}: ${plural(w.messages.length, 'message')} (${idRange(first, w.messages.length)}), unit ${w.unit}${w.unit === 'ticks' ? ` (1 tick = ${cpt} cycles)` : ''}, sends at cycles ${now}..${last}, receives posted now`,
    );
  }

  private cmdPoke(a: string[]): void {
    if (a.length !== 2) throw new ReplError('usage: poke <name | memory[addr]> <value>');
    const [name, valText] = a as [string, string];
    const mm = /^(.*)\[(\S+)\]$/.exec(name);
    if (mm) {
      const hits = this.lookup(mm[1]!);
      if (hits.length !== 1 || !(hits[0] instanceof Memory)) throw new ReplError(`poke: ${mm[1]} is not one memory`);
      const mem = hits[0];
      const addr = this.intArg(mm[2], 'address', 0, mem.depth - 1);
      const v = this.parseValue(valText);
      if (v > mem.mask) throw new ReplError(`poke ${mem.path}[${addr}]: value ${v} does not fit ${mem.width} bits (allowed 0..${mem.mask})`);
      this.stimulus(`poke ${mem.path}[${addr}] ${v}`, () => this.sim.pokeMem(mem, addr, v));
      this.emit(`${this.rel(mem.path)}[${addr}] := ${v} (${hex(v, mem.width)})`);
      return;
    }
    const hits = this.lookup(name);
    if (hits.length !== 1) throw new ReplError(`poke: '${name}' matches ${hits.length} signals; poke one at a time`);
    const sig = hits[0]!;
    if (sig instanceof Memory) throw new ReplError(`poke: ${sig.path} is a memory: poke ${name}[addr] value`);
    const v = this.parseValue(valText, sig);
    if (v > sig.mask) throw new ReplError(`poke ${sig.path}: value ${v} does not fit ${sig.width} bits (allowed 0..${sig.mask})`);
    const kind = this.sim.net.slotDriver[sig.i];
    if (kind === 'tie') throw new ReplError(`poke ${sig.path}: the net is tied to a constant`);
    this.stimulus(`poke ${sig.path} ${v}`, () => this.sim.poke(sig, v));
    const how = kind === 'reg' ? 'register: holds until its logic next writes it' : kind === 'comb' ? 'wire: forced until the next clock edge' : 'input: holds until poked again';
    this.emit(`${this.rel(sig.path)} := ${formatValue(this.sim, sig, v)} (${how})`);
  }

  // ---------------------------------------------------------------- views

  private cmdTrace(a: string[]): void {
    const onoff = a[0];
    if (onoff !== 'on' && onoff !== 'off') throw new ReplError('usage: trace on|off [node]');
    let node: number | undefined;
    if (a[1] !== undefined) node = checkNode(this.cube, /^node\d+\./.test(a[1]) ? a[1].slice(0, a[1].indexOf('.')) : a[1], 'trace');
    else {
      const m = /^node(\d+)/.exec(this.scope);
      if (m) node = Number(m[1]);
    }
    if (onoff === 'off') {
      const which = node === undefined ? [...this.traces.keys()] : [node];
      for (const x of which) {
        const t = this.traces.get(x);
        if (!t) throw new ReplError(`trace off: node ${x} is not traced`);
        t.detach?.();
        this.traces.delete(x);
      }
      this.emit(which.length ? `trace off: ${which.map((x) => `node${x}`).join(', ')}` : 'no traces were on');
      return;
    }
    if (node === undefined) throw new ReplError('trace on: which node? (trace on 3, or cd into a node first)');
    if (this.traces.has(node)) throw new ReplError(`trace on: node ${node} is already traced`);
    const trace = this.makeTrace(node);
    this.traces.set(node, { node, trace, detach: trace.detach });
    this.emit(`trace on: node${node}, one line per cycle while running`, ...trace.legend().split('\n').map((l) => this.c.dim(l)));
  }

  private cmdWave(a: string[]): void {
    if (!a.length) throw new ReplError('usage: wave <names | globs> ... [cycles]');
    let n = 40;
    const last = a[a.length - 1]!;
    let globs = a;
    if (a.length > 1 && parseInteger(last) !== undefined) {
      n = this.intArg(last, 'cycles', 1, 2000);
      globs = a.slice(0, -1);
    }
    const sigs: Signal[] = [];
    for (const g of globs) for (const h of this.lookup(g)) if (h instanceof Signal && !sigs.includes(h)) sigs.push(h);
    if (!sigs.length) throw new ReplError('wave: only memories matched; name signals');
    if (sigs.length > 48) throw new ReplError(`wave: ${sigs.length} signals match; at most 48`);
    const refs = sigs.map((s) => this.sigRef(s));
    const h = this.history(refs, n);
    const rows: WaveRow[] = sigs.map((s, k) => ({ name: this.rel(s.path), sig: s, values: h.values[k]! }));
    this.emit(`cycles ${h.first}..${this.sim.cycle}`, ...renderWave(this.sim, rows, h.first, this.width, this.c));
  }

  // ---------------------------------------------------------------- checkpoints

  private cmdCheckpoint(nameArg: string | undefined): void {
    let name = nameArg;
    if (name === undefined) {
      do name = `c${++this.namedCounter}`;
      while (this.named.has(name));
    } else checkpointName(name);
    const last = this.autos[this.autos.length - 1]!.snap;
    const old = this.named.get(name);
    this.named.set(name, { name, snap: pack(this.sim.save(), last), autos: this.autos.slice(), log: this.log.slice(), events: this.recorder.events.slice() });
    this.emit(`checkpoint ${name} at cycle ${this.sim.cycle}${old ? ` (replaces the one at cycle ${old.snap.cycle})` : ''}`);
  }

  private cmdRestore(name: string | undefined): void {
    if (name === undefined) throw new ReplError(`restore: which checkpoint?${this.named.size ? ` (${[...this.named.keys()].join(', ')})` : ' (none saved: checkpoint [name])'}`);
    const cp = this.named.get(name);
    if (!cp) {
      const near = nearestNames(name, [...this.named.keys()]);
      throw new ReplError(`restore: no checkpoint '${name}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}${this.named.size ? `; have ${[...this.named.keys()].join(', ')}` : ''}`);
    }
    const from = this.sim.cycle;
    this.detachInstruments();
    this.sim.restore(unpack(cp.snap));
    this.autos = cp.autos.slice();
    this.log = cp.log.slice();
    this.nextAutoAt = this.autos[this.autos.length - 1]!.snap.cycle + this.every;
    this.newRecorder(cp.events.filter((e) => e.t < cp.snap.cycle));
    this.attachInstruments(true);
    for (const b of this.bps) if (b.type === 'watch') b.prev = b.refs.map((r) => r.read());
    this.emit(`restored checkpoint ${name}: cycle ${this.sim.cycle} (was ${from})`);
  }

  private checkpointStats(): string[] {
    const seen = new Set<Float64Array>();
    let bytes = 0;
    const add = (p: Packed): void => {
      bytes += p.base.state.byteLength;
      for (const list of p.pages) for (const pg of list) if (!seen.has(pg)) (seen.add(pg), (bytes += pg.byteLength));
    };
    for (const a of this.autos) add(a.snap);
    for (const n of this.named.values()) add(n.snap);
    return [`checkpoints: ${this.autos.length} automatic (every ${this.every} cycles), ${this.named.size} named; about ${(bytes / 1e6).toFixed(1)} MB; ${this.log.length} stimulus command(s) in the replay log`];
  }

  // ---------------------------------------------------------------- output

  private cmdVcd(a: string[]): void {
    if (a[0] === 'stop') {
      if (!this.vcd) throw new ReplError('vcd stop: no VCD is being written');
      this.vcd.writer.close();
      this.emit(`vcd: closed ${this.vcd.path}${this.vcd.writer.gtkwPath ? `; save file ${this.vcd.writer.gtkwPath}` : ''}`);
      this.vcd = undefined;
      return;
    }
    if (a[0] !== 'start' || a[1] === undefined) throw new ReplError('usage: vcd start <file> [globs] | vcd stop');
    if (this.vcd) throw new ReplError(`vcd start: already writing ${this.vcd.path} (vcd stop first)`);
    const path = a[1];
    const globs = a.slice(2).map((g) => {
      for (const cand of this.candidatesFor(g)) {
        try {
          if (this.sim.glob(cand).length) return cand;
        } catch (e) {
          throw new ReplError((e as Error).message);
        }
      }
      throw new ReplError(`vcd start: no signal matches '${g}'`);
    });
    const signals = globs.length ? globs : [this.scope ? `${this.scope}.**` : '**'];
    let writer: VcdOutput;
    try {
      writer = startVcdOutput(this.sim, planVcd('vcd', path), { signals, stateStrings: true, comment: `icemu repl (${this.configName}), from cycle ${this.sim.cycle}` });
    } catch (e) {
      throw new ReplError(`vcd start: ${(e as Error).message}`);
    }
    this.vcd = { writer, path };
    this.emit(`vcd: writing ${path} (${signals.join(', ')}) from cycle ${this.sim.cycle}; vcd stop closes it${writer.gtkwPath ? ` and writes ${writer.gtkwPath}` : ''}`);
  }

  private cmdSet(a: string[]): void {
    const [k, v] = a;
    if (k === 'run-limit') this.runLimit = this.intArg(v, 'run-limit', 1, Number.MAX_SAFE_INTEGER);
    else if (k === 'checkpoint-every') {
      this.every = this.intArg(v, 'checkpoint-every', 10, 1e9);
      this.nextAutoAt = this.autos[this.autos.length - 1]!.snap.cycle + this.every;
    } else if (k === 'width') this.width = this.intArg(v, 'width', 20, 1000);
    else throw new ReplError('usage: set run-limit <n> | set checkpoint-every <n> | set width <n>');
    this.emit(`${k} = ${v}`);
  }

  // ================================================================ completion

  /**
   * Completion for readline: [candidates, the text they replace]. A single
   * candidate that is a whole word (a command, a keyword, a signal) gets a
   * trailing space, as in a shell, so the next argument can be typed at
   * once; a scope (`node3.`) or a directory (`out/`) does not.
   */
  complete(line: string): [string[], string] {
    const [hits, token] = this.completeWord(line);
    if (hits.length === 1 && !/[./]$/.test(hits[0]!)) return [[`${hits[0]} `], token];
    return [hits, token];
  }

  private completeWord(line: string): [string[], string] {
    const sp = line.search(/\s/);
    if (sp < 0) {
      const hits = this.commandNames().filter((n) => n.startsWith(line));
      return [hits, line];
    }
    const word = line.slice(0, sp);
    const cmd = this.byName.get(word);
    if (!cmd) return [[], line];
    const args = line.slice(sp).trimStart();
    const argv = args.split(/\s+/);
    const argIndex = argv.length - 1;
    const token = /[A-Za-z0-9_.*?{},[\]/-]*$/.exec(line)![0];
    const pick = (list: string[]): [string[], string] => [list.filter((x) => x.startsWith(token)), token];
    if (cmd.name === 'help') return pick([...this.commandNames(), 'expressions']);
    if (cmd.name === 'restore' || (cmd.name === 'delete' && argv[0] === 'checkpoint' && argIndex === 1)) return pick([...this.named.keys()]);
    if (cmd.name === 'break' && argv[0] === 'event' && argIndex === 1) return pick([...EVENT_KINDS, 'any']);
    if (cmd.name === 'next-event' && argIndex === 0) return pick([...EVENT_KINDS]);
    if (argIndex === 0 && cmd.words) {
      const w = pick(cmd.words);
      if (w[0].length || cmd.arg === 'none' || cmd.arg === 'node') {
        if (cmd.arg === 'node' && !w[0].length) return pick(this.cube.nodes.map((_, x) => `node${x}`));
        return w;
      }
    }
    switch (cmd.arg) {
      case 'signal':
      case 'expr':
        return [this.completeName(token, false), token];
      case 'module':
        return [this.completeName(token, true), token];
      case 'node':
        return pick(this.cube.nodes.map((_, x) => `node${x}`));
      case 'file':
        if (cmd.name === 'vcd' && argIndex >= 2) return [this.completeName(token, false), token];
        return [completeFile(token), token];
      default:
        return [[], token];
    }
  }

  private completeName(token: string, modulesOnly: boolean): string[] {
    const out: string[] = [];
    const bases = token.startsWith('/') ? [''] : this.scope ? [this.scope, ''] : [''];
    const tok = token.replace(/^\//, '');
    const lead = token.startsWith('/') ? '/' : '';
    for (const base of bases) {
      const full = base ? `${base}.${tok}` : tok;
      const dot = full.lastIndexOf('.');
      const parentPath = dot < 0 ? '' : full.slice(0, dot);
      const partial = dot < 0 ? full : full.slice(dot + 1);
      const mod = this.sim.net.modulesByPath.get(parentPath);
      if (!mod) continue;
      const prefix = lead + tok.slice(0, tok.length - partial.length);
      for (const ch of mod.children) if (ch.name.startsWith(partial)) out.push(`${prefix}${ch.name}.`);
      if (!modulesOnly) {
        for (const s of mod.signals) if (s.name.startsWith(partial)) out.push(prefix + s.name);
        for (const m of mod.memories) if (m.name.startsWith(partial)) out.push(prefix + m.name);
      }
      if (out.length) break;
    }
    return [...new Set(out)];
  }
}

/** A checkpoint name: letters, digits, _ . - (not starting with a digit). */
function checkpointName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name)) throw new ReplError(`checkpoint: bad name '${name}' (letters, digits, _ . -)`);
  return name;
}

function eventMatches(e: TraceEvent, kind: EventKind | '*', f: EventFilter): boolean {
  if (kind !== '*' && e.kind !== kind) return false;
  if (f.msg !== undefined && e.msg !== f.msg) return false;
  if (f.node !== undefined && e.node !== f.node) return false;
  if (f.packet !== undefined && e.packet !== f.packet) return false;
  if (f.port !== undefined && e.port !== f.port) return false;
  if (f.unit !== undefined && e.unit !== f.unit) return false;
  return true;
}

/** Drop a trailing `# comment` (a '#' at the start or after blanks). */
export function stripComment(line: string): string {
  const m = /(^|\s)#/.exec(line);
  return m ? line.slice(0, m.index) : line;
}

function completeFile(token: string): string[] {
  const dir = token.includes('/') ? token.slice(0, token.lastIndexOf('/') + 1) : '';
  const base = token.slice(dir.length);
  try {
    return readdirSync(dir || '.')
      .filter((f) => f.startsWith(base) && !f.startsWith('.'))
      .map((f) => {
        const p = join(dir || '.', f);
        let isDir = false;
        try {
          isDir = statSync(p).isDirectory();
        } catch {
          /* unreadable entry */
        }
        return dir + f + (isDir ? '/' : '');
      });
  } catch {
    return [];
  }
}

