/**
 * The debugger REPL engine: takes one command line at a time and returns its
 * output lines or one error line. It holds the simulated Buzzard cube, the
 * breakpoints and watches, the checkpoints and the command history needed
 * for reverse stepping; the commands live in one file per family (help,
 * time, hierarchy, breakpoints, stimulus, inspect, travel, output; common.ts
 * the shared types, complete.ts completion). It knows nothing of
 * terminals: harness/repl/terminal.ts (interactive, readline) and script.ts
 * (--script, tests) drive it.
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
import { Memory, Module, Signal, Simulator, type Observer } from '../../rtl/kernel/index.ts';
import { isGlob, nearestNames } from '../../rtl/kernel/names.ts';
import { BuzzardCube } from '../../rtl/buzzard/network.ts';
import { checkConfig, type BuzzardConfig } from '../../rtl/buzzard/config.ts';
import { attachEvents, type EventRecorder } from '../rtl/events.ts';
import { attachNodeTrace, type NodeTrace } from '../rtl/node_trace.ts';
import type { VcdOutput } from '../cli/vcd-output.ts';
import type { TraceEvent } from '../../traces/events/vocabulary.ts';
import { compileCondition, parseInteger, type Condition, type Ref } from './expr.ts';
import { signalOptions } from './format.ts';
import { ReplDriver } from './driver.ts';
import { resolveConfig } from './presets.ts';
import type { ViewContext } from './views.ts';
import { errorText, ReplError, stripComment, type AutoCheckpoint, type Breakpoint, type CommandDef, type LogEntry, type NamedCheckpoint, type Trace } from './common.ts';
import { helpCommands, quitCommand } from './help.ts';
import { timeCommands } from './time.ts';
import { hierarchyCommands } from './hierarchy.ts';
import { breakpointCommands } from './breakpoints.ts';
import { stimulusCommands } from './stimulus.ts';
import { viewCommands } from './inspect.ts';
import { pack, travelCommands } from './travel.ts';
import { outputCommands } from './output.ts';
import { eventsCommand, type EventFile } from './events_file.ts';
import { complete } from './complete.ts';
import { buzzardTarget, NETWORK_PRESETS, notHere, type Target } from './targets.ts';
import { displayCommands, showDisplays, type Display } from './display.ts';

export { ReplError, stripComment } from './common.ts';

/** Commands after which displays are shown even when the cycle is the same. */
const MOVES = new Set(['back', 'restore', 'step', 'run', 'continue', 'next-event']);

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
  /** With `quit`: the exit status it named (`quit 3`), else 0. */
  status?: number;
}

export class ReplEngine {
  readonly configName: string;
  /** The hardware under debug (targets.ts); a Buzzard cube unless a network preset was chosen. */
  readonly target: Target;
  readonly sim: Simulator;
  /** The Buzzard parts; undefined in a session on other hardware. */
  readonly bz: { cfg: BuzzardConfig; cube: BuzzardCube; driver: ReplDriver } | undefined;
  readonly c: ChalkInstance;
  // The fields and methods below without a doc comment are internal to
  // harness/repl: the command families (help.ts, time.ts, ...) use them.
  /** The Buzzard event recorder (undefined on other hardware). */
  bzRecorder: EventRecorder | undefined;
  /** The events recorded so far (of whichever recorder is attached). */
  events: TraceEvent[] = [];
  /** Names of the commands the target provides (targets.ts). */
  readonly ownCommands = new Set<string>();
  /** The command being run (for errors about the hardware). */
  current = '';
  recObserver!: Observer;
  recDetach: (() => void) | undefined;
  readonly commands: CommandDef[];
  readonly byName = new Map<string, CommandDef>();

  scope = '';
  out: string[] = [];
  stopFlag = false;
  running = false;
  lastStop = '';
  width: number;
  /**
   * Where node-trace lines go while a command runs: by default into the
   * command's output lines; a terminal sets this to print them as they come.
   */
  traceSink: ((line: string) => void) | undefined;

  bps: Breakpoint[] = [];
  nextBp = 1;
  displays: Display[] = [];
  nextDisplay = 1;

