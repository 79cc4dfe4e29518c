/**
 * REPL commands that move time forward: step, next-event, run, continue,
 * time; and the run loop (advance) they share, which yields to the event
 * loop every ~25 ms so Ctrl-C stops it at a cycle boundary.
 */
import { FLAG } from '../../rtl/buzzard/header_blocks.ts';
import { findDeadlock } from '../rtl/deadlock.ts';
import { EVENT_KINDS, type EventKind } from '../../traces/events/vocabulary.ts';
import { yieldToEvents } from '../cli/output-path.ts';
import { EVENT_FILTER_KEYS, ReplError, type CommandDef, type EventFilter } from './common.ts';
import type { ReplEngine } from './engine.ts';
import type { Condition } from './expr.ts';
import { armBreakpoints, checkBreakpoints, eventMatches, parseEventSpec } from './breakpoints.ts';
import { stepSafe } from './travel.ts';
import { formatEvent } from './views.ts';

const SLICE_MS = 25;

export function timeCommands(e: ReplEngine): CommandDef[] {
  return [
    {
      name: 'step',
      aliases: ['s'],
      usage: 'step [n]',
      summary: 'advance n clock cycles (default 1), ignoring breakpoints',
      help: ['One cycle = one link bit time. The registers and wires shown afterwards are those of the new cycle.'],
      maxArgs: 1,
      arg: 'none',
      run: async (a) => {
        const n = e.intArg(a[0], 'cycle count', 1, Number.MAX_SAFE_INTEGER, 1);
        report(e, await advance(e, n, { checks: false, bounded: true }));
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
        const { kind, filter } = parseEventSpec(e, a, true);
        report(e, await advance(e, e.runLimit, { checks: true, nextEvent: { kind, filter }, bounded: false }));
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
          const cond = e.compile(rest.replace(/^until\b/, '').trim());
          report(e, await advance(e, e.runLimit, { checks: true, until: cond, bounded: false }));
        } else if (a[0] !== undefined) {
          if (a.length > 1) throw new ReplError(`run: unexpected '${a[1]}' (run [n] or run until <condition>)`);
          const n = e.intArg(a[0], 'cycle count', 1, Number.MAX_SAFE_INTEGER);
          report(e, await advance(e, n, { checks: true, bounded: true }));
        } else report(e, await advance(e, e.runLimit, { checks: true, bounded: false }));
      },
    },
    {
      name: 'continue',
      aliases: ['c', 'cont'],
      usage: 'continue',
      summary: 'run until a breakpoint or watch stops it (or the network goes idle)',
      help: ['Same as run without a count.'],
      maxArgs: 0,
      arg: 'none',
      run: async () => report(e, await advance(e, e.runLimit, { checks: true, bounded: false })),
    },
    {
      name: 'time',
      aliases: ['t'],
      usage: 'time',
      summary: 'the current cycle',
      help: ['Also says whether anything is moving and when the next scheduled stimulus is.'],
      maxArgs: 0,
      arg: 'none',
      run: () => e.emit(`cycle ${e.sim.cycle}${activity(e)}`),
    },
  ];
}

/**
 * Advance up to `cycles` cycles. With `checks`, stop at breakpoints,
 * watches, `until` and (with `nextEvent`) at the next event. Returns why it
 * stopped ('' = ran all cycles).
 */
export async function advance(e: ReplEngine, cycles: number, o: { checks: boolean; until?: Condition; nextEvent?: { kind: EventKind | '*'; filter: EventFilter }; bounded: boolean }): Promise<string> {
  const sim = e.sim;
  const end = sim.cycle + cycles;
  // Unbounded runs go cycle by cycle too (quiescent stretches at once), so they stop on the first idle cycle.
  const perCycle = (o.checks && e.bps.length > 0) || o.until !== undefined || o.nextEvent !== undefined || !o.bounded;
  if (o.checks) armBreakpoints(e);
  e.freshEvents();
  let sliceStart = performance.now();
  let reason = '';
  while (sim.cycle < end) {
    if (e.stopFlag) {
      reason = 'interrupted (Ctrl-C)';
      break;
    }
    let k: number;
    if (!perCycle) {
      k = Math.min(end - sim.cycle, Math.max(1, e.nextAutoAt - sim.cycle), 5000);
    } else if (sim.quiescent) {
      const nx = sim.nextStimulus;
      if (nx === Infinity && !o.bounded) {
        reason = `idle: nothing is moving and nothing is scheduled${o.until ? ' (the condition cannot become true)' : ''}`;
        break;
      }
      k = Math.max(1, Math.min(end, nx, Math.max(e.nextAutoAt, sim.cycle + 1)) - sim.cycle);
    } else k = 1;
    stepSafe(e, k);
    const hits: string[] = [];
    const fresh = e.freshEvents();
    if (fresh.length && o.nextEvent) {
      const m = fresh.filter((ev) => eventMatches(ev, o.nextEvent!.kind, o.nextEvent!.filter));
      if (m.length) hits.push(...m.map((ev) => `event ${formatEvent(ev)}`));
    }
    if (o.checks) checkBreakpoints(e, fresh, hits);
    if (o.until) {
      const w: string[] = [];
      if (o.until.test(w)) hits.push(`condition ${o.until.text}${w.length ? `  [${[...new Set(w)].join(', ')}]` : ''}`);
    }
    if (hits.length) {
      reason = hits.join('\n  ');
      break;
    }
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEvents();
      sliceStart = performance.now();
    }
  }
  if (!reason && !o.bounded) reason = `run limit of ${cycles} cycles reached (set run-limit N)`;
  if (reason.startsWith('idle')) reason += idleNote(e);
  return reason;
}

/** Why an idle network may be stuck: unfinished messages, a deadlock. */
export function idleNote(e: ReplEngine): string {
  if (!e.bz) return '';
  const d = e.driver;
  const sends = d.sent.filter((m) => d.sendFlag(m).progress !== FLAG.complete).length;
  const recvs = d.receives.filter((r) => d.received(r).progress !== FLAG.complete).length;
  if (!sends && !recvs) return '';
  let dl = '';
  try {
    const x = findDeadlock(e.sim, e.cube);
    if (x) dl = `; deadlock: ${x.cycle.join(' -> ')} (see deadlock)`;
  } catch {
    /* the note is a hint only */
  }
  return `; ${sends} send(s) and ${recvs} receive(s) not complete${dl}`;
}

export function report(e: ReplEngine, reason: string): void {
  const line = reason ? `stopped at cycle ${e.sim.cycle}: ${reason}` : `cycle ${e.sim.cycle}`;
  if (reason) e.lastStop = line;
  e.emit(reason ? e.c.yellow(line) : line);
}

export function activity(e: ReplEngine): string {
  const sim = e.sim;
  const nx = sim.nextStimulus;
  if (sim.quiescent) return nx === Infinity ? ' (idle: nothing moving, nothing scheduled)' : ` (quiescent until the stimulus at cycle ${nx})`;
  return nx === Infinity ? ' (busy)' : ` (busy; next stimulus at cycle ${nx})`;
}
