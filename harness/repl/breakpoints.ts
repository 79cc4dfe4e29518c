/**
 * REPL breakpoints: break (conditions and events), watch, info, delete, and
 * the checks the run loop (time.ts advance) makes after every step.
 */
import { nearestNames } from '../../rtl/kernel/names.ts';
import { EVENT_KINDS, type EventKind, type TraceEvent } from '../../traces/events/vocabulary.ts';
import { EVENT_FILTER_KEYS, ReplError, type CommandDef, type EventFilter } from './common.ts';
import type { ReplEngine } from './engine.ts';
import { parseInteger, type Ref } from './expr.ts';
import { listDisplays } from './display.ts';
import { formatEvent } from './views.ts';

export function breakpointCommands(e: ReplEngine): CommandDef[] {
  return [
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
          const { kind, filter } = parseEventSpec(e, a.slice(1), false);
          const id = e.nextBp++;
          const text = a.slice(1).join(' ');
          e.bps.push({ id, type: 'event', text, kind, filter, hits: 0 });
          e.emit(`event breakpoint ${id}: ${text}`);
        } else {
          const cond = e.compile(rest);
          const id = e.nextBp++;
          e.bps.push({ id, type: 'break', text: rest, cond, prev: cond.test(), hits: 0 });
          e.emit(`breakpoint ${id}: ${rest}${cond.test() ? ' (true now; stops when it next becomes true)' : ''}`);
        }
      },
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
        const refs = e.resolveRefs(m[1]!, m[2] === undefined ? undefined : e.intArg(m[2], 'address', 0, 2 ** 31));
        if (refs.length > 4096) throw new ReplError(`watch: '${a[0]}' matches ${refs.length} signals; at most 4096`);
        const id = e.nextBp++;
        e.bps.push({ id, type: 'watch', text: a[0]!, refs, prev: refs.map((r) => r.read()), hits: 0 });
        e.emit(`watch ${id}: ${a[0]} (${refs.length} signal${refs.length === 1 ? '' : 's'})`);
      },
    },
    {
      name: 'info',
      aliases: ['i'],
      usage: 'info [breakpoints | display | checkpoints | traces | config]',
      summary: 'list breakpoints and watches, displays, checkpoints, traces/VCD, or the configuration',
      help: ['info b is short for info breakpoints.'],
      maxArgs: 1,
      arg: 'none',
      words: ['breakpoints', 'display', 'checkpoints', 'traces', 'config'],
      run: (a) => cmdInfo(e, a[0]),
    },
    {
      name: 'delete',
      aliases: ['d'],
      usage: 'delete [n ...] | delete checkpoint <name>',
      summary: 'delete breakpoints/watches by number (all without numbers), or a named checkpoint',
      help: [],
      arg: 'none',
      words: ['checkpoint'],
      run: (a) => cmdDelete(e, a),
    },
  ];
}

export function parseEventSpec(e: ReplEngine, a: string[], optional: boolean): { kind: EventKind | '*'; filter: EventFilter } {
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
      const N = e.target.nodes;
      const P = e.target.ports;
      if (key === 'node' && v >= N) throw new ReplError(`bad event filter '${f}': node ${v} is outside 0..${N - 1}`);
      if (key === 'port' && v > P) throw new ReplError(`bad event filter '${f}': port ${v} is outside 0..${P}${P ? ` (0 the node's own port, 1..${P} the links)` : ''}`);
      filter[key] = v;
    }
  }
  return { kind, filter };
}