  every: number;
  nextAutoAt: number;
  autos: AutoCheckpoint[] = [];
  log: LogEntry[] = [];
  readonly named = new Map<string, NamedCheckpoint>();
  namedCounter = 0;
  runLimit: number;
  /** Lines one print shows at most (set print-limit). */
  printLimit = 400;

  readonly traces = new Map<number, Trace>();
  vcd: { writer: VcdOutput; path: string } | undefined;
  /** The event trace being recorded (events start, events_file.ts). */
  eventFile: EventFile | undefined;

  seen = new Set<TraceEvent>();
  seenLen = 0;
  readonly names: string[];

  constructor(opts: EngineOptions = {}) {
    const network = opts.config === undefined && opts.preset !== undefined ? NETWORK_PRESETS[opts.preset] : undefined;
    if (network) {
      this.target = network.open();
      this.configName = this.target.name;
      this.sim = this.target.sim ?? new Simulator(this.target.top);
      this.bz = undefined;
    } else {
      const r = opts.config ? { config: checkConfig(opts.config), name: 'config' } : resolveConfig(opts.preset);
      this.configName = r.name;
      const cube = new BuzzardCube(r.config);
      this.sim = new Simulator(cube);
      this.bz = { cfg: r.config, cube, driver: new ReplDriver(this.sim, cube) };
      this.target = buzzardTarget(r.name, r.config, cube);
    }
    this.c = new Chalk({ level: opts.color ? 2 : 0 });
    this.width = opts.width ?? 120;
    const every = opts.checkpointEvery ?? 1000;
    if (!(Number.isInteger(every) && every >= 10)) throw new RangeError(`checkpointEvery: ${every} is not a whole number >= 10`);
    this.every = every;
    this.runLimit = opts.runLimit ?? 1_000_000;
    this.names = [...this.sim.net.byName.keys()];
    this.newRecorder([]);
    this.autos.push({ snap: pack(this.sim.save(), undefined), logLen: 0 });
    this.nextAutoAt = this.every;
    this.commands = [
      ...helpCommands(this),
      ...timeCommands(this),
      ...hierarchyCommands(this),
      ...breakpointCommands(this),
      ...displayCommands(this),
      ...stimulusCommands(this),
      ...viewCommands(this),
      ...travelCommands(this),
      ...outputCommands(this),
      eventsCommand(this),
      quitCommand,
    ];
    for (const own of this.target.commands(this)) {
      this.ownCommands.add(own.name);
      const k = this.commands.findIndex((c) => c.name === own.name);
      if (k >= 0) this.commands[k] = own;
      else this.commands.splice(this.commands.length - 1, 0, own);
    }
    for (const c of this.commands) for (const n of [c.name, ...c.aliases]) this.byName.set(n, c);
  }

  // ================================================================ public API

  /** The Buzzard event recorder currently attached (rebuilt by back / restore). */
  get rec(): EventRecorder {
    return this.recorder;
  }

  /** The Buzzard configuration (an error in a session on other hardware). */
  get cfg(): BuzzardConfig {
    return this.buzzard().cfg;
  }

  get cube(): BuzzardCube {
    return this.buzzard().cube;
  }

  get driver(): ReplDriver {
    return this.buzzard().driver;
  }

  get recorder(): EventRecorder {
    this.buzzard();
    return this.bzRecorder!;
  }

  /** The Buzzard parts, or one error line naming the command and the hardware of this session. */
  buzzard(): { cfg: BuzzardConfig; cube: BuzzardCube; driver: ReplDriver } {
    if (!this.bz) throw notHere(this.current || 'this command', this.target);
    return this.bz;
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

  /** Run one command line. Never throws: errors come back as `error`. */
  async exec(line: string): Promise<ExecResult> {
    const text = stripComment(line).trim();
    if (!text) return { lines: [] };
    if (this.running) return { lines: [], error: 'a command is still running (Ctrl-C stops it)' };
    this.running = true;
    this.stopFlag = false;
    this.out = [];
    try {
      const sp = text.search(/\s/);
      const word = sp < 0 ? text : text.slice(0, sp);
      const rest = sp < 0 ? '' : text.slice(sp).trim();
      const cmd = this.byName.get(word);
      if (!cmd) {
        const near = nearestNames(word, this.commandNames());
        throw new ReplError(`unknown command '${word}'${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; type help for the list`);
      }
      if (cmd.name === 'quit') {
        // gdb's `quit [expression]`: the session's exit status (0 when none).
        const args = rest ? rest.split(/\s+/) : [];
        if (args.length > 1) throw new ReplError(`quit: unexpected '${args[1]}' (usage: ${cmd.usage})`);
        return { lines: [], quit: true, status: args.length ? this.intArg(args[0], 'quit status', 0, 255) : 0 };
      }
      this.current = cmd.name;
      const args = rest ? rest.split(/\s+/) : [];
      if (cmd.maxArgs !== undefined && args.length > cmd.maxArgs) throw new ReplError(`${cmd.name}: unexpected '${args[cmd.maxArgs]}' (usage: ${cmd.usage})`);
      const at = this.sim.cycle;
      await cmd.run(args, rest);
      if (this.displays.length && (this.sim.cycle !== at || MOVES.has(cmd.name))) showDisplays(this);
      return { lines: this.out };
    } catch (e) {
      return { lines: this.out, error: errorText(e) };
    } finally {
      this.running = false;
      this.stopFlag = false;
    }
  }

  /** Close an open VCD and stop observing; write an event trace being recorded. */
  close(): string[] {
    if (this.vcd) {
      this.vcd.writer.close();
      this.vcd = undefined;
    }
    const f = this.eventFile;
    this.eventFile = undefined;
    return f ? [f.finish()] : [];
  }

  emit(...lines: string[]): void {
    for (const l of lines) this.out.push(l);
  }

  get view(): ViewContext {
    return { sim: this.sim, cube: this.cube, driver: this.driver, rec: this.recorder, c: this.c };
  }

  /** Completion for readline: [candidates, the text they replace]. */
  complete(line: string): [string[], string] {
    return complete(this, line);
  }

  // ================================================================ internal (for the command families)

  // ---------------------------------------------------------------- names

  /** Absolute path of `name` relative to the scope ('/' prefix: absolute). */
  candidatesFor(name: string): string[] {
    if (name.startsWith('/')) return [name.slice(1)];
    return this.scope ? [`${this.scope}.${name}`, name] : [name];
  }

  /** Signals and memories named by `pattern` (a name or glob, relative to the scope first). */
  lookup(pattern: string): (Signal | Memory)[] {
    return this.lookupScoped(pattern).hits;
  }

  /** Like lookup; `scoped`: the matches were found inside the scope (so they print relative to it). */
  lookupScoped(pattern: string): { hits: (Signal | Memory)[]; scoped: boolean } {
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

  unknownName(name: string): string {
    const mod = this.findModuleMaybe(name);
    if (mod !== undefined) return `'${name}' is a module, not a signal (print ${name}.* or ls ${name})`;
    const near = new Set<string>();
    for (const cand of this.candidatesFor(name)) for (const s of nearestNames(cand, this.names)) near.add(s);
    const list = [...near].slice(0, 4).map((s) => this.rel(s));
    return `no signal or memory named '${name}'${list.length ? `; did you mean ${list.join(', ')}?` : ''}`;
  }

  /** A name as shown: relative to the scope when inside it. */
  rel(path: string): string {
    return this.scope && path.startsWith(this.scope + '.') ? path.slice(this.scope.length + 1) : path;
  }

  sigRef(sig: Signal): Ref {
    const sim = this.sim;
    const states = signalOptions(sim, sig).enum;
    return states ? { name: sig.path, read: () => sim.peek(sig), states, width: sig.width } : { name: sig.path, read: () => sim.peek(sig), width: sig.width };
  }

  memRef(m: Memory, addr: number): Ref {
    if (!(Number.isInteger(addr) && addr >= 0 && addr < m.depth)) throw new ReplError(`${m.path}: address ${addr} is outside 0..${m.depth - 1}`);
    return { name: `${m.path}[${addr}]`, read: () => m.data[addr]!, width: m.width };
  }

  /** Resolver for conditions. */
  readonly resolveRefs = (name: string, index: number | undefined): Ref[] => {
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
        if (index === undefined) refs.push(this.sigRef(h));
        else {
          // a bit of a signal: x[5]
          if (index >= h.width) throw new ReplError(`${h.path}[${index}]: the signal has ${h.width} bit${h.width === 1 ? '' : 's'} (0..${h.width - 1})`);
          const sim = this.sim;
          const bit = 2 ** index;
          refs.push({ name: `${h.path}[${index}]`, read: () => Math.floor(sim.peek(h) / bit) % 2, width: 1 });
        }
      }
    }
    if (!refs.length) throw new ReplError(`'${name}' matches only memories: name a word with [addr]`);
    return refs;
  };