export function cmdInfo(e: ReplEngine, what: string | undefined): void {
  const all = what === undefined;
  const w = what === 'b' || what === 'break' || what === 'watch' ? 'breakpoints' : what;
  if (!all && !['breakpoints', 'display', 'checkpoints', 'traces', 'config'].includes(w!)) throw new ReplError(`info: unknown topic '${what}' (breakpoints, display, checkpoints, traces, config)`);
  if (all || w === 'breakpoints') {
    if (!e.bps.length) e.emit('no breakpoints or watches');
    else {
      e.emit(e.c.bold('Num  Type        Hits  What'));
      for (const b of e.bps) e.emit(`${String(b.id).padEnd(4)} ${(b.type === 'break' ? 'breakpoint' : b.type === 'watch' ? 'watch' : 'event').padEnd(11)} ${String(b.hits).padEnd(5)} ${b.text}`);
    }
  }
  if (w === 'display' || (all && e.displays.length)) listDisplays(e);
  if (all || w === 'checkpoints') {
    const names = [...e.named.values()];
    e.emit(`checkpoints: ${names.length ? names.map((n) => `${n.name} (cycle ${n.snap.cycle})`).join(', ') : 'no named ones'}; ${e.autos.length} automatic (every ${e.every} cycles, latest at cycle ${e.autos[e.autos.length - 1]!.snap.cycle})`);
  }
  if (all || w === 'traces') {
    e.emit(`traces: ${e.traces.size ? [...e.traces.keys()].map((x) => `node${x}`).join(', ') : 'off'}; vcd: ${e.vcd ? e.vcd.path : 'off'}`);
  }
  if (all || w === 'config') {
    e.emit(`config ${e.configName}: ${JSON.stringify(e.target.config)}`);
  }
}

export function cmdDelete(e: ReplEngine, a: string[]): void {
  if (a[0] === 'checkpoint') {
    const name = a[1];
    if (!name || !e.named.delete(name)) throw new ReplError(`delete checkpoint: no checkpoint '${name ?? ''}'${e.named.size ? ` (have ${[...e.named.keys()].join(', ')})` : ''}`);
    e.emit(`deleted checkpoint ${name}`);
    return;
  }
  if (!a.length) {
    const n = e.bps.length;
    e.bps = [];
    e.emit(`deleted ${n} breakpoint(s)/watch(es)`);
    return;
  }
  const ids = a.map((x) => e.intArg(x, 'breakpoint number', 1, Number.MAX_SAFE_INTEGER));
  for (const id of ids) if (!e.bps.some((b) => b.id === id)) throw new ReplError(`delete: no breakpoint ${id} (info breakpoints lists them)`);
  e.bps = e.bps.filter((b) => !ids.includes(b.id));
  e.emit(`deleted ${ids.join(', ')}`);
}

export function eventMatches(e: TraceEvent, kind: EventKind | '*', f: EventFilter): boolean {
  if (kind !== '*' && e.kind !== kind) return false;
  if (f.msg !== undefined && e.msg !== f.msg) return false;
  if (f.node !== undefined && e.node !== f.node) return false;
  if (f.packet !== undefined && e.packet !== f.packet) return false;
  if (f.port !== undefined && e.port !== f.port) return false;
  if (f.unit !== undefined && e.unit !== f.unit) return false;
  return true;
}

/** Before a run: remember each condition's and watch's value, so only changes stop it. */
export function armBreakpoints(e: ReplEngine): void {
  for (const b of e.bps) {
    if (b.type === 'break') b.prev = b.cond.test();
    else if (b.type === 'watch') b.prev = b.refs.map((r) => r.read());
  }
}

/** After a step: add a line to `hits` for each breakpoint, event breakpoint and watch that fired. */
export function checkBreakpoints(e: ReplEngine, fresh: TraceEvent[], hits: string[]): void {
  if (fresh.length) {
    for (const b of e.bps) {
      if (b.type !== 'event') continue;
      for (const ev of fresh) {
        if (eventMatches(ev, b.kind, b.filter)) {
          b.hits++;
          hits.push(`event breakpoint ${b.id}: ${formatEvent(ev)}`);
        }
      }
    }
  }
  for (const b of e.bps) {
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
          changes.push(`${r.name}: ${short(r, b.prev[i]!)} -> ${short(r, v)}`);
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

function short(r: Ref, v: number): string {
  return r.states ? `${r.states[v] ?? `?${v}`}` : String(v);
}