  compile(text: string): Condition {
    if (!text.trim()) throw new ReplError('missing condition, e.g. node3.pbu1.freeRows == 0');
    return compileCondition(text, this.resolveRefs);
  }

  findModuleMaybe(path: string): Module | undefined {
    const mods = this.sim.net.modulesByPath;
    if (path === '/' || path === '') return mods.get('');
    for (const cand of this.candidatesFor(path.replace(/\/+$/, ''))) {
      const m = mods.get(cand);
      if (m) return m;
    }
    return undefined;
  }

  resolveScope(arg: string): string {
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
  parseValue(text: string | undefined, sig?: Signal): number {
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

  intArg(text: string | undefined, what: string, lo: number, hi: number, dflt?: number): number {
    if (text === undefined) {
      if (dflt !== undefined) return dflt;
      throw new ReplError(`missing ${what}`);
    }
    const v = parseInteger(text);
    if (v === undefined || v < lo || v > hi) throw new ReplError(`${what}: '${text}' is not a whole number in ${lo}..${hi}`);
    return v;
  }

  // ---------------------------------------------------------------- instruments

  newRecorder(seed: TraceEvent[]): void {
    const sim = this.sim;
    let captured: Observer | undefined;
    const orig = sim.observe.bind(sim);
    // Catch the recorder's observer, so it can be taken off and put back (wave) without losing its state.
    sim.observe = (o: Observer) => {
      captured = o;
      return orig(o);
    };
    let rec: { events: TraceEvent[]; detach: () => void };
    try {
      if (this.bz) rec = this.bzRecorder = attachEvents(sim, this.bz.cube, this.bz.driver);
      else rec = this.target.attachEvents(sim);
    } finally {
      Reflect.deleteProperty(sim, 'observe');
    }
    this.recObserver = captured!;
    this.recDetach = rec.detach;
    for (const e of seed) rec.events.push(e);
    this.events = rec.events;
    this.seen = new Set(rec.events);
    this.seenLen = rec.events.length;
  }

  detachInstruments(): void {
    this.eventFile?.pause();
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
  attachInstruments(rebuiltTraces: boolean): void {
    if (!this.recDetach) this.recDetach = this.sim.observe(this.recObserver);
    for (const t of this.traces.values()) {
      if (rebuiltTraces) {
        t.trace = this.makeTrace(t.node);
        t.detach = t.trace.detach;
      } else if (!t.detach) t.detach = this.sim.observe(t.trace.tracer);
    }
    if (this.vcd && !this.vcd.writer.writer.detach) this.vcd.writer.writer.detach = this.sim.observe(this.vcd.writer.writer);
    // After a jump (back, restore) the event recorders cannot go on: the trace is written up to the cycle left.
    if (this.eventFile && rebuiltTraces) {
      this.emit(this.eventFile.finish().replace(/^events: /, 'events: the jump ended the recording: '));
      this.eventFile = undefined;
    } else this.eventFile?.resume();
  }

  makeTrace(node: number): NodeTrace {
    return attachNodeTrace(this.sim, this.cube, node, { events: this.recorder, sink: (l) => (this.traceSink ? this.traceSink(l) : this.out.push(l)), header: true });
  }

  /** New events since the last call, in time order. */
  freshEvents(): TraceEvent[] {
    const ev = this.events;
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
}
